#pragma once
/// Content diagnostics: every problem in a content file, collected, never thrown.
/// Printed as `FILE:LINE:COL: /json/pointer: message`; the position is left out when unknown
/// and the pointer when it is empty (a problem with the whole file).

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace battlecore::content {

/// One problem found in content.
struct Diagnostic {
  std::string file;     ///< the file as given on the command line or found in the pack
  int line = 0;         ///< 1-based; 0 when unknown
  int column = 0;       ///< 1-based; 0 when unknown
  std::string pointer;  ///< RFC 6901 JSON pointer of the offending value ("" for the whole file)
  std::string message;  ///< what was expected, and what was found
};

/// `FILE:LINE:COL: POINTER: MESSAGE`. Without a position (line 0) `FILE: POINTER: MESSAGE`; with
/// a line but no column `FILE:LINE: ...`; with an empty pointer `FILE:LINE:COL: MESSAGE`.
std::string format_diagnostic(const Diagnostic& d);

/// The problems of one load, in the order found.
class Diagnostics {
 public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  /// Every diagnostic formatted, one per line.
  std::string to_string() const;

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace battlecore::content
