#pragma once
/// Which encounter a run or a session plays, for any rule set's catalog.

#include <string>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"

namespace battlecore::sim {

/// The encounter to play: the scenario's when it names one, else `encounter`, else the pack's
/// default; an error when there is none, the pack does not have it, or `encounter` and the
/// scenario name two different ones.
template <class Catalog>
auto resolve_encounter(const Catalog& catalog, std::string encounter, const nlohmann::json& scenario)
    -> Result<std::remove_cvref_t<decltype(*catalog.pack.default_encounter)>> {
  if (scenario.is_object())
    if (const auto it = scenario.find("encounter"); it != scenario.end() && it->is_string()) {
      const std::string& named = it->get_ref<const std::string&>();
      if (!encounter.empty() && encounter != named)
        return Error{fmt::format(
            "encounter '{}' was asked for, but the scenario starts encounter '{}'; give one of them",
            encounter, named)};
      encounter = named;
    }
  const auto found = encounter.empty() ? catalog.pack.default_encounter : catalog.find_encounter(encounter);
  if (!found) {
    if (encounter.empty()) return Error{"the pack names no default encounter; pass --encounter ID"};
    return Error{fmt::format("no encounter '{}' in pack '{}'", encounter, catalog.pack.id)};
  }
  return *found;
}

/// resolve_encounter's encounter by its id.
template <class Catalog>
Result<std::string> resolve_encounter_id(const Catalog& catalog, std::string encounter,
                                         const nlohmann::json& scenario) {
  auto found = resolve_encounter(catalog, std::move(encounter), scenario);
  if (!found) return found.error();
  return catalog.encounters[found.value()].id;
}

}  // namespace battlecore::sim
