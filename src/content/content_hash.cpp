#include "battlecore/content/content_hash.hpp"

#include <filesystem>

#include <fmt/format.h>

namespace battlecore::content {

std::uint64_t canonical_content_hash(const std::vector<JsonDocument>& documents) {
  std::uint64_t h = kFnvOffset;
  const std::string_view nul("\0", 1);
  for (const JsonDocument& d : documents) {
    h = fnv1a(h, std::filesystem::path(d.file).filename().string());
    h = fnv1a(h, nul);
    h = fnv1a(h, d.root.dump());
    h = fnv1a(h, nul);
  }
  return h;
}

std::string hash_to_hex(std::uint64_t h) { return fmt::format("{:016x}", h); }

std::optional<std::uint64_t> hash_from_hex(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char ch : text) {
    std::uint64_t d = 0;
    if (ch >= '0' && ch <= '9')
      d = static_cast<std::uint64_t>(ch - '0');
    else if (ch >= 'a' && ch <= 'f')
      d = static_cast<std::uint64_t>(ch - 'a' + 10);
    else
      return std::nullopt;
    v = (v << 4) | d;
  }
  return v;
}

}  // namespace battlecore::content
