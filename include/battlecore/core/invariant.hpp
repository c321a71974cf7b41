#pragma once
/// Engine invariants: a broken one throws InvariantError naming the file, the line and the
/// values involved. A simulator catches it per battle and reports the seed and actions.

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace battlecore {

/// Thrown when the engine itself is wrong (never for bad content or an illegal action).
class InvariantError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// What a caught exception says: its what(), or "unknown error" for one that is no std::exception.
inline std::string exception_message(const std::exception_ptr& caught) {
  try {
    std::rethrow_exception(caught);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
  }
  return "unknown error";
}

namespace detail {
[[noreturn]] void invariant_failed(const char* file, int line, const std::string& what);

/// The failure path of BATTLECORE_ENSURE, out of line and cold: the message is formatted only
/// here, so a check costs its caller one predictable branch and does not stop inlining.
template <class... Args>
[[noreturn, gnu::cold, gnu::noinline]] void ensure_failed(const char* file, int line, const char* cond,
                                                          fmt::format_string<Args...> message, Args... args) {
  invariant_failed(file, line, std::string(cond) + ": " + fmt::format(message, std::move(args)...));
}
}  // namespace detail

}  // namespace battlecore

/// Checks `cond`; on failure throws InvariantError with the file, line, text and message.
#define BATTLECORE_ENSURE(cond, ...)                                               \
  do {                                                                             \
    if (!(cond)) [[unlikely]]                                                      \
      ::battlecore::detail::ensure_failed(__FILE__, __LINE__, #cond, __VA_ARGS__); \
  } while (false)
