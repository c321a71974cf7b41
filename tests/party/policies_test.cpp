// The built-in policies and the terminal play session.

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/party/load.hpp"
#include "battlecore/party/play_session.hpp"
#include "battlecore/party/policies.hpp"
#include "party_support.hpp"
#include "support/interrupted_input.hpp"

namespace battlecore::party {
namespace {

/// The pack of one file's text, or null after a failed check (every problem in its message).
std::shared_ptr<const Catalog> pack_from_text(const std::string& file, const std::string& text) {
  content::Diagnostics d;
  const auto parsed = content::parse_json_text(file, text, d);
  EXPECT_TRUE(parsed && d.empty()) << d.to_string();
  if (!parsed || !d.empty()) return nullptr;
  auto pack = load_catalog(std::vector<content::JsonDocument>{*parsed});
  EXPECT_TRUE(pack.ok()) << (pack.ok() ? "" : pack.error().to_string());
  if (!pack.ok()) return nullptr;
  return std::move(pack).value();
}

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

// Sunder's hit inflicts Defense Down (+2 damage to that same hit) unless a 50% resistance roll
// resists it: greedy scores Sunder 4.65 when it sticks and 2.65 when resisted, Strike 3.65.
// Twins differing only in their random streams, some of which would resist and some not, must
// get the same choice: the score may not read the roll to come.
constexpr const char* kRollsPack = R"({
  "pack": {"id": "rolls", "name": "Rolls", "rules": "party", "default_encounter": "wall"},
  "conditions": [{"id": "defense_down", "name": "Defense Down", "effect": "defense_down", "amount": 2, "turns": 2}],
  "members": [{"id": "ann", "name": "Ann", "hp": 20, "attack": 1, "defense": 0, "reach": "any",
               "skills": ["sunder", "strike"]}],
  "skills": [
    {"id": "sunder", "name": "Sunder", "cost": 1, "target": "enemy",
     "effects": [{"op": "damage", "amount": 2, "inflict": "defense_down", "turns": 2}]},
    {"id": "strike", "name": "Strike", "cost": 1, "target": "enemy", "effects": [{"op": "damage", "amount": 3}]}],
  "enemies": [{"id": "wall", "name": "Wall", "hp": 99, "resist": {"defense_down": 50},
               "actions": [{"id": "idle", "target": "self", "effects": [{"op": "charge", "amount": 1}]}]}],
  "parties": [{"id": "solo", "formation": ["ann"], "tp": 10}],
  "encounters": [{"id": "wall", "party": "solo", "enemies": ["wall"]}]
})";

TEST(PartyPolicies, GreedyReadsNoRollToCome) {
  const auto pack = pack_from_text("rolls.json", kRollsPack);
  ASSERT_NE(pack, nullptr);
  const Battle real = test::start("wall", 1, pack);
  const auto options = real.decision().options;
  const auto sunder = std::find(options.begin(), options.end(), Action::skill(0, 0));
  ASSERT_NE(sunder, options.end());
  std::set<std::int32_t> outcomes;
  std::set<std::size_t> choices;
  for (std::uint64_t streams = 1; streams <= 16; ++streams) {
    Battle twin = real;
    Battle::Access::of(twin).s.rng = RngStreams(streams);
    Battle played = twin;
    test::submit_ok(played, *sunder);
    outcomes.insert(played.state().enemies[0].hp);
    GreedyPolicy greedy;
    greedy.reset(7);
    choices.insert(greedy.choose(twin, options));
  }
  ASSERT_EQ(outcomes.size(), 2u) << "the twins' rolls resist and do not";
  EXPECT_EQ(choices.size(), 1u) << "the choice followed the roll to come";
}

// A skill's ops run on each of its targets: Goad, an `enemy` skill whose op is a charge, charges
// the enemy. Greedy must not count that charge as a gain for the party (it did, 0.8 per point,
// and preferred Goad, 4.0, to the basic attack, 2 HP).
constexpr const char* kGoadPack = R"({
  "pack": {"id": "goad", "name": "Goad", "rules": "party", "default_encounter": "wall"},
  "members": [{"id": "ann", "name": "Ann", "hp": 20, "attack": 1, "reach": "any", "skills": ["goad"]}],
  "skills": [{"id": "goad", "name": "Goad", "cost": 0, "target": "enemy", "effects": [{"op": "charge", "amount": 5}]}],
  "enemies": [{"id": "wall", "name": "Wall", "hp": 99,
               "actions": [{"id": "idle", "target": "self", "effects": [{"op": "heal", "amount": 1}]}]}],
  "parties": [{"id": "solo", "formation": ["ann"], "tp": 10}],
  "encounters": [{"id": "wall", "party": "solo", "enemies": ["wall"], "advantage": "party"}]
})";

TEST(PartyPolicies, GreedyCountsNoChargeGivenToAnEnemy) {
  const auto pack = pack_from_text("goad.json", kGoadPack);
  ASSERT_NE(pack, nullptr);
  Battle b = test::start("wall", 1, pack);
  const auto options = b.decision().options;
  ASSERT_NE(std::find(options.begin(), options.end(), Action::skill(0, 0)), options.end());
  GreedyPolicy greedy;
  greedy.reset(1);
  EXPECT_EQ(options[greedy.choose(b, options)], Action::attack(0));
  test::submit_ok(b, Action::skill(0, 0));                 // the charge lands on the enemy, not on Ann
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);  // Ann's second action (the advantage)
  EXPECT_EQ(b.state().enemies[0].charge, 3);
  EXPECT_EQ(b.state().members[0].charge, 0);
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
  // The board after the last action poses no decision: none is listed.
  EXPECT_EQ(text.find("decision: none"), std::string::npos)
      << text.substr(text.size() > 2000 ? text.size() - 2000 : 0);
}

// Ctrl-C while the session reads its second line: one choice was made, the lines after it are
// not played, and the session ends as at the end of its input.
TEST(PartyPlaySession, AnInterruptEndsTheSessionAtItsNextReadWithTheLinesAheadUnplayed) {
  const auto session = [](PlayInput in) {
    std::ostringstream out, err;
    EXPECT_EQ(play(test::meadow_pack(), "meadow_walk", 1, in, out, err), 0);
    EXPECT_TRUE(err.str().empty()) << err.str();
    return out.str();
  };
  battlecore::test::InterruptedInput input({"0\n", "0\n", "json\n", "0\n", "quit\n"}, 1);
  const std::string interrupted = session(input.input());
  std::istringstream first("0\n");
  EXPECT_EQ(interrupted, battlecore::test::ended_by_interrupt(session(first)));
  const std::size_t chosen = interrupted.find("> -> ");  // a prompt answered by a choice
  ASSERT_NE(chosen, std::string::npos) << interrupted;
  EXPECT_EQ(interrupted.find("> -> ", chosen + 1), std::string::npos) << interrupted;
}

// After each choice the session tells what happened that the board does not show: each enemy's
// move and each hit, one line per event of the log, fallen enemies still named.
TEST(PartyPlaySession, EachChoiceIsFollowedByWhatHappened) {
  std::string input;
  for (int i = 0; i < 20; ++i) input += "0\n";
  std::istringstream in(input + "log 100000\nquit\n");
  std::ostringstream out, err;
  ASSERT_EQ(play(test::meadow_pack(), "swamp", 1, in, out, err), 0);
  const std::string text = out.str();
  ASSERT_NE(text.find("you leave the battle"), std::string::npos) << "the battle ended before the log:\n"
                                                                  << text;
  std::size_t told_moves = 0, told_hits = 0, logged_moves = 0, logged_hits = 0, told_down = 0,
              logged_down = 0;
  std::istringstream lines(text);
  const auto has = [](const std::string& line, std::string_view part) {
    return line.find(part) != std::string::npos;
  };
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("  {")) {
      logged_moves += has(line, "\"EnemyActed\"") ? 1 : 0;
      logged_hits += has(line, "\"Damaged\"") ? 1 : 0;
      logged_down += has(line, "\"ActorDown\"") ? 1 : 0;
    } else if (line.starts_with("  ") && !line.starts_with("  enemy ")) {
      told_moves += has(line, " uses ") && !has(line, ": block?") ? 1 : 0;
      told_hits += has(line, " takes ") && has(line, " damage") ? 1 : 0;
      told_down += line.ends_with(" is down") ? 1 : 0;
      EXPECT_FALSE(has(line, "enemy #")) << line;
    }
  }
  EXPECT_GT(logged_moves, 0u) << text;
  EXPECT_EQ(told_moves, logged_moves) << text;
  EXPECT_GT(logged_hits, 0u) << text;
  EXPECT_EQ(told_hits, logged_hits) << text;
  EXPECT_EQ(told_down, logged_down) << text;
}

// A downed actor's conditions are cleared as it goes down (the log records each one going);
// none of them wore off, and the session says only that the actor is down. A condition that
// runs out on a standing actor is still told.
TEST(PartyPlaySession, AConditionClearedAsItsHolderGoesDownIsNotToldAsWearingOff) {
  Battle downed = test::start("reserves");
  const ActorRef hive = enemy_actor(downed.state().enemies[0].uid);
  test::give(downed, hive, "sticky", 3);
  test::give(downed, hive, "poison", 3);
  std::istringstream quick("0\nquit\n");  // Ann's attack fells the Hive (2 HP)
  std::ostringstream out;
  ASSERT_EQ(play(downed, quick, out), 0);
  const std::string text = out.str();
  ASSERT_NE(text.find("Hive is down"), std::string::npos) << text;
  const auto& log = downed.events().log();
  EXPECT_EQ(std::count_if(
                log.begin(), log.end(),
                [&](const Event& e) { return e.type == EventType::ConditionExpired && e.target == hive; }),
            2);
  EXPECT_EQ(text.find("wears off"), std::string::npos) << text;

  Battle standing = test::start("trio");
  test::give(standing, enemy_actor(standing.state().enemies[0].uid), "sticky", 1);
  std::istringstream round("0\n0\n0\nquit\n");  // three attacks on the Dummy (99 HP), then the turn end
  std::ostringstream told;
  ASSERT_EQ(play(standing, round, told), 0);
  EXPECT_NE(told.str().find("Dummy: Sticky wears off"), std::string::npos) << told.str();
}

TEST(PartyPlaySession, UnknownEncounterExitsTwo) {
  std::istringstream in("quit\n");
  std::ostringstream out, err;
  EXPECT_EQ(play(test::meadow_pack(), "nowhere", 1, in, out, err), 2);
  EXPECT_NE(err.str().find("nowhere"), std::string::npos);
}

}  // namespace
}  // namespace battlecore::party
