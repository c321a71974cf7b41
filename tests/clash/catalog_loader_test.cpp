// Loading clash content: the bundled pack, every parameter read, and bad content refused with
// every problem listed at its pointer.

#include <fstream>

#include <gtest/gtest.h>

#include "battlecore/clash/load.hpp"
#include "support/clash_pack.hpp"
#include "support/json_list.hpp"
#include "support/temp_dir.hpp"

namespace battlecore::clash {
namespace {

/// The diagnostics of loading `text`, which must fail.
content::Diagnostics problems(const std::string& text) {
  CatalogResult r = load_catalog_text("bad.json", text);
  EXPECT_FALSE(r.ok()) << "loaded although it should not";
  if (r.ok()) return {};
  return r.error();
}

std::string encounter(const std::string& seats, const std::string& rules = "{}") {
  return R"({"pack": {"id": "t", "rules": "clash"},
  "encounters": [{"id": "e", "seats": )" +
         seats + R"(, "rules": )" + rules + "}]}";
}

bool has(const content::Diagnostics& d, std::string_view pointer, std::string_view words) {
  for (const auto& item : d.items())
    if (item.pointer == pointer && item.message.find(words) != std::string::npos && item.line > 0)
      return true;
  return false;
}

TEST(ClashCatalogLoader, ClassicPackLoadsWithItsDefaultEncounter) {
  const auto c = test::classic();
  ASSERT_TRUE(c->pack.default_encounter.has_value());
  const EncounterDef& e = c->encounters[*c->pack.default_encounter];
  EXPECT_EQ(e.id, "classic");
  ASSERT_EQ(e.seats.size(), 4u);
  EXPECT_EQ(e.seats[0].kind, SeatKind::Human);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(e.seats[i].kind, SeatKind::Bot);
  for (const char* id : {"duel", "trio", "bots4", "old_rules", "later_wins", "listed_deck", "big_ring",
                         "resetup", "human_out"})
    EXPECT_TRUE(c->find_encounter(id).has_value()) << id;
  EXPECT_EQ(c->encounters[*c->find_encounter("duel")].seats.size(), 2u);
  EXPECT_EQ(c->encounters[*c->find_encounter("trio")].seats.size(), 3u);
}

TEST(ClashCatalogLoader, DefaultsAreTheDocumentedOnes) {
  const auto c = test::one_encounter(test::kTwoBots);
  const RuleParams& p = c->encounters[0].rules;
  EXPECT_EQ(p.health, 5);
  EXPECT_EQ(p.elimination, Elimination::AtZero);
  EXPECT_EQ(p.equal_values, EqualValues::Tie);
  EXPECT_EQ(p.hand_size, 9);
  EXPECT_TRUE(p.refill);
  EXPECT_EQ(p.deck, DeckSource::Random);
  EXPECT_EQ(p.rocks, 18u);
  EXPECT_TRUE(p.starting_rocks.empty());
  EXPECT_FALSE(p.end_when_human_out);
  EXPECT_FALSE(p.resetup_between_rounds);
  EXPECT_EQ(p.round_limit, 200u);
}

TEST(ClashCatalogLoader, EveryParameterIsRead) {
  const auto c = test::one_encounter(R"([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])",
                                     R"({"health": 3, "elimination": "below_zero",
      "equal_values": "later_wins", "hand_size": 7, "refill": false, "rocks": 24,
      "starting_rocks": [1, 7, 23], "end_when_human_out": true, "resetup_between_rounds": true,
      "round_limit": 9, "deck": [{"element": "fire", "value": 3}, {"element": "water", "value": 10},
      {"element": "air", "value": 1}, {"element": "earth", "value": 2}, {"element": "energy", "value": 4},
      {"element": "fire", "value": 5}, {"element": "fire", "value": 6}]})");
  const RuleParams& p = c->encounters[0].rules;
  EXPECT_EQ(p.health, 3);
  EXPECT_EQ(p.elimination, Elimination::BelowZero);
  EXPECT_EQ(p.equal_values, EqualValues::LaterWins);
  EXPECT_EQ(p.hand_size, 7);
  EXPECT_FALSE(p.refill);
  EXPECT_EQ(p.rocks, 24u);
  EXPECT_EQ(p.starting_rocks, (std::vector<std::uint8_t>{1, 7, 23}));
  EXPECT_TRUE(p.end_when_human_out);
  EXPECT_TRUE(p.resetup_between_rounds);
  EXPECT_EQ(p.round_limit, 9u);
  ASSERT_EQ(p.deck, DeckSource::Listed);
  ASSERT_EQ(p.listed_deck.size(), 7u);
  EXPECT_EQ(p.listed_deck[1], (Card{Element::Water, 10}));
}

TEST(ClashCatalogLoader, OneOrFiveSeatsAreRefusedAtTheSeatsPointer) {
  const auto one = problems(encounter(R"([{"kind": "human"}])"));
  EXPECT_TRUE(has(one, "/encounters/0/seats", "expected 2 to 4 seats, got 1")) << one.to_string();
  const auto five = problems(encounter(
      R"([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])"));
  EXPECT_TRUE(has(five, "/encounters/0/seats", "expected 2 to 4 seats, got 5")) << five.to_string();
}

// A seat's name is printed in the report's seat table and at the prompts: a newline in it broke
// the table's rows.
TEST(ClashCatalogLoader, ASeatNameWithAControlCharacterIsRefusedWhereItIs) {
  const auto newline = problems(encounter(R"([{"kind": "human", "name": "Ann\nBob"}, {"kind": "bot"}])"));
  EXPECT_TRUE(
      has(newline, "/encounters/0/seats/0/name",
          R"(expected a name on one line, without control characters; got "Ann\nBob" with U+000A at byte 3)"))
      << newline.to_string();
  const auto tab = problems(encounter(R"([{"kind": "human"}, {"kind": "bot", "name": "\tBot"}])"));
  EXPECT_TRUE(has(tab, "/encounters/0/seats/1/name", "with U+0009 at byte 0")) << tab.to_string();
  EXPECT_TRUE(
      load_catalog_text("ok.json", encounter(R"([{"kind": "human", "name": "Zoë"}, {"kind": "bot"}])")).ok())
      << "any other character is a name's";
}

TEST(ClashCatalogLoader, ARockCountNotAMultipleOfSixIsRefused) {
  const auto d = problems(encounter(test::kTwoBots, R"({"rocks": 20})"));
  EXPECT_TRUE(has(d, "/encounters/0/rules/rocks", "multiple of 6")) << d.to_string();
}

TEST(ClashCatalogLoader, AnUnknownElementOrAValueOutsideOneToTenIsRefusedAtItsPointer) {
  const auto d = problems(encounter(test::kTwoBots, R"({"deck": [{"element": "fire", "value": 3},
      {"element": "lava", "value": 4}, {"element": "water", "value": 11}, {"element": "air", "value": 0},
      {"element": "none", "value": 2}]})"));
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck/1/element", "unknown element 'lava'")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck/2/value", "")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck/3/value", "")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck/4/element", "unknown element 'none'")) << d.to_string();
  EXPECT_EQ(d.size(), 4u) << d.to_string();
}

TEST(ClashCatalogLoader, EveryProblemOfAFileIsListed) {
  const auto d = problems(R"({"pack": {"id": "t", "rules": "clash", "default_encounter": "nope"},
  "encounters": [
    {"id": "a", "seats": [{"kind": "human"}], "rules": {"rocks": 7, "hand_size": 13, "refill": "yes"}},
    {"id": "a", "seats": [{"kind": "robot"}, {"kind": "bot", "colour": "red"}],
     "rules": {"equal_values": "coin", "starting_rocks": [0, 99], "shuffle": true}}
  ]})");
  for (const auto& [pointer, words] : std::vector<std::pair<std::string, std::string>>{
           {"/pack/default_encounter", "unknown encounter 'nope'"},
           {"/encounters/0/seats", "got 1"},
           {"/encounters/0/rules/rocks", "multiple of 6"},
           {"/encounters/0/rules/hand_size", ""},
           {"/encounters/0/rules/refill", ""},
           {"/encounters/1/id", "duplicate encounter id 'a'"},
           {"/encounters/1/seats/0/kind", "robot"},
           {"/encounters/1/seats/1/colour", "unknown key 'colour'"},
           {"/encounters/1/rules/equal_values", "coin"},
           {"/encounters/1/rules/starting_rocks/1", "rock index in [0, 17]"},
           {"/encounters/1/rules/shuffle", "unknown key 'shuffle'"},
       })
    EXPECT_TRUE(has(d, pointer, words)) << pointer << "\n" << d.to_string();
}

TEST(ClashCatalogLoader, SeatsAndCardsPastTheLimitAreCheckedToo) {
  std::string deck;
  for (int i = 0; i < 60; ++i) deck += R"({"element": "fire", "value": 3}, )";
  deck += R"({"element": "lava", "value": 3})";
  const auto d = problems(encounter(
      R"([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "robot", "nme": "x"}])",
      R"({"deck": [)" + deck + "]}"));
  EXPECT_TRUE(has(d, "/encounters/0/seats", "expected 2 to 4 seats, got 5")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/seats/4/kind", "unknown value 'robot'")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/seats/4/nme", "unknown key 'nme'")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck", "expected 1 to 60 cards, got 61")) << d.to_string();
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck/60/element", "unknown element 'lava'")) << d.to_string();
  EXPECT_EQ(d.size(), 5u) << d.to_string();
}

TEST(ClashCatalogLoader, StartingRocksAreCountedAgainstTheSeatsAsListed) {
  // Five seats are one problem; one starting rock for each of them is none of its own.
  const char* five =
      R"([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])";
  const auto d = problems(encounter(five, R"({"starting_rocks": [0, 1, 2, 3, 4]})"));
  EXPECT_TRUE(has(d, "/encounters/0/seats", "expected 2 to 4 seats, got 5")) << d.to_string();
  EXPECT_EQ(d.size(), 1u) << d.to_string();
  const auto four = problems(encounter(five, R"({"starting_rocks": [0, 1, 2, 3]})"));
  EXPECT_TRUE(has(four, "/encounters/0/rules/starting_rocks", "expected one rock per seat (5), got 4"))
      << four.to_string();
  EXPECT_EQ(four.size(), 2u) << four.to_string();
  // No seats to count: only their absence is a problem.
  const auto none = problems(R"({"pack": {"id": "t", "rules": "clash"},
  "encounters": [{"id": "e", "rules": {"starting_rocks": [0, 1]}}]})");
  EXPECT_TRUE(has(none, "/encounters/0", "seats")) << none.to_string();
  EXPECT_EQ(none.size(), 1u) << none.to_string();
}

TEST(ClashCatalogLoader, ABadRockCountLeavesTheStartingRocksToTheLargestCount) {
  // 20 is refused; the starting rocks are not checked against the default 18 in its place.
  const auto d = problems(encounter(test::kTwoBots, R"({"rocks": 20, "starting_rocks": [0, 19]})"));
  EXPECT_TRUE(has(d, "/encounters/0/rules/rocks", "multiple of 6")) << d.to_string();
  EXPECT_EQ(d.size(), 1u) << d.to_string();
  const auto past = problems(encounter(test::kTwoBots, R"({"rocks": 24.0, "starting_rocks": [0, 96]})"));
  EXPECT_TRUE(has(past, "/encounters/0/rules/rocks", "got a number")) << past.to_string();
  EXPECT_TRUE(has(past, "/encounters/0/rules/starting_rocks/1", "rock index in [0, 95], got 96"))
      << past.to_string();
  EXPECT_EQ(past.size(), 2u) << past.to_string();
}

TEST(ClashCatalogLoader, StartingRocksNeedOnePerSeat) {
  const auto d = problems(encounter(test::kThreeBots, R"({"starting_rocks": [0, 1]})"));
  EXPECT_TRUE(has(d, "/encounters/0/rules/starting_rocks", "one rock per seat")) << d.to_string();
}

TEST(ClashCatalogLoader, AListedDeckWithoutRefillMustFillAHand) {
  const auto d = problems(encounter(test::kTwoBots, R"({"refill": false, "hand_size": 3,
      "deck": [{"element": "fire", "value": 3}, {"element": "fire", "value": 4}]})"));
  EXPECT_TRUE(has(d, "/encounters/0/rules/deck", "needs at least")) << d.to_string();
}

// With no 'pack' object, the problem is the top-level object, which lacks the key.
TEST(ClashCatalogLoader, APackWithoutAPackObjectIsReportedAtTheTopLevelObject) {
  const std::string text = "\n  {\"encounters\": []}";
  const auto d = problems(text);
  ASSERT_EQ(d.size(), 1u) << d.to_string();
  const content::Diagnostic& p = d.items().front();
  EXPECT_EQ(std::pair(p.line, p.column), content::line_column(text, text.find('{')));
  EXPECT_EQ(content::format_diagnostic(p),
            "bad.json:2:3: no 'pack' object: one file of the pack must have {\"pack\": {\"id\": ...}}");
}

TEST(ClashCatalogLoader, EndWhenHumanOutNeedsAHumanSeat) {
  const auto d = problems(encounter(test::kThreeBots, R"({"health": 3,
      "end_when_human_out": true})"));
  ASSERT_EQ(d.size(), 1u) << d.to_string();
  const content::Diagnostic& p = d.items().front();
  EXPECT_EQ(p.file, "bad.json");
  EXPECT_EQ(p.line, 3);
  EXPECT_EQ(p.pointer, "/encounters/0/rules/end_when_human_out");
  EXPECT_EQ(p.message, "expected false (the encounter has no human seat to go out), got true");
  // With a human seat, or set to false, it loads.
  EXPECT_TRUE(test::one_encounter(test::kHumanAnd3Bots, R"({"end_when_human_out": true})")
                  ->encounters[0]
                  .rules.end_when_human_out);
  EXPECT_FALSE(test::one_encounter(test::kThreeBots, R"({"end_when_human_out": false})")
                   ->encounters[0]
                   .rules.end_when_human_out);
  // A seat whose kind is not read may be the human one: only its own problem is reported.
  const auto unread =
      problems(encounter(R"([{"kind": "humane"}, {"kind": "bot"}])", R"({"end_when_human_out": true})"));
  EXPECT_TRUE(has(unread, "/encounters/0/seats/0/kind", "humane")) << unread.to_string();
  EXPECT_EQ(unread.size(), 1u) << unread.to_string();
}

TEST(ClashCatalogLoader, AFileThatDoesNotParseHidesNoProblemOfTheOthers) {
  test::TempDir dir;
  std::ofstream(dir.path() / "encounters.json")
      << R"({"encounters": [{"id": "e", "id": "e", "seats": [{"kind": "bot"}, {"kind": "bot"}]}]})";
  std::ofstream(dir.path() / "pack.json") << R"({"pack": {"id": "t", "rules": "clash", "colour": "red"}})";
  std::ofstream(dir.path() / "zz.json") << "[1,";
  CatalogResult r = load_catalog(dir.path());
  ASSERT_FALSE(r.ok());
  const content::Diagnostics& d = r.error();
  EXPECT_TRUE(has(d, "/encounters/0/id", "duplicate key 'id'")) << d.to_string();
  EXPECT_TRUE(has(d, "/pack/colour", "unknown key 'colour'")) << d.to_string();
  EXPECT_TRUE(has(d, "", "syntax error")) << d.to_string();
  EXPECT_EQ(d.size(), 3u) << d.to_string();
}

// The encounter the pack names, or the 'pack' object, may be in the file that does not parse: it is
// not reported missing.
TEST(ClashCatalogLoader, WhatAFileThatDoesNotParseMayHoldIsNotReportedMissing) {
  test::TempDir dir;
  std::ofstream(dir.path() / "encounters.json") << R"({"encounters": [{"id": "e", "seats": )";
  std::ofstream(dir.path() / "pack.json")
      << R"({"pack": {"id": "t", "rules": "clash", "default_encounter": "e"}})";
  CatalogResult r = load_catalog(dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has(r.error(), "", "syntax error")) << r.error().to_string();
  EXPECT_EQ(r.error().size(), 1u) << r.error().to_string();

  std::ofstream(dir.path() / "encounters.json")
      << R"({"encounters": [{"id": "e", "seats": )" << test::kTwoBots << "}]}";
  std::ofstream(dir.path() / "pack.json") << R"({"pack": {"id": "t", "rules": "clash")";
  r = load_catalog(dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has(r.error(), "", "syntax error")) << r.error().to_string();
  EXPECT_EQ(r.error().size(), 1u) << r.error().to_string();
}

TEST(ClashCatalogLoader, ThePackIdFollowsTheIdRules) {
  for (const char* id : {"Bad Id!", ""}) {
    const auto d =
        problems(std::string(R"({"pack": {"id": ")") + id +
                 R"(", "rules": "clash"}, "encounters": [{"id": "e", "seats": )" + test::kTwoBots + "}]}");
    EXPECT_TRUE(has(d, "/pack/id", "expected an id of 1 to 64 characters")) << d.to_string();
    EXPECT_EQ(d.size(), 1u) << d.to_string();
  }
}

/// A pack of `count` two-bot encounters e0, e1, ..., encounter i on line i + 2, whose default
/// encounter is the last.
std::string encounters(std::size_t count) {
  const auto encounter = [](std::size_t i) {
    return R"({"id": "e)" + std::to_string(i) + R"(", "seats": )" + test::kTwoBots + "}";
  };
  return R"({"pack": {"id": "t", "rules": "clash", "default_encounter": "e)" + std::to_string(count - 1) +
         R"("}, "encounters": [)" + test::json_list(count, encounter) + "\n]}";
}

// An EncounterId is 16 bits: without a limit encounter 65,536 would be encounter 0.
TEST(ClashCatalogLoader, AnEncounterPastTheLimitIsReportedWhereItStands) {
  const CatalogResult full = load_catalog_text("bad.json", encounters(kMaxEncounters));
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  ASSERT_TRUE(full.value()->pack.default_encounter.has_value());
  EXPECT_EQ(full.value()->encounters[*full.value()->pack.default_encounter].id, "e3999");

  const auto d = problems(encounters(kMaxEncounters + 1));
  ASSERT_EQ(d.size(), 1u) << d.to_string();
  EXPECT_EQ(content::format_diagnostic(d.items()[0]),
            "bad.json:4002:1: /encounters/4000: more than 4000 of kind encounter: expected at most 4000 in a "
            "pack, this is number 4001");
}

TEST(ClashCatalogLoader, AMissingPathIsADiagnostic) {
  CatalogResult r = load_catalog(std::filesystem::path("/nonexistent/battlecore/clash"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("/nonexistent/battlecore/clash"), std::string::npos);
}

}  // namespace
}  // namespace battlecore::clash
