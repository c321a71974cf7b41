// The sixth state, SuddenDeath, added by the seed's "Adding a new state" guide: one enumerator,
// one handler file (src/clash/states/sudden_death.cpp), its registration line and table rows. The
// five other states' files are untouched: BattleReferee already asked for AllEliminated.

#include <gtest/gtest.h>

#include "battlecore/clash/battle.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

TEST(ClashSuddenDeath, TheStateIsInTheTableAndTheGraphStaysSound) {
  const PhaseGraph g = make_phase_graph<Machine>();
  EXPECT_EQ(check_phase_graph(g), std::vector<std::string>{});
  EXPECT_EQ(phase_name(Phase::SuddenDeath), "SuddenDeath");
  EXPECT_EQ(PhaseMachine<Machine>::target(Phase::BattleReferee, Trigger::AllEliminated), Phase::SuddenDeath);
  EXPECT_EQ(PhaseMachine<Machine>::target(Phase::SuddenDeath, Trigger::SuddenDeathRound), Phase::BattleLoop);
  EXPECT_EQ(PhaseMachine<Machine>::target(Phase::SuddenDeath, Trigger::NoSuddenDeath), Phase::BattleEnd);
}

/// A three-bot battle whose first round ends with every seat out together (fire > air > earth >
/// fire, one health each); returns it after the referee, run through the manager.
Battle everyone_out(const std::string& rules) {
  Battle b(test::one_encounter(test::kThreeBots, rules));
  if (!b.start_battle("e", 2).ok()) throw std::runtime_error("start");
  BattleState& s = Battle::Access::state(b);
  const Card cards[3] = {{Element::Fire, 5}, {Element::Air, 5}, {Element::Earth, 5}};
  // Every seat on rock 0 (wildcard) holding one card; each plays it through the decisions.
  for (std::size_t i = 0; i < 3; ++i) {
    s.seats[i].health = 1;
    s.seats[i].hand.clear();
    s.seats[i].hand.push_back(cards[i]);
  }
  for (int turn = 0; turn < 3; ++turn) {
    auto& seat = s.seats[static_cast<std::size_t>(s.current)];
    seat.rock = 6;
    s.offered = offered_rocks(6, 6, 18);  // rocks 0 and 12: both wildcards
    s.offered_count = 2;
    s.dice = 6;
    s.step = TurnStep::Rock;
    if (!b.submit(Action::choose_rock(s.current, 0)).ok()) throw std::runtime_error("rock refused");
    if (!b.submit(Action::play(s.current, 0)).ok()) throw std::runtime_error("card refused");
  }
  return b;
}

TEST(ClashSuddenDeath, OffItPassesStraightToBattleEndWithASharedFirstPlace) {
  const Battle b = everyone_out(R"({"refill": true})");
  ASSERT_TRUE(b.is_battle_over());
  const auto& h = b.history();
  ASSERT_GE(h.size(), 2u);
  EXPECT_EQ(h[h.size() - 2].trigger, Trigger::AllEliminated);
  EXPECT_EQ(h[h.size() - 2].to, Phase::SuddenDeath);
  EXPECT_EQ(h.back().trigger, Trigger::NoSuddenDeath);
  for (const SeatState& seat : b.state().seats) EXPECT_EQ(seat.place, 1);
}

TEST(ClashSuddenDeath, OnItBringsTheSeatsBackForAnotherRound) {
  Battle b = everyone_out(R"({"sudden_death_rounds": 1})");
  ASSERT_FALSE(b.is_battle_over());
  EXPECT_EQ(b.history().back().trigger, Trigger::SuddenDeathRound);
  EXPECT_EQ(b.history().back().to, Phase::BattleLoop);
  EXPECT_EQ(b.round(), 2u);
  EXPECT_EQ(b.state().sudden_deaths, 1u);
  for (const SeatState& seat : b.state().seats) {
    EXPECT_FALSE(seat.out);
    EXPECT_EQ(seat.place, 0);
    EXPECT_EQ(seat.health, 1);
    EXPECT_EQ(seat.hand.size(), 9u);  // refilled from the deck source
  }
  bool begun = false;
  for (const Event& e : b.events().log()) begun |= e.type == EventType::SuddenDeathBegun && e.extra == 3;
  EXPECT_TRUE(begun);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  // The battle goes on to an end with a full ranking.
  for (int i = 0; i < 5000 && b.status() == Status::AwaitingDecision; ++i)
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
  ASSERT_TRUE(b.is_battle_over());
  for (const SeatState& seat : b.state().seats) EXPECT_GE(seat.place, 1);
}

TEST(ClashSuddenDeath, TheRoundLimitEndsTheBattleBeforeAnotherRound) {
  // Everyone out in round 1 of a battle limited to one round: sudden death would be round 2.
  const Battle b = everyone_out(R"({"sudden_death_rounds": 3, "round_limit": 1})");
  ASSERT_TRUE(b.is_battle_over());
  EXPECT_EQ(b.round(), 1u);
  EXPECT_EQ(b.state().sudden_deaths, 0u);
  EXPECT_EQ(b.history().back().trigger, Trigger::NoSuddenDeath);
  for (const SeatState& seat : b.state().seats) EXPECT_EQ(seat.place, 1);
  // With room for one more round, exactly one sudden-death round is played.
  Battle two = everyone_out(R"({"sudden_death_rounds": 3, "round_limit": 2})");
  ASSERT_FALSE(two.is_battle_over());
  EXPECT_EQ(two.round(), 2u);
  for (int i = 0; i < 5000 && two.status() == Status::AwaitingDecision; ++i)
    ASSERT_TRUE(two.submit(two.decision().options.front()).ok());
  ASSERT_TRUE(two.is_battle_over());
  EXPECT_EQ(two.round(), 2u);
  EXPECT_EQ(two.state().sudden_deaths, 1u);
}

TEST(ClashSuddenDeath, BelowZeroRulesBringSeatsBackAtZeroHealth) {
  Battle b(
      test::one_encounter(test::kThreeBots, R"({"sudden_death_rounds": 1, "elimination": "below_zero"})"));
  ASSERT_TRUE(b.start_battle("e", 2).ok());
  BattleState& s = Battle::Access::state(b);
  for (std::size_t i = 0; i < 3; ++i) {
    s.seats[i].out = true;
    s.seats[i].place = 1;
    s.seats[i].out_round = s.round;
    s.seats[i].health = -1;
  }
  detail::Ctx x{s, b.encounter(), Battle::Access::events(b)};
  EXPECT_EQ(detail::run_sudden_death(x), Trigger::SuddenDeathRound);
  for (const SeatState& seat : s.seats) EXPECT_EQ(seat.health, 0);
  EXPECT_EQ(detail::run_sudden_death(x), Trigger::NoSuddenDeath);  // only one allowed
}

}  // namespace
}  // namespace battlecore::clash
