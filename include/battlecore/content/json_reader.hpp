#pragma once
/// Strict JSON reading for content: parse a file keeping its text (so a JSON pointer can be
/// turned back into a line and column), and read objects field by field, reporting every
/// wrong type, out-of-range number, missing field and unknown key into Diagnostics.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/diagnostics.hpp"

namespace battlecore::content {

/// What JsonDocument::locate learns of a text as it goes: where the values of each array and
/// object it has walked through start, and how many lines come before each block of the text. So
/// locating many values (a diagnostic for each of thousands of items) scans each container once,
/// not once per value, and counts lines from a nearby block rather than from the start. It belongs
/// to one text: a copy starts empty, and so does one whose text has moved to another address or
/// changed its size (a text changed in place, at the same size, must not be located in again).
/// Locating is safe from several threads at once.
class LocateIndex {
 public:
  LocateIndex() = default;
  // Empty, and so cannot throw: a JsonDocument moves without copying its parsed tree (a vector
  // of documents that grows moves them only when that cannot throw).
  LocateIndex(const LocateIndex& /*other*/) noexcept {}
  LocateIndex& operator=(const LocateIndex& other);

  /// 1-based {line, column} of the value at `tokens` (unescaped pointer tokens) in `text`, as
  /// JsonDocument::locate gives it; {0, 0} when they do not resolve.
  std::pair<int, int> locate(std::string_view text, std::span<const std::string> tokens) const;

 private:
  /// The offsets of a container's values: an array's in order, an object's by key (the last one
  /// for a repeated key, as the parser keeps it).
  struct Container {
    std::vector<std::size_t> elements;
    std::map<std::string, std::size_t, std::less<>> members;
  };
  /// Lines before the start of a block of the text, and where the line holding that start begins.
  struct LineMark {
    std::size_t newlines = 0;
    std::size_t line_start = 0;
  };

  void use_text(std::string_view text) const;
  const Container& container_at(std::string_view text, std::size_t offset) const;
  std::pair<int, int> line_column(std::string_view text, std::size_t offset) const;

  mutable std::mutex mutex_;
  mutable const char* text_data_ = nullptr;
  mutable std::size_t text_size_ = 0;
  mutable std::unordered_map<std::size_t, Container> containers_;  ///< by the offset of '[' or '{'
  mutable std::vector<LineMark> line_marks_;                       ///< one per block of the text
};

/// A parsed JSON file and its text.
struct JsonDocument {
  std::string file;  ///< name used in diagnostics
  std::string text;
  nlohmann::json root;
  /// What locate has learnt of `text`; filled as values are located.
  LocateIndex locate_index{};

  /// 1-based {line, column} of the first character of the value at `pointer` ("" = root),
  /// or {0, 0} when the pointer does not resolve in the text (or is not a valid RFC 6901 pointer).
  /// Found by scanning `text`, as nlohmann::json keeps no positions: lines end at '\n', columns
  /// count bytes (not characters) as line_column does, and a repeated key resolves to its last
  /// occurrence, the one the parser keeps. Safe on malformed text.
  std::pair<int, int> locate(std::string_view pointer) const;
  /// A diagnostic for the value at `pointer`, with its position filled in.
  Diagnostic diagnostic(std::string pointer, std::string message) const;
};
static_assert(std::is_nothrow_move_constructible_v<JsonDocument>,
              "a vector of documents would copy each parsed tree as it grows");

/// The most levels of arrays and objects a JSON document may nest (the root container is level
/// 1). Far above any real content, it keeps recursive code over documents (copying, dumping,
/// hashing) within the stack.
inline constexpr std::size_t kMaxJsonDepth = 256;
/// The largest JSON file read, in bytes (64 MiB).
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{64} << 20;

/// 1-based {line, column} of byte `offset` in `text` (clamped to its end); columns count bytes,
/// after a leading UTF-8 byte order mark (which is no column).
std::pair<int, int> line_column(std::string_view text, std::size_t offset);

/// An array of the root object that parsing hands over element by element rather than keeping
/// it in the document, which gets an empty array in its place: a long list (a replay's actions)
/// is then never held as JSON values all at once. `restart` is called where the array opens (a
/// repeated key opens another, which replaces the first, as the parser keeps the last value),
/// then `element` with each element in order. A value of another type at `key` stays in the
/// document. The calls are made as the text is read, so they come before a syntax error further
/// on; the parse then fails as usual.
struct StreamedArray {
  std::string_view key;
  std::function<void()> restart;
  std::function<void(nlohmann::json&& element)> element;
};

/// Parses JSON text. A syntax error, or nesting deeper than kMaxJsonDepth ("nesting deeper than
/// 256 levels", at the bracket that passes the limit), yields a diagnostic with its line and
/// column, and nullopt. A key repeated within one object is reported at the repeated key, but
/// the document is still returned (keeping the last value, as the parser does) so its other
/// problems are found too. The arrays of the root object named in `streamed` are handed over
/// (StreamedArray) rather than kept.
std::optional<JsonDocument> parse_json_text(std::string file, std::string text, Diagnostics& diags,
                                            std::span<const StreamedArray> streamed = {});
/// Reads and parses a file. A path that is not a regular file (a directory, a FIFO, a device),
/// a file larger than kMaxJsonFileBytes, an unreadable file or a syntax error yields a diagnostic.
std::optional<JsonDocument> parse_json_file(const std::filesystem::path& path, Diagnostics& diags,
                                            std::span<const StreamedArray> streamed = {});

/// The JSON files of a content path: a directory gives its regular `*.json` files (extension
/// matched case-sensitively) sorted by file name, byte-wise, not recursive; a file gives itself.
/// A missing path, or a directory with no JSON file, yields a diagnostic and an empty list.
std::vector<std::filesystem::path> content_files(const std::filesystem::path& path, Diagnostics& diags);

/// A pack's documents: those of content_files(path) that could be read and parsed. `all_read` is
/// false when one could not (its problem is in `diags`); a loader then leaves out the problems
/// that file may answer: a reference to an id no document defines, a pack with no 'pack' object.
struct PackDocuments {
  std::vector<JsonDocument> docs;
  bool all_read = true;
};
PackDocuments read_pack_documents(const std::filesystem::path& path, Diagnostics& diags);

/// Whether `id` is a content id: 1 to 64 characters of a-z, 0-9, '_' and '-'.
bool valid_id(std::string_view id);

/// `base` + "/" + the key escaped per RFC 6901 (~ -> ~0, / -> ~1).
std::string child_pointer(std::string_view base, std::string_view key);
/// `base` + "/" + index.
std::string child_pointer(std::string_view base, std::size_t index);

/// A short description of a JSON value's type for messages: "a string", "an integer" (signed or
/// unsigned), "a number" (floating point), "a boolean", "null", "an array", "an object".
std::string describe_json_type(const nlohmann::json& value);

/// For a JSON object read without an ObjectReader (an action): "unknown key 'x'; allowed keys:
/// a, b" for its first key, in key order, that is not in `allowed`, or nullopt when there is none.
std::optional<std::string> unknown_key(const nlohmann::json& object,
                                       std::span<const std::string_view> allowed);

/// Reads one JSON object strictly. Each accessor declares its key as allowed; `finish()`
/// reports every key present but never asked for as unknown, listing the allowed keys.
/// When the value is not an object, the constructor reports it, `valid()` is false, and
/// every accessor returns nothing (nullopt, nullptr, or the fallback) without further reports.
/// Messages say what was expected and what was found; a missing key is reported at the object's
/// pointer, a bad value at the key's. Integers must be JSON integers: `1.0` is refused.
class ObjectReader {
 public:
  ObjectReader(const JsonDocument& doc, const nlohmann::json& value, std::string pointer, Diagnostics& diags);
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;

  /// Whether the value is an object (when not, that has been reported).
  bool valid() const { return object_ != nullptr; }
  /// The JSON pointer of this object.
  const std::string& pointer() const { return pointer_; }
  /// The document the object is in (it must outlive the reader).
  const JsonDocument& document() const { return doc_; }
  /// Where this reader reports.
  Diagnostics& diagnostics() const { return diags_; }
  /// Whether `key` is present; does not declare it allowed.
  bool has(std::string_view key) const;

  /// A string; missing or wrong type is reported.
  std::optional<std::string> required_string(std::string_view key);
  /// A string that follows the id rules (valid_id); missing, wrong type or not an id is reported,
  /// and gives nullopt.
  std::optional<std::string> required_id(std::string_view key);
  /// A string when present; a wrong type is reported.
  std::optional<std::string> optional_string(std::string_view key);
  /// A name shown on one line (a pack's, a card's, a seat's): a string without control
  /// characters (U+0000 to U+001F, U+007F), which would break the lines of a table or a prompt.
  /// Missing (required_name), a wrong type or a control character is reported, and gives nullopt.
  std::optional<std::string> required_name(std::string_view key);
  std::optional<std::string> optional_name(std::string_view key);
  /// An integer in [min, max]; missing, a non-integer or out of range is reported.
  std::optional<std::int64_t> required_int(std::string_view key, std::int64_t min, std::int64_t max);
  /// An integer in [min, max] when present (nullopt when absent or bad; bad is reported).
  std::optional<std::int64_t> optional_int(std::string_view key, std::int64_t min, std::int64_t max);
  /// A seed, an integer in [0, 2^64), when present (nullopt when absent or bad; bad is reported
  /// with the value given).
  std::optional<std::uint64_t> optional_seed(std::string_view key);
  /// The integer when present and good, else `fallback` (bad is reported).
  std::int64_t int_or(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max);
  /// The boolean when present and good, else `fallback` (bad is reported).
  bool bool_or(std::string_view key, bool fallback);
  /// The index in `allowed` of a required string value; unknown values list the allowed ones.
  std::optional<std::size_t> required_enum(std::string_view key, std::span<const std::string_view> allowed);
  /// As required_enum, but an absent key gives `fallback` (nullopt when bad or not an object).
  std::optional<std::size_t> enum_or(std::string_view key, std::span<const std::string_view> allowed,
                                     std::size_t fallback);
  /// A set of `allowed` names (at most 32) as bits, bit i for allowed[i]: the value is one name
  /// or a non-empty array of distinct names. An absent key gives `fallback`; a bad value is
  /// reported, each bad element at its own pointer, and gives nullopt.
  std::optional<std::uint32_t> enum_set_or(std::string_view key, std::span<const std::string_view> allowed,
                                           std::uint32_t fallback);
  /// The array at `key` (reported when missing or not an array).
  const nlohmann::json* required_array(std::string_view key);
  /// The array at `key` when present (a wrong type is reported).
  const nlohmann::json* optional_array(std::string_view key);
  /// The object at `key` when present (a wrong type is reported).
  const nlohmann::json* optional_object(std::string_view key);
  /// Any value at `key` when present, unchecked; the key counts as allowed.
  const nlohmann::json* optional_value(std::string_view key);

  /// The JSON pointer of `key` in this object.
  std::string pointer_of(std::string_view key) const;
  /// This object's keys in the order the text gives them (the parsed object is a sorted map), for
  /// an object whose keys are the author's (ids), so that its problems are listed as written.
  std::vector<std::string> keys_in_text_order() const;
  /// Reports a problem with the value at `key` (always, even when not `valid()`).
  void error_at(std::string_view key, std::string message);
  /// Reports a problem with this object as a whole.
  void error(std::string message);

  /// Reports unknown keys, in document order: "unknown key 'x'; allowed keys: a, b, c", the
  /// allowed keys in the order the accessors declared them. Call once, after every accessor.
  void finish();

 private:
  const nlohmann::json* find(std::string_view key);
  /// `name` when it has no control character; else reports it at `key` and gives nullopt.
  std::optional<std::string> checked_name(std::string_view key, std::optional<std::string> name);
  const JsonDocument& doc_;
  const nlohmann::json* object_;
  std::string pointer_;
  Diagnostics& diags_;
  std::vector<std::string> allowed_;
};

/// One element of a content section's array (a card, an enemy, an encounter): its document,
/// its value and the value's JSON pointer.
struct SectionItem {
  const JsonDocument* doc;
  const nlohmann::json* value;
  std::string pointer;
};

/// The ids of one kind of item, each with its dense index (the order the items define them).
using IdIndex = std::map<std::string, std::uint16_t, std::less<>>;

/// The message for the first entry past a table's limit: "more than LIMIT WHAT: expected at most
/// LIMIT in a pack, this is number LIMIT+1".
std::string too_many(std::size_t limit, std::string_view what);

/// A kind's name with its article, for messages: "a card", "an encounter".
std::string with_article(std::string_view kind);

/// A count with its noun, given in the plural, in the singular for 1: "2 enemies", "1 enemy",
/// "1 seat".
std::string counted(std::size_t count, std::string_view plural);

/// Pass 1 of a loader for one kind (named in the singular, "card"): gives each item's string
/// "id" the next dense index in `ids`. A repeated id is reported at its "id", naming where the
/// first one is; the id that would be number `limit` + 1 is reported at its item ("more than
/// LIMIT of kind KIND"), once. Items that are not objects or have no string id are left to pass
/// 2, which reports them. `limit` is at most 65,536, so that no index in `ids` wraps unreported.
void collect_ids(std::string_view kind, std::span<const SectionItem> items, std::size_t limit, IdIndex& ids,
                 Diagnostics& diags);

/// Whether the pack's `pack` object (the first in `docs`) names another rule set than `rules`
/// in its "rules" string; if so, reports that one problem at "/pack/rules". A loader that gets
/// true reads nothing else: what it would report of another rule set's files follows from it.
bool foreign_rule_set(std::span<const JsonDocument> docs, std::string_view rules, Diagnostics& diags);

}  // namespace battlecore::content
