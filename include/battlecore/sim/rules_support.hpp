#pragma once
/// What the rule-set adapters (deckbuilder_rules.hpp, clash_rules.hpp) share in their bodies.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/content/scenario_io.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

/// Every encounter id of a catalog, in catalog order.
template <class Catalog>
std::vector<std::string> encounter_ids(const Catalog& catalog) {
  std::vector<std::string> ids;
  for (const auto& e : catalog.encounters) ids.push_back(e.id);
  return ids;
}

/// A started battle: `start_scenario(catalog, document, seed, options)` when `start` carries a
/// scenario, else start_battle(encounter, seed). A deck is refused: the rule sets that have
/// decks start such a battle themselves.
template <class Battle, class Catalog, class Options, class StartScenario>
Result<Battle> start_battle_or_scenario(const std::shared_ptr<const Catalog>& catalog,
                                        const BattleStart& start, Options options,
                                        StartScenario start_scenario) {
  if (!start.deck.empty()) return Error{"a battle of these rules has no deck to start from"};
  if (!start.scenario.is_null()) {
    const nlohmann::json scenario = content::scenario_naming(start.scenario, start.encounter);
    content::JsonDocument doc{"scenario", scenario.dump(2), scenario};
    auto started = start_scenario(catalog, doc, start.seed, options);
    if (!started) return Error{"the scenario is refused:\n" + started.error().to_string()};
    return std::move(started).value();
  }
  Battle battle(catalog, options);
  auto started = battle.start_battle(start.encounter, start.seed);
  if (!started) return started.error();
  return battle;
}

}  // namespace battlecore::sim
