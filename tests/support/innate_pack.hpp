#pragma once
// A deckbuilder pack whose deck holds more Innate cards than the opening hand: seven runes, all
// Innate and each its own card, with eight ordinary cards. A battle starts with five runes in
// hand and the other two on top of the draw pile, the eight ordinary cards under them.

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/load.hpp"

namespace battlecore::test {

inline constexpr std::size_t kInnateRunes = 7;     ///< runes in the deck, all Innate
inline constexpr std::size_t kOrdinaryCards = 8;   ///< jabs and guards in the deck
inline constexpr std::size_t kRunesLeftOnTop = 2;  ///< runes the opening hand of 5 leaves on top

/// The pack's catalog (encounter "e": the player against one enemy that waits), loaded once.
inline std::shared_ptr<const deckbuilder::Catalog> innate_pack() {
  static const std::shared_ptr<const deckbuilder::Catalog> catalog = [] {
    std::string runes;
    for (char r = 'a'; r < 'a' + static_cast<char>(kInnateRunes); ++r)
      runes += std::string(R"({ "id": "rune_)") + r +
               R"(", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
                 "effects": [{ "op": "armor", "amount": 1 }] },)";
    std::string deck;
    for (char r = 'a'; r < 'a' + static_cast<char>(kInnateRunes); ++r)
      deck += std::string(R"({ "card": "rune_)") + r + R"(", "count": 1 },)";
    const std::string text = R"({
      "pack": { "id": "innate", "rules": "deckbuilder" },
      "cards": [)" + runes + R"(
        { "id": "jab", "type": "attack", "cost": 1, "target": "enemy",
          "effects": [{ "op": "damage", "amount": 6 }] },
        { "id": "guard", "type": "skill", "cost": 1, "target": "none",
          "effects": [{ "op": "armor", "amount": 5 }] }
      ],
      "enemies": [{ "id": "dummy", "hp": 30, "moves": [{ "id": "wait", "intent": "unknown", "effects": [] }],
                    "behavior": { "kind": "sequence", "moves": ["wait"] } }],
      "players": [{ "id": "hero", "max_hp": 50,
                    "deck": [)" +
                             deck + R"({ "card": "jab", "count": 4 }, { "card": "guard", "count": 4 }] }],
      "encounters": [{ "id": "e", "player": "hero", "enemies": ["dummy"] }]
    })";
    content::Diagnostics diags;
    std::optional<content::JsonDocument> doc = content::parse_json_text("innate.json", text, diags);
    if (!doc) throw std::runtime_error("the innate pack does not parse:\n" + diags.to_string());
    deckbuilder::CatalogResult r =
        deckbuilder::load_catalog(std::vector<content::JsonDocument>{std::move(*doc)});
    if (!r.ok()) throw std::runtime_error("the innate pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return catalog;
}

}  // namespace battlecore::test
