#include "battlecore/core/phase_machine.hpp"

#include <array>
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace battlecore {
namespace {

// A toy rule set shaped like the traits the header documents.
enum class ToyPhase : std::uint8_t { Idle, Running, Paused, Done };
enum class ToyTrigger : std::uint8_t { Start, Pause, Resume, Finish };

struct ToyMachine {
  using Phase = ToyPhase;
  using Trigger = ToyTrigger;
  static constexpr std::string_view kRules = "toy";
  static constexpr std::array<std::string_view, 4> kPhaseNames = {"Idle", "Running", "Paused", "Done"};
  static constexpr std::array<std::string_view, 4> kTriggerNames = {"Start", "Pause", "Resume", "Finish"};
  static constexpr Phase kInitial = Phase::Idle;
  static constexpr std::array kTerminal = {Phase::Done};
  // clang-format off
  static constexpr std::array kTransitions = {
      //                         from            trigger          to
      Transition<Phase, Trigger>{Phase::Idle,    Trigger::Start,  Phase::Running},
      Transition<Phase, Trigger>{Phase::Running, Trigger::Pause,  Phase::Paused},
      Transition<Phase, Trigger>{Phase::Paused,  Trigger::Resume, Phase::Running},
      Transition<Phase, Trigger>{Phase::Running, Trigger::Finish, Phase::Done},
      Transition<Phase, Trigger>{Phase::Paused,  Trigger::Finish, Phase::Done},
  };
  // clang-format on
};

using Machine = PhaseMachine<ToyMachine>;
using Driver = PhaseDriver<ToyMachine>;
using Record = Driver::Record;

constexpr std::array kAllPhases = {ToyPhase::Idle, ToyPhase::Running, ToyPhase::Paused, ToyPhase::Done};
constexpr std::array kAllTriggers = {ToyTrigger::Start, ToyTrigger::Pause, ToyTrigger::Resume,
                                     ToyTrigger::Finish};

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool declared(ToyPhase from, ToyTrigger trigger) {
  for (const auto& t : ToyMachine::kTransitions)
    if (t.from == from && t.trigger == trigger) return true;
  return false;
}

// The toy graph as PhaseGraph, written out by hand so broken variants can be derived from it.
PhaseGraph toy_graph() {
  PhaseGraph g;
  g.rules = "toy";
  g.phases = {"Idle", "Running", "Paused", "Done"};
  g.initial = 0;
  g.terminal = {3};
  g.edges = {{0, "Start", 1}, {1, "Pause", 2}, {2, "Resume", 1}, {1, "Finish", 3}, {2, "Finish", 3}};
  return g;
}

// ------------------------------------------------------------------------------ PhaseMachine

TEST(PhaseMachine, TargetFollowsDeclaredEdges) {
  static_assert(Machine::target(ToyPhase::Idle, ToyTrigger::Start) == ToyPhase::Running);
  for (const auto& t : ToyMachine::kTransitions) {
    const auto to = Machine::target(t.from, t.trigger);
    ASSERT_TRUE(to.has_value());
    EXPECT_EQ(*to, t.to);
  }
}

TEST(PhaseMachine, TargetIsEmptyForUndeclaredEdges) {
  static_assert(!Machine::target(ToyPhase::Done, ToyTrigger::Start).has_value());
  int undeclared = 0;
  for (ToyPhase p : kAllPhases)
    for (ToyTrigger t : kAllTriggers)
      if (!declared(p, t)) {
        EXPECT_FALSE(Machine::target(p, t).has_value())
            << Machine::phase_name(p) << " on " << Machine::trigger_name(t);
        ++undeclared;
      }
  EXPECT_EQ(undeclared, 16 - 5);
}

TEST(PhaseMachine, NamesAndTerminalsComeFromTheTraits) {
  EXPECT_EQ(Machine::phase_name(ToyPhase::Paused), "Paused");
  EXPECT_EQ(Machine::trigger_name(ToyTrigger::Resume), "Resume");
  EXPECT_TRUE(Machine::is_terminal(ToyPhase::Done));
  EXPECT_FALSE(Machine::is_terminal(ToyPhase::Idle));
  EXPECT_FALSE(Machine::is_terminal(ToyPhase::Paused));
}

// ------------------------------------------------------------------------------ PhaseDriver

TEST(PhaseDriver, StartsInTheInitialPhaseWithNoHistory) {
  const Driver driver;
  EXPECT_EQ(driver.current(), ToyPhase::Idle);
  EXPECT_EQ(driver.moves(), 0u);
  EXPECT_TRUE(driver.history().empty());
  EXPECT_TRUE(driver.record_history());
}

TEST(PhaseDriver, FireMovesAndRecordsHistory) {
  Driver driver;
  EXPECT_EQ(driver.fire(ToyTrigger::Start, 1), ToyPhase::Running);
  EXPECT_EQ(driver.current(), ToyPhase::Running);
  driver.fire(ToyTrigger::Pause, 2);
  driver.fire(ToyTrigger::Resume, 2);
  EXPECT_EQ(driver.fire(ToyTrigger::Finish, 3), ToyPhase::Done);

  const std::vector<Record> expected = {
      {1, 1, ToyPhase::Idle, ToyTrigger::Start, ToyPhase::Running},
      {2, 2, ToyPhase::Running, ToyTrigger::Pause, ToyPhase::Paused},
      {3, 2, ToyPhase::Paused, ToyTrigger::Resume, ToyPhase::Running},
      {4, 3, ToyPhase::Running, ToyTrigger::Finish, ToyPhase::Done},
  };
  EXPECT_EQ(driver.history(), expected);
  EXPECT_EQ(driver.moves(), 4u);
  EXPECT_EQ(driver.current(), ToyPhase::Done);
}

TEST(PhaseDriver, UndeclaredEdgeThrowsNamingRulesPhaseAndTrigger) {
  Driver driver;
  try {
    driver.fire(ToyTrigger::Pause, 1);
    FAIL() << "Idle --Pause--> is not declared";
  } catch (const UndeclaredTransition& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "toy")) << what;
    EXPECT_TRUE(contains(what, "Idle")) << what;
    EXPECT_TRUE(contains(what, "Pause")) << what;
  }
}

TEST(PhaseDriver, UndeclaredEdgeLeavesPhaseAndHistoryUnchanged) {
  Driver driver;
  driver.fire(ToyTrigger::Start, 1);
  const Driver before = driver;
  EXPECT_THROW(driver.fire(ToyTrigger::Start, 2), UndeclaredTransition);
  EXPECT_EQ(driver.current(), ToyPhase::Running);
  EXPECT_EQ(driver.moves(), 1u);
  EXPECT_EQ(driver.history(), before.history());
  EXPECT_EQ(driver, before);
}

TEST(PhaseDriver, UndeclaredEdgeIsAnInvariantError) {
  Driver driver;
  driver.fire(ToyTrigger::Start, 1);
  driver.fire(ToyTrigger::Finish, 1);
  // A simulator catches InvariantError per battle; leaving a terminal phase must be caught too.
  EXPECT_THROW(driver.fire(ToyTrigger::Resume, 1), InvariantError);
}

TEST(PhaseDriver, HistoryOffKeepsCountingButRecordsNothing) {
  Driver driver;
  driver.set_record_history(false);
  EXPECT_FALSE(driver.record_history());
  driver.fire(ToyTrigger::Start, 1);
  driver.fire(ToyTrigger::Pause, 1);
  driver.fire(ToyTrigger::Resume, 1);
  EXPECT_EQ(driver.moves(), 3u);
  EXPECT_TRUE(driver.history().empty());
  EXPECT_EQ(driver.current(), ToyPhase::Running);

  driver.set_record_history(true);
  driver.fire(ToyTrigger::Finish, 2);
  ASSERT_EQ(driver.history().size(), 1u);
  EXPECT_EQ(driver.history()[0], (Record{4, 2, ToyPhase::Running, ToyTrigger::Finish, ToyPhase::Done}));
}

TEST(PhaseDriver, ResetReturnsToTheInitialPhaseWithEmptyHistory) {
  Driver driver;
  driver.fire(ToyTrigger::Start, 1);
  driver.fire(ToyTrigger::Pause, 1);
  driver.reset();
  EXPECT_EQ(driver.current(), ToyPhase::Idle);
  EXPECT_EQ(driver.moves(), 0u);
  EXPECT_TRUE(driver.history().empty());
  EXPECT_EQ(driver, Driver{});
  driver.fire(ToyTrigger::Start, 1);
  EXPECT_EQ(driver.history()[0].sequence, 1u);
}

TEST(PhaseDriver, RestoreContinuesTheSequence) {
  Driver driver;
  const std::vector<Record> saved = {{7, 3, ToyPhase::Running, ToyTrigger::Pause, ToyPhase::Paused}};
  driver.restore(ToyPhase::Paused, 7, saved);
  EXPECT_EQ(driver.current(), ToyPhase::Paused);
  EXPECT_EQ(driver.moves(), 7u);
  driver.fire(ToyTrigger::Resume, 4);
  ASSERT_EQ(driver.history().size(), 2u);
  EXPECT_EQ(driver.history()[1], (Record{8, 4, ToyPhase::Paused, ToyTrigger::Resume, ToyPhase::Running}));
}

// ------------------------------------------------------------------------------ PhaseGraph

TEST(PhaseGraph, MakePhaseGraphMirrorsTheTable) {
  const PhaseGraph g = make_phase_graph<ToyMachine>();
  const PhaseGraph hand = toy_graph();
  EXPECT_EQ(g.rules, hand.rules);
  EXPECT_EQ(g.phases, hand.phases);
  EXPECT_EQ(g.initial, hand.initial);
  EXPECT_EQ(g.terminal, hand.terminal);
  ASSERT_EQ(g.edges.size(), hand.edges.size());
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    EXPECT_EQ(g.edges[i].from, hand.edges[i].from) << i;
    EXPECT_EQ(g.edges[i].trigger, hand.edges[i].trigger) << i;
    EXPECT_EQ(g.edges[i].to, hand.edges[i].to) << i;
  }
}

TEST(PhaseGraphDot, HasHeaderAndEveryPhase) {
  const std::string dot = to_dot(make_phase_graph<ToyMachine>());
  EXPECT_EQ(dot.rfind("digraph toy {\n", 0), 0u) << dot;
  EXPECT_TRUE(contains(dot, "rankdir=LR;")) << dot;
  for (std::string_view name : ToyMachine::kPhaseNames) EXPECT_TRUE(contains(dot, name)) << name;
  EXPECT_EQ(dot.back(), '\n');
  EXPECT_EQ(lines_of(dot).back(), "}");
}

TEST(PhaseGraphDot, MarksInitialAndTerminalPhases) {
  const std::vector<std::string> lines = lines_of(to_dot(make_phase_graph<ToyMachine>()));
  const auto has_line = [&](std::string_view wanted) {
    return std::find(lines.begin(), lines.end(), wanted) != lines.end();
  };
  EXPECT_TRUE(has_line("  Idle [style=bold];"));
  EXPECT_TRUE(has_line("  __start -> Idle;"));
  EXPECT_TRUE(has_line("  Done [shape=doublecircle];"));
  EXPECT_TRUE(has_line("  Running;"));
  EXPECT_TRUE(has_line("  Paused;"));
}

TEST(PhaseGraphDot, OneEdgeLinePerRowInTableOrderAndNoneForUndeclaredEdges) {
  const std::vector<std::string> lines = lines_of(to_dot(make_phase_graph<ToyMachine>()));
  std::vector<std::string> edge_lines;
  for (const std::string& line : lines)
    if (contains(line, " -> ") && contains(line, "[label=")) edge_lines.push_back(line);
  const std::vector<std::string> expected = {
      "  Idle -> Running [label=\"Start\"];",    "  Running -> Paused [label=\"Pause\"];",
      "  Paused -> Running [label=\"Resume\"];", "  Running -> Done [label=\"Finish\"];",
      "  Paused -> Done [label=\"Finish\"];",
  };
  EXPECT_EQ(edge_lines, expected);

  for (ToyPhase p : kAllPhases)
    for (ToyTrigger t : kAllTriggers) {
      const std::string prefix = "  " + std::string(Machine::phase_name(p)) + " -> ";
      const std::string label = "[label=\"" + std::string(Machine::trigger_name(t)) + "\"]";
      const auto n = std::count_if(edge_lines.begin(), edge_lines.end(), [&](const std::string& line) {
        return line.rfind(prefix, 0) == 0 && contains(line, label);
      });
      EXPECT_EQ(n, declared(p, t) ? 1 : 0) << prefix << label;
    }
}

TEST(PhaseGraphDot, QuotesNamesThatAreNotPlainIdentifiers) {
  PhaseGraph g;
  g.rules = "my rules";
  g.phases = {"Start here", "Node", "End"};
  g.terminal = {2};
  g.edges = {{0, "say \"go\"", 1}, {1, "Finish", 2}};
  const std::string dot = to_dot(g);
  EXPECT_EQ(dot.rfind("digraph \"my rules\" {\n", 0), 0u) << dot;
  // "node" is a DOT keyword in any case.
  EXPECT_TRUE(contains(dot, "  \"Start here\" -> \"Node\" [label=\"say \\\"go\\\"\"];\n")) << dot;
}

TEST(PhaseGraphMermaid, HasStartEveryPhaseAndTerminalExits) {
  const std::string mermaid = to_mermaid(make_phase_graph<ToyMachine>());
  const std::vector<std::string> lines = lines_of(mermaid);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), "stateDiagram-v2");
  for (std::string_view name : ToyMachine::kPhaseNames) EXPECT_TRUE(contains(mermaid, name)) << name;
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "  [*] --> Idle"), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "  Done --> [*]"), 1);
  const auto exits =
      std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return contains(l, " --> [*]"); });
  EXPECT_EQ(exits, 1);
}

TEST(PhaseGraphMermaid, OneEdgeLinePerRowInTableOrderAndNoneForUndeclaredEdges) {
  const std::vector<std::string> lines = lines_of(to_mermaid(make_phase_graph<ToyMachine>()));
  std::vector<std::string> edge_lines;
  for (const std::string& line : lines)
    if (contains(line, " --> ") && contains(line, " : ")) edge_lines.push_back(line);
  const std::vector<std::string> expected = {
      "  Idle --> Running : Start",  "  Running --> Paused : Pause", "  Paused --> Running : Resume",
      "  Running --> Done : Finish", "  Paused --> Done : Finish",
  };
  EXPECT_EQ(edge_lines, expected);

  for (ToyPhase p : kAllPhases)
    for (ToyTrigger t : kAllTriggers) {
      const std::string prefix = "  " + std::string(Machine::phase_name(p)) + " --> ";
      const std::string suffix = " : " + std::string(Machine::trigger_name(t));
      const auto n = std::count_if(edge_lines.begin(), edge_lines.end(), [&](const std::string& line) {
        return line.rfind(prefix, 0) == 0 && line.size() >= suffix.size() &&
               line.compare(line.size() - suffix.size(), suffix.size(), suffix) == 0;
      });
      EXPECT_EQ(n, declared(p, t) ? 1 : 0) << prefix << suffix;
    }
}

TEST(PhaseGraphMermaid, DrawsPhasesOnNoEdgeAndLabelsOddNames) {
  PhaseGraph g = toy_graph();
  g.phases.push_back("Lonely");
  g.phases.push_back("Two words");
  g.edges.push_back({5, "Go", 3});
  const std::vector<std::string> lines = lines_of(to_mermaid(g));
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "  Lonely"), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "  state \"Two words\" as s5"), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "  s5 --> Done : Go"), 1);
}

// ------------------------------------------------------------------------------ check_phase_graph

std::string joined(const std::vector<std::string>& problems) {
  std::string all;
  for (const std::string& p : problems) all += p + "\n";
  return all;
}

TEST(CheckPhaseGraph, SoundToyGraphHasNoProblems) {
  EXPECT_TRUE(check_phase_graph(make_phase_graph<ToyMachine>()).empty())
      << joined(check_phase_graph(make_phase_graph<ToyMachine>()));
  EXPECT_TRUE(check_phase_graph(toy_graph()).empty());
}

TEST(CheckPhaseGraph, ReportsUnreachablePhase) {
  PhaseGraph g = toy_graph();
  g.phases.push_back("Orphan");
  g.edges.push_back({4, "Finish", 3});
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "Orphan")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "unreachable")) << problems[0];
}

TEST(CheckPhaseGraph, ReportsTerminalPhaseWithAnExit) {
  PhaseGraph g = toy_graph();
  g.edges.push_back({3, "Restart", 0});
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "terminal phase Done")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "Restart")) << problems[0];
}

TEST(CheckPhaseGraph, ReportsDuplicateFromTriggerRow) {
  PhaseGraph g = toy_graph();
  g.edges.push_back({1, "Pause", 3});
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "duplicate")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "(Running, Pause)")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "edges 1 and 5")) << problems[0];
}

TEST(CheckPhaseGraph, SameTriggerFromDifferentPhasesIsNoDuplicate) {
  const PhaseGraph g = toy_graph();  // Finish leaves both Running and Paused
  EXPECT_TRUE(check_phase_graph(g).empty());
}

TEST(CheckPhaseGraph, ReportsNonTerminalPhaseWithoutExit) {
  PhaseGraph g = toy_graph();
  g.phases.push_back("Stuck");
  g.edges.push_back({0, "Jam", 4});
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "Stuck")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "no exit")) << problems[0];
}

TEST(CheckPhaseGraph, ReportsEdgeIndicesOutOfRange) {
  PhaseGraph g = toy_graph();
  g.edges.push_back({9, "Warp", 1});
  g.edges.push_back({1, "Vanish", 12});
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 2u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "edge 5")) << problems[0];
  EXPECT_TRUE(contains(problems[0], "from index 9 is out of range")) << problems[0];
  EXPECT_TRUE(contains(problems[1], "edge 6")) << problems[1];
  EXPECT_TRUE(contains(problems[1], "to index 12 is out of range")) << problems[1];
  // The exporters still work on a broken graph.
  EXPECT_TRUE(contains(to_dot(g), "\"#9\" -> Running")) << to_dot(g);
  EXPECT_FALSE(to_mermaid(g).empty());
}

TEST(CheckPhaseGraph, ReportsInitialAndTerminalIndicesOutOfRange) {
  PhaseGraph g = toy_graph();
  g.terminal.push_back(7);
  auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "terminal phase index 7 is out of range")) << problems[0];

  g = toy_graph();
  g.initial = 4;
  problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_TRUE(contains(problems[0], "initial phase index 4 is out of range")) << problems[0];
}

TEST(CheckPhaseGraph, ReportsEveryProblemOfABadGraphNamingTheRules) {
  PhaseGraph g = toy_graph();
  g.rules = "broken";
  g.phases.push_back("Orphan");        // unreachable and without exit
  g.edges.push_back({3, "Again", 0});  // exit from a terminal phase
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 3u) << joined(problems);
  for (const std::string& p : problems) EXPECT_EQ(p.rfind("broken: ", 0), 0u) << p;
}

TEST(CheckPhaseGraph, ReportsAGraphWithoutPhases) {
  const PhaseGraph g;
  const auto problems = check_phase_graph(g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems[0], "no phases")) << problems[0];
}

}  // namespace
}  // namespace battlecore
