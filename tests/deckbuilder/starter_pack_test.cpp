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
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "support/starter_pack.hpp"
#include "deckbuilder/mechanics.hpp"

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
  for (CardRef c : b.state().hand)
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
  return std::find(b.state().discard_pile.begin(), b.state().discard_pile.end(), card) !=
         b.state().discard_pile.end();
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
  EXPECT_EQ(b.state().hand.size(), 4u);
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
  EXPECT_EVENTS(events_since(b, from), card_played(card, "defend", kNoUnit, 1), armor(kPlayerUnit, 5),
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
  const CardPile draw_pile = b.state().draw_pile;
  ASSERT_EQ(draw_pile.size(), 6u);  // warden_plus has eleven cards
  const CardRef top = draw_pile[5];
  const CardRef next = draw_pile[4];
  const std::size_t from = b.events().log().size();
  ASSERT_TRUE(b.submit(Action::play(card)).ok());
  EXPECT_EQ(b.state().energy, 2);
  EXPECT_EQ(b.state().hand.size(), 6u);  // 5 - 1 + 2
  EXPECT_EQ(b.state().draw_pile.size(), 4u);
  EXPECT_EQ(b.state().hand[4], top);
  EXPECT_EQ(b.state().hand[5], next);
  EXPECT_TRUE(in_discard(b, card));
  EXPECT_EVENTS(events_since(b, from), card_played(card, "quick_study", kNoUnit, 1),
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
  EXPECT_EVENTS(events_since(b, from), card_played(card, "cleave", kNoUnit, 1),
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
  // The ids tested above. A new card, enemy, status, player or encounter needs its own test
  // here, and its id added to this list.
  const Catalog& c = *starter();
  EXPECT_EQ(ids_of(c.cards), sorted({"strike", "defend", "bash", "quick_study", "cleave"}));
  EXPECT_EQ(ids_of(c.enemies), sorted({"gnasher", "sludge"}));
  EXPECT_EQ(ids_of(c.statuses), sorted({"vulnerable", "strength", "weak"}));
  EXPECT_EQ(ids_of(c.players), sorted({"warden", "warden_plus"}));
  EXPECT_EQ(ids_of(c.encounters), sorted({"w1", "sludge_pair"}));
}

}  // namespace
}  // namespace battlecore::deckbuilder
