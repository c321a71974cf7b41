// The battlecore command line, run as a program: exit codes, stdout and stderr, from a working
// directory other than the source or build tree, so bundled packs must be found with no flags.

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "support/cli_run.hpp"
#include "support/temp_dir.hpp"

#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/sim/version.hpp"

namespace {

namespace fs = std::filesystem;
using battlecore::deckbuilder::Machine;

const fs::path kRepo = fs::path(BATTLECORE_DATA_DIR).parent_path();
const fs::path kStarter = fs::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter";
const fs::path kThreeProblems = fs::path(BATTLECORE_TEST_DATA_DIR) / "bad" / "cli" / "three_problems.json";

using battlecore::test::cli;
using battlecore::test::CliRun;
using battlecore::test::contains;
using battlecore::test::explain;
using battlecore::test::lines_of;
using battlecore::test::read_file;
using battlecore::test::shell_quoted;
using battlecore::test::TempDir;

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// True when `word` occurs in `text` as a whole identifier.
bool contains_word(std::string_view text, std::string_view word) {
  for (auto at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_word_char(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !is_word_char(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_word_char); }

/// `FROM ARROW TO MIDDLE TRIGGER END` with identifiers for FROM, TO and TRIGGER, or nothing.
std::optional<std::tuple<std::string, std::string, std::string>> parse_edge(std::string_view line,
                                                                            std::string_view arrow,
                                                                            std::string_view middle,
                                                                            std::string_view end) {
  line = trimmed(line);
  const auto a = line.find(arrow);
  if (a == std::string_view::npos) return std::nullopt;
  const auto m = line.find(middle, a + arrow.size());
  if (m == std::string_view::npos || !line.ends_with(end)) return std::nullopt;
  const std::string_view from = line.substr(0, a);
  const std::string_view to = line.substr(a + arrow.size(), m - a - arrow.size());
  const auto t = m + middle.size();
  if (t + end.size() > line.size()) return std::nullopt;
  const std::string_view trigger = line.substr(t, line.size() - end.size() - t);
  if (!is_identifier(from) || !is_identifier(to) || !is_identifier(trigger)) return std::nullopt;
  return std::tuple{std::string(from), std::string(trigger), std::string(to)};
}

/// One `FILE:LINE:COL: /pointer: message` line, split.
struct DiagnosticLine {
  std::string file;
  int line = 0;
  int column = 0;
  std::string pointer;
  std::string message;
};

std::optional<DiagnosticLine> parse_diagnostic(std::string_view text) {
  const auto p = text.find(": /");
  if (p == std::string_view::npos) return std::nullopt;
  const std::string_view position = text.substr(0, p);  // FILE:LINE:COL
  const auto c2 = position.rfind(':');
  if (c2 == std::string_view::npos || c2 == 0) return std::nullopt;
  const auto c1 = position.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos) return std::nullopt;
  const std::string_view line = position.substr(c1 + 1, c2 - c1 - 1);
  const std::string_view column = position.substr(c2 + 1);
  const auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(line) || !digits(column)) return std::nullopt;
  const std::string_view rest = text.substr(p + 2);  // /pointer: message
  const auto colon = rest.find(": ");
  if (colon == std::string_view::npos) return std::nullopt;
  return DiagnosticLine{std::string(position.substr(0, c1)), std::stoi(std::string(line)),
                        std::stoi(std::string(column)), std::string(rest.substr(0, colon)),
                        std::string(rest.substr(colon + 2))};
}

using Edge = std::tuple<std::string, std::string, std::string>;  // from, trigger, to

/// The edges of the deckbuilder's transition table, as names.
std::multiset<Edge> table_edges() {
  std::multiset<Edge> edges;
  for (const auto& t : Machine::kTransitions)
    edges.emplace(std::string(battlecore::deckbuilder::phase_name(t.from)),
                  std::string(battlecore::deckbuilder::trigger_name(t.trigger)),
                  std::string(battlecore::deckbuilder::phase_name(t.to)));
  return edges;
}

// --- graph ----------------------------------------------------------------------------------

TEST(Cli, GraphPrintsEveryPhaseAndExactlyTheTableEdges) {
  const CliRun r = cli("graph --rules deckbuilder");
  ASSERT_EQ(r.code, 0) << explain(r);
  for (std::string_view phase : {"None", "Initialize", "PlayerTurnStart", "PlayerPhase", "PlayerTurnEnd",
                                 "EnemyPhase", "BattleWon", "BattleLost"})
    EXPECT_TRUE(contains_word(r.out, phase)) << phase << "\n" << r.out;
  EXPECT_TRUE(contains(r.out, "digraph deckbuilder {")) << r.out;

  // `  A -> B [label="T"];`; the entry arrow from the start point has no trigger.
  std::multiset<Edge> printed;
  for (const std::string& line : lines_of(r.out)) {
    if (const auto e = parse_edge(line, " -> ", " [label=\"", "\"];"))
      printed.insert(*e);
    else
      EXPECT_FALSE(contains(line, "->") && !contains(line, "__start")) << "unparsed edge line: " << line;
  }
  EXPECT_EQ(printed, table_edges());
  EXPECT_TRUE(contains(r.out, "__start -> None;")) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, GraphMermaidPrintsExactlyTheTableEdges) {
  const CliRun r = cli("graph --rules deckbuilder --format mermaid");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(r.out.starts_with("stateDiagram-v2\n")) << r.out;
  for (std::string_view phase : {"None", "Initialize", "PlayerTurnStart", "PlayerPhase", "PlayerTurnEnd",
                                 "EnemyPhase", "BattleWon", "BattleLost"})
    EXPECT_TRUE(contains_word(r.out, phase)) << phase << "\n" << r.out;

  // `  A --> B : T`; `[*] --> None` and `BattleWon --> [*]` are the start and the ends.
  std::multiset<Edge> printed;
  for (const std::string& line : lines_of(r.out)) {
    if (const auto e = parse_edge(line, " --> ", " : ", ""))
      printed.insert(*e);
    else
      EXPECT_FALSE(contains(line, "-->") && !contains(line, "[*]")) << "unparsed edge line: " << line;
  }
  EXPECT_EQ(printed, table_edges());
  EXPECT_TRUE(contains(r.out, "[*] --> None")) << r.out;
  EXPECT_TRUE(contains(r.out, "BattleWon --> [*]")) << r.out;
  EXPECT_TRUE(contains(r.out, "BattleLost --> [*]")) << r.out;
}

// docs/graphs holds the graphs as the binary prints them, so the docs cannot drift from the table.
TEST(Cli, CheckedInGraphsMatchTheBinary) {
  struct Graph {
    const char* file;
    const char* args;
  };
  for (const Graph& g : {Graph{"deckbuilder.dot", "graph --rules deckbuilder"},
                         Graph{"deckbuilder.mmd", "graph --rules deckbuilder --format mermaid"}}) {
    const fs::path file = kRepo / "docs" / "graphs" / g.file;
    const CliRun r = cli(g.args);
    ASSERT_EQ(r.code, 0) << explain(r);
    ASSERT_TRUE(fs::exists(file)) << file;
    EXPECT_EQ(read_file(file), r.out)
        << file.string() << " is out of date with the transition table; regenerate it "
        << "from the repository root with:\n  <build>/apps/battlecore/battlecore " << g.args
        << " > docs/graphs/" << g.file << "\n(see docs/graphs/README.md)";
  }
}

// --- validate -------------------------------------------------------------------------------

TEST(Cli, ValidateAcceptsTheStarterPack) {
  const CliRun r = cli("validate --rules deckbuilder " + shell_quoted(kStarter.string()));
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "valid")) << explain(r);
  EXPECT_TRUE(r.err.empty()) << explain(r);
}

// Without a path, validate checks the bundled pack of the rule set, as the other commands use it
// without --content, and names the directory it checked.
TEST(Cli, ValidateWithoutAPathChecksTheBundledPack) {
  for (const auto& [rules, pack] :
       {std::pair{"deckbuilder", "starter"}, std::pair{"clash", "classic"}, std::pair{"party", "meadow"}}) {
    SCOPED_TRACE(rules);
    const fs::path dir = fs::path(BATTLECORE_DATA_DIR) / rules / pack;
    const CliRun bundled = cli(std::string("validate --rules ") + rules);
    const CliRun named = cli(std::string("validate --rules ") + rules + " " + shell_quoted(dir.string()));
    ASSERT_EQ(bundled.code, 0) << explain(bundled);
    ASSERT_EQ(named.code, 0) << explain(named);
    EXPECT_TRUE(bundled.err.empty()) << explain(bundled);
    const auto at = bundled.out.find(": valid (");
    ASSERT_NE(at, std::string::npos) << explain(bundled);
    std::error_code ec;
    EXPECT_TRUE(fs::equivalent(bundled.out.substr(0, at), dir, ec)) << explain(bundled);
    EXPECT_EQ(bundled.out.substr(at), named.out.substr(named.out.find(": valid ("))) << explain(named);
  }
  const CliRun help = cli("validate --help");
  EXPECT_EQ(help.code, 0) << explain(help);
  EXPECT_TRUE(contains(help.out, "default: the bundled pack")) << explain(help);
}

/// The 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, std::string_view needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

TEST(Cli, ValidateListsEveryProblemWithPosition) {
  const CliRun r = cli("validate --rules deckbuilder " + shell_quoted(kThreeProblems.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  const std::string fixture = read_file(kThreeProblems);
  ASSERT_FALSE(fixture.empty()) << kThreeProblems;

  struct Expected {
    const char* pointer;
    const char* needle;  ///< where the fixture has the problem
    const char* words;   ///< part of the message
  };
  const Expected expected[] = {
      {"/cards/0/cost", "\"cost\": \"1\"", "or \"x\", got '1'"},
      {"/cards/1/blcok", "\"blcok\"", "unknown key 'blcok'"},
      {"/players/0/deck/1/card", "\"card\": \"bash\"", "unknown card 'bash'"},
  };
  // FILE:LINE:COL: /pointer: message
  std::vector<DiagnosticLine> found;
  for (const std::string& line : lines_of(r.err))
    if (auto d = parse_diagnostic(line)) found.push_back(*d);
  ASSERT_EQ(found.size(), 3u) << explain(r);
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.pointer);
    bool seen = false;
    for (const DiagnosticLine& d : found) {
      if (d.pointer != e.pointer) continue;
      seen = true;
      EXPECT_EQ(fs::path(d.file), kThreeProblems);
      EXPECT_EQ(d.line, line_of(fixture, e.needle)) << d.message;
      EXPECT_GT(d.column, 0) << d.message;
      EXPECT_TRUE(contains(d.message, e.words)) << d.message;
    }
    EXPECT_TRUE(seen) << explain(r);
  }
  EXPECT_TRUE(contains(r.err, "3 problem(s)")) << explain(r);
  EXPECT_FALSE(contains(r.out, "valid")) << explain(r);
}

TEST(Cli, ValidateReportsAMissingPath) {
  const CliRun r = cli("validate --rules deckbuilder /nonexistent/battlecore/pack");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "/nonexistent/battlecore/pack")) << explain(r);
  EXPECT_TRUE(contains(r.err, "no such file or directory")) << explain(r);
}

// A pack given to another rule set gets the one problem that matters, not what the other rule
// set's files look like to this one's reader.
TEST(Cli, APackOfAnotherRuleSetIsRefusedWithThatOneProblem) {
  const std::array<std::pair<std::string, std::string>, 3> packs = {
      std::pair{"deckbuilder", "starter"}, std::pair{"clash", "classic"}, std::pair{"party", "meadow"}};
  for (const auto& [rules, pack] : packs) {
    for (const auto& [other, unused] : packs) {
      if (other == rules) continue;
      SCOPED_TRACE(rules + " given to " + other);
      const fs::path dir = fs::path(BATTLECORE_DATA_DIR) / rules / pack;
      const CliRun r = cli("validate --rules " + other + " " + shell_quoted(dir.string()));
      EXPECT_EQ(r.code, 2) << explain(r);
      EXPECT_TRUE(contains(r.err, (dir / "pack.json").string() + ":")) << explain(r);
      EXPECT_TRUE(
          contains(r.err, "/pack/rules: this pack is for rule set '" + rules + "', not '" + other + "'"))
          << explain(r);
      EXPECT_TRUE(contains(r.err, "1 problem(s)")) << explain(r);
      const CliRun list = cli("list --rules " + other + " --content " + shell_quoted(dir.string()));
      EXPECT_EQ(list.code, 2) << explain(list);
      EXPECT_TRUE(contains(list.err, "this pack is for rule set '" + rules + "'")) << explain(list);
    }
  }
}

TEST(Cli, DeeplyNestedContentIsRefusedInEveryRuleSet) {
  // 50,000 levels overflowed the stack of the code that copies and hashes documents.
  const std::string deep = "{\"encounters\": " + std::string(50'000, '[') + std::string(50'000, ']') + "}";
  for (const auto& [rules, pack] :
       {std::pair{"deckbuilder", "starter"}, std::pair{"clash", "classic"}, std::pair{"party", "meadow"}}) {
    TempDir dir;
    const fs::path copy = dir.path() / "pack";
    fs::copy(fs::path(BATTLECORE_DATA_DIR) / rules / pack, copy);
    std::ofstream(copy / "zz.json") << deep;
    for (const std::string command : {"validate --rules ", "list --rules "}) {
      const CliRun r = cli(command + rules + (command == "list --rules " ? " --content " : " ") +
                           shell_quoted(copy.string()));
      EXPECT_EQ(r.code, 2) << explain(r);
      // Level 257 opens at column 16 + 255: the root object is level 1.
      EXPECT_TRUE(contains(r.err, (copy / "zz.json").string() + ":1:271: nesting deeper than 256 levels"))
          << explain(r);
    }
  }
  TempDir dir;
  const fs::path replay = dir.path() / "deep_replay.json";
  std::ofstream(replay) << R"({"rules": "clash", "scenario": {"seats": )" << std::string(50'000, '[')
                        << std::string(50'000, ']') << "}}";
  const CliRun r = cli("replay " + shell_quoted(replay.string()));
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "nesting deeper than 256 levels")) << explain(r);
}

TEST(Cli, WhatIsNotARegularFileIsRefusedWithExitTwo) {
  for (const std::string args : {"validate --rules deckbuilder /dev/null", "validate --rules clash /dev/null",
                                 "validate --rules party /dev/null", "replay /dev/null",
                                 "play --rules deckbuilder --scenario /dev/null"}) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "/dev/null: not a regular file")) << explain(r);
  }
}

// --- list -----------------------------------------------------------------------------------

bool has_id(const nlohmann::json& array, std::string_view id) {
  for (const auto& v : array)
    if (v.is_string() && v.get<std::string>() == id) return true;
  return false;
}

TEST(Cli, ListJsonNamesTheBundledContent) {
  const CliRun r = cli("list --rules deckbuilder --json");
  ASSERT_EQ(r.code, 0) << explain(r);
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON:\n" << r.out;
  for (const char* key : {"encounters", "cards", "enemies"})
    ASSERT_TRUE(j[key].is_array()) << key << ": " << j.dump();
  EXPECT_TRUE(has_id(j["encounters"], "w1")) << j.dump();
  EXPECT_TRUE(has_id(j["cards"], "strike")) << j.dump();
  EXPECT_TRUE(has_id(j["enemies"], "gnasher")) << j.dump();
}

TEST(Cli, ListTextNamesTheBundledContent) {
  const CliRun r = cli("list --rules deckbuilder");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "encounters:")) << r.out;
  EXPECT_TRUE(contains(r.out, " w1")) << r.out;
  EXPECT_TRUE(contains(r.out, " gnasher")) << r.out;
}

TEST(Cli, ListWithExplicitContentUsesIt) {
  const CliRun r = cli("list --rules deckbuilder --json --content " + shell_quoted(kStarter.string()));
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "\"starter\"")) << r.out;
}

// --- sim ------------------------------------------------------------------------------------

TEST(Cli, SimJsonIsDeterministicApartFromTiming) {
  const std::string args = "sim --rules deckbuilder --battles 2000 --seed 3 --json";
  const CliRun a = cli(args), b = cli(args);
  ASSERT_EQ(a.code, 0) << explain(a);
  ASSERT_EQ(b.code, 0) << explain(b);
  nlohmann::json ja = nlohmann::json::parse(a.out, nullptr, false);
  nlohmann::json jb = nlohmann::json::parse(b.out, nullptr, false);
  ASSERT_TRUE(ja.is_object()) << a.out;
  ASSERT_TRUE(jb.is_object()) << b.out;
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    EXPECT_TRUE(ja.contains(key)) << key;
    ja.erase(key);
    jb.erase(key);
  }
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja["battles"], 2000);
  EXPECT_EQ(ja["seed"], 3);
  EXPECT_EQ(ja["encounter"], "w1");
  EXPECT_LE(ja["wins"].get<std::uint64_t>(), 2000u);
}

TEST(Cli, SimTextReportsTheRun) {
  const CliRun r = cli("sim --rules deckbuilder --battles 100 --seed 2 --encounter sludge_pair");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "sludge_pair")) << r.out;
  EXPECT_TRUE(contains(r.out, "win_rate")) << r.out;
}

TEST(Cli, SimUnknownEncounterExitsTwo) {
  const CliRun r = cli("sim --rules deckbuilder --battles 10 --encounter no_such_encounter");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "no_such_encounter")) << explain(r);
}

TEST(Cli, MissingContentPathExitsTwoWithADiagnostic) {
  for (const char* sub : {"sim", "list", "play"}) {
    SCOPED_TRACE(sub);
    const CliRun r =
        cli(std::string(sub) + " --rules deckbuilder --content /nonexistent/battlecore/pack", "quit\n");
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "/nonexistent/battlecore/pack")) << explain(r);
    EXPECT_TRUE(contains(r.err, "no such file or directory")) << explain(r);
  }
}

// --- bad arguments --------------------------------------------------------------------------

TEST(Cli, BadArgumentsExitTwoAndPrintUsage) {
  for (const char* args : {"",
                           "frobnicate",
                           "sim --rules deckbuilder --frobnicate",
                           "sim --rules nope",
                           "sim --rules deckbuilder --battles 0",
                           "sim --rules deckbuilder --battles abc",
                           "sim --rules deckbuilder --battles -5",
                           "graph",
                           "graph --rules deckbuilder --format png",
                           "validate",
                           "validate --rules deckbuilder two paths",
                           "sim --rules deckbuilder --policy nope",
                           "sim --rules deckbuilder --threads 0",
                           "sim --rules deckbuilder --threads -1",
                           "sim --rules deckbuilder --shard 3/2",
                           "sim --rules deckbuilder --shard 0/2",
                           "sim --rules deckbuilder --shard 2",
                           "sim --rules deckbuilder --shard a/b",
                           "sim --rules deckbuilder --versus-policy nope",
                           "sim --rules deckbuilder --mcts-iterations 0",
                           "sim --rules deckbuilder --mcts-exploration -1",
                           "report",
                           "report merge",
                           "report frobnicate shard.json"}) {
    SCOPED_TRACE(args);
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "Usage: battlecore ")) << explain(r);  // named, also before parsing
    EXPECT_TRUE(r.err.starts_with("battlecore: ")) << explain(r);
    EXPECT_TRUE(r.out.empty()) << explain(r);
  }
}

// An unknown word where a command is expected is named as one, also under `report` (it read
// "A subcommand is required", as if none had been given).
TEST(Cli, AnUnknownCommandIsNamedAtEveryLevel) {
  const CliRun top = cli("frobnicate");
  EXPECT_TRUE(top.err.starts_with("battlecore: unknown command 'frobnicate'\n")) << explain(top);
  const CliRun under = cli("report frobnicate shard.json");
  EXPECT_EQ(under.code, 2) << explain(under);
  EXPECT_TRUE(under.err.starts_with("battlecore: unknown command 'report frobnicate'\n")) << explain(under);
  EXPECT_TRUE(contains(under.err, "Usage: battlecore report ")) << explain(under);
}

/// Exit 2 with the subcommand's usage, the message on stderr and nothing on stdout.
void expect_usage_error(const CliRun& r, std::string_view message) {
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(r.err.starts_with("battlecore: ")) << explain(r);
  EXPECT_TRUE(contains(r.err, message)) << message << "\n" << explain(r);
  EXPECT_TRUE(contains(r.err, "Usage:")) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
}

// Before the command word, an unknown option is named (it read "A subcommand is required"), and a
// command's option is said to be misplaced (`--rules deckbuilder sim` read "--rules is required").
TEST(Cli, AnOptionBeforeTheCommandIsNamed) {
  const CliRun unknown = cli("--frob sim --rules deckbuilder");
  expect_usage_error(unknown, "battlecore: unknown option '--frob'\n");
  EXPECT_TRUE(contains(unknown.err, "Usage: battlecore [OPTIONS] SUBCOMMAND")) << explain(unknown);
  expect_usage_error(cli("--frob=3"), "battlecore: unknown option '--frob'\n");
  const CliRun early = cli("--rules deckbuilder sim --battles 1");
  expect_usage_error(early,
                     "battlecore: option '--rules' comes before the command; a command's options follow its "
                     "word, as in 'battlecore sim --rules ...'\n");
  // With no command word, the example names none; under `report`, the words read so far lead it.
  expect_usage_error(cli("--battles 3"), "as in 'battlecore COMMAND --battles ...'");
  const CliRun under = cli("report --json merge shard.json");
  expect_usage_error(under,
                     "battlecore: option '--json' comes before the command; a command's options follow its "
                     "word, as in 'battlecore report merge --json ...'\n");
  EXPECT_TRUE(contains(under.err, "Usage: battlecore report ")) << explain(under);
  expect_usage_error(cli("report --frob merge shard.json"), "battlecore: unknown option '--frob'\n");
  // The top's own flags still come first.
  const CliRun version = cli("--version");
  EXPECT_EQ(version.code, 0) << explain(version);
  EXPECT_TRUE(version.out.starts_with("battlecore ")) << explain(version);
  const CliRun help = cli("-h");
  EXPECT_EQ(help.code, 0) << explain(help);
  EXPECT_TRUE(contains(help.out, "Subcommands:")) << explain(help);
}

// The MCTS options with no side playing mcts were accepted and changed nothing.
TEST(Cli, MctsOptionsWithoutMctsAreRefused) {
  for (const char* args : {"sim --rules deckbuilder --battles 1 --mcts-iterations 50",
                           "sim --rules party --battles 1 --policy greedy --mcts-exploration 1.5",
                           "sim --rules clash --battles 1 --seat-policy 1=greedy --mcts-iterations 50"}) {
    SCOPED_TRACE(args);
    expect_usage_error(cli(args), "tunes the mcts policy, and no side plays it");
  }
  EXPECT_TRUE(contains(cli("sim --rules clash --battles 1 --mcts-iterations 50").err,
                       "(--policy, --versus-policy, --seat-policy)\n"));
  EXPECT_TRUE(contains(cli("sim --rules party --battles 1 --mcts-iterations 50").err,
                       "(--policy, --versus-policy)\n"));
  // Any side playing it takes them: policy A, policy B, or one clash seat.
  for (const char* args :
       {"sim --rules deckbuilder --battles 1 --policy mcts --mcts-iterations 5 --json",
        "sim --rules deckbuilder --battles 1 --versus-policy mcts --mcts-exploration 0.5 --json",
        "sim --rules clash --battles 1 --seat-policy 2=mcts --mcts-iterations 5 --json"}) {
    SCOPED_TRACE(args);
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 0) << explain(r);
    EXPECT_EQ(nlohmann::json::parse(r.out)["battles"], 1);
  }
}

// Clash: --policy mcts with every seat given another policy by --seat-policy plays no mcts. The
// run took the mcts options and wrote mcts settings into its report, so its shards would not
// merge with those of the same battles run with --policy greedy.
TEST(Cli, ClashMctsPolicyOverriddenOnEverySeatIsNoMctsRun) {
  const std::string overridden =
      "sim --rules clash --encounter duel --battles 20 --seed 3 --json --policy mcts "
      "--seat-policy 0=greedy --seat-policy 1=greedy";
  const CliRun refused = cli(overridden + " --mcts-iterations 5");
  EXPECT_EQ(refused.code, 2) << explain(refused);
  EXPECT_TRUE(contains(refused.err,
                       "battlecore: --mcts-iterations and --mcts-exploration tune the mcts policy, "
                       "and no seat plays it"))
      << explain(refused);
  EXPECT_TRUE(refused.out.empty()) << explain(refused);
  const CliRun r = cli(overridden);
  const CliRun greedy =
      cli("sim --rules clash --encounter duel --battles 20 --seed 3 --json --policy greedy");
  ASSERT_EQ(r.code, 0) << explain(r);
  ASSERT_EQ(greedy.code, 0) << explain(greedy);
  auto a = nlohmann::json::parse(r.out), b = nlohmann::json::parse(greedy.out);
  EXPECT_FALSE(a.contains("settings")) << "no mcts settings: " << a.dump();
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) {
    a.erase(key);
    b.erase(key);
  }
  EXPECT_EQ(a, b) << "the same battles, the same report";
}

// An empty path or id (an unset shell variable) is a usage error, not the option left out:
// `validate ""` used to check the bundled pack and say it was valid, `sim --record ""` to
// record nothing.
TEST(Cli, EmptyPathsAndIdsAreRefusedWithUsage) {
  for (const char* args :
       {"validate --rules deckbuilder ''", "validate --rules party ''", "list --rules clash --content ''",
        "sim --rules deckbuilder --battles 1 --content ''", "sim --rules party --battles 1 --encounter ''",
        "sim --rules clash --battles 1 --record ''", "sim --rules deckbuilder --battles 1 --report ''",
        "sim --rules deckbuilder --battles 1 --scenario ''",
        "sim --rules deckbuilder --battles 1 --versus-content ''", "play --rules party --record ''",
        "play --rules clash --scenario ''", "replay ''", "report merge ''"}) {
    SCOPED_TRACE(args);
    const CliRun r = cli(args, "quit\n");
    expect_usage_error(r, "got an empty string");
  }
}

TEST(Cli, BattlesAndSeedsOutOfRangeAreRefusedWithUsage) {
  // 2^64 - 1 battles once overflowed into a run of 0 battles; a larger number is clamped to it.
  for (const char* rules : {"deckbuilder", "clash", "party"}) {
    SCOPED_TRACE(rules);
    // 2^64 - 1 overflowed to no battle at all; the last shard keeps 10^12 + 1 short (1000 battles).
    for (const char* battles : {"18446744073709551615", "99999999999999999999999", "1000000000001"})
      expect_usage_error(
          cli(std::string("sim --rules ") + rules + " --battles " + battles +
              (std::string_view(battles) == "1000000000001" ? " --shard 999999999/999999999" : "")),
          std::string("expected a whole number from 1 to 1000000000000, got '") + battles + "'");
  }
  const CliRun zero = cli("sim --rules deckbuilder --battles 0");
  expect_usage_error(zero, "--battles: expected a whole number from 1 to 1000000000000, got '0'");
  EXPECT_FALSE(contains(zero.err, "17976931")) << explain(zero);
  // Seeds: -5 once wrapped to 2^64 - 5, a number past 2^64 was clamped; both ran.
  for (const char* command : {"sim --rules deckbuilder --battles 5", "sim --rules party --battles 5",
                              "play --rules deckbuilder", "play --rules clash"})
    for (const char* seed : {"-5", "99999999999999999999999", "18446744073709551616", "1.5"}) {
      SCOPED_TRACE(std::string(command) + " --seed " + seed);
      expect_usage_error(
          cli(std::string(command) + " --seed " + seed, "quit\n"),
          std::string("expected a whole number from 0 to 18446744073709551615, got '") + seed + "'");
    }
  const CliRun largest = cli("sim --rules deckbuilder --battles 3 --seed 18446744073709551615 --json");
  ASSERT_EQ(largest.code, 0) << explain(largest);
  EXPECT_EQ(nlohmann::json::parse(largest.out)["seed"], 18446744073709551615ull);
}

TEST(Cli, ThreadCountsAndIterationsOutOfRangeAreRefusedWithUsage) {
  // 100,000 threads once made the system refuse a thread: the run aborted (exit 134).
  for (const char* rules : {"deckbuilder", "clash", "party"}) {
    SCOPED_TRACE(rules);
    for (const char* threads : {"257", "100000", "4294967296", "1.5"})
      expect_usage_error(
          cli(std::string("sim --rules ") + rules + " --battles 100000 --threads " + threads),
          std::string("--threads: expected a whole number from 1 to 256, got '") + threads + "'");
    for (const char* iterations : {"10000001", "4294967295", "1e3"})
      expect_usage_error(
          cli(std::string("sim --rules ") + rules + " --policy mcts --mcts-iterations " + iterations),
          std::string("--mcts-iterations: expected a whole number from 1 to 10000000, got '") + iterations +
              "'");
  }
  const CliRun most = cli("sim --rules deckbuilder --battles 300 --threads 256 --json");
  ASSERT_EQ(most.code, 0) << explain(most);
  EXPECT_EQ(nlohmann::json::parse(most.out)["battles"], 300);
}

TEST(Cli, OptionsOfAnotherRuleSetAreRefusedWithUsage) {
  // --block-rate was silently ignored outside party, while --seat-policy was refused.
  for (const char* rules : {"deckbuilder", "clash"})
    for (const char* option : {"--block-rate 10", "--super-block-rate 5"}) {
      SCOPED_TRACE(std::string(rules) + " " + option);
      expect_usage_error(cli(std::string("sim --rules ") + rules + " --battles 5 " + option),
                         std::string(std::string_view(option).substr(0, std::string_view(option).find(' '))) +
                             " is a party option; the " + rules + " rule set does not take it");
    }
  for (const char* rules : {"deckbuilder", "party"})
    expect_usage_error(
        cli(std::string("sim --rules ") + rules + " --battles 5 --seat-policy 1=greedy"),
        std::string("--seat-policy is a clash option; the ") + rules + " rule set does not take it");
  for (const char* rules : {"clash", "party"})
    for (const char* option : {"--deck", "--versus-deck"})
      expect_usage_error(
          cli(std::string("sim --rules ") + rules + " --battles 5 " + option + " strike"),
          std::string(option) + " is a deckbuilder option; the " + rules + " rule set does not take it");
  // The clash has no enemies: --no-enemy-damage was accepted and meant nothing. The message names
  // both rule sets that take it.
  expect_usage_error(
      cli("sim --rules clash --battles 5 --no-enemy-damage"),
      "--no-enemy-damage is a deckbuilder and party option; the clash rule set does not take it");
}

// A command line refused after the parse prints the usage of `battlecore sim`, as the parse does
// (it read "Usage: sim [OPTIONS]").
TEST(Cli, RefusalsAfterTheParseNameTheCommandInTheirUsage) {
  for (const char* args : {"sim --rules clash --battles 5 --block-rate 10",
                           "sim --rules party --battles 5 --super-block-rate 80",
                           "sim --rules deckbuilder --battles 5 --record-failures"}) {
    SCOPED_TRACE(args);
    const CliRun r = cli(args);
    expect_usage_error(r, "battlecore: ");
    EXPECT_TRUE(contains(r.err, "Usage: battlecore sim [OPTIONS]")) << explain(r);
  }
}

TEST(Cli, NoEnemyDamageLeavesThePartysDamageColumnsOut) {
  // The party counted its enemies' damage with --no-enemy-damage, and said nothing.
  const CliRun counted = cli("sim --rules party --battles 40 --json");
  const CliRun left_out = cli("sim --rules party --battles 40 --json --no-enemy-damage");
  ASSERT_EQ(counted.code, 0) << explain(counted);
  ASSERT_EQ(left_out.code, 0) << explain(left_out);
  const nlohmann::json a = nlohmann::json::parse(counted.out), b = nlohmann::json::parse(left_out.out);
  EXPECT_EQ(a["enemy_damage_counted"], true);
  EXPECT_EQ(b["enemy_damage_counted"], false);
  EXPECT_EQ(a["wins"], b["wins"]);
  std::uint64_t dealt = 0;
  ASSERT_EQ(a["enemies"].size(), b["enemies"].size());
  for (std::size_t e = 0; e < a["enemies"].size(); ++e) {
    dealt += a["enemies"][e]["damage_dealt"].get<std::uint64_t>();
    EXPECT_EQ(b["enemies"][e]["battles"], a["enemies"][e]["battles"]) << e;
    EXPECT_EQ(b["enemies"][e]["damage_dealt"], 0) << e;
  }
  EXPECT_GT(dealt, 0u);
}

TEST(Cli, AnExplorationConstantThatIsNotAFiniteNumberIsRefusedWithUsage) {
  for (const char* value : {"nan", "inf", "-1", "x"})
    expect_usage_error(
        cli(std::string("sim --rules deckbuilder --policy mcts --battles 1 --mcts-exploration ") + value),
        std::string("expected a finite number, 0 or more, got '") + value + "'");
}

// The constant is the double nearest its text. This text lies just above the midpoint of 0.7 and
// the next double up, so it is that next double; read as an 80-bit long double first and rounded
// again to a double (CLI11's reading on x86), it came out 0.7, and another machine's report would
// have had another constant.
TEST(Cli, AnExplorationConstantIsTheDoubleNearestItsText) {
  const CliRun r =
      cli("sim --rules deckbuilder --policy mcts --battles 1 --mcts-iterations 5 --json --mcts-exploration "
          "0.70000000000000001110223024625156540423631668090820312500000000000000000001");
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_EQ(nlohmann::json::parse(r.out)["settings"]["mcts_exploration"].get<double>(),
            std::nextafter(0.7, 1.0));
}

TEST(Cli, OutputPathsAreCheckedBeforeTheRun) {
  TempDir dir;
  const std::string missing_dir = shell_quoted((dir.path() / "no" / "such" / "r.html").string());
  // The whole run once played first, and only then failed to write (exit 1).
  for (const std::string& report : {shell_quoted(dir.path().string()), missing_dir}) {
    const CliRun r = cli("sim --rules deckbuilder --battles 3000 --report " + report);
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "battlecore: cannot write --report '")) << explain(r);
    EXPECT_TRUE(r.out.empty()) << explain(r);
  }
  const CliRun is_dir =
      cli("sim --rules deckbuilder --battles 3 --report " + shell_quoted(dir.path().string()));
  EXPECT_TRUE(contains(is_dir.err, "': it is a directory")) << explain(is_dir);
  const CliRun no_dir = cli("sim --rules deckbuilder --battles 3 --report " + missing_dir);
  EXPECT_TRUE(contains(no_dir.err, "there is no directory '" + (dir.path() / "no" / "such").string() + "'"))
      << explain(no_dir);
  // report merge --report, before reading the shards.
  const fs::path shard = dir.path() / "s.json";
  std::ofstream(shard) << cli("sim --rules deckbuilder --battles 10 --json").out;
  const CliRun merge = cli("report merge --report " + missing_dir + " " + shell_quoted(shard.string()));
  EXPECT_EQ(merge.code, 2) << explain(merge);
  EXPECT_TRUE(merge.out.empty()) << explain(merge);
  // play --record: checked before the session, not when it ends.
  const CliRun play = cli(
      "play --rules deckbuilder --record " + shell_quoted((dir.path() / "no" / "dir" / "r.json").string()),
      "quit\n");
  EXPECT_EQ(play.code, 2) << explain(play);
  EXPECT_TRUE(contains(play.err, "battlecore: cannot write --record '")) << explain(play);
  EXPECT_TRUE(play.out.empty()) << explain(play);
}

TEST(Cli, OutputThatCannotBeWrittenExitsThree) {
  // A report lost to a full disk once exited 0: a job array took it for a success.
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir;
  const fs::path err = dir.path() / "stderr.txt";
  for (const std::string args :
       {"sim --rules deckbuilder --battles 20 --json", "sim --rules party --battles 5", "graph --rules clash",
        "list --rules deckbuilder"}) {
    SCOPED_TRACE(args);
    const std::string command = "env -u BATTLECORE_DATA " + shell_quoted(BATTLECORE_CLI) + " " + args +
                                " </dev/null >/dev/full 2>" + shell_quoted(err.string());
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << command;
    EXPECT_EQ(WEXITSTATUS(status), 3) << command;
    EXPECT_TRUE(contains(read_file(err), "battlecore: could not write to standard output")) << read_file(err);
  }
  // The HTML report, written after the run.
  const CliRun html = cli("sim --rules deckbuilder --battles 5 --report /dev/full");
  EXPECT_EQ(html.code, 3) << explain(html);
  EXPECT_TRUE(contains(html.err, "could not write the HTML report to /dev/full")) << explain(html);
  // The replay of a session, written when it ends (it used to exit 2, as for bad arguments).
  for (const char* rules : {"deckbuilder", "clash", "party"}) {
    SCOPED_TRACE(rules);
    const CliRun play = cli(std::string("play --rules ") + rules + " --record /dev/full", "quit\n");
    EXPECT_EQ(play.code, 3) << explain(play);
    EXPECT_TRUE(contains(play.err, "battlecore: cannot write replay file '/dev/full'")) << explain(play);
  }
}

// A replay of `sim --record` that cannot be written stops the run, which exits 3 as for other
// output that is lost (it exited 2, as for bad arguments): here battle 1's file is a directory.
TEST(Cli, SimRecordThatCannotWriteAReplayExitsThree) {
  TempDir dir;
  for (const char* rules : {"deckbuilder", "clash", "party"}) {
    SCOPED_TRACE(rules);
    const fs::path replays = dir.path() / rules;
    fs::create_directories(replays / "battle-000001.json");
    const CliRun sim = cli(std::string("sim --rules ") + rules + " --battles 3 --json --record " +
                           shell_quoted(replays.string()));
    EXPECT_EQ(sim.code, 3) << explain(sim);
    EXPECT_TRUE(contains(
        sim.err, "battlecore: cannot write replay file '" + (replays / "battle-000001.json").string() + "'"))
        << explain(sim);
    EXPECT_TRUE(sim.out.empty()) << explain(sim);
  }
}

// --- sim at scale ----------------------------------------------------------------------------

/// The JSON of a run without its timing keys.
nlohmann::json untimed_json(const CliRun& r) {
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  if (!j.is_object()) return j;
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) j.erase(key);
  return j;
}

TEST(Cli, SimThreadsOneAndTwoGiveIdenticalJson) {
  const CliRun one = cli("sim --rules deckbuilder --battles 3000 --seed 5 --threads 1 --json");
  const CliRun two = cli("sim --rules deckbuilder --battles 3000 --seed 5 --threads 2 --json");
  ASSERT_EQ(one.code, 0) << explain(one);
  ASSERT_EQ(two.code, 0) << explain(two);
  ASSERT_TRUE(untimed_json(one).is_object()) << one.out;
  EXPECT_EQ(untimed_json(one), untimed_json(two));
}

/// Runs shard k of `shards.size()` of `run` for each k of `shards`, in that order, writes each
/// report to `dir`/NAME<k>.json and returns the files, each quoted after a space. With `edit`,
/// each report is parsed, edited and written as the edit leaves it.
std::string write_shards(const fs::path& dir, const std::string& run, const std::vector<int>& shards,
                         const std::string& name,
                         const std::function<void(nlohmann::json&)>& edit = nullptr) {
  std::string files;
  for (const int k : shards) {
    const CliRun shard = cli(run + " --shard " + std::to_string(k) + "/" + std::to_string(shards.size()));
    EXPECT_EQ(shard.code, 0) << explain(shard);
    const fs::path file = dir / (name + std::to_string(k) + ".json");
    if (edit) {
      nlohmann::json j = nlohmann::json::parse(shard.out);
      edit(j);
      std::ofstream(file) << j.dump();
    } else {
      std::ofstream(file) << shard.out;
    }
    files += " " + shell_quoted(file.string());
  }
  return files;
}

TEST(Cli, NumbersAreDecimalWithOrWithoutLeadingZeros) {
  // CLI11 converts with base 0: "010" was read as octal (8 battles), "0x10" as hexadecimal.
  const CliRun padded = cli("sim --rules deckbuilder --battles 010 --seed 010 --json");
  ASSERT_EQ(padded.code, 0) << explain(padded);
  EXPECT_EQ(untimed_json(padded), untimed_json(cli("sim --rules deckbuilder --battles 10 --seed 10 --json")));
  const CliRun nine = cli("sim --rules deckbuilder --battles 09 --seed 09 --json");
  ASSERT_EQ(nine.code, 0) << explain(nine);
  EXPECT_EQ(nlohmann::json::parse(nine.out)["battles"], 9);
  EXPECT_EQ(nlohmann::json::parse(nine.out)["seed"], 9);
  const CliRun rates = cli("sim --rules party --battles 5 --block-rate 010 --super-block-rate 09 --json");
  ASSERT_EQ(rates.code, 0) << explain(rates);
  EXPECT_EQ(nlohmann::json::parse(rates.out)["settings"]["block_percent"], 10);
  EXPECT_EQ(nlohmann::json::parse(rates.out)["settings"]["super_block_percent"], 9);
  expect_usage_error(cli("sim --rules party --battles 5 --block-rate 30 --super-block-rate 50"),
                     "--super-block-rate 50 is more than --block-rate 30");
  expect_usage_error(cli("sim --rules party --battles 5 --block-rate 0x10"),
                     "--block-rate: expected a whole number from 0 to 100, got '0x10'");
  expect_usage_error(cli("sim --rules deckbuilder --battles 0x10"),
                     "--battles: expected a whole number from 1 to 1000000000000, got '0x10'");
}

TEST(Cli, ReportMergeOfFourShardsEqualsOneRun) {
  TempDir dir;
  const std::string run = "sim --rules deckbuilder --encounter sludge_pair --battles 1001 --seed 9 --json";
  const CliRun whole = cli(run);
  ASSERT_EQ(whole.code, 0) << explain(whole);
  const std::string files =
      write_shards(dir.path(), run + " --threads 2", {4, 3, 2, 1}, "shard");  // any order
  const CliRun merged = cli("report merge --json" + files);
  ASSERT_EQ(merged.code, 0) << explain(merged);
  EXPECT_EQ(untimed_json(merged), untimed_json(whole));

  // Three of four shards, or one twice: refused, nothing printed.
  const std::string three = files.substr(0, files.rfind(' '));
  const CliRun missing = cli("report merge --json" + three);
  EXPECT_EQ(missing.code, 2) << explain(missing);
  // The refusals name the files given, as they were given.
  const auto shard = [&](int k) { return (dir.path() / ("shard" + std::to_string(k) + ".json")).string(); };
  EXPECT_TRUE(contains(missing.err, fmt::format("missing shard(s) 1/4 (3 of 4 given: {}, {} and {})\n",
                                                shard(2), shard(3), shard(4))))
      << explain(missing);
  EXPECT_TRUE(missing.out.empty());
  const CliRun twice = cli("report merge --json" + files + " " + files.substr(files.rfind(' ') + 1));
  EXPECT_EQ(twice.code, 2) << explain(twice);
  EXPECT_TRUE(contains(twice.err, fmt::format("shard 1/4 is given twice: {} and {}\n", shard(1), shard(1))))
      << explain(twice);
}

TEST(Cli, ReportMergeRefusesShardsOfDifferentRuns) {
  TempDir dir;
  const fs::path a = dir.path() / "a.json", b = dir.path() / "b.json", junk = dir.path() / "junk.json";
  std::ofstream(a) << cli("sim --rules deckbuilder --battles 100 --seed 1 --json --shard 1/2").out;
  std::ofstream(b) << cli("sim --rules deckbuilder --battles 100 --seed 2 --json --shard 2/2").out;
  std::ofstream(junk) << "{not json";
  const CliRun seeds = cli("report merge " + shell_quoted(a.string()) + " " + shell_quoted(b.string()));
  EXPECT_EQ(seeds.code, 2) << explain(seeds);
  EXPECT_TRUE(contains(seeds.err, fmt::format("battlecore: cannot merge: {} has seed '2' but {} has '1'\n",
                                              b.string(), a.string())))
      << explain(seeds);
  const CliRun bad = cli("report merge " + shell_quoted(junk.string()));
  EXPECT_EQ(bad.code, 2) << explain(bad);
  EXPECT_TRUE(contains(bad.err, "junk.json")) << explain(bad);

  // A shard from a scenario and one from the encounter's start: refused (the settings differ).
  const fs::path scenario = dir.path() / "scenario.json", c = dir.path() / "c.json";
  std::ofstream(scenario) << R"({"format": "battlecore-scenario", "format_version": 1, "rules": "deckbuilder",
                                 "player": {"hp": 10}})";
  const CliRun from_scenario =
      cli("sim --rules deckbuilder --battles 100 --seed 1 --json --shard 2/2 --scenario " +
          shell_quoted(scenario.string()));
  ASSERT_EQ(from_scenario.code, 0) << explain(from_scenario);
  EXPECT_TRUE(nlohmann::json::parse(from_scenario.out)["settings"].contains("scenario_hash"))
      << from_scenario.out;
  std::ofstream(c) << from_scenario.out;
  const CliRun mixed = cli("report merge " + shell_quoted(a.string()) + " " + shell_quoted(c.string()));
  EXPECT_EQ(mixed.code, 2) << explain(mixed);
  EXPECT_TRUE(contains(mixed.err, "cannot merge: " + c.string() + " has settings '{\"scenario_hash\":"))
      << explain(mixed);
}

TEST(Cli, ReportMergeRefusesAShardCountNoRunHas) {
  TempDir dir;
  // Real output: one battle in 999,999,999 shards. Merging it once allocated a table of that size.
  const fs::path one = dir.path() / "one.json";
  const CliRun shard = cli("sim --rules deckbuilder --battles 1 --shard 1/999999999 --json");
  ASSERT_EQ(shard.code, 0) << explain(shard);
  std::ofstream(one) << shard.out;
  const CliRun merged = cli("report merge " + shell_quoted(one.string()));
  EXPECT_EQ(merged.code, 2) << explain(merged);
  EXPECT_TRUE(contains(merged.err, "missing shard(s) 2/999999999, 3/999999999")) << explain(merged);
  EXPECT_TRUE(contains(merged.err, " and 999999988 more (1 of 999999999 given: " + one.string() + ")"))
      << explain(merged);
  EXPECT_TRUE(merged.out.empty()) << explain(merged);
  // 2^32 + 3 shards, read as 3 when cast to 32 bits: three files once merged with exit 0.
  nlohmann::json j = nlohmann::json::parse(cli("sim --rules deckbuilder --battles 3 --json").out);
  std::string files;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    j["shard"] = {{"index", (std::uint64_t{1} << 32) + k},
                  {"count", (std::uint64_t{1} << 32) + 3},
                  {"first_battle", 0},
                  {"total_battles", 3}};
    const fs::path file = dir.path() / ("wide" + std::to_string(k) + ".json");
    std::ofstream(file) << j.dump();
    files += " " + shell_quoted(file.string());
  }
  const CliRun wide = cli("report merge" + files);
  EXPECT_EQ(wide.code, 2) << explain(wide);
  EXPECT_TRUE(contains(wide.err, "wide1.json:1:")) << explain(wide);
  EXPECT_TRUE(
      contains(wide.err, ": /shard/count: expected a shard count from 1 to 999999999, got 4294967299"))
      << explain(wide);
}

TEST(Cli, ReportMergeNamesTheBadValueOfAShardWithItsPointerAndPosition) {
  TempDir dir;
  const std::string run = "sim --rules deckbuilder --battles 100 --seed 3 --json --shard ";
  const fs::path a = dir.path() / "a.json", b = dir.path() / "b.json";
  std::ofstream(a) << cli(run + "1/2").out;
  const nlohmann::json second = nlohmann::json::parse(cli(run + "2/2").out);
  ASSERT_EQ(cli("report merge " + shell_quoted(a.string()) + " " + shell_quoted(a.string())).code, 2);
  auto merge_with = [&](const std::string& text) {
    std::ofstream(b, std::ios::trunc) << text;
    return cli("report merge --json " + shell_quoted(a.string()) + " " + shell_quoted(b.string()));
  };
  const CliRun good = merge_with(second.dump());
  ASSERT_EQ(good.code, 0) << explain(good);
  // More wins than battles once merged into a win rate above 1 with exit 0.
  nlohmann::json j = second;
  j["wins"] = 5000000;
  CliRun r = merge_with(j.dump());
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, b.string() + ":1:")) << explain(r);
  EXPECT_TRUE(contains(r.err, ": /wins: 5000000 wins is more than the 50 battles")) << explain(r);
  EXPECT_TRUE(contains(r.err, "nothing was merged")) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
  j = second;
  j["turns"]["histogram"][3] = j["turns"]["histogram"][3].get<std::uint64_t>() + 1;
  r = merge_with(j.dump());
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, ": /turns/histogram: counts 51 battles, expected the 50 battles"))
      << explain(r);
  // An unknown key was merged silently.
  j = second;
  j["cards"][0]["favourite"] = true;
  r = merge_with(j.dump());
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, ": /cards/0/favourite: unknown key 'favourite'; allowed keys: id, plays,"))
      << explain(r);
  j = second;
  j["battles"] = -50;
  r = merge_with(j.dump());
  EXPECT_TRUE(contains(r.err, ": /battles: expected a non-negative integer, got -50")) << explain(r);
  // A syntax error: the line, the column and what the parser found.
  r = merge_with("{\"rules\": \"deckbuilder\",\n  \"battles\": 50,,\n}");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, b.string() + ":2:17: syntax error while parsing object key - unexpected ','"))
      << explain(r);
  EXPECT_FALSE(contains(r.err, "is not one JSON object")) << explain(r);
}

// The two shards of a paired W1 run (greedy against random): the first written to a.json, the
// second kept to be edited; merge_with writes an edited second shard to b.json and merges the two.
struct PairedShards {
  TempDir dir;
  fs::path a = dir.path() / "a.json";
  fs::path b = dir.path() / "b.json";
  nlohmann::json second;
  PairedShards() {
    const std::string run =
        "sim --rules deckbuilder --battles 100 --seed 3 --policy greedy --versus-policy random --json "
        "--shard ";
    std::ofstream(a) << cli(run + "1/2").out;
    second = nlohmann::json::parse(cli(run + "2/2").out);
  }
  CliRun merge_with(const nlohmann::json& j) const {
    std::ofstream(b, std::ios::trunc) << j.dump(1);
    return cli("report merge --json " + shell_quoted(a.string()) + " " + shell_quoted(b.string()));
  }
};

// Shards of a paired run edited by hand: each was once merged into a wrong report with status 0.
TEST(Cli, ReportMergeRefusesAPairedShardEditedByHandNamingEveryProblem) {
  const PairedShards shards;
  const nlohmann::json& second = shards.second;
  ASSERT_EQ(shards.merge_with(second).code, 0);
  nlohmann::json j = second;
  nlohmann::json& paired = j["versus"]["paired"];
  paired["both_won"] = paired["both_won"].get<std::uint64_t>() - 1;
  paired["both_lost"] = paired["both_lost"].get<std::uint64_t>() + 1;
  paired["hp_left_diff_sum"] = paired["hp_left_diff_sum"].get<std::int64_t>() + 500;
  j["versus"]["cards"][0]["id"] = "bash";
  j["mean_turns"] = nullptr;
  j["shard"]["bar"] = 1;
  CliRun r = shards.merge_with(j);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
  for (const char* expected :
       {": /versus/paired/only_a_won: both_won + only_a_won is ", ": /versus/paired/hp_left_diff_sum: is ",
        ": /versus/cards/0/id: is 'bash', expected 'strike' as at /cards/0/id",
        ": /mean_turns: expected a number, got null", ": /shard/bar: unknown key 'bar'"})
    EXPECT_TRUE(contains(r.err, expected)) << expected << "\n" << explain(r);
  EXPECT_TRUE(contains(r.err, "6 problem(s) in")) << explain(r);  // only_b_won too
  // A histogram with a trailing 0 once moved the merged `max`.
  j = second;
  j["hp_left"]["histogram"].push_back(0);
  r = shards.merge_with(j);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, ": /hp_left/histogram: ends with a count of 0")) << explain(r);
}

TEST(Cli, ReportMergeRefusesSumsPastTwoTo64InsteadOfWrappingThem) {
  TempDir dir;
  // Each shard's decisions (and the means and rates they give) edited to 2^63: they read, but
  // their sum once wrapped to 0 with status 0.
  const std::string files =
      write_shards(dir.path(), "sim --rules deckbuilder --battles 100 --seed 3 --json", {1, 2}, "big",
                   [](nlohmann::json& j) {
                     const std::uint64_t decisions = std::uint64_t{1} << 63;
                     j["decisions"] = decisions;
                     j["mean_decisions"] = static_cast<double>(decisions) / j["battles"].get<double>();
                     j["decisions_per_s"] = static_cast<double>(decisions) / j["elapsed_s"].get<double>();
                   });
  const CliRun r = cli("report merge --json" + files);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
  EXPECT_TRUE(contains(r.err, "battlecore: cannot merge: adding " + (dir.path() / "big2.json").string() +
                                  " (shard 2/2), the sum at /decisions passes 2^64 (no run has such counts)"))
      << explain(r);
}

// Shards edited by hand into counts no run has, their derived values made to fit: each was once
// merged with status 0.
TEST(Cli, ReportMergeRefusesCountsNoRunHasEvenWithTheDerivedValuesToMatch) {
  const PairedShards shards;
  const nlohmann::json& second = shards.second;
  const fs::path& b = shards.b;
  ASSERT_EQ(shards.merge_with(second).code, 0);
  // The first row of `table` whose `key` is not 0.
  const auto used = [](const nlohmann::json& table, const char* key) {
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const nlohmann::json& r) { return r[key].get<std::uint64_t>() > 0; });
    return static_cast<std::size_t>(row - table.begin());
  };
  // A card played in no battle: its win rate when played is then 0.
  nlohmann::json j = second;
  const std::size_t c = used(j["cards"], "plays");
  ASSERT_LT(c, j["cards"].size());
  nlohmann::json& card = j["cards"][c];
  card["battles_played"] = card["wins_when_played"] = card["win_rate_when_played"] = 0;
  CliRun r = shards.merge_with(j);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
  EXPECT_TRUE(contains(r.err, b.string() + ":")) << explain(r);
  EXPECT_TRUE(contains(r.err, fmt::format(": /cards/{}/battles_played: is 0, but the card has {} plays: each "
                                          "play is in a battle\n",
                                          c, card["plays"].get<std::uint64_t>())))
      << explain(r);
  // An enemy that dealt damage in no battle: its damage per battle is then 0.
  j = second;
  const std::size_t e = used(j["versus"]["enemies"], "damage_dealt");
  ASSERT_LT(e, j["versus"]["enemies"].size());
  nlohmann::json& enemy = j["versus"]["enemies"][e];
  enemy["battles"] = enemy["damage_per_battle"] = 0;
  r = shards.merge_with(j);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, fmt::format(": /versus/enemies/{}/damage_dealt: is {}, but the enemy fought in "
                                          "no battle (battles is 0)\n",
                                          e, enemy["damage_dealt"].get<std::uint64_t>())))
      << explain(r);
  // Squared HP differences adding up to 0 while the differences do not: the interval they give
  // is then the mean alone.
  j = second;
  nlohmann::json& paired = j["versus"]["paired"];
  ASSERT_NE(paired["hp_left_diff_sum"].get<std::int64_t>(), 0);
  paired["hp_left_diff_sq_sum"] = 0;
  paired["hp_left_difference_ci95"] = {paired["hp_left_difference"], paired["hp_left_difference"]};
  r = shards.merge_with(j);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, ": /versus/paired/hp_left_diff_sq_sum: is 0, less than ")) << explain(r);
  EXPECT_TRUE(contains(r.err, "1 problem(s) in " + b.string())) << explain(r);
}

// Shards whose times add up past the largest number: the merge once wrote "elapsed_s": null, which
// its own reader refuses.
TEST(Cli, ReportMergeRefusesTimesThatAddUpPastTheLargestNumber) {
  TempDir dir;
  const std::string files = write_shards(dir.path(), "sim --rules deckbuilder --battles 100 --seed 3 --json",
                                         {1, 2}, "slow", [](nlohmann::json& j) {
                                           j["elapsed_s"] = 1e308;
                                           j["battles_per_s"] = j["battles"].get<double>() / 1e308;
                                           j["decisions_per_s"] = j["decisions"].get<double>() / 1e308;
                                         });
  const CliRun r = cli("report merge --json" + files);
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(r.out.empty()) << explain(r);
  EXPECT_TRUE(contains(
      r.err, fmt::format("battlecore: cannot merge: the elapsed_s of {} (1e+308) and {} "
                         "(1e+308) add up past the largest number (no run has such times)\n",
                         (dir.path() / "slow1.json").string(), (dir.path() / "slow2.json").string())))
      << explain(r);
}

TEST(Cli, SimVersusReportsThePairedDifference) {
  const CliRun r =
      cli("sim --rules deckbuilder --battles 200 --seed 4 --policy greedy --versus-policy random --json");
  ASSERT_EQ(r.code, 0) << explain(r);
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.contains("versus")) << r.out;
  EXPECT_EQ(j["versus"]["policy"], "random");
  const auto& p = j["versus"]["paired"];
  EXPECT_NEAR(p["difference"].get<double>(),
              j["win_rate"].get<double>() - j["versus"]["win_rate"].get<double>(), 1e-12);
  EXPECT_LE(p["difference_ci95"][0].get<double>(), p["difference"].get<double>());
  EXPECT_GE(p["difference_ci95"][1].get<double>(), p["difference"].get<double>());
  // The HP difference: the sums it comes from, and greedy keeping more HP than random.
  const double battles = j["battles"].get<double>();
  EXPECT_NEAR(p["hp_left_difference"].get<double>(), p["hp_left_diff_sum"].get<double>() / battles, 1e-12);
  EXPECT_GT(p["hp_left_difference_ci95"][0].get<double>(), 0.0) << p.dump();
  EXPECT_GE(p["hp_left_difference_ci95"][1].get<double>(), p["hp_left_difference"].get<double>());
  const CliRun text =
      cli("sim --rules deckbuilder --battles 50 --seed 4 --policy greedy --versus-policy random");
  EXPECT_TRUE(contains(text.out, "mcnemar")) << text.out;
  EXPECT_TRUE(contains(text.out, "hp_difference")) << text.out;
}

TEST(Cli, SimVersusDeckPlaysTwoDecksOnTheSameSeedsAndShardsMerge) {
  TempDir dir;
  const std::string run =
      "sim --rules deckbuilder --battles 600 --seed 4 --versus-deck 'strike*5,defend*4,bash*2' --json";
  const CliRun whole = cli(run);
  ASSERT_EQ(whole.code, 0) << explain(whole);
  const nlohmann::json j = nlohmann::json::parse(whole.out, nullptr, false);
  EXPECT_EQ(j["policy"], "random");
  EXPECT_EQ(j["versus"]["policy"], "random");
  EXPECT_EQ(j["settings"]["versus_deck"], "strike*5,defend*4,bash*2");
  // Side A is the encounter's own deck: the run without a pair.
  const CliRun own = cli("sim --rules deckbuilder --battles 600 --seed 4 --json");
  EXPECT_EQ(j["wins"], nlohmann::json::parse(own.out)["wins"]);
  const std::string files = write_shards(dir.path(), run, {1, 2}, "deck");
  const CliRun merged = cli("report merge --json" + files);
  ASSERT_EQ(merged.code, 0) << explain(merged);
  EXPECT_EQ(untimed_json(merged), untimed_json(whole));
  // A shard of another deck pair does not merge with them.
  const fs::path other = dir.path() / "other.json";
  std::ofstream(other)
      << cli("sim --rules deckbuilder --battles 600 --seed 4 --versus-deck 'strike*5,defend*5' "
             "--json --shard 2/2")
             .out;
  const CliRun mixed =
      cli("report merge --json" + files.substr(0, files.rfind(' ')) + " " + shell_quoted(other.string()));
  EXPECT_EQ(mixed.code, 2) << explain(mixed);
  EXPECT_TRUE(contains(mixed.err, "settings")) << explain(mixed);
  EXPECT_TRUE(mixed.out.empty());

  expect_usage_error(cli("sim --rules deckbuilder --battles 5 --deck 'strike*0'"),
                     "the count in 'strike*0' must be a whole number from 1 to 64");
  const CliRun unknown = cli("sim --rules deckbuilder --battles 5 --deck strike,nope");
  EXPECT_EQ(unknown.code, 2) << explain(unknown);
  EXPECT_TRUE(contains(unknown.err, "does not have: nope")) << explain(unknown);
  // Side B is not recorded (a replay holds one side's battle); side A's deck is
  // (CliDeterminism.ARunWithADeckRecordsItAndItsReplaysMatch).
  const CliRun recorded = cli("sim --rules deckbuilder --battles 5 --versus-deck strike --record " +
                              shell_quoted((dir.path() / "replays").string()));
  EXPECT_EQ(recorded.code, 2) << explain(recorded);
  EXPECT_TRUE(contains(recorded.err, "--record")) << explain(recorded);
}

TEST(Cli, SimVersusContentPlaysTwoPacksOnTheSameSeeds) {
  TempDir dir;
  // Pack B: the starter pack with a Strike of 7.
  const fs::path pack = dir.path() / "stronger";
  fs::copy(kStarter, pack, fs::copy_options::recursive);
  std::ifstream in(pack / "cards.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::string strike = R"("effects": [{ "op": "damage", "amount": 6 }])";
  ASSERT_NE(text.find(strike), std::string::npos);
  text.replace(text.find(strike), strike.size(), R"("effects": [{ "op": "damage", "amount": 7 }])");
  std::ofstream(pack / "cards.json") << text;

  const std::string run =
      "sim --rules deckbuilder --battles 400 --seed 2 --json --versus-content " + shell_quoted(pack.string());
  const CliRun r = cli(run);
  ASSERT_EQ(r.code, 0) << explain(r);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json b = nlohmann::json::parse(
      cli("sim --rules deckbuilder --battles 400 --seed 2 --json --content " + shell_quoted(pack.string()))
          .out);
  EXPECT_EQ(j["settings"]["versus_content_hash"], b["content_hash"]);
  EXPECT_NE(j["content_hash"], b["content_hash"]);
  EXPECT_EQ(j["versus"]["wins"], b["wins"]);
  EXPECT_GT(j["versus"]["wins"].get<int>(), j["wins"].get<int>());
  const CliRun merged = cli("report merge --json" + write_shards(dir.path(), run, {2, 1}, "pair"));
  ASSERT_EQ(merged.code, 0) << explain(merged);
  EXPECT_EQ(untimed_json(merged), untimed_json(r));

  const CliRun missing =
      cli("sim --rules deckbuilder --battles 5 --versus-content /nonexistent/battlecore/pack");
  EXPECT_EQ(missing.code, 2) << explain(missing);
  EXPECT_TRUE(contains(missing.err, "/nonexistent/battlecore/pack")) << explain(missing);
  const CliRun recorded =
      cli("sim --rules deckbuilder --battles 5 --versus-content " + shell_quoted(pack.string()) +
          " --record " + shell_quoted((dir.path() / "replays").string()));
  EXPECT_EQ(recorded.code, 2) << explain(recorded);
  EXPECT_TRUE(contains(recorded.err, "--versus-content")) << explain(recorded);
}

TEST(Cli, SimWritesTheHtmlReportAndNoProgressBarWhenNotATerminal) {
  TempDir dir;
  const fs::path html = dir.path() / "report.html";
  const CliRun r =
      cli("sim --rules deckbuilder --battles 300 --seed 1 --report " + shell_quoted(html.string()));
  ASSERT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(r.err.empty()) << explain(r);
  const std::string page = read_file(html);
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(contains(page, "<svg"));
}

TEST(Cli, HelpExitsZero) {
  const CliRun r = cli("--help");
  EXPECT_EQ(r.code, 0) << explain(r);
  for (const char* sub : {"graph", "validate", "list", "sim", "play"})
    EXPECT_TRUE(contains(r.out, sub)) << sub << "\n" << r.out;
}

TEST(Cli, VersionPrintsTheEngineVersion) {
  // The version replays and reports record as engine_version.
  const CliRun r = cli("--version");
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_EQ(r.out, "battlecore " + std::string(battlecore::sim::engine_version()) + "\n") << explain(r);
  const CliRun help = cli("--help");
  EXPECT_TRUE(contains(help.out, "--version")) << explain(help);
}

// --- play -----------------------------------------------------------------------------------

TEST(Cli, PlayQuitsOnQuit) {
  const CliRun r = cli("play --rules deckbuilder --seed 1", "quit\n");
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "battle 'w1' with seed 1")) << explain(r);
  EXPECT_TRUE(contains(r.out, "you leave the battle")) << explain(r);
}

TEST(Cli, PlayEndsOnEndOfInput) {
  const CliRun r = cli("play --rules deckbuilder --seed 1");
  EXPECT_EQ(r.code, 0) << explain(r);
  EXPECT_TRUE(contains(r.out, "end of input")) << explain(r);
}

TEST(Cli, PlayUnknownEncounterExitsTwo) {
  const CliRun r = cli("play --rules deckbuilder --encounter no_such_encounter", "quit\n");
  EXPECT_EQ(r.code, 2) << explain(r);
  EXPECT_TRUE(contains(r.err, "no_such_encounter")) << explain(r);
}

TEST(Cli, ServeBadPortExitsTwoWithUsage) {
  for (const char* args : {"serve --port 70000", "serve --port abc", "serve --rules deckbuilder"}) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, 2) << explain(r);
    EXPECT_TRUE(contains(r.err, "serve")) << explain(r);
  }
}

TEST(Cli, ServeWarnsWhenNotLoopbackAndReportsABindFailure) {
  // A documentation address (TEST-NET-3) is not on this machine: binding fails, nothing is sent.
  const CliRun r = cli("serve --host 203.0.113.7 --port 0");
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.err, "warning")) << explain(r);
  EXPECT_TRUE(contains(r.err, "203.0.113.7 is not a loopback address")) << explain(r);
  EXPECT_FALSE(contains(r.err, "listening")) << explain(r);  // it never listened
  EXPECT_TRUE(contains(r.err, "cannot bind to 203.0.113.7")) << explain(r);
}

TEST(Cli, ServeTakesReveal) {
  // The flag is read (not a usage error, exit 2); the address then fails to bind as above.
  const CliRun r = cli("serve --reveal --host 203.0.113.7 --port 0");
  EXPECT_EQ(r.code, 1) << explain(r);
  EXPECT_TRUE(contains(r.err, "cannot bind to 203.0.113.7")) << explain(r);
}

}  // namespace
