// The party phase table: sound as a graph, the names the spec gives, the moves recorded.

#include <gtest/gtest.h>

#include "battlecore/party/phases.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

TEST(PartyPhases, TheGraphIsSound) {
  const PhaseGraph g = make_phase_graph<Machine>();
  EXPECT_TRUE(check_phase_graph(g).empty());
  EXPECT_EQ(g.phases, (std::vector<std::string>{"BattleStart", "FirstStrike", "PlayerPhase", "EnemyPhase",
                                                "TurnEnd", "Victory", "Defeat", "Fled"}));
  EXPECT_EQ(g.phases[g.initial], "BattleStart");
  EXPECT_EQ(g.terminal.size(), 3u);
}

TEST(PartyPhases, EveryMoveIsInTheHistoryAndMatchesTheTable) {
  Battle b = test::start("first_strike");
  for (int step = 0; b.status() == Status::AwaitingDecision && b.state().turn <= 3; ++step) {
    ASSERT_LT(step, 1000);
    const auto options = b.decision().options;
    const bool member = b.decision_kind() == DecisionKind::MemberTurn;
    test::submit_ok(b, member ? Action::do_nothing() : options.front());
  }
  ASSERT_FALSE(b.history().empty());
  EXPECT_EQ(b.history().size(), b.transitions());
  Phase at = Phase::BattleStart;
  for (std::size_t i = 0; i < b.history().size(); ++i) {
    const PhaseRecord& r = b.history()[i];
    EXPECT_EQ(r.sequence, i + 1);
    EXPECT_EQ(r.from, at);
    EXPECT_EQ(PhaseMachine<Machine>::target(r.from, r.trigger), r.to);
    at = r.to;
  }
  EXPECT_EQ(at, b.phase());
}

}  // namespace
}  // namespace battlecore::party
