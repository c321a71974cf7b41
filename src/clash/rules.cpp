#include "battlecore/clash/rules.hpp"

#include "battlecore/clash/catalog.hpp"

namespace battlecore::clash {

namespace {
constexpr std::array<std::string_view, kElementCount> kElementNames = {"none",   "air",  "earth",
                                                                       "energy", "fire", "water"};
}

std::string_view element_name(Element e) { return kElementNames[static_cast<std::size_t>(e)]; }

std::optional<Element> element_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kElementNames.size(); ++i)
    if (kElementNames[i] == name) return static_cast<Element>(i);
  return std::nullopt;
}

std::string_view seat_kind_name(SeatKind k) { return k == SeatKind::Human ? "human" : "bot"; }

std::optional<EncounterId> Catalog::find_encounter(std::string_view id) const {
  for (std::size_t i = 0; i < encounters.size(); ++i)
    if (encounters[i].id == id) return static_cast<EncounterId>(i);
  return std::nullopt;
}

}  // namespace battlecore::clash
