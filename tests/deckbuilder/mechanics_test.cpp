#include "deckbuilder/mechanics.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "support/innate_pack.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

using detail::attack_damage;

// --- helpers ---------------------------------------------------------------------------------

using test::starter;

/// A small pack for the rules the starter pack does not exercise: a player with twelve Guards,
/// an enemy that only shields itself, one that makes the player Vulnerable once, a status that
/// takes damage away per stack (negative Strength), and encounters that differ in their rules.
constexpr std::string_view kMechanicsPack = R"({
  "pack": { "id": "mechanics", "rules": "deckbuilder" },
  "cards": [
    { "id": "guard", "type": "skill", "cost": 1, "target": "none",
      "effects": [{ "op": "armor", "amount": 5 }] }
  ],
  "statuses": [
    { "id": "vulnerable", "kind": "debuff", "stacking": "duration", "decay": "owner_turn_end",
      "damage_taken_percent": 150 },
    { "id": "feeble", "kind": "debuff", "stacking": "intensity", "damage_dealt_per_stack": -1 }
  ],
  "enemies": [
    { "id": "turtle", "hp": 50,
      "moves": [{ "id": "shell", "intent": "defend", "effects": [{ "op": "armor", "amount": 1 }] }],
      "behavior": { "kind": "sequence", "moves": ["shell"] } },
    { "id": "hexer", "hp": 50,
      "moves": [
        { "id": "hex", "intent": "debuff",
          "effects": [{ "op": "apply_status", "status": "vulnerable", "amount": 2 }] },
        { "id": "wait", "intent": "unknown", "effects": [] }
      ],
      "behavior": { "kind": "sequence", "moves": ["hex", "wait"], "loop_from": 1 } }
  ],
  "players": [{ "id": "tester", "max_hp": 50, "deck": [{ "card": "guard", "count": 12 }] }],
  "encounters": [
    { "id": "reset", "player": "tester", "enemies": ["turtle"],
      "rules": { "armor_decay": "reset_on_turn_start" } },
    { "id": "persist", "player": "tester", "enemies": ["turtle"], "rules": { "armor_decay": "persist" } },
    { "id": "hexed", "player": "tester", "enemies": ["hexer"] },
    { "id": "small_hand", "player": "tester", "enemies": ["turtle"],
      "rules": { "opening_hand": 8, "hand_limit": 6 } }
  ]
})";

std::shared_ptr<const Catalog> mechanics_pack() {
  static const std::shared_ptr<const Catalog> catalog = [] {
    content::Diagnostics diags;
    std::optional<content::JsonDocument> doc =
        content::parse_json_text("mechanics.json", std::string(kMechanicsPack), diags);
    if (!doc) throw std::runtime_error("the mechanics pack does not parse:\n" + diags.to_string());
    CatalogResult r = load_catalog(std::vector<content::JsonDocument>{std::move(*doc)});
    if (!r.ok()) throw std::runtime_error("the mechanics pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return catalog;
}

Battle started(std::shared_ptr<const Catalog> catalog, std::string_view encounter, std::uint64_t seed) {
  Battle b(std::move(catalog));
  const Result<Status> r = b.start_battle(encounter, seed);
  if (!r.ok()) throw std::runtime_error(r.error().message);
  return b;
}

StatusId status(const Catalog& c, std::string_view id) {
  const std::optional<StatusId> s = c.find_status(id);
  if (!s) throw std::runtime_error("no status " + std::string(id));
  return *s;
}

const CardDef& def_of(const Battle& b, CardRef card) { return b.catalog().cards[b.state().cards[card].def]; }

std::optional<CardRef> in_hand(const Battle& b, std::string_view id) {
  for (CardRef c : b.state().hand())
    if (def_of(b, c).id == id) return c;
  return std::nullopt;
}

std::uint64_t seed_with_in_hand(std::string_view encounter, std::string_view card) {
  for (std::uint64_t seed = 1; seed <= 500; ++seed)
    if (in_hand(started(starter(), encounter, seed), card)) return seed;
  throw std::runtime_error("no seed puts the card in the opening hand");
}

/// The events logged since `from`.
std::vector<Event> events_since(const Battle& b, std::size_t from) {
  return {b.events().log().begin() + static_cast<std::ptrdiff_t>(from), b.events().log().end()};
}

std::size_t count_type(const std::vector<Event>& events, EventType type) {
  std::size_t n = 0;
  for (const Event& e : events) n += e.type == type ? 1u : 0u;
  return n;
}

constexpr UnitRef kGnasher = enemy_unit(0);

// --- attack damage ---------------------------------------------------------------------------

TEST(DeckbuilderAttackDamage, BaseWithoutStatusesIsUnchanged) {
  Battle b = started(starter(), "w1", 1);
  const auto x = Battle::Access::of(b);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 6);
  EXPECT_EQ(attack_damage(x, kGnasher, kPlayerUnit, 11), 11);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 0), 0);
}

TEST(DeckbuilderAttackDamage, StrengthAddsPerStack) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const StatusId strength = status(b.catalog(), "strength");
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, strength, 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 7);
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, strength, 2);
  EXPECT_EQ(b.state().player.stacks(strength), 3);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 9);
  // Strength is the attacker's: the Gnasher's attacks are not changed by the player's.
  EXPECT_EQ(attack_damage(x, kGnasher, kPlayerUnit, 6), 6);
}

TEST(DeckbuilderAttackDamage, NegativeStrengthNeverMakesDamageNegative) {
  // Stacks stop at 0, so a negative damage bonus comes from a status whose per-stack bonus is
  // negative: 10 stacks of Feeble are Strength -10.
  Battle b = started(mechanics_pack(), "reset", 1);
  auto x = Battle::Access::of(b);
  constexpr UnitRef kTurtle = enemy_unit(0);
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, status(b.catalog(), "feeble"), 10);
  ASSERT_EQ(b.state().player.stacks(status(b.catalog(), "feeble")), 10);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 6), 0);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 13), 3);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 10), 0);
  // Clamped before the percentages: Vulnerable on the target cannot lift a negative sum above 0.
  detail::apply_status(x, kPlayerUnit, kTurtle, status(b.catalog(), "vulnerable"), 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 6), 0);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 14), 6);  // (14 - 10) x 1.5
}

TEST(DeckbuilderAttackDamage, RemovingStrengthStopsAtZeroStacks) {
  // apply_status with a negative amount removes stacks; it never creates negative Strength.
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const StatusId strength = status(b.catalog(), "strength");
  const std::size_t from = b.events().log().size();
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, strength, -10);
  EXPECT_EQ(b.state().player.stacks(strength), 0);
  EXPECT_TRUE(b.state().player.statuses.empty());
  EXPECT_EQ(b.events().log().size(), from);  // nothing to remove: nothing happened
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, strength, 3);
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, strength, -10);
  EXPECT_EQ(b.state().player.stacks(strength), 0);
  EXPECT_TRUE(b.state().player.statuses.empty());
  EXPECT_EQ(b.events().log().back().type, EventType::StatusApplied);
  EXPECT_EQ(b.events().log().back().extra, 0);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 6);
}

TEST(DeckbuilderAttackDamage, VulnerableTakesHalfAgainRoundedDown) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  detail::apply_status(x, kPlayerUnit, kGnasher, status(b.catalog(), "vulnerable"), 2);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 9);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 7), 10);  // 10.5
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 1), 1);   // 1.5
  // The stack count does not matter, only that there is one.
  detail::apply_status(x, kPlayerUnit, kGnasher, status(b.catalog(), "vulnerable"), 5);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 9);
}

/// A pack whose statuses each change attack damage or armor gains by one percentage: `dealt_P_i`
/// (damage dealt P%), `taken_P_i` (damage taken P%) and `armor_P_i` (armor gained P%) for each
/// P in `percents` and i in 1..8, so a unit can hold eight of one kind; and `might_i` (i in
/// 1..4), +99 attack damage per stack.
std::shared_ptr<const Catalog> percents_pack(std::initializer_list<int> percents) {
  std::string statuses;
  for (int i = 1; i <= 4; ++i) {
    if (!statuses.empty()) statuses += ",\n";
    statuses += fmt::format(R"({{ "id": "might_{}", "kind": "buff", "damage_dealt_per_stack": 99 }})", i);
  }
  for (int p : percents)
    for (int i = 1; i <= 8; ++i)
      for (const char* kind : {"dealt", "taken", "armor"}) {
        if (!statuses.empty()) statuses += ",\n";
        const std::string key = std::string(kind) == "armor"   ? "armor_gained_percent"
                                : std::string(kind) == "dealt" ? "damage_dealt_percent"
                                                               : "damage_taken_percent";
        statuses += fmt::format(R"({{ "id": "{}_{}_{}", "kind": "buff", "{}": {} }})", kind, p, i, key, p);
      }
  const std::string pack = fmt::format(R"({{
  "pack": {{ "id": "percents", "rules": "deckbuilder" }},
  "cards": [{{ "id": "guard", "type": "skill", "cost": 1, "target": "none",
              "effects": [{{ "op": "armor", "amount": 5 }}] }}],
  "statuses": [{}],
  "enemies": [{{ "id": "turtle", "hp": 50,
      "moves": [{{ "id": "shell", "intent": "defend", "effects": [{{ "op": "armor", "amount": 1 }}] }}],
      "behavior": {{ "kind": "sequence", "moves": ["shell"] }} }}],
  "players": [{{ "id": "tester", "max_hp": 50, "deck": [{{ "card": "guard", "count": 12 }}] }}],
  "encounters": [{{ "id": "duel", "player": "tester", "enemies": ["turtle"] }}]
}})",
                                       statuses);
  content::Diagnostics diags;
  std::optional<content::JsonDocument> doc = content::parse_json_text("percents.json", pack, diags);
  if (!doc) throw std::runtime_error("the percents pack does not parse:\n" + diags.to_string());
  CatalogResult r = load_catalog(std::vector<content::JsonDocument>{std::move(*doc)});
  if (!r.ok()) throw std::runtime_error("the percents pack does not load:\n" + r.error().to_string());
  return r.value();
}

/// Gives `unit` statuses `kind`_`percent`_1 .. `kind`_`percent`_`count`.
void give(Battle& b, UnitRef unit, std::string_view kind, int percent, int count) {
  auto x = Battle::Access::of(b);
  for (int i = 1; i <= count; ++i)
    detail::apply_status(x, unit, unit, status(b.catalog(), fmt::format("{}_{}_{}", kind, percent, i)), 1);
}

TEST(DeckbuilderAttackDamage, ManyPercentagesAreExactAndCappedWithoutOverflow) {
  // Up to sixteen percentages (eight statuses on each side) multiply an amount: their product
  // once overflowed 64 bits (1000% seven times is 10^21), and a result above 2^31 wrapped.
  const auto catalog = percents_pack({1, 150, 1000});
  constexpr UnitRef kTurtle = enemy_unit(0);
  {
    Battle b = started(catalog, "duel", 1);
    give(b, kPlayerUnit, "dealt", 150, 5);  // 7 x 1.5^5 = 53.15625: rounded down once, at the end
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 7), 53);
    give(b, kTurtle, "taken", 150, 3);  // 7 x 1.5^8 = 179.40...
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 7), 179);
  }
  {
    Battle b = started(catalog, "duel", 1);
    give(b, kPlayerUnit, "dealt", 1000, 6);
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 6), 6'000'000);
    // 1% among them: 6 x 10^6 / 100, exactly, whatever the order the statuses came in.
    give(b, kTurtle, "taken", 1, 1);
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 6), 60'000);
    give(b, kPlayerUnit, "dealt", 1000, 8);  // 6 x 10^8 / 100
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 6), 6'000'000);
    give(b, kTurtle, "taken", 1000, 7);  // with taken_1_1, eight: 6 x 10^8 x 10^7 / 100, capped
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 6), detail::kMaxModifiedAmount);
  }
  {
    // The percentage that lowers the amount counts before the cap is tested, wherever it stands:
    // 999 x 10^8 passes the cap, 999 x 10^8 / 100 does not.
    Battle b = started(catalog, "duel", 1);
    give(b, kPlayerUnit, "dealt", 1000, 8);
    give(b, kTurtle, "taken", 1, 1);
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 999), 999'000'000);
  }
  {
    // Four percentages stay in 64 bits, and the cap holds there too: with 4 x 999 stacks of +99
    // the amount is 396,603 before them, 3,966,030,000 after (it once wrapped past 2^31).
    Battle b = started(catalog, "duel", 1);
    give(b, kPlayerUnit, "dealt", 1000, 4);
    EXPECT_EQ(attack_damage(Battle::Access::of(b), kPlayerUnit, kTurtle, 999), 9'990'000);
    auto x = Battle::Access::of(b);
    for (int i = 1; i <= 4; ++i)
      detail::apply_status(x, kPlayerUnit, kPlayerUnit, status(b.catalog(), fmt::format("might_{}", i)), 999);
    EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 999), detail::kMaxModifiedAmount);
    detail::apply_status(x, kPlayerUnit, kPlayerUnit, status(b.catalog(), "dealt_1000_1"), -1);  // three left
    EXPECT_EQ(attack_damage(x, kPlayerUnit, kTurtle, 999), 396'603'000);
  }
  {
    // The hit itself: the turtle has 50 HP and loses them all, the report says 50.
    Battle b = started(catalog, "duel", 1);
    give(b, kPlayerUnit, "dealt", 1000, 8);
    give(b, kTurtle, "taken", 1000, 8);
    auto x = Battle::Access::of(b);
    detail::take_damage(x, kPlayerUnit, kTurtle, attack_damage(x, kPlayerUnit, kTurtle, 6));
    EXPECT_EQ(b.state().enemies[0].unit.hp, 0);
    EXPECT_EQ(b.damage_stats().hp[0], 50);  // the HP the player's attacks took
  }
}

TEST(DeckbuilderArmor, ManyPercentagesOfArmorGainedAreExactAndCapped) {
  const auto catalog = percents_pack({1, 1000});
  Battle b = started(catalog, "duel", 1);
  const auto gain = [&](std::int32_t base) {
    return detail::armor_gain(Battle::Access::of(b), b.state().player, base);
  };
  give(b, kPlayerUnit, "armor", 1000, 7);
  EXPECT_EQ(gain(5), 50'000'000);
  give(b, kPlayerUnit, "armor", 1, 1);  // 5 x 10^7 / 100
  EXPECT_EQ(gain(5), 500'000);
  Battle c = started(catalog, "duel", 1);
  give(c, kPlayerUnit, "armor", 1000, 8);  // 999 x 10^8: capped (1000^8 once overflowed)
  EXPECT_EQ(detail::armor_gain(Battle::Access::of(c), c.state().player, 999), detail::kMaxModifiedAmount);
  auto x = Battle::Access::of(c);
  detail::gain_armor(x, kPlayerUnit, detail::armor_gain(x, c.state().player, 999));
  EXPECT_EQ(c.state().player.armor, kMaxArmor);
}

TEST(DeckbuilderAttackDamage, WeakDealsThreeQuartersRoundedDown) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  detail::apply_status(x, kGnasher, kPlayerUnit, status(b.catalog(), "weak"), 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 4);  // 4.5
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 8), 6);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 1), 0);  // 0.75
  // Weak is the attacker's: the Gnasher hits the weakened player as hard as ever.
  EXPECT_EQ(attack_damage(x, kGnasher, kPlayerUnit, 11), 11);
}

TEST(DeckbuilderAttackDamage, WeakAndVulnerableRoundOnce) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  detail::apply_status(x, kGnasher, kPlayerUnit, status(b.catalog(), "weak"), 1);
  detail::apply_status(x, kPlayerUnit, kGnasher, status(b.catalog(), "vulnerable"), 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 6);    // 6.75
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 10), 11);  // 11.25; rounding twice would give 10
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 2), 2);    // 2.25; weak first would give 1
}

TEST(DeckbuilderAttackDamage, StrengthCountsBeforeThePercentages) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, status(b.catalog(), "strength"), 2);
  detail::apply_status(x, kGnasher, kPlayerUnit, status(b.catalog(), "weak"), 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 6);  // (6 + 2) x 0.75
  detail::apply_status(x, kPlayerUnit, kGnasher, status(b.catalog(), "vulnerable"), 1);
  EXPECT_EQ(attack_damage(x, kPlayerUnit, kGnasher, 6), 9);  // (6 + 2) x 0.75 x 1.5
}

// --- armor ------------------------------------------------------------------------------------

TEST(DeckbuilderArmor, AbsorbsBeforeHp) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const std::int32_t hp = b.state().enemies[0].unit.hp;
  detail::gain_armor(x, kGnasher, 4);
  const std::size_t from = b.events().log().size();
  detail::take_damage(x, kPlayerUnit, kGnasher, 6);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 0);
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp - 2);
  const std::vector<Event> ev = events_since(b, from);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].type, EventType::DamageDealt);
  EXPECT_EQ(ev[0].amount, 2);  // HP lost
  EXPECT_EQ(ev[0].extra, 4);   // armor absorbed
}

TEST(DeckbuilderArmor, MoreArmorThanDamageKeepsTheRest) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const std::int32_t hp = b.state().enemies[0].unit.hp;
  detail::gain_armor(x, kGnasher, 10);
  detail::take_damage(x, kPlayerUnit, kGnasher, 6);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 4);
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp);
  EXPECT_EQ(b.events().log().back().amount, 0);
  EXPECT_EQ(b.events().log().back().extra, 6);
}

TEST(DeckbuilderArmor, DefendAbsorbsPartOfTheChomp) {
  Battle b = started(starter(), "w1", seed_with_in_hand("w1", "defend"));
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "defend"))).ok());
  EXPECT_EQ(b.state().player.armor, 5);
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.hp, 80 - (11 - 5));
  bool seen = false;
  for (const Event& e : events_since(b, from))
    if (e.type == EventType::DamageDealt && e.target == kPlayerUnit) {
      EXPECT_EQ(e.amount, 6);
      EXPECT_EQ(e.extra, 5);
      seen = true;
    }
  EXPECT_TRUE(seen);
}

TEST(DeckbuilderArmor, LethalDamageKillsAndReportsTheDeath) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const std::int32_t hp = b.state().enemies[0].unit.hp;
  const std::size_t from = b.events().log().size();
  detail::take_damage(x, kPlayerUnit, kGnasher, hp + 5);
  EXPECT_FALSE(b.state().enemies[0].unit.alive());
  const std::vector<Event> ev = events_since(b, from);
  ASSERT_EQ(ev.size(), 2u);
  // HP stops at 0, and the event reports the HP actually lost, not the whole hit.
  EXPECT_EQ(ev[0].amount, hp);
  EXPECT_EQ(b.state().enemies[0].unit.hp, 0);
  EXPECT_EQ(ev[1].type, EventType::UnitDied);
  EXPECT_EQ(ev[1].target, kGnasher);
  // A dead unit takes no more damage.
  detail::take_damage(x, kPlayerUnit, kGnasher, 3);
  EXPECT_EQ(b.events().log().size(), from + 2);
}

// --- armor decay rule ------------------------------------------------------------------------

TEST(DeckbuilderArmorDecay, ResetOnTurnStartClearsThePlayersArmor) {
  Battle b = started(mechanics_pack(), "reset", 1);
  ASSERT_EQ(b.catalog().encounters[b.state().encounter].rules.armor_decay, ArmorDecayRule::ResetOnTurnStart);
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0])).ok());
  EXPECT_EQ(b.state().player.armor, 5);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.turn(), 2u);
  EXPECT_EQ(b.state().player.armor, 0);
  // The turtle's own armor is reset at the start of each of its turns: 1 after every turn.
  EXPECT_EQ(b.state().enemies[0].unit.armor, 1);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().enemies[0].unit.armor, 1);
}

TEST(DeckbuilderArmorDecay, PersistKeepsArmorAcrossTurns) {
  Battle b = started(mechanics_pack(), "persist", 1);
  ASSERT_EQ(b.catalog().encounters[b.state().encounter].rules.armor_decay, ArmorDecayRule::Persist);
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0])).ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.armor, 5);
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0])).ok());
  EXPECT_EQ(b.state().player.armor, 10);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 1);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.armor, 10);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 2);
}

// --- drawing ---------------------------------------------------------------------------------

TEST(DeckbuilderDraw, AnEmptyDrawPileShufflesTheDiscardPileIn) {
  Battle b = started(starter(), "w1", 1);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());  // turn 2 draws the last five
  EXPECT_TRUE(b.state().draw_pile().empty());
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());  // turn 3 finds the draw pile empty
  std::vector<Event> ev = events_since(b, from);
  std::vector<EventType> draw_phase;
  bool in_draw = false;
  for (const Event& e : ev) {
    if (e.type == EventType::DrawPhase)
      in_draw = true;
    else if (e.type == EventType::TurnStarted)
      in_draw = false;
    else if (in_draw)
      draw_phase.push_back(e.type);
  }
  ASSERT_EQ(draw_phase.size(), 6u);
  EXPECT_EQ(draw_phase[0], EventType::PileShuffled);
  for (std::size_t i = 1; i < 6; ++i) EXPECT_EQ(draw_phase[i], EventType::CardDrawn);
  for (const Event& e : ev)
    if (e.type == EventType::PileShuffled) {
      EXPECT_EQ(e.amount, 10);
    }
  EXPECT_EQ(b.state().hand().size(), 5u);
  EXPECT_EQ(b.state().draw_pile().size(), 5u);
  EXPECT_TRUE(b.state().discard_pile().empty());
}

// The runes the opening hand leaves on top of the draw pile are known there until the pile is
// shuffled: draws take them off the top with no update, a reshuffle forgets them.
TEST(DeckbuilderDraw, AReshuffleForgetsTheCardsKnownOnTop) {
  Battle b = started(test::innate_pack(), "e", 5);
  const std::uint8_t known_from = b.state().draw_known_from;
  EXPECT_EQ(known_from, test::kOrdinaryCards);
  EXPECT_EQ(b.state().known_on_top(), test::kRunesLeftOnTop);
  auto x = Battle::Access::of(b);
  detail::draw_cards(x, 1);  // one rune left on top
  EXPECT_EQ(b.state().draw_known_from, known_from);
  EXPECT_EQ(b.state().known_on_top(), 1u);
  detail::draw_cards(x, 2);  // the last rune and an ordinary card: the mark is passed
  EXPECT_EQ(b.state().known_on_top(), 0u);
  EXPECT_EQ(b.state().draw_known_from, known_from);
  const auto discard_hand = [&] {
    while (!b.state().hand().empty()) detail::move_from_hand(x, 0, Pile::Discard);
  };
  discard_hand();
  detail::draw_cards(x, 7);  // the rest of the draw pile
  ASSERT_TRUE(b.state().draw_pile().empty());
  discard_hand();
  detail::draw_cards(x, 1);  // the discard pile is shuffled in: the draw pile grows past the mark
  ASSERT_EQ(b.state().draw_pile().size(), test::kInnateRunes + test::kOrdinaryCards - 1);
  EXPECT_EQ(b.state().draw_known_from, kNothingKnownOnTop);
  EXPECT_EQ(b.state().known_on_top(), 0u);
}

// A card added at a random place of the draw pile hides what lies on top; one added to the hand
// or the discard pile leaves it known.
TEST(DeckbuilderAddCard, ACardShuffledIntoTheDrawPileForgetsTheCardsKnownOnTop) {
  Battle b = started(test::innate_pack(), "e", 6);
  auto x = Battle::Access::of(b);
  const CardId guard = *b.catalog().find_card("guard");
  detail::add_card(x, guard, Pile::Hand);
  detail::add_card(x, guard, Pile::Discard);
  EXPECT_EQ(b.state().known_on_top(), test::kRunesLeftOnTop);
  detail::add_card(x, guard, Pile::Draw);
  EXPECT_EQ(b.state().draw_pile().size(), test::kOrdinaryCards + test::kRunesLeftOnTop + 1);
  EXPECT_EQ(b.state().draw_known_from, kNothingKnownOnTop);
  EXPECT_EQ(b.state().known_on_top(), 0u);
}

/// Rearranges a fresh w1 battle's piles: the hand stays, `draw` cards stay in the draw pile,
/// `discard` go to the discard pile and the rest to the exhaust pile.
void arrange_piles(Battle& b, std::size_t draw, std::size_t discard) {
  auto x = Battle::Access::of(b);
  const std::vector<CardRef> all(x.s.draw_pile().begin(), x.s.draw_pile().end());
  const std::vector<CardRef> hand(x.s.hand().begin(), x.s.hand().end());
  x.s.piles.clear();
  for (CardRef c : hand) x.s.piles.push(Pile::Hand, c);
  for (std::size_t i = 0; i < all.size(); ++i)
    x.s.piles.push(i < draw ? Pile::Draw : i < draw + discard ? Pile::Discard : Pile::Exhaust, all[i]);
}

TEST(DeckbuilderDraw, DrawsTheDrawPileFirstThenShuffles) {
  Battle b = started(starter(), "w1", 1);
  arrange_piles(b, 2, 3);
  const CardRef top = b.state().draw_pile()[1];
  const CardRef second = b.state().draw_pile()[0];
  auto x = Battle::Access::of(b);
  const std::size_t from = b.events().log().size();
  detail::draw_cards(x, 4);
  const std::vector<Event> ev = events_since(b, from);
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev[0].type, EventType::CardDrawn);
  EXPECT_EQ(ev[0].subject, top);  // the top of the pile is its back
  EXPECT_EQ(ev[1].type, EventType::CardDrawn);
  EXPECT_EQ(ev[1].subject, second);
  EXPECT_EQ(ev[2].type, EventType::PileShuffled);
  EXPECT_EQ(ev[2].amount, 3);
  EXPECT_EQ(ev[3].type, EventType::CardDrawn);
  EXPECT_EQ(ev[4].type, EventType::CardDrawn);
  EXPECT_EQ(b.state().hand().size(), 9u);
  EXPECT_EQ(b.state().draw_pile().size(), 1u);
  EXPECT_TRUE(b.state().discard_pile().empty());
}

TEST(DeckbuilderDraw, StopsWhenBothPilesAreEmpty) {
  Battle b = started(starter(), "w1", 1);
  arrange_piles(b, 2, 1);
  auto x = Battle::Access::of(b);
  const std::size_t from = b.events().log().size();
  detail::draw_cards(x, 5);
  const std::vector<Event> ev = events_since(b, from);
  EXPECT_EQ(count_type(ev, EventType::CardDrawn), 3u);
  EXPECT_EQ(count_type(ev, EventType::PileShuffled), 1u);
  EXPECT_EQ(ev.size(), 4u);
  EXPECT_EQ(b.state().hand().size(), 8u);
  EXPECT_TRUE(b.state().draw_pile().empty());
  EXPECT_TRUE(b.state().discard_pile().empty());
  // Nothing left at all: nothing happens.
  detail::draw_cards(x, 3);
  EXPECT_EQ(b.events().log().size(), from + ev.size());
  EXPECT_EQ(b.state().hand().size(), 8u);
}

TEST(DeckbuilderDraw, TheHandLimitStopsTheOpeningDraw) {
  Battle b = started(mechanics_pack(), "small_hand", 1);
  const BattleRules& rules = b.catalog().encounters[b.state().encounter].rules;
  ASSERT_EQ(rules.opening_hand, 8);
  ASSERT_EQ(rules.hand_limit, 6);
  EXPECT_EQ(b.state().hand().size(), 6u);
  EXPECT_EQ(b.state().draw_pile().size(), 6u);
  EXPECT_EQ(count_type(b.events().log(), EventType::CardDrawn), 6u);
}

TEST(DeckbuilderDraw, TheHandLimitStopsADrawEffect) {
  Battle b = started(mechanics_pack(), "small_hand", 1);
  auto x = Battle::Access::of(b);
  const std::size_t from = b.events().log().size();
  detail::draw_cards(x, 3);
  EXPECT_EQ(b.events().log().size(), from);
  EXPECT_EQ(b.state().hand().size(), 6u);
  EXPECT_EQ(b.state().draw_pile().size(), 6u);
  // One card played makes room for exactly one.
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0])).ok());
  detail::draw_cards(x, 3);
  EXPECT_EQ(b.state().hand().size(), 6u);
  EXPECT_EQ(b.state().draw_pile().size(), 5u);
}

/// The piles as card lists, for comparing two battles.
std::vector<std::vector<CardRef>> piles_of(const Battle& b) {
  const BattleState& s = b.state();
  return {{s.draw_pile().begin(), s.draw_pile().end()},
          {s.hand().begin(), s.hand().end()},
          {s.discard_pile().begin(), s.discard_pile().end()},
          {s.exhaust_pile().begin(), s.exhaust_pile().end()}};
}

TEST(DeckbuilderDraw, WithoutCardDrawnToEmitTheSameCardsMoveInOneStep) {
  // With the log off and no listener, draw_cards moves each run of cards at once; with the log
  // on, one by one with a CardDrawn each. Both must draw the same cards, shuffle at the same
  // moment (the same shuffle stream after) and stop at the same place: the draw count, empty
  // piles or the hand limit. small_hand: twelve cards, six in hand (its limit), six to draw.
  for (std::size_t out = 0; out <= 6; ++out) {       // hand cards exhausted: room in the hand
    for (std::size_t draw = 0; draw <= 6; ++draw) {  // of the other six, in the draw pile
      for (int count = 0; count <= 12; ++count) {    // the rest in the discard pile
        const std::string where = "out " + std::to_string(out) + " draw " + std::to_string(draw) + " count " +
                                  std::to_string(count);
        Battle heard = started(mechanics_pack(), "small_hand", 7);
        Battle quiet(mechanics_pack(), BattleOptions{.event_log = false, .record_history = false});
        ASSERT_TRUE(quiet.start_battle("small_hand", 7).ok());
        ASSERT_TRUE(heard.events().wants(EventType::CardDrawn));
        ASSERT_FALSE(quiet.events().wants(EventType::CardDrawn));
        ASSERT_EQ(heard.state().hand().size(), 6u);
        ASSERT_EQ(heard.state().draw_pile().size(), 6u);
        const std::size_t from = heard.events().log().size();
        for (Battle* b : {&heard, &quiet}) {
          auto x = Battle::Access::of(*b);
          const std::vector<CardRef> hand(x.s.hand().begin(), x.s.hand().end());
          const std::vector<CardRef> rest(x.s.draw_pile().begin(), x.s.draw_pile().end());
          x.s.piles.clear();
          for (std::size_t i = 0; i < hand.size(); ++i)
            x.s.piles.push(i < out ? Pile::Exhaust : Pile::Hand, hand[i]);
          for (std::size_t i = 0; i < rest.size(); ++i)
            x.s.piles.push(i < draw ? Pile::Draw : Pile::Discard, rest[i]);
          detail::draw_cards(x, count);
        }
        const std::size_t expected = std::min({static_cast<std::size_t>(count), out, std::size_t{6}});
        ASSERT_EQ(heard.state().hand().size(), 6 - out + expected) << where;
        ASSERT_EQ(count_type(events_since(heard, from), EventType::CardDrawn), expected) << where;
        ASSERT_EQ(piles_of(quiet), piles_of(heard)) << where;
        ASSERT_EQ(quiet.state_hash(), heard.state_hash()) << where;
      }
    }
  }
}

TEST(DeckbuilderDraw, AListenerAttachedAtAShuffleHearsTheDrawsAfterIt) {
  // Log off: the draws before the shuffle move in one step (no one wants CardDrawn); a
  // PileShuffled listener then attaches a CardDrawn listener, which hears every later draw.
  struct Drawn : EventListener<Event> {
    std::vector<CardRef> cards;
    void on_event(const Event& e) override { cards.push_back(static_cast<CardRef>(e.subject)); }
    std::uint64_t interest() const override { return event_bit(EventType::CardDrawn); }
  };
  struct AttachAtShuffle : EventListener<Event> {
    EventBus<Event>* bus = nullptr;
    Drawn* drawn = nullptr;
    void on_event(const Event&) override {
      if (drawn != nullptr) bus->attach(std::exchange(drawn, nullptr));
    }
    std::uint64_t interest() const override { return event_bit(EventType::PileShuffled); }
  };
  Battle b(starter(), BattleOptions{.event_log = false, .record_history = false});
  ASSERT_TRUE(b.start_battle("w1", 1).ok());
  arrange_piles(b, 2, 3);
  Drawn drawn;
  AttachAtShuffle attach;
  attach.bus = &b.events();
  attach.drawn = &drawn;
  b.events().attach(&attach);
  ASSERT_FALSE(b.events().wants(EventType::CardDrawn));
  const std::size_t hand = b.state().hand().size();
  auto x = Battle::Access::of(b);
  detail::draw_cards(x, 4);  // two from the draw pile, the shuffle, two more
  EXPECT_EQ(b.state().hand().size(), hand + 4);
  ASSERT_EQ(drawn.cards.size(), 2u);
  EXPECT_EQ(drawn.cards[0], b.state().hand()[hand + 2]);
  EXPECT_EQ(drawn.cards[1], b.state().hand()[hand + 3]);
  b.events().detach(&drawn);
  b.events().detach(&attach);
}

// Plays every starter encounter, seeds 1 to `seeds`, in two battles started by `make` (the
// encounter and the seed) in lockstep with the random policy: the same options and the same state
// before every action, and the same state and damage counted at the end. Returns the actions.
std::size_t play_every_encounter_in_lockstep(
    std::uint64_t seeds, const std::function<std::pair<Battle, Battle>(EncounterId, std::uint64_t)>& make) {
  std::vector<Action> options_a;
  std::vector<Action> options_b;
  std::size_t actions = 0;
  for (std::size_t e = 0; e < starter()->encounters.size(); ++e) {
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
      const auto encounter = static_cast<EncounterId>(e);
      const std::string where = starter()->encounters[e].id + " seed " + std::to_string(seed);
      auto [a, b] = make(encounter, seed);
      RandomPolicy policy;
      policy.reset(seed);
      while (a.status() == Status::AwaitingDecision && actions < 200000) {
        EXPECT_EQ(b.state_hash(), a.state_hash()) << where;
        a.legal_actions(options_a);
        b.legal_actions(options_b);
        EXPECT_EQ(options_b, options_a) << where;
        if (options_b != options_a || b.state_hash() != a.state_hash()) return actions;
        const Action action = options_a[policy.pick(options_a.size())];
        EXPECT_TRUE(a.submit(action).ok()) << where;
        EXPECT_TRUE(b.submit(action).ok()) << where;
        ++actions;
      }
      EXPECT_TRUE(a.is_battle_over()) << where;
      EXPECT_EQ(b.status(), a.status()) << where;
      EXPECT_EQ(b.state_hash(), a.state_hash()) << where;
      EXPECT_EQ(b.damage_stats(), a.damage_stats()) << where;
    }
  }
  return actions;
}

TEST(DeckbuilderQuietBattles, LogOnOrOffEveryEncounterPlaysTheSameBattle) {
  // With the log off and no listener, the draws move in runs and a hand without Retain or
  // Ethereal cards is discarded in one step; with the log on, card by card. Likewise the damage
  // and armor ops take their unheard paths (one unit, no event). Every encounter of the starter
  // pack (decks with and without Retain and Ethereal cards, thorns, strength, vulnerable).
  const std::size_t actions =
      play_every_encounter_in_lockstep(12, [](EncounterId encounter, std::uint64_t seed) {
        std::pair<Battle, Battle> battles{
            Battle(starter()), Battle(starter(), BattleOptions{.event_log = false, .record_history = false})};
        EXPECT_TRUE(battles.first.start_battle(encounter, seed).ok());
        EXPECT_TRUE(battles.second.start_battle(encounter, seed).ok());
        EXPECT_FALSE(battles.second.events().wants(EventType::CardMoved));
        return battles;
      });
  EXPECT_GT(actions, 1000u);
}

// The damage op's compile marks one hit of the literal amount on one unit (kOneHit), the case
// its handler runs without the general path. Every damage op of the starter pack is marked
// exactly when it is such a hit, both kinds occur, and with every mark cleared (the general path
// for every hit) every encounter plays the same battles, in lockstep.
TEST(DeckbuilderDamageOp, MarksOneHitAndPlaysTheSameWithoutTheMark) {
  auto unmarked = std::make_shared<Catalog>(*starter());
  const auto damage = static_cast<std::uint8_t>(
      std::find(unmarked->op_names.begin(), unmarked->op_names.end(), "damage") - unmarked->op_names.begin());
  ASSERT_LT(damage, unmarked->op_handlers.size());
  std::size_t marked = 0, other = 0;
  for (Op& op : unmarked->ops) {
    if (op.code != damage) continue;
    const bool one_hit = op.times == 1 && (op.target == OpTarget::Chosen || op.target == OpTarget::Self) &&
                         (op.flags & kAmountCounted) == 0;
    EXPECT_EQ((op.flags & kOneHit) != 0, one_hit) << "op with " << op.times << " hits";
    (one_hit ? marked : other) += 1;
    op.flags = static_cast<std::uint8_t>(op.flags & ~kOneHit);
  }
  EXPECT_GT(marked, 0u);
  EXPECT_GT(other, 0u);
  const std::size_t actions =
      play_every_encounter_in_lockstep(8, [&](EncounterId encounter, std::uint64_t seed) {
        const BattleOptions quiet{.event_log = false, .record_history = false};
        std::pair<Battle, Battle> battles{Battle(starter(), quiet), Battle(unmarked, quiet)};
        EXPECT_TRUE(battles.first.start_battle(encounter, seed).ok());
        EXPECT_TRUE(battles.second.start_battle(encounter, seed).ok());
        return battles;
      });
  EXPECT_GT(actions, 1000u);
}

// --- statuses --------------------------------------------------------------------------------

TEST(DeckbuilderStatusDecay, VulnerableOnThePlayerTicksDownAtPlayerTurnEndAndExpires) {
  Battle b = started(mechanics_pack(), "hexed", 1);
  const StatusId vulnerable = status(b.catalog(), "vulnerable");
  EXPECT_EQ(b.state().player.status_traits, 0);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());  // the hexer hexes: 2 stacks
  EXPECT_EQ(b.state().player.stacks(vulnerable), 2);
  EXPECT_EQ(b.state().player.status_traits,
            status_trait::kDecaysAtOwnerTurnEnd | status_trait::kChangesDamageTaken);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());  // player turn 2 ends: 1; the hexer waits
  EXPECT_EQ(b.state().player.stacks(vulnerable), 1);
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());  // player turn 3 ends: gone
  EXPECT_EQ(b.state().player.stacks(vulnerable), 0);
  EXPECT_TRUE(b.state().player.statuses.empty());
  EXPECT_EQ(b.state().player.status_traits, 0) << "an expired status leaves no trait behind";
  // Expired during the player's turn end: after the discard phase, before TurnEnded.
  std::vector<EventType> order;
  for (const Event& e : events_since(b, from)) {
    if (e.type == EventType::StatusExpired) {
      EXPECT_EQ(e.target, kPlayerUnit);
      EXPECT_EQ(e.subject, vulnerable);
    }
    if (e.type == EventType::DiscardPhase || e.type == EventType::StatusExpired ||
        e.type == EventType::TurnEnded)
      order.push_back(e.type);
  }
  EXPECT_EQ(order, (std::vector<EventType>{EventType::DiscardPhase, EventType::StatusExpired,
                                           EventType::TurnEnded}));
}

TEST(DeckbuilderStatusDecay, StacksAddUpAndZeroRemovesTheStatus) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const StatusId weak = status(b.catalog(), "weak");
  detail::apply_status(x, kGnasher, kPlayerUnit, weak, 1);
  detail::apply_status(x, kGnasher, kPlayerUnit, weak, 2);
  EXPECT_EQ(b.state().player.stacks(weak), 3);
  EXPECT_EQ(b.events().log().back().extra, 3);
  EXPECT_EQ(b.state().player.status_traits,
            status_trait::kDecaysAtOwnerTurnEnd | status_trait::kChangesDamageDealt);
  detail::apply_status(x, kGnasher, kPlayerUnit, weak, -3);
  EXPECT_EQ(b.state().player.stacks(weak), 0);
  EXPECT_TRUE(b.state().player.statuses.empty());
  EXPECT_EQ(b.state().player.status_traits, 0) << "a removed status leaves no trait behind";
}

// A unit holds at most kMaxStatusSlots different statuses: a further one is not applied (it
// raises LimitReached), while the statuses it holds still gain and lose stacks, and one that leaves
// makes room.
TEST(DeckbuilderStatusSlots, AUnitWithEveryStatusSlotTakenTakesNoNewStatus) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const Catalog& c = b.catalog();
  ASSERT_GT(c.statuses.size(), kMaxStatusSlots) << "the starter pack has statuses enough to fill a unit";
  for (std::size_t i = 0; i < kMaxStatusSlots; ++i)
    detail::apply_status(x, kGnasher, kPlayerUnit, static_cast<StatusId>(i), 1);
  ASSERT_TRUE(b.state().player.statuses.full());
  const auto ninth = static_cast<StatusId>(kMaxStatusSlots);
  const UnitState before = b.state().player;
  const std::size_t events = b.events().log().size();
  detail::apply_status(x, kGnasher, kPlayerUnit, ninth, 2);
  EXPECT_EQ(b.state().player, before) << "the ninth status is not applied";
  EXPECT_EQ(b.state().player.stacks(ninth), 0);
  ASSERT_EQ(b.events().log().size(), events + 1);
  const Event& reached = b.events().log().back();
  EXPECT_EQ(reached.type, EventType::LimitReached);
  EXPECT_EQ(static_cast<Limit>(reached.amount), Limit::UnitStatuses);
  EXPECT_EQ(reached.extra, static_cast<std::int32_t>(kMaxStatusSlots));
  EXPECT_EQ(reached.subject, ninth);
  EXPECT_EQ(reached.target, kPlayerUnit);
  const nlohmann::json j = event_to_json(reached, c);
  EXPECT_EQ(j["limit"], "unit_statuses");
  EXPECT_EQ(j["status"], c.statuses[ninth].id);
  EXPECT_EQ(j["target"], "player");
  EXPECT_EQ(event_text(b, reached),
            "you: " + c.statuses[ninth].name + " is not applied: 8 statuses held, the most a unit can");
  detail::apply_status(x, kGnasher, kPlayerUnit, StatusId{0}, 2);
  EXPECT_EQ(b.state().player.stacks(StatusId{0}), 3) << "a status the unit holds still stacks";
  detail::apply_status(x, kGnasher, kPlayerUnit, StatusId{0}, -3);
  detail::apply_status(x, kGnasher, kPlayerUnit, ninth, 2);
  EXPECT_EQ(b.state().player.stacks(ninth), 2) << "a status that left makes room for another";
  EXPECT_EQ(b.state().player.statuses.size(), kMaxStatusSlots);
  EXPECT_EQ(b.events().log().back().type, EventType::StatusApplied);
  EXPECT_EQ(b.events().log().back().subject, ninth);
}

// The traits name what the turn steps and the damage and armor helpers look for; a unit's are
// the union of its statuses', kept through applying, removing and restoring.
TEST(DeckbuilderStatusTraits, EachStatusGivesWhatItDoesAndAUnitTheUnion) {
  Battle b = started(starter(), "w1", 1);
  auto x = Battle::Access::of(b);
  const Catalog& c = b.catalog();
  const auto timing = [](StatusTiming t) {
    return static_cast<std::uint16_t>(1u << static_cast<unsigned>(t));
  };
  namespace st = status_trait;
  const std::vector<std::pair<std::string_view, std::uint16_t>> expected = {
      {"strength", st::kChangesDamageDealt},
      {"vulnerable", st::kDecaysAtOwnerTurnEnd | st::kChangesDamageTaken},
      {"poison", st::kDecaysAtOwnerTurnEnd | timing(StatusTiming::TurnStart)},
      {"thorns", timing(StatusTiming::OnAttacked)},
      {"dexterity", st::kChangesArmorGained},
      {"frail", st::kDecaysAtOwnerTurnEnd | st::kChangesArmorGained},
      {"stun", st::kDecaysAtOwnerTurnEnd | st::kSkipsTurn},
      {"resolve", timing(StatusTiming::DiscardPhase) | timing(StatusTiming::BattleEnd)},
  };
  std::uint16_t all = 0;
  for (const auto& [id, traits] : expected) {
    UnitState alone;
    alone.statuses.push_back(StatusStack{status(c, id), 1});
    EXPECT_EQ(status_traits_of(alone, c), traits) << id;
    detail::apply_status(x, kGnasher, kPlayerUnit, status(c, id), 1);
    all = static_cast<std::uint16_t>(all | traits);
    EXPECT_EQ(b.state().player.status_traits, all) << "after " << id;
  }
  const auto restored = restore(b.catalog_ptr(), snapshot(b));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state().player.status_traits, all) << "a snapshot holds the statuses only";
  detail::apply_status(x, kGnasher, kPlayerUnit, status(c, "stun"), -1);
  EXPECT_EQ(b.state().player.status_traits & st::kSkipsTurn, 0);
  EXPECT_NE(b.state().player.status_traits & st::kDecaysAtOwnerTurnEnd, 0) << "Vulnerable, Poison and Frail";
}

// --- enemy intents ---------------------------------------------------------------------------

/// The moves each enemy made (EnemyActed), by enemy index.
std::map<UnitRef, std::vector<MoveIndex>> moves_made(const Battle& b) {
  std::map<UnitRef, std::vector<MoveIndex>> out;
  for (const Event& e : b.events().log())
    if (e.type == EventType::EnemyActed) out[e.source].push_back(static_cast<MoveIndex>(e.subject));
  return out;
}

/// Ends `turns` turns with a player too tough to die, so the enemies show long move sequences.
Battle long_battle(std::string_view encounter, std::uint64_t seed, int turns) {
  Battle b = started(starter(), encounter, seed);
  auto x = Battle::Access::of(b);
  x.s.player.max_hp = 1'000'000;
  x.s.player.hp = 1'000'000;
  for (int t = 0; t < turns; ++t)
    if (!b.submit(Action::end_turn()).ok()) throw std::runtime_error("end turn refused");
  return b;
}

MoveIndex move_index(const EnemyDef& e, std::string_view id) {
  for (std::size_t i = 0; i < e.moves.size(); ++i)
    if (e.moves[i].id == id) return static_cast<MoveIndex>(i);
  throw std::runtime_error("no move " + std::string(id));
}

TEST(DeckbuilderEnemyIntent, GnasherOpensWithChompAndRespectsItsRepeatLimits) {
  const EnemyDef& gnasher = starter()->enemies[*starter()->find_enemy("gnasher")];
  const MoveIndex chomp = move_index(gnasher, "chomp");
  const MoveIndex thrash = move_index(gnasher, "thrash");
  const MoveIndex bellow = move_index(gnasher, "bellow");
  std::map<std::pair<MoveIndex, MoveIndex>, int> pairs;
  std::size_t moves = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const Battle b = long_battle("w1", seed, 30);
    const std::vector<MoveIndex> seq = moves_made(b)[kGnasher];
    ASSERT_EQ(seq.size(), 30u);
    moves += seq.size();
    EXPECT_EQ(seq[0], chomp) << "seed " << seed;
    for (std::size_t i = 1; i < seq.size(); ++i) {
      ++pairs[{seq[i - 1], seq[i]}];
      EXPECT_FALSE(seq[i - 1] == bellow && seq[i] == bellow) << "seed " << seed << ": bellow twice at " << i;
      if (i >= 2) {
        EXPECT_FALSE(seq[i - 2] == seq[i - 1] && seq[i - 1] == seq[i])
            << "seed " << seed << ": " << gnasher.moves[seq[i]].id << " three times at " << i;
      }
    }
  }
  // The limits are what stop repeats, not chance: the repeats they allow do happen.
  EXPECT_GT((pairs[{chomp, chomp}]), 0);
  EXPECT_GT((pairs[{thrash, thrash}]), 0);
  EXPECT_GT((pairs[{chomp, bellow}] + pairs[{thrash, bellow}]), 0);
  EXPECT_EQ(moves, 3000u);
}

TEST(DeckbuilderEnemyIntent, TheIntentShownIsTheMoveMade) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Battle b = long_battle("sludge_pair", seed, 10);
    std::map<UnitRef, MoveIndex> shown;
    for (const Event& e : b.events().log()) {
      if (e.type == EventType::EnemyIntent) shown[e.source] = static_cast<MoveIndex>(e.subject);
      if (e.type == EventType::EnemyActed) {
        ASSERT_TRUE(shown.contains(e.source));
        EXPECT_EQ(e.subject, shown[e.source]) << "seed " << seed;
      }
    }
    const Battle g = long_battle("w1", seed, 10);
    std::optional<MoveIndex> intent;
    for (const Event& e : g.events().log()) {
      if (e.type == EventType::EnemyIntent) intent = static_cast<MoveIndex>(e.subject);
      if (e.type == EventType::EnemyActed) {
        ASSERT_TRUE(intent.has_value());
        EXPECT_EQ(e.subject, *intent) << "seed " << seed;
      }
    }
  }
}

TEST(DeckbuilderEnemyIntent, SludgeAlternatesSpitAndSlam) {
  const EnemyDef& sludge = starter()->enemies[*starter()->find_enemy("sludge")];
  const MoveIndex spit = move_index(sludge, "spit");
  const MoveIndex slam = move_index(sludge, "slam");
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Battle b = long_battle("sludge_pair", seed, 12);
    const auto made = moves_made(b);
    for (UnitRef sludge_ref : {enemy_unit(0), enemy_unit(1)}) {
      const std::vector<MoveIndex>& seq = made.at(sludge_ref);
      ASSERT_EQ(seq.size(), 12u);
      for (std::size_t i = 0; i < seq.size(); ++i)
        EXPECT_EQ(seq[i], i % 2 == 0 ? spit : slam)
            << "seed " << seed << " sludge " << int{sludge_ref} << " turn " << i + 1;
    }
  }
}

// --- flat effect lists -------------------------------------------------------------------------

TEST(DeckbuilderFlatEffects, TheLoaderMarksTheListsThatCannotPause) {
  const Catalog& c = *starter();
  const auto effects = [&](std::string_view id) { return c.cards[*c.find_card(id)].effects; };
  EXPECT_TRUE(effects("strike").flat);
  EXPECT_TRUE(effects("bash").flat);
  EXPECT_FALSE(effects("tactics").flat) << "a choice pauses";
  EXPECT_FALSE(effects("scout").flat) << "a draw, then a choice";
  EXPECT_FALSE(effects("sift").flat) << "a discard the player chooses pauses";
  EXPECT_FALSE(effects("purge").flat) << "an exhaust the player chooses pauses";
  EXPECT_TRUE(effects("wild_toss").flat) << "a random discard never pauses";
  EXPECT_TRUE(effects("pyre").flat) << "a random exhaust never pauses";
  for (const EnemyDef& e : c.enemies)
    for (const auto& m : e.moves) {
      bool nests = false;
      for (std::uint32_t pc = m.effects.begin; pc < m.effects.end; ++pc)
        nests |= c.op_names[c.ops[pc].code] == "repeat" || c.op_names[c.ops[pc].code] == "conditional" ||
                 c.op_names[c.ops[pc].code] == "for_each_enemy";
      EXPECT_EQ(m.effects.flat, !nests) << e.id << " " << m.id;
    }
}

/// The same catalog with every list marked not flat: everything runs on the effect stack.
std::shared_ptr<const Catalog> all_stacked(const Catalog& c) {
  auto copy = std::make_shared<Catalog>(c);
  for (CardDef& card : copy->cards) card.effects.flat = card.in_hand_turn_start.flat = false;
  for (StatusDef& st : copy->statuses)
    for (OpRange& t : st.timings) t.flat = false;
  for (EnemyDef& e : copy->enemies)
    for (auto& m : e.moves) m.effects.flat = false;
  for (HookDef& h : copy->hooks) h.effects.flat = false;
  for (OpRange& b : copy->blocks) b.flat = false;
  return copy;
}

TEST(DeckbuilderFlatEffects, StraightAndStackedRunsPlayTheSameBattles) {
  const auto stacked = all_stacked(*starter());
  const CardId wild_toss = *starter()->find_card("wild_toss");
  const CardId pyre = *starter()->find_card("pyre");
  std::size_t decisions = 0;
  std::size_t random_hand_card_plays = 0;  // flat lists that move hand cards at random
  for (const EncounterDef& enc : starter()->encounters)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      Battle a(starter());
      Battle b(stacked);
      ASSERT_TRUE(a.start_battle(enc.id, seed).ok());
      ASSERT_TRUE(b.start_battle(enc.id, seed).ok());
      Rng pick = Rng::from_seed(seed);
      std::vector<Action> options;
      while (a.status() == Status::AwaitingDecision) {
        ASSERT_EQ(a.state_hash(), b.state_hash()) << enc.id << " seed " << seed;
        a.legal_actions(options);
        const Action action = options[pick.below(static_cast<std::uint32_t>(options.size()))];
        if (action.kind == ActionKind::PlayCard) {
          const CardId played = a.state().cards[action.card].def;
          random_hand_card_plays += played == wild_toss || played == pyre ? 1 : 0;
        }
        ASSERT_TRUE(a.submit(action).ok());
        ASSERT_TRUE(b.submit(action).ok());
        ++decisions;
      }
      EXPECT_EQ(b.status(), a.status());
      EXPECT_EQ(a.state_hash(), b.state_hash()) << enc.id << " seed " << seed;
      EXPECT_TRUE(a.events().log() == b.events().log()) << enc.id << " seed " << seed;
    }
  EXPECT_GT(decisions, 500u);
  EXPECT_GT(random_hand_card_plays, 0u);
}

TEST(DeckbuilderCardPlayIndex, TheLoaderIndexesEveryCard) {
  const Catalog& c = *starter();
  ASSERT_EQ(c.card_play.size(), c.cards.size());
  for (std::size_t i = 0; i < c.cards.size(); ++i) {
    EXPECT_EQ(c.card_play[i].cost, c.cards[i].cost) << c.cards[i].id;
    EXPECT_EQ(c.card_play[i].target, c.cards[i].target) << c.cards[i].id;
    EXPECT_EQ(c.card_play[i].keywords, c.cards[i].keywords) << c.cards[i].id;
  }
}

// A battle's start takes the keywords and the listing costs of the player's own deck from the
// catalog (player_decks); a master deck is counted card by card. Both give the state's recount.
TEST(DeckbuilderCardPlayIndex, PlayerDecksAreIndexedWithTheCatalog) {
  auto changed = std::make_shared<Catalog>(*starter());
  const PlayerUnitId player = changed->encounters[*changed->find_encounter("w1")].player;
  ASSERT_EQ(changed->player_decks.size(), changed->players.size());
  EXPECT_EQ(changed->player_decks[player].costs,
            (ListingCosts{.lowest = 1, .highest = 2}));  // strike, defend, bash
  const CardId innate = [&] {
    for (std::size_t i = 0; i < changed->cards.size(); ++i)
      if (changed->card_play[i].has(kInnate) && changed->card_play[i].cost == 0)
        return static_cast<CardId>(i);
    return CardId{0};
  }();
  ASSERT_TRUE(changed->card_play[innate].has(kInnate));
  changed->players[player].deck.push_back(innate);  // not reindexed: a stale deck index
  EXPECT_THROW(Battle{changed}, InvariantError);
  index_catalog(*changed);
  EXPECT_EQ(changed->player_decks[player].costs, (ListingCosts{.lowest = 0, .highest = 2}));
  EXPECT_NE(changed->player_decks[player].keywords & kInnate, 0);
  Battle own(changed);
  ASSERT_TRUE(own.start_battle("w1", 1).ok());
  EXPECT_EQ(own.state().listing_costs, listing_costs_of(own.state()));
  EXPECT_EQ(own.state().card_keywords, card_keywords_of(own.state(), *changed));
  EXPECT_EQ(own.state().listing_costs, changed->player_decks[player].costs);
  Battle given(changed);
  const std::vector<CardId> master{*changed->find_card("bash"), *changed->find_card("bash")};
  ASSERT_TRUE(given.start_battle(*changed->find_encounter("w1"), 1, master).ok());
  EXPECT_EQ(given.state().listing_costs, (ListingCosts{.lowest = 2, .highest = 2}));
  EXPECT_EQ(given.state().card_keywords, card_keywords_of(given.state(), *changed));
}

TEST(DeckbuilderCardPlayIndex, ACatalogChangedInCodeIsReindexedOrRefused) {
  auto changed = std::make_shared<Catalog>(*starter());
  const CardId strike = *changed->find_card("strike");
  changed->cards[strike].cost = 3;
  index_catalog(*changed);
  Battle b(changed);
  ASSERT_TRUE(b.start_battle("w1", 1).ok());
  std::size_t strikes = 0;
  for (std::size_t i = 0; i < b.state().cards.size(); ++i) {
    if (b.state().cards[i].def != strike) continue;
    EXPECT_EQ(b.effective_cost(static_cast<CardRef>(i)), 3);
    ++strikes;
  }
  EXPECT_EQ(strikes, 5u);

  changed->cards[strike].cost = 2;  // not reindexed: a stale cost
  EXPECT_THROW(Battle{changed}, InvariantError);
  index_catalog(*changed);
  changed->cards.push_back(changed->cards[strike]);  // not reindexed: a card missing
  EXPECT_THROW(Battle{changed}, InvariantError);
}

// The turn start looks at the hand only when some card of the catalog has an in-hand turn-start
// behaviour: the flag follows the cards, and a catalog changed without index_catalog is refused.
TEST(DeckbuilderCardPlayIndex, InHandTurnStartIsIndexedWithTheCatalog) {
  const bool any = std::any_of(starter()->cards.begin(), starter()->cards.end(),
                               [](const CardDef& d) { return !d.in_hand_turn_start.empty(); });
  EXPECT_EQ(starter()->in_hand_turn_start, any);
  auto changed = std::make_shared<Catalog>(*starter());
  for (CardDef& d : changed->cards) d.in_hand_turn_start = OpRange{};
  index_catalog(*changed);
  EXPECT_FALSE(changed->in_hand_turn_start);
  const CardId strike = *changed->find_card("strike");
  changed->cards[strike].in_hand_turn_start = changed->cards[strike].effects;  // not reindexed
  EXPECT_THROW(Battle{changed}, InvariantError);
  index_catalog(*changed);
  EXPECT_TRUE(changed->in_hand_turn_start);
  changed->in_hand_turn_start = false;  // the flag alone stale
  EXPECT_THROW(Battle{changed}, InvariantError);
}

TEST(DeckbuilderCardPlayIndex, StatusTraitsAreIndexedWithTheCatalog) {
  const Catalog& c = *starter();
  ASSERT_EQ(c.status_traits.size(), c.statuses.size());
  for (std::size_t i = 0; i < c.statuses.size(); ++i)
    EXPECT_EQ(c.status_traits[i], status_def_traits(c.statuses[i])) << c.statuses[i].id;

  auto changed = std::make_shared<Catalog>(c);
  const StatusId vulnerable = *changed->find_status("vulnerable");
  changed->statuses[vulnerable].damage_taken_percent = 100;  // not reindexed: a stale trait
  EXPECT_THROW(Battle{changed}, InvariantError);
  index_catalog(*changed);
  EXPECT_EQ(changed->status_traits[vulnerable] & status_trait::kChangesDamageTaken, 0);
  Battle b(changed);
  ASSERT_TRUE(b.start_battle("w1", 1).ok());
  Battle::Access x = Battle::Access::of(b);
  detail::apply_status(x, kPlayerUnit, kGnasher, vulnerable, 2);
  EXPECT_EQ(b.state().enemies[0].unit.status_traits,
            status_trait::kDecaysAtOwnerTurnEnd);  // it still decays, and no longer changes damage
  changed->statuses.push_back(changed->statuses[vulnerable]);  // not reindexed: a status missing
  EXPECT_THROW(Battle{changed}, InvariantError);
}

// A flat list runs without the effect stack, so none of its ops may push a frame or pause: an
// op kind that can must keep the flag kNests. One that breaks this is an engine error naming the
// list's ops, for a play and for an enemy's move (both run their list as a flat one).
TEST(DeckbuilderFlatList, AnOpThatPushesAFrameInAFlatListIsAnEngineError) {
  auto changed = std::make_shared<Catalog>(*starter());
  const auto damage = static_cast<std::size_t>(
      std::find(changed->op_names.begin(), changed->op_names.end(), "damage") - changed->op_names.begin());
  ASSERT_LT(damage, changed->op_handlers.size());
  changed->op_handlers[damage] = [](detail::OpContext& ctx, const Op& op) {
    detail::push_block(ctx.x, OpRange{0, 1, false}, EffectFrame::Kind::Block, ctx.source, ctx.target,
                       ctx.card);
    (void)op;
  };
  const auto expect_refused = [](const std::function<void()>& step) {
    try {
      step();
      ADD_FAILURE() << "no engine error";
    } catch (const InvariantError& e) {
      EXPECT_NE(std::string(e.what()).find("ops 'damage'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("kNests"), std::string::npos) << e.what();
    }
  };

  Battle play(changed);
  ASSERT_TRUE(play.start_battle("w1", 1).ok());
  const CardId strike = *changed->find_card("strike");
  std::optional<Action> strike_play;
  for (const Action& a : play.decision().options)
    if (a.kind == ActionKind::PlayCard && play.state().cards[a.card].def == strike) strike_play = a;
  ASSERT_TRUE(strike_play.has_value());
  expect_refused([&] { (void)play.submit(*strike_play); });

  Battle move(changed);  // the gnasher opens with Chomp, one damage op
  ASSERT_TRUE(move.start_battle("w1", 1).ok());
  expect_refused([&] { (void)move.submit(Action::end_turn()); });
}

// The compiled weighted pick (WeightedPick) against the walk of the weighted list it replaces:
// random behaviours, with limits, moves listed twice and states where nothing is allowed, at
// every last move and streak, must pick the same move with the same draw.
TEST(DeckbuilderWeightedPick, TheTablePicksAsTheWeightedListDoesInEveryState) {
  Rng maker = Rng::from_seed(77);
  std::size_t states = 0;
  std::size_t none_allowed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Catalog c = *starter();
    EnemyDef& d = c.enemies[0];
    d.behavior = BehaviorKind::Random;
    const MoveDef move = d.moves[0];
    d.moves.resize(1 + maker.below(6), move);
    d.weighted.clear();
    const std::size_t entries = 1 + maker.below(7);
    for (std::size_t k = 0; k < entries; ++k)
      d.weighted.push_back(WeightedMove{
          static_cast<MoveIndex>(maker.below(static_cast<std::uint32_t>(d.moves.size()))),
          static_cast<std::uint16_t>(1 + maker.below(9)), static_cast<std::uint8_t>(maker.below(4))});
    index_catalog(c);
    ASSERT_EQ(c.enemy_picks[0].entries, entries);
    for (std::size_t last = 0; last <= d.moves.size(); ++last) {
      const auto last_move = last == d.moves.size() ? kNoMove : static_cast<MoveIndex>(last);
      for (std::uint8_t streak = last_move == kNoMove ? 0 : 1; streak < 7; ++streak) {
        bool any = false;
        for (const WeightedMove& w : d.weighted)
          any = any || w.max_in_a_row == 0 || w.move != last_move || streak < w.max_in_a_row;
        none_allowed += any ? 0 : 1;
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
          Rng table = Rng::from_seed(seed);
          Rng walk = table;
          const MoveIndex by_table = detail::pick_weighted(c, 0, last_move, streak, table);
          const MoveIndex by_walk = detail::pick_weighted(c, 0, last_move, streak, walk, false);
          ASSERT_EQ(by_table, by_walk) << "trial " << trial << ", last move " << int{last_move} << ", streak "
                                       << int{streak} << ", seed " << seed;
          ASSERT_EQ(table, walk);
          ASSERT_NE(by_table, kNoMove);
          ++states;
        }
      }
    }
  }
  EXPECT_GT(states, 10000u);
  EXPECT_GT(none_allowed, 0u);  // the fallback to every move was reached
}

TEST(DeckbuilderWeightedPick, ALongListHasNoTableAndAChangedBehaviourIsReindexedOrRefused) {
  const Catalog& c = *starter();
  ASSERT_EQ(c.enemy_picks.size(), c.enemies.size());
  const EnemyId gnasher = *c.find_enemy("gnasher");
  EXPECT_EQ(c.enemy_picks[gnasher].entries, c.enemies[gnasher].weighted.size());

  auto changed = std::make_shared<Catalog>(c);
  EnemyDef& d = changed->enemies[gnasher];
  d.weighted[0].max_in_a_row = 1;  // not reindexed: a stale table
  EXPECT_THROW(Battle{changed}, InvariantError);
  index_catalog(*changed);
  EXPECT_NO_THROW(Battle{changed});

  const WeightedMove more = d.weighted[1];
  d.weighted.resize(kMaxTabledWeights + 1, more);
  index_catalog(*changed);
  EXPECT_EQ(changed->enemy_picks[gnasher].entries, 0u);  // walks the list
  Rng table = Rng::from_seed(5);
  Rng walk = table;
  EXPECT_EQ(detail::pick_weighted(*changed, gnasher, 0, 1, table),
            detail::pick_weighted(*changed, gnasher, 0, 1, walk, false));
  EXPECT_EQ(table, walk);
  Battle b(changed);
  ASSERT_TRUE(b.start_battle("w1", 1).ok());
}

}  // namespace
}  // namespace battlecore::deckbuilder
