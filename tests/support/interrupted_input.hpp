#pragma once
// Input to a play session that Ctrl-C interrupts at a line of the test's choosing: the lines come
// one read at a time, and the read that gives line `at` sets the interrupt flag first, as a
// signal arriving while the session reads would. That line comes back with the flag set; the
// lines after it wait in the input, as lines piped ahead of the interrupt do.

#include <cstddef>
#include <istream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "battlecore/core/play_input.hpp"

namespace battlecore::test {

class InterruptedInput final : public std::streambuf {
 public:
  /// `lines`, each with its newline; the flag is set as line `at` (0: the first) is read, or as
  /// the end is met when `at` is the number of lines.
  InterruptedInput(std::vector<std::string> lines, std::size_t at) : lines_(std::move(lines)), at_(at) {}
  InterruptedInput(const InterruptedInput&) = delete;
  InterruptedInput& operator=(const InterruptedInput&) = delete;

  /// The stream and the flag for the session to read.
  PlayInput input() { return {stream_, &flag_}; }
  bool interrupted() const { return flag_ != 0; }
  /// How many lines the session has been given (the one it was interrupted in included).
  std::size_t lines_given() const { return next_; }

 protected:
  int_type underflow() override {
    if (next_ == at_) flag_ = 1;
    if (next_ == lines_.size()) return traits_type::eof();
    std::string& line = lines_[next_++];
    setg(line.data(), line.data(), line.data() + line.size());
    return line.empty() ? underflow() : traits_type::to_int_type(line.front());
  }

 private:
  std::vector<std::string> lines_;
  std::size_t at_;
  std::size_t next_ = 0;
  InterruptFlag flag_ = 0;
  std::istream stream_{this};
};

/// A session's output `out`, which its input's end ended, as Ctrl-C would have ended it at that
/// read instead; "(not ended by its input's end)" when `out` does not end so.
inline std::string ended_by_interrupt(std::string out) {
  const std::string end = "end of input: leaving the battle\n";
  if (!out.ends_with(end)) return "(not ended by its input's end)";
  return out.replace(out.size() - end.size(), end.size(), "interrupted: leaving the battle\n");
}

}  // namespace battlecore::test
