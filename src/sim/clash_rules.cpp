#include "battlecore/sim/clash_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "battlecore/clash/load.hpp"
#include "battlecore/clash/scenario.hpp"
#include "battlecore/clash/snapshot.hpp"
#include "battlecore/sim/rules_support.hpp"

namespace battlecore::sim {

using namespace clash;

namespace {

int card_key(Card c) { return static_cast<int>(c.element) * 16 + c.value; }

template <class Cards>
std::vector<int> keys_of(const Cards& cards) {
  std::vector<int> keys;
  for (Card c : cards) keys.push_back(card_key(c));
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// Whether every key of `part` is in `whole` at least as often (both sorted).
bool sub_multiset(const std::vector<int>& part, const std::vector<int>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

}  // namespace

Result<std::shared_ptr<const Catalog>, content::Diagnostics> ClashRules::load(
    const std::filesystem::path& p) {
  return load_catalog(p);
}

Result<std::shared_ptr<const Catalog>, content::Diagnostics> ClashRules::load(
    const std::vector<content::JsonDocument>& documents) {
  return load_catalog(documents);
}

std::vector<std::string> ClashRules::encounters(const Catalog& catalog) { return encounter_ids(catalog); }

Result<Battle> ClashRules::start(const std::shared_ptr<const Catalog>& catalog, const BattleStart& start,
                                 BattleOptions options) {
  return start_battle_or_scenario<Battle>(catalog, start, options, [](auto&&... args) {
    return clash::start_scenario(std::forward<decltype(args)>(args)...);
  });
}

Result<Battle, content::Diagnostics> ClashRules::start_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                                const content::JsonDocument& scenario,
                                                                std::uint64_t seed) {
  return clash::start_scenario(catalog, scenario, seed);
}

nlohmann::json ClashRules::snapshot(const Battle& battle) { return clash::snapshot(battle); }

Result<Battle> ClashRules::restore(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j) {
  return clash::restore(catalog, j);
}

std::vector<std::string> ClashRules::invariants(const Battle& before, const Battle& after) {
  std::vector<std::string> broken;
  if (!after.is_battle_active() && !after.is_battle_over()) return broken;  // never started
  if (std::string why; !check_invariants(after, &why)) broken.push_back(why);
  const BattleState& s = after.state();
  const EncounterDef& e = after.encounter();
  const auto n = static_cast<std::int32_t>(s.seats.size());
  // A seat still in has at least 1 health (0 when out below zero) and loses at most one per
  // duel, n - 1 duels a round; the ranking pass takes one at a time.
  const std::int32_t floor = (e.rules.elimination == Elimination::AtZero ? 1 : 0) - std::max(n - 1, 1);
  for (std::int32_t i = 0; i < n; ++i) {
    const SeatState& seat = s.seats[static_cast<std::size_t>(i)];
    if (seat.health < floor || seat.health > e.rules.health)
      broken.push_back(
          fmt::format("seat {} has health {}, outside [{}, {}]", i, seat.health, floor, e.rules.health));
  }
  if (e.rules.deck == DeckSource::Listed) {
    const std::vector<int> list = keys_of(e.rules.listed_deck);
    for (std::int32_t i = 0; i < n; ++i) {
      const SeatState& seat = s.seats[static_cast<std::size_t>(i)];
      std::vector<Card> held(seat.hand.begin(), seat.hand.end());
      held.insert(held.end(), seat.pile.begin(), seat.pile.end());
      if (!seat.choice.empty()) held.push_back(seat.choice);
      if (!sub_multiset(keys_of(held), list))
        broken.push_back(fmt::format("seat {} holds cards that are not in the listed deck", i));
    }
  }
  if (!before.is_battle_active() || before.state().seats.size() != s.seats.size()) return broken;
  const BattleState& b = before.state();
  if (s.round < b.round) broken.push_back(fmt::format("the round went back from {} to {}", b.round, s.round));
  // What happened in the step, from its events (when both logs are kept).
  const auto& log = after.events().log();
  const bool logged = before.events().log_enabled() && after.events().log_enabled() &&
                      log.size() >= before.events().log().size();
  bool sudden_death = false, resetup = false;
  std::vector<std::vector<Card>> played(s.seats.size()), dealt(s.seats.size());
  if (logged)
    for (std::size_t k = before.events().log().size(); k < log.size(); ++k) {
      const Event& ev = log[k];
      sudden_death |= ev.type == EventType::SuddenDeathBegun;
      resetup |=
          ev.type == EventType::PhaseChanged && ev.extra == static_cast<std::int32_t>(Phase::BattleStart);
      const bool seat_ok = ev.seat >= 0 && static_cast<std::size_t>(ev.seat) < s.seats.size();
      if (ev.type == EventType::CardPlayed && seat_ok)
        played[static_cast<std::size_t>(ev.seat)].push_back(ev.card);
      if (ev.type == EventType::CardDealt && seat_ok)
        dealt[static_cast<std::size_t>(ev.seat)].push_back(ev.card);
    }
  // A re-setup builds each listed deck again: hand plus deck grow back to the whole list. Without
  // the logs, a new round of an encounter that re-runs the setup may have been one.
  const bool rebuilt = logged ? resetup : e.rules.resetup_between_rounds && s.round != b.round;
  for (std::size_t i = 0; i < s.seats.size(); ++i) {
    const SeatState &was = b.seats[i], &now = s.seats[i];
    if (logged && !sudden_death && now.health > was.health)
      broken.push_back(fmt::format("seat {} gained health ({} to {})", i, was.health, now.health));
    if (logged && !sudden_death && was.out &&
        (!now.out || now.place != was.place || now.out_round != was.out_round))
      broken.push_back(fmt::format("seat {} was out at place {} and now is {} at place {}", i, was.place,
                                   now.out ? "out" : "in", now.place));
    if (!rebuilt && now.hand.size() + now.pile.size() > was.hand.size() + was.pile.size() &&
        e.rules.deck == DeckSource::Listed)
      broken.push_back(fmt::format("seat {} has more cards in hand and deck than before", i));
    if (!logged || resetup) continue;
    // The hand changes only by the cards played from it and the cards dealt to it.
    std::vector<int> expected = keys_of(was.hand);
    for (Card c : played[i]) {
      const auto it = std::find(expected.begin(), expected.end(), card_key(c));
      if (it == expected.end())
        broken.push_back(fmt::format("seat {} played {} {}, which was not in its hand", i,
                                     element_name(c.element), c.value));
      else
        expected.erase(it);
    }
    for (Card c : dealt[i]) expected.push_back(card_key(c));
    std::sort(expected.begin(), expected.end());
    if (expected != keys_of(now.hand))
      broken.push_back(fmt::format("seat {}'s hand changed by more than its plays and deals", i));
  }
  return broken;
}

Action ClashRules::action_from_bytes(std::span<const std::uint8_t, 4> b) {
  Action a;
  a.kind = static_cast<ActionKind>(b[0] % 3);
  a.seat = static_cast<SeatRef>(static_cast<int>(b[1] % 6) - 1);
  a.value = b[3] < 128 ? static_cast<std::uint8_t>(b[2] % 24) : b[2];
  return a;
}

}  // namespace battlecore::sim
