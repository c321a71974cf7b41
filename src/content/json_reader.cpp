#include "battlecore/content/json_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace battlecore::content {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
// The one-letter escapes after a backslash in a JSON string, and the characters they stand for.
constexpr std::string_view kEscapeLetters = "\"\\/bfnrt";
constexpr std::string_view kEscapedChars = "\"\\/\b\f\n\r\t";
static_assert(kEscapeLetters.size() == kEscapedChars.size());

bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Characters that may begin a JSON value.
bool starts_value(char c) {
  return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
         c == 'n';
}

/// Characters of a number or of true/false/null.
bool is_scalar_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' ||
         c == '.';
}

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

/// A cursor over JSON text for finding positions, which nlohmann::json does not keep. Every read
/// is bounds-checked: on malformed text an operation fails rather than reading past the end.
/// It walks syntax only and leaves validation to the parser.
class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : text_(text) {
    if (text_.starts_with(kUtf8Bom)) pos_ = kUtf8Bom.size();  // the parser skips a BOM too
  }

  std::size_t offset() const { return pos_; }
  void seek(std::size_t offset) { pos_ = std::min(offset, text_.size()); }
  bool at_end() const { return pos_ >= text_.size(); }
  /// The current character, or '\0' at the end.
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  bool consume(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  void skip_whitespace() {
    while (!at_end() && is_json_whitespace(text_[pos_])) ++pos_;
  }

  /// Reads a string from its opening quote; stores the unescaped UTF-8 value in `out` if given.
  bool read_string(std::string* out) {
    if (!consume('"')) return false;
    if (out != nullptr) out->clear();
    while (!at_end()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out != nullptr) *out += c;
        continue;
      }
      if (at_end()) return false;
      const char escape = text_[pos_++];
      if (escape == 'u') {
        std::uint32_t code_point = 0;
        if (!read_code_point(code_point)) return false;
        if (out != nullptr) append_utf8(*out, code_point);
        continue;
      }
      const std::size_t which = kEscapeLetters.find(escape);
      if (which == std::string_view::npos) return false;
      if (out != nullptr) *out += kEscapedChars[which];
    }
    return false;  // unterminated
  }

  /// Skips one value of any kind. Containers are skipped by matching brackets outside strings.
  bool skip_value() {
    const char c = peek();
    if (c == '"') return read_string(nullptr);
    if (c == '{' || c == '[') return skip_container();
    const std::size_t start = pos_;
    while (!at_end() && is_scalar_char(text_[pos_])) ++pos_;
    return pos_ > start;
  }

 private:
  /// After `\u`: four hex digits, and a second `\uXXXX` when the first is a high surrogate.
  bool read_code_point(std::uint32_t& code_point) {
    if (!read_hex4(code_point)) return false;
    if (code_point >= 0xDC00 && code_point <= 0xDFFF) return false;  // a lone low surrogate
    if (code_point < 0xD800 || code_point > 0xDBFF) return true;
    std::uint32_t low = 0;
    if (!consume('\\') || !consume('u') || !read_hex4(low)) return false;
    if (low < 0xDC00 || low > 0xDFFF) return false;
    code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
    return true;
  }

  bool read_hex4(std::uint32_t& value) {
    value = 0;
    for (int i = 0; i < 4; ++i) {
      if (at_end()) return false;
      const char c = text_[pos_++];
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
      value = value * 16 + digit;
    }
    return true;
  }

  bool skip_container() {
    std::size_t depth = 0;
    while (!at_end()) {
      const char c = text_[pos_];
      if (c == '"') {
        if (!read_string(nullptr)) return false;
        continue;
      }
      ++pos_;
      if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return true;
      }
    }
    return false;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

/// The reference tokens of an RFC 6901 pointer, unescaped; nullopt when the pointer is malformed.
std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
    } else if (pointer[i] != '~') {
      token += pointer[i];
    } else if (i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      token += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      return std::nullopt;
    }
  }
  return tokens;
}

/// An RFC 6901 array index: "0" or digits without a leading zero.
std::optional<std::size_t> array_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token.front() == '0')) return std::nullopt;
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (error != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return index;
}

/// Walks text the parser has accepted and reports every key repeated within one object, at the
/// repeated key. nlohmann::json keeps the last silently, which would hide a typo'd duplicate.
/// Iterative, so deep nesting the parser accepts cannot overflow the stack here.
void report_duplicate_keys(const JsonDocument& doc, Diagnostics& diags) {
  struct OpenContainer {
    bool is_object = false;
    std::set<std::string> keys;  // object: keys seen so far
    std::string key;             // object: key of the member being read
    std::size_t next_index = 0;  // array: index of the next element
  };
  // Pointers are built only for a report: one per open container would cost depth squared.
  const auto pointer_to = [](const std::vector<OpenContainer>& open) {
    std::string pointer;
    for (const OpenContainer& container : open) {
      pointer = container.is_object ? child_pointer(pointer, container.key)
                                    : child_pointer(pointer, container.next_index - 1);
    }
    return pointer;
  };
  std::vector<OpenContainer> open;
  JsonScanner scanner(doc.text);
  for (;;) {
    scanner.skip_whitespace();
    if (scanner.at_end()) return;
    const char c = scanner.peek();
    if (c == ',') {
      scanner.consume(c);
      continue;
    }
    if (c == '}' || c == ']') {
      scanner.consume(c);
      if (!open.empty()) open.pop_back();
      continue;
    }
    if (!open.empty() && open.back().is_object) {
      OpenContainer& object = open.back();
      const std::size_t key_offset = scanner.offset();
      if (!scanner.read_string(&object.key)) return;
      if (!object.keys.insert(object.key).second) {
        const auto [line, column] = line_column(doc.text, key_offset);
        diags.add({doc.file, line, column, pointer_to(open),
                   fmt::format("duplicate key '{}'; a key may appear only once in an object", object.key)});
      }
      scanner.skip_whitespace();
      if (!scanner.consume(':')) return;
      scanner.skip_whitespace();
    } else if (!open.empty()) {
      ++open.back().next_index;  // an array element starts here
    }
    const char first = scanner.peek();
    if (first == '{' || first == '[') {
      open.emplace_back().is_object = first == '{';
      scanner.consume(first);
    } else if (!scanner.skip_value()) {
      return;
    }
  }
}

/// nlohmann's what() reads "[json.exception.parse_error.101] parse error at line 4, column 0: syntax
/// error ...". Its position can disagree with ours (it counts a newline into the next line), so
/// keep only the part after the position.
std::string parse_error_message(const Json::parse_error& error) {
  std::string_view what = error.what();
  if (what.starts_with("[json.exception.")) {
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
  }
  if (what.starts_with("parse error")) {
    const std::size_t colon = what.find(": ");
    if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  return std::string(what);
}

constexpr std::int64_t kIntMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();

/// "an integer in [0, 9]", or an open bound left out when it is the type's limit.
std::string describe_int_range(std::int64_t min, std::int64_t max) {
  if (min == kIntMin && max == kIntMax) return "an integer";
  if (max == kIntMax) return fmt::format("an integer >= {}", min);
  if (min == kIntMin) return fmt::format("an integer <= {}", max);
  return fmt::format("an integer in [{}, {}]", min, max);
}

/// Thrown by DepthLimitedBuilder when a container opens deeper than kMaxJsonDepth.
struct NestingTooDeep {};

/// nlohmann::json's own document builder, given the parser's events, that throws NestingTooDeep
/// at an array or object that would be level kMaxJsonDepth + 1, so no deeper document is ever
/// built. (A parser callback could refuse it too, but the library's callback builder, in the
/// version Debian ships, searches the enclosing container for a discarded value at the end of
/// every object: one array of n objects took time in n².) The elements of the root object's
/// `streamed` arrays are built one at a time, apart, and handed over (StreamedArray).
class DepthLimitedBuilder {
 public:
  DepthLimitedBuilder(Json& root, std::span<const StreamedArray> streamed)
      : builder_(root, true), streamed_(streamed) {}
  bool null() {
    return scalar(nullptr, [](auto& b) { return b.null(); });
  }
  bool boolean(bool value) {
    return scalar(value, [&](auto& b) { return b.boolean(value); });
  }
  bool number_integer(Json::number_integer_t value) {
    return scalar(value, [&](auto& b) { return b.number_integer(value); });
  }
  bool number_unsigned(Json::number_unsigned_t value) {
    return scalar(value, [&](auto& b) { return b.number_unsigned(value); });
  }
  bool number_float(Json::number_float_t value, const Json::string_t& text) {
    return scalar(value, [&](auto& b) { return b.number_float(value, text); });
  }
  bool string(Json::string_t& value) {
    return scalar(value, [&](auto& b) { return b.string(value); });
  }
  bool binary(Json::binary_t& value) {
    return scalar(value, [&](auto& b) { return b.binary(value); });
  }
  bool start_object(std::size_t size) {
    return open([&](auto& b) { return b.start_object(size); }, false);
  }
  bool key(Json::string_t& value) {
    if (element_builder_) return element_builder_->key(value);
    if (depth_ == 1) member_ = streamed_array(value);
    return builder_.key(value);
  }
  bool end_object() {
    return close([](auto& b) { return b.end_object(); });
  }
  bool start_array(std::size_t size) {
    return open([&](auto& b) { return b.start_array(size); }, true);
  }
  bool end_array() {
    return close([](auto& b) { return b.end_array(); });
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
    return builder_.parse_error(position, token, error);
  }

 private:
  using Builder = nlohmann::detail::json_sax_dom_parser<Json>;
  /// The level of a streamed array's elements: the root object is level 1, the array level 2.
  static constexpr std::size_t kElementLevel = 3;

  const StreamedArray* streamed_array(std::string_view key) const {
    for (const StreamedArray& s : streamed_)
      if (s.key == key) return &s;
    return nullptr;
  }

  /// A scalar: a streamed array's element of its own, or a value of the element or document
  /// being built.
  template <class Value, class Event>
  bool scalar(Value&& value, Event event) {
    if (streaming_ != nullptr && depth_ == kElementLevel - 1) {
      streaming_->element(Json(std::forward<Value>(value)));
      return true;
    }
    if (element_builder_) return event(*element_builder_);
    if (depth_ == 1) member_ = nullptr;
    return event(builder_);
  }

  template <class Event>
  bool open(Event event, bool array) {
    if (++depth_ > kMaxJsonDepth) throw NestingTooDeep{};
    if (streaming_ != nullptr && depth_ == kElementLevel) element_builder_.emplace(element_, true);
    if (element_builder_) return event(*element_builder_);
    if (depth_ == kElementLevel - 1) {
      // A member of the root object: an array at a streamed key is streamed, in an empty array.
      if (array && member_ != nullptr) {
        streaming_ = member_;
        streaming_->restart();
      }
      member_ = nullptr;
    }
    return event(builder_);
  }

  template <class Event>
  bool close(Event event) {
    if (element_builder_) {
      const bool closed = event(*element_builder_);
      if (--depth_ == kElementLevel - 1) {
        element_builder_.reset();
        streaming_->element(std::exchange(element_, Json()));
      }
      return closed;
    }
    if (depth_-- == kElementLevel - 1) streaming_ = nullptr;
    return event(builder_);
  }

  Builder builder_;
  std::span<const StreamedArray> streamed_;
  std::size_t depth_ = 0;
  /// The streamed array a value of the root object would be, after its key.
  const StreamedArray* member_ = nullptr;
  /// The streamed array being read, and the element of it being built.
  const StreamedArray* streaming_ = nullptr;
  Json element_;
  std::optional<Builder> element_builder_;
};

/// The offset of the first '[' or '{' outside strings that opens level kMaxJsonDepth + 1. The
/// parser has read the text up to there without a syntax error, so counting brackets is exact.
std::size_t deep_nesting_offset(std::string_view text) {
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // skip the string, escapes included
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

/// The status of a path that exists; a missing or inaccessible path is reported instead.
std::optional<fs::file_status> existing_status(const fs::path& path, Diagnostics& diags) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) {
    std::error_code link_error;
    if (fs::is_symlink(fs::symlink_status(path, link_error))) {
      const fs::path target = fs::read_symlink(path, link_error);
      diags.add({path.string(), 0, 0, "",
                 fmt::format("a symbolic link to '{}', which does not exist", target.string())});
    } else {
      diags.add({path.string(), 0, 0, "", "no such file or directory"});
    }
    return std::nullopt;
  }
  if (error) {
    diags.add({path.string(), 0, 0, "", fmt::format("cannot access: {}", error.message())});
    return std::nullopt;
  }
  return status;
}

std::string describe_enum(std::span<const std::string_view> allowed) {
  return fmt::format("one of: {}", fmt::join(allowed, ", "));
}

/// Whether a line ends at text[i]: a line feed, or a carriage return with no line feed after it
/// (a CR LF pair ends one line, at its LF), as editors count lines.
bool ends_line(std::string_view text, std::size_t i) {
  return text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
}

/// 1-based {line, column} of `offset` (at most text.size()), counted on from `from`, before which
/// the text has `newlines` line ends, the last line starting at `line_start`.
std::pair<int, int> line_column_from(std::string_view text, std::size_t offset, std::size_t from,
                                     std::size_t newlines, std::size_t line_start) {
  for (std::size_t i = from; i < offset; ++i) {
    if (ends_line(text, i)) {
      ++newlines;
      line_start = i + 1;
    }
  }
  std::size_t column = offset - line_start + 1;
  // A UTF-8 byte order mark, which the parser skips, is no column of line 1: editors show none.
  if (newlines == 0 && text.starts_with(kUtf8Bom) && offset >= kUtf8Bom.size()) column -= kUtf8Bom.size();
  return {static_cast<int>(newlines + 1), static_cast<int>(column)};
}

}  // namespace

std::pair<int, int> line_column(std::string_view text, std::size_t offset) {
  return line_column_from(text, std::min(offset, text.size()), 0, 0, 0);
}

namespace {

bool number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/// The offset of the number literal `literal` in JSON text, outside strings; the text's end
/// when it is not there.
std::size_t find_number_literal(std::string_view text, std::string_view literal) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {  // skip the string, escapes included
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    if (text.compare(i, literal.size(), literal) == 0 && (i == 0 || !number_char(text[i - 1])) &&
        (i + literal.size() >= text.size() || !number_char(text[i + literal.size()])))
      return i;
  }
  return text.size();
}

/// The literal quoted in nlohmann's "number overflow parsing '...'" message, or empty.
std::string_view overflowing_literal(std::string_view what) {
  const std::size_t open = what.find('\'');
  const std::size_t close = what.rfind('\'');
  if (open == std::string_view::npos || close <= open) return {};
  return what.substr(open + 1, close - open - 1);
}

}  // namespace

namespace {

/// The bytes of text a LineMark stands for.
constexpr std::size_t kLineBlock = 512;

}  // namespace

LocateIndex& LocateIndex::operator=(const LocateIndex& other) {
  if (this != &other) {
    const std::lock_guard<std::mutex> lock(mutex_);
    text_data_ = nullptr;
    text_size_ = 0;
    containers_.clear();
    line_marks_.clear();
  }
  return *this;
}

void LocateIndex::use_text(std::string_view text) const {
  if (text.data() == text_data_ && text.size() == text_size_) return;
  text_data_ = text.data();
  text_size_ = text.size();
  containers_.clear();
  line_marks_.clear();
}

const LocateIndex::Container& LocateIndex::container_at(std::string_view text, std::size_t offset) const {
  const auto found = containers_.find(offset);
  if (found != containers_.end()) return found->second;
  // One pass over the container, stopping where the text stops making sense as the parser would
  // read it; the values before that point are still found.
  Container container;
  JsonScanner scanner(text);
  scanner.seek(offset);
  if (scanner.consume('{')) {
    std::string name;
    for (;;) {
      scanner.skip_whitespace();
      if (!scanner.read_string(&name)) break;  // '}' or malformed
      scanner.skip_whitespace();
      if (!scanner.consume(':')) break;
      scanner.skip_whitespace();
      container.members.insert_or_assign(name, scanner.offset());
      if (!scanner.skip_value()) break;
      scanner.skip_whitespace();
      if (!scanner.consume(',')) break;
    }
  } else if (scanner.consume('[')) {
    for (;;) {
      scanner.skip_whitespace();
      if (!starts_value(scanner.peek())) break;  // ']' or malformed
      container.elements.push_back(scanner.offset());
      if (!scanner.skip_value()) break;
      scanner.skip_whitespace();
      if (!scanner.consume(',')) break;
    }
  }
  return containers_.emplace(offset, std::move(container)).first->second;
}

std::pair<int, int> LocateIndex::line_column(std::string_view text, std::size_t offset) const {
  offset = std::min(offset, text.size());
  if (line_marks_.empty()) {
    LineMark mark;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i % kLineBlock == 0) line_marks_.push_back(mark);
      if (i < text.size() && ends_line(text, i)) {
        ++mark.newlines;
        mark.line_start = i + 1;
      }
    }
  }
  const std::size_t block = offset / kLineBlock;
  const LineMark& mark = line_marks_[block];
  return line_column_from(text, offset, block * kLineBlock, mark.newlines, mark.line_start);
}

std::pair<int, int> LocateIndex::locate(std::string_view text, std::span<const std::string> tokens) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  use_text(text);
  JsonScanner scanner(text);
  scanner.skip_whitespace();
  std::size_t offset = scanner.offset();
  for (const std::string& token : tokens) {
    const char c = offset < text.size() ? text[offset] : '\0';
    if (c != '{' && c != '[') return {0, 0};  // a scalar has no children
    const Container& container = container_at(text, offset);
    if (c == '{') {
      const auto member = container.members.find(token);
      if (member == container.members.end()) return {0, 0};
      offset = member->second;
    } else {
      const std::optional<std::size_t> index = array_index(token);
      if (!index || *index >= container.elements.size()) return {0, 0};
      offset = container.elements[*index];
    }
  }
  if (offset >= text.size() || !starts_value(text[offset])) return {0, 0};
  return line_column(text, offset);
}

std::pair<int, int> JsonDocument::locate(std::string_view pointer) const {
  const std::optional<std::vector<std::string>> tokens = pointer_tokens(pointer);
  if (!tokens) return {0, 0};
  return locate_index.locate(text, *tokens);
}

Diagnostic JsonDocument::diagnostic(std::string pointer, std::string message) const {
  const auto [line, column] = locate(pointer);
  return {file, line, column, std::move(pointer), std::move(message)};
}

std::optional<JsonDocument> parse_json_text(std::string file, std::string text, Diagnostics& diags,
                                            std::span<const StreamedArray> streamed) {
  JsonDocument doc{.file = std::move(file), .text = std::move(text), .root = {}};
  // JSON text holds no NUL byte, not even in a string. Outside a string the parser would stop
  // at the first one and take the text before it for the whole file, dropping what follows.
  if (const std::size_t nul = doc.text.find('\0'); nul != std::string::npos) {
    const auto [line, column] = line_column(doc.text, nul);
    diags.add(
        {doc.file, line, column, "", "a NUL byte: JSON text holds none, expected a JSON value or the end"});
    return std::nullopt;
  }
  try {
    DepthLimitedBuilder builder(doc.root, streamed);
    (void)Json::sax_parse(doc.text, &builder);
  } catch (const NestingTooDeep&) {
    const auto [line, column] = line_column(doc.text, deep_nesting_offset(doc.text));
    diags.add({doc.file, line, column, "",
               fmt::format("nesting deeper than {} levels; an array or object may hold at most {} levels "
                           "of arrays and objects",
                           kMaxJsonDepth, kMaxJsonDepth)});
    return std::nullopt;
  } catch (const Json::parse_error& error) {
    // `byte` is 1-based: the last character read, which is where the parser gave up.
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    const auto [line, column] = line_column(doc.text, offset);
    diags.add({doc.file, line, column, "", parse_error_message(error)});
    return std::nullopt;
  } catch (const Json::out_of_range& error) {
    // A number too large for a double (e.g. 5E0555): nlohmann names the literal, not where it is.
    const std::string_view literal = overflowing_literal(error.what());
    const auto [line, column] = line_column(doc.text, find_number_literal(doc.text, literal));
    diags.add({doc.file, line, column, "",
               fmt::format("number {} is out of range: a JSON number must fit a 64-bit float", literal)});
    return std::nullopt;
  }
  report_duplicate_keys(doc, diags);
  return doc;
}

std::optional<JsonDocument> parse_json_file(const std::filesystem::path& path, Diagnostics& diags,
                                            std::span<const StreamedArray> streamed) {
  const std::string file = path.string();
  const std::optional<fs::file_status> status = existing_status(path, diags);
  if (!status) return std::nullopt;
  if (fs::is_directory(*status)) {
    diags.add({file, 0, 0, "", "is a directory, expected a JSON file"});
    return std::nullopt;
  }
  // A FIFO, a device or a socket may never end (/dev/zero) or block the reader forever.
  if (!fs::is_regular_file(*status)) {
    diags.add({file, 0, 0, "", "not a regular file; expected a JSON file"});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.add({file, 0, 0, "", "cannot open file for reading"});
    return std::nullopt;
  }
  // The size is checked as the file is read too, as it may grow after fs::file_size looked.
  const auto too_large = [&] {
    diags.add({file, 0, 0, "",
               fmt::format("larger than {} bytes, the most a JSON file may have", kMaxJsonFileBytes)});
    return std::nullopt;
  };
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size > kMaxJsonFileBytes) return too_large();
  std::string text;
  // Room for the whole file at once: growing the text as it is read would copy it, holding two.
  if (!error) text.reserve(static_cast<std::size_t>(size));
  std::array<char, 1 << 16> chunk{};
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxJsonFileBytes) return too_large();
  }
  if (in.bad()) {
    diags.add({file, 0, 0, "", "cannot read file"});
    return std::nullopt;
  }
  return parse_json_text(file, std::move(text), diags, streamed);
}

std::vector<std::filesystem::path> content_files(const std::filesystem::path& path, Diagnostics& diags) {
  const std::optional<fs::file_status> status = existing_status(path, diags);
  if (!status) return {};
  if (!fs::is_directory(*status)) return {path};

  std::vector<fs::path> files;
  std::error_code error;
  fs::directory_iterator entry(path, error);
  for (; !error && entry != fs::directory_iterator(); entry.increment(error)) {
    // Every .json entry but a subdirectory is content: the reader refuses what is no regular file
    // (a link to nothing, a FIFO) rather than the pack loading without it.
    std::error_code entry_error;
    if (entry->path().extension() == ".json" && !entry->is_directory(entry_error)) {
      files.push_back(entry->path());
    }
  }
  if (error) {
    diags.add({path.string(), 0, 0, "", fmt::format("cannot list directory: {}", error.message())});
    return {};
  }
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  if (files.empty()) diags.add({path.string(), 0, 0, "", "no .json content files in directory"});
  return files;
}

PackDocuments read_pack_documents(const std::filesystem::path& path, Diagnostics& diags) {
  PackDocuments out;
  for (const fs::path& file : content_files(path, diags)) {
    if (auto doc = parse_json_file(file, diags))
      out.docs.push_back(std::move(*doc));
    else
      out.all_read = false;
  }
  return out;
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char ch : id)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-')) return false;
  return true;
}

std::string child_pointer(std::string_view base, std::string_view key) {
  std::string out(base);
  out += '/';
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child_pointer(std::string_view base, std::size_t index) {
  return fmt::format("{}/{}", base, index);
}

std::optional<std::string> unknown_key(const nlohmann::json& object,
                                       std::span<const std::string_view> allowed) {
  if (!object.is_object()) return std::nullopt;
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      return fmt::format("unknown key '{}'; allowed keys: {}", key, fmt::join(allowed, ", "));
  }
  return std::nullopt;
}

std::string describe_json_type(const nlohmann::json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "an integer";
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::binary:
      return "binary data";
    case Json::value_t::discarded:
      return "a discarded value";
  }
  return "an unknown value";
}

// ObjectReader ---------------------------------------------------------------------------------

ObjectReader::ObjectReader(const JsonDocument& doc, const nlohmann::json& value, std::string pointer,
                           Diagnostics& diags)
    : doc_(doc), object_(value.is_object() ? &value : nullptr), pointer_(std::move(pointer)), diags_(diags) {
  if (object_ == nullptr) error(fmt::format("expected an object, got {}", describe_json_type(value)));
}

bool ObjectReader::has(std::string_view key) const {
  return object_ != nullptr && object_->find(key) != object_->end();
}

const nlohmann::json* ObjectReader::find(std::string_view key) {
  if (std::find(allowed_.begin(), allowed_.end(), key) == allowed_.end()) allowed_.emplace_back(key);
  if (object_ == nullptr) return nullptr;
  const auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

namespace {

/// The integer in `value` when it is one in [min, max]; otherwise the problem, for a message.
std::optional<std::int64_t> checked_int(const nlohmann::json& value, std::int64_t min, std::int64_t max,
                                        std::string& problem) {
  const std::string expected = describe_int_range(min, max);
  if (value.is_number_unsigned()) {
    // Checked before is_number_integer(), which is also true for unsigned values, so that a value
    // above INT64_MAX is reported rather than wrapped.
    const auto number = value.get<std::uint64_t>();
    if (number <= static_cast<std::uint64_t>(kIntMax)) {
      const auto signed_number = static_cast<std::int64_t>(number);
      if (signed_number >= min && signed_number <= max) return signed_number;
    }
    problem = fmt::format("expected {}, got {}", expected, number);
    return std::nullopt;
  }
  if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    if (number >= min && number <= max) return number;
    problem = fmt::format("expected {}, got {}", expected, number);
    return std::nullopt;
  }
  problem = fmt::format("expected {}, got {}", expected, describe_json_type(value));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ObjectReader::required_string(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (!valid()) return std::nullopt;
  if (value == nullptr) {
    error(fmt::format("missing required key '{}' (a string)", key));
    return std::nullopt;
  }
  return optional_string(key);
}

std::optional<std::string> ObjectReader::required_id(std::string_view key) {
  auto id = required_string(key);
  if (!id || valid_id(*id)) return id;
  error_at(key, "expected an id of 1 to 64 characters a-z, 0-9, '_' or '-', got '" + *id + "'");
  return std::nullopt;
}

std::optional<std::string> ObjectReader::optional_string(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) {
    error_at(key, fmt::format("expected a string, got {}", describe_json_type(*value)));
    return std::nullopt;
  }
  return value->get<std::string>();
}

namespace {
/// The first control character of `s` (U+0000 to U+001F, U+007F; the bytes of other UTF-8
/// characters are never below 0x80), or npos.
std::size_t first_control_character(std::string_view s) {
  const auto it = std::find_if(s.begin(), s.end(),
                               [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F; });
  return it == s.end() ? std::string_view::npos : static_cast<std::size_t>(it - s.begin());
}
}  // namespace

std::optional<std::string> ObjectReader::checked_name(std::string_view key, std::optional<std::string> name) {
  if (!name) return name;
  const std::size_t at = first_control_character(*name);
  if (at == std::string_view::npos) return name;
  error_at(key,
           fmt::format("expected a name on one line, without control characters; got {} with U+{:04X} at "
                       "byte {}",
                       nlohmann::json(*name).dump(), static_cast<unsigned char>((*name)[at]), at));
  return std::nullopt;
}

std::optional<std::string> ObjectReader::required_name(std::string_view key) {
  return checked_name(key, required_string(key));
}

std::optional<std::string> ObjectReader::optional_name(std::string_view key) {
  return checked_name(key, optional_string(key));
}

std::optional<std::int64_t> ObjectReader::required_int(std::string_view key, std::int64_t min,
                                                       std::int64_t max) {
  const nlohmann::json* value = find(key);
  if (!valid()) return std::nullopt;
  if (value == nullptr) {
    error(fmt::format("missing required key '{}' ({})", key, describe_int_range(min, max)));
    return std::nullopt;
  }
  return optional_int(key, min, max);
}

std::optional<std::int64_t> ObjectReader::optional_int(std::string_view key, std::int64_t min,
                                                       std::int64_t max) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return std::nullopt;
  std::string problem;
  std::optional<std::int64_t> number = checked_int(*value, min, max, problem);
  if (!number) error_at(key, std::move(problem));
  return number;
}

std::optional<std::uint64_t> ObjectReader::optional_seed(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_unsigned() || (value->is_number_integer() && value->get<std::int64_t>() >= 0))
    return value->get<std::uint64_t>();
  error_at(key, "expected a seed: an integer in [0, 2^64), got " +
                    (value->is_number_integer() ? value->dump() : describe_json_type(*value)));
  return std::nullopt;
}

std::int64_t ObjectReader::int_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                                  std::int64_t max) {
  return optional_int(key, min, max).value_or(fallback);
}

bool ObjectReader::bool_or(std::string_view key, bool fallback) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) {
    error_at(key, fmt::format("expected a boolean, got {}", describe_json_type(*value)));
    return fallback;
  }
  return value->get<bool>();
}

std::optional<std::size_t> ObjectReader::required_enum(std::string_view key,
                                                       std::span<const std::string_view> allowed) {
  const nlohmann::json* value = find(key);
  if (!valid()) return std::nullopt;
  if (value == nullptr) {
    error(fmt::format("missing required key '{}' ({})", key, describe_enum(allowed)));
    return std::nullopt;
  }
  if (!value->is_string()) {
    error_at(key, fmt::format("expected a string ({}), got {}", describe_enum(allowed),
                              describe_json_type(*value)));
    return std::nullopt;
  }
  const auto& name = value->get_ref<const std::string&>();
  const auto it = std::find(allowed.begin(), allowed.end(), name);
  if (it == allowed.end()) {
    error_at(key, fmt::format("unknown value '{}'; expected {}", name, describe_enum(allowed)));
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - allowed.begin());
}

std::optional<std::size_t> ObjectReader::enum_or(std::string_view key,
                                                 std::span<const std::string_view> allowed,
                                                 std::size_t fallback) {
  if (valid() && !has(key)) {
    find(key);  // declares the key allowed
    return fallback;
  }
  return required_enum(key, allowed);
}

std::optional<std::uint32_t> ObjectReader::enum_set_or(std::string_view key,
                                                       std::span<const std::string_view> allowed,
                                                       std::uint32_t fallback) {
  const nlohmann::json* value = find(key);
  if (!valid()) return std::nullopt;
  if (value == nullptr) return fallback;
  if (value->is_string()) {
    const auto one = required_enum(key, allowed);
    return one ? std::optional<std::uint32_t>(1u << *one) : std::nullopt;
  }
  if (!value->is_array() || value->empty()) {
    error_at(key, fmt::format("expected a string or a non-empty array of strings ({}), got {}",
                              describe_enum(allowed),
                              value->is_array() ? "an empty array" : describe_json_type(*value)));
    return std::nullopt;
  }
  std::uint32_t set = 0;
  bool ok = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const nlohmann::json& item = (*value)[i];
    const std::string at = child_pointer(pointer_of(key), i);
    const auto it = item.is_string()
                        ? std::find(allowed.begin(), allowed.end(), item.get_ref<const std::string&>())
                        : allowed.end();
    std::string problem;
    if (!item.is_string())
      problem =
          fmt::format("expected a string ({}), got {}", describe_enum(allowed), describe_json_type(item));
    else if (it == allowed.end())
      problem = fmt::format("unknown value '{}'; expected {}", item.get_ref<const std::string&>(),
                            describe_enum(allowed));
    else if ((set >> (it - allowed.begin()) & 1u) != 0)
      problem = fmt::format("'{}' is listed twice", *it);
    if (!problem.empty()) {
      diags_.add(doc_.diagnostic(at, std::move(problem)));
      ok = false;
      continue;
    }
    set |= 1u << (it - allowed.begin());
  }
  return ok ? std::optional<std::uint32_t>(set) : std::nullopt;
}

const nlohmann::json* ObjectReader::required_array(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (!valid()) return nullptr;
  if (value == nullptr) {
    error(fmt::format("missing required key '{}' (an array)", key));
    return nullptr;
  }
  return optional_array(key);
}

const nlohmann::json* ObjectReader::optional_array(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return nullptr;
  if (!value->is_array()) {
    error_at(key, fmt::format("expected an array, got {}", describe_json_type(*value)));
    return nullptr;
  }
  return value;
}

const nlohmann::json* ObjectReader::optional_object(std::string_view key) {
  const nlohmann::json* value = find(key);
  if (value == nullptr) return nullptr;
  if (!value->is_object()) {
    error_at(key, fmt::format("expected an object, got {}", describe_json_type(*value)));
    return nullptr;
  }
  return value;
}

const nlohmann::json* ObjectReader::optional_value(std::string_view key) { return find(key); }

std::string ObjectReader::pointer_of(std::string_view key) const { return child_pointer(pointer_, key); }

void ObjectReader::error_at(std::string_view key, std::string message) {
  diags_.add(doc_.diagnostic(pointer_of(key), std::move(message)));
}

void ObjectReader::error(std::string message) { diags_.add(doc_.diagnostic(pointer_, std::move(message))); }

std::vector<std::string> ObjectReader::keys_in_text_order() const {
  if (object_ == nullptr) return {};
  std::vector<std::pair<std::pair<int, int>, std::string>> keys;
  for (const auto& [key, value] : object_->items()) keys.emplace_back(doc_.locate(pointer_of(key)), key);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (auto& k : keys) out.push_back(std::move(k.second));
  return out;
}

void ObjectReader::finish() {
  if (object_ == nullptr) return;
  // Only the unknown keys are located: locating every key of every object would cost a clean
  // pack its load time.
  struct UnknownKey {
    std::pair<int, int> position;
    std::string key;
  };
  std::vector<UnknownKey> unknown;
  for (const auto& [key, value] : object_->items()) {
    if (std::find(allowed_.begin(), allowed_.end(), key) == allowed_.end()) {
      unknown.push_back({doc_.locate(pointer_of(key)), key});
    }
  }
  // The object is a sorted map; the text gives the order the author wrote the keys in.
  std::stable_sort(unknown.begin(), unknown.end(),
                   [](const UnknownKey& a, const UnknownKey& b) { return a.position < b.position; });
  const std::string allowed_list = allowed_.empty()
                                       ? std::string("this object takes no keys")
                                       : fmt::format("allowed keys: {}", fmt::join(allowed_, ", "));
  for (const UnknownKey& u : unknown) {
    diags_.add({doc_.file, u.position.first, u.position.second, pointer_of(u.key),
                fmt::format("unknown key '{}'; {}", u.key, allowed_list)});
  }
}

// Pass 1 of a loader --------------------------------------------------------------------------

std::string with_article(std::string_view kind) {
  const bool vowel = !kind.empty() && std::string_view("aeiou").find(kind.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(kind);
}

std::string counted(std::size_t count, std::string_view plural) {
  if (count != 1) return fmt::format("{} {}", count, plural);
  if (plural.ends_with("ies")) return fmt::format("1 {}y", plural.substr(0, plural.size() - 3));
  return fmt::format("1 {}", plural.ends_with('s') ? plural.substr(0, plural.size() - 1) : plural);
}

std::string too_many(std::size_t limit, std::string_view what) {
  return fmt::format("more than {} {}: expected at most {} in a pack, this is number {}", limit, what, limit,
                     limit + 1);
}

bool foreign_rule_set(std::span<const JsonDocument> docs, std::string_view rules, Diagnostics& diags) {
  for (const JsonDocument& doc : docs) {
    if (!doc.root.is_object()) continue;
    const auto pack = doc.root.find("pack");
    if (pack == doc.root.end() || !pack->is_object()) continue;
    const auto named = pack->find("rules");
    if (named == pack->end() || !named->is_string() || named->get_ref<const std::string&>() == rules)
      return false;
    ObjectReader reader(doc, *pack, "/pack", diags);
    reader.error_at("rules",
                    fmt::format("this pack is for rule set '{}', not '{}'; nothing else in it was read",
                                named->get_ref<const std::string&>(), rules));
    return true;
  }
  return false;
}

void collect_ids(std::string_view kind, std::span<const SectionItem> items, std::size_t limit, IdIndex& ids,
                 Diagnostics& diags) {
  std::map<std::string_view, const SectionItem*, std::less<>> first;
  for (const SectionItem& it : items) {
    if (!it.value->is_object()) continue;
    const auto id = it.value->find("id");
    if (id == it.value->end() || !id->is_string()) continue;
    const auto& s = id->get_ref<const std::string&>();
    if (const auto f = first.find(s); f != first.end()) {
      const auto [line, column] = f->second->doc->locate(f->second->pointer);
      diags.add(it.doc->diagnostic(child_pointer(it.pointer, "id"),
                                   fmt::format("duplicate {} id '{}'; first defined at {}:{}:{}", kind, s,
                                               f->second->doc->file, line, column)));
      continue;
    }
    first.emplace(s, &it);
    if (ids.size() == limit)
      diags.add(it.doc->diagnostic(it.pointer, too_many(limit, fmt::format("of kind {}", kind))));
    // Past the limit the index may wrap; the load has failed, so it is never used.
    ids.emplace(s, static_cast<std::uint16_t>(ids.size()));
  }
}

}  // namespace battlecore::content
