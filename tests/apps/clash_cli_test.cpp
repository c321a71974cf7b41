// The battlecore command line with --rules clash, run as a program from a directory outside the
// source and build trees (as tests/apps/cli_test.cpp does for the deckbuilder).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "support/cli_run.hpp"
#include "support/temp_dir.hpp"
#include "support/text_position.hpp"

#include "battlecore/clash/phases.hpp"

namespace {

namespace fs = std::filesystem;
using battlecore::clash::Machine;

const fs::path kRepo = fs::path(BATTLECORE_DATA_DIR).parent_path();
const fs::path kClassic = fs::path(BATTLECORE_DATA_DIR) / "clash" / "classic";

using battlecore::test::cli;
using battlecore::test::CliRun;
using battlecore::test::contains;
using battlecore::test::explain;
using battlecore::test::read_file;
using battlecore::test::shell_quoted;

TEST(ClashCli, GraphPrintsEveryEdgeOfTheTable) {
  const CliRun r = cli("graph --rules clash");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "digraph clash {")) << r.out;
  for (const auto& t : Machine::kTransitions) {
    const std::string edge = std::string(battlecore::clash::phase_name(t.from)) + " -> " +
                             std::string(battlecore::clash::phase_name(t.to)) + " [label=\"" +
                             std::string(battlecore::clash::trigger_name(t.trigger)) + "\"];";
    EXPECT_TRUE(contains(r.out, edge)) << edge << "\n" << r.out;
  }
}

// docs/graphs holds the graphs as the binary prints them, so the docs cannot drift from the table.
TEST(ClashCli, CheckedInGraphsMatchTheBinary) {
  for (const auto& [file, args] : {std::pair{"clash.dot", "graph --rules clash"},
                                   std::pair{"clash.mmd", "graph --rules clash --format mermaid"}}) {
    const fs::path path = kRepo / "docs" / "graphs" / file;
    const CliRun r = cli(args);
    ASSERT_EQ(r.code, 0) << explain(r);
    ASSERT_TRUE(fs::exists(path)) << path;
    EXPECT_EQ(read_file(path), r.out)
        << path.string() << " is out of date; regenerate it with\n  <build>/apps/battlecore/battlecore "
        << args << " > docs/graphs/" << file;
  }
}

TEST(ClashCli, ValidateAcceptsTheClassicPackAndListsEveryProblemOfABadOne) {
  const CliRun ok = cli("validate --rules clash " + shell_quoted(kClassic.string()));
  EXPECT_EQ(ok.code, 0) << explain(ok);
  EXPECT_TRUE(contains(ok.out, "valid")) << explain(ok);

  battlecore::test::TempDir dir;
  const fs::path bad = dir.path() / "bad.json";
  std::ofstream(bad) << R"({"pack": {"id": "bad", "rules": "clash"},
  "encounters": [
    {"id": "five", "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]},
    {"id": "ring", "seats": [{"kind": "bot"}, {"kind": "bot"}], "rules": {"rocks": 10,
      "deck": [{"element": "plasma", "value": 3}, {"element": "fire", "value": 12}]}}
  ]}
)";
  const CliRun r = cli("validate --rules clash " + shell_quoted(bad.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  for (const char* part :
       {":3:", "/encounters/0/seats: expected 2 to 4 seats, got 5",
        "/encounters/1/rules/rocks:", "/encounters/1/rules/deck/0/element: unknown element 'plasma'",
        "/encounters/1/rules/deck/1/value:", "4 problem(s)"})
    EXPECT_TRUE(contains(r.err, part)) << part << "\n" << explain(r);
}

TEST(ClashCli, ListNamesTheEncounters) {
  const CliRun r = cli("list --rules clash --json");
  ASSERT_EQ(r.code, 0) << explain(r);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["pack"], "classic");
  std::set<std::string> ids;
  for (const auto& id : j["encounters"]) ids.insert(id.get<std::string>());
  for (const char* id : {"classic", "duel", "trio", "bots4"}) EXPECT_TRUE(ids.count(id)) << id;
}

TEST(ClashCli, SimJsonHasEverySeatsWinsAndMeanPlaceAndIsDeterministic) {
  const std::string args = "sim --rules clash --battles 500 --seed 3 --json";
  const CliRun a = cli(args), b = cli(args);
  ASSERT_EQ(a.code, 0) << explain(a);
  auto ja = nlohmann::json::parse(a.out, nullptr, false), jb = nlohmann::json::parse(b.out, nullptr, false);
  ASSERT_TRUE(ja.is_object()) << a.out;
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    ja.erase(key);
    jb.erase(key);
  }
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["encounter"], "classic");
  ASSERT_TRUE(ja["seats"].is_array()) << ja.dump();
  ASSERT_EQ(ja["seats"].size(), 4u) << ja.dump();
  std::uint64_t total = ja["counters"]["shared_first"].get<std::uint64_t>();
  for (const auto& seat : ja["seats"]) {
    total += seat["wins"].get<std::uint64_t>();
    const double place = seat["mean_place"].get<double>();
    EXPECT_GE(place, 1.0);
    EXPECT_LE(place, 4.0);
  }
  EXPECT_EQ(total, 500u);
  ASSERT_TRUE(ja["wins"].is_object()) << "wins keyed by seat";
  ASSERT_TRUE(ja["mean_place"].is_object()) << "mean_place keyed by seat";
  for (const char* seat : {"0", "1", "2", "3"}) {
    const std::size_t i = static_cast<std::size_t>(seat[0] - '0');
    EXPECT_EQ(ja["wins"][seat], ja["seats"][i]["wins"]) << seat;
    EXPECT_EQ(ja["mean_place"][seat], ja["seats"][i]["mean_place"]) << seat;
  }
}

TEST(ClashCli, SeatPolicyGivesOneSeatItsOwnPolicyAndBadOnesExitTwo) {
  const CliRun r = cli("sim --rules clash --encounter bots4 --battles 50 --json --seat-policy 2=greedy");
  ASSERT_EQ(r.code, 0) << explain(r);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["seats"][2]["policy"], "greedy");
  EXPECT_EQ(j["seats"][1]["policy"], "random");
  const CliRun zero = cli("sim --rules clash --encounter bots4 --battles 50 --json --seat-policy 0=greedy");
  ASSERT_EQ(zero.code, 0) << explain(zero);
  EXPECT_EQ(nlohmann::json::parse(zero.out)["policy"], "greedy");
  EXPECT_EQ(nlohmann::json::parse(zero.out)["seats"][1]["policy"], "random") << "the others keep --policy";
  const CliRun twice =
      cli("sim --rules clash --encounter bots4 --battles 5 --seat-policy 1=greedy --seat-policy 1=random");
  EXPECT_EQ(twice.code, 2) << explain(twice);
  EXPECT_NE(twice.err.find("--seat-policy gives seat 1 a policy twice ('1=greedy' and '1=random')"),
            std::string::npos)
      << explain(twice);
  for (const char* bad : {"2", "x=greedy", "9=greedy", "1=", "=greedy", "4=greedy", "1=cleverest"}) {
    const CliRun b = cli(std::string("sim --rules clash --encounter bots4 --battles 5 --seat-policy ") + bad);
    EXPECT_EQ(b.code, 2) << bad << "\n" << explain(b);
    EXPECT_TRUE(b.err.starts_with("battlecore: ")) << explain(b);
  }
}

TEST(ClashCli, ThreadsShardsAndPairedRunsWorkForClash) {
  const CliRun one = cli("sim --rules clash --encounter trio --battles 120 --json");
  const CliRun two = cli("sim --rules clash --encounter trio --battles 120 --json --threads 2");
  ASSERT_EQ(one.code, 0) << explain(one);
  ASSERT_EQ(two.code, 0) << explain(two);
  auto a = nlohmann::json::parse(one.out), b = nlohmann::json::parse(two.out);
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    a.erase(key);
    b.erase(key);
  }
  EXPECT_EQ(a, b);
  const CliRun ab =
      cli("sim --rules clash --encounter trio --battles 100 --policy greedy --versus-policy random");
  ASSERT_EQ(ab.code, 0) << explain(ab);
  EXPECT_TRUE(contains(ab.out, "versus_policy")) << ab.out;
}

TEST(ClashCli, PlayShowsTheBotsDrawsWithoutTheirCards) {
  // Three rounds of a duel against one bot, then the event log as JSON.
  std::string input;
  for (int i = 0; i < 9; ++i) input += "0\n";
  const CliRun r = cli("play --rules clash --encounter duel --seed 4", input + "log 500\nquit\n");
  ASSERT_EQ(r.code, 0) << explain(r);
  std::size_t bot_draws = 0, own_draws = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto brace = line.find('{');
    if (brace == std::string::npos) continue;
    const auto e = nlohmann::json::parse(line.substr(brace), nullptr, false);
    if (!e.is_object() || e.value("type", "") != "CardDealt") continue;
    if (e["seat"] == 0) {
      ++own_draws;
      EXPECT_TRUE(e.contains("card")) << line;
    } else {
      ++bot_draws;
      EXPECT_FALSE(e.contains("card")) << line;
    }
  }
  EXPECT_GE(bot_draws, 1u) << r.out;
  EXPECT_GE(own_draws, 1u) << r.out;
  EXPECT_TRUE(contains(r.out, "draws a card")) << r.out;
}

TEST(ClashCli, SimTextShowsEverySeatAndTheGreedyPolicyRuns) {
  const CliRun r = cli("sim --rules clash --battles 200 --encounter trio --policy greedy");
  ASSERT_EQ(r.code, 0) << explain(r);
  for (const char* part : {"trio", "greedy", "mean_place", "You", "Bear", "Condor"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
}

TEST(ClashCli, SimRunsTheMctsPolicyAndAnUnknownPolicyListsIt) {
  const CliRun r =
      cli("sim --rules clash --policy mcts --battles 20 --mcts-iterations 50 --encounter bots4 --json "
          "--seat-policy 1=mcts");
  ASSERT_EQ(r.code, 0) << explain(r);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["policy"], "mcts");
  EXPECT_EQ(j["battles"], 20);
  EXPECT_EQ(j["seats"][1]["policy"], "mcts");
  EXPECT_EQ(j["seats"][2]["policy"], "mcts") << "the others play --policy";
  const CliRun unknown = cli("sim --rules clash --policy nope --battles 5");
  EXPECT_EQ(unknown.code, 2) << explain(unknown);
  EXPECT_TRUE(contains(unknown.err, "mcts")) << explain(unknown);
  const CliRun seat = cli("sim --rules clash --battles 5 --seat-policy 1=nope");
  EXPECT_EQ(seat.code, 2) << explain(seat);
  EXPECT_TRUE(contains(seat.err, "unknown policy 'nope' in '1=nope'; known policies: ")) << explain(seat);
  EXPECT_TRUE(contains(seat.err, "mcts")) << explain(seat);
  EXPECT_TRUE(contains(seat.err, "Usage:")) << "an unknown policy, as for --policy\n" << explain(seat);
}

TEST(ClashCli, BadArgumentsExitTwo) {
  for (const char* args : {"sim --rules clash --encounter nope --battles 5",
                           "sim --rules clash --policy nope", "play --rules clash --encounter nope"}) {
    const CliRun r = cli(args, "quit\n");
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(r.err.starts_with("battlecore: ")) << explain(r);
  }
}

TEST(ClashCli, PlayRollsPicksARockAndACardAndShowsTheDuels) {
  // Option 0 every time: roll, the first rock, the first playable card, until the battle ends.
  std::string input;
  for (int i = 0; i < 400; ++i) input += "0\n";
  const CliRun r = cli("play --rules clash --encounter duel --seed 4", input);
  ASSERT_EQ(r.code, 0) << explain(r);
  for (const char* part :
       {"battle 'duel' with seed 4", "roll the die", "-> move to rock", "duel: ", "rolls", "place 1:"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out.substr(0, 3000);
}

TEST(ClashCli, PlayEndsWithTheStandingsFirstPlaceFirst) {
  // Seed 7 of the default encounter: four seats whose places are not in seat order.
  std::string input;
  for (int i = 0; i < 400; ++i) input += "0\n";
  const CliRun r = cli("play --rules clash --seed 7", input);
  ASSERT_EQ(r.code, 0) << explain(r);
  const std::size_t over = r.out.find("battle over: ");
  ASSERT_NE(over, std::string::npos) << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0);
  const std::string line = r.out.substr(over, r.out.find('\n', over) - over);
  EXPECT_NE(line.back(), ';') << line;
  EXPECT_TRUE(contains(line, " place 1, ") || contains(line, " place 2, ")) << line;
  std::vector<int> places;
  for (std::size_t at = r.out.find("\nplace ", over); at != std::string::npos;
       at = r.out.find("\nplace ", at + 1))
    places.push_back(std::stoi(r.out.substr(at + 7)));
  ASSERT_GE(places.size(), 2u) << r.out.substr(over);
  EXPECT_TRUE(std::is_sorted(places.begin(), places.end())) << r.out.substr(over);
  EXPECT_EQ(places.front(), 1) << r.out.substr(over);
}

TEST(ClashCli, PlayOpensWithTheSetupInTheSeedsOrder) {
  const CliRun r = cli("play --rules clash --encounter duel --seed 4", "quit\n");
  ASSERT_EQ(r.code, 0) << explain(r);
  std::vector<std::string> lines;
  std::istringstream text(r.out);
  for (std::string line; std::getline(text, line) && line != "  --- round 1 ---";) lines.push_back(line);
  // The banner; the human seat's hand as dealt, in one line, then the bot's (its cards hidden);
  // the turn order; both seats on their starting rocks (spread over 18 rocks: 0 and 9); then
  // round 1.
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_TRUE(lines[1].starts_with("  You (seat 0) draws ")) << lines[1];
  EXPECT_EQ(std::count(lines[1].begin(), lines[1].end(), ','), 8) << lines[1];  // nine cards
  EXPECT_EQ(lines[2], "  Bear (seat 1) draws 9 cards");
  EXPECT_TRUE(lines[3] == "  turn order: You (seat 0), Bear (seat 1)" ||
              lines[3] == "  turn order: Bear (seat 1), You (seat 0)")
      << lines[3];
  EXPECT_EQ(lines[4], "  You (seat 0) starts on rock 0 (none)");
  EXPECT_EQ(lines[5], "  Bear (seat 1) starts on rock 9 (energy)");
}

TEST(ClashCli, PlayQuitsAndAnswersNonsense) {
  const CliRun r = cli("play --rules clash --seed 1", "hello\n7\nhelp\nquit\n");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "'hello' is not a command")) << r.out;
  EXPECT_TRUE(contains(r.out, "no option 7")) << r.out;
  EXPECT_TRUE(contains(r.out, "you leave the battle")) << r.out;
}

// --- determinism (docs/determinism.md): replays, recording, scenarios -------------------------

TEST(ClashCli, EveryRecordedBattleReplaysWithExitZero) {
  battlecore::test::TempDir dir;
  const CliRun sim = cli("sim --rules clash --encounter trio --battles 6 --seed 4 --record " +
                         shell_quoted(dir.path().string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ++files;
    const CliRun r = cli("replay " + shell_quoted(entry.path().string()));
    EXPECT_EQ(r.code, 0) << explain(r);
    EXPECT_TRUE(contains(r.out, "replay matches")) << explain(r);
  }
  EXPECT_EQ(files, 6);
  EXPECT_TRUE(fs::exists(dir.path() / "battle-000005.json"));
  // The same run without recording plays the same battles.
  const CliRun plain = cli("sim --rules clash --encounter trio --battles 6 --seed 4 --json");
  const CliRun recorded = cli("sim --rules clash --encounter trio --battles 6 --seed 4 --json --record " +
                              shell_quoted((dir.path() / "again").string()));
  ASSERT_EQ(plain.code, 0) << explain(plain);
  ASSERT_EQ(recorded.code, 0) << explain(recorded);
  for (const char* key : {"wins", "mean_place", "decisions", "mean_rounds"})
    EXPECT_EQ(nlohmann::json::parse(plain.out)[key], nlohmann::json::parse(recorded.out)[key]) << key;
}

TEST(ClashCli, RecordFailuresWritesNothingWhenNoBattleFails) {
  battlecore::test::TempDir dir;
  const CliRun sim = cli("sim --rules clash --battles 4 --record-failures --record " +
                         shell_quoted((dir.path() / "f").string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  EXPECT_TRUE(fs::is_directory(dir.path() / "f"));
  EXPECT_TRUE(fs::is_empty(dir.path() / "f"));
}

TEST(ClashCli, ReplayNamesTheDivergingActionAndRefusesBadFilesAndOtherContent) {
  battlecore::test::TempDir dir;
  const fs::path file = dir.path() / "r.json";
  std::string input;
  for (int i = 0; i < 400; ++i) input += "0\n";
  const CliRun play =
      cli("play --rules clash --encounter duel --seed 6 --record " + shell_quoted(file.string()), input);
  ASSERT_EQ(play.code, 0) << explain(play);
  EXPECT_TRUE(contains(play.out, "replay written to")) << play.out;
  const CliRun ok = cli("replay " + shell_quoted(file.string()));
  ASSERT_EQ(ok.code, 0) << explain(ok);

  nlohmann::json j = nlohmann::json::parse(read_file(file));
  ASSERT_GT(j["actions"].size(), 4u);
  j["state_hashes"][3] = "0000000000000000";
  const fs::path edited = dir.path() / "edited.json";
  std::ofstream(edited) << j.dump(2);
  const CliRun diverged = cli("replay " + shell_quoted(edited.string()));
  EXPECT_EQ(diverged.code, 1) << explain(diverged);
  EXPECT_TRUE(contains(diverged.out, "action 3 {")) << explain(diverged);
  EXPECT_TRUE(contains(diverged.out, "diverges: state hash expected 0000000000000000")) << explain(diverged);

  nlohmann::json bad = nlohmann::json::parse(read_file(file));
  bad["actions"][0] = {{"type", "dance"}, {"seat", 0}};
  const fs::path malformed = dir.path() / "malformed.json";
  std::ofstream(malformed) << bad.dump(2);
  const CliRun m = cli("replay " + shell_quoted(malformed.string()));
  EXPECT_EQ(m.code, 2) << explain(m);
  EXPECT_TRUE(contains(m.err, "/actions/0: unknown action type 'dance'")) << explain(m);

  // Other content: the classic pack with one more encounter.
  const fs::path pack = dir.path() / "pack";
  fs::create_directories(pack);
  for (const auto& entry : fs::directory_iterator(kClassic))
    fs::copy(entry.path(), pack / entry.path().filename());
  nlohmann::json encounters = nlohmann::json::parse(read_file(pack / "encounters.json"));
  encounters["encounters"].push_back(encounters["encounters"][1]);
  encounters["encounters"].back()["id"] = "duel_again";
  std::ofstream(pack / "encounters.json") << encounters.dump(2);
  const CliRun other =
      cli("replay " + shell_quoted(file.string()) + " --content " + shell_quoted(pack.string()));
  EXPECT_EQ(other.code, 2) << explain(other);
  EXPECT_TRUE(contains(other.err, "content hash mismatch")) << explain(other);
}

using battlecore::test::position_of;

TEST(ClashCli, AReplayIsReadStrictlyListingEveryProblemAtItsPosition) {
  battlecore::test::TempDir dir;
  ASSERT_EQ(cli("sim --rules clash --battles 1 --seed 3 --record " + shell_quoted(dir.path().string())).code,
            0);
  nlohmann::json j = nlohmann::json::parse(read_file(dir.path() / "battle-000000.json"));
  // A repeated key: the parser keeps the last, so the replay would still match.
  const fs::path twice = dir.path() / "twice.json";
  nlohmann::json rest = j;
  rest.erase("seed");
  std::ofstream(twice) << "{\"seed\": 5,\n \"seed\": " << j["seed"].dump() << ", " << rest.dump().substr(1);
  CliRun r = cli("replay " + shell_quoted(twice.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, twice.string() + ":2:2: /seed: duplicate key 'seed'")) << explain(r);
  // Every bad action is listed at its own position, an unknown key naming the allowed ones.
  j["actions"][0] = {{"type", "teleport"}};
  j["actions"][1] = {{"type", "roll"}, {"seat", 0}, {"bogus", 1}};
  const fs::path bad = dir.path() / "bad.json";
  const std::string text = j.dump(2);
  std::ofstream(bad) << text;
  r = cli("replay " + shell_quoted(bad.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(text, "{\n      \"type\": \"teleport\"") +
                                  ": /actions/0: unknown action type 'teleport'"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, bad.string() + ":" + position_of(text, "{\n      \"bogus\"") +
                                  ": /actions/1: unknown key 'bogus'; allowed keys: type, seat"))
      << explain(r);
  EXPECT_TRUE(contains(r.err, "2 problem(s)")) << explain(r);
}

TEST(ClashCli, PlayAndSimStartFromAScenarioAndBadScenariosAreRefused) {
  battlecore::test::TempDir dir;
  const fs::path scenario = dir.path() / "s.json";
  std::ofstream(scenario) << R"({"rules": "clash", "encounter": "duel", "seed": 9, "round": 4,
    "seats": [{"health": 1}, {"health": 2, "hand": [{"element": "fire", "value": 10}]}]})";
  const fs::path file = dir.path() / "r.json";
  std::string input;
  for (int i = 0; i < 400; ++i) input += "0\n";
  const CliRun play = cli("play --rules clash --scenario " + shell_quoted(scenario.string()) + " --record " +
                              shell_quoted(file.string()),
                          input);
  ASSERT_EQ(play.code, 0) << explain(play);
  EXPECT_TRUE(contains(play.out, "battle 'duel' with seed 9 from scenario " + scenario.string() + " (type"))
      << play.out.substr(0, 400);
  const nlohmann::json replay = nlohmann::json::parse(read_file(file));
  EXPECT_EQ(replay["scenario"]["round"], 4);
  const CliRun check = cli("replay " + shell_quoted(file.string()));
  EXPECT_EQ(check.code, 0) << explain(check);
  const CliRun sim =
      cli("sim --rules clash --battles 5 --json --scenario " + shell_quoted(scenario.string()));
  ASSERT_EQ(sim.code, 0) << explain(sim);
  EXPECT_EQ(nlohmann::json::parse(sim.out)["encounter"], "duel");
  EXPECT_GE(nlohmann::json::parse(sim.out)["mean_turns"].get<double>(), 4.0) << "turns are rounds";

  const fs::path bad = dir.path() / "bad.json";
  std::ofstream(bad)
      << R"({"encounter": "duel", "seats": [{"health": 9, "hand": [{"element": "plasma", "value": 1}]}]})";
  for (const char* command : {"play", "sim"}) {
    const CliRun r = cli(std::string(command) + " --rules clash --scenario " + shell_quoted(bad.string()));
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "/seats/0/health: expected health in [1, 5]")) << explain(r);
    EXPECT_TRUE(contains(r.err, "/seats/0/hand/0/element: unknown element 'plasma'")) << explain(r);
    EXPECT_TRUE(contains(r.err, "2 problem(s) in scenario")) << explain(r);
  }
}

}  // namespace
