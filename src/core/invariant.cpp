#include "battlecore/core/invariant.hpp"

#include <string_view>

namespace battlecore::detail {

namespace {

/// `file` (a __FILE__) from the project's root: `include/battlecore/core/fixed_vec.hpp`, not the
/// directory the project was built in. The message goes into reports and replays
/// (`engine_error`), which must be the same from any checkout.
std::string_view from_project_root(std::string_view file) {
  constexpr std::string_view root = BATTLECORE_SOURCE_DIR "/";
  if (file.starts_with(root)) file.remove_prefix(root.size());
  return file;
}

}  // namespace

void invariant_failed(const char* file, int line, const std::string& what) {
  throw InvariantError(fmt::format("{}:{}: invariant broken: {}", from_project_root(file), line, what));
}

}  // namespace battlecore::detail
