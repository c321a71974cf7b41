#include "battlecore/sim/play_session.hpp"

#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "support/clash_pack.hpp"
#include "support/interrupted_input.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::sim {
namespace {

using test::starter;

/// One session: what it returned and what it wrote.
struct Session {
  int code = -1;
  std::string out;
  std::string err;
};

Session play(const std::string& input, PlayConfig config = {"w1", 1}) {
  std::istringstream in(input);
  std::ostringstream out, err;
  Session s;
  s.code = play_deckbuilder(starter(), config, in, out, err);
  s.out = out.str();
  s.err = err.str();
  return s;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::size_t count(std::string_view text, std::string_view part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + part.size()))
    ++n;
  return n;
}

TEST(SimPlaySession, StartShowsTheBattleAndNumberedActions) {
  ASSERT_NE(starter(), nullptr);
  const Session s = play("quit\n");
  EXPECT_EQ(s.code, 0);
  EXPECT_TRUE(contains(s.out, "battle 'w1' with seed 1")) << s.out;
  EXPECT_TRUE(contains(s.out, "phase PlayerPhase")) << s.out;
  EXPECT_TRUE(contains(s.out, "Gnasher")) << s.out;
  EXPECT_TRUE(contains(s.out, "  0) ")) << s.out;
  EXPECT_TRUE(contains(s.out, "end turn")) << s.out;
  EXPECT_TRUE(s.err.empty()) << s.err;
}

TEST(SimPlaySession, HelpPrintsTheCommands) {
  ASSERT_NE(starter(), nullptr);
  const Session s = play("help\nquit\n");
  EXPECT_EQ(s.code, 0);
  for (const char* command : {"state", "history", "log", "help", "quit"})
    EXPECT_TRUE(contains(s.out, std::string("  ") + command)) << command << " missing from\n" << s.out;
}

TEST(SimPlaySession, HistoryPrintsTheTransitions) {
  ASSERT_NE(starter(), nullptr);
  const Session s = play("history\nquit\n");
  EXPECT_EQ(s.code, 0);
  EXPECT_TRUE(contains(s.out, "None")) << s.out;
  EXPECT_TRUE(contains(s.out, "--StartRequested--> Initialize")) << s.out;
  EXPECT_TRUE(contains(s.out, "--Initialized--> PlayerTurnStart")) << s.out;
  EXPECT_TRUE(contains(s.out, "--TurnBegan--> PlayerPhase")) << s.out;
}

TEST(SimPlaySession, StateShowsTheBattleAgain) {
  ASSERT_NE(starter(), nullptr);
  const Session once = play("quit\n");
  const Session twice = play("state\nquit\n");
  EXPECT_EQ(twice.code, 0);
  EXPECT_EQ(count(once.out, "hand:"), 1u) << once.out;
  EXPECT_EQ(count(twice.out, "hand:"), 2u) << twice.out;
}

TEST(SimPlaySession, LogPrintsEvents) {
  ASSERT_NE(starter(), nullptr);
  const Session s = play("log 3\nquit\n");
  EXPECT_EQ(s.code, 0);
  EXPECT_TRUE(contains(s.out, "{")) << s.out;
}

// After each action the session tells what happened that the board does not show: each enemy's
// move and each hit, one line per event of the log.
TEST(SimPlaySession, EachActionIsFollowedByWhatHappened) {
  ASSERT_NE(starter(), nullptr);
  std::string input;
  for (int i = 0; i < 10; ++i) input += "0\n";  // the first option: cards, then end turn
  const Session s = play(input + "log 100000\nquit\n");
  ASSERT_TRUE(contains(s.out, "you leave the battle")) << "the battle ended before the log:\n" << s.out;
  std::size_t told_moves = 0, told_hits = 0, logged_moves = 0, logged_hits = 0;
  std::istringstream lines(s.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("  {")) {  // the log, as JSON
      logged_moves += count(line, "\"EnemyActed\"");
      logged_hits += count(line, "\"DamageDealt\"");
    } else {
      told_moves += line.starts_with("  ") && contains(line, " uses ") ? 1 : 0;
      told_hits += line.starts_with("  ") && contains(line, " damage") ? 1 : 0;
    }
  }
  EXPECT_GT(logged_moves, 0u) << s.out;
  EXPECT_EQ(told_moves, logged_moves) << s.out;
  EXPECT_GT(logged_hits, 0u) << s.out;
  EXPECT_EQ(told_hits, logged_hits) << s.out;
}

// Created cards, extra turns, hooks and delayed effects are told too, each in its own words:
// battles of the two pack encounters whose decks and enemies have them, options taken in turn.
TEST(SimPlaySession, CreatedCardsExtraTurnsHooksAndDelayedEffectsAreTold) {
  ASSERT_NE(starter(), nullptr);
  using deckbuilder::EventType;
  const std::vector<std::pair<EventType, std::string_view>> told = {
      {EventType::CardCreated, " is added to "},
      {EventType::ExtraTurnGranted, "you will take an extra turn"},
      {EventType::HookRegistered, " in effect for "},
      {EventType::HookExpired, " ends"},
      {EventType::DelayedScheduled, "a delayed effect is set to fire at the "},
      {EventType::DelayedFired, "a delayed effect fires at the "}};
  // The delayed effect's timing, by the event's amount.
  const std::vector<std::string_view> timings = {"start of a player turn", "end of a player turn",
                                                 "end of an enemy phase"};
  std::vector<std::size_t> seen(told.size(), 0);
  for (const std::string_view encounter : {"sentry_gate", "imp_swarm"}) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      deckbuilder::Battle b(starter());
      ASSERT_TRUE(b.start_battle(encounter, seed).ok());
      for (std::size_t step = 0; b.status() == Status::AwaitingDecision && step < 400; ++step) {
        const deckbuilder::Decision d = b.decision();
        b.submit_listed(d.options[(step * 7 + seed) % d.options.size()]);
      }
      for (const deckbuilder::Event& e : b.events().log()) {
        for (std::size_t i = 0; i < told.size(); ++i) {
          if (e.type != told[i].first) continue;
          const auto text = deckbuilder::event_text(b, e);
          ASSERT_TRUE(text.has_value()) << deckbuilder::event_type_name(e.type);
          EXPECT_TRUE(contains(*text, told[i].second)) << *text;
          if (e.type == EventType::DelayedScheduled || e.type == EventType::DelayedFired) {
            ASSERT_LT(static_cast<std::size_t>(e.amount), timings.size());
            EXPECT_TRUE(text->ends_with(timings[static_cast<std::size_t>(e.amount)])) << *text;
          }
          ++seen[i];
        }
      }
    }
  }
  for (std::size_t i = 0; i < told.size(); ++i)
    EXPECT_GT(seen[i], 0u) << deckbuilder::event_type_name(told[i].first) << " never happened";
}

// Each bad line is answered, and the session goes on to the next command.
TEST(SimPlaySession, BadInputIsAnsweredAndTheSessionContinues) {
  ASSERT_NE(starter(), nullptr);
  struct Case {
    const char* line;
    const char* answer;
  };
  for (const Case& c :
       {Case{"fight the monster", "is not a command or an action number"},
        Case{"99", "no action 99: choose 0 to"}, Case{"-1", "is not a command or an action number"},
        Case{"", ""}, Case{"log abc", "usage: log [N]"}, Case{"3x", "is not a command"},
        Case{"18446744073709551616", "no action 18446744073709551616: choose 0 to"},
        Case{"\x1b[2Jwipe", "'\\x1B[2Jwipe' is not a command"}}) {
    SCOPED_TRACE(c.line);
    const Session s = play(std::string(c.line) + "\nstate\nquit\n");
    EXPECT_EQ(s.code, 0);
    EXPECT_TRUE(contains(s.out, c.answer)) << s.out;
    EXPECT_EQ(count(s.out, "hand:"), 2u) << "the session did not go on to 'state':\n" << s.out;
    EXPECT_TRUE(contains(s.out, "you leave the battle")) << s.out;
    EXPECT_TRUE(s.err.empty()) << s.err;
  }
}

TEST(SimPlaySession, ALongLineIsEchoedShort) {
  ASSERT_NE(starter(), nullptr);
  for (const std::string& line : {std::string(100'000, 'z'), std::string(100'000, '9')}) {
    const Session s = play(line + "\nquit\n");
    EXPECT_EQ(s.code, 0);
    EXPECT_TRUE(contains(s.out, std::string(40, line[0]) + "...")) << s.out.substr(0, 2000);
    EXPECT_LT(s.out.size(), 5'000u);
  }
}

TEST(SimPlaySession, QuitReturnsZero) {
  ASSERT_NE(starter(), nullptr);
  for (const char* quit : {"quit", "exit", "q", "  quit  "}) {
    const Session s = play(std::string(quit) + "\nhelp\n");
    EXPECT_EQ(s.code, 0) << quit;
    EXPECT_TRUE(contains(s.out, "you leave the battle")) << s.out;
    EXPECT_FALSE(contains(s.out, "commands:")) << "input after quit was read:\n" << s.out;
  }
}

TEST(SimPlaySession, EndOfInputReturnsZero) {
  ASSERT_NE(starter(), nullptr);
  const Session empty = play("");
  EXPECT_EQ(empty.code, 0);
  EXPECT_TRUE(contains(empty.out, "end of input")) << empty.out;
  const Session unterminated = play("state");  // a last line without a newline is still read
  EXPECT_EQ(unterminated.code, 0);
  EXPECT_EQ(count(unterminated.out, "hand:"), 2u) << unterminated.out;
}

// Ctrl-C while the session reads its second line: the first action was taken, and nothing after
// it is, though more lines wait in the input. The session ends as at the end of its input.
TEST(SimPlaySession, AnInterruptEndsTheSessionAtItsNextReadWithTheLinesAheadUnplayed) {
  ASSERT_NE(starter(), nullptr);
  test::InterruptedInput input({"0\n", "0\n", "state\n", "1\n", "quit\n"}, 1);
  std::ostringstream out, err;
  EXPECT_EQ(play_deckbuilder(starter(), {"w1", 1}, input.input(), out, err), 0);
  EXPECT_TRUE(err.str().empty()) << err.str();
  // What a session given the first line alone writes, but for the way it ends.
  EXPECT_EQ(out.str(), test::ended_by_interrupt(play("0\n").out));
  EXPECT_EQ(count(out.str(), "> -> "), 1u) << out.str();  // a prompt answered by an action
}

// The clash's session alike: the bots play on to the human's next decision, then it ends there.
TEST(SimPlaySession, AnInterruptEndsTheClashsSessionAtItsNextRead) {
  const clash::PlayConfig config{"", 1, "random", {}};
  const auto session = [&](PlayInput in) {
    std::ostringstream out, err;
    EXPECT_EQ(play_clash(test::classic(), config, in, out, err), 0);
    EXPECT_TRUE(err.str().empty()) << err.str();
    return out.str();
  };
  test::InterruptedInput input({"0\n", "0\n", "0\n", "quit\n"}, 1);
  const std::string interrupted = session(input.input());
  std::istringstream first("0\n");
  EXPECT_EQ(interrupted, test::ended_by_interrupt(session(first)));
  EXPECT_EQ(count(interrupted, "> -> "), 1u) << interrupted;
}

// Always taking option 0 (the first playable card at the first enemy, or end turn when nothing
// is playable) must finish the battle: it plays every affordable card, then ends the turn.
TEST(SimPlaySession, ScriptedChoicesPlayToTheEnd) {
  ASSERT_NE(starter(), nullptr);
  std::string input;
  for (int i = 0; i < 1000; ++i) input += "0\n";
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Session s = play(input, {"", seed});
    EXPECT_EQ(s.code, 0);
    EXPECT_TRUE(contains(s.out, "victory on turn") || contains(s.out, "defeat on turn")) << s.out;
    EXPECT_FALSE(contains(s.out, "end of input")) << "the battle did not end within 1000 choices";
    EXPECT_FALSE(contains(s.out, "refused")) << s.out;
    EXPECT_TRUE(contains(s.out, "-> play Strike")) << s.out;
    EXPECT_TRUE(contains(s.out, "-> end turn")) << s.out;
  }
}

TEST(SimPlaySession, TheSameSeedPlaysTheSameBattle) {
  ASSERT_NE(starter(), nullptr);
  std::string input;
  for (int i = 0; i < 1000; ++i) input += "0\n";
  EXPECT_EQ(play(input, {"w1", 9}).out, play(input, {"w1", 9}).out);
}

TEST(SimPlaySession, UnknownEncounterReturnsTwo) {
  ASSERT_NE(starter(), nullptr);
  const Session s = play("quit\n", {"no_such_encounter", 1});
  EXPECT_EQ(s.code, 2);
  EXPECT_TRUE(contains(s.err, "no_such_encounter")) << s.err;
}

}  // namespace
}  // namespace battlecore::sim
