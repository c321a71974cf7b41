#include "battlecore/party/catalog.hpp"

#include <array>

namespace battlecore::party {

std::string_view condition_effect_name(ConditionEffect e) {
  constexpr std::array<std::string_view, kConditionEffectCount> names = {
      "freeze",     "poison",       "numb",    "sleep",      "attack_up", "attack_down",
      "defense_up", "defense_down", "flipped", "shield",     "taunted",   "sturdy",
      "fire",       "inked",        "sticky",  "gradual_hp", "gradual_tp"};
  return names[static_cast<std::size_t>(e)];
}

std::optional<EncounterId> Catalog::find_encounter(std::string_view id) const {
  for (std::size_t i = 0; i < encounters.size(); ++i)
    if (encounters[i].id == id) return static_cast<EncounterId>(i);
  return std::nullopt;
}

std::optional<ConditionId> Catalog::find_condition(std::string_view id) const {
  for (std::size_t i = 0; i < conditions.size(); ++i)
    if (conditions[i].id == id) return static_cast<ConditionId>(i);
  return std::nullopt;
}

}  // namespace battlecore::party
