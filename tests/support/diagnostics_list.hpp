#pragma once
// Diagnostics as "POINTER: MESSAGE" lines, for tests that check every problem reported and its
// order, positions apart.

#include <string>
#include <vector>

#include "battlecore/content/diagnostics.hpp"

namespace battlecore::test {

/// "POINTER: MESSAGE" for each diagnostic, in the order reported.
inline std::vector<std::string> pointed_messages(const content::Diagnostics& diags) {
  std::vector<std::string> lines;
  for (const content::Diagnostic& d : diags.items()) lines.push_back(d.pointer + ": " + d.message);
  return lines;
}

}  // namespace battlecore::test
