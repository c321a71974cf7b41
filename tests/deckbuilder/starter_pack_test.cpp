// One test per content item of the starter pack, named by its id, asserting its exact effect.
// Adding content to the pack without a test here fails EveryItemHasATest.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "deckbuilder/mechanics.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

// --- helpers ---------------------------------------------------------------------------------

using test::starter;

Battle started(std::string_view encounter, std::uint64_t seed) {
  Battle b(starter());
  const Result<Status> r = b.start_battle(encounter, seed);
  if (!r.ok()) throw std::runtime_error(r.error().message);
  return b;
}

const CardDef& card_def(std::string_view id) { return starter()->cards[*starter()->find_card(id)]; }
const EnemyDef& enemy_def(std::string_view id) { return starter()->enemies[*starter()->find_enemy(id)]; }
StatusId status_id(std::string_view id) { return *starter()->find_status(id); }
CardId card_id(std::string_view id) { return *starter()->find_card(id); }

MoveIndex move_index(const EnemyDef& e, std::string_view id) {
  for (std::size_t i = 0; i < e.moves.size(); ++i)
    if (e.moves[i].id == id) return static_cast<MoveIndex>(i);
  throw std::runtime_error("no move " + std::string(id));
}

std::optional<CardRef> in_hand(const Battle& b, std::string_view id) {
  for (CardRef c : b.state().hand())
    if (b.state().cards[c].def == card_id(id)) return c;
  return std::nullopt;
}

/// A battle of `encounter` whose opening hand holds every card of `cards` (first such seed).
Battle with_in_hand(std::string_view encounter, std::initializer_list<std::string_view> cards) {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    Battle b = started(encounter, seed);
    if (std::all_of(cards.begin(), cards.end(),
                    [&](std::string_view c) { return in_hand(b, c).has_value(); }))
      return b;
  }
  throw std::runtime_error("no seed deals the wanted opening hand");
}

std::vector<Event> events_since(const Battle& b, std::size_t from) {
  return {b.events().log().begin() + static_cast<std::ptrdiff_t>(from), b.events().log().end()};
}

Event card_played(CardRef card, std::string_view id, UnitRef target, std::int32_t energy) {
  return Event{.type = EventType::CardPlayed,
               .target = target,
               .subject = card,
               .value = card_id(id),
               .amount = energy};
}
Event damage(UnitRef source, UnitRef target, std::int32_t hp_lost, std::int32_t absorbed = 0) {
  return Event{.type = EventType::DamageDealt,
               .source = source,
               .target = target,
               .amount = hp_lost,
               .extra = absorbed};
}
Event armor(UnitRef target, std::int32_t amount) {
  return Event{.type = EventType::ArmorGained, .target = target, .amount = amount};
}
Event status_applied(UnitRef source, UnitRef target, std::string_view status, std::int32_t stacks,
                     std::int32_t total) {
  return Event{.type = EventType::StatusApplied,
               .source = source,
               .target = target,
               .subject = status_id(status),
               .amount = stacks,
               .extra = total};
}
Event to_discard(CardRef card, std::string_view id) {
  return Event{.type = EventType::CardMoved,
               .subject = card,
               .value = card_id(id),
               .amount = static_cast<std::int32_t>(Pile::Hand),
               .extra = static_cast<std::int32_t>(Pile::Discard)};
}
Event drawn(CardRef card, CardId def) {
  return Event{.type = EventType::CardDrawn, .subject = card, .value = def};
}

/// Readable event lists for failure messages.
std::string describe(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events)
    out += std::string(event_type_name(e.type)) + "{src " + std::to_string(e.source) + ", tgt " +
           std::to_string(e.target) + ", subj " + std::to_string(e.subject) + ", val " +
           std::to_string(e.value) + ", amt " + std::to_string(e.amount) + ", ext " +
           std::to_string(e.extra) + "}\n";
  return out;
}

#define EXPECT_EVENTS(actual, ...)                                          \
  do {                                                                      \
    const std::vector<Event> expected_events = {__VA_ARGS__};               \
    EXPECT_EQ(actual, expected_events) << "actual:\n"                       \
                                       << describe(actual) << "expected:\n" \
                                       << describe(expected_events);        \
  } while (false)

constexpr UnitRef kEnemy0 = enemy_unit(0);
constexpr UnitRef kEnemy1 = enemy_unit(1);

bool in_discard(const Battle& b, CardRef card) {
  return std::find(b.state().discard_pile().begin(), b.state().discard_pile().end(), card) !=
         b.state().discard_pile().end();
}

// --- cards -----------------------------------------------------------------------------------

TEST(StarterCard, Strike) {
  const CardDef& def = card_def("strike");
  EXPECT_EQ(def.cost, 1);
  EXPECT_EQ(def.type, CardType::Attack);
  EXPECT_EQ(def.target, CardTarget::Enemy);
  Battle b = with_in_hand("w1", {"strike"});
  const CardRef card = *in_hand(b, "strike");
  const UnitState gnasher = b.state().enemies[0].unit;
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card, 0)).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, gnasher.hp - 6);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(b.state().hand().size(), 4u);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_EQ(b.state().player.hp, 80);
  EXPECT_EQ(b.state().player.armor, 0);
  EXPECT_EVENTS(events_since(b, from), card_played(card, "strike", kEnemy0, 1),
                damage(kPlayerUnit, kEnemy0, 6), to_discard(card, "strike"));
}

TEST(StarterCard, Defend) {
  const CardDef& def = card_def("defend");
  EXPECT_EQ(def.cost, 1);
  EXPECT_EQ(def.type, CardType::Skill);
  EXPECT_EQ(def.target, CardTarget::None);
  Battle b = with_in_hand("w1", {"defend"});
  const CardRef card = *in_hand(b, "defend");
  const UnitState gnasher = b.state().enemies[0].unit;
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card)).ok());
  EXPECT_EQ(b.state().player.armor, 5);
  EXPECT_EQ(b.state().player.hp, 80);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_TRUE(b.state().enemies[0].unit == gnasher);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_EVENTS(events_since(b, from), card_played(card, "defend", kEnemy0, 1), armor(kPlayerUnit, 5),
                to_discard(card, "defend"));
  // Two Defends stack.
  if (const std::optional<CardRef> second = in_hand(b, "defend")) {
    ASSERT_TRUE(b.submit(Action::play(*second)).ok());
    EXPECT_EQ(b.state().player.armor, 10);
  }
}

TEST(StarterCard, Bash) {
  const CardDef& def = card_def("bash");
  EXPECT_EQ(def.cost, 2);
  EXPECT_EQ(def.type, CardType::Attack);
  EXPECT_EQ(def.target, CardTarget::Enemy);
  Battle b = with_in_hand("w1", {"bash"});
  const CardRef card = *in_hand(b, "bash");
  const UnitState gnasher = b.state().enemies[0].unit;
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card, 0)).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, gnasher.hp - 8);
  EXPECT_EQ(b.state().enemies[0].unit.stacks(status_id("vulnerable")), 2);
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_TRUE(b.state().player.statuses.empty());
  EXPECT_EVENTS(events_since(b, from), card_played(card, "bash", kEnemy0, 2), damage(kPlayerUnit, kEnemy0, 8),
                status_applied(kPlayerUnit, kEnemy0, "vulnerable", 2, 2), to_discard(card, "bash"));
}

TEST(StarterCard, QuickStudy) {
  const CardDef& def = card_def("quick_study");
  EXPECT_EQ(def.cost, 1);
  EXPECT_EQ(def.type, CardType::Skill);
  EXPECT_EQ(def.target, CardTarget::None);
  Battle b = with_in_hand("sludge_pair", {"quick_study"});
  const CardRef card = *in_hand(b, "quick_study");
  const std::vector<CardRef> draw_pile(b.state().draw_pile().begin(), b.state().draw_pile().end());
  ASSERT_EQ(draw_pile.size(), 6u);  // warden_plus has eleven cards
  const CardRef top = draw_pile[5];
  const CardRef next = draw_pile[4];
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card)).ok());
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(b.state().hand().size(), 6u);  // 5 - 1 + 2
  EXPECT_EQ(b.state().draw_pile().size(), 4u);
  EXPECT_EQ(b.state().hand()[4], top);
  EXPECT_EQ(b.state().hand()[5], next);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_EVENTS(events_since(b, from), card_played(card, "quick_study", kEnemy0, 1),
                drawn(top, b.state().cards[top].def), drawn(next, b.state().cards[next].def),
                to_discard(card, "quick_study"));
}

TEST(StarterCard, Cleave) {
  const CardDef& def = card_def("cleave");
  EXPECT_EQ(def.cost, 1);
  EXPECT_EQ(def.type, CardType::Attack);
  EXPECT_EQ(def.target, CardTarget::None);  // hits every enemy, so it picks none
  Battle b = with_in_hand("sludge_pair", {"cleave"});
  const CardRef card = *in_hand(b, "cleave");
  const std::int32_t hp0 = b.state().enemies[0].unit.hp;
  const std::int32_t hp1 = b.state().enemies[1].unit.hp;
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card)).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp0 - 8);
  EXPECT_EQ(b.state().enemies[1].unit.hp, hp1 - 8);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_EVENTS(events_since(b, from), card_played(card, "cleave", kEnemy0, 1),
                damage(kPlayerUnit, kEnemy0, 8), damage(kPlayerUnit, kEnemy1, 8), to_discard(card, "cleave"));
}

// --- statuses --------------------------------------------------------------------------------

TEST(StarterStatus, Vulnerable) {
  // Bash makes the Gnasher Vulnerable for two of its turns; a Strike then deals 9, not 6.
  Battle b = with_in_hand("w1", {"bash", "strike"});
  const StatusId vulnerable = status_id("vulnerable");
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "bash"), 0)).ok());
  const std::int32_t hp = b.state().enemies[0].unit.hp;
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "strike"), 0)).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp - 9);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().enemies[0].unit.stacks(vulnerable), 1);
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().enemies[0].unit.stacks(vulnerable), 0);
  const std::vector<Event> ev = events_since(b, from);
  EXPECT_EQ(std::count(ev.begin(), ev.end(),
                       Event{.type = EventType::StatusExpired, .target = kEnemy0, .subject = vulnerable}),
            1);
}

TEST(StarterStatus, Strength) {
  const StatusDef& def = starter()->statuses[status_id("strength")];
  EXPECT_EQ(def.decay, Decay::None);
  Battle b = with_in_hand("w1", {"strike"});
  auto x = Battle::Access::of(b);
  detail::apply_status(x, kPlayerUnit, kPlayerUnit, status_id("strength"), 2);
  const std::int32_t hp = b.state().enemies[0].unit.hp;
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "strike"), 0)).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp - 8);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.stacks(status_id("strength")), 2);  // it never decays
}

TEST(StarterStatus, Weak) {
  // The Sludges' Spit makes the player Weak: a Strike on the next turn deals 4 (6 x 0.75).
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    Battle b = started("sludge_pair", seed);
    ASSERT_TRUE(b.submit(Action::end_turn()).ok());
    const std::optional<CardRef> strike = in_hand(b, "strike");
    if (!strike) continue;
    EXPECT_EQ(b.state().player.stacks(status_id("weak")), 2);
    const std::int32_t hp = b.state().enemies[0].unit.hp;
    ASSERT_TRUE(b.submit(Action::play(*strike, 0)).ok());
    EXPECT_EQ(b.state().enemies[0].unit.hp, hp - 4);
    return;
  }
  FAIL() << "no seed has a Strike in hand on turn 2";
}

// --- enemies ---------------------------------------------------------------------------------

/// Every HP an enemy starts with over many seeds, by enemy index.
std::map<std::size_t, std::set<std::int32_t>> starting_hp(std::string_view encounter) {
  std::map<std::size_t, std::set<std::int32_t>> hp;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const Battle b = started(encounter, seed);
    for (std::size_t i = 0; i < b.state().enemies.size(); ++i) {
      const UnitState& u = b.state().enemies[i].unit;
      EXPECT_EQ(u.hp, u.max_hp);
      hp[i].insert(u.hp);
    }
  }
  return hp;
}

TEST(StarterEnemy, Gnasher) {
  const EnemyDef& gnasher = enemy_def("gnasher");
  EXPECT_EQ(starting_hp("w1")[0], (std::set<std::int32_t>{40, 41, 42, 43, 44}));

  // The player only ends turns, so it never has armor and every hit lands in full.
  const MoveIndex chomp = move_index(gnasher, "chomp");
  const MoveIndex thrash = move_index(gnasher, "thrash");
  const MoveIndex bellow = move_index(gnasher, "bellow");
  std::set<MoveIndex> seen;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Battle b = started("w1", seed);
    for (int turn = 0; turn < 50 && b.status() == Status::AwaitingDecision; ++turn)
      ASSERT_TRUE(b.submit(Action::end_turn()).ok());
    ASSERT_EQ(b.phase(), Phase::BattleLost);
    const std::vector<Event>& log = b.events().log();
    std::int32_t strength = 0;
    std::int32_t player_hp = 80;
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (log[i].type != EventType::EnemyActed) continue;
      const MoveIndex move = static_cast<MoveIndex>(log[i].subject);
      seen.insert(move);
      std::vector<Event> effect;
      for (std::size_t k = i + 1;
           k < log.size() && log[k].type != EventType::EnemyIntent && log[k].type != EventType::PhaseChanged;
           ++k)
        if (log[k].type != EventType::UnitDied) effect.push_back(log[k]);
      SCOPED_TRACE("seed " + std::to_string(seed) + " " + gnasher.moves[move].id);
      // HP stops at 0: the killing hit reports only the HP the player had left.
      if (move == chomp) {
        const std::int32_t lost = std::min(11 + strength, player_hp);
        EXPECT_EVENTS(effect, damage(kEnemy0, kPlayerUnit, lost));
        player_hp -= lost;
      } else if (move == thrash) {
        const std::int32_t lost = std::min(7 + strength, player_hp);
        if (lost < player_hp) {
          EXPECT_EVENTS(effect, damage(kEnemy0, kPlayerUnit, lost), armor(kEnemy0, 5));
        } else {
          EXPECT_EVENTS(effect, damage(kEnemy0, kPlayerUnit, lost));
        }
        player_hp -= lost;
      } else if (move == bellow) {
        EXPECT_EVENTS(effect, status_applied(kEnemy0, kEnemy0, "strength", 3, strength + 3),
                      armor(kEnemy0, 6));
        strength += 3;
      }
    }
    EXPECT_EQ(b.state().player.hp, player_hp);
    EXPECT_EQ(b.state().enemies[0].unit.stacks(status_id("strength")), strength);
  }
  EXPECT_EQ(seen, (std::set<MoveIndex>{chomp, thrash, bellow}));
}

TEST(StarterEnemy, GnasherOpensWithAnElevenDamageChomp) {
  Battle b = started("w1", 1);
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.hp, 69);
}

TEST(StarterEnemy, Sludge) {
  const std::map<std::size_t, std::set<std::int32_t>> hp = starting_hp("sludge_pair");
  const std::set<std::int32_t> range{12, 13, 14, 15, 16};
  EXPECT_EQ(hp.at(0), range);
  EXPECT_EQ(hp.at(1), range);

  // Turn by turn: both Spit (4 damage and 1 Weak each), then both Slam (7 each), and so on.
  Battle b = started("sludge_pair", 1);
  const StatusId weak = status_id("weak");
  std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.hp, 80 - 4 - 4);
  EXPECT_EQ(b.state().player.stacks(weak), 2);
  std::vector<Event> acted;
  for (const Event& e : events_since(b, from))
    if (e.source > kPlayerUnit && e.type != EventType::EnemyIntent) acted.push_back(e);
  const MoveIndex spit = move_index(enemy_def("sludge"), "spit");
  const MoveIndex slam = move_index(enemy_def("sludge"), "slam");
  const EnemyId sludge = *starter()->find_enemy("sludge");
  const auto acts = [&](UnitRef who, MoveIndex move) {
    return Event{.type = EventType::EnemyActed, .source = who, .subject = move, .value = sludge};
  };
  EXPECT_EVENTS(acted, acts(kEnemy0, spit), damage(kEnemy0, kPlayerUnit, 4),
                status_applied(kEnemy0, kPlayerUnit, "weak", 1, 1), acts(kEnemy1, spit),
                damage(kEnemy1, kPlayerUnit, 4), status_applied(kEnemy1, kPlayerUnit, "weak", 1, 2));

  from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.hp, 72 - 7 - 7);
  EXPECT_EQ(b.state().player.stacks(weak), 1);  // one stack gone at the player's turn end
  acted.clear();
  for (const Event& e : events_since(b, from))
    if (e.source > kPlayerUnit && e.type != EventType::EnemyIntent) acted.push_back(e);
  EXPECT_EVENTS(acted, acts(kEnemy0, slam), damage(kEnemy0, kPlayerUnit, 7), acts(kEnemy1, slam),
                damage(kEnemy1, kPlayerUnit, 7));

  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.state().player.hp, 58 - 4 - 4);
  EXPECT_EQ(b.state().player.stacks(weak), 2);  // expired, then two new Spits
}

// --- players and encounters ------------------------------------------------------------------

std::map<std::string, int> deck_counts(const PlayerUnitDef& p) {
  std::map<std::string, int> counts;
  for (CardId c : p.deck) ++counts[starter()->cards[c].id];
  return counts;
}

TEST(StarterPlayer, Warden) {
  const PlayerUnitDef& p = starter()->players[*starter()->find_player("warden")];
  EXPECT_EQ(p.max_hp, 80);
  EXPECT_EQ(p.hp, 80);
  EXPECT_EQ(deck_counts(p), (std::map<std::string, int>{{"strike", 5}, {"defend", 4}, {"bash", 1}}));
}

TEST(StarterPlayer, WardenPlus) {
  const PlayerUnitDef& p = starter()->players[*starter()->find_player("warden_plus")];
  EXPECT_EQ(p.max_hp, 80);
  EXPECT_EQ(p.hp, 80);
  EXPECT_EQ(deck_counts(p),
            (std::map<std::string, int>{
                {"strike", 4}, {"defend", 4}, {"bash", 1}, {"quick_study", 1}, {"cleave", 1}}));
}

TEST(StarterEncounter, W1) {
  const EncounterDef& e = starter()->encounters[*starter()->find_encounter("w1")];
  EXPECT_EQ(starter()->players[e.player].id, "warden");
  ASSERT_EQ(e.enemies.size(), 1u);
  EXPECT_EQ(starter()->enemies[e.enemies[0]].id, "gnasher");
  EXPECT_EQ(e.rules.armor_decay, ArmorDecayRule::ResetOnTurnStart);
  EXPECT_EQ(e.rules.max_energy, 3);
  EXPECT_EQ(e.rules.opening_hand, 5);
  EXPECT_EQ(e.rules.draw_per_turn, 5);
  EXPECT_EQ(e.rules.hand_limit, 10);
  EXPECT_EQ(starter()->pack.default_encounter, starter()->find_encounter("w1"));
  const Battle b = started("w1", 1);
  EXPECT_EQ(b.state().cards.size(), 10u);
  EXPECT_EQ(b.state().player.hp, 80);
}

TEST(StarterEncounter, SludgePair) {
  const EncounterDef& e = starter()->encounters[*starter()->find_encounter("sludge_pair")];
  EXPECT_EQ(starter()->players[e.player].id, "warden_plus");
  ASSERT_EQ(e.enemies.size(), 2u);
  EXPECT_EQ(starter()->enemies[e.enemies[0]].id, "sludge");
  EXPECT_EQ(starter()->enemies[e.enemies[1]].id, "sludge");
  // No "rules" object: the defaults.
  EXPECT_EQ(e.rules.armor_decay, ArmorDecayRule::ResetOnTurnStart);
  EXPECT_EQ(e.rules.max_energy, 3);
  EXPECT_EQ(e.rules.opening_hand, 5);
  EXPECT_EQ(e.rules.hand_limit, 10);
  const Battle b = started("sludge_pair", 1);
  EXPECT_EQ(b.state().cards.size(), 11u);
  EXPECT_EQ(b.state().enemies.size(), 2u);
}

// --- the arena: the starter pack plus a test player, test enemies and one encounter ----------
//
// The new cards are tested in isolation: the pack's own files are loaded together with one more
// document that defines a player whose deck is the card under test (and fillers), passive or
// simple enemies, and an encounter "t". The card definitions are the pack's, unchanged.

struct Arena {
  explicit Arena(std::string d) : deck(std::move(d)) {}
  Arena with_enemies(std::string e) const { return set(&Arena::enemies, std::move(e)); }
  Arena with_rules(std::string r) const { return set(&Arena::rules, std::move(r)); }
  Arena with_max_hp(int v) const { return set(&Arena::max_hp, v); }
  /// HP at the start; max HP is raised to it when lower.
  Arena with_hp(int v) const {
    Arena copy = set(&Arena::hp, v);
    copy.max_hp = std::max(max_hp, v);
    return copy;
  }
  Arena with_reward(std::string r) const { return set(&Arena::reward, std::move(r)); }

  std::string deck;                        ///< the player's deck: a JSON array of {card, count}
  std::string enemies = R"(["t_dummy"])";  ///< the encounter's enemies: a JSON array of ids
  std::string rules = "{}";                ///< the encounter's rules object
  int max_hp = 60;
  int hp = 60;
  std::string reward;  ///< a reward pool id, or empty for none

 private:
  template <class T, class V>
  Arena set(T Arena::*member, V value) const {
    Arena copy = *this;
    copy.*member = std::move(value);
    return copy;
  }
};

/// `count` copies of `card`, as a deck array.
std::string deck_of(std::string_view card, int count = 5) {
  return R"([{ "card": ")" + std::string(card) + R"(", "count": )" + std::to_string(count) + "}]";
}
/// A deck array from {card, count} pairs.
std::string deck_of(std::initializer_list<std::pair<std::string_view, int>> cards) {
  std::string out = "[";
  for (const auto& [card, count] : cards) {
    if (out.size() > 1) out += ", ";
    out += R"({ "card": ")" + std::string(card) + R"(", "count": )" + std::to_string(count) + "}";
  }
  return out + "]";
}

constexpr std::string_view kArenaEnemies = R"([
  { "id": "t_dummy", "hp": 100, "moves": [{ "id": "idle", "intent": "unknown", "effects": [] }],
    "behavior": { "kind": "sequence", "moves": ["idle"] } },
  { "id": "t_hitter", "hp": 100,
    "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 10 }] }],
    "behavior": { "kind": "sequence", "moves": ["hit"] } },
  { "id": "t_weakling", "hp": 5, "moves": [{ "id": "idle", "intent": "unknown", "effects": [] }],
    "behavior": { "kind": "sequence", "moves": ["idle"] } }
])";

const std::vector<content::JsonDocument>& starter_documents() {
  static const std::vector<content::JsonDocument> docs = [] {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(BATTLECORE_DATA_DIR) /
                                                                 "deckbuilder" / "starter"))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<content::JsonDocument> out;
    content::Diagnostics diags;
    for (const auto& file : files) {
      std::optional<content::JsonDocument> doc = content::parse_json_file(file, diags);
      if (!doc) throw std::runtime_error("a starter file does not parse:\n" + diags.to_string());
      out.push_back(std::move(*doc));
    }
    return out;
  }();
  return docs;
}

std::shared_ptr<const Catalog> arena_catalog(const Arena& a) {
  static std::map<std::string, std::shared_ptr<const Catalog>> cache;
  std::string text =
      R"({ "enemies": )" + std::string(kArenaEnemies) + R"(, "players": [{ "id": "t_player", "max_hp": )" +
      std::to_string(a.max_hp) + R"(, "hp": )" + std::to_string(a.hp) + R"(, "deck": )" + a.deck +
      R"( }], "encounters": [{ "id": "t", "player": "t_player", "enemies": )" + a.enemies + R"(, "rules": )" +
      a.rules + (a.reward.empty() ? "" : R"(, "reward": ")" + a.reward + "\"") + " }] }";
  if (const auto it = cache.find(text); it != cache.end()) return it->second;
  content::Diagnostics diags;
  std::optional<content::JsonDocument> doc = content::parse_json_text("arena.json", text, diags);
  if (!doc) throw std::runtime_error("the arena does not parse:\n" + diags.to_string());
  std::vector<content::JsonDocument> docs = starter_documents();
  docs.push_back(std::move(*doc));
  CatalogResult r = load_catalog(docs);
  if (!r.ok()) throw std::runtime_error("the arena does not load:\n" + r.error().to_string());
  cache.emplace(text, r.value());
  return r.value();
}

CardRef find_in_hand(const Battle& b, std::string_view id);

/// A battle in the arena: the first seed whose opening hand holds every card of `want`.
Battle arena(const Arena& a, std::initializer_list<std::string_view> want = {}) {
  const std::shared_ptr<const Catalog> catalog = arena_catalog(a);
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    Battle b(catalog);
    const Result<Status> r = b.start_battle("t", seed);
    if (!r.ok()) throw std::runtime_error(r.error().message);
    bool all = true;
    for (std::string_view card : want) {
      const CardId def = *catalog->find_card(card);
      all = all && std::any_of(b.state().hand().begin(), b.state().hand().end(),
                               [&](CardRef c) { return b.state().cards[c].def == def; });
    }
    if (all) return b;
  }
  throw std::runtime_error("no seed deals the wanted opening hand");
}

/// A battle in the arena whose deck is the player's deck with every card upgraded.
Battle arena_upgraded(const Arena& a, std::uint64_t seed = 1) {
  const std::shared_ptr<const Catalog> catalog = arena_catalog(a);
  std::vector<CardId> deck;
  for (CardId c : catalog->players[*catalog->find_player("t_player")].deck)
    deck.push_back(catalog->cards[c].upgrade ? static_cast<CardId>(*catalog->cards[c].upgrade) : c);
  Battle b(catalog);
  const Result<Status> r = b.start_battle(*catalog->find_encounter("t"), seed, deck);
  if (!r.ok()) throw std::runtime_error(r.error().message);
  return b;
}

/// The id of the upgraded version of a pack card.
std::string upgraded_id(std::string_view card) {
  const CardDef& def = starter()->cards[*starter()->find_card(card)];
  if (!def.upgrade) throw std::runtime_error(std::string(card) + " has no upgrade");
  return starter()->cards[*def.upgrade].id;
}

std::string_view def_id(const Battle& b, CardRef c) { return b.catalog().cards[b.state().cards[c].def].id; }

CardRef find_in_hand(const Battle& b, std::string_view id) {
  for (CardRef c : b.state().hand())
    if (def_id(b, c) == id) return c;
  return kNoCard;
}

/// How many cards of a pile (or the hand) are copies of `id`.
template <class Pile>
int count_of(const Battle& b, const Pile& pile, std::string_view id) {
  return static_cast<int>(
      std::count_if(pile.begin(), pile.end(), [&](CardRef c) { return def_id(b, c) == id; }));
}
/// Copies of `id` anywhere in this battle.
int instances_of(const Battle& b, std::string_view id) {
  int n = 0;
  for (const CardInstance& c : b.state().cards) n += b.catalog().cards[c.def].id == id ? 1 : 0;
  return n;
}

template <class Pile>
bool holds(const Pile& pile, CardRef card) {
  return std::find(pile.begin(), pile.end(), card) != pile.end();
}

::testing::AssertionResult submitted(Battle& b, const Action& action) {
  const Result<Status, Rejection> r = b.submit(action);
  if (r.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "refused: " << refusal_reason_name(r.error().reason) << " ("
                                       << play_check_name(r.error().check) << "): " << r.error().message;
}
/// Plays the first copy of `id` in hand at `target`.
::testing::AssertionResult play(Battle& b, std::string_view id, std::int8_t target = -1) {
  const CardRef c = find_in_hand(b, id);
  if (c == kNoCard) return ::testing::AssertionFailure() << "no " << id << " in hand";
  return submitted(b, Action::play(c, target));
}
::testing::AssertionResult end_turn(Battle& b) { return submitted(b, Action::end_turn()); }

std::int32_t enemy_hp(const Battle& b, std::size_t i) { return b.state().enemies[i].unit.hp; }
std::int32_t stacks_of(const Battle& b, const UnitState& u, std::string_view status) {
  return u.stacks(*b.catalog().find_status(status));
}
std::int32_t player_stacks(const Battle& b, std::string_view status) {
  return stacks_of(b, b.state().player, status);
}
std::int32_t enemy_stacks(const Battle& b, std::size_t i, std::string_view status) {
  return stacks_of(b, b.state().enemies[i].unit, status);
}
/// Adds stacks of a status to a unit, as an effect would.
void give(Battle& b, UnitRef unit, std::string_view status, std::int32_t amount) {
  auto x = Battle::Access::of(b);
  detail::apply_status(x, unit, unit, *b.catalog().find_status(status), amount);
}

std::size_t count_events(const Battle& b, EventType type, std::size_t from = 0) {
  const std::vector<Event>& log = b.events().log();
  return static_cast<std::size_t>(std::count_if(log.begin() + static_cast<std::ptrdiff_t>(from), log.end(),
                                                [&](const Event& e) { return e.type == type; }));
}

/// The moves enemy `i` made, in order, by id.
std::vector<std::string> moves_of(const Battle& b, std::size_t i) {
  std::vector<std::string> out;
  for (const Event& e : b.events().log())
    if (e.type == EventType::EnemyActed && e.source == enemy_unit(i))
      out.push_back(b.catalog().enemies[e.value].moves[e.subject].id);
  return out;
}
/// The move enemy `i` intends to make next.
std::string intent_of(const Battle& b, std::size_t i) {
  const EnemyState& e = b.state().enemies[i];
  return b.catalog().enemies[e.def].moves[e.intent].id;
}

/// Every starting HP of enemy `i` over many seeds.
std::set<std::int32_t> arena_starting_hp(const Arena& a, std::size_t i) {
  std::set<std::int32_t> hp;
  const std::shared_ptr<const Catalog> catalog = arena_catalog(a);
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Battle b(catalog);
    if (!b.start_battle("t", seed).ok()) throw std::runtime_error("the arena does not start");
    const UnitState& u = b.state().enemies[i].unit;
    EXPECT_EQ(u.hp, u.max_hp);
    hp.insert(u.hp);
  }
  return hp;
}
std::set<std::int32_t> range_set(std::int32_t lo, std::int32_t hi) {
  std::set<std::int32_t> s;
  for (std::int32_t v = lo; v <= hi; ++v) s.insert(v);
  return s;
}

/// The most times `move` comes in a row in `moves`.
int longest_run(const std::vector<std::string>& moves, std::string_view move) {
  int best = 0;
  int run = 0;
  for (const std::string& m : moves) {
    run = m == move ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

const std::string kFiller = "defend";

// --- the full pack's cards -------------------------------------------------------------------

void expect_card(std::string_view id, CardType type, int cost, CardTarget target, std::uint8_t keywords = 0) {
  SCOPED_TRACE(std::string(id));
  const CardDef& def = card_def(id);
  EXPECT_EQ(def.type, type);
  EXPECT_EQ(def.cost, cost);
  EXPECT_EQ(def.target, target);
  EXPECT_EQ(def.keywords, keywords);
  EXPECT_FALSE(def.text.empty());
}

TEST(StarterCard, TwinStrike) {
  expect_card("twin_strike", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("twin_strike")));
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(play(b, "twin_strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 90);
  EXPECT_EQ(count_events(b, EventType::DamageDealt, from), 2u);  // two hits of 5
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(count_of(b, b.state().discard_pile(), "twin_strike"), 1);
  EXPECT_EQ(b.state().hand().size(), 4u);
  // Upgraded: 7 twice, same cost.
  Battle u = arena_upgraded(Arena(deck_of("twin_strike")));
  EXPECT_EQ(u.catalog().cards[*u.catalog().find_card(upgraded_id("twin_strike"))].cost, 1);
  ASSERT_TRUE(play(u, upgraded_id("twin_strike"), 0));
  EXPECT_EQ(enemy_hp(u, 0), 86);
  EXPECT_EQ(u.state().energy, 2);
}

TEST(StarterCard, VenomDart) {
  expect_card("venom_dart", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("venom_dart")));
  ASSERT_TRUE(play(b, "venom_dart", 0));
  EXPECT_EQ(enemy_hp(b, 0), 97);
  EXPECT_EQ(enemy_stacks(b, 0, "poison"), 4);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(end_turn(b));  // the dummy loses 4 at its turn start, then the poison decays
  EXPECT_EQ(enemy_hp(b, 0), 93);
  EXPECT_EQ(enemy_stacks(b, 0, "poison"), 3);
  Battle u = arena_upgraded(Arena(deck_of("venom_dart")));
  ASSERT_TRUE(play(u, upgraded_id("venom_dart"), 0));
  EXPECT_EQ(enemy_hp(u, 0), 97);
  EXPECT_EQ(enemy_stacks(u, 0, "poison"), 6);
}

TEST(StarterCard, ScatterShot) {
  expect_card("scatter_shot", CardType::Attack, 1, CardTarget::None);
  Battle one = arena(Arena(deck_of("scatter_shot")));
  ASSERT_TRUE(play(one, "scatter_shot"));
  EXPECT_EQ(enemy_hp(one, 0), 88);
  EXPECT_EQ(one.state().energy, 2);
  // Two enemies: 12 damage in all, in hits of 4, each hit on a random one.
  std::set<std::int32_t> lost_by_first;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Battle b(arena_catalog(Arena(deck_of("scatter_shot")).with_enemies(R"(["t_dummy", "t_dummy"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    ASSERT_TRUE(play(b, "scatter_shot"));
    const std::int32_t lost0 = 100 - enemy_hp(b, 0);
    const std::int32_t lost1 = 100 - enemy_hp(b, 1);
    EXPECT_EQ(lost0 + lost1, 12);
    EXPECT_EQ(lost0 % 4, 0);
    lost_by_first.insert(lost0);
  }
  EXPECT_EQ(lost_by_first, (std::set<std::int32_t>{0, 4, 8, 12}));
}

TEST(StarterCard, ChainLightning) {
  expect_card("chain_lightning", CardType::Attack, 2, CardTarget::None);
  Battle b = arena(Arena(deck_of("chain_lightning")).with_enemies(R"(["t_dummy", "t_dummy", "t_dummy"])"));
  ASSERT_TRUE(play(b, "chain_lightning"));
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(enemy_hp(b, i), 93) << i;
    EXPECT_EQ(enemy_stacks(b, i, "weak"), 1) << i;
  }
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_TRUE(b.state().player.statuses.empty());
}

TEST(StarterCard, Exploit) {
  expect_card("exploit", CardType::Attack, 1, CardTarget::Enemy);
  Battle b =
      arena(Arena(deck_of({{"exploit", 2}, {"bash", 1}, {"defend", 2}})).with_rules(R"({"max_energy": 5})"));
  ASSERT_TRUE(play(b, "exploit", 0));  // not Vulnerable: 6
  EXPECT_EQ(enemy_hp(b, 0), 94);
  ASSERT_TRUE(play(b, "bash", 0));
  EXPECT_EQ(enemy_hp(b, 0), 86);
  ASSERT_TRUE(play(b, "exploit", 0));  // Vulnerable: 12 x 1.5
  EXPECT_EQ(enemy_hp(b, 0), 68);
  EXPECT_EQ(b.state().energy, 1);
}

TEST(StarterCard, DesperateBlow) {
  expect_card("desperate_blow", CardType::Attack, 1, CardTarget::Enemy);
  Battle half = arena(Arena(deck_of("desperate_blow")).with_hp(30));  // exactly 50%: not below
  ASSERT_TRUE(play(half, "desperate_blow", 0));
  EXPECT_EQ(enemy_hp(half, 0), 94);
  Battle low = arena(Arena(deck_of("desperate_blow")).with_hp(29));
  ASSERT_TRUE(play(low, "desperate_blow", 0));
  EXPECT_EQ(enemy_hp(low, 0), 85);
  EXPECT_EQ(low.state().energy, 2);
  EXPECT_EQ(low.state().player.hp, 29);
}

TEST(StarterCard, Overcharge) {
  expect_card("overcharge", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("overcharge")));
  ASSERT_TRUE(play(b, "overcharge", 0));  // 2 energy left after paying: 5 + 5
  EXPECT_EQ(enemy_hp(b, 0), 90);
  ASSERT_TRUE(play(b, "overcharge", 0));  // 1 left: 5
  EXPECT_EQ(enemy_hp(b, 0), 85);
  EXPECT_EQ(b.state().energy, 1);
}

TEST(StarterCard, BloodStrike) {
  expect_card("blood_strike", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("blood_strike")));
  ASSERT_TRUE(play(b, "blood_strike", 0));
  EXPECT_EQ(b.state().player.hp, 57);
  EXPECT_EQ(enemy_hp(b, 0), 86);
  EXPECT_EQ(b.state().energy, 2);
  // HP loss ignores armor.
  Battle armored = arena(Arena(deck_of({{"blood_strike", 1}, {"defend", 4}})));
  ASSERT_TRUE(play(armored, "defend"));
  ASSERT_TRUE(play(armored, "blood_strike", 0));
  EXPECT_EQ(armored.state().player.hp, 57);
  EXPECT_EQ(armored.state().player.armor, 5);
  Battle u = arena_upgraded(Arena(deck_of("blood_strike")));
  ASSERT_TRUE(play(u, upgraded_id("blood_strike"), 0));
  EXPECT_EQ(u.state().player.hp, 57);
  EXPECT_EQ(enemy_hp(u, 0), 82);
}

TEST(StarterCard, AllIn) {
  expect_card("all_in", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of({{"all_in", 1}, {"defend", 9}})), {"all_in"});
  ASSERT_EQ(b.turn(), 1u);
  ASSERT_TRUE(play(b, "all_in", 0));
  // The turn ended: the rest of the hand was discarded and turn 2 has begun.
  EXPECT_EQ(enemy_hp(b, 0), 84);
  EXPECT_EQ(b.turn(), 2u);
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.state().hand().size(), 5u);
  EXPECT_EQ(b.state().discard_pile().size(), 5u);
  EXPECT_EQ(count_of(b, b.state().discard_pile(), "all_in"), 1);
  EXPECT_EQ(b.state().draw_pile().size(), 0u);
}

TEST(StarterCard, Momentum) {
  expect_card("momentum", CardType::Attack, 2, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of({{"momentum", 1}, {"defend", 4}})));
  const CardRef card = find_in_hand(b, "momentum");
  ASSERT_NE(card, kNoCard);
  EXPECT_EQ(b.effective_cost(card), 2);
  ASSERT_TRUE(play(b, "momentum", 0));
  EXPECT_EQ(enemy_hp(b, 0), 92);
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_EQ(b.effective_cost(card), 1);
  ASSERT_TRUE(end_turn(b));
  ASSERT_TRUE(holds(b.state().hand(), card));
  EXPECT_EQ(b.effective_cost(card), 1);
  ASSERT_TRUE(play(b, "momentum", 0));
  EXPECT_EQ(enemy_hp(b, 0), 84);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(b.effective_cost(card), 0);
  ASSERT_TRUE(end_turn(b));
  ASSERT_TRUE(play(b, "momentum", 0));  // never below 0
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.effective_cost(card), 0);
  EXPECT_EQ(enemy_hp(b, 0), 76);
}

TEST(StarterCard, PhantomBlade) {
  expect_card("phantom_blade", CardType::Attack, 0, CardTarget::Enemy, kEthereal);
  Battle b = arena(Arena(deck_of("phantom_blade")));
  ASSERT_TRUE(play(b, "phantom_blade", 0));
  EXPECT_EQ(enemy_hp(b, 0), 93);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.state().discard_pile().size(), 1u);  // played: discarded, not exhausted
  ASSERT_TRUE(end_turn(b));                        // the four left in hand are exhausted
  EXPECT_EQ(b.state().exhaust_pile().size(), 4u);
  EXPECT_EQ(b.state().hand().size(), 1u);
  EXPECT_EQ(b.state().discard_pile().size(), 0u);
}

TEST(StarterCard, RecklessCharge) {
  expect_card("reckless_charge", CardType::Attack, 0, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("reckless_charge")));
  ASSERT_EQ(b.state().draw_pile().size(), 0u);
  ASSERT_TRUE(play(b, "reckless_charge", 0));
  EXPECT_EQ(enemy_hp(b, 0), 91);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.state().cards.size(), 6u);
  ASSERT_EQ(b.state().draw_pile().size(), 1u);
  EXPECT_EQ(def_id(b, b.state().draw_pile()[0]), "dazed");
  EXPECT_EQ(count_of(b, b.state().discard_pile(), "reckless_charge"), 1);
}

TEST(StarterCard, Flurry) {
  expect_card("flurry", CardType::Attack, 1, CardTarget::Enemy);
  Battle b = arena(Arena(deck_of("flurry")));
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(play(b, "flurry", 0));
  EXPECT_EQ(enemy_hp(b, 0), 92);
  EXPECT_EQ(b.state().player.armor, 4);
  EXPECT_EQ(count_events(b, EventType::DamageDealt, from), 2u);
  EXPECT_EQ(count_events(b, EventType::ArmorGained, from), 2u);
  EXPECT_EQ(b.state().energy, 2);
}

TEST(StarterCard, ConcussiveBlow) {
  expect_card("concussive_blow", CardType::Attack, 2, CardTarget::Enemy, kExhaust);
  Battle b = arena(Arena(deck_of("concussive_blow")).with_enemies(R"(["t_hitter"])"));
  ASSERT_TRUE(play(b, "concussive_blow", 0));
  EXPECT_EQ(enemy_hp(b, 0), 92);
  EXPECT_EQ(enemy_stacks(b, 0, "stun"), 1);
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "concussive_blow"), 1);
  ASSERT_TRUE(end_turn(b));  // the hitter is stunned: no hit, and the stun runs out
  EXPECT_EQ(b.state().player.hp, 60);
  EXPECT_EQ(enemy_stacks(b, 0, "stun"), 0);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 50);
}

TEST(StarterCard, ShieldWall) {
  expect_card("shield_wall", CardType::Skill, 2, CardTarget::None);
  Battle b = arena(Arena(deck_of("shield_wall")));
  ASSERT_TRUE(play(b, "shield_wall"));
  EXPECT_EQ(b.state().player.armor, 13);
  EXPECT_EQ(b.state().energy, 1);
  Battle u = arena_upgraded(Arena(deck_of("shield_wall")));
  ASSERT_TRUE(play(u, upgraded_id("shield_wall")));
  EXPECT_EQ(u.state().player.armor, 17);
  EXPECT_EQ(u.state().energy, 1);
}

TEST(StarterCard, Brace) {
  expect_card("brace", CardType::Skill, 1, CardTarget::None, kRetain);
  Battle b = arena(Arena(deck_of({{"brace", 1}, {"defend", 9}})), {"brace"});
  const CardRef card = find_in_hand(b, "brace");
  ASSERT_TRUE(end_turn(b));  // retained: still in hand, the four defends are discarded
  EXPECT_TRUE(holds(b.state().hand(), card));
  EXPECT_EQ(b.state().hand().size(), 6u);
  EXPECT_EQ(b.state().discard_pile().size(), 4u);
  ASSERT_TRUE(play(b, "brace"));
  EXPECT_EQ(b.state().player.armor, 6);
  EXPECT_EQ(b.state().energy, 2);
  // Upgraded: costs 0.
  Battle u = arena_upgraded(Arena(deck_of("brace")));
  ASSERT_TRUE(play(u, upgraded_id("brace")));
  EXPECT_EQ(u.state().player.armor, 6);
  EXPECT_EQ(u.state().energy, 3);
}

TEST(StarterCard, CounterStance) {
  expect_card("counter_stance", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"counter_stance", 2}, {"strike", 3}})));
  ASSERT_TRUE(play(b, "counter_stance"));  // no attack yet this turn
  EXPECT_EQ(b.state().player.armor, 5);
  ASSERT_TRUE(play(b, "strike", 0));
  ASSERT_TRUE(play(b, "counter_stance"));
  EXPECT_EQ(b.state().player.armor, 14);
  EXPECT_EQ(b.state().energy, 0);
  ASSERT_TRUE(end_turn(b));  // the flag is per turn
  ASSERT_TRUE(play(b, "counter_stance"));
  EXPECT_EQ(b.state().player.armor, 5);
}

TEST(StarterCard, Overflow) {
  expect_card("overflow", CardType::Skill, 1, CardTarget::None);
  const Arena a = Arena(deck_of({{"overflow", 1}, {"defend", 9}}));
  // The played card is still in hand while its effects run: 5 - 0 + 1 drawn = 6 >= 5.
  Battle full = arena(a, {"overflow"});
  ASSERT_TRUE(play(full, "overflow"));
  EXPECT_EQ(full.state().player.armor, 8);
  EXPECT_EQ(full.state().hand().size(), 5u);
  EXPECT_EQ(full.state().energy, 2);
  // One Defend first: 4 + 1 drawn = 5, still enough.
  Battle four = arena(a, {"overflow"});
  ASSERT_TRUE(play(four, "defend"));
  ASSERT_TRUE(play(four, "overflow"));
  EXPECT_EQ(four.state().player.armor, 5 + 8);
  // Two Defends first: 3 + 1 drawn = 4, no armor.
  Battle three = arena(a, {"overflow"});
  ASSERT_TRUE(play(three, "defend"));
  ASSERT_TRUE(play(three, "defend"));
  ASSERT_TRUE(play(three, "overflow"));
  EXPECT_EQ(three.state().player.armor, 10);
  EXPECT_EQ(three.state().hand().size(), 3u);
}

TEST(StarterCard, Adrenaline) {
  expect_card("adrenaline", CardType::Skill, 0, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"adrenaline", 1}, {"defend", 9}})), {"adrenaline"});
  ASSERT_TRUE(play(b, "adrenaline"));
  EXPECT_EQ(b.state().energy, 4);
  EXPECT_EQ(b.state().hand().size(), 6u);
  EXPECT_EQ(b.state().draw_pile().size(), 3u);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "adrenaline"), 1);
  EXPECT_EQ(b.state().discard_pile().size(), 0u);
}

TEST(StarterCard, Sift) {
  expect_card("sift", CardType::Skill, 0, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"sift", 1}, {"strike", 4}, {"defend", 5}})), {"sift"});
  const CardRef card = find_in_hand(b, "sift");
  ASSERT_TRUE(play(b, "sift"));
  // Drew 2, then waits for the player to pick one of the other six cards.
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().size(), 7u);
  const Decision d = b.decision();
  ASSERT_EQ(d.options.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(d.options[i], Action::choose(static_cast<std::uint8_t>(i)));
  EXPECT_FALSE(b.submit(Action::skip_choice()).ok());
  EXPECT_FALSE(b.submit(Action::end_turn()).ok());
  std::vector<CardRef> others;
  for (CardRef c : b.state().hand())
    if (c != card) others.push_back(c);
  ASSERT_TRUE(submitted(b, Action::choose(2)));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().size(), 5u);
  EXPECT_FALSE(holds(b.state().hand(), others[2]));
  EXPECT_TRUE(holds(b.state().discard_pile(), others[2]));
  EXPECT_TRUE(holds(b.state().discard_pile(), card));
  EXPECT_EQ(b.state().discard_pile().size(), 2u);
  EXPECT_EQ(b.state().energy, 3);
}

TEST(StarterCard, Regroup) {
  expect_card("regroup", CardType::Skill, 0, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"regroup", 1}, {"strike", 4}, {"defend", 5}})), {"regroup"});
  const CardRef card = find_in_hand(b, "regroup");
  ASSERT_TRUE(play(b, "regroup"));
  // Drew 2, then waits for the player to pick one of the other six cards to put on top.
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().size(), 7u);
  EXPECT_EQ(b.decision().options.size(), 6u);
  EXPECT_FALSE(b.submit(Action::skip_choice()).ok());
  std::vector<CardRef> others;
  for (CardRef c : b.state().hand())
    if (c != card) others.push_back(c);
  const std::size_t draw = b.state().draw_pile().size();
  ASSERT_TRUE(submitted(b, Action::choose(4)));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().size(), 5u);
  ASSERT_EQ(b.state().draw_pile().size(), draw + 1);
  EXPECT_EQ(b.state().draw_pile().back(), others[4]);  // on top, to be drawn next
  EXPECT_EQ(b.state().known_on_top(), 1u);
  EXPECT_TRUE(holds(b.state().exhaust_pile(), card));
  EXPECT_TRUE(b.state().discard_pile().empty());
  EXPECT_EQ(b.state().energy, 3);
}

TEST(StarterCard, Salvage) {
  expect_card("salvage", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"salvage", 1}, {"strike", 4}, {"defend", 5}})), {"salvage", "strike"});
  const CardRef card = find_in_hand(b, "salvage");
  const CardRef strike = find_in_hand(b, "strike");
  ASSERT_TRUE(submitted(b, Action::play(strike, 0)));
  ASSERT_TRUE(play(b, "salvage"));
  // The block, then a choice of the discard pile's one card: the Strike.
  EXPECT_EQ(b.state().player.armor, 3);
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.decision().options, (std::vector<Action>{Action::choose(0)}));
  EXPECT_FALSE(b.submit(Action::skip_choice()).ok());
  ASSERT_TRUE(submitted(b, Action::choose(0)));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().back(), strike);
  EXPECT_EQ(b.state().hand().size(), 4u);  // five, less the Strike, less Salvage, plus the Strike
  EXPECT_EQ(std::vector<CardRef>(b.state().discard_pile().begin(), b.state().discard_pile().end()),
            (std::vector<CardRef>{card}));
  EXPECT_EQ(b.state().energy, 1);
}

TEST(StarterCard, Unearth) {
  expect_card("unearth", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"unearth", 1}, {"purge", 1}, {"strike", 4}, {"defend", 4}})),
                   {"unearth", "purge", "strike"});
  const CardRef card = find_in_hand(b, "unearth");
  const CardRef strike = find_in_hand(b, "strike");
  ASSERT_TRUE(play(b, "purge"));
  ASSERT_TRUE(b.is_waiting_for_choice());
  std::uint8_t strike_option = 0;
  for (CardRef c : b.state().hand())
    if (c != find_in_hand(b, "purge")) {
      if (c == strike) break;
      ++strike_option;
    }
  ASSERT_TRUE(submitted(b, Action::choose(strike_option)));
  ASSERT_EQ(std::vector<CardRef>(b.state().exhaust_pile().begin(), b.state().exhaust_pile().end()),
            (std::vector<CardRef>{strike}));
  ASSERT_TRUE(play(b, "unearth"));
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.decision().options, (std::vector<Action>{Action::choose(0)}));
  ASSERT_TRUE(submitted(b, Action::choose(0)));
  EXPECT_EQ(b.state().hand().back(), strike);
  EXPECT_EQ(std::vector<CardRef>(b.state().exhaust_pile().begin(), b.state().exhaust_pile().end()),
            (std::vector<CardRef>{card}))
      << "the Strike back in hand, Unearth exhausted";
  EXPECT_EQ(b.state().energy, 1);
}

TEST(StarterCard, Survey) {
  expect_card("survey", CardType::Skill, 0, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"survey", 1}, {"strike", 4}, {"defend", 5}})), {"survey"});
  const CardRef card = find_in_hand(b, "survey");
  std::vector<CardRef> top;  // the draw pile's top three, top first
  for (std::size_t i = 0; i < 3; ++i)
    top.push_back(b.state().draw_pile()[b.state().draw_pile().size() - 1 - i]);
  ASSERT_TRUE(play(b, "survey"));
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1),
                                                       Action::choose(2), Action::skip_choice()}));
  ASSERT_TRUE(submitted(b, Action::choose(0)));  // the top card, discarded
  ASSERT_TRUE(submitted(b, Action::skip_choice()));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().back(), top[1]) << "the draw takes the next one";
  EXPECT_EQ(b.state().draw_pile().back(), top[2]);
  EXPECT_EQ(b.state().known_in_order_on_top(), 1u);
  EXPECT_EQ(std::vector<CardRef>(b.state().discard_pile().begin(), b.state().discard_pile().end()),
            (std::vector<CardRef>{top[0], card}));
  EXPECT_EQ(b.state().energy, 3);
}

TEST(StarterCard, Armory) {
  expect_card("armory", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"armory", 1}, {"strike", 3}, {"defend", 7}})), {"armory"});
  std::vector<CardRef> strikes;  // in the draw pile, in instance order: the options
  for (CardRef c : b.state().draw_pile())
    if (b.catalog().cards[b.state().cards[c].def].id == "strike") strikes.push_back(c);
  std::sort(strikes.begin(), strikes.end());
  ASSERT_FALSE(strikes.empty());
  ASSERT_TRUE(play(b, "armory"));
  ASSERT_TRUE(b.is_waiting_for_choice());
  std::vector<Action> options;
  for (std::size_t i = 0; i < strikes.size(); ++i)
    options.push_back(Action::choose(static_cast<std::uint8_t>(i)));
  EXPECT_EQ(b.decision().options, options) << "the Strikes of the draw pile, not its Defends";
  EXPECT_FALSE(b.submit(Action::skip_choice()).ok());
  const std::size_t draw = b.state().draw_pile().size();
  ASSERT_TRUE(submitted(b, Action::choose(static_cast<std::uint8_t>(strikes.size() - 1))));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().back(), strikes.back());
  EXPECT_EQ(b.state().draw_pile().size(), draw - 1);
  EXPECT_EQ(b.state().energy, 2);
}

TEST(StarterCard, ClearMind) {
  expect_card("clear_mind", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"clear_mind", 1}, {"strike", 4}, {"defend", 7}})), {"clear_mind"});
  const CardRef clear_mind = find_in_hand(b, "clear_mind");
  std::vector<CardRef> discarded;  // the rest of the hand, in hand order, then Clear Mind
  for (CardRef c : b.state().hand())
    if (c != clear_mind) discarded.push_back(c);
  discarded.push_back(clear_mind);
  ASSERT_EQ(discarded.size(), 5u);
  const std::span<const CardRef> top_first = b.state().piles.draw_top_first();
  const std::vector<CardRef> top(top_first.begin(), top_first.begin() + 4);  // drawn in this order
  ASSERT_TRUE(play(b, "clear_mind"));
  EXPECT_FALSE(b.is_waiting_for_choice()) << "the whole hand goes, with no choice";
  EXPECT_EQ(std::vector<CardRef>(b.state().discard_pile().begin(), b.state().discard_pile().end()),
            discarded);
  EXPECT_EQ(std::vector<CardRef>(b.state().hand().begin(), b.state().hand().end()), top);
  EXPECT_EQ(b.state().energy, 2);
}

TEST(StarterCard, ShieldBash) {
  expect_card("shield_bash", CardType::Attack, 1, CardTarget::Enemy);
  // With no armor it deals nothing; after a Defend, 5.
  for (const bool defended : {false, true}) {
    Battle b = arena(Arena(deck_of({{"shield_bash", 1}, {"defend", 9}})), {"shield_bash"});
    if (defended) {
      ASSERT_TRUE(play(b, "defend"));
    }
    const std::int32_t hp = enemy_hp(b, 0);
    ASSERT_TRUE(play(b, "shield_bash", 0));
    EXPECT_EQ(enemy_hp(b, 0), hp - (defended ? 5 : 0)) << (defended ? "after a Defend" : "no armor");
    EXPECT_EQ(b.state().player.armor, defended ? 5 : 0) << "the armor stays";
    EXPECT_EQ(b.state().energy, defended ? 1 : 2);
  }
}

TEST(StarterCard, Whirlwind) {
  expect_card("whirlwind", CardType::Attack, kXCost, CardTarget::None);
  // All the energy: three hits of 5 on both enemies; after a Defend, two.
  for (const bool defended : {false, true}) {
    Battle b =
        arena(Arena(deck_of({{"whirlwind", 1}, {"defend", 9}})).with_enemies(R"(["t_dummy", "t_dummy"])"),
              {"whirlwind"});
    if (defended) {
      ASSERT_TRUE(play(b, "defend"));
    }
    const std::int32_t hp = enemy_hp(b, 0);
    ASSERT_TRUE(play(b, "whirlwind"));
    const int hits = defended ? 2 : 3;
    EXPECT_EQ(enemy_hp(b, 0), hp - 5 * hits);
    EXPECT_EQ(enemy_hp(b, 1), hp - 5 * hits);
    EXPECT_EQ(b.state().energy, 0);
  }
  // Upgraded: 8 a hit.
  Battle u = arena_upgraded(Arena(deck_of("whirlwind")).with_enemies(R"(["t_dummy", "t_dummy"])"));
  const std::int32_t hp = enemy_hp(u, 1);
  ASSERT_TRUE(play(u, upgraded_id("whirlwind")));
  EXPECT_EQ(enemy_hp(u, 1), hp - 24);
  EXPECT_EQ(u.state().energy, 0);
}

TEST(StarterCard, Rally) {
  expect_card("rally", CardType::Skill, 1, CardTarget::None);
  // 2 armor for each other skill in hand: four Defends give 8, four Strikes nothing.
  for (const bool skills : {true, false}) {
    Battle b = arena(Arena(deck_of({{"rally", 1}, {skills ? "defend" : "strike", 9}})), {"rally"});
    ASSERT_TRUE(play(b, "rally"));
    EXPECT_EQ(b.state().player.armor, skills ? 8 : 0);
    EXPECT_EQ(b.state().energy, 2);
  }
}

TEST(StarterCard, Temper) {
  expect_card("temper", CardType::Skill, 1, CardTarget::None);
  // 5 armor, then a Choice of the hand's cards that have an upgrade (Braces and Twin Strikes, not
  // Defends); the pick is upgraded where it lies.
  Battle b = arena(Arena(deck_of({{"temper", 1}, {"brace", 2}, {"twin_strike", 2}, {"defend", 5}})),
                   {"temper", "brace"});
  const Catalog& c = b.catalog();
  const CardRef temper = find_in_hand(b, "temper");
  std::vector<CardRef> upgradable;
  for (CardRef card : b.state().hand())
    if (card != temper && c.cards[b.state().cards[card].def].upgrade) upgradable.push_back(card);
  ASSERT_FALSE(upgradable.empty());
  ASSERT_TRUE(play(b, "temper"));
  EXPECT_EQ(b.state().player.armor, 5);
  ASSERT_TRUE(b.is_waiting_for_choice());
  ASSERT_EQ(b.decision().options.size(), upgradable.size());
  const CardId before = b.state().cards[upgradable.back()].def;
  ASSERT_TRUE(submitted(b, Action::choose(static_cast<std::uint8_t>(upgradable.size() - 1))));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().cards[upgradable.back()].def, *c.cards[before].upgrade);
  EXPECT_EQ(b.state().energy, 2);
  // Upgraded: every card in hand that has an upgrade, with no choice.
  const std::shared_ptr<const Catalog> catalog = arena_catalog(Arena(deck_of({{"temper", 1}, {"brace", 9}})));
  const CardId temper_plus = *catalog->find_card(upgraded_id("temper"));
  std::vector<CardId> deck;
  for (CardId card : catalog->players[*catalog->find_player("t_player")].deck)
    deck.push_back(catalog->cards[card].id == "temper" ? temper_plus : card);
  for (std::uint64_t seed = 1;; ++seed) {
    ASSERT_LE(seed, 100u) << "no seed deals Temper+";
    Battle u(catalog);
    ASSERT_TRUE(u.start_battle(*catalog->find_encounter("t"), seed, deck).ok());
    const auto in_hand = std::find_if(u.state().hand().begin(), u.state().hand().end(),
                                      [&](CardRef card) { return u.state().cards[card].def == temper_plus; });
    if (in_hand == u.state().hand().end()) continue;
    ASSERT_TRUE(submitted(u, Action::play(*in_hand, -1)));
    EXPECT_FALSE(u.is_waiting_for_choice());
    EXPECT_EQ(u.state().player.armor, 5);
    ASSERT_EQ(u.state().hand().size(), 4u);
    for (CardRef card : u.state().hand())
      EXPECT_EQ(catalog->cards[u.state().cards[card].def].id, upgraded_id("brace"));
    break;
  }
}

TEST(StarterCard, WildToss) {
  expect_card("wild_toss", CardType::Skill, 0, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"wild_toss", 1}, {"defend", 9}})), {"wild_toss"});
  ASSERT_TRUE(play(b, "wild_toss"));
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().hand().size(), 2u);
  EXPECT_EQ(b.state().discard_pile().size(), 3u);
  EXPECT_EQ(count_of(b, b.state().discard_pile(), "defend"), 2);
  EXPECT_EQ(b.state().energy, 5);
}

TEST(StarterCard, Purge) {
  expect_card("purge", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"purge", 1}, {"strike", 4}, {"defend", 5}})), {"purge"});
  const CardRef card = find_in_hand(b, "purge");
  std::vector<CardRef> others;
  for (CardRef c : b.state().hand())
    if (c != card) others.push_back(c);
  ASSERT_TRUE(play(b, "purge"));
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.decision().options.size(), 4u);
  EXPECT_EQ(b.state().player.armor, 0);  // the armor comes after the pick
  ASSERT_TRUE(submitted(b, Action::choose(1)));
  ASSERT_EQ(b.state().exhaust_pile().size(), 1u);
  EXPECT_EQ(b.state().exhaust_pile()[0], others[1]);
  EXPECT_EQ(b.state().player.armor, 7);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_TRUE(holds(b.state().discard_pile(), card));
  EXPECT_EQ(b.state().hand().size(), 3u);
}

TEST(StarterCard, Pyre) {
  expect_card("pyre", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"pyre", 1}, {"defend", 9}})), {"pyre"});
  ASSERT_TRUE(play(b, "pyre"));
  EXPECT_FALSE(b.is_waiting_for_choice());
  ASSERT_EQ(b.state().exhaust_pile().size(), 1u);
  EXPECT_EQ(def_id(b, b.state().exhaust_pile()[0]), "defend");
  EXPECT_EQ(b.state().hand().size(), 3u);
  EXPECT_EQ(b.state().energy, 4);
  EXPECT_EQ(count_of(b, b.state().discard_pile(), "pyre"), 1);
}

TEST(StarterCard, Tactics) {
  expect_card("tactics", CardType::Skill, 1, CardTarget::None);
  const Arena a = Arena(deck_of({{"tactics", 1}, {"defend", 9}}));
  for (std::uint8_t option = 0; option < 3; ++option) {
    SCOPED_TRACE(option);
    Battle b = arena(a, {"tactics"});
    ASSERT_TRUE(play(b, "tactics"));
    ASSERT_TRUE(b.is_waiting_for_choice());
    const Decision d = b.decision();
    EXPECT_EQ(d.options, (std::vector<Action>{Action::choose(0), Action::choose(1), Action::choose(2)}));
    const Result<Status, Rejection> skip = b.submit(Action::skip_choice());
    ASSERT_FALSE(skip.ok());
    EXPECT_EQ(skip.error().reason, RefusalReason::InvalidOption);
    ASSERT_TRUE(submitted(b, Action::choose(option)));
    EXPECT_FALSE(b.is_waiting_for_choice());
    EXPECT_EQ(b.state().player.armor, option == 0 ? 8 : 0);
    EXPECT_EQ(b.state().hand().size(), option == 1 ? 6u : 4u);
    EXPECT_EQ(b.state().energy, option == 2 ? 4 : 2);
    EXPECT_EQ(count_of(b, b.state().discard_pile(), "tactics"), 1);
  }
}

TEST(StarterCard, Scout) {
  expect_card("scout", CardType::Skill, 1, CardTarget::None);
  const Arena a = Arena(deck_of({{"scout", 1}, {"defend", 9}})).with_enemies(R"(["t_dummy", "t_dummy"])");
  for (int option = -1; option < 2; ++option) {
    SCOPED_TRACE(option);
    Battle b = arena(a, {"scout"});
    ASSERT_TRUE(play(b, "scout"));
    ASSERT_TRUE(b.is_waiting_for_choice());
    EXPECT_EQ(b.state().hand().size(), 6u);  // drew one before the choice; Scout is still in hand
    EXPECT_EQ(b.decision().options,
              (std::vector<Action>{Action::choose(0), Action::choose(1), Action::skip_choice()}));
    ASSERT_TRUE(
        submitted(b, option < 0 ? Action::skip_choice() : Action::choose(static_cast<std::uint8_t>(option))));
    EXPECT_FALSE(b.is_waiting_for_choice());
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(enemy_stacks(b, i, "vulnerable"), option == 0 ? 2 : 0);
      EXPECT_EQ(enemy_stacks(b, i, "weak"), option == 1 ? 2 : 0);
    }
    EXPECT_EQ(b.state().hand().size(), 5u);
    EXPECT_EQ(b.state().energy, 2);
    EXPECT_EQ(count_of(b, b.state().discard_pile(), "scout"), 1);
  }
}

TEST(StarterCard, Foresight) {
  expect_card("foresight", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"foresight", 1}, {"defend", 14}})), {"foresight"});
  ASSERT_TRUE(play(b, "foresight"));
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(b.state().hand().size(), 4u);
  ASSERT_TRUE(end_turn(b));  // turn 2: 3 + 1 energy, 1 + 5 cards
  EXPECT_EQ(b.state().energy, 4);
  EXPECT_EQ(b.state().hand().size(), 6u);
  ASSERT_TRUE(end_turn(b));  // once only
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.state().hand().size(), 5u);
}

TEST(StarterCard, TimeBomb) {
  expect_card("time_bomb", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of("time_bomb")).with_enemies(R"(["t_dummy", "t_dummy"])"));
  ASSERT_TRUE(play(b, "time_bomb"));
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "time_bomb"), 1);
  ASSERT_TRUE(end_turn(b));  // the first enemy phase end passes
  EXPECT_EQ(enemy_hp(b, 0), 100);
  EXPECT_EQ(enemy_hp(b, 1), 100);
  ASSERT_TRUE(end_turn(b));  // the second one fires it
  EXPECT_EQ(enemy_hp(b, 0), 82);
  EXPECT_EQ(enemy_hp(b, 1), 82);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(enemy_hp(b, 0), 82);
}

TEST(StarterCard, NightfallWard) {
  expect_card("nightfall_ward", CardType::Skill, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of("nightfall_ward")).with_enemies(R"(["t_hitter"])"));
  ASSERT_TRUE(play(b, "nightfall_ward"));
  EXPECT_EQ(b.state().player.armor, 0);  // not yet
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(end_turn(b));  // 9 armor at the turn end absorbs 9 of the hit
  EXPECT_EQ(b.state().player.hp, 59);
  EXPECT_EQ(b.state().player.armor, 0);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 49);
}

TEST(StarterCard, Quicken) {
  expect_card("quicken", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"quicken", 1}, {"shield_wall", 4}})));
  ASSERT_TRUE(play(b, "quicken"));
  EXPECT_EQ(b.state().energy, 2);
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 0);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(play(b, "shield_wall"));
  EXPECT_EQ(b.state().player.armor, 52);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(end_turn(b));  // this turn only
  ASSERT_EQ(b.state().hand().size(), 4u);
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 2);
}

TEST(StarterCard, Streamline) {
  expect_card("streamline", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"streamline", 1}, {"shield_wall", 4}})));
  ASSERT_TRUE(play(b, "streamline"));
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 1);
  ASSERT_TRUE(play(b, "shield_wall"));
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_EQ(b.state().player.armor, 13);
  ASSERT_TRUE(end_turn(b));  // for the rest of the battle
  ASSERT_EQ(b.state().hand().size(), 4u);
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 1);
  ASSERT_TRUE(end_turn(b));
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 1);
}

TEST(StarterCard, QuickenAndStreamlineCombine) {
  // Two cost rules on the same cards: Quicken's "0 this turn" ends with the turn, Streamline's
  // "1 less" lasts the battle, whichever comes first.
  for (const bool quicken_first : {true, false}) {
    SCOPED_TRACE(quicken_first ? "Quicken, then Streamline" : "Streamline, then Quicken");
    Battle b = arena(Arena(deck_of({{"quicken", 1}, {"streamline", 1}, {"shield_wall", 3}})));
    ASSERT_TRUE(play(b, quicken_first ? "quicken" : "streamline"));
    ASSERT_TRUE(play(b, quicken_first ? "streamline" : "quicken"));
    for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 0);  // this turn: 0
    ASSERT_TRUE(end_turn(b));
    ASSERT_EQ(b.state().hand().size(), 3u);
    for (CardRef c : b.state().hand()) EXPECT_EQ(b.effective_cost(c), 1);  // then 2 - 1
  }
}

TEST(StarterCard, Haste) {
  expect_card("haste", CardType::Skill, 2, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"haste", 1}, {"defend", 9}})).with_enemies(R"(["t_hitter"])"), {"haste"});
  ASSERT_TRUE(play(b, "haste"));
  EXPECT_EQ(b.state().energy, 1);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "haste"), 1);
  ASSERT_TRUE(end_turn(b));  // an extra player turn: the hitter does not act
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(b.state().player.hp, 60);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.state().player_turns, 2u);
  EXPECT_EQ(b.turn(), 1u);
  EXPECT_TRUE(moves_of(b, 0).empty());
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 50);
  EXPECT_EQ(b.turn(), 2u);
}

TEST(StarterCard, Meditate) {
  expect_card("meditate", CardType::Skill, 0, CardTarget::None, kExhaust);
  Battle b =
      arena(Arena(deck_of({{"meditate", 1}, {"defend", 9}})).with_enemies(R"(["t_hitter"])").with_hp(40),
            {"meditate"});
  ASSERT_TRUE(play(b, "meditate"));
  EXPECT_EQ(b.state().player.hp, 52);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "meditate"), 1);
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(end_turn(b));  // hit; turn 2 skipped; hit again; turn 3
  EXPECT_EQ(b.state().player.hp, 32);
  EXPECT_EQ(b.turn(), 3u);
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(count_events(b, EventType::TurnSkipped, from), 1u);
  EXPECT_EQ(moves_of(b, 0).size(), 2u);
  // Healing stops at max HP.
  Battle full = arena(Arena(deck_of({{"meditate", 1}, {"defend", 9}})), {"meditate"});
  ASSERT_TRUE(play(full, "meditate"));
  EXPECT_EQ(full.state().player.hp, 60);
}

TEST(StarterCard, OpeningGambit) {
  expect_card("opening_gambit", CardType::Skill, 0, CardTarget::None, kInnate | kExhaust);
  const Arena a =
      Arena(deck_of({{"opening_gambit", 1}, {"defend", 14}})).with_enemies(R"(["t_dummy", "t_dummy"])");
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Battle b(arena_catalog(a));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    EXPECT_NE(find_in_hand(b, "opening_gambit"), kNoCard) << "innate, seed " << seed;
  }
  Battle b = arena(a);
  ASSERT_TRUE(play(b, "opening_gambit"));
  EXPECT_EQ(enemy_stacks(b, 0, "vulnerable"), 1);
  EXPECT_EQ(enemy_stacks(b, 1, "vulnerable"), 1);
  EXPECT_EQ(b.state().hand().size(), 5u);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "opening_gambit"), 1);
}

TEST(StarterCard, MendingSalve) {
  expect_card("mending_salve", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of("mending_salve")).with_hp(40));
  ASSERT_TRUE(play(b, "mending_salve"));
  EXPECT_EQ(player_stacks(b, "regeneration"), 4);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "mending_salve"), 1);
  const std::int32_t expected_hp[] = {44, 47, 49, 50, 50};
  const std::int32_t expected_stacks[] = {3, 2, 1, 0, 0};
  for (int turn = 0; turn < 5; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, expected_hp[turn]) << turn;
    EXPECT_EQ(player_stacks(b, "regeneration"), expected_stacks[turn]) << turn;
  }
}

TEST(StarterCard, VowOfPeace) {
  expect_card("vow_of_peace", CardType::Skill, 0, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"vow_of_peace", 1}, {"strike", 2}, {"defend", 2}})));
  ASSERT_TRUE(play(b, "vow_of_peace"));
  EXPECT_EQ(b.state().energy, 5);
  const CardRef strike = find_in_hand(b, "strike");
  EXPECT_EQ(b.can_play_card(strike), PlayCheck::RefusedByPlayableHook);
  const Result<Status, Rejection> r = b.submit(Action::play(strike, 0));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().check, PlayCheck::RefusedByPlayableHook);
  EXPECT_EQ(b.state().energy, 5);
  for (const Action& o : b.decision().options) EXPECT_NE(o.card, strike);
  ASSERT_TRUE(play(b, "defend"));  // skills are fine
  EXPECT_EQ(b.state().player.armor, 5);
  ASSERT_TRUE(end_turn(b));  // this turn only
  ASSERT_NE(find_in_hand(b, "strike"), kNoCard);
  EXPECT_EQ(b.can_play_card(find_in_hand(b, "strike")), PlayCheck::Ok);
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 94);
}

TEST(StarterCard, Footwork) {
  expect_card("footwork", CardType::Power, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"footwork", 1}, {"defend", 4}})));
  ASSERT_TRUE(play(b, "footwork"));
  EXPECT_EQ(player_stacks(b, "dexterity"), 2);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 7);
}

TEST(StarterCard, SpikedArmor) {
  expect_card("spiked_armor", CardType::Power, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of("spiked_armor")).with_enemies(R"(["t_hitter"])"));
  ASSERT_TRUE(play(b, "spiked_armor"));
  EXPECT_EQ(player_stacks(b, "thorns"), 3);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 50);
  EXPECT_EQ(enemy_hp(b, 0), 97);
  EXPECT_EQ(player_stacks(b, "thorns"), 3);  // it never decays
}

TEST(StarterCard, IronSkin) {
  expect_card("iron_skin", CardType::Power, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"iron_skin", 1}, {"defend", 4}})));
  ASSERT_TRUE(play(b, "iron_skin"));
  EXPECT_EQ(b.state().player.armor, 4);
  ASSERT_TRUE(play(b, "defend"));
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 14);
  ASSERT_TRUE(end_turn(b));  // keeps half at the turn start
  EXPECT_EQ(b.state().player.armor, 7);
  ASSERT_TRUE(end_turn(b));  // rounded down
  EXPECT_EQ(b.state().player.armor, 3);
}

TEST(StarterCard, BattleFury) {
  expect_card("battle_fury", CardType::Power, 2, CardTarget::None);
  Battle b = arena(
      Arena(deck_of({{"battle_fury", 1}, {"strike", 2}, {"defend", 2}})).with_rules(R"({"max_energy": 5})"));
  ASSERT_TRUE(play(b, "battle_fury"));
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(enemy_hp(b, 0), 100);
  ASSERT_TRUE(play(b, "strike", 0));  // 6, then 3 more from the hook
  EXPECT_EQ(enemy_hp(b, 0), 91);
  ASSERT_TRUE(play(b, "defend"));  // not an attack
  EXPECT_EQ(enemy_hp(b, 0), 91);
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 82);
  ASSERT_TRUE(end_turn(b));  // for the rest of the battle
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 73);
}

TEST(StarterCard, BloodOath) {
  expect_card("blood_oath", CardType::Power, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of({{"blood_oath", 1}, {"strike", 2}, {"defend", 2}})));
  ASSERT_TRUE(play(b, "blood_oath"));
  EXPECT_EQ(player_stacks(b, "strength"), 2);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 92);
  const CardRef defend = find_in_hand(b, "defend");
  EXPECT_EQ(b.can_play_card(defend), PlayCheck::CancelledByOnPlayHook);
  const Result<Status, Rejection> r = b.submit(Action::play(defend));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().check, PlayCheck::CancelledByOnPlayHook);
  EXPECT_EQ(b.state().player.armor, 0);
  EXPECT_EQ(b.state().energy, 1);
  ASSERT_TRUE(end_turn(b));  // this turn only; the Strength stays
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 5);
  EXPECT_EQ(player_stacks(b, "strength"), 2);
}

TEST(StarterCard, SteelResolve) {
  expect_card("steel_resolve", CardType::Power, 1, CardTarget::None);
  Battle b = arena(Arena(deck_of("steel_resolve")).with_enemies(R"(["t_hitter"])").with_hp(50));
  ASSERT_TRUE(play(b, "steel_resolve"));
  EXPECT_EQ(player_stacks(b, "resolve"), 3);
  EXPECT_EQ(b.state().energy, 2);
  ASSERT_TRUE(end_turn(b));  // 3 armor at the discard phase
  EXPECT_EQ(b.state().player.hp, 43);
  // At the battle's end (won), heal 3.
  Battle w = arena(
      Arena(deck_of({{"steel_resolve", 1}, {"strike", 4}})).with_enemies(R"(["t_weakling"])").with_hp(50));
  ASSERT_TRUE(play(w, "steel_resolve"));
  ASSERT_TRUE(play(w, "strike", 0));
  EXPECT_EQ(w.phase(), Phase::BattleWon);
  EXPECT_EQ(w.state().player.hp, 53);
}

TEST(StarterCard, DeepBreath) {
  expect_card("deep_breath", CardType::Skill, 1, CardTarget::None, kExhaust);
  Battle b = arena(Arena(deck_of({{"deep_breath", 1}, {"defend", 14}})), {"deep_breath"});
  ASSERT_TRUE(play(b, "deep_breath"));
  EXPECT_EQ(player_stacks(b, "focus"), 3);
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(count_of(b, b.state().exhaust_pile(), "deep_breath"), 1);
  const std::int32_t energy[] = {4, 4, 3};
  for (int turn = 0; turn < 3; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().energy, energy[turn]) << turn;
  }
}

TEST(StarterCard, Dazed) {
  expect_card("dazed", CardType::Status, 0, CardTarget::None, kUnplayable | kEthereal);
  Battle b = arena(Arena(deck_of({{"dazed", 1}, {"defend", 4}})));
  const CardRef dazed = find_in_hand(b, "dazed");
  ASSERT_NE(dazed, kNoCard);
  EXPECT_EQ(b.can_play_card(dazed), PlayCheck::Unplayable);
  EXPECT_FALSE(b.submit(Action::play(dazed)).ok());
  for (const Action& o : b.decision().options) EXPECT_NE(o.card, dazed);
  ASSERT_TRUE(end_turn(b));  // ethereal: exhausted at the turn end
  EXPECT_TRUE(holds(b.state().exhaust_pile(), dazed));
  EXPECT_EQ(b.state().hand().size(), 4u);
}

TEST(StarterCard, Doubt) {
  expect_card("doubt", CardType::Curse, 0, CardTarget::None, kUnplayable);
  Battle b = arena(Arena(deck_of({{"doubt", 1}, {"defend", 4}})));
  const CardRef doubt = find_in_hand(b, "doubt");
  ASSERT_NE(doubt, kNoCard);
  EXPECT_EQ(b.can_play_card(doubt), PlayCheck::Unplayable);
  EXPECT_FALSE(b.submit(Action::play(doubt)).ok());
  ASSERT_TRUE(end_turn(b));  // discarded like any card, so it comes back
  EXPECT_TRUE(b.state().exhaust_pile().empty());
  EXPECT_TRUE(holds(b.state().hand(), doubt));
}

// --- the full pack's statuses ----------------------------------------------------------------

const StatusDef& status_def(std::string_view id) { return starter()->statuses[status_id(id)]; }

TEST(StarterStatus, Poison) {
  const StatusDef& def = status_def("poison");
  EXPECT_EQ(def.kind, StatusKind::Debuff);
  EXPECT_EQ(def.decay, Decay::OwnerTurnEnd);
  // At each of its owner's turn starts, lose HP equal to the stacks (no armor, no modifiers);
  // one stack goes at each of its turn ends.
  Battle e = arena(Arena(deck_of({{"defend", 10}})));
  give(e, enemy_unit(0), "poison", 3);
  const std::int32_t enemy[] = {97, 95, 94, 94};
  for (int turn = 0; turn < 4; ++turn) {
    ASSERT_TRUE(end_turn(e));
    EXPECT_EQ(enemy_hp(e, 0), enemy[turn]) << turn;
  }
  EXPECT_EQ(enemy_stacks(e, 0, "poison"), 0);
  // Given during the player's own turn, it loses a stack at that turn's end before it first ticks.
  Battle b = arena(Arena(deck_of({{"defend", 10}})));
  give(b, kPlayerUnit, "poison", 3);
  const std::int32_t hp[] = {58, 57, 57};
  for (int turn = 0; turn < 3; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, hp[turn]) << turn;
  }
}

TEST(StarterStatus, Regeneration) {
  const StatusDef& def = status_def("regeneration");
  EXPECT_EQ(def.kind, StatusKind::Buff);
  EXPECT_EQ(def.decay, Decay::OwnerTurnEnd);
  // On an enemy: heals at the end of its own turn, then loses a stack.
  Battle b = arena(Arena(deck_of("defend")));
  Battle::Access::of(b).s.enemies[0].unit.hp = 50;
  give(b, enemy_unit(0), "regeneration", 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(enemy_hp(b, 0), 52);
  EXPECT_EQ(enemy_stacks(b, 0, "regeneration"), 1);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(enemy_hp(b, 0), 53);
  EXPECT_EQ(enemy_stacks(b, 0, "regeneration"), 0);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(enemy_hp(b, 0), 53);
}

TEST(StarterStatus, Thorns) {
  const StatusDef& def = status_def("thorns");
  EXPECT_EQ(def.decay, Decay::None);
  // Each attack hit on the owner deals its stacks back to the attacker.
  Battle b = arena(Arena(deck_of({{"twin_strike", 5}})));
  give(b, enemy_unit(0), "thorns", 2);
  ASSERT_TRUE(play(b, "twin_strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), 90);
  EXPECT_EQ(b.state().player.hp, 56);
  // Armor absorbs it like any attack.
  Battle armored = arena(Arena(deck_of({{"defend", 1}, {"strike", 4}})));
  give(armored, enemy_unit(0), "thorns", 2);
  ASSERT_TRUE(play(armored, "defend"));
  ASSERT_TRUE(play(armored, "strike", 0));
  EXPECT_EQ(armored.state().player.hp, 60);
  EXPECT_EQ(armored.state().player.armor, 3);
}

TEST(StarterStatus, ThornsAgainstThornsTerminates) {
  // Both sides with Thorns: the battle must go on (no endless exchange, no engine error).
  Battle b = arena(Arena(deck_of({{"strike", 5}})));
  give(b, kPlayerUnit, "thorns", 2);
  give(b, enemy_unit(0), "thorns", 3);
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  // The Strike's 6, and the enemy's Thorns (3) back; Thorns damage is a reaction, not an
  // attack that would set off the player's Thorns in turn.
  EXPECT_EQ(enemy_hp(b, 0), 94);
  EXPECT_EQ(b.state().player.hp, 57);
  EXPECT_EQ(count_events(b, EventType::DamageDealt, from), 2u);
}

TEST(StarterStatus, Dexterity) {
  EXPECT_EQ(status_def("dexterity").armor_gained_per_stack, 1);
  Battle b = arena(Arena(deck_of("defend")));
  give(b, kPlayerUnit, "dexterity", 3);
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 8);
  // Stacks never go below 0: taking 7 away removes the status (no negative Dexterity).
  give(b, kPlayerUnit, "dexterity", -7);
  EXPECT_EQ(player_stacks(b, "dexterity"), 0);
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 13);
}

TEST(StarterStatus, Stun) {
  const StatusDef& def = status_def("stun");
  EXPECT_TRUE(def.skips_turn);
  EXPECT_EQ(def.decay, Decay::OwnerTurnEnd);
  Battle b = arena(Arena(deck_of("defend")).with_enemies(R"(["t_hitter"])"));
  give(b, enemy_unit(0), "stun", 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 60);
  EXPECT_EQ(enemy_stacks(b, 0, "stun"), 1);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 60);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 50);
}

TEST(StarterStatus, Ritual) {
  EXPECT_EQ(status_def("ritual").decay, Decay::None);
  // At the end of its owner's turn, gain Strength equal to the stacks.
  Battle b = arena(Arena(deck_of("defend")).with_enemies(R"(["t_hitter"])").with_hp(100));
  give(b, enemy_unit(0), "ritual", 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 90);
  EXPECT_EQ(enemy_stacks(b, 0, "strength"), 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 78);
  EXPECT_EQ(enemy_stacks(b, 0, "strength"), 4);
}

TEST(StarterStatus, Frail) {
  const StatusDef& def = status_def("frail");
  EXPECT_EQ(def.armor_gained_percent, 75);
  EXPECT_EQ(def.decay, Decay::OwnerTurnEnd);
  Battle b = arena(Arena(deck_of("defend")));
  give(b, kPlayerUnit, "frail", 1);
  ASSERT_TRUE(play(b, "defend"));  // 5 x 0.75
  EXPECT_EQ(b.state().player.armor, 3);
  give(b, kPlayerUnit, "dexterity", 2);
  ASSERT_TRUE(play(b, "defend"));  // (5 + 2) x 0.75
  EXPECT_EQ(b.state().player.armor, 8);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(player_stacks(b, "frail"), 0);
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 7);
}

TEST(StarterStatus, Bulwark) {
  EXPECT_EQ(status_def("bulwark").decay, Decay::None);
  // The Sentry starts with 12 Bulwark: 12 armor at the battle start, gone at its first turn.
  Battle b = arena(Arena(deck_of("strike")).with_enemies(R"(["sentry"])").with_hp(100));
  EXPECT_EQ(enemy_stacks(b, 0, "bulwark"), 12);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 12);
  const std::int32_t hp = enemy_hp(b, 0);
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(enemy_hp(b, 0), hp);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 6);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().enemies[0].unit.armor, 0);
  EXPECT_EQ(enemy_stacks(b, 0, "bulwark"), 12);
}

TEST(StarterStatus, Resolve) {
  EXPECT_EQ(status_def("resolve").decay, Decay::None);
  Battle b = arena(Arena(deck_of("defend")).with_enemies(R"(["t_hitter"])"));
  give(b, kPlayerUnit, "resolve", 2);
  ASSERT_TRUE(end_turn(b));  // 2 armor at the discard phase, 8 of the 10 get through
  EXPECT_EQ(b.state().player.hp, 52);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 44);
  EXPECT_EQ(player_stacks(b, "resolve"), 2);
}

TEST(StarterStatus, Focus) {
  EXPECT_EQ(status_def("focus").decay, Decay::OwnerTurnEnd);
  Battle b = arena(Arena(deck_of({{"defend", 15}})));
  give(b, kPlayerUnit, "focus", 2);  // 1 left at turn 2's draw phase, 0 at turn 3's
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().energy, 4);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().energy, 3);
}

// --- the full pack's enemies -----------------------------------------------------------------

/// An arena where the player, with `hp` HP, only ends turns against `enemies`.
Arena passive(std::string enemies, int hp = 300) {
  return Arena(deck_of({{"defend", 10}})).with_enemies(std::move(enemies)).with_max_hp(hp).with_hp(hp);
}

TEST(StarterEnemy, Cultist) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["cultist"])"), 0), range_set(56, 62));
  Battle b = arena(passive(R"(["cultist"])", 200));
  EXPECT_EQ(intent_of(b, 0), "incantation");
  ASSERT_TRUE(end_turn(b));  // Ritual 3, and 3 Strength at the end of that same turn
  EXPECT_EQ(b.state().player.hp, 200);
  EXPECT_EQ(enemy_stacks(b, 0, "ritual"), 3);
  EXPECT_EQ(enemy_stacks(b, 0, "strength"), 3);
  const std::int32_t hp[] = {191, 179, 164};  // Dark Strike: 6 + 3, 6 + 6, 6 + 9
  for (int turn = 0; turn < 3; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, hp[turn]) << turn;
  }
  EXPECT_EQ(enemy_stacks(b, 0, "strength"), 12);
  EXPECT_EQ(moves_of(b, 0),
            (std::vector<std::string>{"incantation", "dark_strike", "dark_strike", "dark_strike"}));
}

TEST(StarterEnemy, Spiker) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["spiker"])"), 0), range_set(38, 42));
  // It starts with 4 Thorns: a Strike costs the player 4 HP.
  Battle hit = arena(Arena(deck_of("strike")).with_enemies(R"(["spiker"])").with_hp(100));
  EXPECT_EQ(enemy_stacks(hit, 0, "thorns"), 4);
  const std::int32_t hp = enemy_hp(hit, 0);
  ASSERT_TRUE(play(hit, "strike", 0));
  EXPECT_EQ(enemy_hp(hit, 0), hp - 6);
  EXPECT_EQ(hit.state().player.hp, 96);
  // Random moves: Stab (9) at most twice in a row, Harden (8 armor, 2 Thorns) never twice.
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Battle b(arena_catalog(passive(R"(["spiker"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    int stabs = 0;
    int hardens = 0;
    for (int turn = 0; turn < 12; ++turn) {
      const std::string next = intent_of(b, 0);
      ASSERT_TRUE(end_turn(b));
      if (next == "harden") {
        EXPECT_EQ(b.state().enemies[0].unit.armor, 8);  // kept until its next turn
        ++hardens;
      } else {
        ++stabs;
      }
    }
    const std::vector<std::string> moves = moves_of(b, 0);
    seen.insert(moves.begin(), moves.end());
    EXPECT_LE(longest_run(moves, "stab"), 2);
    EXPECT_LE(longest_run(moves, "harden"), 1);
    EXPECT_EQ(b.state().player.hp, 300 - 9 * stabs);
    EXPECT_EQ(enemy_stacks(b, 0, "thorns"), 4 + 2 * hardens);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"stab", "harden"}));
}

TEST(StarterEnemy, BogToad) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["bog_toad"])"), 0), range_set(24, 28));
  Battle b = arena(passive(R"(["bog_toad"])", 100));
  // Spit (4 Poison), Lash (10), Lash, Spit, ...; the Poison ticks at the player's turn start
  // and loses a stack at its end: 4, 10 + 3, 10 + 2, 1 + 4 (the new Poison adds up), 10 + 4.
  const std::int32_t hp[] = {96, 83, 71, 66, 52};
  for (int turn = 0; turn < 5; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, hp[turn]) << turn;
  }
  EXPECT_EQ(moves_of(b, 0), (std::vector<std::string>{"venom_spit", "tongue_lash", "tongue_lash",
                                                      "venom_spit", "tongue_lash"}));
}

TEST(StarterEnemy, Imp) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["imp"])"), 0), range_set(14, 18));
  // Scratch (7; 10 on a Vulnerable player) at most twice in a row; Cower (5 armor) and Jeer
  // (2 Vulnerable) never twice in a row.
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Battle b(arena_catalog(passive(R"(["imp"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    std::int32_t hp = 300;
    std::int32_t vulnerable = 0;
    for (int turn = 0; turn < 15; ++turn) {
      const std::string next = intent_of(b, 0);
      ASSERT_TRUE(end_turn(b));
      vulnerable = std::max(0, vulnerable - 1);  // the player's turn end comes first
      if (next == "scratch") hp -= vulnerable > 0 ? 10 : 7;
      if (next == "jeer") vulnerable += 2;
      if (next == "cower") {
        EXPECT_EQ(b.state().enemies[0].unit.armor, 5);
      }
      ASSERT_EQ(b.state().player.hp, hp) << "seed " << seed << " turn " << turn;
      EXPECT_EQ(player_stacks(b, "vulnerable"), vulnerable);
    }
    const std::vector<std::string> moves = moves_of(b, 0);
    seen.insert(moves.begin(), moves.end());
    EXPECT_LE(longest_run(moves, "scratch"), 2);
    EXPECT_LE(longest_run(moves, "cower"), 1);
    EXPECT_LE(longest_run(moves, "jeer"), 1);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"scratch", "cower", "jeer"}));
}

TEST(StarterEnemy, Witch) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["witch"])"), 0), range_set(30, 34));
  // Conditional: Curse Bolt while the player is Weak, else Hex (2 Weak, 2 Frail).
  Battle b = arena(passive(R"(["witch"])", 100));
  EXPECT_EQ(intent_of(b, 0), "hex");
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(player_stacks(b, "weak"), 2);
  EXPECT_EQ(player_stacks(b, "frail"), 2);
  EXPECT_EQ(intent_of(b, 0), "curse_bolt");
  const std::int32_t hp[] = {91, 82, 82, 73, 64};
  for (int turn = 0; turn < 5; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, hp[turn]) << turn;
  }
  EXPECT_EQ(moves_of(b, 0),
            (std::vector<std::string>{"hex", "curse_bolt", "curse_bolt", "hex", "curse_bolt", "curse_bolt"}));
}

TEST(StarterEnemy, Leech) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["leech"])"), 0), range_set(40, 44));
  // Unhurt, it only Bites (6) and Drains (4, heals 4; at most twice in a row).
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Battle b(arena_catalog(passive(R"(["leech"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    for (int turn = 0; turn < 12; ++turn) ASSERT_TRUE(end_turn(b));
    const std::vector<std::string> moves = moves_of(b, 0);
    seen.insert(moves.begin(), moves.end());
    EXPECT_LE(longest_run(moves, "drain"), 2);
    const auto bites = std::count(moves.begin(), moves.end(), "bite");
    const auto drains = std::count(moves.begin(), moves.end(), "drain");
    EXPECT_EQ(b.state().player.hp, 300 - 6 * bites - 4 * drains);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"bite", "drain"}));
  // Below 50% HP it Gorges (heal 12, 2 Strength), once per battle.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Battle b(arena_catalog(passive(R"(["leech"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    EXPECT_NE(intent_of(b, 0), "gorge");
    Battle::Access::of(b).s.enemies[0].unit.hp = 10;
    ASSERT_TRUE(end_turn(b));  // it makes the move it intended, then picks Gorge
    ASSERT_LT(enemy_hp(b, 0) * 2, b.state().enemies[0].unit.max_hp);
    EXPECT_EQ(intent_of(b, 0), "gorge");
    const std::int32_t hp = enemy_hp(b, 0);
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(enemy_hp(b, 0), hp + 12);
    EXPECT_EQ(enemy_stacks(b, 0, "strength"), 2);
    for (int turn = 0; turn < 8; ++turn) ASSERT_TRUE(end_turn(b));
    const std::vector<std::string> moves = moves_of(b, 0);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "gorge"), 1);
  }
}

TEST(StarterEnemy, Sentry) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["sentry"])"), 0), range_set(30, 34));
  // Beam (9) first, then Bolt (2 Dazed into the discard pile) and Beam in turn.
  Battle b = arena(Arena(deck_of("strike")).with_enemies(R"(["sentry"])").with_hp(100));
  EXPECT_EQ(intent_of(b, 0), "beam");
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 91);
  EXPECT_EQ(intent_of(b, 0), "bolt");
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 91);
  EXPECT_EQ(b.state().cards.size(), 7u);
  EXPECT_EQ(instances_of(b, "dazed"), 2);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.hp, 82);
  EXPECT_EQ(moves_of(b, 0), (std::vector<std::string>{"beam", "bolt", "beam"}));
}

TEST(StarterEnemy, Golem) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["golem"])"), 0), range_set(110, 116));
  // Fortify (10 armor) first; then random: Fortify, Smash (18) and Quake (lose 8 HP, through
  // armor) never twice in a row, Rumble (6 and 5 armor) at most twice. With persisting armor its
  // armor only grows.
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Arena a = passive(R"(["golem"])");
    a.rules = R"({"armor_decay": "persist"})";
    Battle b(arena_catalog(a));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    ASSERT_EQ(intent_of(b, 0), "fortify");
    std::int32_t hp = 300;
    std::int32_t armor = 0;
    for (int turn = 0; turn < 12; ++turn) {
      const std::string next = intent_of(b, 0);
      ASSERT_TRUE(end_turn(b));
      if (next == "fortify") armor += 10;
      if (next == "smash") hp -= 18;
      if (next == "quake") hp -= 8;
      if (next == "rumble") {
        hp -= 6;
        armor += 5;
      }
      ASSERT_EQ(b.state().player.hp, hp);
      ASSERT_EQ(b.state().enemies[0].unit.armor, armor);
    }
    const std::vector<std::string> moves = moves_of(b, 0);
    seen.insert(moves.begin(), moves.end());
    EXPECT_LE(longest_run(moves, "fortify"), 1);
    EXPECT_LE(longest_run(moves, "smash"), 1);
    EXPECT_LE(longest_run(moves, "rumble"), 2);
    EXPECT_LE(longest_run(moves, "quake"), 1);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"fortify", "smash", "rumble", "quake"}));
  // Quake goes through the player's armor.
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Battle b(arena_catalog(Arena(deck_of("defend")).with_enemies(R"(["golem"])")));
    ASSERT_TRUE(b.start_battle("t", seed).ok());
    ASSERT_TRUE(end_turn(b));  // Fortify
    if (intent_of(b, 0) != "quake") continue;
    ASSERT_TRUE(play(b, "defend"));
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, 52);
    return;
  }
  FAIL() << "no seed has a Quake on turn 2";
}

TEST(StarterEnemy, Warlord) {
  EXPECT_EQ(arena_starting_hp(passive(R"(["warlord"])"), 0), (std::set<std::int32_t>{150}));
  Battle b = arena(passive(R"(["warlord"])"));
  EXPECT_EQ(enemy_stacks(b, 0, "strength"), 1);  // from the start
  ASSERT_TRUE(end_turn(b));                      // War Cry: 2 Vulnerable, a Doubt shuffled into the draw pile
  EXPECT_EQ(b.state().player.hp, 300);
  EXPECT_EQ(player_stacks(b, "vulnerable"), 2);
  EXPECT_EQ(instances_of(b, "doubt"), 1);
  EXPECT_EQ(b.state().cards.size(), 11u);
  // Then Cleave Strike (11 + 1, x 1.5), Double Chop (2 x 7), Crushing Blow (10, 2 Frail), and
  // again from Cleave Strike.
  const std::int32_t hp[] = {282, 268, 258, 246, 232};
  for (int turn = 0; turn < 5; ++turn) {
    ASSERT_TRUE(end_turn(b));
    EXPECT_EQ(b.state().player.hp, hp[turn]) << turn;
  }
  EXPECT_EQ(moves_of(b, 0), (std::vector<std::string>{"war_cry", "cleave_strike", "double_chop",
                                                      "crushing_blow", "cleave_strike", "double_chop"}));
  EXPECT_EQ(instances_of(b, "doubt"), 1);
  // Below 50% HP: Rally (Ritual 1, 20 armor) once; the sequence then goes on where it was.
  Battle r = arena(passive(R"(["warlord"])"));
  ASSERT_TRUE(end_turn(r));                         // War Cry; Cleave Strike is next
  Battle::Access::of(r).s.enemies[0].unit.hp = 74;  // below 75
  ASSERT_TRUE(end_turn(r));
  EXPECT_EQ(intent_of(r, 0), "rally");
  ASSERT_TRUE(end_turn(r));
  EXPECT_EQ(r.state().enemies[0].unit.armor, 20);
  EXPECT_EQ(enemy_stacks(r, 0, "ritual"), 1);
  EXPECT_EQ(enemy_stacks(r, 0, "strength"), 2);
  for (int turn = 0; turn < 3; ++turn) ASSERT_TRUE(end_turn(r));
  EXPECT_EQ(moves_of(r, 0), (std::vector<std::string>{"war_cry", "cleave_strike", "rally", "double_chop",
                                                      "crushing_blow", "cleave_strike"}));
}

// --- hooks -----------------------------------------------------------------------------------

const HookDef& hook_def(std::string_view id) {
  for (const HookDef& h : starter()->hooks)
    if (h.id == id) return h;
  throw std::runtime_error("no hook " + std::string(id));
}

TEST(StarterHook, PeaceVow) {
  const HookDef& h = hook_def("peace_vow");
  EXPECT_EQ(h.kind, HookKind::RefusePlay);
  EXPECT_EQ(h.card_type, card_filter_of(CardType::Attack));
  EXPECT_EQ(h.duration, 1);
  Battle b = arena(Arena(deck_of({{"vow_of_peace", 1}, {"strike", 4}})));
  ASSERT_TRUE(play(b, "vow_of_peace"));
  EXPECT_EQ(b.state().hooks.size(), 1u);
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().hooks.size(), 0u);
  EXPECT_EQ(count_events(b, EventType::HookExpired), 1u);
}

TEST(StarterHook, OathSilence) {
  const HookDef& h = hook_def("oath_silence");
  EXPECT_EQ(h.kind, HookKind::CancelPlay);
  EXPECT_EQ(h.card_type, card_filter_of(CardType::Skill));
  EXPECT_EQ(h.duration, 1);
  Battle b = arena(Arena(deck_of({{"blood_oath", 1}, {"strike", 2}, {"defend", 2}})));
  ASSERT_TRUE(play(b, "blood_oath"));
  EXPECT_EQ(b.state().hooks.size(), 1u);
  EXPECT_EQ(b.can_play_card(find_in_hand(b, "strike")), PlayCheck::Ok);  // only skills
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().hooks.size(), 0u);
}

TEST(StarterHook, IronSkin) {
  const HookDef& h = hook_def("iron_skin");
  EXPECT_EQ(h.kind, HookKind::ArmorReset);
  EXPECT_EQ(h.keep_percent, 50);
  EXPECT_EQ(h.duration, 0);
  Battle b = arena(Arena(deck_of({{"iron_skin", 2}, {"defend", 3}})).with_rules(R"({"max_energy": 5})"));
  ASSERT_TRUE(play(b, "iron_skin"));
  ASSERT_TRUE(play(b, "defend"));
  EXPECT_EQ(b.state().player.armor, 9);
  for (int turn = 0; turn < 3; ++turn) ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().hooks.size(), 1u);  // for the rest of the battle
  EXPECT_EQ(b.state().player.armor, 1);   // 9 -> 4 -> 2 -> 1
}

TEST(StarterHook, BattleFury) {
  const HookDef& h = hook_def("battle_fury");
  EXPECT_EQ(h.kind, HookKind::OnCardPlayed);
  EXPECT_EQ(h.card_type, card_filter_of(CardType::Attack));
  EXPECT_EQ(h.duration, 0);
  // The hook's damage is an attack on a random enemy: 3 per attack played, spread over two.
  Battle b = arena(Arena(deck_of({{"battle_fury", 1}, {"strike", 4}}))
                       .with_enemies(R"(["t_dummy", "t_dummy"])")
                       .with_rules(R"({"max_energy": 4})"));
  ASSERT_TRUE(play(b, "battle_fury"));
  ASSERT_TRUE(play(b, "strike", 0));
  ASSERT_TRUE(play(b, "strike", 0));
  EXPECT_EQ(200 - enemy_hp(b, 0) - enemy_hp(b, 1), 12 + 6);
  EXPECT_EQ(b.state().hooks.size(), 1u);
}

// --- reward pools ----------------------------------------------------------------------------

const RewardPool& pool_def(std::string_view id) {
  for (const RewardPool& p : starter()->reward_pools)
    if (p.id == id) return p;
  throw std::runtime_error("no reward pool " + std::string(id));
}

std::set<std::string> pool_cards(const RewardPool& p) {
  std::set<std::string> ids;
  for (auto c : p.cards) ids.insert(starter()->cards[c].id);
  return ids;
}

/// Wins an arena battle against a weakling and checks the reward offer.
Battle won_with_reward(std::string_view pool, std::uint64_t seed) {
  Battle b(arena_catalog(
      Arena(deck_of("strike")).with_enemies(R"(["t_weakling"])").with_reward(std::string(pool))));
  if (!b.start_battle("t", seed).ok()) throw std::runtime_error("the arena does not start");
  if (!b.submit(Action::play(find_in_hand(b, "strike"), 0)).ok()) throw std::runtime_error("no strike");
  return b;
}

void expect_reward_offer(std::string_view pool) {
  const RewardPool& p = pool_def(pool);
  const std::set<std::string> cards = pool_cards(p);
  std::set<std::string> offered_ever;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Battle b = won_with_reward(pool, seed);
    ASSERT_EQ(b.phase(), Phase::BattleWon);
    ASSERT_TRUE(b.is_waiting_for_reward());
    EXPECT_EQ(b.status(), Status::AwaitingDecision);
    ASSERT_EQ(b.state().reward_options.size(), p.choices);
    std::set<std::string> offered;
    for (CardId c : b.state().reward_options) offered.insert(b.catalog().cards[c].id);
    EXPECT_EQ(offered.size(), p.choices) << "distinct candidates";
    for (const std::string& c : offered) EXPECT_TRUE(cards.count(c)) << c;
    offered_ever.insert(offered.begin(), offered.end());
    std::vector<Action> expected;
    for (std::uint8_t i = 0; i < p.choices; ++i) expected.push_back(Action::take_reward(i));
    expected.push_back(Action::skip_reward());
    EXPECT_EQ(b.decision().options, expected);
    EXPECT_FALSE(b.submit(Action::end_turn()).ok());
    const CardId pick = b.state().reward_options[seed % p.choices];
    ASSERT_TRUE(submitted(b, Action::take_reward(static_cast<std::uint8_t>(seed % p.choices))));
    EXPECT_FALSE(b.is_waiting_for_reward());
    EXPECT_EQ(b.state().reward_taken, pick);
    EXPECT_EQ(b.status(), Status::Finished);
    EXPECT_EQ(count_events(b, EventType::BattleRewardSelected), 1u);
  }
  EXPECT_EQ(offered_ever, cards);  // every card of the pool comes up
  Battle skipped = won_with_reward(pool, 1);
  ASSERT_TRUE(submitted(skipped, Action::skip_reward()));
  EXPECT_EQ(skipped.state().reward_taken, -1);
  EXPECT_EQ(skipped.status(), Status::Finished);
  EXPECT_EQ(count_events(skipped, EventType::BattleRewardSkipped), 1u);
}

TEST(StarterRewardPool, CommonRewards) {
  const RewardPool& p = pool_def("common_rewards");
  EXPECT_EQ(p.choices, 3);
  EXPECT_EQ(pool_cards(p),
            (std::set<std::string>{"twin_strike", "venom_dart", "flurry", "overcharge", "exploit",
                                   "shield_wall", "brace", "counter_stance", "sift", "tactics", "scout",
                                   "nightfall_ward", "footwork", "mending_salve"}));
  expect_reward_offer("common_rewards");
}

TEST(StarterRewardPool, RareRewards) {
  const RewardPool& p = pool_def("rare_rewards");
  EXPECT_EQ(p.choices, 3);
  EXPECT_EQ(pool_cards(p),
            (std::set<std::string>{"chain_lightning", "blood_strike", "momentum", "concussive_blow", "haste",
                                   "quicken", "streamline", "iron_skin", "battle_fury", "blood_oath",
                                   "steel_resolve", "time_bomb"}));
  expect_reward_offer("rare_rewards");
}

// --- the full pack's players and encounters --------------------------------------------------

TEST(StarterPlayer, Duelist) {
  const PlayerUnitDef& p = starter()->players[*starter()->find_player("duelist")];
  EXPECT_EQ(p.max_hp, 70);
  EXPECT_EQ(p.hp, 70);
  EXPECT_EQ(deck_counts(p), (std::map<std::string, int>{{"strike", 2},
                                                        {"twin_strike", 2},
                                                        {"defend", 3},
                                                        {"venom_dart", 1},
                                                        {"exploit", 1},
                                                        {"opening_gambit", 1},
                                                        {"flurry", 1},
                                                        {"overcharge", 1},
                                                        {"blood_strike", 1},
                                                        {"momentum", 1},
                                                        {"phantom_blade", 1},
                                                        {"scatter_shot", 1},
                                                        {"chain_lightning", 1},
                                                        {"reckless_charge", 1},
                                                        {"all_in", 1},
                                                        {"adrenaline", 1},
                                                        {"sift", 1},
                                                        {"wild_toss", 1},
                                                        {"scout", 1},
                                                        {"battle_fury", 1},
                                                        {"blood_oath", 1},
                                                        {"haste", 1},
                                                        {"quicken", 1}}));
  EXPECT_EQ(p.deck.size(), 27u);
}

TEST(StarterPlayer, Bastion) {
  const PlayerUnitDef& p = starter()->players[*starter()->find_player("bastion")];
  EXPECT_EQ(p.max_hp, 85);
  EXPECT_EQ(p.hp, 85);
  EXPECT_EQ(deck_counts(p),
            (std::map<std::string, int>{
                {"strike", 3},         {"defend", 3},        {"shield_wall", 1},    {"brace", 2},
                {"counter_stance", 1}, {"overflow", 1},      {"iron_skin", 1},      {"footwork", 1},
                {"nightfall_ward", 1}, {"spiked_armor", 1},  {"desperate_blow", 1}, {"concussive_blow", 1},
                {"tactics", 1},        {"steel_resolve", 1}, {"purge", 1},          {"pyre", 1},
                {"foresight", 1},      {"time_bomb", 1},     {"streamline", 1},     {"meditate", 1},
                {"mending_salve", 1},  {"vow_of_peace", 1},  {"deep_breath", 1},    {"regroup", 1},
                {"salvage", 1},        {"unearth", 1},       {"survey", 1},         {"armory", 1},
                {"clear_mind", 1},     {"shield_bash", 1},   {"whirlwind", 1},      {"rally", 1},
                {"temper", 1}}));
  EXPECT_EQ(p.deck.size(), 38u);
}

/// Plays `n` battles of an encounter with the random policy; every submit must be accepted.
/// Returns the wins.
int random_wins(std::string_view encounter, int n) {
  RandomPolicy policy;
  int wins = 0;
  for (int i = 0; i < n; ++i) {
    const auto seed = static_cast<std::uint64_t>(i + 1);
    Battle b = started(encounter, seed);
    policy.reset(seed * 7919);
    int decisions = 0;
    while (b.status() == Status::AwaitingDecision) {
      const Decision d = b.decision();
      if (d.options.empty()) {
        ADD_FAILURE() << encounter << " seed " << seed << ": awaiting a decision with no option";
        return wins;
      }
      const Action a = d.options[policy.choose(b, d.options)];
      const Result<Status, Rejection> r = b.submit(a);
      if (!r.ok()) {
        ADD_FAILURE() << encounter << " seed " << seed
                      << ": a legal option was refused: " << r.error().message;
        return wins;
      }
      if (++decisions > 5000) {
        ADD_FAILURE() << encounter << " seed " << seed << ": no end after 5000 decisions";
        return wins;
      }
    }
    wins += b.won() ? 1 : 0;
  }
  return wins;
}

const EncounterDef& encounter_def(std::string_view id) {
  return starter()->encounters[*starter()->find_encounter(id)];
}

std::vector<std::string> enemy_ids(const EncounterDef& e) {
  std::vector<std::string> ids;
  for (EnemyId id : e.enemies) ids.push_back(starter()->enemies[id].id);
  return ids;
}

void expect_encounter(std::string_view id, EncounterKind kind, std::string_view player,
                      const std::vector<std::string>& enemies, std::string_view reward) {
  SCOPED_TRACE(std::string(id));
  const EncounterDef& e = encounter_def(id);
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(starter()->players[e.player].id, player);
  EXPECT_EQ(enemy_ids(e), enemies);
  ASSERT_TRUE(e.reward.has_value());
  EXPECT_EQ(starter()->reward_pools[*e.reward].id, reward);
  const Battle b = started(id, 1);
  EXPECT_EQ(b.state().enemies.size(), enemies.size());
  EXPECT_EQ(b.state().cards.size(), starter()->players[e.player].deck.size());
  const int wins = random_wins(id, 200);
  EXPECT_GT(wins, 0);
  EXPECT_LT(wins, 200);
}

void expect_default_rules(const EncounterDef& e) {
  EXPECT_EQ(e.rules.armor_decay, ArmorDecayRule::ResetOnTurnStart);
  EXPECT_EQ(e.rules.max_energy, 3);
  EXPECT_EQ(e.rules.opening_hand, 5);
  EXPECT_EQ(e.rules.draw_per_turn, 5);
  EXPECT_EQ(e.rules.hand_limit, 10);
}

TEST(StarterEncounter, CultistRite) {
  expect_encounter("cultist_rite", EncounterKind::Normal, "duelist", {"cultist"}, "common_rewards");
  expect_default_rules(encounter_def("cultist_rite"));
}

TEST(StarterEncounter, ImpSwarm) {
  expect_encounter("imp_swarm", EncounterKind::Normal, "bastion", {"imp", "imp", "imp"}, "common_rewards");
  expect_default_rules(encounter_def("imp_swarm"));
}

TEST(StarterEncounter, Swamp) {
  expect_encounter("swamp", EncounterKind::Normal, "bastion", {"bog_toad", "leech"}, "common_rewards");
  expect_default_rules(encounter_def("swamp"));
}

TEST(StarterEncounter, ThornHedge) {
  expect_encounter("thorn_hedge", EncounterKind::Normal, "bastion", {"imp", "spiker"}, "common_rewards");
  expect_default_rules(encounter_def("thorn_hedge"));
}

TEST(StarterEncounter, GolemVault) {
  expect_encounter("golem_vault", EncounterKind::Normal, "duelist", {"golem"}, "common_rewards");
  const EncounterDef& e = encounter_def("golem_vault");
  EXPECT_EQ(e.rules.armor_decay, ArmorDecayRule::Persist);
  EXPECT_EQ(e.rules.max_energy, 3);
  EXPECT_EQ(e.rules.opening_hand, 5);
  // The player's armor carries over: a Defend on turn 1 still counts on turn 2 (the Golem
  // opens with Fortify), and the Golem keeps its 10.
  Battle b = with_in_hand("golem_vault", {"defend"});
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "defend"))).ok());
  ASSERT_TRUE(end_turn(b));
  EXPECT_EQ(b.state().player.armor, 5);
  EXPECT_EQ(b.state().player.hp, 70);
  EXPECT_EQ(b.state().enemies[0].unit.armor, 10);
}

TEST(StarterEncounter, SentryGate) {
  expect_encounter("sentry_gate", EncounterKind::Elite, "duelist", {"sentry", "witch", "sentry"},
                   "rare_rewards");
  expect_default_rules(encounter_def("sentry_gate"));
}

TEST(StarterEncounter, WarlordThrone) {
  expect_encounter("warlord_throne", EncounterKind::Boss, "duelist", {"warlord"}, "rare_rewards");
  const EncounterDef& e = encounter_def("warlord_throne");
  EXPECT_EQ(e.rules.opening_hand, 6);
  EXPECT_EQ(e.rules.draw_per_turn, 5);
  EXPECT_EQ(e.rules.max_energy, 3);
  EXPECT_EQ(started("warlord_throne", 1).state().hand().size(), 6u);
}

TEST(StarterEncounter, OlderEncountersOfferNoReward) {
  EXPECT_FALSE(encounter_def("w1").reward.has_value());
  EXPECT_FALSE(encounter_def("sludge_pair").reward.has_value());
  EXPECT_EQ(encounter_def("w1").kind, EncounterKind::Normal);
}

// --- coverage --------------------------------------------------------------------------------

template <class Defs>
std::vector<std::string> ids_of(const Defs& defs) {
  std::vector<std::string> ids;
  for (const auto& d : defs) ids.push_back(d.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> sorted(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(StarterPack, EveryItemHasATest) {
  // The ids tested above. A new card, enemy, status, player, encounter, hook or reward pool
  // needs its own test here, and its id added to this list. Upgraded versions of cards are
  // tested with their card.
  const Catalog& c = *starter();
  std::set<std::string> upgrades;
  for (const CardDef& d : c.cards)
    if (d.upgrade) upgrades.insert(c.cards[*d.upgrade].id);
  std::vector<std::string> cards;
  for (const std::string& id : ids_of(c.cards))
    if (!upgrades.count(id)) cards.push_back(id);
  EXPECT_EQ(cards,
            sorted({"strike",         "defend",          "bash",           "quick_study",     "cleave",
                    "twin_strike",    "venom_dart",      "scatter_shot",   "chain_lightning", "exploit",
                    "desperate_blow", "overcharge",      "blood_strike",   "all_in",          "momentum",
                    "phantom_blade",  "reckless_charge", "flurry",         "concussive_blow", "shield_wall",
                    "brace",          "counter_stance",  "overflow",       "adrenaline",      "sift",
                    "wild_toss",      "purge",           "pyre",           "tactics",         "scout",
                    "foresight",      "time_bomb",       "nightfall_ward", "quicken",         "streamline",
                    "haste",          "meditate",        "opening_gambit", "mending_salve",   "vow_of_peace",
                    "footwork",       "spiked_armor",    "iron_skin",      "battle_fury",     "blood_oath",
                    "steel_resolve",  "deep_breath",     "dazed",          "doubt",           "regroup",
                    "salvage",        "unearth",         "survey",         "armory",          "clear_mind",
                    "shield_bash",    "whirlwind",       "rally",          "temper"}));
  // twin_strike, venom_dart, blood_strike, shield_wall, brace, whirlwind, temper
  EXPECT_EQ(upgrades.size(), 7u);
  EXPECT_EQ(ids_of(c.enemies), sorted({"gnasher", "sludge", "cultist", "spiker", "bog_toad", "imp", "witch",
                                       "leech", "sentry", "golem", "warlord"}));
  EXPECT_EQ(ids_of(c.statuses),
            sorted({"vulnerable", "strength", "weak", "poison", "regeneration", "thorns", "dexterity", "stun",
                    "ritual", "frail", "bulwark", "resolve", "focus"}));
  EXPECT_EQ(ids_of(c.players), sorted({"warden", "warden_plus", "duelist", "bastion"}));
  EXPECT_EQ(ids_of(c.encounters), sorted({"w1", "sludge_pair", "cultist_rite", "imp_swarm", "swamp",
                                          "thorn_hedge", "golem_vault", "sentry_gate", "warlord_throne"}));
  EXPECT_EQ(ids_of(c.hooks), sorted({"peace_vow", "oath_silence", "iron_skin", "battle_fury"}));
  EXPECT_EQ(ids_of(c.reward_pools), sorted({"common_rewards", "rare_rewards"}));
}

}  // namespace
}  // namespace battlecore::deckbuilder
