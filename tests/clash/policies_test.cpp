// The bots: the original's random bot and the greedy one; and the simulator's report.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/simulate.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

TEST(ClashPolicies, KnownNamesAndAnUnknownOne) {
  EXPECT_TRUE(make_policy("random").ok());
  EXPECT_TRUE(make_policy("greedy").ok());
  const auto bad = make_policy("clever");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("random, greedy"), std::string::npos);
}

TEST(ClashPolicies, RandomPicksEveryOptionAndIsSeeded) {
  RandomPolicy a, b;
  a.reset(5);
  b.reset(5);
  std::set<std::size_t> seen;
  for (int i = 0; i < 200; ++i) {
    const std::size_t x = a.pick(3);
    EXPECT_EQ(x, b.pick(3));
    seen.insert(x);
  }
  EXPECT_EQ(seen, (std::set<std::size_t>{0, 1, 2}));
}

/// A two-bot battle at the first seat's card step, the second seat having played `played`.
Battle second_seat_to_play(Card played, std::initializer_list<Card> hand) {
  Battle b(test::one_encounter(test::kTwoBots));
  if (!b.start_battle("e", 1).ok()) throw std::runtime_error("start");
  BattleState& s = Battle::Access::state(b);
  const auto first = s.order[0], second = s.order[1];
  s.seats[first].choice = played;
  s.seats[first].acted = true;
  s.current = static_cast<SeatRef>(second);
  s.seats[second].rock = 0;  // wildcard: any card
  s.seats[second].hand.clear();
  for (Card c : hand) s.seats[second].hand.push_back(c);
  s.step = TurnStep::Card;
  return b;
}

TEST(ClashPolicies, GreedyPlaysTheCardThatBeatsACardOnTheTable) {
  const Battle b =
      second_seat_to_play({Element::Fire, 8}, {{Element::Air, 10}, {Element::Water, 2}, {Element::Fire, 9}});
  GreedyPolicy g;
  std::vector<Action> options;
  b.legal_actions(options);
  ASSERT_EQ(options.size(), 3u);
  // Water beats fire; fire 9 beats fire 8 too, but water does at a lower value: both score one
  // win, and the higher value breaks the tie.
  const std::size_t pick = g.choose(b, options);
  const Card chosen = b.state().seats[static_cast<std::size_t>(b.state().current)].hand[options[pick].value];
  EXPECT_EQ(chosen, (Card{Element::Fire, 9}));
  EXPECT_GT(greedy_card_score(b, b.state().current, {Element::Water, 2}),
            greedy_card_score(b, b.state().current, {Element::Air, 10}));
}

TEST(ClashPolicies, GreedyPrefersTheRockWhereItHasAWinningCard) {
  Battle b = second_seat_to_play({Element::Fire, 8}, {{Element::Water, 3}, {Element::Air, 10}});
  BattleState& s = Battle::Access::state(b);
  const auto seat = static_cast<std::size_t>(s.current);
  s.seats[seat].rock = 10;  // a roll of 5 offers rocks 5 (water) and 15 (energy)
  s.step = TurnStep::Rock;
  s.dice = 5;
  s.offered = offered_rocks(10, 5, 18);
  s.offered_count = 2;
  std::vector<Action> options;
  b.legal_actions(options);
  ASSERT_EQ(options.size(), 2u);
  GreedyPolicy g;
  EXPECT_EQ(options[g.choose(b, options)].value, 5);  // water rock: water 3 beats fire 8
}

TEST(ClashSim, ReportsWinsPerSeatAndMeanPlaceAndIsDeterministic) {
  SimConfig config{"bots4", 300, 7, "random"};
  const auto a = simulate(test::classic(), config);
  const auto b = simulate(test::classic(), config);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok());
  const SimReport& r = a.value();
  EXPECT_TRUE(r.failures.empty());
  ASSERT_EQ(r.wins.size(), 4u);
  std::uint64_t total = r.shared_first;
  for (std::uint64_t w : r.wins) total += w;
  EXPECT_EQ(total, 300u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_GE(r.mean_place(i), 1.0);
    EXPECT_LE(r.mean_place(i), 4.0);
    EXPECT_GT(r.wins[i], 30u) << "four identical bots should each win a fair share";
  }
  nlohmann::json ja = r.to_json(), jb = b.value().to_json();
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    ja.erase(key);
    jb.erase(key);
  }
  EXPECT_EQ(ja, jb);
  ASSERT_TRUE(ja["wins"].is_object());
  EXPECT_EQ(ja["wins"]["0"], r.wins[0]);
  EXPECT_TRUE(ja["mean_place"].is_object());
  EXPECT_NE(r.to_text().find("mean_place"), std::string::npos);
}

TEST(ClashSim, GreedyBeatsRandomBotsMoreOftenThanAFairShare) {
  // Seat 0 greedy, the others random: run greedy and random over the same seeds by hand.
  const auto catalog = test::classic();
  const EncounterId e = *catalog->find_encounter("bots4");
  GreedyPolicy greedy;
  RandomPolicy random;
  std::uint64_t wins = 0;
  constexpr std::uint64_t kBattles = 400;
  std::vector<Action> options;
  for (std::uint64_t i = 0; i < kBattles; ++i) {
    Battle b(catalog, BattleOptions{.event_log = false, .record_history = false});
    ASSERT_TRUE(b.start_battle(e, battle_seed(3, i)).ok());
    random.reset(policy_seed(battle_seed(3, i)));
    while (b.status() == Status::AwaitingDecision) {
      b.legal_actions(options);
      const std::size_t pick = b.state().current == 0 ? greedy.choose(b, options) : random.choose(b, options);
      ASSERT_TRUE(b.submit(options[pick]).ok());
    }
    wins += b.state().seats[0].place == 1 ? 1 : 0;
  }
  RecordProperty("greedy_seat_wins", std::to_string(wins));
  EXPECT_GT(wins, kBattles / 4 + kBattles / 20) << "greedy won " << wins << " of " << kBattles;
}

TEST(ClashSim, UnknownEncounterOrPolicyIsAnError) {
  EXPECT_FALSE(simulate(test::classic(), {"nope", 1, 1, "random"}).ok());
  EXPECT_FALSE(simulate(test::classic(), {"", 1, 1, "nope"}).ok());
}

}  // namespace
}  // namespace battlecore::clash
