// The battlecore command line with `--rules party`, run as a program from a working directory
// outside the source and build trees: graph, validate, list, sim and play.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/party/phases.hpp"
#include "support/cli_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_position.hpp"

namespace {

namespace fs = std::filesystem;
using battlecore::party::Machine;

const fs::path kRepo = fs::path(BATTLECORE_DATA_DIR).parent_path();
const fs::path kMeadow = fs::path(BATTLECORE_DATA_DIR) / "party" / "meadow";
const fs::path kFiveProblems = fs::path(BATTLECORE_TEST_DATA_DIR) / "bad" / "party" / "five_problems.json";

using battlecore::test::cli;
using battlecore::test::CliRun;
using battlecore::test::contains;
using battlecore::test::explain;
using battlecore::test::lines_of;
using battlecore::test::read_file;
using battlecore::test::shell_quoted;

using Edge = std::tuple<std::string, std::string, std::string>;  // from, trigger, to

std::multiset<Edge> table_edges() {
  std::multiset<Edge> edges;
  for (const auto& t : Machine::kTransitions)
    edges.emplace(std::string(battlecore::party::phase_name(t.from)),
                  std::string(battlecore::party::trigger_name(t.trigger)),
                  std::string(battlecore::party::phase_name(t.to)));
  return edges;
}

/// `  A --> B : T` lines of a Mermaid diagram.
std::multiset<Edge> mermaid_edges(const std::string& text) {
  std::multiset<Edge> edges;
  for (const std::string& line : lines_of(text)) {
    if (contains(line, "[*]") || !contains(line, " --> ")) continue;
    const auto arrow = line.find(" --> "), colon = line.find(" : ");
    const auto first = line.find_first_not_of(' ');
    if (colon == std::string::npos) continue;
    edges.emplace(line.substr(first, arrow - first), line.substr(colon + 3),
                  line.substr(arrow + 5, colon - arrow - 5));
  }
  return edges;
}

// --- graph ----------------------------------------------------------------------------------

TEST(PartyCli, GraphPrintsExactlyTheTableEdges) {
  const CliRun dot = cli("graph --rules party");
  ASSERT_EQ(dot.code, 0) << explain(dot);
  EXPECT_TRUE(contains(dot.out, "digraph party {")) << dot.out;
  for (std::string_view phase :
       {"BattleStart", "FirstStrike", "PlayerPhase", "EnemyPhase", "TurnEnd", "Victory", "Defeat", "Fled"})
    EXPECT_TRUE(contains(dot.out, phase)) << phase;
  const CliRun mmd = cli("graph --rules party --format mermaid");
  ASSERT_EQ(mmd.code, 0) << explain(mmd);
  EXPECT_EQ(mermaid_edges(mmd.out), table_edges());
  EXPECT_TRUE(contains(mmd.out, "[*] --> BattleStart")) << mmd.out;
  for (const char* end : {"Victory --> [*]", "Defeat --> [*]", "Fled --> [*]"})
    EXPECT_TRUE(contains(mmd.out, end));
}

TEST(PartyCli, CheckedInGraphsMatchTheBinary) {
  for (const auto& [file, args] : {std::pair{"party.dot", "graph --rules party"},
                                   std::pair{"party.mmd", "graph --rules party --format mermaid"}}) {
    const fs::path path = kRepo / "docs" / "graphs" / file;
    const CliRun r = cli(args);
    ASSERT_EQ(r.code, 0) << explain(r);
    ASSERT_TRUE(fs::exists(path)) << path;
    EXPECT_EQ(read_file(path), r.out)
        << path.string() << " is out of date; regenerate it from the repository root with:\n"
        << "  <build>/apps/battlecore/battlecore " << args << " > docs/graphs/" << file;
  }
}

// --- validate -------------------------------------------------------------------------------

TEST(PartyCli, ValidateAcceptsTheMeadowPack) {
  const CliRun r = cli("validate --rules party " + shell_quoted(kMeadow.string()));
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(
      r.out, "valid (18 conditions, 10 skills, 5 items, 3 members, 1 companions, 1 allies, 8 enemies"))
      << explain(r);
  EXPECT_TRUE(r.err.empty()) << explain(r);
}

TEST(PartyCli, BadContentExitsTwoListingEveryProblem) {
  const CliRun r = cli("validate --rules party " + shell_quoted(kFiveProblems.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  const std::vector<std::string> expected = {"/skills/0: missing required key 'cost'",
                                             "/skills/1/effects/0/condition: unknown condition 'inkd'",
                                             "/parties/0/formation/2: member 'a' appears twice",
                                             "/parties/1/formation: expected 1 to 4 members, got 5",
                                             "/encounters/0/enemies: an encounter needs at least one enemy"};
  std::size_t diagnostics = 0;
  for (const std::string& line : lines_of(r.err))
    if (line.starts_with(kFiveProblems.string() + ":")) ++diagnostics;
  EXPECT_EQ(diagnostics, expected.size()) << explain(r);
  for (const std::string& words : expected)
    EXPECT_TRUE(contains(r.err, words)) << words << "\n" << explain(r);
  EXPECT_TRUE(contains(r.err, "5 problem(s)")) << explain(r);
  EXPECT_FALSE(contains(r.out, "valid")) << explain(r);
  for (const char* sub : {"sim", "list", "play"}) {
    const CliRun s =
        cli(std::string(sub) + " --rules party --content " + shell_quoted(kFiveProblems.string()), "quit\n");
    EXPECT_EQ(s.code, 2) << explain(s);
    EXPECT_TRUE(contains(s.err, "5 problem(s)")) << explain(s);
  }
}

// --- list -----------------------------------------------------------------------------------

TEST(PartyCli, ListNamesTheBundledContent) {
  const CliRun r = cli("list --rules party --json");
  ASSERT_EQ(r.code, 0) << explain(r);
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["pack"], "meadow");
  EXPECT_EQ(j["encounters"].size(), 6u);
  EXPECT_EQ(j["members"], (nlohmann::json{"vi", "kabbu", "leif"}));
  // Every kind of definition the pack has, the companions and allies too.
  EXPECT_EQ(j["companions"], (nlohmann::json{"chompy"}));
  EXPECT_EQ(j["allies"], (nlohmann::json{"scout"}));
  const CliRun text = cli("list --rules party");
  ASSERT_EQ(text.code, 0) << explain(text);
  EXPECT_TRUE(contains(text.out, "\ncompanions: chompy\nallies: scout\n")) << text.out;
}

// --- sim ------------------------------------------------------------------------------------

TEST(PartyCli, SimJsonIsDeterministicApartFromTiming) {
  const std::string args = "sim --rules party --battles 300 --seed 3 --json --encounter swamp";
  const CliRun a = cli(args), b = cli(args);
  ASSERT_EQ(a.code, 0) << explain(a);
  nlohmann::json ja = nlohmann::json::parse(a.out, nullptr, false),
                 jb = nlohmann::json::parse(b.out, nullptr, false);
  ASSERT_TRUE(ja.is_object()) << a.out;
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    EXPECT_TRUE(ja.contains(key)) << key;
    ja.erase(key);
    jb.erase(key);
  }
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["rules"], "party");
  EXPECT_EQ(ja["battles"], 300);
  EXPECT_EQ(ja["encounter"], "swamp");
  const auto& counters = ja["counters"];
  EXPECT_EQ(ja["wins"].get<int>() + counters["defeats"].get<int>() + counters["fled"].get<int>(), 300);
  for (const char* key : {"win_rate", "mean_turns", "mean_decisions"})
    EXPECT_TRUE(ja[key].is_number()) << key;
  EXPECT_TRUE(counters["party_hp_left"].is_number());
  EXPECT_TRUE(ja["enemies"].is_array());
}

TEST(PartyCli, SimTextWithTheGreedyPolicyAndBlockRates) {
  const CliRun r =
      cli("sim --rules party --battles 100 --policy greedy --block-rate 80 --super-block-rate 20");
  ASSERT_EQ(r.code, 0) << explain(r);
  for (const char* words : {"meadow_walk", "greedy", "win_rate", "mean_turns", "party_hp_left"})
    EXPECT_TRUE(contains(r.out, words)) << words << "\n" << r.out;
  // The settings are lines of their own: the key, then the value after the key column.
  EXPECT_TRUE(std::regex_search(r.out, std::regex("(^|\n)block_percent +80\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("(^|\n)super_block_percent +20\n"))) << r.out;
}

TEST(PartyCli, SimRunsTheMctsPolicyAndAnUnknownPolicyListsIt) {
  const CliRun r = cli("sim --rules party --policy mcts --battles 20 --mcts-iterations 50 --json");
  ASSERT_EQ(r.code, 0) << explain(r);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["policy"], "mcts");
  EXPECT_EQ(j["battles"], 20);
  EXPECT_GT(j["wins"].get<int>(), 0);
  const CliRun unknown = cli("sim --rules party --policy nope --battles 5");
  EXPECT_EQ(unknown.code, 2) << explain(unknown);
  EXPECT_TRUE(contains(unknown.err, "mcts")) << explain(unknown);
}

TEST(PartyCli, SimBadInputExitsTwo) {
  for (const char* args :
       {"sim --rules party --encounter nowhere", "sim --rules party --block-rate 10 --super-block-rate 50"}) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(r.err.starts_with("battlecore: ")) << explain(r);
  }
  const CliRun usage = cli("sim --rules party --block-rate 101");
  EXPECT_EQ(usage.code, 2) << explain(usage);
  EXPECT_TRUE(contains(usage.err, "Usage:")) << explain(usage);
}

// --- play -----------------------------------------------------------------------------------

TEST(PartyCli, PlayQuitsOnQuit) {
  const CliRun r = cli("play --rules party --seed 1", "quit\n");
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "battle 'meadow_walk' with seed 1")) << explain(r);
  EXPECT_TRUE(contains(r.out, "decision: member_turn")) << explain(r);
  EXPECT_TRUE(contains(r.out, "you leave the battle")) << explain(r);
}

TEST(PartyCli, PlayRunsABattleToItsEnd) {
  std::string input;
  for (int i = 0; i < 300; ++i) input += "0\n";
  const CliRun r = cli("play --rules party --encounter ambush --seed 2", input);
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "block: no block")) << explain(r);  // the first strike asks for a block
  EXPECT_TRUE(contains(r.out, "victory on turn") || contains(r.out, "defeat on turn")) << explain(r);
}

// --- determinism: replays, recording, scenarios ------------------------------------------------

std::string quoted(const fs::path& p) { return shell_quoted(p.string()); }

TEST(PartyCli, EveryRecordedBattleReplaysWithExitZero) {
  battlecore::test::TempDir dir;
  const CliRun sim =
      cli("sim --rules party --encounter swamp --battles 6 --seed 4 --record " + quoted(dir.path()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
    const CliRun r = cli("replay " + quoted(entry.path()));
    EXPECT_EQ(r.code, 0) << explain(r);
    EXPECT_TRUE(contains(r.out, "replay matches")) << explain(r);
  }
  EXPECT_EQ(files, 6);
  EXPECT_TRUE(fs::exists(dir.path() / "battle-000005.json"));
  const CliRun none =
      cli("sim --rules party --battles 3 --record " + quoted(dir.path() / "failures") + " --record-failures");
  EXPECT_EQ(none.code, 0) << explain(none);
  EXPECT_TRUE(fs::is_empty(dir.path() / "failures"));
}

TEST(PartyCli, TheGoldenReplayMatches) {
  const CliRun r =
      cli("replay " + quoted(kRepo / "tests" / "golden" / "party_nest_seed9_battle12.replay.json"));
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "replay matches: 49 actions, final state hash 89334ce937b6a784")) << explain(r);
}

TEST(PartyCli, AnEditedActionExitsOneNamingIt) {
  battlecore::test::TempDir dir;
  ASSERT_EQ(cli("sim --rules party --battles 1 --seed 2 --record " + quoted(dir.path())).code, 0);
  const fs::path file = dir.path() / "battle-000000.json";
  nlohmann::json replay = nlohmann::json::parse(read_file(file));
  ASSERT_GE(replay["actions"].size(), 2u);
  replay["state_hashes"][1] = "0123456789abcdef";
  std::ofstream(file) << replay.dump(2);
  const CliRun r = cli("replay " + quoted(file));
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.out, "action 1 ")) << explain(r);
  EXPECT_TRUE(contains(r.out, "diverges: state hash expected 0123456789abcdef")) << explain(r);
}

TEST(PartyCli, OtherContentAndMalformedReplaysExitTwo) {
  battlecore::test::TempDir dir;
  ASSERT_EQ(cli("sim --rules party --battles 1 --record " + quoted(dir.path() / "r")).code, 0);
  const fs::path file = dir.path() / "r" / "battle-000000.json";
  const fs::path pack = dir.path() / "meadow";
  fs::copy(kMeadow, pack);
  std::string enemies = read_file(pack / "enemies.json");
  const std::string zombiant_hp = "\"hp\": 15";
  enemies.replace(enemies.find(zombiant_hp), zombiant_hp.size(), "\"hp\": 16");
  std::ofstream(pack / "enemies.json") << enemies;
  const CliRun other = cli("replay " + quoted(file) + " --content " + quoted(pack));
  EXPECT_EQ(other.code, 2) << explain(other);
  EXPECT_TRUE(contains(other.err, "content hash mismatch")) << explain(other);
  nlohmann::json replay = nlohmann::json::parse(read_file(file));
  replay["format_version"] = 9;
  replay.erase("seed");
  std::ofstream(file) << replay.dump(2);
  const CliRun bad = cli("replay " + quoted(file));
  EXPECT_EQ(bad.code, 2) << explain(bad);
  EXPECT_TRUE(contains(bad.err, "/format_version")) << explain(bad);
  EXPECT_TRUE(contains(bad.err, "seed")) << explain(bad);
}

using battlecore::test::position_of;

TEST(PartyCli, AReplayIsReadStrictlyListingEveryProblemAtItsPosition) {
  battlecore::test::TempDir dir;
  ASSERT_EQ(cli("sim --rules party --battles 1 --seed 3 --record " + quoted(dir.path())).code, 0);
  nlohmann::json j = nlohmann::json::parse(read_file(dir.path() / "battle-000000.json"));
  // A repeated key: the parser keeps the last, so the replay would still match.
  const fs::path twice = dir.path() / "twice.json";
  nlohmann::json rest = j;
  rest.erase("seed");
  std::ofstream(twice) << "{\"seed\": 5,\n \"seed\": " << j["seed"].dump() << ", " << rest.dump().substr(1);
  CliRun r = cli("replay " + quoted(twice));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, twice.string() + ":2:2: /seed: duplicate key 'seed'")) << explain(r);
  // Every bad action is listed at its own position, an unknown key naming the allowed ones.
  j["actions"][0] = {{"type", "teleport"}};
  j["actions"][1] = {{"type", "flee"}, {"bogus", 1}};
  const fs::path bad = dir.path() / "bad.json";
  const std::string text = j.dump(2);
  std::ofstream(bad) << text;
  r = cli("replay " + quoted(bad));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(text, "{\n      \"type\": \"teleport\"") +
                                  ": /actions/0: unknown action type 'teleport'"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(text, "{\n      \"bogus\"") +
                                  ": /actions/1: unknown key 'bogus'; allowed keys: type"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, "2 problem(s)")) << explain(r);
}

TEST(PartyCli, PlayRecordsItsBattleForReplay) {
  battlecore::test::TempDir dir;
  const fs::path file = dir.path() / "play.json";
  const CliRun play =
      cli("play --rules party --encounter ambush --seed 3 --record " + quoted(file), "1\n0\n0\nquit\n");
  ASSERT_EQ(play.code, 0) << explain(play);
  EXPECT_TRUE(contains(play.out, "replay written to")) << explain(play);
  const nlohmann::json replay = nlohmann::json::parse(read_file(file));
  EXPECT_EQ(replay["rules"], "party");
  EXPECT_EQ(replay["actions"].size(), 3u);
  EXPECT_EQ(replay["actions"][0]["type"], "block");
  const CliRun r = cli("replay " + quoted(file));
  EXPECT_EQ(r.code, 0) << explain(r);
}

TEST(PartyCli, ScenariosStartPlayAndSimFromTheStatedPosition) {
  battlecore::test::TempDir dir;
  const fs::path file = dir.path() / "scenario.json";
  std::ofstream(file) << R"({"format": "battlecore-scenario", "format_version": 1, "rules": "party",
    "encounter": "swamp", "seed": 12, "tp": 0, "members": [{"hp": 1}], "enemies": [{"hp": 1}]})";
  const CliRun play = cli("play --rules party --scenario " + quoted(file), "json\nquit\n");
  ASSERT_EQ(play.code, 0) << explain(play);
  EXPECT_TRUE(contains(play.out, "battle 'swamp' with seed 12 from scenario")) << explain(play);
  EXPECT_TRUE(contains(play.out, "\"tp\": 0")) << explain(play);
  const CliRun sim = cli("sim --rules party --battles 4 --json --scenario " + quoted(file) + " --record " +
                         quoted(dir.path() / "rec"));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  EXPECT_EQ(nlohmann::json::parse(sim.out)["encounter"], "swamp");
  const nlohmann::json replay = nlohmann::json::parse(read_file(dir.path() / "rec" / "battle-000003.json"));
  EXPECT_EQ(replay["scenario"]["tp"], 0);
  const CliRun r = cli("replay " + quoted(dir.path() / "rec" / "battle-000003.json"));
  EXPECT_EQ(r.code, 0) << explain(r);
}

TEST(PartyCli, ABadScenarioIsRefusedWithEveryProblemAndItsPointer) {
  battlecore::test::TempDir dir;
  const fs::path file = dir.path() / "bad.json";
  std::ofstream(file) << R"({"members": [{"hp": 99}], "items": [{"item": "moon_pie", "count": 1}]})";
  for (const char* command : {"play", "sim"}) {
    const CliRun r = cli(std::string(command) + " --rules party --scenario " + quoted(file), "quit\n");
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "bad.json:1:")) << explain(r);
    EXPECT_TRUE(contains(r.err, "/members/0/hp: expected HP in [0, 8] (the max HP), got 99")) << explain(r);
    EXPECT_TRUE(contains(r.err, "/items/0/item: no item 'moon_pie' in pack 'meadow'")) << explain(r);
    EXPECT_TRUE(contains(r.err, "2 problem(s) in scenario")) << explain(r);
  }
}

}  // namespace
