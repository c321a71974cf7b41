// The bots: the original's random bot and the greedy one; and the simulator's report.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/clash/policies.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

TEST(ClashPolicies, KnownNamesAndAnUnknownOne) {
  EXPECT_TRUE(make_policy("random").ok());
  EXPECT_TRUE(make_policy("greedy").ok());
  const auto bad = make_policy("clever");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("random, greedy, mcts"), std::string::npos);
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

}  // namespace
}  // namespace battlecore::clash
