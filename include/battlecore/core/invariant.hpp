#pragma once
/// Engine invariants: a broken one throws InvariantError naming the file, the line and the
/// values involved. A simulator catches it per battle and reports the seed and actions.

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace battlecore {

/// Thrown when the engine itself is wrong (never for bad content or an illegal action).
class InvariantError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {
[[noreturn]] void invariant_failed(const char* file, int line, const std::string& what);
}  // namespace detail

}  // namespace battlecore

/// Checks `cond`; on failure throws InvariantError with the file, line, text and message.
#define BATTLECORE_ENSURE(cond, ...)                                                                \
  do {                                                                                              \
    if (!(cond)) [[unlikely]]                                                                       \
      ::battlecore::detail::invariant_failed(__FILE__, __LINE__,                                    \
                                             std::string(#cond) + ": " + fmt::format(__VA_ARGS__)); \
  } while (false)
