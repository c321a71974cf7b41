#pragma once
/// The deckbuilder's adapter for the generic determinism machinery: replays
/// (battlecore/sim/replay.hpp), the invariant sweep (tests/support/sweep.hpp) and the fuzz
/// targets (tests/fuzz/) take it as their template argument. Another rule set joins by writing
/// the same struct (docs/determinism.md#adding-a-rule-set).

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
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

struct DeckbuilderRules {
  static constexpr std::string_view kName = "deckbuilder";
  /// A snapshot taken at any moment, from an event listener in the middle of a step too,
  /// restores to an equal battle (docs/determinism.md#snapshots): the sweep and the content fuzz
  /// target check it at events.
  static constexpr bool kSnapshotsAtAnyEvent = true;
  using Machine = deckbuilder::Machine;
  using Catalog = deckbuilder::Catalog;
  using Battle = deckbuilder::Battle;
  using Action = deckbuilder::Action;
  using Rejection = deckbuilder::Rejection;

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
                              deckbuilder::BattleOptions options = {});
  /// The rule set's start_scenario: the battle a scenario document describes with `seed`, or
  /// every problem in the document.
  static Result<Battle, content::Diagnostics> start_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                             const content::JsonDocument& scenario,
                                                             std::uint64_t seed);
  static nlohmann::json action_to_json(const Battle& battle, const Action& action);
  static Result<Action> action_from_json(const nlohmann::json& json) {
    return deckbuilder::action_from_json(json);
  }
  static std::string refusal_text(const Rejection& r) { return r.message; }
  static nlohmann::json snapshot(const Battle& battle);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog,
                                const nlohmann::json& snapshot);
  /// The rule set's invariants across one submit (`before` is the battle before it, both with
  /// the event log on): every card instance sits in exactly one pile, instances appear only
  /// with a CardCreated event, energy >= 0, HP within [0, max HP]. Empty when they hold.
  static std::vector<std::string> invariants(const Battle& before, const Battle& after);
  /// Any action, legal or not, made from four bytes (fuzzing and the sweep's illegal actions).
  static Action action_from_bytes(std::span<const std::uint8_t, 4> bytes);
};

}  // namespace battlecore::sim
