// Loading party content: the bundled meadow pack, and broken content where every problem is
// reported with its file, position and JSON pointer, and nothing is loaded.

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/party/load.hpp"
#include "party/mechanics.hpp"
#include "party_support.hpp"
#include "support/json_list.hpp"
#include "support/temp_dir.hpp"

namespace battlecore::party {
namespace {

namespace fs = std::filesystem;
using battlecore::test::json_list;

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
        "/parties/0/companion: unknown companion",
        "/encounters/0/enemies/1: unknown enemy 'ghost'; expected the id of an enemy defined in the pack",
        "unknown encounter 'nope'; expected the id of an encounter"})
    EXPECT_NE(all.find(words), std::string::npos) << words << "\n" << all;
}

TEST(PartyCatalogLoader, AResistanceMapListsItsProblemsAsWritten) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(R"({
    "pack": {"id": "p", "rules": "party"},
    "conditions": [{"id": "sleep", "effect": "sleep", "turns": 1}],
    "members": [{"id": "m", "hp": 5, "attack": 1}],
    "enemies": [{"id": "e", "hp": 3, "resist": {"zap": 10, "sleep": 101, "blur": 5},
                 "actions": [{"id": "a", "target": "member", "effects": [{"op": "damage", "amount": 1}]}]}],
    "parties": [{"id": "p", "formation": ["m"], "tp": 1}],
    "encounters": [{"id": "x", "party": "p", "enemies": ["e"]}]
  })")});
  ASSERT_FALSE(loaded.ok());
  std::vector<std::string> pointers;
  for (const auto& d : loaded.error().items()) pointers.push_back(d.pointer);
  EXPECT_EQ(pointers, (std::vector<std::string>{"/enemies/0/resist/zap", "/enemies/0/resist/sleep",
                                                "/enemies/0/resist/blur"}))
      << loaded.error().to_string();
}

TEST(PartyCatalogLoader, SkillsAreCountedAsListed) {
  // 33 skills are too many, whether or not one of them names a skill the pack lacks.
  const auto skill = [](std::size_t i) {
    return R"({"id": "s)" + std::to_string(i) +
           R"(", "cost": 1, "target": "enemy", "effects": [{"op": "damage", "amount": 1}]})";
  };
  std::string skills;
  for (std::size_t i = 0; i < 32; ++i) skills += "\"s" + std::to_string(i) + "\", ";
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{
      doc(R"({"pack": {"id": "p", "rules": "party"}, "skills": [)" + json_list(32, skill) +
          R"(], "members": [{"id": "m", "hp": 5, "attack": 1, "skills": [)" + skills + R"("ghost"]}]})")});
  ASSERT_FALSE(loaded.ok());
  const std::string all = loaded.error().to_string();
  EXPECT_EQ(loaded.error().size(), 2u) << all;
  EXPECT_NE(all.find("/members/0/skills/32: unknown skill 'ghost'"), std::string::npos) << all;
  EXPECT_NE(all.find("/members/0/skills: a member has at most 32 skills"), std::string::npos) << all;
}

// A member's skills are the options of its turn, one each: a skill listed again is refused at
// its entry, as a member listed again in a formation is.
TEST(PartyCatalogLoader, ASkillListedTwiceForAMemberIsRefusedWhereItStands) {
  const std::string text = R"({"pack": {"id": "p", "rules": "party"},
    "skills": [{"id": "jab", "cost": 1, "target": "enemy", "effects": [{"op": "damage", "amount": 1}]},
               {"id": "mend", "cost": 1, "target": "ally", "effects": [{"op": "heal", "amount": 1}]}],
    "members": [{"id": "m", "hp": 5, "attack": 1, "skills": ["jab", "mend", "mend"]},
                {"id": "n", "hp": 5, "attack": 1, "skills": ["mend", "jab"]}]})";
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(text)});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  const auto [line, column] = content::line_column(text, text.find(R"("mend"]})"));
  EXPECT_EQ(content::format_diagnostic(loaded.error().items()[0]),
            fmt::format("inline.json:{}:{}: /members/0/skills/2: skill 'mend' appears twice in the "
                        "member's skills; expected each skill once",
                        line, column));
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

TEST(PartyCatalogLoader, AnUnknownOpIsNotCheckedAsAnotherOp) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(R"({
    "pack": {"id": "p", "rules": "party"},
    "conditions": [{"id": "c", "effect": "poison", "turns": 1}],
    "skills": [{"id": "s", "cost": 1, "target": "ally",
                "effects": [{"op": "heall", "amount": 5}, {"op": "aply", "condition": "c", "turns": 2}]}]
  })")});
  ASSERT_FALSE(loaded.ok());
  const auto& items = loaded.error().items();
  ASSERT_EQ(items.size(), 2u) << loaded.error().to_string();
  EXPECT_EQ(items[0].pointer, "/skills/0/effects/0/op");
  EXPECT_EQ(items[0].message,
            "unknown value 'heall'; expected one of: damage, heal, restore_tp, apply, inflict, cure, charge, "
            "projectile");
  EXPECT_EQ(items[1].pointer, "/skills/0/effects/1/op");
  EXPECT_NE(items[1].message.find("unknown value 'aply'"), std::string::npos) << items[1].message;
}

// One entry per kind of item and one id per enemy action: a second entry would be a second slot
// of the same item, a second action of the same id would be ambiguous in every trace.
TEST(PartyCatalogLoader, AnItemOrAnEnemyActionGivenTwiceIsRefused) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(R"({
    "pack": {"id": "p", "rules": "party"},
    "items": [{"id": "honey", "target": "ally", "effects": [{"op": "heal", "amount": 5}]},
              {"id": "leaf", "target": "ally", "effects": [{"op": "heal", "amount": 2}]}],
    "members": [{"id": "m", "hp": 5, "attack": 1}],
    "parties": [{"id": "p", "formation": ["m"], "tp": 0,
                 "items": [{"item": "honey", "count": 2}, {"item": "leaf", "count": 1},
                           {"item": "honey", "count": 1}]}],
    "enemies": [{"id": "e", "hp": 3, "actions": [
        {"id": "bite", "target": "member", "effects": [{"op": "damage", "amount": 1}]},
        {"id": "bite", "target": "member", "effects": [{"op": "damage", "amount": 2}]}]}]
  })")});
  ASSERT_FALSE(loaded.ok());
  const auto& items = loaded.error().items();
  ASSERT_EQ(items.size(), 2u) << loaded.error().to_string();
  EXPECT_EQ(items[0].pointer, "/enemies/0/actions/1/id");
  EXPECT_EQ(items[0].message, "duplicate action id 'bite' in enemy 'e'");
  EXPECT_EQ(items[1].pointer, "/parties/0/items/2/item");
  EXPECT_EQ(items[1].message, "item 'honey' is listed twice: one entry per kind of item, with its count");
}

/// A pack whose conditions c0, c1, ... (`conditions` of them) and enemies e0, e1, ... (`enemies`)
/// stand one a line after the first, conditions first; its encounter fights the last enemy.
std::string pack(std::size_t conditions, std::size_t enemies) {
  const auto condition = [](std::size_t i) {
    return R"({"id": "c)" + std::to_string(i) + R"(", "effect": "poison", "turns": 1})";
  };
  const auto enemy = [](std::size_t i) {
    return R"({"id": "e)" + std::to_string(i) +
           R"(", "hp": 1, "actions": [{"id": "a", "effects": [{"op": "damage", "amount": 1}]}]})";
  };
  return R"({"pack": {"id": "p", "rules": "party"}, "members": [{"id": "m", "hp": 5, "attack": 1}], )"
         R"("parties": [{"id": "p", "formation": ["m"], "tp": 0}], )"
         R"("encounters": [{"id": "x", "party": "p", "enemies": ["e)" +
         std::to_string(enemies - 1) + R"("]}], "conditions": [)" + json_list(conditions, condition) +
         R"(], "enemies": [)" + json_list(enemies, enemy) + "]}";
}

// An actor holds each condition once, in room for kMaxConditions: a pack with more conditions
// could give one actor more than it holds.
TEST(PartyCatalogLoader, AConditionPastTheLimitIsReportedWhereItStands) {
  EXPECT_EQ(kMaxPackConditions, kMaxConditions);
  const auto full = load_catalog(std::vector<content::JsonDocument>{doc(pack(kMaxPackConditions, 1))});
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  EXPECT_EQ(full.value()->conditions.size(), kMaxPackConditions);

  // Condition i stands on line i + 2.
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(pack(kMaxPackConditions + 1, 1))});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  EXPECT_EQ(content::format_diagnostic(loaded.error().items()[0]),
            "inline.json:26:1: /conditions/24: more than 24 of kind condition: expected at most 24 in a "
            "pack, this is number 25");
}

TEST(PartyCatalogLoader, EveryConditionOfAFullPackFitsOnOneActor) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(pack(kMaxPackConditions, 1))});
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  Battle b(loaded.value());
  ASSERT_TRUE(b.start_battle("x", 1).ok());
  ASSERT_TRUE(b.submit(Action::do_nothing()).ok());  // the enemy's hit: its Block decision
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  Battle::Access x = Battle::Access::of(b);
  for (std::size_t i = 0; i < kMaxPackConditions; ++i)
    EXPECT_TRUE(detail::apply_condition(x, kNobody, member_actor(0), static_cast<ConditionId>(i), 2, false));
  EXPECT_EQ(b.state().members[0].conditions.size(), kMaxPackConditions);
  ASSERT_TRUE(b.submit(Action::block(BlockLevel::None)).ok());
  EXPECT_EQ(b.decision_kind(), DecisionKind::MemberTurn);  // the turn ended: every poison ticked
  EXPECT_EQ(b.state().members[0].hp, 1);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
}

// An EnemyId is 16 bits: without a limit enemy 65,536 would be enemy 0.
TEST(PartyCatalogLoader, AnEnemyPastTheLimitIsReportedWhereItStands) {
  const auto full = load_catalog(std::vector<content::JsonDocument>{doc(pack(1, kMaxIdsPerKind))});
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  ASSERT_EQ(full.value()->encounters[0].enemies.size(), 1u);
  EXPECT_EQ(full.value()->enemies[full.value()->encounters[0].enemies[0]].id, "e3999");

  // Enemy i stands on line i + 3, after one condition.
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(pack(1, kMaxIdsPerKind + 1))});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  EXPECT_EQ(
      content::format_diagnostic(loaded.error().items()[0]),
      "inline.json:4003:1: /enemies/4000: more than 4000 of kind enemy: expected at most 4000 in a pack, "
      "this is number 4001");
}

// Content that does not parse, or a path with no content, is one problem: there is no pack to
// look for a 'pack' object in.
TEST(PartyCatalogLoader, ContentThatDoesNotParseIsOneProblem) {
  const battlecore::test::TempDir dir;
  { std::ofstream empty(dir.path() / "empty.json"); }
  fs::create_directory(dir.path() / "broken");
  std::ofstream(dir.path() / "broken" / "pack.json") << R"({"pack": {"id": "p", "rules": "party"})";
  fs::create_directory(dir.path() / "nothing");
  for (const fs::path& path : {dir.path() / "missing.json", dir.path() / "empty.json", dir.path() / "broken",
                               dir.path() / "nothing"}) {
    SCOPED_TRACE(path.string());
    const auto loaded = load_catalog(path);
    ASSERT_FALSE(loaded.ok());
    ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
    EXPECT_EQ(loaded.error().items()[0].file.rfind(path.string(), 0), 0u) << loaded.error().to_string();
  }
}

// The member, the party and the 'pack' object may be in the file that does not parse: the
// references to them from the files that do, and the pack's absence, are not reported.
TEST(PartyCatalogLoader, WhatAFileThatDoesNotParseMayHoldIsNotReportedMissing) {
  const battlecore::test::TempDir dir;
  std::ofstream(dir.path() / "a.json")
      << R"({"pack": {"id": "p", "rules": "party"}, "members": [{"id": "m", )";
  std::ofstream(dir.path() / "b.json") << R"({"parties": [{"id": "team", "formation": ["m"], "tp": 0}],
    "encounters": [{"id": "x", "party": "team", "enemies": ["e"], "flee_chance": 101}],
    "enemies": [{"id": "e", "hp": 1, "actions": [{"id": "a", "effects": [{"op": "damage", "amount": 1}]}]}]})";
  const auto loaded = load_catalog(dir.path());
  ASSERT_FALSE(loaded.ok());
  const content::Diagnostics& d = loaded.error();
  ASSERT_EQ(d.size(), 2u) << d.to_string();
  EXPECT_EQ(d.items()[0].file, (dir.path() / "a.json").string()) << d.to_string();
  EXPECT_EQ(d.items()[1].pointer, "/encounters/0/flee_chance") << d.to_string();
}

TEST(PartyCatalogLoader, APackForAnotherRuleSetIsRefused) {
  const auto loaded = load_catalog(
      std::vector<content::JsonDocument>{doc(R"({"pack": {"id": "p", "rules": "deckbuilder"}})")});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().to_string().find("this pack is for rule set 'deckbuilder', not 'party'"),
            std::string::npos)
      << loaded.error().to_string();
}

// BF: Damage pipeline/DoDamage: a hit never lands on its own party (attacker and target are always of
// opposite parties).
TEST(PartyCatalogLoader, SkillsAndItemsThatHitTheUsersOwnPartyAreRefused) {
  const auto loaded =
      load_catalog(std::vector<content::JsonDocument>{doc(R"({"pack": {"id": "p", "rules": "party"},
    "skills": [
      {"id": "ff", "name": "FF", "cost": 1, "target": "ally", "effects": [{"op": "damage", "amount": 4}]},
      {"id": "hex", "name": "Hex", "cost": 1, "target": "party", "effects": [{"op": "inflict", "condition": "poison"}]},
      {"id": "mend", "name": "Mend", "cost": 1, "target": "ally", "effects": [{"op": "heal", "amount": 1}]},
      {"id": "jab", "name": "Jab", "cost": 1, "target": "all_enemies", "effects": [{"op": "damage", "amount": 1}]}],
    "items": [{"id": "bomb", "name": "Bomb", "target": "self", "effects": [{"op": "damage", "amount": 1}]}]})")});
  ASSERT_FALSE(loaded.ok());
  const std::string text = loaded.error().to_string();
  for (const char* pointer :
       {"/skills/0/effects: damage and inflict need an 'enemy' or 'all_enemies' target",
        "/skills/1/effects: damage and inflict", "/items/0/effects: damage and inflict"})
    EXPECT_NE(text.find(pointer), std::string::npos) << pointer << "\n" << text;
  EXPECT_EQ(text.find("/skills/2/"), std::string::npos) << text;
  EXPECT_EQ(text.find("/skills/3/"), std::string::npos) << text;
}

// The same for an enemy's action: its hits need the party's members as targets. The problem is
// the action's target, told once however many of its ops hit.
TEST(PartyCatalogLoader, EnemyActionsThatHitTheirOwnSideAreRefusedOnce) {
  const auto loaded =
      load_catalog(std::vector<content::JsonDocument>{doc(R"({"pack": {"id": "p", "rules": "party"},
    "conditions": [{"id": "poison", "effect": "poison", "turns": 2}],
    "enemies": [{"id": "e", "hp": 5, "actions": [
      {"id": "self_harm", "target": "self", "effects": [{"op": "damage", "amount": 1},
        {"op": "inflict", "condition": "poison"}, {"op": "projectile", "amount": 1, "turns": 1}]},
      {"id": "bite", "target": "member", "effects": [{"op": "damage", "amount": 1}]},
      {"id": "rest", "target": "self", "effects": [{"op": "heal", "amount": 1}]}]}]})")});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  const content::Diagnostic& d = loaded.error().items()[0];
  EXPECT_EQ(d.pointer, "/enemies/0/actions/0/effects");
  EXPECT_EQ(d.message, "damage, projectile and inflict need a 'member' or 'all_members' target");
}

// `turns` is how long a hit's `inflict` condition lasts: without one it would do nothing.
TEST(PartyCatalogLoader, ADamageOpWithTurnsButNoInflictIsRefused) {
  const std::string text = R"({"pack": {"id": "p", "rules": "party"},
    "conditions": [{"id": "numb", "effect": "numb", "turns": 2}],
    "skills": [{"id": "zap", "cost": 1, "target": "enemy",
                "effects": [{"op": "damage", "amount": 2, "inflict": "numb", "turns": 1}]},
               {"id": "jab", "cost": 1, "target": "enemy",
                "effects": [{"op": "damage", "amount": 2, "turns": 1}]}]})";
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(text)});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  const auto [line, column] = content::line_column(text, text.rfind(R"(1}]})"));
  EXPECT_EQ(content::format_diagnostic(loaded.error().items()[0]),
            fmt::format("inline.json:{}:{}: /skills/1/effects/0/turns: 'turns' is how long the hit's "
                        "'inflict' condition lasts; expected an 'inflict' key with it, or no 'turns'",
                        line, column));
}

// With no 'pack' object in any file, the problem is the first file's top-level object, which
// lacks the key.
TEST(PartyCatalogLoader, APackWithoutAPackObjectIsReportedAtTheTopLevelObject) {
  const std::string text = "\n  {\"members\": [{\"id\": \"m\", \"hp\": 5, \"attack\": 1}]}";
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(text), doc("{}")});
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.error().size(), 1u) << loaded.error().to_string();
  const content::Diagnostic& d = loaded.error().items()[0];
  EXPECT_EQ(d.file, "inline.json");
  EXPECT_EQ(std::pair(d.line, d.column), content::line_column(text, text.find('{')));
  EXPECT_EQ(d.pointer, "") << "the document's root";
  EXPECT_EQ(content::format_diagnostic(d),
            "inline.json:2:3: no 'pack' object in any file; expected {\"pack\": {\"id\": ..., \"rules\": "
            "\"party\"}}");
}

TEST(PartyCatalogLoader, APackWithoutItsRuleSetIsRefused) {
  const auto loaded = load_catalog(std::vector<content::JsonDocument>{doc(R"({"pack": {"id": "p"}})")});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().to_string().find("/pack: missing"), std::string::npos)
      << loaded.error().to_string();
}

}  // namespace
}  // namespace battlecore::party
