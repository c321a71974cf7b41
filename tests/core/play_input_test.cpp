#include "battlecore/core/play_input.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "support/interrupted_input.hpp"

namespace battlecore {
namespace {

TEST(PlayInput, TrimsBlanksAroundACommand) {
  EXPECT_EQ(trim_input(" \t 3 \r\n"), "3");
  EXPECT_EQ(trim_input("log 5"), "log 5");
  EXPECT_EQ(trim_input(" \r\n"), "");
}

TEST(PlayInput, ReadsANumberOnlyWhenTheWholeLineIsOne) {
  EXPECT_EQ(read_input_number("12").kind, InputNumber::Kind::Number);
  EXPECT_EQ(read_input_number("12").value, 12u);
  EXPECT_EQ(read_input_number("0").value, 0u);
  for (const char* text : {"", "-1", "3x", "x3", "1.5", " 4", "+2"})
    EXPECT_EQ(read_input_number(text).kind, InputNumber::Kind::NotANumber) << text;
  // Digits past what a count holds are a number still, too large for any option.
  const InputNumber big = read_input_number("18446744073709551616");
  EXPECT_EQ(big.kind, InputNumber::Kind::TooLarge);
  EXPECT_EQ(read_input_number("18446744073709551615").kind, InputNumber::Kind::Number);
  EXPECT_EQ(read_input_number(std::string(5000, '9')).kind, InputNumber::Kind::TooLarge);
}

TEST(PlayInput, AnEchoShowsControlCharactersAndStopsAfterFortyBytes) {
  EXPECT_EQ(echo_input("hello"), "hello");
  EXPECT_EQ(echo_input("\x1b[31mred"), "\\x1B[31mred");
  EXPECT_EQ(echo_input(std::string("a\0b\x7f", 4)), "a\\x00b\\x7F");
  EXPECT_EQ(echo_input(std::string(40, 'x')), std::string(40, 'x'));
  EXPECT_EQ(echo_input(std::string(5'000'000, '9')), std::string(40, '9') + "...");
  // A cut never splits a character: "é" is two bytes, the 40th and the 41st.
  EXPECT_EQ(echo_input(std::string(39, 'x') + "\xC3\xA9" + "y"), std::string(39, 'x') + "...");
  EXPECT_EQ(echo_input(std::string(38, 'x') + "\xC3\xA9" + "y"), std::string(38, 'x') + "\xC3\xA9...");
}

constexpr std::string_view kHelp = "commands: N, state, history, log [N], help, quit\n";

/// What read_play_command makes of `input`, and what it wrote while reading it.
struct Read {
  PlayCommand command;
  std::string out;
  std::string rest;  ///< the input it left unread
};

Read read(const std::string& input, std::size_t options = 3, std::string_view choice = "option",
          std::span<const std::string_view> own = {}) {
  std::istringstream in(input);
  std::ostringstream out;
  Read r;
  r.command = read_play_command(in, out, {kHelp, choice, options, own});
  r.out = out.str();
  std::getline(in, r.rest, '\0');
  return r;
}

TEST(PlayCommand, TheEndOfTheInputLeavesTheBattle) {
  const Read r = read("");
  EXPECT_EQ(r.command.kind, PlayCommand::Kind::EndOfInput);
  EXPECT_EQ(r.out, "> \nend of input: leaving the battle\n");
  // A last line without its newline is read still.
  EXPECT_EQ(read("state").command.kind, PlayCommand::Kind::State);
}

TEST(PlayCommand, BlankLinesPromptAgain) {
  const Read r = read("\n  \t\n\r\nstate\nhistory\n");
  EXPECT_EQ(r.command.kind, PlayCommand::Kind::State);
  EXPECT_EQ(r.out, "> > > > ");
  EXPECT_EQ(r.rest, "history\n");
  EXPECT_EQ(read("\n\n").out, "> > > \nend of input: leaving the battle\n");
}

TEST(PlayCommand, QuitExitAndQLeaveTheBattle) {
  for (const char* line : {"quit\n", "exit\n", "q\n", "  quit \r\n"}) {
    const Read r = read(line);
    EXPECT_EQ(r.command.kind, PlayCommand::Kind::Quit) << line;
    EXPECT_EQ(r.out, "> you leave the battle\n") << line;
  }
  // Commands are read as they are written: "Quit" is none.
  EXPECT_EQ(
      read("Quit\n").out,
      "> 'Quit' is not a command or an option number; type 'help'\n> \nend of input: leaving the battle\n");
}

TEST(PlayCommand, HelpPrintsTheRuleSetsTextAndReadsOn) {
  const Read r = read("help\n?\nhistory\n");
  EXPECT_EQ(r.command.kind, PlayCommand::Kind::History);
  EXPECT_EQ(r.out, "> " + std::string(kHelp) + "> " + std::string(kHelp) + "> ");
}

TEST(PlayCommand, StateAndHistoryAreTheSessionsToShow) {
  EXPECT_EQ(read("state\n").command.kind, PlayCommand::Kind::State);
  EXPECT_EQ(read(" history\n").command.kind, PlayCommand::Kind::History);
  EXPECT_EQ(read("state\n").out, "> ");
}

TEST(PlayCommand, ARuleSetsOwnCommandIsReturnedByItsWord) {
  constexpr std::array<std::string_view, 2> kOwn = {"json", "map"};
  const Read json = read("json\n", 3, "option", kOwn);
  EXPECT_EQ(json.command.kind, PlayCommand::Kind::Own);
  EXPECT_EQ(json.command.word, "json");
  EXPECT_EQ(read(" map \n", 3, "option", kOwn).command.word, "map");
  // Where the rule set has no such command, it is not one.
  const Read none = read("json\n");
  EXPECT_EQ(none.command.kind, PlayCommand::Kind::EndOfInput);
  EXPECT_EQ(
      none.out,
      "> 'json' is not a command or an option number; type 'help'\n> \nend of input: leaving the battle\n");
}

TEST(PlayCommand, LogWithoutACountAsksForTheLastTwenty) {
  for (const char* line : {"log\n", "log   \n", " log\r\n"}) {
    const Read r = read(line);
    EXPECT_EQ(r.command.kind, PlayCommand::Kind::Log) << line;
    EXPECT_EQ(r.command.number, 20u) << line;
    EXPECT_EQ(r.out, "> ") << line;
  }
}

TEST(PlayCommand, LogTakesAnyCountTheLargestForOnePastWhatACountHolds) {
  EXPECT_EQ(read("log 5\n").command.number, 5u);
  EXPECT_EQ(read("log \t 7 \n").command.number, 7u);
  EXPECT_EQ(read("log 0\n").command.number, 0u);
  // More than any option count: a count, not an option.
  EXPECT_EQ(read("log 1000\n", 3).command.number, 1000u);
  const Read big = read("log 18446744073709551616\n");
  EXPECT_EQ(big.command.kind, PlayCommand::Kind::Log);
  EXPECT_EQ(big.command.number, std::numeric_limits<std::size_t>::max());
}

TEST(PlayCommand, LogWithSomethingElseThanACountPrintsItsUsageAndReadsOn) {
  for (const char* line : {"log x\n", "log -1\n", "log 2 3\n", "logs\n", "log 1.5\n"}) {
    const Read r = read(std::string(line) + "state\n");
    EXPECT_EQ(r.command.kind, PlayCommand::Kind::State) << line;
    EXPECT_EQ(r.out, "> usage: log [N]\n> ") << line;
  }
}

TEST(PlayCommand, ANumberBelowTheOptionCountIsThatOption) {
  for (std::size_t n = 0; n < 3; ++n) {
    const Read r = read(std::to_string(n) + "\n");
    EXPECT_EQ(r.command.kind, PlayCommand::Kind::Option);
    EXPECT_EQ(r.command.number, n);
    EXPECT_EQ(r.out, "> ");
  }
  EXPECT_EQ(read("  2 \r\n").command.number, 2u);
}

TEST(PlayCommand, ANumberPastTheOptionsNamesTheOnesThereAreAndReadsOn) {
  const Read r = read("3\n1\n");
  EXPECT_EQ(r.command.kind, PlayCommand::Kind::Option);
  EXPECT_EQ(r.command.number, 1u);
  EXPECT_EQ(r.out, "> no option 3: choose 0 to 2\n> ");
  EXPECT_EQ(read("18446744073709551616\n").out,
            "> no option 18446744073709551616: choose 0 to 2\n> \nend of input: leaving the battle\n");
  EXPECT_EQ(read("7\n", 5, "action").out,
            "> no action 7: choose 0 to 4\n> \nend of input: leaving the battle\n");
}

TEST(PlayCommand, WhatIsNeitherACommandNorANumberIsEchoedAndReadOn) {
  EXPECT_EQ(
      read("x\n", 3, "action").out,
      "> 'x' is not a command or an action number; type 'help'\n> \nend of input: leaving the battle\n");
  for (const char* line : {"-1\n", "+1\n", "1x\n", "state now\n"}) {
    const Read r = read(std::string(line) + "0\n");
    EXPECT_EQ(r.command.kind, PlayCommand::Kind::Option) << line;
    EXPECT_TRUE(r.out.ends_with(" is not a command or an option number; type 'help'\n> ")) << r.out;
  }
  // The line is echoed as echo_input gives it: a control character is not sent to the terminal.
  EXPECT_EQ(read("\x1b[2J\n").out,
            "> '\\x1B[2J' is not a command or an option number; type 'help'\n> \nend of input: leaving the "
            "battle\n");
}

// Ctrl-C's flag ends the reading: once it is set no line is interpreted, whatever the input holds.
TEST(PlayCommand, AnInterruptSetBeforeTheReadLeavesWithoutReadingALine) {
  std::istringstream in("0\nstate\nquit\n");
  std::ostringstream out;
  const InterruptFlag interrupted = 1;
  const PlayCommand command = read_play_command({in, &interrupted}, out, {kHelp, "option", 3, {}});
  EXPECT_EQ(command.kind, PlayCommand::Kind::Interrupted);
  EXPECT_TRUE(command.leaves());
  EXPECT_EQ(out.str(), "interrupted: leaving the battle\n");
  std::string rest;
  std::getline(in, rest, '\0');
  EXPECT_EQ(rest, "0\nstate\nquit\n");
}

// Lines piped ahead sit in the stream's buffer; an interrupt after a command leaves them unplayed.
TEST(PlayCommand, AnInterruptAfterACommandLeavesAtTheNextReadWithTheLinesAheadUnplayed) {
  std::istringstream in("1\n2\nstate\nquit\n");
  std::ostringstream out;
  InterruptFlag interrupted = 0;
  const PlayPrompt prompt{kHelp, "option", 3, {}};
  const PlayCommand first = read_play_command({in, &interrupted}, out, prompt);
  EXPECT_EQ(first.kind, PlayCommand::Kind::Option);
  EXPECT_EQ(first.number, 1u);
  interrupted = 1;
  for (int again = 0; again < 2; ++again) {  // and the session stays left
    const PlayCommand next = read_play_command({in, &interrupted}, out, prompt);
    EXPECT_EQ(next.kind, PlayCommand::Kind::Interrupted);
  }
  EXPECT_EQ(out.str(), "> interrupted: leaving the battle\ninterrupted: leaving the battle\n");
  std::string rest;
  std::getline(in, rest, '\0');
  EXPECT_EQ(rest, "2\nstate\nquit\n");
}

// An interrupt that comes while a line is read: the line read is not interpreted, be it a number,
// a command, `quit`, help, a blank or a bad line.
TEST(PlayCommand, ALineReadAsTheInterruptComesIsNotInterpreted) {
  for (const char* line : {"0\n", "state\n", "quit\n", "help\n", "\n", "bogus\n", "7\n"}) {
    test::InterruptedInput input({"2\n", line, "1\n"}, 1);
    std::ostringstream out;
    const PlayPrompt prompt{kHelp, "option", 3, {}};
    EXPECT_EQ(read_play_command(input.input(), out, prompt).number, 2u) << line;
    EXPECT_FALSE(input.interrupted()) << line;
    const PlayCommand command = read_play_command(input.input(), out, prompt);
    EXPECT_TRUE(input.interrupted()) << line;
    EXPECT_EQ(command.kind, PlayCommand::Kind::Interrupted) << line;
    EXPECT_EQ(out.str(), "> > \ninterrupted: leaving the battle\n") << line;
    EXPECT_EQ(input.lines_given(), 2u) << line;
  }
  // A read that ends as the interrupt comes (Ctrl-C at a terminal's prompt) says interrupted, not
  // the end of the input.
  test::InterruptedInput input({"0\n"}, 1);
  std::ostringstream out;
  const PlayPrompt prompt{kHelp, "option", 3, {}};
  EXPECT_EQ(read_play_command(input.input(), out, prompt).kind, PlayCommand::Kind::Option);
  EXPECT_EQ(read_play_command(input.input(), out, prompt).kind, PlayCommand::Kind::Interrupted);
  EXPECT_EQ(out.str(), "> > \ninterrupted: leaving the battle\n");
}

TEST(PlayCommand, TheLastEventsAreAllOfThemWhenTheLogHoldsFewer) {
  const std::vector<int> log = {1, 2, 3, 4, 5};
  const auto last = [&](std::size_t count) {
    std::ostringstream out;
    print_last_events(log, count, out, [](int e) { return "event " + std::to_string(e); });
    return out.str();
  };
  EXPECT_EQ(last(2), "  event 4\n  event 5\n");
  EXPECT_EQ(last(0), "");
  EXPECT_EQ(last(5), last(6));
  EXPECT_EQ(last(std::numeric_limits<std::size_t>::max()),
            "  event 1\n  event 2\n  event 3\n  event 4\n  event 5\n");
}

}  // namespace
}  // namespace battlecore
