#pragma once
// Long JSON lists for content tests, built at test time rather than kept on disk.

#include <cstddef>
#include <string>

namespace battlecore::test {

/// `count` JSON values, `value(i)` for each i, separated by commas, each on a line of its own:
/// value i stands i lines below the text before the list.
template <class Value>
std::string json_list(std::size_t count, Value value) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i == 0 ? "\n" : ",\n") + value(i);
  return out;
}

}  // namespace battlecore::test
