#pragma once
// What the interactive sessions (`battlecore play`) read from a line (the command without its
// blanks, a number in it, and the line as it is echoed back in a message), the commands every
// rule set's prompt answers alike (read_play_command), where they read them from (PlayInput: a
// stream, and a flag that ends the session), and how they tell what happened since the last
// decision.

#include <charconv>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

namespace battlecore {

/// `s` without the blanks around it.
inline std::string trim_input(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

/// The most characters of a line that a message echoes.
inline constexpr std::size_t kEchoedInput = 40;

/// `s` as a message quotes it: control characters as \xNN (a terminal would act on them), and
/// cut after kEchoedInput bytes, at a character's start, with "..." after it.
inline std::string echo_input(std::string_view s) {
  std::size_t keep = s.size();
  if (keep > kEchoedInput) {
    keep = kEchoedInput;
    while (keep > 0 && (static_cast<unsigned char>(s[keep]) & 0xC0) == 0x80) --keep;
  }
  std::string out;
  for (std::size_t i = 0; i < keep; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F)
      out += fmt::format("\\x{:02X}", c);
    else
      out += static_cast<char>(c);
  }
  if (keep < s.size()) out += "...";
  return out;
}

/// A line read as a number: its digits, all of them.
struct InputNumber {
  enum class Kind : std::uint8_t { Number, TooLarge, NotANumber };
  Kind kind = Kind::NotANumber;
  std::size_t value = 0;
};

inline InputNumber read_input_number(std::string_view s) {
  InputNumber n;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n.value);
  if (p != s.data() + s.size() || s.empty()) return n;
  if (ec == std::errc::result_out_of_range) {
    n.kind = InputNumber::Kind::TooLarge;
    n.value = std::numeric_limits<std::size_t>::max();
  } else if (ec == std::errc()) {
    n.kind = InputNumber::Kind::Number;
  }
  return n;
}

/// How many of the last events `log` shows when it is given no count.
inline constexpr std::size_t kLoggedEvents = 20;

/// What differs between the rule sets' prompts.
struct PlayPrompt {
  std::string_view help;    ///< what `help` and `?` print
  std::string_view choice;  ///< what a number chooses, as the messages name it: "action" or "option"
  std::size_t options = 0;  ///< how many there are to choose from: numbers 0 to options - 1
  /// Words the rule set answers itself (the party's `json`), before `log` and the numbers.
  std::span<const std::string_view> own_commands = {};
};

/// A flag set from outside a session to end it at its next read: Ctrl-C's (a signal handler can
/// set no other kind of variable).
using InterruptFlag = volatile std::sig_atomic_t;

/// Where a session reads its commands: the lines of `in`, until `*interrupted` (when there is
/// one) is set. From then on no line is interpreted, those already read ahead into the stream's
/// buffer (a pipe's) included.
struct PlayInput {
  PlayInput(std::istream& stream, const InterruptFlag* flag = nullptr)  // NOLINT: implicit by design
      : in(stream), interrupted(flag) {}
  std::istream& in;
  const InterruptFlag* interrupted = nullptr;  ///< none: only the end of `in` ends the reading
  bool is_interrupted() const { return interrupted != nullptr && *interrupted != 0; }
};

/// A line at the prompt that asks the session for something.
struct PlayCommand {
  enum class Kind : std::uint8_t {
    EndOfInput,   ///< the input ended: the session is left
    Interrupted,  ///< PlayInput's flag was set (Ctrl-C): the session is left, no further line played
    Quit,         ///< `quit`, `exit` or `q`: the session is left
    State,        ///< `state`: show the battle again
    History,      ///< `history`: the phase transition history
    Log,          ///< `log [N]`: the last `number` events (a count past the log's size: all of them)
    Own,          ///< `word`, one of PlayPrompt::own_commands
    Option,       ///< a number: take option `number`, below PlayPrompt::options
  };
  Kind kind = Kind::EndOfInput;
  std::size_t number = 0;  ///< Log: how many events; Option: which option
  std::string_view word;   ///< Own: the command, as PlayPrompt::own_commands holds it
  /// EndOfInput, Interrupted or Quit: the session ends.
  bool leaves() const { return kind == Kind::EndOfInput || kind == Kind::Interrupted || kind == Kind::Quit; }
};

/// Prompts with "> " and reads lines from `input.in` until one asks the session for something.
/// Blank lines prompt again; `help` (or `?`) prints `prompt.help`, and a line that is not a
/// command nor the number of an option is answered on `out` (a usage, or the numbers there are),
/// then the prompt comes again. The interrupt flag is looked at before each prompt and after each
/// read: once it is set, Interrupted is returned and the line read (if any) is left uninterpreted.
/// Leaving (Quit, EndOfInput, Interrupted) is said on `out` before it is returned.
PlayCommand read_play_command(PlayInput input, std::ostream& out, const PlayPrompt& prompt);

/// Prints, indented, `text(event)` for each of the last `count` events of `log` (all of them when
/// the log holds fewer).
template <class Log, class Text>
void print_last_events(const Log& log, std::size_t count, std::ostream& out, Text&& text) {
  for (std::size_t i = log.size() > count ? log.size() - count : 0; i < log.size(); ++i)
    out << "  " << text(log[i]) << "\n";
}

/// Answers a command that shows the battle, alike in every rule set, and returns true: State by
/// `show()`; History by the phase transitions, the turn counter named `turn_word` and the phases
/// padded to `phase_width`; Log by the last events as `event_json(event)` writes them. False for
/// any other command.
template <class Battle, class Show, class EventJson>
bool answer_shown(const PlayCommand& command, const Battle& battle, std::ostream& out, Show&& show,
                  std::string_view turn_word, std::size_t phase_width, EventJson&& event_json) {
  switch (command.kind) {
    case PlayCommand::Kind::State:
      show();
      return true;
    case PlayCommand::Kind::History:
      for (const auto& r : battle.history())
        out << fmt::format("  #{:<4} {} {:<3} {:<{}} --{}--> {}\n", r.sequence, turn_word, r.turn,
                           phase_name(r.from), phase_width, trigger_name(r.trigger), phase_name(r.to));
      return true;
    case PlayCommand::Kind::Log:
      print_last_events(battle.events().log(), command.number, out, event_json);
      return true;
    default:
      return false;
  }
}

/// Prints, indented, the words `text(event)` gives for each event of `log` from `shown` on (an event
/// it gives nullopt for is left out), and moves `shown` to the log's end. While `text` runs, `shown`
/// is the index of its event, so that it may look at the events around it.
template <class Log, class Text>
void print_new_events(const Log& log, std::size_t& shown, std::ostream& out, Text&& text) {
  for (; shown < log.size(); ++shown)
    if (const std::optional<std::string> line = text(log[shown])) out << "  " << *line << "\n";
}

}  // namespace battlecore
