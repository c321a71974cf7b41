#pragma once
/// The content hash written into replays: a stable 64-bit FNV-1a hash of the content as parsed,
/// independent of whitespace, key order and where the pack lives.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "battlecore/content/json_reader.hpp"

namespace battlecore::content {

/// The FNV-1a 64-bit offset basis.
inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;

/// FNV-1a 64 of `bytes`, continuing from `h`.
constexpr std::uint64_t fnv1a(std::uint64_t h, std::string_view bytes) {
  for (char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  return h;
}

/// The canonical hash of a list of parsed documents, in the order given (a pack's files come in
/// file-name order): for each document, its file name without directories, a NUL, its JSON
/// dumped canonically (no spaces, object keys sorted by byte, as nlohmann::json::dump writes),
/// and a NUL.
std::uint64_t canonical_content_hash(const std::vector<JsonDocument>& documents);

/// A 64-bit hash as 16 lower-case hex digits (the form replays and snapshots use).
std::string hash_to_hex(std::uint64_t h);
/// Parses 16 lower-case hex digits back, the one form hash_to_hex writes; nullopt for anything
/// else, upper case included (a file written by hand with it is told so, not read another way).
std::optional<std::uint64_t> hash_from_hex(std::string_view text);

}  // namespace battlecore::content
