// Replays: recording, the file format, checking, divergence, content mismatch, malformed files,
// and the golden replay whose final hash is pinned.

#include "battlecore/sim/replay.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "support/diagnostics_list.hpp"
#include "support/starter_pack.hpp"
#include "support/temp_dir.hpp"
#include "support/text_position.hpp"

namespace battlecore::sim {
namespace {

using namespace deckbuilder;
using nlohmann::json;
using R = DeckbuilderRules;
using test::starter;

/// A random battle played to its end and its replay.
Replay played(const std::string& encounter, std::uint64_t seed) {
  Battle b(starter());
  EXPECT_TRUE(b.start_battle(encounter, seed).ok());
  RandomPolicy policy;
  policy.reset(seed);
  std::vector<Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    EXPECT_TRUE(b.submit(options[policy.pick(options.size())]).ok());
  }
  auto replay = record_replay<R>(starter(), {encounter, seed, {}}, b.actions());
  EXPECT_TRUE(replay.ok());
  EXPECT_EQ(replay.value().final_state_hash, b.state_hash());
  return replay.value();
}

/// The rule sets the command line knows, in its order, as `battlecore replay` reads them.
const std::array<ReplayRuleSet, 3> kRuleSets = {replay_rule_set<R>(), replay_rule_set<PartyRules>(),
                                                replay_rule_set<ClashRules>()};

Result<Replay, content::Diagnostics> reparse(const json& j) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("r.json", j.dump(2), diags);
  if (!doc) return diags;
  return replay_from_document(*doc);
}

TEST(SimReplay, TheFileHasTheFieldsOfTheFormatInOrder) {
  const Replay r = played("w1", 3);
  const auto j = replay_to_json(r);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  const std::vector<std::string> expected = {
      "format", "format_version", "engine_version",   "rng_version", "rules",        "content_hash",
      "seed",   "encounter",      "start_state_hash", "actions",     "state_hashes", "final_state_hash"};
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(j["format"], "battlecore-replay");
  EXPECT_EQ(j["rules"], "deckbuilder");
  EXPECT_EQ(j["rng_version"], kRngVersion);
  EXPECT_EQ(j["actions"].size(), j["state_hashes"].size());
  EXPECT_EQ(j["content_hash"], content::hash_to_hex(starter()->content_hash));
}

TEST(SimReplay, WrittenAndReadBackItIsTheSame) {
  const Replay r = played("sludge_pair", 8);
  test::TempDir dir;
  ASSERT_TRUE(write_replay(dir.path() / "r.json", r).ok());
  auto back = read_replay(dir.path() / "r.json");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(replay_to_json(back.value()), replay_to_json(r));
  auto by_rule_set = read_replay_file(dir.path() / "r.json", kRuleSets);
  ASSERT_TRUE(by_rule_set.ok()) << by_rule_set.error().to_string();
  EXPECT_EQ(replay_to_json(by_rule_set.value().replay), replay_to_json(r));
}

TEST(SimReplay, AnUnchangedReplayMatches) {
  for (const std::string encounter : {"w1", "swamp", "sentry_gate"}) {
    const ReplayCheck check = check_replay<R>(starter(), played(encounter, 21));
    EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << check.message;
    EXPECT_EQ(check.exit_code(), 0);
  }
}

TEST(SimReplay, AnEditedActionIsNamedAsTheFirstDivergence) {
  Replay r = played("w1", 5);
  std::size_t k = 0;
  while (k < r.actions.size() && r.actions[k]["type"] != "play_card") ++k;
  ASSERT_LT(k, r.actions.size());
  r.actions.set(k, {{"type", "end_turn"}});
  const ReplayCheck check = check_replay<R>(starter(), r);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Diverged);
  EXPECT_EQ(check.exit_code(), 1);
  ASSERT_TRUE(check.action.has_value());
  EXPECT_EQ(*check.action, k);
  EXPECT_NE(check.message.find("action " + std::to_string(k) +
                               " {\"type\":\"end_turn\"} diverges: state hash expected"),
            std::string::npos)
      << check.message;
}

TEST(SimReplay, AnActionThatIsNowRefusedIsNamedWithTheReason) {
  Replay r = played("w1", 5);
  r.actions.set(0, {{"type", "play_card"}, {"card", 60}});
  const ReplayCheck check = check_replay<R>(starter(), r);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Diverged);
  EXPECT_EQ(check.action, std::optional<std::size_t>(0));
  EXPECT_NE(check.message.find("is refused: play_card refused in phase PlayerPhase"), std::string::npos)
      << check.message;
}

TEST(SimReplay, OtherContentIsAContentMismatch) {
  Replay r = played("w1", 5);
  r.content_hash ^= 1;
  const ReplayCheck check = check_replay<R>(starter(), r);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::ContentMismatch);
  EXPECT_EQ(check.exit_code(), 2);
  EXPECT_NE(check.message.find("content hash mismatch"), std::string::npos) << check.message;
}

TEST(SimReplay, TheContentHashIgnoresLayoutButNotContent) {
  content::Diagnostics diags;
  std::vector<content::JsonDocument> a, b, c;
  a.push_back(*content::parse_json_text("x.json", R"({"k": 1, "j": [1, 2]})", diags));
  b.push_back(*content::parse_json_text("/elsewhere/x.json", "{\"j\":[1,2],\n  \"k\":1}", diags));
  c.push_back(*content::parse_json_text("x.json", R"({"k": 2, "j": [1, 2]})", diags));
  EXPECT_EQ(content::canonical_content_hash(a), content::canonical_content_hash(b));
  EXPECT_NE(content::canonical_content_hash(a), content::canonical_content_hash(c));
}

TEST(SimReplay, MalformedFilesListEveryProblemWithItsPointer) {
  json j = replay_to_json(played("w1", 2));
  j["format_version"] = 7;
  j["content_hash"] = "xyz";
  j["state_hashes"].push_back("0000000000000000");
  j.erase("seed");
  j["extra"] = true;
  const auto r = reparse(j);
  ASSERT_FALSE(r.ok());
  const std::string text = r.error().to_string();
  EXPECT_NE(text.find("/format_version: replay format version 7 is not supported"), std::string::npos)
      << text;
  EXPECT_NE(text.find("/content_hash: expected a hash of 16 lower-case hex digits, got 'xyz'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("missing required key 'seed'"), std::string::npos) << text;
  EXPECT_NE(text.find("unknown key 'extra'"), std::string::npos) << text;

  json k = replay_to_json(played("w1", 2));
  k["state_hashes"].push_back("0000000000000000");
  const auto r2 = reparse(k);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().to_string().find("/state_hashes: expected"), std::string::npos)
      << r2.error().to_string();
}

TEST(SimReplay, ARuleSetThatCannotBeReadIsReportedAtRulesWithEveryOtherProblem) {
  test::TempDir dir;
  json j = replay_to_json(played("w1", 2));
  j["rules"] = 5;
  j["seed"] = -1;
  j["content_hash"] = "xyz";
  j["rng_version"] = 2;
  j["actions"][0] = {{"type", "teleport"}};  // not read: no rule set reads it
  const std::string text = j.dump(2);
  const auto path = dir.path() / "r.json";
  std::ofstream(path) << text;
  auto read = read_replay_file(path, kRuleSets);
  ASSERT_FALSE(read.ok());
  const std::string file = path.string();
  using test::position_of;
  EXPECT_EQ(
      read.error().to_string(),
      file + ":" + position_of(text, "2,\n  \"rules\"") +
          ": /rng_version: the replay was made with rng_version 2; this engine has rng_version 1, whose "
          "numbers differ\n" +
          file + ":" + position_of(text, "5,\n  \"seed\"") +
          ": /rules: expected a string (one of: deckbuilder, party, clash), got an integer\n" + file + ":" +
          position_of(text, "\"xyz\"") +
          ": /content_hash: expected a hash of 16 lower-case hex digits, got 'xyz'\n" + file + ":" +
          position_of(text, "-1,\n  \"start_state_hash\"") +
          ": /seed: expected a seed: an integer in [0, 2^64), got -1\n");
  // A rule set the engine does not have, with the allowed ones; a missing one, at the root.
  j["rules"] = "chess";
  const std::string chess = j.dump(2);
  std::ofstream(path) << chess;
  read = read_replay_file(path, kRuleSets);
  ASSERT_FALSE(read.ok());
  ASSERT_EQ(read.error().size(), 4u) << read.error().to_string();
  EXPECT_EQ(read.error().items()[1].pointer, "/rules");
  EXPECT_EQ(read.error().items()[1].message,
            "unknown value 'chess'; expected one of: deckbuilder, party, clash");
  EXPECT_EQ(content::format_diagnostic(read.error().items()[1])
                .rfind(file + ":" + position_of(chess, "\"chess\"") + ": /rules: ", 0),
            0u)
      << content::format_diagnostic(read.error().items()[1]);
  j.erase("rules");
  std::ofstream(path) << j.dump(2);
  read = read_replay_file(path, kRuleSets);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(content::format_diagnostic(read.error().items()[1]),
            file + ":1:1: missing required key 'rules' (one of: deckbuilder, party, clash)");
  // A rule set named well reads the actions too, in the same reading of the file.
  j["rules"] = "deckbuilder";
  std::ofstream(path) << j.dump(2);
  read = read_replay_file(path, kRuleSets);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(test::pointed_messages(read.error()),
            (std::vector<std::string>{
                "/rng_version: the replay was made with rng_version 2; this engine has rng_version 1, whose "
                "numbers differ",
                "/content_hash: expected a hash of 16 lower-case hex digits, got 'xyz'",
                "/seed: expected a seed: an integer in [0, 2^64), got -1",
                "/actions/0: unknown action type 'teleport'; expected play_card, end_turn, choose, "
                "skip_choice, take_reward or skip_reward"}));
  // A file that is not JSON says where.
  std::ofstream(path) << "{\"rules\": ";
  read = read_replay_file(path, kRuleSets);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().items()[0].line, 1);
}

TEST(SimReplay, AStartThePackDoesNotHaveIsReportedAtItsPointersAllAtOnce) {
  const auto problems_of = [](const json& j, std::string& text) {
    text = j.dump(2);
    content::Diagnostics diags;
    auto doc = content::parse_json_text("r.json", text, diags);
    auto replay = replay_from_document(*doc, action_check<R>());
    if (!replay) return "not read: " + replay.error().to_string();
    return replay_start_problems<R>(starter(), ReplayFile{*doc, replay.value()}).to_string();
  };
  using test::position_of;
  std::string text;
  json j = replay_to_json(played("w1", 2));
  j["encounter"] = "nope";
  j["deck"] = {"strike", "nope", "bash", "nope"};
  std::string problems = problems_of(j, text);
  // The keys are written in byte order: the deck's entries come before the encounter.
  EXPECT_EQ(problems, "r.json:" + position_of(text, "\"nope\"", 2) +
                          ": /encounter: no encounter 'nope' in pack 'starter'\n"
                          "r.json:" +
                          position_of(text, "\"nope\"") +
                          ": /deck/1: no card 'nope' in pack 'starter'\n"
                          "r.json:" +
                          position_of(text, "\"nope\"", 1) + ": /deck/3: no card 'nope' in pack 'starter'\n");
  // A deck the rule set does not deal, reported with an encounter the pack does not have.
  j["deck"] = std::vector<std::string>(65, "strike");
  problems = problems_of(j, text);
  EXPECT_EQ(problems, "r.json:" + position_of(text, "\"nope\"") +
                          ": /encounter: no encounter 'nope' in pack 'starter'\n"
                          "r.json:" +
                          position_of(text, "[\n    \"strike\"") +
                          ": /deck: the deck has 65 cards; a battle holds at most 64\n");
  // And none for a start that fits.
  j = replay_to_json(played("w1", 2));
  EXPECT_EQ(problems_of(j, text), "");
}

TEST(SimReplay, ADeckEntryThatIsNoCardIdIsReportedWithTheOtherShapeProblems) {
  json j = replay_to_json(played("w1", 2));
  j["deck"] = {"strike", "Strike", 3, ""};
  j["format"] = "battlecore-replays";
  const auto r = reparse(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      test::pointed_messages(r.error()),
      (std::vector<std::string>{
          "/format: expected \"battlecore-replay\", got \"battlecore-replays\"",
          "/deck/1: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an upgraded "
          "card), got 'Strike'",
          "/deck/2: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an upgraded "
          "card), got an integer",
          "/deck/3: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an upgraded "
          "card), got an empty string",
      }));
  for (const content::Diagnostic& d : r.error().items()) EXPECT_GT(d.line, 0) << d.message;
}

TEST(SimReplay, ADeckWithAnUpgradedCardIsReadBackAndMatches) {
  // `sim --deck` and start_battle's master deck take an upgraded card by its id with '+'
  // (brace+), so a replay of such a battle names it so and must read back.
  const std::vector<std::string> deck = {"strike", "strike", "strike", "defend",
                                         "defend", "brace+", "brace+"};
  Battle b(starter());
  std::vector<CardId> cards;
  for (const std::string& id : deck) cards.push_back(starter()->find_card(id).value());
  ASSERT_TRUE(b.start_battle(*starter()->find_encounter("w1"), 4, cards).ok());
  std::vector<Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options.front()).ok());
  }
  auto recorded = record_replay<R>(starter(), {"w1", 4, {}, deck}, b.actions());
  ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  EXPECT_EQ(recorded.value().final_state_hash, b.state_hash());
  const auto back = reparse(replay_to_json(recorded.value()));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back.value().start.deck, deck);
  const ReplayCheck check = check_replay<R>(starter(), back.value());
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << check.message;
  // An upgrade the pack does not have is a card it does not have, reported against the content.
  json j = replay_to_json(recorded.value());
  j["deck"][0] = "strike+";
  content::Diagnostics diags;
  auto doc = content::parse_json_text("r.json", j.dump(2), diags);
  ASSERT_TRUE(doc.has_value()) << diags.to_string();
  const auto unknown = replay_from_document(*doc, action_check<R>());
  ASSERT_TRUE(unknown.ok()) << unknown.error().to_string();
  EXPECT_EQ(test::pointed_messages(replay_start_problems<R>(starter(), ReplayFile{*doc, unknown.value()})),
            (std::vector<std::string>{"/deck/0: no card 'strike+' in pack 'starter'"}));
}

TEST(SimReplay, APolicyErrorIsReadBackAndChecksAtTheNextDecision) {
  Battle b(starter());
  ASSERT_TRUE(b.start_battle("w1", 2).ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  ASSERT_EQ(b.status(), Status::AwaitingDecision);
  auto recorded = record_replay<R>(starter(), {"w1", 2, {}}, b.actions());
  ASSERT_TRUE(recorded.ok());
  Replay replay = recorded.value();
  replay.policy_error = "an error no option raises";
  const auto back = reparse(replay_to_json(replay));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back.value().policy_error, replay.policy_error);
  // Every action replays; the error is no option's, so it lay deeper in the policy's search.
  const ReplayCheck check = check_replay<R>(starter(), back.value());
  EXPECT_EQ(check.exit_code(), 1);
  EXPECT_EQ(check.action, std::nullopt);
  EXPECT_EQ(check.message,
            "after action 0, where the policy raised an engine error while choosing (an error no option "
            "raises), no option raises it at once (the policy met it deeper in its search)");
  // A battle over waits on no choice.
  Replay over = played("w1", 2);
  over.policy_error = "an error no option raises";
  EXPECT_NE(check_replay<R>(starter(), over).message.find("the battle waits on no decision"),
            std::string::npos);
  // One replay ends in one error.
  json both = replay_to_json(replay);
  both["engine_error"] = "raised by the last action";
  const auto r = reparse(both);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(test::pointed_messages(r.error()),
            (std::vector<std::string>{
                "/policy_error: a replay ends in one engine error: raised by its last action "
                "(engine_error) or while the policy chose after it (policy_error), not both"}));
}

TEST(SimReplay, AReplayStartedFromAScenarioChecksToo) {
  const json scenario = {{"encounter", "w1"}, {"hand", {"tactics", "strike", "defend"}}, {"energy", 3}};
  auto started = R::start(starter(), {"w1", 6, scenario});
  ASSERT_TRUE(started.ok()) << started.error().message;
  Battle& b = started.value();
  ASSERT_TRUE(b.submit(Action::play(0)).ok());
  ASSERT_TRUE(b.submit(Action::choose(0)).ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  auto replay = record_replay<R>(starter(), {"w1", 6, scenario}, b.actions());
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(replay.value().final_state_hash, b.state_hash());
  auto back = reparse(replay_to_json(replay.value()));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(check_replay<R>(starter(), back.value()).kind, ReplayCheck::Kind::Match);
}

TEST(SimReplay, AReplayWhoseScenarioStartsAnotherEncounterThanItNamesIsMalformed) {
  // The scenario's own encounter is the one played: checked alone, the replay would match on
  // a battle of another encounter than the one it names.
  const json scenario = {{"encounter", "w1"}, {"energy", 3}};
  auto recorded = record_replay<R>(starter(), {"w1", 6, scenario}, std::span<const Action>{});
  ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  ASSERT_EQ(check_replay<R>(starter(), recorded.value()).kind, ReplayCheck::Kind::Match);
  for (const std::string encounter : {"swamp", "nowhere"}) {
    Replay replay = recorded.value();
    replay.start.encounter = encounter;
    const ReplayCheck check = check_replay<R>(starter(), replay);
    EXPECT_EQ(check.kind, ReplayCheck::Kind::Malformed) << check.message;
    EXPECT_EQ(check.message, "/encounter: the replay names encounter '" + encounter +
                                 "', but its scenario starts encounter 'w1'");
  }
}

TEST(SimReplay, ReadingAFileReportsItsDuplicateKeysAndEveryBadActionAtItsPosition) {
  test::TempDir dir;
  json j = replay_to_json(played("w1", 3));
  j["actions"][0] = {{"type", "teleport"}};
  j["actions"][1] = {{"type", "end_turn"}, {"bogus", 1}};
  const std::string text = "{\"seed\": 5,\n" + j.dump().substr(1);
  std::ofstream(dir.path() / "r.json") << text;
  // Without a rule set's action check only the shape is read: the duplicate key alone.
  auto plain = read_replay(dir.path() / "r.json");
  ASSERT_FALSE(plain.ok());
  ASSERT_EQ(plain.error().size(), 1u) << plain.error().to_string();
  EXPECT_EQ(plain.error().items()[0].message,
            "duplicate key 'seed'; a key may appear only once in an object");
  auto checked = read_replay(dir.path() / "r.json", action_check<R>());
  ASSERT_FALSE(checked.ok());
  const std::vector<content::Diagnostic>& items = checked.error().items();
  ASSERT_EQ(items.size(), 3u) << checked.error().to_string();
  EXPECT_EQ(items[1].pointer, "/actions/0");
  EXPECT_EQ(items[1].message.rfind("unknown action type 'teleport'", 0), 0u) << items[1].message;
  EXPECT_EQ(items[2].pointer, "/actions/1");
  EXPECT_EQ(items[2].message, "unknown key 'bogus'; allowed keys: type");
  for (const content::Diagnostic& d : items) {
    EXPECT_EQ(d.file, (dir.path() / "r.json").string());
    EXPECT_EQ(d.line, 2) << d.message;
  }
  EXPECT_EQ(items[1].column, static_cast<int>(text.find("{\"type\":\"teleport\"") - text.find('\n')));
}

TEST(SimReplay, AScenariosProblemsArePlacedInTheReplay) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("r.json", "{\"seed\": 1,\n \"scenario\": {\"hand\": [\"x\"]}}", diags);
  ASSERT_TRUE(doc.has_value());
  ReplayFile file{*doc, {}};
  content::Diagnostics found;
  found.add({"scenario", 3, 11, "/hand/0", "no card 'x'"});
  found.add({"scenario", 1, 1, "", "the pack names no default encounter"});
  const content::Diagnostics placed = detail::place_in_replay(found, file);
  EXPECT_EQ(placed.to_string(),
            "r.json:2:24: /scenario/hand/0: no card 'x'\n"
            "r.json:2:14: /scenario: the pack names no default encounter\n");
}

/// `replay` with its actions and state hashes `times` over, one copy after another: a long file
/// whose actions are all well formed, the battle it records over at the end of the first copy.
Replay repeated(const Replay& replay, std::size_t times) {
  Replay out = replay;
  for (std::size_t t = 1; t < times; ++t)
    for (std::size_t i = 0; i < replay.actions.size(); ++i) {
      out.actions.push_back(replay.actions[i]);
      out.state_hashes.push_back(replay.state_hashes[i]);
    }
  return out;
}

/// The number of copies of a battle's actions that make a long replay of at least 40,000.
std::size_t copies_for_a_long_replay(const Replay& battle) { return 40'000 / battle.actions.size() + 1; }

TEST(SimReplay, ALongReplayIsReadWithItsArraysOutOfTheDocumentAndChecksAsFarAsItsBattleGoes) {
  const Replay battle = played("w1", 3);
  const Replay long_replay = repeated(battle, copies_for_a_long_replay(battle));
  ASSERT_GE(long_replay.actions.size(), 40'000u);
  test::TempDir dir;
  const auto path = dir.path() / "long.json";
  ASSERT_TRUE(write_replay(path, long_replay).ok());
  auto file = read_replay_file(path, action_check<R>());
  ASSERT_TRUE(file.ok()) << file.error().to_string();
  const Replay& read = file.value().replay;
  EXPECT_EQ(read.actions, long_replay.actions);
  EXPECT_EQ(read.state_hashes, long_replay.state_hashes);
  EXPECT_EQ(replay_to_json(read), replay_to_json(long_replay));
  // The replay holds the long arrays; the document keeps the text and the header, not them.
  EXPECT_EQ(file.value().document.root.at("actions").size(), 0u);
  EXPECT_EQ(file.value().document.root.at("state_hashes").size(), 0u);
  EXPECT_EQ(file.value().document.root.at("encounter"), "w1");
  // Every action of the battle plays and matches its hash; the first past its end is named.
  const ReplayCheck check = check_replay<R>(starter(), read);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Diverged) << check.message;
  EXPECT_EQ(check.action, std::optional<std::size_t>(battle.actions.size())) << check.message;
  EXPECT_NE(check.message.find("the battle is over"), std::string::npos) << check.message;
  // The battle's own replay, read the same way, matches.
  ASSERT_TRUE(write_replay(path, battle).ok());
  auto own = read_replay_file(path, action_check<R>());
  ASSERT_TRUE(own.ok()) << own.error().to_string();
  EXPECT_EQ(check_replay<R>(starter(), own.value().replay).kind, ReplayCheck::Kind::Match);
}

TEST(SimReplay, ProblemsDeepInALongReplayAreReportedAtTheirPointersAndPositions) {
  const Replay battle = played("w1", 3);
  nlohmann::ordered_json j = replay_to_json(repeated(battle, copies_for_a_long_replay(battle)));
  j["actions"][30'001] = {{"type", "teleport"}};
  j["actions"][39'999] = json::array();
  j["state_hashes"][35'000] = "ABCDEF0123456789";
  j["state_hashes"][35'002] = 1234567;
  const std::string text = j.dump(2);
  test::TempDir dir;
  const auto path = dir.path() / "long.json";
  std::ofstream(path) << text;
  const auto read = read_replay_file(path, action_check<R>());
  ASSERT_FALSE(read.ok());
  const std::string file = path.string();
  using test::position_of;
  EXPECT_EQ(
      read.error().to_string(),
      file + ":" + position_of(text, "{\n      \"type\": \"teleport\"") +
          ": /actions/30001: unknown action type 'teleport'; expected play_card, end_turn, choose, "
          "skip_choice, take_reward or skip_reward\n" +
          file + ":" + position_of(text, "[]") +
          ": /actions/39999: expected an action object, got an array\n" + file + ":" +
          position_of(text, "\"ABCDEF0123456789\"") +
          ": /state_hashes/35000: expected a hash of 16 lower-case hex digits, got 'ABCDEF0123456789'\n" +
          file + ":" + position_of(text, "1234567,") +
          ": /state_hashes/35002: expected a hash of 16 lower-case hex digits, got an integer\n");
}

TEST(SimReplay, EveryHashIsReadInTheLowerCaseItIsWrittenIn) {
  const Replay r = played("w1", 2);
  ASSERT_GE(r.state_hashes.size(), 2u);
  json j = replay_to_json(r);
  const auto upper = [](std::string hex) {
    for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return hex;
  };
  j["content_hash"] = "D754F7AA22743A50";
  j["start_state_hash"] = upper(j["start_state_hash"].get<std::string>());
  j["state_hashes"][1] = "0C2F9E1D44A8B710";
  j["final_state_hash"] = "0c2f9e1d44a8B710";
  const auto read = reparse(j);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(test::pointed_messages(read.error()),
            (std::vector<std::string>{
                "/content_hash: expected a hash of 16 lower-case hex digits, got 'D754F7AA22743A50'",
                "/start_state_hash: expected a hash of 16 lower-case hex digits, got '" +
                    j["start_state_hash"].get<std::string>() + "'",
                "/state_hashes/1: expected a hash of 16 lower-case hex digits, got '0C2F9E1D44A8B710'",
                "/final_state_hash: expected a hash of 16 lower-case hex digits, got '0c2f9e1d44a8B710'"}));
  for (const content::Diagnostic& d : read.error().items()) EXPECT_GT(d.line, 0) << d.message;
  EXPECT_EQ(content::hash_from_hex("D754F7AA22743A50"), std::nullopt);
  EXPECT_EQ(content::hash_from_hex("d754f7aa22743a50"), std::optional<std::uint64_t>(0xd754f7aa22743a50ull));
  // A hash missing or of another type says what it should be too.
  json other = replay_to_json(r);
  other.erase("final_state_hash");
  other["state_hashes"][0] = 5;
  const auto missing = reparse(other);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(test::pointed_messages(missing.error()),
            (std::vector<std::string>{
                "/state_hashes/0: expected a hash of 16 lower-case hex digits, got an integer",
                ": missing required key 'final_state_hash' (a hash of 16 lower-case hex digits)"}));
}

// The golden replay: recorded once and checked in. Its final hash must come out the same in
// Debug, Release and sanitizer builds, on any machine. Made by `battlecore sim --rules deckbuilder
// --encounter golem_vault --battles 5 --seed 9 --record DIR` (battle 4: 41 actions, with Choices
// picked and skipped and a reward taken). Re-record it only when a rule changes on purpose.
TEST(SimReplay, TheGoldenDeckbuilderReplayReproducesItsPinnedFinalHash) {
  const auto path =
      std::filesystem::path(BATTLECORE_GOLDEN_DIR) / "deckbuilder_golem_vault_seed9_battle4.replay.json";
  auto replay = read_replay(path);
  ASSERT_TRUE(replay.ok()) << replay.error().to_string();
  constexpr std::uint64_t kPinned = 0xea6965f8d6fe0bcfull;
  EXPECT_EQ(replay.value().final_state_hash, kPinned);
  EXPECT_GT(replay.value().actions.size(), 20u);
  const ReplayCheck check = check_replay<R>(starter(), replay.value());
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << check.message;
  // And from its seed and actions alone, without the recorded hashes.
  std::vector<Action> actions;
  for (const json& a : replay.value().actions) actions.push_back(action_from_json(a).value());
  auto again = record_replay<R>(starter(), replay.value().start, actions);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().final_state_hash, kPinned);
}

}  // namespace
}  // namespace battlecore::sim
