// A sweep of seeded bot battles over every encounter of the meadow pack: every battle ends in
// Victory, Defeat or Fled, the invariants hold at every decision, clones equal their originals,
// and replaying the recorded actions reproduces the final state hash.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/party/play_session.hpp"
#include "battlecore/party/policies.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

constexpr std::uint64_t kBattlesPerEncounter = 1000;

struct Outcomes {
  std::uint64_t victory = 0, defeat = 0, fled = 0, block_decisions = 0;
};

/// `pack_encounter` is "meadow:<id>" or "rules:<id>".
void sweep(const std::string& policy_name, std::uint64_t battles, Outcomes& out,
           const std::string& pack_encounter) {
  const auto colon = pack_encounter.find(':');
  const auto catalog = pack_encounter.substr(0, colon) == "meadow" ? test::meadow_pack() : test::rules_pack();
  const std::string encounter = pack_encounter.substr(colon + 1);
  auto policy = make_policy(policy_name).value();
  std::vector<Action> options;
  for (std::uint64_t i = 0; i < battles; ++i) {
    const std::uint64_t seed = battle_seed(20261129, i);
    SCOPED_TRACE(encounter + " battle " + std::to_string(i) + " seed " + std::to_string(seed));
    policy->reset(policy_seed(seed));
    const bool deep = i % 50 == 0;  // clone and JSON checks on every 50th battle
    Battle b(catalog, BattleOptions{.event_log = deep, .record_history = true});
    ASSERT_TRUE(b.start_battle(encounter, seed).ok());
    int steps = 0;
    while (b.status() == Status::AwaitingDecision) {
      ASSERT_LT(++steps, 5000) << "the battle does not end";
      std::string why;
      ASSERT_TRUE(check_invariants(b, &why)) << why;
      b.legal_actions(options);
      ASSERT_FALSE(options.empty());
      if (b.decision_kind() == DecisionKind::Block) ++out.block_decisions;
      const Action pick = options[policy->choose(b, options)];
      if (deep) {
        const auto parsed = action_from_json(action_to_json(pick));
        ASSERT_TRUE(parsed.ok());
        ASSERT_EQ(parsed.value(), pick);
        Battle clone = b;
        ASSERT_EQ(clone.state_hash(), b.state_hash());
        ASSERT_TRUE(clone.submit(pick).ok());
        ASSERT_TRUE(b.submit(pick).ok());
        ASSERT_EQ(clone.state_hash(), b.state_hash());
        ASSERT_TRUE(clone.state() == b.state());
      } else {
        auto r = b.submit(pick);
        ASSERT_TRUE(r.ok()) << r.error().message;
      }
    }
    std::string why;
    ASSERT_TRUE(check_invariants(b, &why)) << why;
    switch (b.phase()) {
      case Phase::Victory:
        ++out.victory;
        break;
      case Phase::Defeat:
        ++out.defeat;
        break;
      case Phase::Fled:
        ++out.fled;
        break;
      default:
        FAIL() << "ended in phase " << phase_name(b.phase());
    }
    if (i % 25 == 0) {  // replay: same seed, same actions, same battle
      Battle replay(catalog, BattleOptions{.event_log = false, .record_history = true});
      ASSERT_TRUE(replay.start_battle(encounter, seed).ok());
      for (const Action& a : b.actions()) ASSERT_TRUE(replay.submit(a).ok());
      ASSERT_EQ(replay.state_hash(), b.state_hash());
      ASSERT_EQ(replay.phase(), b.phase());
    }
  }
}

class PartySweep : public ::testing::TestWithParam<std::string> {};

TEST_P(PartySweep, RandomBotBattlesAllEndAndKeepTheInvariants) {
  Outcomes o;
  sweep("random", kBattlesPerEncounter, o, GetParam());
  EXPECT_EQ(o.victory + o.defeat + o.fled, kBattlesPerEncounter);
  EXPECT_GT(o.victory, 0u);
  EXPECT_GT(o.block_decisions, 0u);
}

class PartyRulesSweep : public ::testing::TestWithParam<std::string> {};

TEST_P(PartyRulesSweep, RandomBotBattlesAllEndAndKeepTheInvariants) {
  Outcomes o;
  sweep("random", 200, o, GetParam());
  EXPECT_EQ(o.victory + o.defeat + o.fled, 200u);
}

TEST_P(PartySweep, GreedyBotBattlesAllEnd) {
  Outcomes o;
  sweep("greedy", 100, o, GetParam());
  EXPECT_EQ(o.victory + o.defeat + o.fled, 100u);
  EXPECT_EQ(o.fled, 0u);  // greedy never flees
}

INSTANTIATE_TEST_SUITE_P(Meadow, PartySweep,
                         ::testing::Values("meadow:meadow_walk", "meadow:ambush", "meadow:sneak_attack",
                                           "meadow:nest", "meadow:swamp", "meadow:beetle_den"));
INSTANTIATE_TEST_SUITE_P(Rules, PartyRulesSweep,
                         ::testing::Values("rules:helpers", "rules:twin", "rules:pet_pair",
                                           "rules:first_strike", "rules:advantage", "rules:never_flee",
                                           "rules:freezer", "rules:lobber", "rules:flyer", "rules:reserves",
                                           "rules:crusher", "rules:armored", "rules:short"));

}  // namespace
}  // namespace battlecore::party
