// The mcts policy: it reseeds the battle's chance before every iteration, never reads the real
// future, answers blocks by the block skill, and keeps more of the party standing than the
// random and greedy policies.

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/party/policies.hpp"
#include "battlecore/sim/simulate.hpp"
#include "party/mechanics.hpp"
#include "party_support.hpp"
#include "support/search_twins.hpp"

namespace battlecore::party {
namespace {

TEST(PartyMcts, KnownByNameWithItsSettingsChecked) {
  EXPECT_TRUE(make_policy("mcts").ok());
  EXPECT_FALSE(make_policy("mcts", {}, UctOptions{.iterations = 0}).ok());
  EXPECT_FALSE(make_policy("mcts", {}, UctOptions{.iterations = 5, .exploration = -1}).ok());
  EXPECT_EQ(policy_names(), (std::vector<std::string_view>{"random", "greedy", "mcts"}));
  const auto bad = make_policy("nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("random, greedy, mcts"), std::string::npos);
}

TEST(PartyMcts, ResampleReseedsTheStreamsAndKeepsEverythingElse) {
  const Battle real = test::start("swamp", 5, test::meadow_pack());
  Battle a = real, b = real, c = real;
  resample_hidden(a, 1);
  resample_hidden(b, 1);
  resample_hidden(c, 2);
  std::string why;
  EXPECT_TRUE(check_invariants(a, &why)) << why;
  EXPECT_EQ(a.state(), b.state()) << "the same seed, the same sample";
  EXPECT_NE(a.state().rng, real.state().rng);
  EXPECT_NE(a.state().rng, c.state().rng);
  BattleState same = a.state();
  same.rng = real.state().rng;
  EXPECT_EQ(same, real.state()) << "only the streams change";
  EXPECT_EQ(a.status(), real.status());
  EXPECT_EQ(a.decision().options, real.decision().options);
}

TEST(PartyMcts, TheChoiceDoesNotDependOnTheFuture) {
  // Twins differ only in their random streams (the enemies' choices, the flee and block rolls
  // to come); the same policy seed must choose alike.
  std::size_t compared = 0;
  for (const char* encounter : {"swamp", "ambush", "nest"}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Battle real = test::start(encounter, seed, test::meadow_pack());
      if (real.decision_kind() == DecisionKind::Block) continue;
      Battle twin = real;
      Battle::Access::of(twin).s.rng = RngStreams(seed * 131 + 7);
      ASSERT_FALSE(twin.state() == real.state());
      const auto options = real.decision().options;
      MctsPolicy a(BlockSkill{}, UctOptions{.iterations = 60});
      MctsPolicy b(BlockSkill{}, UctOptions{.iterations = 60});
      a.reset(seed);
      b.reset(seed);
      EXPECT_EQ(a.choose(real, options), b.choose(twin, options)) << encounter << " seed " << seed;
      ++compared;
    }
  }
  EXPECT_GE(compared, 6u);
}

// The same at decisions later in the battle (after enemy turns and the party's blocks), where
// the enemies' choices, the resistance rolls and the flee and block rolls to come are all in the
// streams. The two policies' next choices must agree too: they draw from their generators as
// often as the searches did, so a search that went otherwise on one twin would leave them apart.
// And the search leaves the battle exactly as it was.
TEST(PartyMcts, NoDecisionLaterInTheBattleDependsOnTheFuture) {
  std::size_t compared = 0, later_turns = 0;
  for (const char* encounter : {"swamp", "ambush", "nest"}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      Battle battle = test::start(encounter, seed, test::meadow_pack());
      RandomPolicy random;
      random.reset(seed);
      std::vector<Action> options;
      for (std::uint64_t step = 0; step < 40 && battle.status() == Status::AwaitingDecision; ++step) {
        battle.legal_actions(options);
        if (step % 4 == 3 && options.size() > 1 && battle.decision_kind() != DecisionKind::Block) {
          Battle twin = battle;
          Battle::Access::of(twin).s.rng = RngStreams(seed * 1000 + step);
          MctsPolicy a(BlockSkill{}, UctOptions{.iterations = 25});
          MctsPolicy b(BlockSkill{}, UctOptions{.iterations = 25});
          battlecore::test::expect_blind_to_the_twin(
              a, b, battle, twin, options, step, fmt::format("{} seed {} step {}", encounter, seed, step));
          ++compared;
          later_turns += battle.turn() > 0 ? 1u : 0u;
        }
        ASSERT_TRUE(battle.submit(options[random.choose(battle, options)]).ok());
      }
    }
  }
  EXPECT_GE(compared, 15u);
  EXPECT_GE(later_turns, 10u);
}

TEST(PartyMcts, BlocksByTheBlockSkill) {
  Battle b = test::start("twin", 3);
  for (int i = 0; i < 3; ++i) test::submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  const auto options = b.decision().options;
  const std::uint32_t roll = b.block_roll();
  for (const BlockSkill skill :
       {BlockSkill{roll, 0}, BlockSkill{roll + 1, 0}, BlockSkill{roll + 1, roll + 1}}) {
    MctsPolicy mcts(skill, UctOptions{.iterations = 10});
    mcts.reset(1);
    EXPECT_EQ(mcts.choose(b, options), answer_block(b, options, skill));
  }
}

double mean_hp_left(const sim::Tally& t) {
  std::uint64_t hp = 0;
  for (std::size_t h = 0; h < t.hp_left_histogram.size(); ++h) hp += h * t.hp_left_histogram[h];
  return double(hp) / double(t.battles);
}

// ambush without blocks, 30 battles on the same seeds, mcts at 40 iterations per decision against
// random and greedy (paired): see docs/party.md#policies for the figures.
TEST(PartyMcts, KeepsMoreOfThePartyThanRandomAndGreedy) {
  sim::SimConfig config{"ambush", 30, 11, "mcts"};
  config.policy_options.iterations = 40;
  config.threads = 2;
  config.versus_policy = "random";
  const BlockSkill no_blocks{0, 0};
  const auto vs_random = sim::simulate_party(test::meadow_pack(), config, no_blocks);
  ASSERT_TRUE(vs_random.ok()) << vs_random.error().message;
  const sim::SimReport& r = vs_random.value();
  EXPECT_GE(r.wins, r.versus.wins + 6) << "mcts " << r.wins << ", random " << r.versus.wins;
  EXPECT_GT(mean_hp_left(r), mean_hp_left(r.versus) + 5.0);

  config.versus_policy = "greedy";
  const auto vs_greedy = sim::simulate_party(test::meadow_pack(), config, no_blocks);
  ASSERT_TRUE(vs_greedy.ok()) << vs_greedy.error().message;
  const sim::SimReport& g = vs_greedy.value();
  EXPECT_GE(g.wins, g.versus.wins);
  EXPECT_GT(mean_hp_left(g), mean_hp_left(g.versus) + 3.0)
      << "mean HP left: mcts " << mean_hp_left(g) << ", greedy " << mean_hp_left(g.versus);
}

}  // namespace
}  // namespace battlecore::party
