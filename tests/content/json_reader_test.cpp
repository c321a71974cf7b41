#include "battlecore/content/json_reader.hpp"

#include <unistd.h>

#include <array>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace battlecore::content {
namespace {

namespace fs = std::filesystem;
using Position = std::pair<int, int>;

/// Parses text that must be valid and free of duplicate keys.
JsonDocument parse_clean(std::string text) {
  Diagnostics diags;
  std::optional<JsonDocument> doc = parse_json_text("test.json", std::move(text), diags);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  return std::move(doc).value();
}

constexpr std::array<std::string_view, 3> kCardTypes{"attack", "skill", "power"};

// line_column -----------------------------------------------------------------------------------

TEST(JsonMessages, NamesAKindWithItsArticleAndACountWithItsNumber) {
  EXPECT_EQ(with_article("card"), "a card");
  EXPECT_EQ(with_article("enemy"), "an enemy");
  EXPECT_EQ(counted(1, "enemies"), "1 enemy");
  EXPECT_EQ(counted(2, "enemies"), "2 enemies");
  EXPECT_EQ(counted(0, "seats"), "0 seats");
  EXPECT_EQ(counted(1, "seats"), "1 seat");
  EXPECT_EQ(counted(1, "members"), "1 member");
}

TEST(JsonLineColumn, CountsLinesAndColumnsFromOne) {
  const std::string_view text = "ab\ncd\n\nx";
  EXPECT_EQ(line_column(text, 0), Position(1, 1));
  EXPECT_EQ(line_column(text, 1), Position(1, 2));
  EXPECT_EQ(line_column(text, 2), Position(1, 3));  // the newline itself ends line 1
  EXPECT_EQ(line_column(text, 3), Position(2, 1));
  EXPECT_EQ(line_column(text, 6), Position(3, 1));
  EXPECT_EQ(line_column(text, 7), Position(4, 1));
}

TEST(JsonLineColumn, ACarriageReturnEndsALineAloneOrWithItsLineFeed) {
  const std::string_view text = "ab\r\ncd\rx\r\r\n";
  EXPECT_EQ(line_column(text, 2), Position(1, 3));  // the CR of CR LF
  EXPECT_EQ(line_column(text, 3), Position(1, 4));  // its LF ends line 1
  EXPECT_EQ(line_column(text, 4), Position(2, 1));
  EXPECT_EQ(line_column(text, 6), Position(2, 3));  // a CR alone ends line 2
  EXPECT_EQ(line_column(text, 7), Position(3, 1));
  EXPECT_EQ(line_column(text, 9), Position(4, 1));
  EXPECT_EQ(line_column(text, 11), Position(5, 1));
}

TEST(JsonLineColumn, ClampsOffsetPastTheEnd) {
  EXPECT_EQ(line_column("ab\nc", 100), Position(2, 2));
  EXPECT_EQ(line_column("", 5), Position(1, 1));
}

TEST(JsonLineColumn, ColumnsCountBytes) {
  EXPECT_EQ(line_column("\xC3\xA9x", 2), Position(1, 3));  // "é" is two bytes
}

TEST(JsonLineColumn, ALeadingByteOrderMarkIsNoColumn) {
  const std::string_view text =
      "\xEF\xBB\xBF[1,\n\xEF\xBB\xBF"
      "2]";
  EXPECT_EQ(line_column(text, 3), Position(1, 1));
  EXPECT_EQ(line_column(text, 5), Position(1, 3));
  EXPECT_EQ(line_column(text, 7), Position(2, 1));  // only the file's first bytes are the mark
  EXPECT_EQ(line_column(text, 10), Position(2, 4));
  EXPECT_EQ(line_column(text, 1), Position(1, 2));  // inside the mark: bytes, as before
}

TEST(JsonParse, ASyntaxErrorAfterAByteOrderMarkIsAtItsColumn) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text("f.json", "\xEF\xBB\xBF[1,]", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].line, 1);
  EXPECT_EQ(diags.items()[0].column, 4) << diags.to_string();
}

// parse_json_text -------------------------------------------------------------------------------

TEST(JsonParse, KeepsFileTextAndValue) {
  Diagnostics diags;
  const std::optional<JsonDocument> doc = parse_json_text("cards.json", R"({"a": [1, 2]})", diags);
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE(diags.empty());
  EXPECT_EQ(doc->file, "cards.json");
  EXPECT_EQ(doc->text, R"({"a": [1, 2]})");
  EXPECT_EQ(doc->root["a"][1], 2);
}

TEST(JsonParse, SyntaxErrorGivesLineAndColumnOfOffendingCharacter) {
  Diagnostics diags;
  const std::optional<JsonDocument> doc =
      parse_json_text("cards.json", "{\n  \"a\": 1,\n  \"b\" 2\n}\n", diags);
  EXPECT_FALSE(doc.has_value());
  ASSERT_EQ(diags.size(), 1u);
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(d.file, "cards.json");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 7);  // the '2' where ':' was expected
  EXPECT_EQ(d.pointer, "");
  EXPECT_TRUE(d.message.starts_with("syntax error")) << d.message;
  EXPECT_NE(d.message.find("expected ':'"), std::string::npos) << d.message;
}

TEST(JsonParse, SyntaxErrorMessageDropsLibraryPrefixAndItsPosition) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text("cards.json", "{\n  \"a\": 1,\n  \"b\": tru\n}", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(d.line, 3);  // nlohmann itself would say line 4, column 0
  EXPECT_EQ(d.column, 11);
  EXPECT_EQ(d.message.find("[json.exception"), std::string::npos) << d.message;
  EXPECT_EQ(d.message.find("line 4"), std::string::npos) << d.message;
  EXPECT_TRUE(d.message.starts_with("syntax error")) << d.message;
}

TEST(JsonParse, UnexpectedEndPointsJustPastTheText) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text("f.json", "[1,\n 2", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].line, 2);
  EXPECT_EQ(diags.items()[0].column, 3);
}

TEST(JsonParse, ANumberTooLargeForADoubleIsAnErrorAtTheNumber) {
  Diagnostics diags;
  // The same literal inside a string earlier on is not the number.
  EXPECT_FALSE(parse_json_text("f.json", "{\n  \"s\": \"5E0555\",\n  \"hp\": -5E0555\n}", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 9);
  EXPECT_NE(d.message.find("-5E0555"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("out of range"), std::string::npos) << d.message;
  EXPECT_EQ(d.message.find("[json.exception"), std::string::npos) << d.message;
}

TEST(JsonParse, EmptyTextIsAnError) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text("f.json", "", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].line, 1);
  EXPECT_EQ(diags.items()[0].column, 1);
}

TEST(JsonParse, DuplicateKeysAreReportedAtTheRepeatedKey) {
  Diagnostics diags;
  const std::optional<JsonDocument> doc = parse_json_text("f.json",
                                                          "{\n"
                                                          "  \"a\": 1,\n"
                                                          "  \"b\": {\"x\": 1, \"x\": 2},\n"
                                                          "  \"a\": 3\n"
                                                          "}\n",
                                                          diags);
  ASSERT_TRUE(doc.has_value());  // still returned, so the rest of the file can be checked
  EXPECT_EQ(doc->root["a"], 3);
  ASSERT_EQ(diags.size(), 2u) << diags.to_string();
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "f.json:3:17: /b/x: duplicate key 'x'; a key may appear only once in an object");
  EXPECT_EQ(format_diagnostic(diags.items()[1]),
            "f.json:4:3: /a: duplicate key 'a'; a key may appear only once in an object");
}

TEST(JsonParse, DuplicateKeyInsideArrayHasIndexedPointer) {
  Diagnostics diags;
  ASSERT_TRUE(parse_json_text("f.json", R"([[1, {"k": 0}], {"k": 1, "k": 2}])", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].pointer, "/1/k");
  EXPECT_EQ(diags.items()[0].column, 26);
}

TEST(JsonParse, DuplicateKeyIsFoundAfterUnescaping) {
  Diagnostics diags;
  ASSERT_TRUE(parse_json_text("f.json", R"({"a": 1, "\u0061": 2})", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].pointer, "/a");
}

TEST(JsonParse, SameKeyInSeparateObjectsIsFine) {
  Diagnostics diags;
  ASSERT_TRUE(parse_json_text("f.json", R"([{"a": 1}, {"a": {"a": 2}}, "{\"a\": 1, \"a\": 2}"])", diags));
  EXPECT_TRUE(diags.empty()) << diags.to_string();
}

TEST(JsonParse, NestingDeeperThanTheLimitIsRefusedAtTheBracketThatPassesIt) {
  // The root object is level 1; the string's brackets are not nesting.
  const auto nested = [](std::size_t levels) {
    return "{\"s\": \"[{\",\n \"a\": " + std::string(levels - 1, '[') + std::string(levels - 1, ']') + "}";
  };
  Diagnostics diags;
  ASSERT_TRUE(parse_json_text("f.json", nested(kMaxJsonDepth), diags).has_value());
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_FALSE(parse_json_text("f.json", nested(kMaxJsonDepth + 1), diags).has_value());
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  EXPECT_EQ(
      format_diagnostic(diags.items()[0]),
      fmt::format("f.json:2:{}: nesting deeper than 256 levels; an array or object may hold at most 256 "
                  "levels of arrays and objects",
                  7 + kMaxJsonDepth - 1));
}

TEST(JsonParse, TheDepthIsOfTheDeepestContainerNotOfAllContainers) {
  // Siblings each kMaxJsonDepth - 1 deep in a root array: levels close as they end.
  const std::string deep = std::string(kMaxJsonDepth - 1, '[') + std::string(kMaxJsonDepth - 1, ']');
  const std::string mixed = R"({"a": {"b": []}})";
  Diagnostics diags;
  const auto doc =
      parse_json_text("f.json", "[" + deep + ", " + mixed + ", " + deep + ", " + deep + "]", diags);
  ASSERT_TRUE(doc.has_value()) << diags.to_string();
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_EQ(doc->root.size(), 4u);
  EXPECT_EQ(doc->root[1]["a"]["b"], nlohmann::json::array());
}

TEST(JsonParse, VeryDeepNestingIsRefusedWithoutExhaustingTheStack) {
  Diagnostics diags;
  const std::string text(200'000, '[');  // unterminated too, but the depth is passed first
  EXPECT_FALSE(parse_json_text("f.json", text, diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].column, static_cast<int>(kMaxJsonDepth) + 1);
  EXPECT_TRUE(diags.items()[0].message.starts_with("nesting deeper than 256 levels")) << diags.to_string();
}

TEST(JsonParse, ANulByteIsRefusedWhereItStands) {
  // The parser took the text before a NUL for the whole file: "[]" then anything was valid.
  using namespace std::string_literals;
  const std::array<std::pair<std::string, std::string_view>, 3> cases = {
      {{"[]\0\0"s, "1:3"}, {"{\"a\": 1}\n  \0{\"b\": 2}"s, "2:3"}, {"[\"x\0y\"]"s, "1:4"}}};
  for (const auto& [text, where] : cases) {
    SCOPED_TRACE(where);
    Diagnostics diags;
    EXPECT_FALSE(parse_json_text("f.json", text, diags).has_value());
    ASSERT_EQ(diags.size(), 1u) << diags.to_string();
    EXPECT_EQ(
        format_diagnostic(diags.items()[0]),
        fmt::format("f.json:{}: a NUL byte: JSON text holds none, expected a JSON value or the end", where));
  }
  Diagnostics diags;
  EXPECT_TRUE(parse_json_text("f.json", "[\"\\u0000\"]", diags).has_value()) << "an escaped NUL is text";
  EXPECT_TRUE(diags.empty()) << diags.to_string();
}

// Streamed arrays ------------------------------------------------------------------------------

/// What parse_json_text hands over of the root's arrays "a" and "b": their elements, each
/// restart as "restart".
struct Streamed {
  std::vector<std::string> a, b;
  std::array<StreamedArray, 2> arrays() {
    return {StreamedArray{"a", [this] { a.emplace_back("restart"); },
                          [this](nlohmann::json&& e) { a.push_back(e.dump()); }},
            StreamedArray{"b", [this] { b.emplace_back("restart"); },
                          [this](nlohmann::json&& e) { b.push_back(e.dump()); }}};
  }
};

TEST(JsonParseStreamed, TheElementsOfARootArrayAreHandedOverInOrderAndLeftOutOfTheDocument) {
  Streamed s;
  Diagnostics diags;
  const auto doc = parse_json_text(
      "f.json", R"({"a": [1, "x", {"k": [2, {"a": [3]}]}, [], null], "c": {"a": [4]}, "b": [true]})", diags,
      s.arrays());
  ASSERT_TRUE(doc.has_value()) << diags.to_string();
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_EQ(s.a, (std::vector<std::string>{"restart", "1", "\"x\"", R"({"k":[2,{"a":[3]}]})", "[]", "null"}));
  EXPECT_EQ(s.b, (std::vector<std::string>{"restart", "true"}));
  // Their keys stay, with empty arrays; an "a" deeper down is no root array and stays whole.
  EXPECT_EQ(doc->root.dump(), R"({"a":[],"b":[],"c":{"a":[4]}})");
  // Positions are the text's, whatever the document holds.
  EXPECT_EQ(doc->locate("/a/2/k/1"), (Position{1, 26}));
}

TEST(JsonParseStreamed, AValueOfAnotherTypeStaysAndARepeatedKeyStartsTheArrayAgain) {
  Streamed s;
  Diagnostics diags;
  auto doc = parse_json_text("f.json", R"({"a": [1, 2], "b": "text", "a": [3]})", diags, s.arrays());
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(s.a, (std::vector<std::string>{"restart", "1", "2", "restart", "3"}));
  EXPECT_TRUE(s.b.empty());
  EXPECT_EQ(doc->root.dump(), R"({"a":[],"b":"text"})");
  // The repeated key is reported as ever, at its position.
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "f.json:1:28: /a: duplicate key 'a'; a key may appear only once in an object");
  // The last value is kept, whatever its type.
  Streamed t;
  doc = parse_json_text("f.json", R"({"a": [1], "a": {"x": 1}})", diags, t.arrays());
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->root.dump(), R"({"a":{"x":1}})");
  // A root array has no keys: nothing is streamed.
  Streamed u;
  doc = parse_json_text("f.json", R"([{"a": [1]}])", diags, u.arrays());
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE(u.a.empty());
  EXPECT_EQ(doc->root.dump(), R"([{"a":[1]}])");
}

TEST(JsonParseStreamed, AnElementIsHeldToTheSameRulesAsTheDocument) {
  // Nesting: the root object is level 1, the array level 2, so an element may nest 254 levels.
  const auto nested = [](std::size_t levels) {
    return "{\"a\": [" + std::string(levels - 2, '[') + std::string(levels - 2, ']') + "]}";
  };
  Streamed s;
  Diagnostics diags;
  EXPECT_TRUE(parse_json_text("f.json", nested(kMaxJsonDepth), diags, s.arrays()).has_value());
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_FALSE(parse_json_text("f.json", nested(kMaxJsonDepth + 1), diags, s.arrays()).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].column, static_cast<int>(kMaxJsonDepth) + 6);
  EXPECT_TRUE(diags.items()[0].message.starts_with("nesting deeper than 256 levels")) << diags.to_string();
  // A repeated key within an element, and a syntax error after some elements were handed over.
  Diagnostics more;
  EXPECT_TRUE(parse_json_text("f.json", "{\"a\": [{\"t\": 1,\n \"t\": 2}]}", more, s.arrays()).has_value());
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(format_diagnostic(more.items()[0]),
            "f.json:2:2: /a/0/t: duplicate key 't'; a key may appear only once in an object");
  Diagnostics broken;
  EXPECT_FALSE(parse_json_text("f.json", "{\"a\": [1, 2,]}", broken, s.arrays()).has_value());
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken.items()[0].column, 13);
}

// JsonDocument::locate --------------------------------------------------------------------------

TEST(JsonLocate, RootIsFirstCharacterOfTheValue) {
  const JsonDocument doc = parse_clean("\n  {\"a\": 1}");
  EXPECT_EQ(doc.locate(""), Position(2, 3));
}

TEST(JsonLocate, SkipsUtf8ByteOrderMarkLikeTheParser) {
  const JsonDocument doc = parse_clean("\xEF\xBB\xBF{\"a\": 1}");
  EXPECT_EQ(doc.locate(""), Position(1, 1));  // the mark is no column
  EXPECT_EQ(doc.locate("/a"), Position(1, 7));
}

TEST(JsonLocate, FollowsNestedObjectsAndArrays) {
  const JsonDocument doc = parse_clean(
      "{\n"
      "  \"cards\": [\n"
      "    {\"id\": \"strike\", \"cost\": 1},\n"
      "    {\"id\": \"bash\",\n"
      "     \"effects\": [ {\"op\": \"damage\", \"amount\": 8} ]}\n"
      "  ]\n"
      "}\n");
  EXPECT_EQ(doc.locate("/cards"), Position(2, 12));
  EXPECT_EQ(doc.locate("/cards/0"), Position(3, 5));
  EXPECT_EQ(doc.locate("/cards/0/cost"), Position(3, 30));
  EXPECT_EQ(doc.locate("/cards/1"), Position(4, 5));
  EXPECT_EQ(doc.locate("/cards/1/effects"), Position(5, 17));
  EXPECT_EQ(doc.locate("/cards/1/effects/0"), Position(5, 19));
  EXPECT_EQ(doc.locate("/cards/1/effects/0/amount"), Position(5, 46));
}

TEST(JsonLocate, UnescapesPointerTokens) {
  const JsonDocument doc = parse_clean(R"({"a/b": 1, "m~n": 2, "~1": 3, "": 4})");
  EXPECT_EQ(doc.locate("/a~1b"), Position(1, 9));
  EXPECT_EQ(doc.locate("/m~0n"), Position(1, 19));
  EXPECT_EQ(doc.locate("/~01"), Position(1, 28));
  EXPECT_EQ(doc.locate("/"), Position(1, 35));  // the empty key
  EXPECT_EQ(doc.locate("/a/b"), Position(0, 0));
}

TEST(JsonLocate, ComparesKeysAfterJsonUnescaping) {
  const JsonDocument doc = parse_clean(R"({"a\"": 1, "a": 2, "caf\u00e9": 3, "\ud83d\ude00": 4, "t\tb": 5})");
  EXPECT_EQ(doc.locate("/a\""), Position(1, 9));
  EXPECT_EQ(doc.locate("/a"), Position(1, 17));
  EXPECT_EQ(doc.locate("/caf\xC3\xA9"), Position(1, 33));
  EXPECT_EQ(doc.locate("/\xF0\x9F\x98\x80"), Position(1, 52));
  EXPECT_EQ(doc.locate("/t\tb"), Position(1, 63));
}

TEST(JsonLocate, SkipsBracketsAndQuotesInsideStrings) {
  const JsonDocument doc = parse_clean(R"({"s": "}]{[,:\"\\", "n": [-1.5e3, true, null, "x"], "t": 5})");
  EXPECT_EQ(doc.locate("/t"), Position(1, 58));
  EXPECT_EQ(doc.locate("/n/3"), Position(1, 47));
}

TEST(JsonLocate, RepeatedKeyResolvesToTheLastOccurrenceLikeTheParser) {
  Diagnostics diags;
  const JsonDocument doc = parse_json_text("f.json", R"({"a": 1, "a": {"b": 2}})", diags).value();
  EXPECT_EQ(doc.locate("/a"), Position(1, 15));
  EXPECT_EQ(doc.locate("/a/b"), Position(1, 21));
}

TEST(JsonLocate, UnresolvedPointerGivesZeroZero) {
  const JsonDocument doc = parse_clean(R"({"cards": [{"id": "strike"}], "n": 3})");
  EXPECT_EQ(doc.locate("/nope"), Position(0, 0));
  EXPECT_EQ(doc.locate("/cards/1"), Position(0, 0));   // past the end
  EXPECT_EQ(doc.locate("/cards/-"), Position(0, 0));   // "-" names no element
  EXPECT_EQ(doc.locate("/cards/01"), Position(0, 0));  // leading zero is not an index
  EXPECT_EQ(doc.locate("/cards/x"), Position(0, 0));
  EXPECT_EQ(doc.locate("/cards/0/id/x"), Position(0, 0));  // a string has no members
  EXPECT_EQ(doc.locate("/n/0"), Position(0, 0));
  EXPECT_EQ(doc.locate("cards"), Position(0, 0));  // not a pointer
  EXPECT_EQ(doc.locate("/~2"), Position(0, 0));    // bad escape
  EXPECT_EQ(doc.locate("/cards~"), Position(0, 0));
}

/// The byte offset of a 1-based position, for checking that a position lies inside a text.
std::size_t offset_of(std::string_view text, Position position) {
  std::size_t offset = 0;
  for (int line = 1; line < position.first; ++line) offset = text.find('\n', offset) + 1;
  return offset + static_cast<std::size_t>(position.second - 1);
}

TEST(JsonLocate, StaysInsideTruncatedAndMalformedText) {
  const std::string full =
      R"({"a": [1, {"b\"\\": "x\u00e9"}, [true]], "c": {"d": -2.5e1}, "e": "\ud83d\ude00"})";
  const std::array<std::string_view, 8> pointers{"",       "/a",   "/a/1", "/a/1/b\"\\",
                                                 "/a/2/0", "/c/d", "/e",   "/a/9"};
  for (std::size_t size = 0; size <= full.size(); ++size) {
    const JsonDocument doc{.file = "f.json", .text = full.substr(0, size), .root = {}};
    for (std::string_view pointer : pointers) {
      const Position found = doc.locate(pointer);
      if (found == Position(0, 0)) continue;
      EXPECT_LT(offset_of(doc.text, found), doc.text.size()) << "size " << size << " pointer " << pointer;
    }
  }
  for (const char* broken :
       {"{\"a\" 1}", "{\"a\": }", "[1,,2]", "{\"a\": \"\\u12", "{\"a\": \"\\ud800\\u0041\"}", "]]]]", "{{{{",
        "\"\\", "{\"a\":[}", "{,\"a\": 1}"}) {
    const JsonDocument doc{.file = "f.json", .text = broken, .root = {}};
    for (std::string_view pointer : pointers) {
      const Position found = doc.locate(pointer);
      if (found == Position(0, 0)) continue;
      EXPECT_LT(offset_of(doc.text, found), doc.text.size()) << broken << " pointer " << pointer;
    }
  }
  const JsonDocument missing_value{.file = "f", .text = "{\"a\": }", .root = {}};
  EXPECT_EQ(missing_value.locate("/a"), Position(0, 0));
  const JsonDocument blank{.file = "f", .text = "   ", .root = {}};
  EXPECT_EQ(blank.locate(""), Position(0, 0));
}

TEST(JsonLocate, EveryValueOfALongListIsLocatedWhereItIs) {
  // A loader reports a problem of each of thousands of items, each located in the same text: the
  // document scans each container once and keeps where its values start (BM_LoadPackWithAProblemPerCard in
  // bench/ measures it). Located last to first, every value is still found where it is.
  constexpr int kItems = 3'000;
  std::string text = "{\"items\": [\n";
  for (int i = 0; i < kItems; ++i)
    text += fmt::format("  {{\"v\": {}, \"w\": [{}, {{\"x\": 1}}]}}{}\n", i, i, i + 1 < kItems ? "," : "");
  text += "], \"last\": true}";
  const JsonDocument doc = parse_clean(text);
  for (int i = kItems - 1; i >= 0; --i) {
    const int line = i + 2;
    const int digits = static_cast<int>(fmt::formatted_size("{}", i));
    const int w = 9 + digits + 7;  // the '[' after `  {"v": <i>, "w": `
    ASSERT_EQ(doc.locate(fmt::format("/items/{}/v", i)), Position(line, 9)) << i;
    ASSERT_EQ(doc.locate(fmt::format("/items/{}/w", i)), Position(line, w)) << i;
    ASSERT_EQ(doc.locate(fmt::format("/items/{}/w/1/x", i)), Position(line, w + digits + 3 + 6)) << i;
    ASSERT_EQ(doc.locate(fmt::format("/items/{}/w/2", i)), Position(0, 0)) << i;
  }
  EXPECT_EQ(doc.locate("/last"), Position(kItems + 2, 12));
  EXPECT_EQ(doc.locate(fmt::format("/items/{}", kItems)), Position(0, 0));
}

TEST(JsonLocate, LinesEndWithLineFeedsCarriageReturnsOrBoth) {
  // Each ending over many blocks of the document's line index, a CR LF pair straddling some.
  for (const std::string_view eol : {"\n", "\r\n", "\r"}) {
    constexpr int kItems = 400;
    std::string text = fmt::format("[{}", eol);
    for (int i = 0; i < kItems; ++i)
      text += fmt::format("  {{\"v\": {}}}{}{}", i, i + 1 < kItems ? "," : "", eol);
    text += "]";
    const JsonDocument doc = parse_clean(text);
    for (int i = 0; i < kItems; ++i) ASSERT_EQ(doc.locate(fmt::format("/{}/v", i)), Position(i + 2, 9)) << i;
    Diagnostics diags;
    EXPECT_FALSE(parse_json_text("f.json", fmt::format("{}{} x", text, eol), diags).has_value());
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags.items()[0].line, kItems + 3) << diags.to_string();
    EXPECT_EQ(diags.items()[0].column, 2) << diags.to_string();
  }
}

TEST(JsonLocate, ACopyLocatesInItsOwnText) {
  JsonDocument doc = parse_clean("{\"a\": 1,\n \"b\": 2}");
  EXPECT_EQ(doc.locate("/b"), Position(2, 7));
  JsonDocument copy = doc;
  copy.text = "{\"b\": 2, \"a\": 1}";
  EXPECT_EQ(copy.locate("/b"), Position(1, 7));
  EXPECT_EQ(doc.locate("/b"), Position(2, 7));
  doc = copy;
  EXPECT_EQ(doc.locate("/a"), Position(1, 15));
}

TEST(JsonLocate, DiagnosticCarriesThePosition) {
  const JsonDocument doc = parse_clean("{\n  \"cost\": 12\n}");
  const Diagnostic d = doc.diagnostic("/cost", "too expensive");
  EXPECT_EQ(format_diagnostic(d), "test.json:2:11: /cost: too expensive");
}

// child_pointer, describe_json_type -------------------------------------------------------------

TEST(JsonPointer, ChildPointerEscapesTildeThenSlash) {
  EXPECT_EQ(child_pointer("", "cards"), "/cards");
  EXPECT_EQ(child_pointer("/x", "a/b~c"), "/x/a~1b~0c");
  EXPECT_EQ(child_pointer("/x", "~1"), "/x/~01");
  EXPECT_EQ(child_pointer("", ""), "/");
  EXPECT_EQ(child_pointer("/cards", std::size_t{12}), "/cards/12");
}

TEST(JsonPointer, ChildPointerOfAnyKeyLocatesThatKey) {
  const JsonDocument doc = parse_clean(R"({"a/b~c": {"~/": [0, 7]}})");
  const std::string pointer = child_pointer(child_pointer(child_pointer("", "a/b~c"), "~/"), std::size_t{1});
  EXPECT_EQ(doc.locate(pointer), Position(1, 22));
  EXPECT_EQ(doc.root.at(nlohmann::json::json_pointer(pointer)), 7);  // agrees with nlohmann
}

TEST(JsonTypeDescription, NamesEveryType) {
  EXPECT_EQ(describe_json_type(nlohmann::json("x")), "a string");
  EXPECT_EQ(describe_json_type(nlohmann::json(-3)), "an integer");
  EXPECT_EQ(describe_json_type(nlohmann::json(3u)), "an integer");
  EXPECT_EQ(describe_json_type(nlohmann::json::parse("18446744073709551615")), "an integer");
  EXPECT_EQ(describe_json_type(nlohmann::json(1.5)), "a number");
  EXPECT_EQ(describe_json_type(nlohmann::json::parse("1.0")), "a number");
  EXPECT_EQ(describe_json_type(nlohmann::json(false)), "a boolean");
  EXPECT_EQ(describe_json_type(nlohmann::json(nullptr)), "null");
  EXPECT_EQ(describe_json_type(nlohmann::json::array()), "an array");
  EXPECT_EQ(describe_json_type(nlohmann::json::object()), "an object");
}

// ObjectReader ----------------------------------------------------------------------------------

TEST(ObjectReader, NonObjectIsReportedOnceAndEveryAccessorIsSilent) {
  const JsonDocument doc = parse_clean("{\"cards\": [\n  5\n]}");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root["cards"][0], "/cards/0", diags);
  EXPECT_FALSE(reader.valid());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:2:3: /cards/0: expected an object, got an integer");

  EXPECT_FALSE(reader.has("id"));
  EXPECT_FALSE(reader.required_string("id"));
  EXPECT_FALSE(reader.optional_string("name"));
  EXPECT_FALSE(reader.required_int("cost", 0, 9));
  EXPECT_FALSE(reader.optional_int("hp", 0, 9));
  EXPECT_EQ(reader.int_or("upgrades", 4, 0, 9), 4);
  EXPECT_TRUE(reader.bool_or("exhaust", true));
  EXPECT_FALSE(reader.required_enum("type", kCardTypes));
  EXPECT_FALSE(reader.enum_or("rarity", kCardTypes, 0));
  EXPECT_EQ(reader.required_array("effects"), nullptr);
  EXPECT_EQ(reader.optional_array("tags"), nullptr);
  EXPECT_EQ(reader.optional_object("upgrade"), nullptr);
  EXPECT_EQ(reader.optional_value("extra"), nullptr);
  reader.finish();
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(ObjectReader, RequiredStringReadsTheValue) {
  const JsonDocument doc = parse_clean(R"({"id": "strike"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_TRUE(reader.valid());
  EXPECT_EQ(reader.required_string("id"), "strike");
  reader.finish();
  EXPECT_TRUE(diags.empty()) << diags.to_string();
}

TEST(ObjectReader, RequiredStringReportsWrongTypeAtTheValue) {
  const JsonDocument doc = parse_clean("{\"cards\": [{\n  \"id\": 7\n}]}");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root["cards"][0], "/cards/0", diags);
  EXPECT_FALSE(reader.required_string("id"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:2:9: /cards/0/id: expected a string, got an integer");
}

TEST(ObjectReader, RequiredStringReportsMissingKeyAtTheObject) {
  const JsonDocument doc = parse_clean("[\n {\"name\": \"x\"}]");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root[0], "/0", diags);
  EXPECT_FALSE(reader.required_string("id"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]), "test.json:2:2: /0: missing required key 'id' (a string)");
}

TEST(ObjectReader, OptionalStringIsSilentWhenAbsentAndStrictWhenPresent) {
  const JsonDocument doc = parse_clean(R"({"name": ["x"], "note": "ok"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.optional_string("title"));
  EXPECT_EQ(reader.optional_string("note"), "ok");
  EXPECT_FALSE(reader.optional_string("name"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].pointer, "/name");
  EXPECT_EQ(diags.items()[0].message, "expected a string, got an array");
}

TEST(ObjectReader, ANameIsAStringWithoutControlCharacters) {
  const JsonDocument doc =
      parse_clean(R"({"plain": "Iron Wave", "wide": "Épée 剣", "nl": "a\nb", "del": "x\u007f", "num": 3})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.required_name("plain"), "Iron Wave");
  EXPECT_EQ(reader.optional_name("wide"), "Épée 剣");
  EXPECT_FALSE(reader.optional_name("absent"));
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_FALSE(reader.optional_name("nl"));
  EXPECT_FALSE(reader.required_name("del"));
  EXPECT_FALSE(reader.required_name("num"));
  EXPECT_FALSE(reader.required_name("missing"));
  ASSERT_EQ(diags.size(), 4u) << diags.to_string();
  EXPECT_EQ(diags.items()[0].pointer, "/nl");
  EXPECT_EQ(diags.items()[0].message,
            R"(expected a name on one line, without control characters; got "a\nb" with U+000A at byte 1)");
  EXPECT_EQ(diags.items()[1].pointer, "/del");
  EXPECT_NE(diags.items()[1].message.find("with U+007F at byte 1"), std::string::npos) << diags.to_string();
  EXPECT_EQ(diags.items()[2].message, "expected a string, got an integer");
  EXPECT_NE(diags.items()[3].message.find("missing required key 'missing'"), std::string::npos)
      << diags.to_string();
}

TEST(ObjectReader, RequiredIntAcceptsTheBounds) {
  const JsonDocument doc = parse_clean(R"({"low": 1, "high": 999, "neg": -5})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.required_int("low", 1, 999), 1);
  EXPECT_EQ(reader.required_int("high", 1, 999), 999);
  EXPECT_EQ(reader.required_int("neg", -5, 5), -5);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
}

TEST(ObjectReader, RequiredIntReportsOutOfRangeWithValueAndRange) {
  const JsonDocument doc = parse_clean(R"({"hp": 1000, "block": -1})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_int("hp", 1, 999));
  EXPECT_FALSE(reader.required_int("block", 0, 99));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:1:8: /hp: expected an integer in [1, 999], got 1000");
  EXPECT_EQ(diags.items()[1].message, "expected an integer in [0, 99], got -1");
}

TEST(ObjectReader, RequiredIntRejectsFloatsEvenWhole) {
  const JsonDocument doc = parse_clean(R"({"cost": 1.0, "hp": 2.5})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_int("cost", 0, 9));
  EXPECT_FALSE(reader.required_int("hp", 0, 9));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected an integer in [0, 9], got a number");
  EXPECT_EQ(diags.items()[1].pointer, "/hp");
}

TEST(ObjectReader, RequiredIntReportsWrongType) {
  const JsonDocument doc = parse_clean(R"({"cost": "1", "hp": true})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_int("cost", 0, 9));
  EXPECT_FALSE(reader.required_int("hp", 0, 9));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected an integer in [0, 9], got a string");
  EXPECT_EQ(diags.items()[1].message, "expected an integer in [0, 9], got a boolean");
}

TEST(ObjectReader, RequiredIntReportsMissingKeyWithExpectedRange) {
  const JsonDocument doc = parse_clean(R"({"id": "strike"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_int("cost", 0, 9));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:1:1: missing required key 'cost' (an integer in [0, 9])");
}

TEST(ObjectReader, IntegersBeyondInt64AreReportedNotWrapped) {
  const JsonDocument doc =
      parse_clean(R"({"max": 9223372036854775807, "over": 9223372036854775808, "huge": 18446744073709551615,)"
                  R"( "min": -9223372036854775808})");
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.required_int("max", 0, kMax), kMax);
  EXPECT_EQ(reader.required_int("min", kMin, kMax), kMin);
  EXPECT_FALSE(reader.required_int("over", 0, kMax));
  EXPECT_FALSE(reader.required_int("huge", kMin, 9));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected an integer >= 0, got 9223372036854775808");
  EXPECT_EQ(diags.items()[1].message, "expected an integer <= 9, got 18446744073709551615");
}

TEST(ObjectReader, OptionalIntIsSilentWhenAbsentAndChecksWhenPresent) {
  const JsonDocument doc = parse_clean(R"({"hp": 50, "armor": 500})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.optional_int("block", 0, 99));
  EXPECT_TRUE(diags.empty());
  EXPECT_EQ(reader.optional_int("hp", 1, 999), 50);
  EXPECT_FALSE(reader.optional_int("armor", 0, 99));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "expected an integer in [0, 99], got 500");
}

TEST(ObjectReader, OptionalSeedTakesEvery64BitValueAndNamesABadOne) {
  const JsonDocument doc = parse_clean(
      R"({"a": 0, "b": 18446744073709551615, "c": -1, "d": 1.0, "e": "7", "f": 18446744073709551616})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.optional_seed("none"));
  EXPECT_EQ(reader.optional_seed("a"), 0u);
  EXPECT_EQ(reader.optional_seed("b"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  for (const char* key : {"c", "d", "e", "f"}) EXPECT_FALSE(reader.optional_seed(key)) << key;
  ASSERT_EQ(diags.size(), 4u);
  EXPECT_EQ(diags.items()[0].message, "expected a seed: an integer in [0, 2^64), got -1");
  EXPECT_EQ(diags.items()[1].message, "expected a seed: an integer in [0, 2^64), got a number");
  EXPECT_EQ(diags.items()[2].message, "expected a seed: an integer in [0, 2^64), got a string");
  EXPECT_EQ(diags.items()[3].message, "expected a seed: an integer in [0, 2^64), got a number");
  EXPECT_EQ(diags.items()[0].pointer, "/c");
}

TEST(ObjectReader, IntOrGivesFallbackWhenAbsentOrBad) {
  const JsonDocument doc = parse_clean(R"({"draw": 7, "energy": 30, "hand": "ten"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.int_or("draw", 5, 0, 10), 7);
  EXPECT_EQ(reader.int_or("block", 5, 0, 10), 5);
  EXPECT_TRUE(diags.empty());
  EXPECT_EQ(reader.int_or("energy", 3, 0, 10), 3);
  EXPECT_EQ(reader.int_or("hand", 10, 0, 10), 10);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected an integer in [0, 10], got 30");
  EXPECT_EQ(diags.items()[1].message, "expected an integer in [0, 10], got a string");
}

TEST(ObjectReader, BoolOrReadsBooleansOnly) {
  const JsonDocument doc = parse_clean(R"({"exhaust": true, "ethereal": false, "innate": 1})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_TRUE(reader.bool_or("exhaust", false));
  EXPECT_FALSE(reader.bool_or("ethereal", true));
  EXPECT_TRUE(reader.bool_or("retain", true));
  EXPECT_FALSE(reader.bool_or("retain2", false));
  EXPECT_TRUE(diags.empty());
  EXPECT_TRUE(reader.bool_or("innate", true));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].pointer, "/innate");
  EXPECT_EQ(diags.items()[0].message, "expected a boolean, got an integer");
}

TEST(ObjectReader, RequiredEnumGivesIndexInAllowed) {
  const JsonDocument doc = parse_clean(R"({"type": "power"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.required_enum("type", kCardTypes), 2u);
  EXPECT_TRUE(diags.empty());
}

TEST(ObjectReader, RequiredEnumListsAllowedValuesForUnknownValue) {
  const JsonDocument doc = parse_clean("{\n\"type\": \"foo\"}");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_enum("type", kCardTypes));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:2:9: /type: unknown value 'foo'; expected one of: attack, skill, power");
}

TEST(ObjectReader, RequiredEnumReportsWrongTypeAndMissingKey) {
  const JsonDocument doc = parse_clean(R"({"type": 1})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_FALSE(reader.required_enum("type", kCardTypes));
  EXPECT_FALSE(reader.required_enum("rarity", kCardTypes));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected a string (one of: attack, skill, power), got an integer");
  EXPECT_EQ(diags.items()[1].message, "missing required key 'rarity' (one of: attack, skill, power)");
}

TEST(ObjectReader, EnumOrGivesFallbackOnlyWhenAbsent) {
  const JsonDocument doc = parse_clean(R"({"type": "skill", "target": "nobody"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.enum_or("type", kCardTypes, 0), 1u);
  EXPECT_EQ(reader.enum_or("kind", kCardTypes, 2), 2u);
  EXPECT_TRUE(diags.empty());
  EXPECT_FALSE(reader.enum_or("target", kCardTypes, 0));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "unknown value 'nobody'; expected one of: attack, skill, power");
  reader.finish();
  EXPECT_EQ(diags.size(), 1u) << "an absent enum key still counts as allowed";
}

TEST(ObjectReader, RequiredArrayChecksPresenceAndType) {
  const JsonDocument doc = parse_clean(R"({"effects": [1, 2], "tags": {}})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  const nlohmann::json* effects = reader.required_array("effects");
  ASSERT_NE(effects, nullptr);
  EXPECT_EQ(effects->size(), 2u);
  EXPECT_EQ(reader.required_array("tags"), nullptr);
  EXPECT_EQ(reader.required_array("moves"), nullptr);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "expected an array, got an object");
  EXPECT_EQ(diags.items()[0].pointer, "/tags");
  EXPECT_EQ(diags.items()[1].message, "missing required key 'moves' (an array)");
  EXPECT_EQ(diags.items()[1].pointer, "");
}

TEST(ObjectReader, OptionalArrayIsSilentWhenAbsentAndStrictWhenPresent) {
  const JsonDocument doc = parse_clean(R"({"tags": ["a"], "keywords": "retain"})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.optional_array("moves"), nullptr);
  EXPECT_TRUE(diags.empty());
  ASSERT_NE(reader.optional_array("tags"), nullptr);
  EXPECT_EQ(reader.optional_array("keywords"), nullptr);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "expected an array, got a string");
}

TEST(ObjectReader, OptionalObjectIsSilentWhenAbsentAndStrictWhenPresent) {
  const JsonDocument doc = parse_clean(R"({"upgrade": {"cost": 0}, "intent": null})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.optional_object("rewards"), nullptr);
  const nlohmann::json* upgrade = reader.optional_object("upgrade");
  ASSERT_NE(upgrade, nullptr);
  EXPECT_EQ((*upgrade)["cost"], 0);
  EXPECT_EQ(reader.optional_object("intent"), nullptr);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "expected an object, got null");
}

TEST(ObjectReader, OptionalValueTakesAnyTypeAndAllowsTheKey) {
  const JsonDocument doc = parse_clean(R"({"params": [1, "x", null]})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  const nlohmann::json* params = reader.optional_value("params");
  ASSERT_NE(params, nullptr);
  EXPECT_TRUE(params->is_array());
  EXPECT_EQ(reader.optional_value("absent"), nullptr);
  reader.finish();
  EXPECT_TRUE(diags.empty()) << diags.to_string();
}

TEST(ObjectReader, FinishListsAllowedKeysInDeclarationOrder) {
  const JsonDocument doc = parse_clean("{\"cards\": [{\n  \"id\": \"strike\",\n  \"cots\": 1\n}]}");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root["cards"][0], "/cards/0", diags);
  EXPECT_EQ(reader.required_string("id"), "strike");
  EXPECT_EQ(reader.int_or("cost", 1, 0, 9), 1);  // absent, but allowed
  EXPECT_TRUE(reader.bool_or("exhaust", true));
  EXPECT_EQ(reader.required_string("id"), "strike");  // asking twice lists it once
  EXPECT_TRUE(diags.empty());
  reader.finish();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:3:11: /cards/0/cots: unknown key 'cots'; allowed keys: id, cost, exhaust");
}

TEST(ObjectReader, FinishReportsUnknownKeysInDocumentOrder) {
  const JsonDocument doc = parse_clean(R"({"zeta": 1, "id": "x", "alpha": 2, "a/b": 3})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_EQ(reader.required_string("id"), "x");
  reader.finish();
  ASSERT_EQ(diags.size(), 3u);
  EXPECT_EQ(diags.items()[0].pointer, "/zeta");
  EXPECT_EQ(diags.items()[1].pointer, "/alpha");
  EXPECT_EQ(diags.items()[2].pointer, "/a~1b");
  EXPECT_EQ(diags.items()[2].message, "unknown key 'a/b'; allowed keys: id");
  EXPECT_EQ(diags.items()[2].column, 43);
}

TEST(ObjectReader, FinishSaysWhenNoKeysAreAllowed) {
  const JsonDocument doc = parse_clean(R"({"x": 1})");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_TRUE(reader.has("x"));  // has() looks without declaring
  reader.finish();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "unknown key 'x'; this object takes no keys");
}

TEST(ObjectReader, HasLooksForPresence) {
  const JsonDocument doc = parse_clean(R"({"id": null})");
  Diagnostics diags;
  const ObjectReader reader(doc, doc.root, "", diags);
  EXPECT_TRUE(reader.has("id"));
  EXPECT_FALSE(reader.has("cost"));
}

TEST(ObjectReader, ErrorReportsAtObjectOrKeyWithPositions) {
  const JsonDocument doc = parse_clean("{\"cards\": [\n  {\"id\": \"x\", \"cost\": 3}]}");
  Diagnostics diags;
  ObjectReader reader(doc, doc.root["cards"][0], "/cards/0", diags);
  EXPECT_EQ(reader.pointer(), "/cards/0");
  EXPECT_EQ(&reader.document(), &doc);
  EXPECT_EQ(&reader.diagnostics(), &diags);
  EXPECT_EQ(reader.pointer_of("a/b"), "/cards/0/a~1b");
  reader.error_at("cost", "cost 3 needs an energy rule");
  reader.error("unreachable card");
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            "test.json:2:23: /cards/0/cost: cost 3 needs an energy rule");
  EXPECT_EQ(format_diagnostic(diags.items()[1]), "test.json:2:3: /cards/0: unreachable card");
}

// Files -----------------------------------------------------------------------------------------

/// A fresh directory under the system temp directory, removed after the test.
class ContentFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("battlecore_content_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path write(const std::string& name, std::string_view text) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    return path;
  }

  fs::path dir_;
};

TEST_F(ContentFiles, DirectoryGivesItsJsonFilesSortedByName) {
  write("b.json", "{}");
  write("a.json", "{}");
  write("c.txt", "{}");
  write("A.JSON", "{}");
  write("a.json.bak", "{}");
  write("nested/0.json", "{}");
  fs::create_directories(dir_ / "d.json");
  Diagnostics diags;
  const std::vector<fs::path> files = content_files(dir_, diags);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].filename(), "a.json");
  EXPECT_EQ(files[1].filename(), "b.json");
  EXPECT_EQ(files[0].parent_path(), dir_);
}

TEST_F(ContentFiles, AFileHandsOverTheArraysOfItsRootAsItsTextWould) {
  const fs::path path = write("streamed.json", R"({"b": [1, [2]], "a": []})");
  Streamed s;
  Diagnostics diags;
  const auto doc = parse_json_file(path, diags, s.arrays());
  ASSERT_TRUE(doc.has_value()) << diags.to_string();
  EXPECT_EQ(s.b, (std::vector<std::string>{"restart", "1", "[2]"}));
  EXPECT_EQ(s.a, (std::vector<std::string>{"restart"}));
  EXPECT_EQ(doc->root.dump(), R"({"a":[],"b":[]})");
  EXPECT_EQ(doc->text, R"({"b": [1, [2]], "a": []})");
}

// A .json entry that is no regular file is listed, so that reading it reports it: a pack with a
// link to a missing file does not load as if the file were not meant to be there.
TEST_F(ContentFiles, ALinkToNothingIsListedAndReportedWhenRead) {
  write("a.json", "{}");
  fs::create_symlink("a.json", dir_ / "b.json");
  fs::create_symlink("gone.json", dir_ / "c.json");
  fs::create_symlink("gone", dir_ / "notes.txt");
  Diagnostics diags;
  const std::vector<fs::path> files = content_files(dir_, diags);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[2].filename(), "c.json");
  EXPECT_TRUE(parse_json_file(files[1], diags).has_value()) << diags.to_string();
  EXPECT_FALSE(parse_json_file(files[2], diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]),
            (dir_ / "c.json").string() + ": a symbolic link to 'gone.json', which does not exist");
}

TEST_F(ContentFiles, FileGivesItself) {
  const fs::path file = write("pack.json", "{}");
  Diagnostics diags;
  const std::vector<fs::path> files = content_files(file, diags);
  EXPECT_TRUE(diags.empty());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0], file);
}

TEST_F(ContentFiles, MissingPathIsReported) {
  const fs::path missing = dir_ / "nope";
  Diagnostics diags;
  EXPECT_TRUE(content_files(missing, diags).empty());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]), missing.string() + ": no such file or directory");
}

TEST_F(ContentFiles, DirectoryWithoutJsonIsReported) {
  write("readme.txt", "cards go here");
  Diagnostics diags;
  EXPECT_TRUE(content_files(dir_, diags).empty());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].file, dir_.string());
  EXPECT_EQ(diags.items()[0].message, "no .json content files in directory");
}

TEST_F(ContentFiles, ParseFileKeepsExactBytesAndPathAsName) {
  const std::string text = "{\r\n  \"a\": [1, 2]\r\n}\r\n";
  const fs::path file = write("cards.json", text);
  Diagnostics diags;
  const std::optional<JsonDocument> doc = parse_json_file(file, diags);
  ASSERT_TRUE(doc.has_value()) << diags.to_string();
  EXPECT_TRUE(diags.empty());
  EXPECT_EQ(doc->file, file.string());
  EXPECT_EQ(doc->text, text);
  EXPECT_EQ(doc->root["a"][1], 2);
  EXPECT_EQ(doc->locate("/a/1"), Position(2, 12));
}

TEST_F(ContentFiles, ParseFileReportsSyntaxErrorWithFileName) {
  const fs::path file = write("bad.json", "[1,\n 2,]");
  Diagnostics diags;
  EXPECT_FALSE(parse_json_file(file, diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].file, file.string());
  EXPECT_EQ(diags.items()[0].line, 2);
  EXPECT_EQ(diags.items()[0].column, 4);
}

TEST_F(ContentFiles, ParseFileReportsMissingFileAndDirectory) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_file(dir_ / "missing.json", diags).has_value());
  EXPECT_FALSE(parse_json_file(dir_, diags).has_value());
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags.items()[0].message, "no such file or directory");
  EXPECT_EQ(diags.items()[1].message, "is a directory, expected a JSON file");
}

TEST_F(ContentFiles, ParseFileRefusesWhatIsNotARegularFile) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_file("/dev/null", diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(format_diagnostic(diags.items()[0]), "/dev/null: not a regular file; expected a JSON file");
}

TEST_F(ContentFiles, ParseFileRefusesAFileLargerThanTheLimit) {
  const fs::path file = write("huge.json", "[]");
  fs::resize_file(file, kMaxJsonFileBytes + 1);  // sparse: no disk is written
  Diagnostics diags;
  EXPECT_FALSE(parse_json_file(file, diags).has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.items()[0].message, "larger than 67108864 bytes, the most a JSON file may have");
  fs::resize_file(file, kMaxJsonFileBytes);
  diags = {};
  (void)parse_json_file(file, diags);  // at the limit it is read
  for (const Diagnostic& d : diags.items()) EXPECT_EQ(d.message.find("larger than"), std::string::npos);
}

TEST(JsonUnknownKey, NamesTheFirstKeyNotAllowedAndListsTheAllowedOnes) {
  constexpr std::array<std::string_view, 2> kAllowed{"type", "index"};
  EXPECT_EQ(unknown_key(nlohmann::json::parse(R"({"type": "x", "index": 1})"), kAllowed), std::nullopt);
  EXPECT_EQ(unknown_key(nlohmann::json::parse(R"({"type": "x", "zz": 1, "bogus": 2})"), kAllowed),
            "unknown key 'bogus'; allowed keys: type, index");
}

}  // namespace
// foreign_rule_set -------------------------------------------------------------------------------

TEST(ForeignRuleSet, ReportsAnotherRuleSetAtPackRulesOnly) {
  std::vector<JsonDocument> docs;
  docs.push_back(parse_clean(R"({"cards": []})"));
  docs.push_back(parse_clean("{\n  \"pack\": {\"id\": \"p\", \"rules\": \"clash\"}\n}"));
  Diagnostics diags;
  EXPECT_TRUE(foreign_rule_set(docs, "party", diags));
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(d.pointer, "/pack/rules");
  EXPECT_EQ(d.line, 2);
  EXPECT_EQ(d.column, 32);
  EXPECT_EQ(d.message, "this pack is for rule set 'clash', not 'party'; nothing else in it was read");
}

TEST(ForeignRuleSet, LeavesTheSameAMissingOrABadRuleSetToTheLoader) {
  for (const char* text : {R"({"pack": {"id": "p", "rules": "party"}})", R"({"pack": {"id": "p"}})",
                           R"({"pack": {"id": "p", "rules": 3}})", R"({"pack": []})", R"([1])"}) {
    SCOPED_TRACE(text);
    std::vector<JsonDocument> docs;
    docs.push_back(parse_clean(text));
    Diagnostics diags;
    EXPECT_FALSE(foreign_rule_set(docs, "party", diags));
    EXPECT_TRUE(diags.empty()) << diags.to_string();
  }
}

}  // namespace battlecore::content
