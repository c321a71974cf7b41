#pragma once
// The bundled deckbuilder starter pack, loaded once per test program.

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "battlecore/deckbuilder/load.hpp"

namespace battlecore::test {

/// The starter pack's catalog; throws (failing the test) when it does not load.
inline std::shared_ptr<const deckbuilder::Catalog> starter() {
  static const std::shared_ptr<const deckbuilder::Catalog> catalog = [] {
    deckbuilder::CatalogResult r =
        deckbuilder::load_catalog(std::filesystem::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter");
    if (!r.ok()) throw std::runtime_error("the starter pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return catalog;
}

/// The starter pack with one more card, "strike_again", a copy of Strike under another id, in
/// place of one Strike in W1's deck: a pack that adds a card and plays the same battles.
inline std::shared_ptr<const deckbuilder::Catalog> starter_with_strike_again() {
  auto pack = std::make_shared<deckbuilder::Catalog>(*starter());
  const deckbuilder::CardId strike = *pack->find_card("strike");
  const auto again = static_cast<deckbuilder::CardId>(pack->cards.size());
  pack->cards.push_back(pack->cards[strike]);
  pack->cards.back().id = "strike_again";
  std::vector<deckbuilder::CardId>& deck =
      pack->players[pack->encounters[*pack->find_encounter("w1")].player].deck;
  *std::find(deck.begin(), deck.end(), strike) = again;
  pack->content_hash ^= 0xA6A1;
  deckbuilder::index_catalog(*pack);
  return pack;
}

/// The starter pack with one more enemy, "gnasher_again", a copy of the Gnasher under another id,
/// in its place in W1: a pack whose W1 meets an enemy the starter pack does not have.
inline std::shared_ptr<const deckbuilder::Catalog> starter_with_gnasher_again() {
  auto pack = std::make_shared<deckbuilder::Catalog>(*starter());
  const deckbuilder::EnemyId gnasher = *pack->find_enemy("gnasher");
  const auto again = static_cast<deckbuilder::EnemyId>(pack->enemies.size());
  pack->enemies.push_back(pack->enemies[gnasher]);
  pack->enemies.back().id = "gnasher_again";
  std::vector<deckbuilder::EnemyId>& w1 = pack->encounters[*pack->find_encounter("w1")].enemies;
  *std::find(w1.begin(), w1.end(), gnasher) = again;
  pack->content_hash ^= 0x6A5A;
  deckbuilder::index_catalog(*pack);
  return pack;
}

}  // namespace battlecore::test
