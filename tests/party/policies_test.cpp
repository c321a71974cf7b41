// The built-in policies and the terminal play session.

#include <sstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/party/play_session.hpp"
#include "battlecore/party/policies.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

TEST(PartyPolicies, BotsAnswerABlockByTheRollTheBattleDrew) {
  Battle b = test::start("twin", 3);
  for (int i = 0; i < 3; ++i) test::submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  const auto options = b.decision().options;
  const std::uint32_t roll = b.block_roll();
  EXPECT_LT(roll, 100u);
  EXPECT_EQ(options[answer_block(b, options, BlockSkill{roll, 0})], Action::block(BlockLevel::None));
  EXPECT_EQ(options[answer_block(b, options, BlockSkill{roll + 1, 0})], Action::block(BlockLevel::Block));
  EXPECT_EQ(options[answer_block(b, options, BlockSkill{roll + 1, roll + 1})],
            Action::block(BlockLevel::SuperBlock));
  RandomPolicy random(BlockSkill{100, 0});
  random.reset(1);
  EXPECT_EQ(options[random.choose(b, options)], Action::block(BlockLevel::Block));
}

TEST(PartyPolicies, GreedyTakesTheKillingBlow) {
  Battle b = test::start("flyer");  // the bat has 5 HP and flies; the dummy has 99
  Battle::Access::of(b).s.enemies[1].hp = 2;
  GreedyPolicy greedy;
  const auto options = b.decision().options;
  const Action pick = options[greedy.choose(b, options)];
  EXPECT_EQ(pick.target, 1) << action_to_json(pick).dump();
  EXPECT_FALSE(make_policy("nope").ok());
}

TEST(PartyPlaySession, PlaysFromNumbersAndCommands) {
  std::string input = "help\nstate\njson\nhistory\nlog 3\nbogus\n99\n";
  for (int i = 0; i < 400; ++i) input += "0\n";  // always the first option
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = play(test::meadow_pack(), "meadow_walk", 1, in, out, err);
  EXPECT_EQ(code, 0);
  const std::string text = out.str();
  for (const char* words : {"battle 'meadow_walk' with seed 1", "commands:", "\"phase\"", "BattleStart",
                            "'bogus' is not", "no option 99", "-> Vi: attack"})
    EXPECT_NE(text.find(words), std::string::npos) << words;
  EXPECT_TRUE(text.find("victory on turn") != std::string::npos ||
              text.find("defeat on turn") != std::string::npos)
      << text.substr(text.size() > 2000 ? text.size() - 2000 : 0);
}

TEST(PartyPlaySession, UnknownEncounterExitsTwo) {
  std::istringstream in("quit\n");
  std::ostringstream out, err;
  EXPECT_EQ(play(test::meadow_pack(), "nowhere", 1, in, out, err), 2);
  EXPECT_NE(err.str().find("nowhere"), std::string::npos);
}

}  // namespace
}  // namespace battlecore::party
