#pragma once
// What the interactive sessions (`battlecore play`) read from a line (the command without its
// blanks, a number in it, and the line as it is echoed back in a message), and how they tell
// what happened since the last decision.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
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

/// Prints, indented, the words `text(event)` gives for each event of `log` from `shown` on (an event
/// it gives nullopt for is left out), and moves `shown` to the log's end. While `text` runs, `shown`
/// is the index of its event, so that it may look at the events around it.
template <class Log, class Text>
void print_new_events(const Log& log, std::size_t& shown, std::ostream& out, Text&& text) {
  for (; shown < log.size(); ++shown)
    if (const std::optional<std::string> line = text(log[shown])) out << "  " << *line << "\n";
}

}  // namespace battlecore
