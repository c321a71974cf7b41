#include "battlecore/core/play_input.hpp"

#include <istream>
#include <ostream>
#include <string>

#include <fmt/format.h>

namespace battlecore {

PlayCommand read_play_command(PlayInput input, std::ostream& out, const PlayPrompt& prompt) {
  using Kind = PlayCommand::Kind;
  const auto asks = [](Kind kind, std::size_t number = 0) { return PlayCommand{kind, number, {}}; };
  // `after_prompt`: the prompt's line is open, and is ended first.
  const auto interrupted = [&](bool after_prompt) {
    out << (after_prompt ? "\n" : "") << "interrupted: leaving the battle\n";
    return asks(Kind::Interrupted);
  };
  std::string line;
  while (true) {
    if (input.is_interrupted()) return interrupted(false);
    out << "> " << std::flush;
    const bool read = static_cast<bool>(std::getline(input.in, line));
    // A line read once the flag is set (one the stream had read ahead from a pipe, say) is not played.
    if (input.is_interrupted()) return interrupted(true);
    if (!read) {
      out << "\nend of input: leaving the battle\n";
      return asks(Kind::EndOfInput);
    }
    const std::string cmd = trim_input(line);
    if (cmd.empty()) continue;
    if (cmd == "quit" || cmd == "exit" || cmd == "q") {
      out << "you leave the battle\n";
      return asks(Kind::Quit);
    }
    if (cmd == "help" || cmd == "?") {
      out << prompt.help;
      continue;
    }
    if (cmd == "state") return asks(Kind::State);
    if (cmd == "history") return asks(Kind::History);
    for (const std::string_view own : prompt.own_commands)
      if (cmd == own) return {Kind::Own, 0, own};
    if (cmd.starts_with("log")) {
      const std::string arg = trim_input(std::string_view(cmd).substr(3));
      if (arg.empty()) return asks(Kind::Log, kLoggedEvents);
      const InputNumber count = read_input_number(arg);
      if (count.kind == InputNumber::Kind::NotANumber) {
        out << "usage: log [N]\n";
        continue;
      }
      return asks(Kind::Log, count.value);  // too large for a count: the largest, past any log's size
    }
    const InputNumber number = read_input_number(cmd);
    if (number.kind == InputNumber::Kind::NotANumber) {
      out << fmt::format("'{}' is not a command or an {} number; type 'help'\n", echo_input(cmd),
                         prompt.choice);
      continue;
    }
    if (number.kind == InputNumber::Kind::TooLarge || number.value >= prompt.options) {
      out << fmt::format("no {} {}: choose 0 to {}\n", prompt.choice, echo_input(cmd), prompt.options - 1);
      continue;
    }
    return asks(Kind::Option, number.value);
  }
}

}  // namespace battlecore
