#include "battlecore/content/scenario_io.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace battlecore::content {
namespace {

JsonDocument parse_clean(std::string text) {
  Diagnostics diags;
  std::optional<JsonDocument> doc = parse_json_text("scenario.json", std::move(text), diags);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  return std::move(doc).value();
}

/// Reads `text`'s "seats" for a battle of `count` seats; each entry's "hp" goes into `hp`.
std::pair<bool, Diagnostics> read_seats(const std::string& text, std::size_t count, std::vector<int>& hp,
                                        std::vector<std::string>& pointers) {
  const JsonDocument doc = parse_clean(text);
  Diagnostics diags;
  ObjectReader r(doc, doc.root, "", diags);
  const bool present =
      read_entries(r, "seats", count, "encounter 'duel'", "seats", [&](ObjectReader& seat, std::size_t i) {
        pointers.push_back(seat.pointer());
        if (const auto v = seat.optional_int("hp", 0, 99)) hp[i] = int(*v);
        seat.finish();
      });
  r.finish();
  return {present, std::move(diags)};
}

TEST(ScenarioReadEntries, ReadsEachEntryAtItsPointer) {
  std::vector<int> hp(3, -1);
  std::vector<std::string> pointers;
  const auto [present, diags] = read_seats(R"({"seats": [{"hp": 4}, {}, {"hp": 6}]})", 3, hp, pointers);
  EXPECT_TRUE(present);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_EQ(hp, (std::vector<int>{4, -1, 6}));
  EXPECT_EQ(pointers, (std::vector<std::string>{"/seats/0", "/seats/1", "/seats/2"}));
}

TEST(ScenarioReadEntries, AnAbsentKeyReadsNothing) {
  std::vector<int> hp(2, -1);
  std::vector<std::string> pointers;
  const auto [present, diags] = read_seats(R"({})", 2, hp, pointers);
  EXPECT_FALSE(present);
  EXPECT_TRUE(diags.empty()) << diags.to_string();
  EXPECT_TRUE(pointers.empty());
}

TEST(ScenarioReadEntries, RefusesMoreEntriesThanTheBattleHasAndReadsTheOthers) {
  std::vector<int> hp(2, -1);
  std::vector<std::string> pointers;
  const auto [present, diags] =
      read_seats(R"({"seats": [{"hp": 1}, {"hp": 2}, {"hp": 3}]})", 2, hp, pointers);
  EXPECT_TRUE(present);
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  EXPECT_EQ(diags.items()[0].pointer, "/seats");
  EXPECT_EQ(diags.items()[0].message, "encounter 'duel' has 2 seats; 3 are given");
  EXPECT_EQ(hp, (std::vector<int>{1, 2}));
  EXPECT_EQ(pointers.size(), 2u);
}

TEST(ScenarioReadEntries, AnEntryThatIsNotAnObjectIsReportedAtItsPointer) {
  std::vector<int> hp(2, -1);
  std::vector<std::string> pointers;
  const auto [present, diags] = read_seats(R"({"seats": [{"hp": 1}, 7]})", 2, hp, pointers);
  EXPECT_TRUE(present);
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  EXPECT_EQ(diags.items()[0].pointer, "/seats/1");
  EXPECT_EQ(hp, (std::vector<int>{1, -1}));
}

}  // namespace
}  // namespace battlecore::content
