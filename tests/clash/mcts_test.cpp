// The mcts policy: it re-samples what a seat cannot know, never reads the real hands or future,
// and plays better than the random bot.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/clash/policies.hpp"
#include "battlecore/sim/simulate.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"
#include "support/search_twins.hpp"

namespace battlecore::clash {
namespace {

/// A battle of `encounter` run with random play until `seat` is to choose a card.
Battle at_card_step_of(const std::shared_ptr<const Catalog>& catalog, const std::string& encounter,
                       std::uint64_t seed, SeatRef seat) {
  Battle b(catalog);
  if (!b.start_battle(encounter, seed).ok()) throw std::runtime_error("start");
  RandomPolicy random;
  random.reset(seed);
  std::vector<Action> options;
  for (int guard = 0; guard < 400 && b.status() == Status::AwaitingDecision; ++guard) {
    b.legal_actions(options);
    if (b.state().current == seat && b.state().step == TurnStep::Card && options.size() > 1) return b;
    if (!b.submit(options[random.choose(b, options)]).ok()) throw std::runtime_error("submit");
  }
  throw std::runtime_error("no card step with a choice");
}

/// Every card of `seat` in hand and pile, in a canonical order.
std::vector<std::pair<int, int>> cards_of(const SeatState& seat) {
  std::vector<std::pair<int, int>> all;
  for (const Card& c : seat.hand) all.emplace_back(int(c.element), c.value);
  for (const Card& c : seat.pile) all.emplace_back(int(c.element), c.value);
  std::sort(all.begin(), all.end());
  return all;
}

TEST(ClashMcts, KnownByNameWithItsSettingsChecked) {
  EXPECT_TRUE(make_policy("mcts").ok());
  EXPECT_FALSE(make_policy("mcts", UctOptions{.iterations = 0}).ok());
  EXPECT_FALSE(make_policy("mcts", UctOptions{.iterations = 5, .exploration = -1}).ok());
  EXPECT_EQ(policy_names(), (std::vector<std::string_view>{"random", "greedy", "mcts"}));
  const auto bad = make_policy("clever");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("random, greedy, mcts"), std::string::npos);
}

TEST(ClashMcts, ResampleKeepsWhatTheSeatKnowsAndRedealsTheOthersRandomCards) {
  const Battle real = at_card_step_of(test::classic(), "bots4", 7, 0);
  const BattleState& r = real.state();
  bool some_hand_changed = false;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Battle copy = real;
    resample_hidden(copy, 0, seed);
    const BattleState& c = copy.state();
    std::string why;
    EXPECT_TRUE(check_invariants(copy, &why)) << why;
    EXPECT_NE(c.rng, r.rng);
    EXPECT_EQ(c.seats[0], r.seats[0]) << "the seat's own hand, health, rock, choice";
    EXPECT_EQ(c.order, r.order);
    EXPECT_EQ(c.current, r.current);
    EXPECT_EQ(c.step, r.step);
    EXPECT_EQ(c.round, r.round);
    for (std::size_t k = 1; k < c.seats.size(); ++k) {
      EXPECT_EQ(c.seats[k].hand.size(), r.seats[k].hand.size());
      EXPECT_EQ(c.seats[k].health, r.seats[k].health);
      EXPECT_EQ(c.seats[k].rock, r.seats[k].rock);
      EXPECT_EQ(c.seats[k].choice, r.seats[k].choice) << "a played card stays on the table";
      EXPECT_EQ(c.seats[k].acted, r.seats[k].acted);
      EXPECT_EQ(c.seats[k].out, r.seats[k].out);
      some_hand_changed = some_hand_changed || !(c.seats[k].hand == r.seats[k].hand);
    }
    // The same seed gives the same sample.
    Battle again = real;
    resample_hidden(again, 0, seed);
    EXPECT_EQ(again.state(), c);
  }
  EXPECT_TRUE(some_hand_changed);
}

TEST(ClashMcts, ResampleEmitsNoEventsIntoACopyThatKeepsTheLog) {
  struct Case {
    std::string encounter;
    std::uint64_t seed;
    SeatRef seat;
  };
  for (const Case& k : {Case{"bots4", 7, 0}, Case{"listed_deck", 3, 1}}) {
    const Battle real = at_card_step_of(test::classic(), k.encounter, k.seed, k.seat);
    ASSERT_TRUE(real.events().log_enabled());
    ASSERT_FALSE(real.events().log().empty()) << k.encounter;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Battle copy = real;
      resample_hidden(copy, k.seat, seed);
      EXPECT_EQ(copy.events().log().size(), real.events().log().size()) << k.encounter << " seed " << seed;
    }
  }
}

TEST(ClashMcts, ResampleWithAListedDeckRedealsEachSeatsOwnCards) {
  const Battle real = at_card_step_of(test::classic(), "listed_deck", 3, 1);
  const BattleState& r = real.state();
  bool some_hand_changed = false;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Battle copy = real;
    resample_hidden(copy, 1, seed);
    const BattleState& c = copy.state();
    std::string why;
    EXPECT_TRUE(check_invariants(copy, &why)) << why;
    EXPECT_EQ(c.seats[1].hand, r.seats[1].hand) << "the perspective's own hand";
    EXPECT_EQ(cards_of(c.seats[1]), cards_of(r.seats[1])) << "its pile: the same cards, reshuffled";
    EXPECT_EQ(c.seats[1].health, r.seats[1].health);
    for (std::size_t k : {std::size_t{0}, std::size_t{2}}) {
      EXPECT_EQ(c.seats[k].hand.size(), r.seats[k].hand.size());
      EXPECT_EQ(c.seats[k].pile.size(), r.seats[k].pile.size());
      EXPECT_EQ(cards_of(c.seats[k]), cards_of(r.seats[k])) << "the same cards, dealt anew";
      EXPECT_EQ(c.seats[k].choice, r.seats[k].choice);
      some_hand_changed = some_hand_changed || !(c.seats[k].hand == r.seats[k].hand);
    }
  }
  EXPECT_TRUE(some_hand_changed);
}

TEST(ClashMcts, TheChoiceDoesNotDependOnHiddenCardsOrTheFuture) {
  // Twins differ in what seat 0 cannot see: the other seats' hands (and, with a listed deck,
  // which of their cards are in hand or pile, and the order of its own pile) and every random
  // stream. The same policy seed must
  // choose alike; a real search over the twins' different futures would often not.
  std::size_t compared = 0;
  for (const char* encounter : {"bots4", "listed_deck"}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Battle real = at_card_step_of(test::classic(), encounter, seed, 0);
      Battle twin = real;
      BattleState& t = Battle::Access::state(twin);
      t.rng = RngStreams(seed * 977 + 5);
      if (t.seats[0].pile.size() > 1) std::swap(t.seats[0].pile[0], t.seats[0].pile[1]);  // its own draws
      for (std::size_t k = 1; k < t.seats.size(); ++k) {
        SeatState& other = t.seats[k];
        if (other.hand.empty()) continue;
        if (!other.pile.empty()) {
          std::swap(other.hand[0], other.pile[0]);
        } else {
          other.hand[0] = Card{other.hand[0].element == Element::Fire ? Element::Water : Element::Fire, 1};
        }
      }
      ASSERT_FALSE(twin.state() == real.state());
      std::vector<Action> options;
      real.legal_actions(options);
      std::vector<Action> twin_options;
      twin.legal_actions(twin_options);
      ASSERT_EQ(options, twin_options);
      MctsPolicy a(UctOptions{.iterations = 60});
      MctsPolicy b(UctOptions{.iterations = 60});
      a.reset(seed);
      b.reset(seed);
      EXPECT_EQ(a.choose(real, options), b.choose(twin, options)) << encounter << " seed " << seed;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 8u);
}

// The same at every kind of decision and later rounds: rock and card steps of every seat, the
// human seat of `classic`, three seats, no refill, a listed deck, a re-setup between rounds. The
// two policies' next choices must agree too: they draw from their generators as often as the
// searches did, so a search that went otherwise on one twin would leave them apart. And the
// search leaves the battle exactly as it was.
TEST(ClashMcts, NoDecisionDependsOnHiddenCardsOrTheFuture) {
  std::size_t rock_steps = 0, card_steps = 0, later_rounds = 0;
  for (const char* encounter : {"classic", "trio", "old_rules", "listed_deck", "resetup"}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      Battle battle(test::classic());
      ASSERT_TRUE(battle.start_battle(encounter, seed).ok());
      RandomPolicy random;
      random.reset(seed);
      std::vector<Action> options;
      for (std::uint64_t step = 0; step < 60 && battle.status() == Status::AwaitingDecision; ++step) {
        battle.legal_actions(options);
        if (step % 3 == 1 && options.size() > 1) {
          const auto me = static_cast<std::size_t>(battle.state().current);
          Battle twin = battle;
          BattleState& t = Battle::Access::state(twin);
          t.rng = RngStreams(seed * 1000 + step);
          std::reverse(t.seats[me].pile.begin(), t.seats[me].pile.end());  // its own draws to come
          for (std::size_t k = 0; k < t.seats.size(); ++k) {
            SeatState& other = t.seats[k];
            if (k == me || other.hand.empty()) continue;
            if (!other.pile.empty()) {  // a listed deck: other cards in hand, the pile in another order
              std::swap(other.hand[0], other.pile[0]);
              std::reverse(other.pile.begin(), other.pile.end());
            } else {
              for (Card& c : other.hand)
                c = Card{static_cast<Element>(1 + int(c.element) % 5),
                         static_cast<std::uint8_t>(1 + c.value % 10)};
            }
          }
          std::vector<Action> twin_options;
          twin.legal_actions(twin_options);
          ASSERT_EQ(options, twin_options);
          MctsPolicy a(UctOptions{.iterations = 30});
          MctsPolicy b(UctOptions{.iterations = 30});
          battlecore::test::expect_blind_to_the_twin(
              a, b, battle, twin, options, step, fmt::format("{} seed {} step {}", encounter, seed, step));
          (options[0].kind == ActionKind::ChooseRock ? rock_steps : card_steps) += 1;
          later_rounds += battle.state().round > 1 ? 1u : 0u;
        }
        ASSERT_TRUE(battle.submit(options[random.choose(battle, options)]).ok());
      }
    }
  }
  EXPECT_GE(rock_steps, 10u);
  EXPECT_GE(card_steps, 10u);
  EXPECT_GE(later_rounds, 10u);
}

/// Two bots with one health each: seat 1 has played `table`, and seat 0, the last to play this
/// round, holds only `card` and picks rock 2 (earth: it has no card for it and passes, a tie) or
/// rock 4 (fire: it plays `card`, and the duel ends the battle).
Battle last_duel(Card table, Card card) {
  for (std::uint64_t seed = 1; seed < 100; ++seed) {
    Battle b(test::one_encounter(test::kTwoBots));
    if (!b.start_battle("e", seed).ok() || b.state().order[0] != 1) continue;
    while (b.state().current == 1)
      if (!b.submit(b.decision().options.front()).ok()) throw std::runtime_error("submit");
    if (b.state().current != 0 || b.state().step != TurnStep::Rock || b.state().round != 1) continue;
    BattleState& s = Battle::Access::state(b);
    s.seats[1].choice = table;
    s.seats[0].health = s.seats[1].health = 1;
    s.seats[0].rock = 3;
    s.seats[0].hand.clear();
    s.seats[0].hand.push_back(card);
    s.dice = 1;
    s.offered = offered_rocks(3, 1, 18);
    s.offered_count = 2;
    return b;
  }
  throw std::runtime_error("no seed where seat 1 plays first");
}

// A pass is no decision of its own: it is what a rock without a playable card leads to, and the
// search weighs it as it weighs a play, through the rollouts after the rock.
TEST(ClashMcts, APassIsWeighedLikeAPlay) {
  for (const auto& [card, passes] :
       {std::pair{Card{Element::Fire, 2}, true}, {Card{Element::Fire, 9}, false}}) {
    const Battle b = last_duel(Card{Element::Fire, 5}, card);
    std::string why;
    ASSERT_TRUE(check_invariants(b, &why)) << why;
    std::vector<Action> options;
    b.legal_actions(options);
    ASSERT_EQ(options, (std::vector<Action>{Action::choose_rock(0, 2), Action::choose_rock(0, 4)}));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      MctsPolicy mcts(UctOptions{.iterations = 100});
      mcts.reset(seed);
      EXPECT_EQ(options[mcts.choose(b, options)].value, passes ? 2 : 4)
          << "fire " << int(card.value) << " against fire 5, policy seed " << seed;
    }
  }
}

TEST(ClashMcts, RewardsRankByPlaceThenHealthAndShareTies) {
  Battle b(test::one_encounter(test::kFourBots));
  ASSERT_TRUE(b.start_battle("e", 1).ok());
  BattleState& s = Battle::Access::state(b);
  s.seats[0].health = 4;
  s.seats[1].health = 2;
  s.seats[2].health = 2;
  s.seats[3].out = true;
  s.seats[3].place = 4;
  std::array<double, kMaxSeats> r{};
  seat_rewards(b, r);
  EXPECT_DOUBLE_EQ(r[0], 1.0);
  EXPECT_DOUBLE_EQ(r[1], 0.5);  // positions 2 and 3 shared: 2.5 -> (4 - 2.5) / 3
  EXPECT_DOUBLE_EQ(r[2], 0.5);
  EXPECT_DOUBLE_EQ(r[3], 0.0);
  for (std::size_t k = 0; k < 2; ++k) {
    s.seats[k].place = 1;  // a shared first place
  }
  s.seats[2].out = true;
  s.seats[2].place = 3;
  seat_rewards(b, r);
  EXPECT_DOUBLE_EQ(r[0], (4 - 1.5) / 3);
  EXPECT_DOUBLE_EQ(r[1], (4 - 1.5) / 3);
  EXPECT_DOUBLE_EQ(r[2], 1.0 / 3);
}

// bots4, 60 battles on the same seeds, seat 0 with mcts at 50 iterations per decision against
// three random bots, then the same seats with seat 0 random (paired): see docs/clash.md#policies.
TEST(ClashMcts, BeatsTheRandomBotAndHoldsItsOwnAgainstGreedy) {
  sim::SimConfig config{"bots4", 60, 31, "mcts"};
  config.policy_options.iterations = 50;
  config.versus_policy = "random";
  config.threads = 2;
  const auto vs_random = sim::simulate_clash(test::classic(), config, {"", "random", "random", "random"});
  ASSERT_TRUE(vs_random.ok()) << vs_random.error().message;
  const sim::SimReport& a = vs_random.value();
  EXPECT_GE(a.wins, a.versus.wins + 12) << "mcts " << a.wins << ", random " << a.versus.wins;
  EXPECT_LT(a.seats[0].place_sum + 20, a.versus.seats[0].place_sum) << "a better mean place too";

  config.versus_policy = "greedy";
  const auto vs_greedy = sim::simulate_clash(test::classic(), config, {"", "greedy", "greedy", "greedy"});
  ASSERT_TRUE(vs_greedy.ok()) << vs_greedy.error().message;
  const sim::SimReport& g = vs_greedy.value();
  EXPECT_GE(g.wins + 6, g.versus.wins) << "mcts " << g.wins << ", greedy " << g.versus.wins;
  EXPECT_LE(g.seats[0].place_sum, g.versus.seats[0].place_sum + 10);
}

}  // namespace
}  // namespace battlecore::clash
