#include "battlecore/core/invariant.hpp"

namespace battlecore::detail {

void invariant_failed(const char* file, int line, const std::string& what) {
  throw InvariantError(fmt::format("{}:{}: invariant broken: {}", file, line, what));
}

}  // namespace battlecore::detail
