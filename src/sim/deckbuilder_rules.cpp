#include "battlecore/sim/deckbuilder_rules.hpp"

#include <array>
#include <optional>

#include <fmt/format.h>

#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/sim/rules_support.hpp"
#include "battlecore/sim/simulate.hpp"

namespace battlecore::sim {

using namespace deckbuilder;

Result<std::shared_ptr<const Catalog>, content::Diagnostics> DeckbuilderRules::load(
    const std::filesystem::path& p) {
  return load_catalog(p);
}

Result<std::shared_ptr<const Catalog>, content::Diagnostics> DeckbuilderRules::load(
    const std::vector<content::JsonDocument>& documents) {
  return load_catalog(documents);
}

std::vector<std::string> DeckbuilderRules::encounters(const Catalog& catalog) {
  return encounter_ids(catalog);
}

Result<Battle> DeckbuilderRules::start(const std::shared_ptr<const Catalog>& catalog,
                                       const BattleStart& start, BattleOptions options) {
  if (!start.deck.empty()) {
    if (!start.scenario.is_null()) return Error{std::string(kDeckWithScenario)};
    auto cards = deck_cards(*catalog, start.deck, "deck");
    if (!cards) return cards.error();
    Battle battle(catalog, options);
    auto started = battle.start_battle(start.encounter, start.seed, cards.value());
    if (!started) return started.error();
    return battle;
  }
  return start_battle_or_scenario<Battle>(catalog, start, options, [](auto&&... args) {
    return deckbuilder::start_scenario(std::forward<decltype(args)>(args)...);
  });
}

Result<Battle, content::Diagnostics> DeckbuilderRules::start_scenario(
    const std::shared_ptr<const Catalog>& catalog, const content::JsonDocument& scenario,
    std::uint64_t seed) {
  return deckbuilder::start_scenario(catalog, scenario, seed);
}

nlohmann::json DeckbuilderRules::action_to_json(const Battle& battle, const Action& action) {
  const CardDef* def = action.kind == ActionKind::PlayCard ? battle.active_card(action.card) : nullptr;
  return deckbuilder::action_to_json(action, def != nullptr ? &def->id : nullptr);
}

nlohmann::json DeckbuilderRules::snapshot(const Battle& battle) { return deckbuilder::snapshot(battle); }

Result<Battle> DeckbuilderRules::restore(const std::shared_ptr<const Catalog>& catalog,
                                         const nlohmann::json& j) {
  return deckbuilder::restore(catalog, j);
}

std::vector<std::string> DeckbuilderRules::invariants(const Battle& before, const Battle& after) {
  std::vector<std::string> broken;
  const BattleState& s = after.state();
  // Every card instance in exactly one pile.
  std::vector<int> seen(s.cards.size(), 0);
  auto count = [&](const auto& pile, std::string_view name) {
    for (CardRef c : pile) {
      if (c >= s.cards.size())
        broken.push_back(
            fmt::format("{} holds card {}, but the battle has {} cards", name, c, s.cards.size()));
      else
        ++seen[c];
    }
  };
  count(s.draw_pile(), "the draw pile");
  count(s.hand(), "the hand");
  count(s.discard_pile(), "the discard pile");
  count(s.exhaust_pile(), "the exhaust pile");
  for (std::size_t c = 0; c < seen.size(); ++c)
    if (seen[c] != 1) broken.push_back(fmt::format("card {} is in {} piles, not 1", c, seen[c]));
  // New instances only with a CardCreated event; none removed. A card's definition changes only
  // to its upgrade, with a CardUpgraded event.
  const std::size_t old_cards = before.phase() == Phase::None ? 0 : before.state().cards.size();
  std::size_t created = 0;
  std::array<bool, kMaxCards> upgraded{};
  const auto& log = after.events().log();
  for (std::size_t i = before.phase() == Phase::None ? 0 : before.events().log().size(); i < log.size();
       ++i) {
    created += log[i].type == EventType::CardCreated ? 1 : 0;
    if (log[i].type == EventType::CardUpgraded && log[i].subject < kMaxCards) upgraded[log[i].subject] = true;
  }
  if (before.phase() != Phase::None && s.cards.size() != old_cards + created)
    broken.push_back(fmt::format("the battle had {} cards and created {}, but now has {}", old_cards, created,
                                 s.cards.size()));
  for (std::size_t c = 0; c < std::min<std::size_t>(old_cards, s.cards.size()); ++c) {
    const CardId was = before.state().cards[c].def;
    if (s.cards[c].def == was) continue;
    if (!upgraded[c] || after.catalog().cards[was].upgrade != std::optional<std::uint16_t>(s.cards[c].def))
      broken.push_back(
          fmt::format("card {} changed from definition {} to {}{}", c, was, s.cards[c].def,
                      upgraded[c] ? ", which is not its upgrade" : " with no CardUpgraded event"));
  }
  if (s.energy < 0) broken.push_back(fmt::format("energy is {}", s.energy));
  auto check_unit = [&](const UnitState& u, std::string_view who) {
    if (u.hp < 0 || u.hp > u.max_hp) broken.push_back(fmt::format("{} has HP {} of {}", who, u.hp, u.max_hp));
    if (u.armor < 0) broken.push_back(fmt::format("{} has armor {}", who, u.armor));
    if (u.status_traits != status_traits_of(u, after.catalog()))
      broken.push_back(fmt::format("{} has status traits {:#x}, but its statuses give {:#x}", who,
                                   u.status_traits, status_traits_of(u, after.catalog())));
  };
  check_unit(s.player, "the player");
  for (std::size_t e = 0; e < s.enemies.size(); ++e)
    check_unit(s.enemies[e].unit, fmt::format("enemy {}", e));
  if (s.enemies_alive != count_alive_enemies(s))
    broken.push_back(fmt::format("the battle counts {} alive enemies, but {} have HP", s.enemies_alive,
                                 count_alive_enemies(s)));
  if (s.down != down_of(s))
    broken.push_back(
        fmt::format("the battle has down bits {:#x}, but its HP give {:#x}", s.down, down_of(s)));
  if (s.turn_cost_cards != count_turn_cost_cards(s))
    broken.push_back(fmt::format("the battle counts {} cards with turn-limited cost rules, but {} have them",
                                 s.turn_cost_cards, count_turn_cost_cards(s)));
  if (s.card_keywords != card_keywords_of(s, after.catalog()))
    broken.push_back(fmt::format("the battle's cards have keywords {:#x}, but it counts {:#x}",
                                 card_keywords_of(s, after.catalog()), s.card_keywords));
  if (s.listing_costs != listing_costs_of(s))
    broken.push_back(
        fmt::format("the battle's cards cost {} to {} in their listing bytes, but it counts {} to {}",
                    listing_costs_of(s).lowest, listing_costs_of(s).highest, s.listing_costs.lowest,
                    s.listing_costs.highest));
  if (s.rules != rules_of(after.catalog(), s.encounter))
    broken.push_back(fmt::format("the battle's rules are not those of encounter {}", s.encounter));
  if (const CardRef stale = stale_listing(s, after.catalog()); stale != kNoCard)
    broken.push_back(
        fmt::format("card {} has listing byte {:#x}, but its definition and cost rules give {:#x}", stale,
                    s.cards[stale].listing, listing_of(s.cards[stale], after.catalog())));
  if (s.hand().size() > kMaxHand) broken.push_back(fmt::format("the hand has {} cards", s.hand().size()));
  // What the player knows of the draw pile's top: set below the Innate cards at the start, at
  // the place of a card put there from the hand, or below the cards a scry looked at; the pile
  // only shrinks under it, or grows by cards put on top, until it is cleared.
  if (s.draw_known_from != kNothingKnownOnTop && s.draw_known_from >= s.cards.size())
    broken.push_back(fmt::format("the draw pile is known from index {}, but the battle has {} cards",
                                 s.draw_known_from, s.cards.size()));
  // The cards known in order are among those known to be there, and those known in an unknown
  // order under them are the Innate cards the opening hand left.
  if (s.draw_ordered_from != kNothingKnownOnTop &&
      (s.draw_known_from == kNothingKnownOnTop || s.draw_ordered_from < s.draw_known_from ||
       s.draw_ordered_from >= s.cards.size()))
    broken.push_back(fmt::format("the draw pile's order is known from index {}, its cards from {}",
                                 s.draw_ordered_from, s.draw_known_from));
  const std::size_t unordered_top = s.draw_pile().size() - s.known_in_order_on_top();
  for (std::size_t i = s.draw_pile().size() - s.known_on_top(); i < unordered_top; ++i)
    if (const CardRef c = s.draw_pile()[i];
        c < s.cards.size() && !after.catalog().card_play[s.cards[c].def].has(kInnate))
      broken.push_back(fmt::format(
          "card {} is known to be on top of the draw pile in an unknown order, but it is not Innate", c));
  // A scry offers the top cards it looked at, as many as are left to pick: the pile holds them,
  // and the player knows them in order.
  if (s.choice.kind == PendingChoice::Kind::DiscardFromDrawTop &&
      (s.choice.picks_left > s.draw_pile().size() || s.choice.picks_left > s.known_in_order_on_top()))
    broken.push_back(
        fmt::format("a scry offers {} cards, but the draw pile holds {}, {} of them known in order",
                    s.choice.picks_left, s.draw_pile().size(), s.known_in_order_on_top()));
  if (s.choice.kind != PendingChoice::Kind::None && s.choice.kind != PendingChoice::Kind::Options &&
      s.choice.skippable != choice_of_cards_skippable(s.choice.kind))
    broken.push_back(fmt::format("a choice of cards of kind {} is {}skippable",
                                 kChoiceKindNames[static_cast<std::size_t>(s.choice.kind)],
                                 s.choice.skippable ? "" : "not "));
  return broken;
}

Action DeckbuilderRules::action_from_bytes(std::span<const std::uint8_t, 4> b) {
  Action a;
  a.kind = static_cast<ActionKind>(b[0] % 6);
  a.card = b[1];
  a.target = static_cast<std::int8_t>(b[2]);
  a.index = b[3];
  return a;
}

}  // namespace battlecore::sim
