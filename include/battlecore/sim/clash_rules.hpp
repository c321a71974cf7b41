#pragma once
/// The clash's adapter for the generic determinism machinery: replays
/// (battlecore/sim/replay.hpp), the invariant sweep (tests/support/sweep.hpp) and the fuzz
/// targets (tests/fuzz/) take it as their template argument, as they take DeckbuilderRules
/// (docs/determinism.md#adding-a-rule-set).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/clash/actions.hpp"
#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/phases.hpp"
#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

struct ClashRules {
  static constexpr std::string_view kName = "clash";
  /// False: a snapshot taken from an event listener in the middle of a step may be refused (a
  /// seat with no health left before the referee puts it out; docs/determinism.md#snapshots).
  static constexpr bool kSnapshotsAtAnyEvent = false;
  using Machine = clash::Machine;
  using Catalog = clash::Catalog;
  using Battle = clash::Battle;
  using Action = clash::Action;
  using Rejection = clash::Rejection;

  /// load_catalog of a pack directory or file.
  static Result<std::shared_ptr<const Catalog>, content::Diagnostics> load(const std::filesystem::path& path);
  /// Loads already parsed documents (the content fuzz target).
  static Result<std::shared_ptr<const Catalog>, content::Diagnostics> load(
      const std::vector<content::JsonDocument>& documents);
  static std::uint64_t content_hash(const Catalog& catalog) { return catalog.content_hash; }
  /// Every encounter id, in catalog order.
  static std::vector<std::string> encounters(const Catalog& catalog);
  /// A started battle: start_battle(encounter, seed), or the scenario with that seed.
  static Result<Battle> start(const std::shared_ptr<const Catalog>& catalog, const BattleStart& start,
                              clash::BattleOptions options = {});
  /// The rule set's start_scenario: the battle a scenario document describes with `seed`, or
  /// every problem in the document.
  static Result<Battle, content::Diagnostics> start_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                             const content::JsonDocument& scenario,
                                                             std::uint64_t seed);
  static nlohmann::json action_to_json(const Battle&, const Action& action) {
    return clash::action_to_json(action);
  }
  static Result<Action> action_from_json(const nlohmann::json& json) { return clash::action_from_json(json); }
  static std::string refusal_text(const Rejection& r) { return r.message; }
  static nlohmann::json snapshot(const Battle& battle);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog,
                                const nlohmann::json& snapshot);
  /// The rule set's invariants across one submit (`before` is the battle before it, both with
  /// the event log on): clash::check_invariants (2 to 4 seats, the turn order a permutation,
  /// hands within the hand size, health at most the encounter's, rocks on the ring, places),
  /// health never below what the elimination rule allows, health, eliminations and places only
  /// changing through the referee, the round never going back, and every card accounted for
  /// (a hand changes only by CardPlayed and CardDealt events; a listed deck's cards are a
  /// sub-multiset of the list). Empty when they hold.
  static std::vector<std::string> invariants(const Battle& before, const Battle& after);
  /// Any action, legal or not, made from four bytes (fuzzing and the sweep's illegal actions).
  static Action action_from_bytes(std::span<const std::uint8_t, 4> bytes);
};

}  // namespace battlecore::sim
