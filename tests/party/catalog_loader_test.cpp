// Loading party content: the bundled meadow pack, and broken content where every problem is
// reported with its file, position and JSON pointer, and nothing is loaded.

#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/party/load.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

namespace fs = std::filesystem;

TEST(PartyMeadowPack, HoldsWhatTheSpecAsksFor) {
  const auto c = test::meadow_pack();
  EXPECT_EQ(c->pack.id, "meadow");
  ASSERT_EQ(c->parties.size(), 1u);
  const PartyDef& party = c->parties[0];
  EXPECT_EQ(party.formation.size(), 3u);
  EXPECT_TRUE(party.companion.has_value());
  EXPECT_TRUE(party.ally.has_value());
  EXPECT_EQ(c->skills.size(), 10u);
  EXPECT_EQ(c->items.size(), 5u);
  EXPECT_EQ(c->enemies.size(), 8u);
  EXPECT_EQ(c->encounters.size(), 6u);
  EXPECT_TRUE(
      std::any_of(c->enemies.begin(), c->enemies.end(), [](const EnemyDef& e) { return e.moves == 2; }));
  EXPECT_TRUE(std::any_of(c->enemies.begin(), c->enemies.end(),
                          [](const EnemyDef& e) { return e.position == Position::Flying; }));
  EXPECT_TRUE(std::any_of(c->enemies.begin(), c->enemies.end(),
                          [](const EnemyDef& e) { return !e.reserves.empty(); }));
  EXPECT_TRUE(std::any_of(c->encounters.begin(), c->encounters.end(),
                          [](const EncounterDef& e) { return e.advantage == Advantage::Enemy; }));
  EXPECT_TRUE(std::any_of(c->encounters.begin(), c->encounters.end(),
                          [](const EncounterDef& e) { return e.advantage == Advantage::Party; }));
  // Every condition effect the reference lists is present as data.
  for (std::size_t e = 0; e < kConditionEffectCount; ++e)
    EXPECT_TRUE(std::any_of(c->conditions.begin(), c->conditions.end(), [&](const ConditionDef& d) {
      return d.effect == static_cast<ConditionEffect>(e);
    })) << condition_effect_name(static_cast<ConditionEffect>(e));
}

TEST(PartyMeadowPack, EachSkillHasACostAndEffects) {
  for (const SkillDef& s : test::meadow_pack()->skills) {
    SCOPED_TRACE(s.id);
    EXPECT_FALSE(s.effects.empty());
    EXPECT_GE(s.cost, 1);
  }
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int line_of(const std::string& text, std::string_view needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

TEST(PartyCatalogLoader, EveryProblemOfABrokenFileIsReportedAndNothingIsLoaded) {
  const fs::path file = fs::path(BATTLECORE_TEST_DATA_DIR) / "bad" / "party" / "five_problems.json";
  const auto loaded = load_catalog(file);
  ASSERT_FALSE(loaded.ok());
  const auto& items = loaded.error().items();
  const std::string text = read(file);
  struct Expected {
    const char* pointer;
    const char* needle;
    const char* words;
  };
  const Expected expected[] = {
      {"/skills/0", "\"free_lunch\"", "missing required key 'cost'"},
      {"/skills/1/effects/0/condition", "\"inkd\"", "unknown condition 'inkd'"},
      {"/parties/0/formation/2", "\"a\"]", "appears twice in the formation"},
      {"/parties/1/formation", "[\"a\", \"b\", \"c\", \"d\", \"e\"]", "expected 1 to 4 members, got 5"},
      {"/encounters/0/enemies", "[]", "at least one enemy"},
  };
  EXPECT_EQ(items.size(), std::size(expected)) << loaded.error().to_string();
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.pointer);
    const auto it = std::find_if(items.begin(), items.end(),
                                 [&](const content::Diagnostic& d) { return d.pointer == e.pointer; });
    ASSERT_NE(it, items.end()) << loaded.error().to_string();
    EXPECT_EQ(fs::path(it->file), file);
    EXPECT_NE(it->message.find(e.words), std::string::npos) << it->message;
    EXPECT_GT(it->column, 0);
    if (std::string_view(e.pointer).find("/formation/2") == std::string_view::npos)
      EXPECT_EQ(it->line, line_of(text, e.needle)) << it->message;
    else
      EXPECT_GT(it->line, 0);
  }
}

content::JsonDocument doc(std::string text) {
  content::Diagnostics d;
  auto parsed = content::parse_json_text("inline.json", std::move(text), d);
  EXPECT_TRUE(d.empty()) << d.to_string();
  return *parsed;
}

TEST(PartyCatalogLoader, UnknownKeysWrongTypesAndDanglingIdsAreAllReported) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(R"({
    "pack": {"id": "p", "rules": "party", "default_encounter": "nope"},
    "conditions": [{"id": "c", "effect": "glitter", "turns": 1, "colour": "red"}],
    "members": [{"id": "m", "hp": "5", "attack": 1, "skills": ["ghost"]}],
    "enemies": [{"id": "e", "hp": 3, "actions": [{"id": "a", "target": "self", "effects": [{"op": "damage", "amount": 1}]}]}],
    "parties": [{"id": "p", "formation": ["m"], "tp": 1, "companion": "nobody"}],
    "encounters": [{"id": "x", "party": "p", "enemies": ["e", "ghost"]}]
  })")});
  ASSERT_FALSE(loaded.ok());
  const std::string all = loaded.error().to_string();
  for (const char* words :
       {"/pack/default_encounter: unknown encounter 'nope'", "/conditions/0/effect", "glitter",
        "/conditions/0/colour: unknown key 'colour'", "/members/0/hp",
        "/members/0/skills/0: unknown skill 'ghost'",
        "/enemies/0/actions/0/effects: damage, projectile and inflict need",
        "/parties/0/companion: unknown companion", "/encounters/0/enemies/1: unknown enemy 'ghost'"})
    EXPECT_NE(all.find(words), std::string::npos) << words << "\n" << all;
}

TEST(PartyCatalogLoader, ThePackIdFollowsTheIdRules) {
  for (const char* id : {"Bad Id!", ""}) {
    const auto loaded = load_catalog(std::vector<content::JsonDocument>{
        doc(std::string(R"({"pack": {"id": ")") + id + R"(", "rules": "party"}})")});
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().to_string().find("/pack/id: expected an id of 1 to 64 characters"),
              std::string::npos)
        << loaded.error().to_string();
  }
}

TEST(PartyCatalogLoader, APackForAnotherRuleSetIsRefused) {
  const auto loaded = load_catalog(
      std::vector<content::JsonDocument>{doc(R"({"pack": {"id": "p", "rules": "deckbuilder"}})")});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().to_string().find("expected 'party'"), std::string::npos);
}

}  // namespace
}  // namespace battlecore::party
