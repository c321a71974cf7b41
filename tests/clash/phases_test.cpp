// The clash's one transition table: exactly the seed's transitions, a sound graph.

#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "battlecore/clash/phases.hpp"

namespace battlecore::clash {
namespace {

using Edge = std::tuple<Phase, Phase>;

TEST(ClashPhases, TheGraphIsSound) {
  const PhaseGraph g = make_phase_graph<Machine>();
  EXPECT_EQ(check_phase_graph(g), std::vector<std::string>{});
  EXPECT_EQ(g.phases[g.initial], "BattleStart");
  ASSERT_EQ(g.terminal.size(), 1u);
  EXPECT_EQ(g.phases[g.terminal[0]], "BattleEnd");
}

TEST(ClashPhases, TheFiveStatesHaveExactlyTheSeedsTransitions) {
  // Start->Turn|Loop; Loop->Loop|Turn|Referee; Turn->Loop|Turn|Referee; Referee->Loop|Start|End.
  const std::set<Edge> seed = {
      {Phase::BattleStart, Phase::BattleTurn},   {Phase::BattleStart, Phase::BattleLoop},
      {Phase::BattleLoop, Phase::BattleLoop},    {Phase::BattleLoop, Phase::BattleTurn},
      {Phase::BattleLoop, Phase::BattleReferee}, {Phase::BattleTurn, Phase::BattleLoop},
      {Phase::BattleTurn, Phase::BattleTurn},    {Phase::BattleTurn, Phase::BattleReferee},
      {Phase::BattleReferee, Phase::BattleLoop}, {Phase::BattleReferee, Phase::BattleStart},
      {Phase::BattleReferee, Phase::BattleEnd},
  };
  std::set<Edge> table;
  for (const auto& t : Machine::kTransitions)
    if (static_cast<std::size_t>(t.from) < 5 && static_cast<std::size_t>(t.to) < 5)
      table.insert({t.from, t.to});
  EXPECT_EQ(table, seed);
  for (const auto& t : Machine::kTransitions) EXPECT_NE(t.from, Phase::BattleEnd) << "BattleEnd is terminal";
}

TEST(ClashPhases, LoopAndTurnLeaveOnTheSameTriggers) {
  std::set<std::pair<Trigger, Phase>> loop, turn;
  for (const auto& t : Machine::kTransitions) {
    if (t.from == Phase::BattleLoop) loop.insert({t.trigger, t.to});
    if (t.from == Phase::BattleTurn) turn.insert({t.trigger, t.to});
  }
  EXPECT_EQ(loop, turn);
}

TEST(ClashPhases, NamesAreTheSeeds) {
  EXPECT_EQ(phase_name(Phase::BattleStart), "BattleStart");
  EXPECT_EQ(phase_name(Phase::BattleLoop), "BattleLoop");
  EXPECT_EQ(phase_name(Phase::BattleTurn), "BattleTurn");
  EXPECT_EQ(phase_name(Phase::BattleReferee), "BattleReferee");
  EXPECT_EQ(phase_name(Phase::BattleEnd), "BattleEnd");
  EXPECT_EQ(trigger_name(Trigger::RoundOver), "RoundOver");
}

}  // namespace
}  // namespace battlecore::clash
