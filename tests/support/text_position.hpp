#pragma once
// Where a piece of text stands in a file, as diagnostics print it: for tests that check a
// problem is reported at its line and column.

#include <algorithm>
#include <cstddef>
#include <string>

namespace battlecore::test {

/// "LINE:COL" (1-based, columns in bytes) of occurrence `nth` (0 = the first) of `needle` in `text`.
inline std::string position_of(const std::string& text, const std::string& needle, std::size_t nth = 0) {
  std::size_t at = text.find(needle);
  for (; nth > 0 && at != std::string::npos; --nth) at = text.find(needle, at + 1);
  const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

}  // namespace battlecore::test
