#pragma once
// A deckbuilder battle started from a scenario built in a test: the scenario's piles, rules and
// the rest are members of a JSON object.

#include <memory>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/scenario.hpp"

namespace battlecore::test {

/// A battle of `encounter` of `catalog` started from a scenario with seed 1 whose other members
/// are those of `members` (piles, energy, ...); throws (failing the test) when it is refused.
inline deckbuilder::Battle scenario_battle_of(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                              std::string_view encounter, const nlohmann::json& members) {
  nlohmann::json scenario = {{"format", "battlecore-scenario"},
                             {"format_version", 1},
                             {"rules", "deckbuilder"},
                             {"encounter", encounter},
                             {"seed", 1}};
  scenario.update(members);
  content::Diagnostics diags;
  const auto doc = content::parse_json_text("scenario.json", scenario.dump(), diags);
  if (!doc) throw std::runtime_error(diags.to_string());
  auto started = deckbuilder::start_scenario(catalog, *doc);
  if (!started.ok()) throw std::runtime_error(started.error().to_string());
  return std::move(started).value();
}

}  // namespace battlecore::test
