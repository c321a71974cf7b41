#include "battlecore/clash/policies.hpp"

namespace battlecore::clash {

namespace {

/// +1 when `card` beats an opponent card of element `element` and average value, -1 when it loses.
double against_element(Card card, Element element) {
  constexpr double kAverageValue = 5.5;
  if (element == card.element) return card.value > kAverageValue ? 1.0 : -1.0;
  return element_beats(card.element, element) ? 1.0 : -1.0;
}

/// The expected duel result of `card` against a seat still to play from `rock`: the twelve rocks
/// a roll can take it to count alike; a wildcard rock counts each element alike.
double against_unplayed(Card card, std::uint32_t rock, std::uint32_t rocks) {
  double sum = 0;
  for (std::uint32_t d = 1; d <= 6; ++d)
    for (std::uint8_t r : offered_rocks(rock, d, rocks)) {
      const Element e = rock_element(r);
      if (e != Element::None) {
        sum += against_element(card, e);
      } else {
        double wild = 0;
        for (std::size_t k = 1; k < kElementCount; ++k)
          wild += against_element(card, static_cast<Element>(k));
        sum += wild / 5.0;
      }
    }
  return sum / 12.0;
}

}  // namespace

double greedy_card_score(const Battle& battle, SeatRef seat, Card card) {
  const BattleState& s = battle.state();
  const EncounterDef& e = battle.encounter();
  double score = 0;
  for (SeatRef other : battle.remaining_in_order()) {
    if (other == seat) continue;
    const SeatState& o = s.seats[static_cast<std::size_t>(other)];
    if (o.acted)  // it played earlier this round: its card is on the table; we are the later seat
      score -= compare_cards(o.choice, card, e.rules.equal_values);
    else
      score += against_unplayed(card, o.rock, e.rules.rocks);
  }
  return score + card.value / 100.0;  // higher values break ties
}

std::size_t GreedyPolicy::choose(const Battle& battle, std::span<const Action> options) {
  if (options.size() <= 1) return 0;
  const BattleState& s = battle.state();
  const SeatRef seat = options[0].seat;
  const SeatState& me = s.seats[static_cast<std::size_t>(seat)];
  std::size_t best = 0;
  double best_score = -1e9;
  for (std::size_t i = 0; i < options.size(); ++i) {
    double score = 0;
    if (options[i].kind == ActionKind::PlayCard) {
      score = greedy_card_score(battle, seat, me.hand[options[i].value]);
    } else if (options[i].kind == ActionKind::ChooseRock) {
      // The rock is worth its best playable card; with none the seat passes, which ties everyone.
      bool any = false;
      for (const Card& c : me.hand)
        if (playable_on(c, rock_element(options[i].value))) {
          const double v = greedy_card_score(battle, seat, c);
          score = any ? std::max(score, v) : v;
          any = true;
        }
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

std::vector<std::string_view> policy_names() { return {"random", "greedy"}; }

Result<std::unique_ptr<Policy>> make_policy(std::string_view name) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>());
  if (name == "greedy") return std::unique_ptr<Policy>(std::make_unique<GreedyPolicy>());
  return Error{"unknown policy '" + std::string(name) + "'; known policies: random, greedy"};
}

}  // namespace battlecore::clash
