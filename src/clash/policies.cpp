#include "battlecore/clash/policies.hpp"

#include <algorithm>
#include <array>

#include "clash/mechanics.hpp"

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

// --- MCTS ---------------------------------------------------------------------------------

void resample_hidden(Battle& battle, SeatRef perspective, std::uint64_t seed) {
  BattleState& s = Battle::Access::state(battle);
  s.rng = RngStreams(seed);
  detail::Ctx x{s, battle.encounter(), Battle::Access::events(battle)};
  const bool listed = x.e.rules.deck == DeckSource::Listed;
  // From a canonical order, so that the result does not depend on the real one at all.
  auto shuffle_pile = [&](SeatState& seat) {
    std::sort(seat.pile.begin(), seat.pile.end(), [](const Card& a, const Card& b) {
      return a.element != b.element ? a.element < b.element : a.value < b.value;
    });
    s.rng[Stream::Shuffle].shuffle(seat.pile.span());
  };
  for (std::size_t k = 0; k < s.seats.size(); ++k) {
    SeatState& seat = s.seats[k];
    if (static_cast<SeatRef>(k) == perspective) {
      if (listed) shuffle_pile(seat);  // its own next draws are hidden too
      continue;
    }
    const std::size_t held = seat.hand.size();
    if (listed) {
      for (const Card& c : seat.hand) seat.pile.push_back(c);
      shuffle_pile(seat);
    }
    seat.hand.clear();
    while (seat.hand.size() < held) seat.hand.push_back(detail::draw_card(x, k));
  }
}

void seat_rewards(const Battle& battle, std::span<double> out) {
  const BattleState& s = battle.state();
  const std::size_t n = s.seats.size();
  // Lower ranks first: a placed seat by its place; a seat still in above every placed one
  // (below 0), by health.
  std::array<double, kMaxSeats> rank{};
  for (std::size_t k = 0; k < n; ++k) {
    const SeatState& seat = s.seats[k];
    rank[k] = seat.out || seat.place != 0 ? double(seat.place) : -1.0 - double(std::max(0, seat.health));
  }
  for (std::size_t k = 0; k < n; ++k) {
    // Position: 1 + the seats ranked strictly better; seats of equal rank share the mean position.
    std::size_t better = 0, equal = 0;
    for (std::size_t j = 0; j < n; ++j) {
      better += rank[j] < rank[k] ? 1u : 0u;
      equal += rank[j] == rank[k] ? 1u : 0u;
    }
    const double position = double(better) + 1.0 + double(equal - 1) / 2.0;
    out[k] = n > 1 ? (double(n) - position) / double(n - 1) : 1.0;
  }
}

struct MctsTraits : UctTraitsDefaults<Battle, clash::Action> {
  /// An option known by what it does: the kind, the seat, and the rock (ChooseRock) or the
  /// card's element and value (PlayCard).
  struct Key {
    ActionKind kind = ActionKind::Roll;
    SeatRef seat = kNoSeat;
    Card card;
    std::uint8_t rock = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  static constexpr std::size_t kMaxPlayers = kMaxSeats;
  SeatRef perspective = kNoSeat;  ///< the deciding seat: the search re-samples what it cannot see

  void at_root(const Battle&, std::span<const Action> options) { perspective = options[0].seat; }
  void resample(Battle& b, std::uint64_t seed) const { resample_hidden(b, perspective, seed); }
  Key key(const Battle& b, const Action& a) const {
    Key k{a.kind, a.seat, Card{}, 0};
    if (a.kind == ActionKind::ChooseRock) k.rock = a.value;
    if (a.kind == ActionKind::PlayCard && a.seat >= 0 &&
        static_cast<std::size_t>(a.seat) < b.state().seats.size()) {
      const SeatState& seat = b.state().seats[static_cast<std::size_t>(a.seat)];
      if (a.value < seat.hand.size()) k.card = seat.hand[a.value];
    }
    return k;
  }
  std::size_t player(const Battle& b) const { return static_cast<std::size_t>(b.state().current); }
  void rewards(const Battle& b, std::array<double, kMaxPlayers>& out) const { seat_rewards(b, out); }
};

// --- by name ------------------------------------------------------------------------------

std::vector<std::string_view> policy_names() { return {"random", "greedy", "mcts"}; }

Result<std::unique_ptr<Policy>> make_policy(std::string_view name, const UctOptions& options) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>());
  if (name == "greedy") return std::unique_ptr<Policy>(std::make_unique<GreedyPolicy>());
  if (name == "mcts") {
    if (auto checked = check_uct_options(options); !checked) return checked.error();
    return std::unique_ptr<Policy>(std::make_unique<MctsPolicy>(options));
  }
  return Error{"unknown policy '" + std::string(name) + "'; known policies: random, greedy, mcts"};
}

}  // namespace battlecore::clash

namespace battlecore {
template class UctPolicy<clash::Policy, clash::Battle, clash::Action, clash::MctsTraits>;
}  // namespace battlecore
