#include "battlecore/content/diagnostics.hpp"

#include <fmt/format.h>

namespace battlecore::content {

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.file;
  if (d.line > 0) out += fmt::format(":{}", d.line);
  if (d.line > 0 && d.column > 0) out += fmt::format(":{}", d.column);
  // Each part is followed by ": " only when present, so a whole-file problem without a position
  // reads `FILE: message` rather than `FILE: : message`.
  if (!out.empty()) out += ": ";
  if (!d.pointer.empty()) out += d.pointer + ": ";
  out += d.message;
  return out;
}

std::string Diagnostics::to_string() const {
  std::string out;
  for (const Diagnostic& d : items_) {
    out += format_diagnostic(d);
    out += '\n';
  }
  return out;
}

}  // namespace battlecore::content
