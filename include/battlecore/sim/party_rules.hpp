#pragma once
/// The party rule set's adapter for the generic determinism machinery: replays
/// (battlecore/sim/replay.hpp), the invariant sweep (tests/support/sweep.hpp) and the fuzz
/// targets (tests/fuzz/) take it as their template argument
/// (docs/determinism.md#adding-a-rule-set).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/phases.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

struct PartyRules {
  static constexpr std::string_view kName = "party";
  /// False: a snapshot taken from an event listener in the middle of a step may be refused (the
  /// rule set's invariants describe a battle between two actions; docs/determinism.md#snapshots).
  static constexpr bool kSnapshotsAtAnyEvent = false;
  using Machine = party::Machine;
  using Catalog = party::Catalog;
  using Battle = party::Battle;
  using Action = party::Action;
  using Rejection = party::Rejection;

  static Result<std::shared_ptr<const Catalog>, content::Diagnostics> load(const std::filesystem::path& path);
  static Result<std::shared_ptr<const Catalog>, content::Diagnostics> load(
      const std::vector<content::JsonDocument>& documents);
  static std::uint64_t content_hash(const Catalog& catalog) { return catalog.content_hash; }
  /// Every encounter id, in catalog order.
  static std::vector<std::string> encounters(const Catalog& catalog);
  /// A started battle: start_battle(encounter, seed), or the scenario with that seed.
  static Result<Battle> start(const std::shared_ptr<const Catalog>& catalog, const BattleStart& start,
                              party::BattleOptions options = {});
  /// The rule set's start_scenario: the battle a scenario document describes with `seed`, or
  /// every problem in the document.
  static Result<Battle, content::Diagnostics> start_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                             const content::JsonDocument& scenario,
                                                             std::uint64_t seed);
  static nlohmann::json action_to_json(const Battle&, const Action& action) {
    return party::action_to_json(action);
  }
  static Result<Action> action_from_json(const nlohmann::json& json) { return party::action_from_json(json); }
  static std::string refusal_text(const Rejection& r) { return r.message; }
  static nlohmann::json snapshot(const Battle& battle);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog,
                                const nlohmann::json& snapshot);
  /// The rule set's invariants across one submit: party::check_invariants (counters within
  /// [-8, 1], an enemy's within [1 - moves, 1], HP within [0, max HP], TP within [0, max TP],
  /// charge within [0, 3], at most 4 active enemies, no fallen enemy holding a slot while a
  /// decision waits, a selected member that can act, the formation holding every member once), and
  /// across the step: the party keeps its members, item counts never grow, the turn never goes
  /// back, enemy numbers stay unique.
  static std::vector<std::string> invariants(const Battle& before, const Battle& after);
  /// Any action, legal or not, made from four bytes.
  static Action action_from_bytes(std::span<const std::uint8_t, 4> bytes);
};

}  // namespace battlecore::sim
