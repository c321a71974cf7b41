// The determinism commands of the command line, run as a program: `sim --record DIR` then
// `replay` on every file, an edited action (exit 1), other content (exit 2), a malformed file
// (exit 2), `play --record`, `play --scenario`, `sim --scenario` and bad scenarios.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/cli_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_position.hpp"

namespace {

namespace fs = std::filesystem;
using battlecore::test::cli;
using battlecore::test::CliRun;
using battlecore::test::contains;
using battlecore::test::explain;
using battlecore::test::position_of;
using battlecore::test::read_file;
using battlecore::test::shell_quoted;
using battlecore::test::TempDir;
using nlohmann::json;
using nlohmann::ordered_json;

const fs::path kStarter = fs::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter";

// The first `count` battles a `sim --record` wrote into `dir`, each checked to replay as matching.
std::vector<json> replays_that_match(const fs::path& dir, int count) {
  std::vector<json> replays;
  for (int i = 0; i < count; ++i) {
    const fs::path file = dir / fmt::format("battle-{:06}.json", i);
    replays.push_back(json::parse(read_file(file)));
    const CliRun r = cli("replay " + shell_quoted(file.string()));
    EXPECT_EQ(r.code, 0) << explain(r);
    EXPECT_TRUE(contains(r.out, "replay matches")) << explain(r);
  }
  return replays;
}

TEST(CliDeterminism, EveryRecordedBattleReplaysWithExitZero) {
  TempDir dir;
  const CliRun sim = cli("sim --rules deckbuilder --encounter swamp --battles 12 --seed 4 --record " +
                         shell_quoted(dir.path().string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
    const CliRun r = cli("replay " + shell_quoted(entry.path().string()));
    EXPECT_EQ(r.code, 0) << explain(r);
    EXPECT_TRUE(contains(r.out, "replay matches")) << explain(r);
  }
  EXPECT_EQ(files, 12);
  EXPECT_TRUE(fs::exists(dir.path() / "battle-000011.json"));
}

TEST(CliDeterminism, RecordedRunsGiveTheSameFilesOnAnyThreadCountAndShard) {
  TempDir dir;
  const fs::path one = dir.path() / "one", two = dir.path() / "two", shard = dir.path() / "shard";
  const std::string run = "sim --rules deckbuilder --battles 10 --seed 6 --json --record ";
  const CliRun a = cli(run + shell_quoted(one.string()));
  const CliRun b = cli(run + shell_quoted(two.string()) + " --threads 2");
  const CliRun c = cli(run + shell_quoted(shard.string()) + " --shard 2/2");
  ASSERT_EQ(a.code, 0) << explain(a);
  ASSERT_EQ(b.code, 0) << explain(b);
  ASSERT_EQ(c.code, 0) << explain(c);
  for (int i = 0; i < 10; ++i) {
    const std::string name = fmt::format("battle-{:06}.json", i);
    EXPECT_EQ(read_file(one / name), read_file(two / name)) << name;
    EXPECT_EQ(fs::exists(shard / name), i >= 5) << name << ": shard 2/2 plays battles 5..9";
    if (i >= 5) {
      EXPECT_EQ(read_file(one / name), read_file(shard / name)) << name;
    }
  }
  const CliRun versus = cli(run + shell_quoted((dir.path() / "v").string()) + " --versus-policy greedy");
  EXPECT_EQ(versus.code, 2) << explain(versus);
  EXPECT_TRUE(contains(versus.err, "--versus-policy")) << explain(versus);
}

TEST(CliDeterminism, ARecordDirectoryIsCheckedBeforeTheRunAndARefusedRunLeavesNone) {
  TempDir dir;
  // Under a file: refused before any battle, as --report is (it once failed at the first replay).
  const fs::path file = dir.path() / "file";
  std::ofstream(file) << "x";
  const CliRun under_file =
      cli("sim --rules deckbuilder --battles 5 --record " + shell_quoted((file / "replays").string()));
  EXPECT_EQ(under_file.code, 2) << explain(under_file);
  EXPECT_TRUE(contains(under_file.err, "cannot write --record '")) << explain(under_file);
  EXPECT_TRUE(contains(under_file.err, "is not a directory")) << explain(under_file);
  EXPECT_TRUE(under_file.out.empty()) << explain(under_file);
  // A run refused after the options were read (an unknown card in the deck) makes no directory.
  const fs::path nested = dir.path() / "a" / "b";
  const CliRun refused =
      cli("sim --rules deckbuilder --battles 5 --deck nope --record " + shell_quoted(nested.string()));
  EXPECT_EQ(refused.code, 2) << explain(refused);
  EXPECT_FALSE(fs::exists(dir.path() / "a")) << explain(refused);
  // A run that records makes the whole path.
  const CliRun made = cli("sim --rules deckbuilder --battles 2 --record " + shell_quoted(nested.string()));
  ASSERT_EQ(made.code, 0) << explain(made);
  EXPECT_TRUE(fs::exists(nested / "battle-000001.json"));
}

TEST(CliDeterminism, RecordFailuresWritesNothingWhenNoBattleFails) {
  TempDir dir;
  const CliRun sim = cli("sim --rules deckbuilder --battles 5 --record " +
                         shell_quoted((dir.path() / "f").string()) + " --record-failures");
  ASSERT_EQ(sim.code, 0) << explain(sim);
  EXPECT_TRUE(fs::is_directory(dir.path() / "f"));
  EXPECT_TRUE(fs::is_empty(dir.path() / "f"));
  const CliRun bad = cli("sim --rules deckbuilder --record-failures");
  EXPECT_EQ(bad.code, 2) << explain(bad);
  EXPECT_TRUE(contains(bad.err, "--record-failures needs --record DIR")) << explain(bad);
}

// Content whose card runs more ops than one effect may (four repeats of 20 nested: 160,000 runs
// of the innermost op, past kMaxOpsPerEffect): every battle hits an engine error ("a loop in
// content") when its card is played. Written into `dir`; returns the pack.
fs::path write_overload_pack(const fs::path& dir) {
  std::string effects = R"([{"op": "armor", "amount": 1}])";
  for (int level = 0; level < 4; ++level)
    effects = R"([{"op": "repeat", "times": 20, "effects": )" + effects + "}]";
  const fs::path pack = dir / "overload";
  fs::create_directories(pack);
  std::ofstream(pack / "pack.json")
      << R"({"pack": {"id": "overload", "rules": "deckbuilder", "default_encounter": "e"},)"
      << R"("cards": [{"id": "overload", "type": "skill", "cost": 0, "target": "none", "effects": )"
      << effects << "}],"
      << R"("enemies": [{"id": "dummy", "hp": 10, "moves": [{"id": "wait", "intent": "unknown", "effects": []}],)"
      << R"("behavior": {"kind": "sequence", "moves": ["wait"]}}],)"
      << R"("players": [{"id": "hero", "max_hp": 50, "deck": [{"card": "overload", "count": 10}]}],)"
      << R"("encounters": [{"id": "e", "player": "hero", "enemies": ["dummy"]}]})";
  return pack;
}

// The battles that hit an engine error are recorded, and their replays reproduce the error.
TEST(CliDeterminism, RecordFailuresWritesTheBattlesThatHitAnEngineError) {
  TempDir dir;
  const fs::path pack = write_overload_pack(dir.path());
  const fs::path out = dir.path() / "failures";
  const CliRun sim = cli("sim --rules deckbuilder --battles 3 --content " + shell_quoted(pack.string()) +
                         " --record " + shell_quoted(out.string()) + " --record-failures");
  ASSERT_EQ(sim.code, 1) << explain(sim);
  ASSERT_TRUE(fs::exists(out / "battle-000002.json")) << explain(sim);
  const json replay = json::parse(read_file(out / "battle-000002.json"));
  ASSERT_TRUE(replay.contains("engine_error"));
  EXPECT_TRUE(contains(replay["engine_error"].get<std::string>(), "a loop in content")) << replay.dump(2);
  // The error names its file from the project's root, so the replay is the same from any checkout.
  EXPECT_TRUE(replay["engine_error"].get<std::string>().starts_with("src/deckbuilder/mechanics.cpp:"))
      << replay.dump(2);
  EXPECT_EQ(replay["state_hashes"].size() + 1, replay["actions"].size());
  const CliRun r = cli("replay " + shell_quoted((out / "battle-000002.json").string()) + " --content " +
                       shell_quoted(pack.string()));
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.out, "raises the recorded engine error again")) << explain(r);
}

// A battle played in the terminal that hits an engine error ends the session with the error's
// message and exit code 1, not an abort; its replay ends with the action that raised it, and
// `replay` raises it again.
TEST(CliDeterminism, PlayReportsAnEngineErrorExitsOneAndRecordsIt) {
  TempDir dir;
  const fs::path pack = write_overload_pack(dir.path());
  const fs::path file = dir.path() / "session.json";
  const CliRun r = cli("play --rules deckbuilder --seed 1 --content " + shell_quoted(pack.string()) +
                           " --record " + shell_quoted(file.string()),
                       "0\n");
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.out, "-> play")) << explain(r);
  EXPECT_TRUE(contains(r.err, "engine error, the battle cannot go on")) << explain(r);
  EXPECT_TRUE(contains(r.err, "a loop in content")) << explain(r);
  ASSERT_TRUE(fs::exists(file)) << explain(r);
  const json replay = json::parse(read_file(file));
  EXPECT_EQ(replay["actions"].size(), 1u);
  ASSERT_TRUE(replay.contains("engine_error")) << replay.dump(2);
  EXPECT_TRUE(contains(replay["engine_error"].get<std::string>(), "a loop in content")) << replay.dump(2);
  const CliRun again =
      cli("replay " + shell_quoted(file.string()) + " --content " + shell_quoted(pack.string()));
  EXPECT_EQ(again.code, 1) << explain(again);
  EXPECT_TRUE(contains(again.out, "raises the recorded engine error again")) << explain(again);
}

TEST(CliDeterminism, ARunWithAnUpgradedCardInItsDeckRecordsReplaysThatMatch) {
  TempDir dir;
  const CliRun sim =
      cli("sim --rules deckbuilder --battles 3 --seed 5 --deck 'strike*5,defend*4,brace+*2' --record " +
          shell_quoted(dir.path().string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  for (const json& replay : replays_that_match(dir.path(), 3)) EXPECT_EQ(replay["deck"].back(), "brace+");
}

TEST(CliDeterminism, ARunWithADeckRecordsItAndItsReplaysMatch) {
  TempDir dir;
  const CliRun sim =
      cli("sim --rules deckbuilder --battles 6 --seed 5 --deck 'strike*6,bash*2' --json --record " +
          shell_quoted(dir.path().string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  const std::vector<std::string> deck = {"strike", "strike", "strike", "strike",
                                         "strike", "strike", "bash",   "bash"};
  for (const json& replay : replays_that_match(dir.path(), 6)) EXPECT_EQ(replay["deck"], json(deck));
  // The deck is part of the start: without it, or with another, the battle is another one.
  const json recorded = json::parse(read_file(dir.path() / "battle-000000.json"));
  const auto replay_of = [&](const json& j, const std::string& name) {
    const fs::path file = dir.path() / name;
    std::ofstream(file) << j.dump(2);
    return cli("replay " + shell_quoted(file.string()));
  };
  json edited = recorded;
  edited.erase("deck");
  CliRun r = replay_of(edited, "no_deck.json");
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.out, "diverges before the first action")) << explain(r);
  edited = recorded;
  edited["deck"][0] = "defend";
  r = replay_of(edited, "other_deck.json");
  EXPECT_EQ(r.code, 1) << explain(r);
  // A deck the pack cannot deal, or that is not a list of card ids: malformed, exit 2.
  edited["deck"][1] = "nope";
  r = replay_of(edited, "unknown_card.json");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "/deck/1: no card 'nope' in pack 'starter'")) << explain(r);
  edited = recorded;
  edited["deck"] = json::array({"strike", 5, ""});
  r = replay_of(edited, "not_an_id.json");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(
      r.err,
      "/deck/1: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an upgraded card), "
      "got an integer"))
      << explain(r);
  EXPECT_TRUE(contains(
      r.err,
      "/deck/2: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an upgraded card), "
      "got an empty string"))
      << explain(r);
  edited["deck"] = json::array();
  r = replay_of(edited, "empty.json");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "/deck: expected at least one card")) << explain(r);
}

TEST(CliDeterminism, AnEditedActionExitsOneNamingIt) {
  TempDir dir;
  ASSERT_EQ(
      cli("sim --rules deckbuilder --battles 1 --seed 2 --record " + shell_quoted(dir.path().string())).code,
      0);
  const fs::path file = dir.path() / "battle-000000.json";
  json j = json::parse(read_file(file));
  std::size_t k = 0;
  while (j["actions"][k]["type"] != "play_card") ++k;
  j["actions"][k] = {{"type", "end_turn"}};
  std::ofstream(dir.path() / "edited.json") << j.dump(2);
  const CliRun r = cli("replay " + shell_quoted((dir.path() / "edited.json").string()));
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(
      r.out, "action " + std::to_string(k) + " {\"type\":\"end_turn\"} diverges: state hash expected"))
      << explain(r);
}

TEST(CliDeterminism, OtherContentExitsTwoSayingSo) {
  TempDir dir;
  ASSERT_EQ(cli("sim --rules deckbuilder --battles 1 --record " + shell_quoted(dir.path().string())).code, 0);
  const fs::path other = dir.path() / "other";
  fs::copy(kStarter, other);
  {
    json pack = json::parse(read_file(other / "pack.json"));
    pack["pack"]["name"] = "Another pack";
    std::ofstream(other / "pack.json") << pack.dump(2);
  }
  const CliRun r = cli("replay " + shell_quoted((dir.path() / "battle-000000.json").string()) +
                       " --content " + shell_quoted(other.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "content hash mismatch")) << explain(r);
}

TEST(CliDeterminism, AMalformedReplayExitsTwoSayingWhy) {
  TempDir dir;
  std::ofstream(dir.path() / "a.json") << "{\"rules\": \"deckbuilder\", \"format\": \"battlecore-replay\"}";
  CliRun r = cli("replay " + shell_quoted((dir.path() / "a.json").string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "missing required key 'actions'")) << explain(r);
  EXPECT_TRUE(contains(r.err, "malformed replay")) << explain(r);
  std::ofstream(dir.path() / "b.json") << "[1, 2";
  r = cli("replay " + shell_quoted((dir.path() / "b.json").string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  std::ofstream(dir.path() / "c.json") << "{\"rules\": \"chess\"}";
  r = cli("replay " + shell_quoted((dir.path() / "c.json").string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "/rules: unknown value 'chess'; expected one of: deckbuilder, party, clash"))
      << explain(r);
  r = cli("replay");
  EXPECT_EQ(r.code, 2) << explain(r);
  // A file that cannot be read is said to be so, not malformed.
  for (const fs::path& unread : {dir.path() / "missing.json", dir.path()}) {
    r = cli("replay " + shell_quoted(unread.string()));
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "battlecore: could not read replay " + unread.string() + "\n")) << explain(r);
    EXPECT_FALSE(contains(r.err, "malformed")) << explain(r);
  }
}

TEST(CliDeterminism, AReplayIsReadStrictlyListingEveryProblemAtItsPosition) {
  TempDir dir;
  ASSERT_EQ(
      cli("sim --rules deckbuilder --battles 1 --seed 2 --record " + shell_quoted(dir.path().string())).code,
      0);
  json j = json::parse(read_file(dir.path() / "battle-000000.json"));
  // A repeated key: the parser keeps the last, so the replay would still match.
  const fs::path twice = dir.path() / "twice.json";
  const std::string twice_text = "{\n  \"seed\": 5," + j.dump(2).substr(1);
  std::ofstream(twice) << twice_text;
  CliRun r = cli("replay " + shell_quoted(twice.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(
      r.err, twice.string() + ":" + position_of(twice_text, "\"seed\"", 1) + ": /seed: duplicate key 'seed'"))
      << explain(r);
  // Every bad action is listed, each at its own position.
  j["actions"][0] = {{"type", "teleport"}};
  j["actions"][2] = {{"type", "end_turn"}, {"bogus", 1}};
  const fs::path bad = dir.path() / "bad.json";
  const std::string bad_text = j.dump(2);
  std::ofstream(bad) << bad_text;
  r = cli("replay " + shell_quoted(bad.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(bad_text, "{\n      \"type\": \"teleport\"") +
                                  ": /actions/0: unknown action type 'teleport'"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(bad_text, "{\n      \"bogus\"") +
                                  ": /actions/2: unknown key 'bogus'; allowed keys: type"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, "2 problem(s)")) << explain(r);
}

TEST(CliDeterminism, AReplaysRuleSetIsReportedAtItsPositionWithTheFilesOtherProblems) {
  TempDir dir;
  ASSERT_EQ(cli("sim --rules deckbuilder --battles 1 --record " + shell_quoted(dir.path().string())).code, 0);
  const ordered_json recorded = ordered_json::parse(read_file(dir.path() / "battle-000000.json"));
  const fs::path file = dir.path() / "r.json";
  for (const ordered_json& rules : {ordered_json(5), ordered_json("chess")}) {
    ordered_json j = recorded;
    j["rules"] = rules;
    j["seed"] = -1;
    j["content_hash"] = "xyz";
    const std::string text = j.dump(2);
    std::ofstream(file) << text;
    const CliRun r = cli("replay " + shell_quoted(file.string()));
    EXPECT_EQ(r.code, 2) << explain(r);
    const std::string rules_problem =
        rules.is_string() ? "unknown value 'chess'; expected one of: deckbuilder, party, clash"
                          : "expected a string (one of: deckbuilder, party, clash), got an integer";
    EXPECT_EQ(r.err, file.string() + ":" + position_of(text, rules.dump() + ",\n  \"content_hash\"") +
                         ": /rules: " + rules_problem + "\n" + file.string() + ":" +
                         position_of(text, "\"xyz\"") +
                         ": /content_hash: expected a hash of 16 lower-case hex digits, got 'xyz'\n" +
                         file.string() + ":" + position_of(text, "-1") +
                         ": /seed: expected a seed: an integer in [0, 2^64), got -1\n" +
                         "battlecore: malformed replay " + file.string() + ": 3 problem(s)\n")
        << explain(r);
  }
}

TEST(CliDeterminism, AReplayThatDoesNotStartIsReportedAtItsPointersWithItsOtherProblems) {
  TempDir dir;
  ASSERT_EQ(cli("sim --rules deckbuilder --battles 1 --record " + shell_quoted(dir.path().string())).code, 0);
  const ordered_json recorded = ordered_json::parse(read_file(dir.path() / "battle-000000.json"));
  const fs::path file = dir.path() / "r.json";
  const auto replay_of = [&](const ordered_json& j, std::string& text) {
    text = j.dump(2);
    std::ofstream(file) << text;
    return cli("replay " + shell_quoted(file.string()));
  };
  std::string text;
  ordered_json j = recorded;
  j["encounter"] = "nope";
  j["deck"] = {"strike", "nope", "bash"};
  CliRun r = replay_of(j, text);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_EQ(r.err, file.string() + ":" + position_of(text, "\"nope\"") +
                       ": /encounter: no encounter 'nope' in pack 'starter'\n" + file.string() + ":" +
                       position_of(text, "\"nope\"", 1) + ": /deck/1: no card 'nope' in pack 'starter'\n" +
                       "battlecore: malformed replay " + file.string() + ": 2 problem(s)\n")
      << explain(r);
  j = recorded;
  j["deck"] = std::vector<std::string>(65, "strike");
  r = replay_of(j, text);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, file.string() + ":" + position_of(text, "[\n    \"strike\"") +
                                  ": /deck: the deck has 65 cards; a battle holds at most 64\n"))
      << explain(r);
  j["deck"] = {"strike", "Strike"};
  r = replay_of(j, text);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(
      r.err, file.string() + ":" + position_of(text, "\"Strike\"") +
                 ": /deck/1: expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for "
                 "an upgraded card), got 'Strike'\n"))
      << explain(r);
  // An upgraded card is named with '+' (brace+); one the pack does not have is a card it lacks.
  j["deck"] = {"strike", "strike+"};
  r = replay_of(j, text);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, file.string() + ":" + position_of(text, "\"strike+\"") +
                                  ": /deck/1: no card 'strike+' in pack 'starter'\n"))
      << explain(r);
}

TEST(CliDeterminism, EveryRuleSetsReplayThatDoesNotStartIsReportedAtItsPointers) {
  for (const auto& [rules, pack] : {std::pair{"clash", "classic"}, std::pair{"party", "meadow"}}) {
    TempDir dir;
    ASSERT_EQ(
        cli(fmt::format("sim --rules {} --battles 1 --record {}", rules, shell_quoted(dir.path().string())))
            .code,
        0);
    ordered_json j = ordered_json::parse(read_file(dir.path() / "battle-000000.json"));
    j["encounter"] = "nope";
    j["deck"] = {"strike"};
    const fs::path file = dir.path() / "r.json";
    const std::string text = j.dump(2);
    std::ofstream(file) << text;
    const CliRun r = cli("replay " + shell_quoted(file.string()));
    EXPECT_EQ(r.code, 2) << explain(r);
    // Both at once, each at its place: an encounter the pack does not have, a deck these rules
    // do not deal.
    EXPECT_EQ(r.err, fmt::format("{0}:{1}: /encounter: no encounter 'nope' in pack '{2}'\n"
                                 "{0}:{3}: /deck: a battle of these rules has no deck to start from\n"
                                 "battlecore: malformed replay {0}: 2 problem(s)\n",
                                 file.string(), position_of(text, "\"nope\""), pack,
                                 position_of(text, "[\n    \"strike\"")))
        << explain(r);
  }
}

TEST(CliDeterminism, AReplaysScenarioIsReportedWhereItIsInTheReplay) {
  TempDir dir;
  const fs::path sc = dir.path() / "sc.json", file = dir.path() / "r.json";
  std::ofstream(sc) << R"({"encounter": "w1", "seed": 5, "player": {"hp": 12}})";
  const CliRun play = cli("play --rules deckbuilder --scenario " + shell_quoted(sc.string()) + " --record " +
                              shell_quoted(file.string()),
                          "0\nquit\n");
  ASSERT_EQ(play.code, 0) << explain(play);
  EXPECT_TRUE(contains(play.out, "battle 'w1' with seed 5 from scenario " + sc.string() + " (type"))
      << explain(play);
  json j = json::parse(read_file(file));
  j["scenario"]["player"]["hp"] = 999;
  j["scenario"]["bogus"] = 1;
  const std::string text = j.dump(2);
  std::ofstream(file) << text;
  const CliRun r = cli("replay " + shell_quoted(file.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(
      contains(r.err, file.string() + ":" + position_of(text, "999") + ": /scenario/player/hp: expected HP"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, file.string() + ":" + position_of(text, "1,\n    \"encounter\"") +
                                  ": /scenario/bogus: unknown key 'bogus'"))
      << explain(r);
}

TEST(CliDeterminism, AScenarioWithARepeatedKeyIsRefused) {
  TempDir dir;
  const fs::path sc = dir.path() / "sc.json";
  std::ofstream(sc) << "{\"encounter\": \"w1\",\n \"seed\": 5, \"seed\": 6}";
  const CliRun r = cli("play --rules deckbuilder --scenario " + shell_quoted(sc.string()), "quit\n");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, sc.string() + ":2:13: /seed: duplicate key 'seed'")) << explain(r);
}

TEST(CliDeterminism, PlayRecordsItsBattleForReplay) {
  TempDir dir;
  const fs::path file = dir.path() / "played.json";
  const CliRun p =
      cli("play --rules deckbuilder --seed 3 --record " + shell_quoted(file.string()), "0\n0\n1\nquit\n");
  ASSERT_EQ(p.code, 0) << explain(p);
  EXPECT_TRUE(contains(p.out, "replay written to")) << explain(p);
  const json j = json::parse(read_file(file));
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["encounter"], "w1");
  EXPECT_GE(j["actions"].size(), 2u);
  const CliRun r = cli("replay " + shell_quoted(file.string()));
  EXPECT_EQ(r.code, 0) << explain(r);
}

// Ctrl-C at the prompt ends the session as the end of its input does: the actions taken so far
// are recorded and replay, and the exit status says the run was interrupted (128 + SIGINT).
TEST(CliDeterminism, CtrlCEndsPlayAndStillWritesItsReplay) {
  TempDir dir;
  const fs::path file = dir.path() / "played.json", out = dir.path() / "out", err = dir.path() / "err";
  int input[2];
  ASSERT_EQ(pipe(input), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(input[0], STDIN_FILENO);
    close(input[0]);
    close(input[1]);
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) _exit(127);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    unsetenv("BATTLECORE_DATA");
    execl(BATTLECORE_CLI, BATTLECORE_CLI, "play", "--rules", "deckbuilder", "--seed", "3", "--record",
          file.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(input[0]);
  // Two actions, then the session waits at its third prompt, the pipe still open.
  ASSERT_EQ(write(input[1], "0\n0\n", 4), 4);
  const auto prompts = [&] {  // lines that start with the prompt "> "
    const std::string text = read_file(out);
    int n = 0;
    for (std::size_t at = 0; at < text.size();) {
      n += text.compare(at, 2, "> ") == 0 ? 1 : 0;
      const std::size_t end = text.find('\n', at);
      if (end == std::string::npos) break;
      at = end + 1;
    }
    return n;
  };
  for (int i = 0; i < 400 && prompts() < 3; ++i) usleep(10'000);
  EXPECT_GE(prompts(), 3) << read_file(out);
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  close(input[1]);
  ASSERT_TRUE(WIFEXITED(status)) << "the process was ended by the signal";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGINT) << read_file(out) << read_file(err);
  EXPECT_TRUE(contains(read_file(err), "battlecore: interrupted")) << read_file(err);
  EXPECT_TRUE(contains(read_file(out), "replay written to")) << read_file(out);
  const json j = json::parse(read_file(file));
  EXPECT_EQ(j["actions"].size(), 2u);
  const CliRun r = cli("replay " + shell_quoted(file.string()));
  EXPECT_EQ(r.code, 0) << explain(r);
}

TEST(CliDeterminism, ScenariosStartPlayAndSimFromTheStatedPosition) {
  TempDir dir;
  const fs::path sc = dir.path() / "sc.json";
  std::ofstream(sc)
      << R"({"encounter": "w1", "seed": 5, "hand": ["tactics", "strike"], "player": {"hp": 12}})";
  const CliRun p = cli("play --rules deckbuilder --scenario " + shell_quoted(sc.string()) + " --record " +
                           shell_quoted((dir.path() / "r.json").string()),
                       "0\n2\nquit\n");
  ASSERT_EQ(p.code, 0) << explain(p);
  EXPECT_TRUE(contains(p.out, "you: 12/")) << explain(p);
  EXPECT_TRUE(contains(p.out, "hand: Tactics(1) Strike(1)")) << explain(p);
  const json replay = json::parse(read_file(dir.path() / "r.json"));
  EXPECT_EQ(replay["scenario"]["hand"][0], "tactics");
  EXPECT_EQ(cli("replay " + shell_quoted((dir.path() / "r.json").string())).code, 0);
  const CliRun s = cli("sim --rules deckbuilder --battles 20 --json --scenario " + shell_quoted(sc.string()));
  ASSERT_EQ(s.code, 0) << explain(s);
  EXPECT_EQ(json::parse(s.out)["battles"], 20);
}

TEST(CliDeterminism, AnEncounterOtherThanTheScenariosIsRefused) {
  TempDir dir;
  const fs::path sc = dir.path() / "sc.json";
  std::ofstream(sc) << R"({"encounter": "sludge_pair", "seed": 5})";
  // --encounter w1 once played sludge_pair without a word.
  for (const std::string cmd : {"play", "sim"}) {
    const std::string battles = cmd == "sim" ? " --battles 5" : "";
    const CliRun r = cli(
        cmd + " --rules deckbuilder" + battles + " --encounter w1 --scenario " + shell_quoted(sc.string()),
        "quit\n");
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(
        contains(r.err, "--encounter 'w1' but scenario " + sc.string() + " starts encounter 'sludge_pair'"))
        << explain(r);
    EXPECT_TRUE(r.out.empty()) << explain(r);
  }
  // The same encounter, or none, is fine.
  const CliRun same = cli("sim --rules deckbuilder --battles 5 --json --encounter sludge_pair --scenario " +
                          shell_quoted(sc.string()));
  ASSERT_EQ(same.code, 0) << explain(same);
  EXPECT_EQ(json::parse(same.out)["encounter"], "sludge_pair");
}

// A scenario that names no encounter starts --encounter's (it played the pack's default, w1,
// under the name sludge_pair); a replay whose scenario starts another encounter than its own is
// refused.
TEST(CliDeterminism, AScenarioWithoutAnEncounterStartsTheOneAskedFor) {
  TempDir dir;
  const fs::path sc = dir.path() / "sc.json";
  std::ofstream(sc) << R"({"energy": 5})";
  const fs::path record = dir.path() / "r.json";
  const CliRun played = cli("play --rules deckbuilder --seed 3 --encounter sludge_pair --scenario " +
                                shell_quoted(sc.string()) + " --record " + shell_quoted(record.string()),
                            "quit\n");
  ASSERT_EQ(played.code, 0) << explain(played);
  EXPECT_TRUE(contains(played.out, "Sludge")) << explain(played);
  EXPECT_FALSE(contains(played.out, "Gnasher")) << explain(played);
  json replay = json::parse(std::ifstream(record));
  EXPECT_EQ(replay["encounter"], "sludge_pair");
  EXPECT_EQ(cli("replay " + shell_quoted(record.string())).code, 0);
  replay["encounter"] = "w1";
  std::ofstream(record) << replay.dump(2);
  const CliRun refused = cli("replay " + shell_quoted(record.string()));
  EXPECT_EQ(refused.code, 2) << explain(refused);
  EXPECT_TRUE(contains(refused.err,
                       "the replay names encounter 'w1', but its scenario starts encounter 'sludge_pair'"))
      << explain(refused);
}

TEST(CliDeterminism, ABadScenarioIsRefusedWithEveryProblemAndItsPointer) {
  TempDir dir;
  const fs::path sc = dir.path() / "bad.json";
  std::ofstream(sc)
      << "{\"encounter\": \"w1\",\n \"hand\": [\"strike\", \"nope\"], \"player\": {\"hp\": 999}}";
  for (const std::string cmd : {"play", "sim"}) {
    const CliRun r = cli(cmd + " --rules deckbuilder --scenario " + shell_quoted(sc.string()));
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "bad.json:2:21: /hand/1: no card 'nope' in pack 'starter'")) << explain(r);
    EXPECT_TRUE(contains(r.err, "/player/hp: expected HP in [1, 80]")) << explain(r);
    EXPECT_TRUE(contains(r.err, "2 problem(s)")) << explain(r);
  }
}

}  // namespace
