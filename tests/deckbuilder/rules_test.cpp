// The deckbuilder's rules (the GCS guide's Battle Phases and Execution Order page,
// docs/deckbuilder.md), one at a time, each on a small in-test catalog so that nothing else moves;
// then a random sweep over every encounter of the bundled starter pack.
//
// Golden traces compare the event types a recording listener hears with the guide's ordered
// lists: "PhaseChanged(A->B)" marks a transition, every other entry is an EventType name, and
// "CardDrawn*5" stands for five of them.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "battlecore/sim/simulate.hpp"
#include "deckbuilder/mechanics.hpp"
#include "support/deckbuilder_scenario.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

// --- in-test catalogs ------------------------------------------------------------------------

// Every pack below has these: a card that does nothing, a 1-cost attack and a 1-cost block; an
// enemy that does nothing, one that dies to any hit, and one that hits for 5.
constexpr std::string_view kBaseCards = R"(
  { "id": "noop", "type": "skill", "cost": 0, "target": "none", "effects": [] },
  { "id": "jab", "type": "attack", "cost": 1, "target": "enemy", "effects": [{ "op": "damage", "amount": 6 }] },
  { "id": "guard", "type": "skill", "cost": 1, "target": "none", "effects": [{ "op": "armor", "amount": 5 }] })";

constexpr std::string_view kBaseEnemies = R"(
  { "id": "dummy", "hp": 100, "moves": [{ "id": "wait", "intent": "unknown", "effects": [] }],
    "behavior": { "kind": "sequence", "moves": ["wait"] } },
  { "id": "wisp", "hp": 1, "moves": [{ "id": "wait", "intent": "unknown", "effects": [] }],
    "behavior": { "kind": "sequence", "moves": ["wait"] } },
  { "id": "brute", "hp": 100, "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 5 }] }],
    "behavior": { "kind": "sequence", "moves": ["hit"] } })";

/// One encounter "e" of player "hero" against `foes`: the pieces of its content file.
struct Spec {
  std::string cards{};  ///< card objects added to the base cards
  std::string deck = R"({ "card": "noop", "count": 10 })";
  std::string statuses{};  ///< status objects
  std::string hooks{};     ///< hook objects
  std::string enemies{};   ///< enemy objects added to the base enemies
  std::string foes = R"("dummy")";
  std::string rules{};   ///< members of the encounter's "rules" object
  std::string reward{};  ///< members of reward pool "loot" (then the encounter offers it)
  std::string player = R"("max_hp": 50)";
};

std::string joined(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  return std::string(a) + "," + std::string(b);
}

/// An innate skill of cost 0 that gives the player one stack of `status`: how the tests of
/// status timings put a status on the player.
std::string self_status_card(std::string_view id, std::string_view status) {
  return R"({ "id": ")" + std::string(id) +
         R"(", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "apply_status", "status": ")" +
         std::string(status) + R"(", "amount": 1, "target": "self" }] })";
}

std::shared_ptr<const Catalog> build(const Spec& s) {
  std::string text = R"({ "pack": { "id": "rules", "rules": "deckbuilder" },)";
  text += "\n\"cards\": [" + joined(kBaseCards, s.cards) + "],";
  text += "\n\"statuses\": [" + s.statuses + "],";
  text += "\n\"hooks\": [" + s.hooks + "],";
  text += "\n\"enemies\": [" + joined(kBaseEnemies, s.enemies) + "],";
  text += "\n\"players\": [{ \"id\": \"hero\", " + s.player + ", \"deck\": [" + s.deck + "] }],";
  if (!s.reward.empty()) text += "\n\"reward_pools\": [{ \"id\": \"loot\", " + s.reward + " }],";
  text += "\n\"encounters\": [{ \"id\": \"e\", \"player\": \"hero\", \"enemies\": [" + s.foes + "]";
  if (!s.reward.empty()) text += ", \"reward\": \"loot\"";
  text += ", \"rules\": {" + s.rules + "} }] }";
  content::Diagnostics diags;
  std::optional<content::JsonDocument> doc = content::parse_json_text("rules.json", text, diags);
  if (!doc) throw std::runtime_error("the test pack does not parse:\n" + diags.to_string() + "\n" + text);
  CatalogResult r = load_catalog(std::vector<content::JsonDocument>{std::move(*doc)});
  if (!r.ok())
    throw std::runtime_error("the test pack does not load:\n" + r.error().to_string() + "\n" + text);
  return r.value();
}

/// The one foe of the encounter: enemy `id` with `hp`, which starts with one stack of status
/// `status` (defined by `timings`, the members of its "timings" object) and waits every turn.
std::shared_ptr<const Catalog> foe_with_status(std::string_view id, int hp, std::string_view status,
                                               std::string_view timings) {
  const std::string sid(status);
  return build({
      .statuses = R"({ "id": ")" + sid + R"(", "timings": { )" + std::string(timings) + " } }",
      .enemies = R"({ "id": ")" + std::string(id) + R"(", "hp": )" + std::to_string(hp) +
                 R"(, "statuses": [{ "status": ")" + sid + R"(", "amount": 1 }],
          "moves": [{ "id": "wait", "intent": "unknown", "effects": [] }],
          "behavior": { "kind": "sequence", "moves": ["wait"] } })",
      .foes = "\"" + std::string(id) + "\"",
  });
}

/// A player at 40 of 50 HP whose innate "glow" gives Afterglow (battle-end ops `battle_end`) and
/// whose innate "zap" kills the wisp: the battle is won by the second play.
Spec won_with_afterglow(std::string_view battle_end) {
  return {
      .cards = self_status_card("glow", "afterglow") + R"(,
      { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 6 }] })",
      .deck = R"({ "card": "glow" }, { "card": "zap" }, { "card": "noop", "count": 8 })",
      .statuses = R"({ "id": "afterglow", "timings": { "battle_end": [)" + std::string(battle_end) + "] } }",
      .foes = R"("wisp")",
      .player = R"("max_hp": 50, "hp": 40)"};
}

// --- recording and driving a battle ----------------------------------------------------------

/// A host's recording listener: every event in delivery order, and an optional probe that may
/// look at the battle as each event is delivered.
struct Recorder final : Listener {
  void on_event(const Event& e) override {
    events.push_back(e);
    if (probe) probe(e);
  }
  std::vector<Event> events;
  std::function<void(const Event&)> probe;
};

/// The trace form of one event.
std::string label(const Event& e) {
  if (e.type == EventType::PhaseChanged)
    return "PhaseChanged(" + std::string(phase_name(static_cast<Phase>(e.subject))) + "->" +
           std::string(phase_name(static_cast<Phase>(e.value))) + ")";
  return std::string(event_type_name(e.type));
}

/// An expected trace: "CardDrawn*5" expands to five entries.
std::vector<std::string> seq(std::initializer_list<std::string_view> items) {
  std::vector<std::string> out;
  for (std::string_view item : items) {
    const std::size_t star = item.find('*');
    if (star == std::string_view::npos) {
      out.emplace_back(item);
      continue;
    }
    const int n = std::stoi(std::string(item.substr(star + 1)));
    for (int i = 0; i < n; ++i) out.emplace_back(item.substr(0, star));
  }
  return out;
}

/// A battle of encounter "e" with a recorder attached before the start.
class Fight {
 public:
  explicit Fight(std::shared_ptr<const Catalog> catalog, std::uint64_t seed = 1,
                 std::span<const CardId> master_deck = {})
      : battle(std::move(catalog)) {
    battle.events().attach(&recorder);
    const Result<Status> r = battle.start_battle(*battle.catalog().find_encounter("e"), seed, master_deck);
    if (!r.ok()) throw std::runtime_error(r.error().message);
  }
  ~Fight() { battle.events().detach(&recorder); }
  Fight(const Fight&) = delete;
  Fight& operator=(const Fight&) = delete;

  const BattleState& s() const { return battle.state(); }
  std::size_t mark() const { return recorder.events.size(); }
  /// The trace of the events delivered since `from`.
  std::vector<std::string> since(std::size_t from) const {
    std::vector<std::string> out;
    for (std::size_t i = from; i < recorder.events.size(); ++i) out.push_back(label(recorder.events[i]));
    return out;
  }
  /// The events delivered since `from`.
  std::vector<Event> events_since(std::size_t from) const {
    return {recorder.events.begin() + static_cast<std::ptrdiff_t>(from), recorder.events.end()};
  }
  const CardDef& def(CardRef card) const { return battle.catalog().cards[s().cards[card].def]; }
  /// The first card in hand with definition `id`.
  CardRef card(std::string_view id) const {
    for (CardRef c : s().hand())
      if (def(c).id == id) return c;
    throw std::runtime_error("no '" + std::string(id) + "' in hand");
  }
  bool in_hand(std::string_view id) const {
    return std::any_of(s().hand().begin(), s().hand().end(), [&](CardRef c) { return def(c).id == id; });
  }
  /// Submits an action that must be accepted.
  void act(const Action& a) {
    const Result<Status, Rejection> r = battle.submit(a);
    if (!r.ok()) throw std::runtime_error("refused: " + r.error().message);
  }
  void play(std::string_view id, std::int8_t target = -1) { act(Action::play(card(id), target)); }
  void end_turn() { act(Action::end_turn()); }

  Recorder recorder;
  Battle battle;
};

/// The part of a trace from the first `first` entry (at or after `from`) through the first
/// `last` entry after it.
std::vector<std::string> slice(const std::vector<std::string>& trace, std::string_view first,
                               std::string_view last, std::size_t from = 0) {
  const auto begin = std::find(trace.begin() + static_cast<std::ptrdiff_t>(from), trace.end(), first);
  if (begin == trace.end()) return {"<no " + std::string(first) + ">"};
  const auto end = std::find(begin + 1, trace.end(), last);
  if (end == trace.end()) return {"<no " + std::string(last) + " after " + std::string(first) + ">"};
  return {begin, end + 1};
}

std::size_t count(const std::vector<Event>& events, EventType type) {
  return static_cast<std::size_t>(
      std::count_if(events.begin(), events.end(), [&](const Event& e) { return e.type == type; }));
}

std::vector<Event> of_type(const std::vector<Event>& events, EventType type) {
  std::vector<Event> out;
  for (const Event& e : events)
    if (e.type == type) out.push_back(e);
  return out;
}

StatusId status_id(const Battle& b, std::string_view id) { return *b.catalog().find_status(id); }

// --- refusals change nothing -----------------------------------------------------------------

/// Everything a refused action must leave untouched.
struct Snapshot {
  explicit Snapshot(const Battle& b)
      : hash(b.state_hash()),
        state(b.state()),
        phase(b.phase()),
        history(b.history().size()),
        log(b.events().log().size()),
        actions(b.actions().size()),
        status(b.status()) {}
  std::uint64_t hash;
  BattleState state;
  Phase phase;
  std::size_t history;
  std::size_t log;
  std::size_t actions;
  Status status;
};

void expect_unchanged(const Battle& b, const Snapshot& before) {
  EXPECT_EQ(b.state_hash(), before.hash);
  EXPECT_TRUE(b.state() == before.state);
  EXPECT_EQ(b.phase(), before.phase);
  EXPECT_EQ(b.history().size(), before.history);
  EXPECT_EQ(b.events().log().size(), before.log);
  EXPECT_EQ(b.actions().size(), before.actions);
  EXPECT_EQ(b.status(), before.status);
}

/// Submits `action`, expects it refused for `reason` (and `check`), and nothing changed.
void expect_refused(Battle& b, const Action& action, RefusalReason reason, PlayCheck check = PlayCheck::Ok) {
  SCOPED_TRACE(std::string(action_kind_name(action.kind)) + " in " + std::string(phase_name(b.phase())));
  const Snapshot before(b);
  const Result<Status, Rejection> r = b.submit(action);
  ASSERT_FALSE(r.ok()) << "accepted";
  EXPECT_EQ(r.error().reason, reason) << r.error().message;
  EXPECT_EQ(r.error().check, check) << r.error().message;
  EXPECT_NE(r.error().message.find(action_kind_name(action.kind)), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(phase_name(b.phase())), std::string::npos) << r.error().message;
  expect_unchanged(b, before);
}

// =============================================================================================
// Golden traces: the guide's ordered lists
// =============================================================================================

TEST(DeckbuilderRulesTrace, BattleStartRunsItsTwelveStepsInOrder) {
  const auto catalog = build({
      .statuses =
          R"({ "id": "plating", "timings": { "battle_start": [{ "op": "armor", "amount": "stacks", "target": "self" }] } })",
      .enemies = R"({ "id": "shellback", "hp": 40, "statuses": [{ "status": "plating", "amount": 6 }],
          "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 5 }] }],
          "behavior": { "kind": "sequence", "moves": ["hit"] } })",
      .foes = R"("shellback", "dummy")",
  });
  Fight run(catalog);
  ASSERT_EQ(run.since(0), seq({
                              "PhaseChanged(None->Initialize)",
                              "StatusApplied",  // 3: the Shellback's starting Plating
                              "CardDrawn*5",    // 8: the opening hand (after 4-6: pile, shuffle, innate)
                              "BattleStarted",  // 9
                              "EnemyIntent*2",  // 10: every enemy, in encounter order
                              "ArmorGained",    // 11: Plating's battle_start behaviour
                              "PhaseChanged(Initialize->PlayerTurnStart)",  // 12
                              "TurnStarted",                                // turn 1: no draw phase
                              "PhaseChanged(PlayerTurnStart->PlayerPhase)",
                          }));
  const std::vector<Event>& ev = run.recorder.events;
  EXPECT_EQ(ev[1].target, enemy_unit(0));
  EXPECT_EQ(ev[1].subject, status_id(run.battle, "plating"));
  EXPECT_EQ(ev[1].extra, 6);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(ev[2 + i].subject, run.s().hand()[i]);
  EXPECT_EQ(ev[8].source, enemy_unit(0));
  EXPECT_EQ(ev[9].source, enemy_unit(1));
  EXPECT_EQ(ev[10].target, enemy_unit(0));
  EXPECT_EQ(ev[10].amount, 6);
  EXPECT_EQ(ev[12].amount, 1);
  // The state the steps built: the player, the enemies, ten cards (five drawn), turn 1.
  EXPECT_EQ(run.s().player.hp, 50);
  ASSERT_EQ(run.s().enemies.size(), 2u);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 40);
  EXPECT_EQ(run.s().cards.size(), 10u);
  EXPECT_EQ(run.s().hand().size(), 5u);
  EXPECT_EQ(run.s().draw_pile().size(), 5u);
  EXPECT_EQ(run.battle.turn(), 1u);
  EXPECT_EQ(run.s().energy, 3);
  // Armor decays at the start of the unit's own turn: the Shellback keeps it through turn 1.
  EXPECT_EQ(run.s().enemies[0].unit.armor, 6);
  EXPECT_EQ(run.battle.phase(), Phase::PlayerPhase);
}

TEST(DeckbuilderRulesTrace, BattleStartBehaviourCanDecideTheBattle) {
  const auto catalog = foe_with_status(
      "doomed", 5, "doom", R"("battle_start": [{ "op": "lose_hp", "amount": 10, "target": "self" }])");
  Fight run(catalog);
  EXPECT_EQ(run.since(0),
            seq({"PhaseChanged(None->Initialize)", "StatusApplied", "CardDrawn*5", "BattleStarted",
                 "EnemyIntent", "HpLost", "UnitDied", "PhaseChanged(Initialize->BattleWon)", "BattleEnded"}));
  EXPECT_EQ(run.battle.phase(), Phase::BattleWon);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 0);
  EXPECT_EQ(run.recorder.events.back().amount, 1);
}

/// Turn 2's start, with every step of the guide's list doing something: a delayed trigger, a
/// turn_start status, a card in hand with a turn-start behaviour, a draw_phase status.
constexpr std::string_view kTurnStartStatuses = R"(
  { "id": "ember", "timings": { "turn_start": [{ "op": "armor", "amount": 2, "target": "self" }] } },
  { "id": "focus", "timings": { "draw_phase": [{ "op": "gain_energy", "amount": 1 }] } })";
constexpr std::string_view kTurnStartCards = R"(
  { "id": "prep", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
    "effects": [{ "op": "armor", "amount": 7 },
                { "op": "apply_status", "status": "ember", "amount": 1, "target": "self" },
                { "op": "apply_status", "status": "focus", "amount": 1, "target": "self" },
                { "op": "delayed", "timing": "player_turn_start", "effects": [{ "op": "gain_energy", "amount": 1 }] }] },
  { "id": "charm", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "retain"],
    "effects": [], "in_hand_turn_start": [{ "op": "lose_hp", "amount": 1 }] })";

TEST(DeckbuilderRulesTrace, AHandCardMovedOutByAnEarlierBehaviourDoesNotRunItsOwn) {
  // The purger, first in hand, exhausts the battery before the battery's turn comes.
  const auto catalog = build({.cards = R"(
      { "id": "purger", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "retain"],
        "effects": [], "in_hand_turn_start": [{ "op": "exhaust", "amount": 2, "mode": "random" }] },
      { "id": "battery", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "retain"],
        "effects": [], "in_hand_turn_start": [{ "op": "gain_energy", "amount": 5 }] })",
                              .deck = R"({ "card": "purger" }, { "card": "battery" })",
                              .rules = R"("opening_hand": 2)"});
  int purger_firsts = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Fight run(catalog, seed);
    // The hand is in draw order: the first card drawn runs its behaviour first.
    const auto drawn = of_type(run.recorder.events, EventType::CardDrawn);
    ASSERT_EQ(drawn.size(), 2u);
    const bool purger_first = catalog->cards[drawn[0].value].id == "purger";
    // Turn 1, in hand order: the purger exhausts the hand (two cards at most), the battery gives
    // energy; either way the battery ends in the exhaust pile.
    EXPECT_FALSE(run.in_hand("battery")) << "seed " << seed;
    EXPECT_EQ(run.s().energy, purger_first ? 3 : 8) << "seed " << seed << ": the battery ran only if first";
    purger_firsts += purger_first ? 1 : 0;
  }
  EXPECT_GT(purger_firsts, 0);
  EXPECT_LT(purger_firsts, 10) << "both orders come up";
}

TEST(DeckbuilderRulesTrace, PlayerTurnStartRunsTheSeedsStepsInOrder) {
  const auto catalog =
      build({.cards = std::string(kTurnStartCards),
             .deck = R"({ "card": "prep" }, { "card": "charm" }, { "card": "noop", "count": 10 })",
             .statuses = std::string(kTurnStartStatuses)});
  Fight run(catalog);
  // Turn 1: the in-hand turn-start timing runs (the hand was drawn at battle start); no draw phase.
  EXPECT_EQ(slice(run.since(0), "PhaseChanged(Initialize->PlayerTurnStart)",
                  "PhaseChanged(PlayerTurnStart->PlayerPhase)"),
            seq({"PhaseChanged(Initialize->PlayerTurnStart)", "HpLost", "TurnStarted",
                 "PhaseChanged(PlayerTurnStart->PlayerPhase)"}));
  run.play("prep");
  ASSERT_EQ(run.s().player.armor, 7);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "PhaseChanged(EnemyPhase->PlayerTurnStart)",
                  "PhaseChanged(PlayerTurnStart->PlayerPhase)"),
            seq({
                "PhaseChanged(EnemyPhase->PlayerTurnStart)",
                // armor decay and the energy refill raise no event
                "DelayedFired",
                "EnergyChanged",  // delayed triggers for PlayerTurnStart
                "ArmorGained",    // player status OnTurnStart (Ember)
                "HpLost",         // hand-card turn-start timing (the retained Charm)
                "DrawPhase",
                "EnergyChanged",  // turns after the first: OnDrawPhase, draw-phase behaviour (Focus)
                "CardDrawn*5",    // ... and the per-turn cards
                "TurnStarted",
                "PhaseChanged(PlayerTurnStart->PlayerPhase)",
            }));
  const std::vector<Event> energy = of_type(run.events_since(from), EventType::EnergyChanged);
  ASSERT_EQ(energy.size(), 2u);
  EXPECT_EQ(energy[0].extra, 4);  // the refill to 3 came first
  EXPECT_EQ(energy[1].extra, 5);
  EXPECT_EQ(of_type(run.events_since(from), EventType::DrawPhase).at(0).amount, 2);
  EXPECT_EQ(of_type(run.events_since(from), EventType::TurnStarted).at(0).amount, 2);
  // Armor 7 decayed to 0 before Ember's 2; the Charm cost 1 HP on each turn start.
  EXPECT_EQ(run.s().player.armor, 2);
  EXPECT_EQ(run.s().energy, 5);
  EXPECT_EQ(run.s().player.hp, 48);
  EXPECT_EQ(run.s().hand().size(), 6u);  // the Charm kept, five drawn
  EXPECT_TRUE(run.s().played_this_turn.empty());
  EXPECT_TRUE(run.s().player_owned);
  EXPECT_TRUE(run.s().delayed.empty());
}

// The steps of PlayerTurnStart that raise no event of their own, each pinned by what it changes:
// armor decays (step 2) before the delayed triggers (step 4) add armor, and the per-turn attack
// flags reset (step 9) only after the start-turn and draw-phase behaviours (steps 6 and 8), which
// still see the attacks of the turn before.
TEST(DeckbuilderRulesTrace, PlayerTurnStartDecaysArmorFirstAndResetsTheAttackFlagsAfterTheDraw) {
  const auto catalog = build({
      .cards = R"(
        { "id": "watch", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "apply_status", "status": "vigil", "amount": 1, "target": "self" },
                      { "op": "delayed", "timing": "player_turn_start", "effects": [{ "op": "armor", "amount": 4 }] }] },
        { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
          "effects": [{ "op": "damage", "amount": 1 }] })",
      .deck = R"({ "card": "watch" }, { "card": "zap" }, { "card": "noop", "count": 13 })",
      .statuses = R"(
        { "id": "vigil", "timings": {
            "turn_start": [{ "op": "conditional", "if": { "kind": "attacked_this_turn" },
                             "then": [{ "op": "armor", "amount": 3, "target": "self" }] }],
            "draw_phase": [{ "op": "conditional", "if": { "kind": "attacked_this_turn" },
                             "then": [{ "op": "gain_energy", "amount": 1 }] }] } })",
  });
  Fight run(catalog);
  run.play("watch");
  run.play("zap", 0);
  run.end_turn();
  // Turn 2: armor 0 after the decay, then 4 from the delayed trigger and 3 from Vigil (turn 1
  // had an attack); energy refilled to 3, then 1 from Vigil's draw-phase behaviour.
  ASSERT_EQ(run.battle.turn(), 2u);
  EXPECT_EQ(run.s().player.armor, 7);
  EXPECT_EQ(run.s().energy, 4);
  EXPECT_EQ(run.s().attacks_this_turn, 0);
  // Turn 3, after a turn without an attack: the armor decays and Vigil adds nothing.
  run.end_turn();
  ASSERT_EQ(run.battle.turn(), 3u);
  EXPECT_EQ(run.s().player.armor, 0);
  EXPECT_EQ(run.s().energy, 3);
}

TEST(DeckbuilderRulesTrace, CardPlayRunsTheNineStepsInOrder) {
  const auto catalog = build({
      .cards = R"(
        { "id": "rally", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "hook", "hook": "echo" }] },
        { "id": "finisher", "type": "attack", "cost": 1, "target": "enemy", "keywords": ["innate"],
          "effects": [{ "op": "damage", "amount": 6 }, { "op": "end_turn" }], "hooks": ["echo"] })",
      .deck = R"({ "card": "rally" }, { "card": "finisher" }, { "card": "noop", "count": 8 })",
      .hooks = R"({ "id": "echo", "kind": "on_card_played", "card_type": "attack",
                    "effects": [{ "op": "armor", "amount": 1 }] })",
      .foes = R"("dummy", "dummy")",
  });
  Fight run(catalog);
  const CardRef rally = run.card("rally");
  std::size_t from = run.mark();
  run.play("rally");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "HookRegistered", "CardMoved"}));
  EXPECT_EQ(static_cast<Pile>(run.recorder.events.back().extra), Pile::Exhaust);  // a power card
  EXPECT_EQ(run.s().played_this_turn.size(), 1u);
  EXPECT_EQ(run.s().played_this_turn[0], rally);

  const CardRef finisher = run.card("finisher");
  from = run.mark();
  run.act(Action::play(finisher));  // no target given
  const std::vector<std::string> trace = run.since(from);
  ASSERT_GE(trace.size(), 7u);
  EXPECT_EQ(std::vector<std::string>(trace.begin(), trace.begin() + 7),
            seq({
                "CardPlayed",      // 1-4: energy spent, PlayedThisTurn, target resolved, OnCardPlayed
                "DamageDealt",     // 5: the card's effects
                "ArmorGained",     // ... then the on_card_played hooks (Echo, from Rally)
                "HookRegistered",  // 6: the card's own hooks
                "CardMoved",       // 7: hand to discard
                "PhaseChanged(PlayerPhase->PlayerTurnEnd)",  // 9: an effect asked to end the turn
                "DiscardPhase",
            }));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(ev[0].subject, finisher);
  EXPECT_EQ(ev[0].target, enemy_unit(0));  // step 3: the first alive enemy
  EXPECT_EQ(ev[0].amount, 1);              // step 1: the energy spent
  EXPECT_EQ(ev[1].target, enemy_unit(0));
  EXPECT_EQ(ev[2].target, kPlayerUnit);
  EXPECT_EQ(ev[3].subject, 0);  // Echo, the pack's only hook
  EXPECT_EQ(ev[4].subject, finisher);
  EXPECT_EQ(static_cast<Pile>(ev[4].extra), Pile::Discard);
  EXPECT_EQ(run.s().hooks.size(), 2u);
  EXPECT_EQ(run.battle.turn(), 2u);  // the turn ended and the next began
}

TEST(DeckbuilderRulesTrace, AWinningPlayMovesTheCardThenWinsBeforeEndingTheTurn) {
  const auto catalog = build({
      .cards = R"(
        { "id": "rally", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "hook", "hook": "echo" }] },
        { "id": "finisher", "type": "attack", "cost": 1, "target": "enemy", "keywords": ["innate"],
          "effects": [{ "op": "damage", "amount": 6 }, { "op": "end_turn" }], "hooks": ["echo"] })",
      .deck = R"({ "card": "rally" }, { "card": "finisher" }, { "card": "noop", "count": 8 })",
      .hooks = R"({ "id": "echo", "kind": "on_card_played", "card_type": "attack",
                    "effects": [{ "op": "armor", "amount": 1 }] })",
      .foes = R"("wisp")",
  });
  Fight run(catalog);
  run.play("rally");
  const std::size_t from = run.mark();
  run.play("finisher", 0);
  // The hooks do not fire once the battle is decided; steps 6 and 7 still run, then step 8
  // wins, and step 9 (end the turn) never comes.
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "UnitDied", "HookRegistered", "CardMoved",
                                  "PhaseChanged(PlayerPhase->BattleWon)", "BattleEnded"}));
  EXPECT_EQ(run.s().player.armor, 0);
  EXPECT_EQ(run.battle.phase(), Phase::BattleWon);
  EXPECT_EQ(run.battle.status(), Status::Finished);
}

/// A turn end where every step of the guide's list does something.
TEST(DeckbuilderRulesTrace, PlayerTurnEndRunsTheElevenStepsInOrder) {
  const auto catalog = build({
      .cards = R"(
        { "id": "setup", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "apply_status", "status": "steel", "amount": 2, "target": "self" },
                      { "op": "apply_status", "status": "mend", "amount": 3, "target": "self" },
                      { "op": "apply_status", "status": "dazzle", "amount": 1, "target": "self" },
                      { "op": "hook", "hook": "brief" },
                      { "op": "cost_rule", "scope": "hand", "change": 1, "turns": 1 },
                      { "op": "delayed", "timing": "player_turn_end", "effects": [{ "op": "armor", "amount": 4 }] }] },
        { "id": "keeper", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate", "retain"], "effects": [] },
        { "id": "ghost", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate", "ethereal"], "effects": [] })",
      .deck =
          R"({ "card": "setup" }, { "card": "keeper" }, { "card": "ghost" }, { "card": "noop", "count": 7 })",
      .statuses = R"(
        { "id": "steel", "timings": { "discard_phase": [{ "op": "armor", "amount": "stacks", "target": "self" }] } },
        { "id": "mend", "timings": { "turn_end": [{ "op": "heal", "amount": "stacks", "target": "self" }] } },
        { "id": "dazzle", "decay": "owner_turn_end" })",
      .hooks = R"({ "id": "brief", "kind": "refuse_play", "card_type": "curse", "duration": 1 })",
      .rules = R"("opening_hand": 4)",
      .player = R"("max_hp": 50, "hp": 40)",
  });
  Fight run(catalog);
  run.play("setup");
  const std::vector<CardRef> hand(run.s().hand().begin(), run.s().hand().end());  // keeper, ghost, a noop
  ASSERT_EQ(hand.size(), 3u);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "PhaseChanged(PlayerPhase->PlayerTurnEnd)",
                  "PhaseChanged(PlayerTurnEnd->EnemyPhase)"),
            seq({
                "PhaseChanged(PlayerPhase->PlayerTurnEnd)",
                "DiscardPhase",                 // 1
                "ArmorGained",                  // 2: discard-phase status behaviour (Steel)
                "CardMoved*2",                  // 3: the Ghost exhausted, the noop discarded, the Keeper kept
                "Healed",                       // 4: player status OnTurnEnd (Mend)
                "StatusExpired",                // 5: per-turn statuses tick (Dazzle)
                "HookExpired",                  // 6: hooks tick (Brief)
                "CostChanged*3",                // 7: cost rules tick (back to the printed costs)
                "DelayedFired", "ArmorGained",  // 8: delayed triggers for PlayerTurnEnd
                "TurnEnded",                    // 9
                "PhaseChanged(PlayerTurnEnd->EnemyPhase)",  // 11: no extra turn pending
            }));
  const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 2u);
  std::size_t m = 0;
  for (CardRef c : hand) {
    const std::string& id = run.def(c).id;
    if (id == "keeper") continue;  // Retain: stays in hand
    EXPECT_EQ(moved[m].subject, c) << id;
    EXPECT_EQ(static_cast<Pile>(moved[m].extra), id == "ghost" ? Pile::Exhaust : Pile::Discard) << id;
    ++m;
  }
  EXPECT_TRUE(run.in_hand("keeper"));
  for (const Event& e : of_type(run.events_since(from), EventType::CostChanged))
    EXPECT_EQ(e.amount, catalog->cards[run.s().cards[e.subject].def].cost);
  EXPECT_EQ(run.s().player.hp, 43);
  const std::vector<Event> ended = of_type(run.events_since(from), EventType::TurnEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].amount, 1);
}

TEST(DeckbuilderRulesTrace, AnExtraTurnComesBeforeTheEnemies) {
  const auto catalog = build({
      .cards = R"({ "id": "haste", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
                    "effects": [{ "op": "extra_turn" }] })",
      .deck = R"({ "card": "haste" }, { "card": "noop", "count": 14 })",
      .foes = R"("brute")",
  });
  Fight run(catalog);
  std::size_t from = run.mark();
  run.play("haste");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ExtraTurnGranted", "CardMoved"}));
  const MoveIndex intent = run.s().enemies[0].intent;
  from = run.mark();
  run.end_turn();
  EXPECT_EQ(run.since(from), seq({
                                 "PhaseChanged(PlayerPhase->PlayerTurnEnd)",
                                 "DiscardPhase",
                                 "CardMoved*4",
                                 "TurnEnded",
                                 "PhaseChanged(PlayerTurnEnd->PlayerTurnStart)",  // 10: the extra turn
                                 "DrawPhase",  // an extra turn draws like any later turn
                                 "CardDrawn*5",
                                 "TurnStarted",
                                 "PhaseChanged(PlayerTurnStart->PlayerPhase)",
                             }));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(trigger_name(static_cast<Trigger>(ev[7].amount)), trigger_name(Trigger::ExtraTurn));
  EXPECT_EQ(of_type(ev, EventType::TurnStarted).at(0).amount, 1);  // the turn number stays
  EXPECT_EQ(run.battle.turn(), 1u);
  EXPECT_EQ(run.s().player.hp, 50);  // the Brute did not act
  EXPECT_EQ(run.s().enemies[0].intent, intent);
  EXPECT_EQ(run.s().extra_turns, 0);
  // The next end of turn goes to the enemies.
  from = run.mark();
  run.end_turn();
  EXPECT_EQ(count(run.events_since(from), EventType::EnemyActed), 1u);
  EXPECT_EQ(run.s().player.hp, 45);
  EXPECT_EQ(run.battle.turn(), 2u);
}

TEST(DeckbuilderRulesTrace, ExtraTurnsCountTowardTheTurnLimit) {
  // A status that grants an extra turn at every turn end: without the limit the enemies never
  // act again and the battle never ends; with a skipped turn too, not even a decision comes.
  for (const char* turn_end :
       {R"([{ "op": "extra_turn" }])", R"([{ "op": "extra_turn" }, { "op": "skip_turns", "amount": 1 }])"}) {
    const auto catalog =
        build({.cards = self_status_card("haste", "hasted"),
               .deck = R"({ "card": "haste" }, { "card": "noop", "count": 14 })",
               .statuses = R"({ "id": "hasted", "timings": { "turn_end": )" + std::string(turn_end) + "} }",
               .rules = R"("turn_limit": 4)"});
    Fight run(catalog);
    run.play("haste");
    for (int i = 0; i < 10 && run.battle.status() == Status::AwaitingDecision; ++i) run.end_turn();
    EXPECT_EQ(run.battle.phase(), Phase::BattleLost) << turn_end;
    EXPECT_EQ(run.s().player_turns, 4u) << turn_end;
    EXPECT_EQ(run.battle.turn(), 1u) << "the enemies never had a turn: " << turn_end;
    EXPECT_TRUE(run.s().player.alive());
    const auto& h = run.battle.history();
    ASSERT_FALSE(h.empty());
    EXPECT_EQ(h.back().from, Phase::PlayerTurnEnd);
    EXPECT_EQ(h.back().trigger, Trigger::Defeat);
  }
}

TEST(DeckbuilderRulesTrace, EnemyPhaseRunsEachEnemysStepsThenTheIntents) {
  const auto catalog = build({
      .cards = R"(
        { "id": "bomb", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "delayed", "timing": "enemy_phase_end",
                        "effects": [{ "op": "damage", "amount": 2, "target": "all_enemies" }] }] },
        { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
          "effects": [{ "op": "damage", "amount": 6 }] })",
      .deck = R"({ "card": "bomb" }, { "card": "zap" }, { "card": "noop", "count": 8 })",
      .statuses = R"(
        { "id": "smolder", "timings": { "turn_start": [{ "op": "lose_hp", "amount": 1, "target": "self" }] } },
        { "id": "glower", "timings": { "turn_end": [{ "op": "armor", "amount": 1, "target": "self" }] } },
        { "id": "haze", "decay": "owner_turn_end" },
        { "id": "stun", "decay": "owner_turn_end", "skips_turn": true })",
      .hooks = R"({ "id": "jinx", "kind": "refuse_play", "card_type": "curse", "duration": 1 })",
      .enemies = R"(
        { "id": "warder", "hp": 30, "statuses": [{ "status": "smolder", "amount": 1 }, { "status": "glower", "amount": 1 }],
          "moves": [{ "id": "brace_up", "intent": "buff_defend",
                      "effects": [{ "op": "armor", "amount": 4 },
                                  { "op": "apply_status", "status": "haze", "amount": 1, "target": "self" },
                                  { "op": "hook", "hook": "jinx" }] }],
          "behavior": { "kind": "sequence", "moves": ["brace_up"] } },
        { "id": "sleeper", "hp": 30, "statuses": [{ "status": "stun", "amount": 1 }],
          "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 5 }] }],
          "behavior": { "kind": "sequence", "moves": ["hit"] } })",
      .foes = R"("warder", "sleeper", "wisp")",
  });
  Fight run(catalog);
  std::vector<std::pair<EventType, bool>> owned;  // player_owned as the events are delivered
  run.recorder.probe = [&](const Event& e) {
    if (e.type == EventType::EnemyTurnStarted || e.type == EventType::TurnStarted)
      owned.emplace_back(e.type, run.battle.state().player_owned);
  };
  run.play("zap", 2);  // the Wisp dies: it takes no turn and gets no intent
  run.play("bomb");
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "PhaseChanged(PlayerTurnEnd->EnemyPhase)",
                  "PhaseChanged(EnemyPhase->PlayerTurnStart)"),
            seq({
                "PhaseChanged(PlayerTurnEnd->EnemyPhase)",
                "EnemyTurnStarted",
                // the Warder: armor decay (no event), start-turn statuses, its move, end-turn
                // statuses, its per-turn statuses and hooks tick
                "HpLost",
                "EnemyActed",
                "ArmorGained",
                "StatusApplied",
                "HookRegistered",
                "ArmorGained",
                "StatusExpired",
                "HookExpired",
                // the Sleeper: stunned, it makes no move; its Stun ticks away
                "StatusExpired",
                // delayed triggers for EnemyPhaseEnd
                "DelayedFired",
                "DamageDealt",
                "DamageDealt",
                // the intents for the next player turn, alive enemies only
                "EnemyIntent*2",
                "PhaseChanged(EnemyPhase->PlayerTurnStart)",
            }));
  const std::vector<Event> ev = run.events_since(from);
  const std::vector<Event> intents = of_type(ev, EventType::EnemyIntent);
  EXPECT_EQ(intents.at(0).source, enemy_unit(0));
  EXPECT_EQ(intents.at(1).source, enemy_unit(1));
  EXPECT_EQ(of_type(ev, EventType::HookRegistered).at(0).target, enemy_unit(0));
  EXPECT_EQ(of_type(ev, EventType::HookExpired).at(0).target, enemy_unit(0));
  EXPECT_EQ(of_type(ev, EventType::StatusExpired).at(1).target, enemy_unit(1));
  EXPECT_EQ(of_type(ev, EventType::EnemyTurnStarted).at(0).amount, 1);
  EXPECT_EQ(of_type(ev, EventType::TurnStarted).at(0).amount, 2);  // TurnNumber + 1
  EXPECT_EQ(run.battle.turn(), 2u);
  EXPECT_EQ(run.s().player.hp, 50);             // the Sleeper did not hit
  EXPECT_EQ(run.s().enemies[0].unit.armor, 3);  // 4 + 1, then 2 absorbed from the bomb
  EXPECT_EQ(run.s().enemies[0].unit.hp, 29);    // Smolder
  EXPECT_EQ(run.s().enemies[1].unit.hp, 28);    // the bomb
  EXPECT_EQ(owned, (std::vector<std::pair<EventType, bool>>{{EventType::EnemyTurnStarted, false},
                                                            {EventType::TurnStarted, true}}));
  run.recorder.probe = nullptr;
  // Turn 2: the Sleeper acts; the Warder's armor was reset before its move (5, not 3 + 5).
  run.end_turn();
  EXPECT_EQ(run.s().player.hp, 45);
  EXPECT_EQ(run.s().enemies[0].unit.armor, 5);
}

// An enemy's armor decays (step 4) before its start-turn statuses run (step 5): the armor they
// give lasts through its move and the player's next turn, and is not added to the last turn's.
TEST(DeckbuilderRulesTrace, AnEnemysArmorDecaysBeforeItsStartTurnStatuses) {
  const auto catalog = foe_with_status("turtle", 30, "bulwark",
                                       R"("turn_start": [{ "op": "armor", "amount": 6, "target": "self" }])");
  Fight run(catalog);
  EXPECT_EQ(run.s().enemies[0].unit.armor, 0);
  run.end_turn();
  EXPECT_EQ(run.s().enemies[0].unit.armor, 6);
  run.end_turn();
  EXPECT_EQ(run.s().enemies[0].unit.armor, 6);
}

TEST(DeckbuilderRulesTrace, ASkippedTurnGoesFromTurnStartToTurnEnd) {
  const auto catalog = build({
      .cards = R"({ "id": "nap", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
                    "effects": [{ "op": "skip_turns", "amount": 1 }] })",
      .deck = R"({ "card": "nap" }, { "card": "noop", "count": 14 })",
      .foes = R"("brute")",
      .rules = R"("draw_per_turn": 2)",
  });
  Fight run(catalog);
  run.play("nap");
  EXPECT_EQ(run.s().skipped_turns, 1);
  const std::size_t from = run.mark();
  run.end_turn();  // runs turn 2 through, skipped, to turn 3's PlayerPhase
  const std::vector<std::string> trace = run.since(from);
  EXPECT_EQ(
      slice(trace, "PhaseChanged(EnemyPhase->PlayerTurnStart)", "PhaseChanged(PlayerTurnEnd->EnemyPhase)"),
      seq({
          "PhaseChanged(EnemyPhase->PlayerTurnStart)",
          "DrawPhase",
          "CardDrawn*2",
          "TurnStarted",
          "TurnSkipped",  // pending skipped turns: skip to player turn end
          "PhaseChanged(PlayerTurnStart->PlayerTurnEnd)",
          "DiscardPhase",
          "CardMoved*2",
          "TurnEnded",
          "PhaseChanged(PlayerTurnEnd->EnemyPhase)",
      }));
  const std::vector<Event> ev = run.events_since(from);
  const auto skipped =
      std::find_if(ev.begin(), ev.end(), [](const Event& e) { return e.type == EventType::TurnSkipped; });
  ASSERT_NE(skipped, ev.end());
  EXPECT_EQ(skipped->amount, 2);
  EXPECT_EQ(trigger_name(static_cast<Trigger>((skipped + 1)->amount)), trigger_name(Trigger::TurnSkipped));
  EXPECT_EQ(count(ev, EventType::EnemyActed), 2u);  // the enemies acted after turns 1 and 2
  EXPECT_EQ(run.battle.turn(), 3u);
  EXPECT_EQ(run.battle.phase(), Phase::PlayerPhase);
  EXPECT_EQ(run.s().skipped_turns, 0);
  EXPECT_EQ(run.s().player.hp, 40);
}

// =============================================================================================
// Choice and reward waits
// =============================================================================================

constexpr std::string_view kChoiceCards = R"(
  { "id": "tactic", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate"],
    "effects": [{ "op": "armor", "amount": 1 },
                { "op": "choice", "options": [{ "label": "Wall", "effects": [{ "op": "armor", "amount": 5 }] },
                                              { "label": "Draw", "effects": [{ "op": "draw", "amount": 1 }] }] },
                { "op": "armor", "amount": 2 }] },
  { "id": "scout", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
    "effects": [{ "op": "choice", "skippable": true,
                  "options": [{ "label": "A", "effects": [{ "op": "armor", "amount": 5 }] },
                              { "label": "B", "effects": [{ "op": "armor", "amount": 9 }] }] },
                { "op": "armor", "amount": 1 }] })";

std::shared_ptr<const Catalog> choice_pack() {
  return build({.cards = std::string(kChoiceCards),
                .deck = R"({ "card": "tactic" }, { "card": "scout" }, { "card": "noop", "count": 8 })"});
}

TEST(DeckbuilderRulesChoice, AChoicePausesThePlayAndRefusesEverythingElse) {
  Fight run(choice_pack());
  const CardRef tactic = run.card("tactic");
  std::size_t from = run.mark();
  run.play("tactic");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ArmorGained", "ChoiceOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 2);
  EXPECT_EQ(run.recorder.events.back().extra, static_cast<std::int32_t>(PendingChoice::Kind::Options));
  Battle& b = run.battle;
  EXPECT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(b.status(), Status::AwaitingDecision);
  EXPECT_EQ(b.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1)}));
  EXPECT_EQ(b.can_play_card(run.card("scout")), PlayCheck::WrongPhase);
  EXPECT_EQ(run.s().energy, 2);  // spent once, at step 1
  // Waiting: only the Choice's own options are accepted, and a refusal changes nothing.
  expect_refused(b, Action::end_turn(), RefusalReason::WaitingForChoice);
  expect_refused(b, Action::play(run.card("scout")), RefusalReason::WaitingForChoice);
  expect_refused(b, Action::take_reward(0), RefusalReason::WaitingForChoice);
  expect_refused(b, Action::skip_reward(), RefusalReason::WaitingForChoice);
  expect_refused(b, Action::skip_choice(), RefusalReason::InvalidOption);  // not skippable
  expect_refused(b, Action::choose(2), RefusalReason::InvalidOption);
  // Picking resumes the effect where it paused, then finishes the play.
  from = run.mark();
  run.act(Action::choose(0));
  EXPECT_EQ(run.since(from), seq({"ChoiceMade", "ArmorGained", "ArmorGained", "CardMoved"}));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(ev[0].amount, 0);
  EXPECT_EQ(ev[1].amount, 5);
  EXPECT_EQ(ev[2].amount, 2);
  EXPECT_EQ(ev[3].subject, tactic);
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(run.s().player.armor, 8);
  EXPECT_EQ(run.s().energy, 2);
  EXPECT_TRUE(run.s().effects.empty());
  EXPECT_EQ(b.actions().back(), Action::choose(0));
}

TEST(DeckbuilderRulesChoice, ASkippableChoiceCanBeSkipped) {
  Fight run(choice_pack());
  run.play("scout");
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.battle.decision().options,
            (std::vector<Action>{Action::choose(0), Action::choose(1), Action::skip_choice()}));
  const std::size_t from = run.mark();
  run.act(Action::skip_choice());
  EXPECT_EQ(run.since(from), seq({"ChoiceMade", "ArmorGained", "CardMoved"}));
  EXPECT_EQ(run.events_since(from)[0].amount, -1);
  EXPECT_EQ(run.s().player.armor, 1);  // no option ran; the rest of the card did
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
}

TEST(DeckbuilderRulesChoice, ABattleWaitingOnAChoiceClonesAndHashesEqual) {
  Fight run(choice_pack());
  run.play("tactic");
  Battle clone = run.battle;
  EXPECT_TRUE(clone.state() == run.battle.state());
  EXPECT_EQ(clone.state_hash(), run.battle.state_hash());
  EXPECT_TRUE(clone.is_waiting_for_choice());
  ASSERT_TRUE(clone.submit(Action::choose(1)).ok());
  run.act(Action::choose(1));
  EXPECT_TRUE(clone.state() == run.battle.state());
  EXPECT_EQ(clone.state_hash(), run.battle.state_hash());
  EXPECT_EQ(run.s().hand().size(), 5u);  // Tactic left, one card drawn
}

std::shared_ptr<const Catalog> reward_pack() {
  return build(
      {.cards = R"({ "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
                              "effects": [{ "op": "damage", "amount": 6 }] })",
       .deck = R"({ "card": "zap" }, { "card": "noop", "count": 9 })",
       .foes = R"("wisp")",
       .reward = R"("cards": ["jab", "guard", "noop"], "choices": 2)"});
}

TEST(DeckbuilderRulesReward, AWonBattleOffersARewardAndWaits) {
  Fight run(reward_pack());
  Battle& b = run.battle;
  const std::size_t from = run.mark();
  run.play("zap", 0);
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "UnitDied", "CardMoved",
                                  "PhaseChanged(PlayerPhase->BattleWon)", "BattleRewardOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 2);
  EXPECT_TRUE(b.is_waiting_for_reward());
  EXPECT_TRUE(b.is_battle_over());
  EXPECT_FALSE(b.is_battle_active());
  EXPECT_EQ(b.status(), Status::AwaitingDecision);
  ASSERT_EQ(run.s().reward_options.size(), 2u);
  EXPECT_NE(run.s().reward_options[0], run.s().reward_options[1]);
  for (CardId c : run.s().reward_options) {
    const std::string& id = b.catalog().cards[c].id;
    EXPECT_TRUE(id == "jab" || id == "guard" || id == "noop") << id;
  }
  EXPECT_EQ(b.decision().options,
            (std::vector<Action>{Action::take_reward(0), Action::take_reward(1), Action::skip_reward()}));
  expect_refused(b, Action::end_turn(), RefusalReason::WaitingForReward);
  expect_refused(b, Action::play(run.s().hand()[0]), RefusalReason::WaitingForReward);
  expect_refused(b, Action::choose(0), RefusalReason::WaitingForReward);
  expect_refused(b, Action::skip_choice(), RefusalReason::WaitingForReward);
  expect_refused(b, Action::take_reward(2), RefusalReason::InvalidOption);
}

TEST(DeckbuilderRulesReward, TakingARewardSelectsItThenEndsTheBattleWon) {
  Fight run(reward_pack());
  run.play("zap", 0);
  const CardId second = run.s().reward_options[1];
  const std::size_t from = run.mark();
  run.act(Action::take_reward(1));
  EXPECT_EQ(run.since(from), seq({"BattleRewardSelected", "BattleEnded"}));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(ev[0].value, second);
  EXPECT_EQ(ev[1].amount, 1);
  EXPECT_EQ(run.s().reward_taken, second);
  EXPECT_FALSE(run.battle.is_waiting_for_reward());
  EXPECT_EQ(run.battle.status(), Status::Finished);
  EXPECT_EQ(run.battle.phase(), Phase::BattleWon);
  expect_refused(run.battle, Action::take_reward(0), RefusalReason::BattleOver);
  expect_refused(run.battle, Action::skip_reward(), RefusalReason::BattleOver);
}

// The guide's won battle with a reward: battle-end behaviour (step 1) before the candidates are
// offered (steps 2 and 3), then the wait (step 4), the choice (step 5) and BattleEnded (step 6).
TEST(DeckbuilderRulesReward, BattleEndBehaviourRunsBeforeTheRewardIsOffered) {
  Spec spec = won_with_afterglow(R"({ "op": "heal", "amount": 5, "target": "self" })");
  spec.reward = R"("cards": ["jab", "guard", "noop"], "choices": 2)";
  const auto catalog = build(spec);
  Fight run(catalog);
  run.play("glow");
  std::size_t from = run.mark();
  run.play("zap", 0);
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "UnitDied", "CardMoved",
                                  "PhaseChanged(PlayerPhase->BattleWon)", "Healed", "BattleRewardOffered"}));
  EXPECT_EQ(run.s().player.hp, 45);
  EXPECT_TRUE(run.battle.is_waiting_for_reward());
  from = run.mark();
  run.act(Action::skip_reward());
  EXPECT_EQ(run.since(from), seq({"BattleRewardSkipped", "BattleEnded"}));
}

// The guide's battle end waits for the reward, then raises BattleEnded: no battle starts before.
TEST(DeckbuilderRulesReward, NoBattleStartsWhileARewardWaits) {
  Fight run(reward_pack());
  run.play("zap", 0);
  ASSERT_TRUE(run.battle.is_waiting_for_reward());
  const std::uint64_t hash = run.battle.state_hash();
  const std::size_t logged = run.battle.events().log().size();
  const Result<Status> again = run.battle.start_battle(run.battle.state().encounter, 9);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("waits for its reward"), std::string::npos) << again.error().message;
  EXPECT_EQ(run.battle.state_hash(), hash);
  EXPECT_EQ(run.battle.events().log().size(), logged);
  run.act(Action::skip_reward());
  EXPECT_TRUE(run.battle.start_battle(run.battle.state().encounter, 9).ok());
}

TEST(DeckbuilderRulesReward, SkippingARewardEndsTheBattleWonWithoutOne) {
  Fight run(reward_pack());
  run.play("zap", 0);
  const std::size_t from = run.mark();
  run.act(Action::skip_reward());
  EXPECT_EQ(run.since(from), seq({"BattleRewardSkipped", "BattleEnded"}));
  EXPECT_EQ(run.recorder.events.back().amount, 1);
  EXPECT_EQ(run.s().reward_taken, -1);
  EXPECT_EQ(run.battle.status(), Status::Finished);
  expect_refused(run.battle, Action::end_turn(), RefusalReason::BattleOver);
}

TEST(DeckbuilderRulesReward, ALostBattleOffersNoReward) {
  const auto catalog =
      build({.foes = R"("brute")", .reward = R"("cards": ["jab"])", .player = R"("max_hp": 50, "hp": 5)"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(run.since(from).back(), "BattleEnded");
  EXPECT_EQ(run.recorder.events.back().amount, 0);
  EXPECT_EQ(count(run.events_since(from), EventType::BattleRewardOffered), 0u);
  EXPECT_EQ(run.battle.phase(), Phase::BattleLost);
  EXPECT_FALSE(run.battle.is_waiting_for_reward());
  EXPECT_EQ(run.battle.status(), Status::Finished);
}

// =============================================================================================
// Refused commands
// =============================================================================================

TEST(DeckbuilderRulesRefusal, EveryRefusedCommandChangesNothingInEveryState) {
  // No battle.
  Battle none(choice_pack());
  for (const Action& a : {Action::end_turn(), Action::play(0), Action::choose(0), Action::skip_choice(),
                          Action::take_reward(0), Action::skip_reward()})
    expect_refused(none, a, RefusalReason::NoBattle);
  // PlayerPhase: the waits' actions are not this decision's; bad targets; bad cards.
  Fight run(choice_pack());
  Battle& b = run.battle;
  for (const Action& a :
       {Action::choose(0), Action::skip_choice(), Action::take_reward(0), Action::skip_reward()})
    expect_refused(b, a, RefusalReason::NotYourDecision);
  expect_refused(b, Action::play(run.card("tactic"), 0), RefusalReason::InvalidTarget);
  expect_refused(b, Action::play(run.card("tactic"), -2), RefusalReason::InvalidTarget);
  expect_refused(b, Action::play(kNoCard), RefusalReason::CannotPlayCard, PlayCheck::NullCard);
  expect_refused(b, Action::play(run.s().draw_pile()[0]), RefusalReason::CannotPlayCard,
                 PlayCheck::NotInHand);
  // A Choice and a reward: see the Choice and reward tests. Over: everything.
  Fight won(reward_pack());
  won.play("zap", 0);
  won.act(Action::skip_reward());
  for (const Action& a : {Action::end_turn(), Action::play(0), Action::choose(0), Action::skip_choice(),
                          Action::take_reward(0), Action::skip_reward()})
    expect_refused(won.battle, a, RefusalReason::BattleOver);
}

// =============================================================================================
// Why a card cannot be played: one test per PlayCheck
// =============================================================================================

TEST(DeckbuilderRulesPlayCheck, WrongPhaseOutsidePlayerPhaseAndDuringAChoice) {
  Battle before(choice_pack());
  EXPECT_EQ(before.can_play_card(0), PlayCheck::WrongPhase);
  Fight run(choice_pack());
  const CardRef scout = run.card("scout");
  EXPECT_EQ(run.battle.can_play_card(scout), PlayCheck::Ok);
  run.play("tactic");
  EXPECT_EQ(run.battle.can_play_card(scout), PlayCheck::WrongPhase);
  run.act(Action::choose(0));
  EXPECT_EQ(run.battle.can_play_card(scout), PlayCheck::Ok);
  Fight won(reward_pack());
  const CardRef card = won.s().hand()[1];
  won.play("zap", 0);
  EXPECT_EQ(won.battle.can_play_card(card), PlayCheck::WrongPhase);  // BattleWon, waiting for the reward
}

TEST(DeckbuilderRulesPlayCheck, NullCardForNoSuchInstance) {
  Fight run(choice_pack());
  const auto past_end = static_cast<CardRef>(run.s().cards.size());
  EXPECT_EQ(run.battle.can_play_card(past_end), PlayCheck::NullCard);
  expect_refused(run.battle, Action::play(past_end), RefusalReason::CannotPlayCard, PlayCheck::NullCard);
}

TEST(DeckbuilderRulesPlayCheck, MissingPlayerOnlyThroughTheInternals) {
  // Unreachable through the public API: the player is built from content (max_hp >= 1) and no
  // rule lowers max HP. Checked through Battle::Access so the check itself is covered.
  Fight run(choice_pack());
  const CardRef scout = run.card("scout");
  Battle::Access::of(run.battle).s.player.max_hp = 0;
  EXPECT_EQ(run.battle.can_play_card(scout), PlayCheck::MissingPlayer);
  expect_refused(run.battle, Action::play(scout), RefusalReason::CannotPlayCard, PlayCheck::MissingPlayer);
}

// The most options a decision of plays can have: a full hand (12 jabs, each affordable) at five
// enemies alive, one play per card and enemy in hand order, then End turn. (kMaxOptions holds
// more: a choice of discard pile cards offers up to every card of the battle but one.)
TEST(DeckbuilderRulesDecision, TheLargestDecisionFillsTheOptionsList) {
  Battle b(build(Spec{.deck = R"({ "card": "jab", "count": 12 })",
                      .foes = R"("dummy", "dummy", "dummy", "dummy", "dummy")",
                      .rules = R"("opening_hand": 12, "hand_limit": 12)"}));
  ASSERT_TRUE(b.start_battle("e", 1).ok());
  ASSERT_EQ(b.state().hand().size(), kMaxHand);
  const auto all_plays = [&] {
    std::vector<Action> out;
    for (CardRef card : b.state().hand())
      for (std::size_t e = 0; e < kMaxEnemies; ++e)
        out.push_back(Action::play(card, static_cast<std::int8_t>(e)));
    out.push_back(Action::end_turn());
    return out;
  };
  constexpr std::size_t kMostPlays = kMaxHand * kMaxEnemies + 1;
  static_assert(kMostPlays <= kMaxOptions);
  Options listed;
  b.legal_actions(listed);
  ASSERT_EQ(listed.size(), kMostPlays);
  EXPECT_EQ(std::vector<Action>(listed.begin(), listed.end()), all_plays());
  // Listed again into a list that held more, the count is the new one.
  ASSERT_TRUE(b.submit(listed[0]).ok());
  b.legal_actions(listed);
  EXPECT_EQ(listed.size(), kMostPlays - kMaxEnemies);
  EXPECT_EQ(std::vector<Action>(listed.begin(), listed.end()), all_plays());
  EXPECT_EQ(std::vector<Action>(listed.begin(), listed.end()), b.decision().options);
}

TEST(DeckbuilderRulesPlayCheck, NotInHandForEveryOtherPile) {
  const auto catalog = build({.cards = R"(
      { "id": "spent", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "exhaust"], "effects": [] })",
                              .deck = R"({ "card": "spent" }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  const CardRef spent = run.card("spent");
  const CardRef noop = run.card("noop");
  run.play("spent");
  run.act(Action::play(noop));
  ASSERT_EQ(run.s().exhaust_pile().size(), 1u);
  ASSERT_EQ(run.s().discard_pile().size(), 1u);
  for (CardRef c : {run.s().draw_pile()[0], noop, spent}) {
    EXPECT_EQ(run.battle.can_play_card(c), PlayCheck::NotInHand);
    expect_refused(run.battle, Action::play(c), RefusalReason::CannotPlayCard, PlayCheck::NotInHand);
  }
}

TEST(DeckbuilderRulesPlayCheck, NoActiveDefinitionOnlyThroughTheInternals) {
  // Unreachable through the public API: every instance is made from a card of the catalog, which
  // never changes. Checked through Battle::Access with an instance whose definition is gone.
  Fight run(choice_pack());
  const CardRef scout = run.card("scout");
  Battle::Access::of(run.battle).s.cards[scout].def = static_cast<CardId>(run.battle.catalog().cards.size());
  EXPECT_EQ(run.battle.active_card(scout), nullptr);
  EXPECT_EQ(run.battle.can_play_card(scout), PlayCheck::NoActiveDefinition);
  expect_refused(run.battle, Action::play(scout), RefusalReason::CannotPlayCard,
                 PlayCheck::NoActiveDefinition);
}

TEST(DeckbuilderRulesPlayCheck, CannotPayCostIncludingAfterACostRuleRaisesIt) {
  const auto catalog =
      build({.cards = R"(
      { "id": "tax", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "cost_rule", "scope": "hand", "change": 3 }] },
      { "id": "boulder", "type": "skill", "cost": 4, "target": "none", "keywords": ["innate"], "effects": [] })",
             .deck = R"({ "card": "tax" }, { "card": "boulder" }, { "card": "jab", "count": 8 })"});
  Fight run(catalog);
  const CardRef boulder = run.card("boulder");
  const CardRef jab = run.card("jab");
  EXPECT_EQ(run.battle.can_play_card(boulder), PlayCheck::CannotPayCost);  // 4 > 3
  expect_refused(run.battle, Action::play(boulder), RefusalReason::CannotPlayCard, PlayCheck::CannotPayCost);
  EXPECT_EQ(run.battle.can_play_card(jab), PlayCheck::Ok);
  const std::size_t from = run.mark();
  run.play("tax");
  const std::vector<Event> changed = of_type(run.events_since(from), EventType::CostChanged);
  EXPECT_EQ(changed.size(), 4u);  // every card in hand but Tax
  EXPECT_EQ(run.battle.effective_cost(jab), 4);
  EXPECT_EQ(run.battle.effective_cost(boulder), 7);
  EXPECT_EQ(run.battle.can_play_card(jab), PlayCheck::CannotPayCost);
  expect_refused(run.battle, Action::play(jab, 0), RefusalReason::CannotPlayCard, PlayCheck::CannotPayCost);
  EXPECT_EQ(run.battle.decision().options, std::vector<Action>{Action::end_turn()});
}

constexpr std::string_view kHookCards = R"(
  { "id": "vow", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "hush" }] },
  { "id": "truce", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "calm" }] },
  { "id": "ward", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate"], "effects": [{ "op": "armor", "amount": 5 }] },
  { "id": "husk", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "unplayable"], "effects": [] },
  { "id": "heavy", "type": "skill", "cost": 9, "target": "none", "keywords": ["innate"], "effects": [] },
  { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 6 }] },
  { "id": "dud", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate", "unplayable"], "effects": [] })";
constexpr std::string_view kHooks = R"(
  { "id": "hush", "kind": "cancel_play", "card_type": "skill" },
  { "id": "calm", "kind": "refuse_play", "card_type": "attack" })";

TEST(DeckbuilderRulesPlayCheck, CancelledByOnPlayHookComesAfterTheCostAndBeforeUnplayable) {
  const auto catalog =
      build({.cards = std::string(kHookCards),
             .deck = R"({ "card": "vow" }, { "card": "ward" }, { "card": "husk" }, { "card": "heavy" },
                                        { "card": "zap" }, { "card": "noop", "count": 5 })",
             .hooks = std::string(kHooks)});
  Fight run(catalog);
  Battle& b = run.battle;
  const CardRef ward = run.card("ward"), husk = run.card("husk"), heavy = run.card("heavy"),
                zap = run.card("zap");
  EXPECT_EQ(b.can_play_card(ward), PlayCheck::Ok);
  EXPECT_EQ(b.can_play_card(husk), PlayCheck::Unplayable);
  EXPECT_EQ(b.can_play_card(heavy), PlayCheck::CannotPayCost);
  run.play("vow");  // registers Hush: skills are cancelled
  EXPECT_EQ(b.can_play_card(ward), PlayCheck::CancelledByOnPlayHook);
  EXPECT_EQ(b.can_play_card(husk), PlayCheck::CancelledByOnPlayHook);  // checked before Unplayable
  EXPECT_EQ(b.can_play_card(heavy), PlayCheck::CannotPayCost);         // checked after the cost
  EXPECT_EQ(b.can_play_card(zap), PlayCheck::Ok);                      // attacks are not skills
  expect_refused(b, Action::play(ward), RefusalReason::CannotPlayCard, PlayCheck::CancelledByOnPlayHook);
  for (const Action& a : b.decision().options) EXPECT_NE(a.card, ward);
}

TEST(DeckbuilderRulesPlayCheck, UnplayableCardsAreNeverPlayable) {
  const auto catalog =
      build({.cards = std::string(kHookCards),
             .deck = R"({ "card": "husk" }, { "card": "dud" }, { "card": "noop", "count": 8 })",
             .hooks = std::string(kHooks)});
  Fight run(catalog);
  const CardRef husk = run.card("husk"), dud = run.card("dud");
  EXPECT_EQ(run.battle.can_play_card(husk), PlayCheck::Unplayable);
  EXPECT_EQ(run.battle.can_play_card(dud), PlayCheck::Unplayable);
  expect_refused(run.battle, Action::play(husk), RefusalReason::CannotPlayCard, PlayCheck::Unplayable);
  expect_refused(run.battle, Action::play(dud, 0), RefusalReason::CannotPlayCard, PlayCheck::Unplayable);
  for (const Action& a : run.battle.decision().options) {
    EXPECT_NE(a.card, husk);
    EXPECT_NE(a.card, dud);
  }
  // At the turn end an unplayable card is discarded like any other.
  run.end_turn();
  EXPECT_EQ(std::count(run.s().discard_pile().begin(), run.s().discard_pile().end(), husk), 1);
}

TEST(DeckbuilderRulesPlayCheck, RefusedByPlayableHookComesAfterUnplayable) {
  const auto catalog =
      build({.cards = std::string(kHookCards),
             .deck = R"({ "card": "truce" }, { "card": "zap" }, { "card": "dud" }, { "card": "ward" },
                                        { "card": "noop", "count": 6 })",
             .hooks = std::string(kHooks)});
  Fight run(catalog);
  Battle& b = run.battle;
  const CardRef zap = run.card("zap"), dud = run.card("dud"), ward = run.card("ward");
  EXPECT_EQ(b.can_play_card(zap), PlayCheck::Ok);
  run.play("truce");  // registers Calm: attacks are refused
  EXPECT_EQ(b.can_play_card(zap), PlayCheck::RefusedByPlayableHook);
  EXPECT_EQ(b.can_play_card(dud), PlayCheck::Unplayable);  // checked before the playable hook
  EXPECT_EQ(b.can_play_card(ward), PlayCheck::Ok);
  expect_refused(b, Action::play(zap, 0), RefusalReason::CannotPlayCard, PlayCheck::RefusedByPlayableHook);
}

// A hook's card_type may list several types: the hook takes a card of any of them.
TEST(DeckbuilderRulesPlayCheck, AHookWithSeveralCardTypesTakesCardsOfEachOfThem) {
  const auto catalog =
      build({.cards = std::string(kHookCards) + R"(,
      { "id": "pact", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "bind" }] })",
             .deck = R"({ "card": "pact" }, { "card": "zap" }, { "card": "vow" }, { "card": "ward" },
                                        { "card": "noop", "count": 6 })",
             .hooks = std::string(kHooks) +
                      R"(, { "id": "bind", "kind": "refuse_play", "card_type": ["power", "attack"] })"});
  EXPECT_EQ(catalog->hooks.back().card_type,
            card_filter_of(CardType::Attack) | card_filter_of(CardType::Power));
  Fight run(catalog);
  Battle& b = run.battle;
  const CardRef zap = run.card("zap"), vow = run.card("vow"), ward = run.card("ward");
  run.play("pact");  // registers Bind: attacks and powers are refused
  EXPECT_EQ(b.can_play_card(zap), PlayCheck::RefusedByPlayableHook);
  EXPECT_EQ(b.can_play_card(vow), PlayCheck::RefusedByPlayableHook);
  EXPECT_EQ(b.can_play_card(ward), PlayCheck::Ok);
}

// The turn's record of plays holds kMaxCards: a loop of free cards that draw stops there, after
// the guide's own checks, and a new turn starts a new record.
TEST(DeckbuilderRulesPlayCheck, TheTurnPlayLimitComesAfterTheSeedsChecksAndLeavesEndTurn) {
  const auto catalog = build({.cards = R"(
      { "id": "flow", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "draw", "amount": 1 }] },
      { "id": "heavy", "type": "skill", "cost": 9, "target": "none", "keywords": ["innate"], "effects": [] })",
                              .deck = R"({ "card": "heavy" }, { "card": "flow", "count": 9 })"});
  Fight run(catalog);
  for (std::size_t i = 0; i < kMaxCards; ++i) {
    ASSERT_EQ(run.battle.can_play_card(run.card("flow")), PlayCheck::Ok) << "play " << i;
    run.play("flow");
  }
  EXPECT_EQ(run.s().played_this_turn.size(), kMaxCards);
  const CardRef flow = run.card("flow");
  EXPECT_EQ(run.battle.can_play_card(flow), PlayCheck::TurnPlayLimit);
  EXPECT_EQ(run.battle.can_play_card(run.card("heavy")), PlayCheck::CannotPayCost);  // the guide's first
  EXPECT_EQ(run.battle.decision().options, std::vector<Action>{Action::end_turn()});
  expect_refused(run.battle, Action::play(flow), RefusalReason::CannotPlayCard, PlayCheck::TurnPlayLimit);
  // A snapshot holds the full record: the restored battle is at the limit too.
  const auto restored = restore(catalog, snapshot(run.battle));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state_hash(), run.battle.state_hash());
  EXPECT_EQ(restored.value().can_play_card(flow), PlayCheck::TurnPlayLimit);
  EXPECT_EQ(restored.value().decision().options, std::vector<Action>{Action::end_turn()});
  run.end_turn();
  EXPECT_TRUE(run.s().played_this_turn.empty());
  EXPECT_EQ(run.battle.can_play_card(run.card("flow")), PlayCheck::Ok);
  EXPECT_EQ(run.battle.decision().options.front().kind, ActionKind::PlayCard);
}

// Seed play step 3: the target falls back to the first alive enemy for every card, so a skill's
// CardPlayed names it and an on_card_played hook's `chosen` op hits it.
TEST(DeckbuilderRulesPlay, ACardPlayedWithoutATargetAimsAtTheFirstAliveEnemy) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "fury", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "fury" }] })",
       .deck = R"({ "card": "fury" }, { "card": "noop", "count": 9 })",
       .hooks = R"({ "id": "fury", "kind": "on_card_played", "effects": [{ "op": "damage", "amount": 3 }] })",
       .foes = R"("wisp", "dummy", "dummy")"});
  Fight run(catalog);
  std::size_t from = run.mark();
  // The hook op registers Fury within the card's effects, so it fires for Fury itself, at the
  // Wisp: the first alive enemy.
  run.play("fury");
  std::vector<Event> played = of_type(run.events_since(from), EventType::CardPlayed);
  ASSERT_EQ(played.size(), 1u);
  EXPECT_EQ(played[0].target, enemy_unit(0));
  EXPECT_EQ(run.s().enemies[0].unit.hp, 0);
  from = run.mark();
  run.play("noop");
  played = of_type(run.events_since(from), EventType::CardPlayed);
  ASSERT_EQ(played.size(), 1u);
  EXPECT_EQ(played[0].target, enemy_unit(1));  // the Wisp is dead: the next alive enemy
  EXPECT_EQ(run.s().enemies[1].unit.hp, 97);
  EXPECT_EQ(run.s().enemies[2].unit.hp, 100);
}

TEST(DeckbuilderRulesPlay, DamageStatsCountHitsOnTheOtherSideOnly) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "cut", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 6 }] },
      { "id": "self_hit", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 3, "target": "self" }] },
      { "id": "shield", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "armor", "amount": 4 }] })",
       .deck =
           R"({ "card": "cut" }, { "card": "self_hit" }, { "card": "shield" }, { "card": "noop", "count": 7 })",
       .foes = R"("dummy", "brute")"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.play("cut", 1);  // the player hits the brute: counted for the player
  const Battle clone = run.battle;
  run.play("self_hit");  // the player hits itself: a DamageDealt, not counted
  run.play("shield");
  run.end_turn();  // the brute hits for 5: 4 into the armor, 1 HP, counted for the brute
  const std::vector<Event> hits = of_type(run.events_since(from), EventType::DamageDealt);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[1].source, kPlayerUnit);
  EXPECT_EQ(hits[1].target, kPlayerUnit);
  EXPECT_EQ(run.s().player.hp, 50 - 3 - 1);
  DamageStats expected;
  expected.hp[kPlayerUnit] = 6;
  expected.hp[static_cast<std::size_t>(enemy_unit(1))] = 1;
  expected.armor[static_cast<std::size_t>(enemy_unit(1))] = 4;
  EXPECT_TRUE(run.battle.damage_stats() == expected)
      << "player " << run.battle.damage_stats().hp[0] << "/" << run.battle.damage_stats().armor[0]
      << ", brute " << run.battle.damage_stats().hp[2] << "/" << run.battle.damage_stats().armor[2];
  // A clone carries the stats; the original's later hits leave the clone's as they were.
  DamageStats at_clone;
  at_clone.hp[kPlayerUnit] = 6;
  EXPECT_TRUE(clone.damage_stats() == at_clone);
}

// =============================================================================================
// Keywords
// =============================================================================================

TEST(DeckbuilderRulesKeyword, InnateCardsAreInTheOpeningHand) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "spark", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [] },
      { "id": "plain", "type": "skill", "cost": 0, "target": "none", "effects": [] })",
       .deck = R"({ "card": "spark", "count": 2 }, { "card": "plain" }, { "card": "noop", "count": 17 })"});
  int plain_in_hand = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Fight run(catalog, seed);
    std::vector<std::string> drawn;
    for (const Event& e : run.recorder.events)
      if (e.type == EventType::CardDrawn) drawn.push_back(catalog->cards[e.value].id);
    ASSERT_EQ(drawn.size(), 5u);
    EXPECT_EQ(drawn[0], "spark") << "seed " << seed;  // drawn first: on top of the pile
    EXPECT_EQ(drawn[1], "spark") << "seed " << seed;
    plain_in_hand += run.in_hand("plain") ? 1 : 0;
  }
  // Without the keyword, a card is in the opening hand only by chance.
  EXPECT_GT(plain_in_hand, 0);
  EXPECT_LT(plain_in_hand, 50);
}

TEST(DeckbuilderRulesKeyword, InnateCardsBeyondTheOpeningHandWaitOnTopOfTheDrawPile) {
  const auto catalog = build({.cards = R"(
      { "id": "spark", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [] })",
                              .deck = R"({ "card": "spark", "count": 7 }, { "card": "noop", "count": 13 })"});
  Fight run(catalog, 3);
  EXPECT_EQ(std::count_if(run.s().hand().begin(), run.s().hand().end(),
                          [&](CardRef c) { return run.def(c).id == "spark"; }),
            5);
  ASSERT_GE(run.s().draw_pile().size(), 2u);
  EXPECT_EQ(run.def(run.s().draw_pile().back()).id, "spark");
  EXPECT_EQ(run.def(run.s().draw_pile()[run.s().draw_pile().size() - 2]).id, "spark");
}

TEST(DeckbuilderRulesKeyword, InnateCardsKeepTheirShuffledOrder) {
  // The same deck with and without the keyword shuffles alike: the innate cards are then drawn
  // in the order the shuffle left them, the one nearest the top first.
  const std::string plain = R"(
      { "id": "c1", "type": "skill", "cost": 0, "target": "none", "effects": [] },
      { "id": "c2", "type": "skill", "cost": 0, "target": "none", "effects": [] },
      { "id": "c3", "type": "skill", "cost": 0, "target": "none", "effects": [] })";
  std::string innate = plain;
  for (std::size_t at = 0; (at = innate.find(R"("effects")", at)) != std::string::npos; at += 30)
    innate.insert(at, R"("keywords": ["innate"], )");
  const std::string deck =
      R"({ "card": "c1" }, { "card": "c2" }, { "card": "c3" }, { "card": "noop", "count": 9 })";
  const auto shuffled = build({.cards = plain, .deck = deck});
  const auto on_top = build({.cards = innate, .deck = deck});
  int orders_seen = 0;
  std::set<std::vector<std::string>> orders;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto order_of = [&](const std::shared_ptr<const Catalog>& catalog) {
      Battle b(catalog);
      EXPECT_TRUE(b.start_battle("e", seed).ok());
      std::vector<std::string> ids;  // the c cards of hand and draw pile, in draw order
      for (CardRef c : b.state().hand())
        if (catalog->cards[b.state().cards[c].def].id != "noop")
          ids.push_back(catalog->cards[b.state().cards[c].def].id);
      for (std::size_t i = b.state().draw_pile().size(); i-- > 0;) {
        const std::string& id = catalog->cards[b.state().cards[b.state().draw_pile()[i]].def].id;
        if (id != "noop") ids.push_back(id);
      }
      return ids;
    };
    const std::vector<std::string> expected = order_of(shuffled), got = order_of(on_top);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got, expected) << "seed " << seed;
    orders.insert(got);
    ++orders_seen;
  }
  EXPECT_EQ(orders_seen, 20);
  EXPECT_GT(orders.size(), 1u) << "the shuffle decides the order";
}

TEST(DeckbuilderRulesKeyword, RetainedCardsStayInHand) {
  const auto catalog = build({.cards = R"(
      { "id": "keeper", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "retain"], "effects": [] })",
                              .deck = R"({ "card": "keeper" }, { "card": "noop", "count": 20 })"});
  Fight run(catalog);
  const CardRef keeper = run.card("keeper");
  for (int turn = 1; turn <= 3; ++turn) {
    const std::size_t from = run.mark();
    run.end_turn();
    for (const Event& e : of_type(run.events_since(from), EventType::CardMoved)) EXPECT_NE(e.subject, keeper);
    EXPECT_TRUE(run.in_hand("keeper")) << "after turn " << turn;
  }
  // Played, a retained card goes to the discard pile like any other.
  run.play("keeper");
  EXPECT_EQ(run.s().discard_pile().back(), keeper);
}

TEST(DeckbuilderRulesKeyword, EtherealCardsLeftInHandAreExhausted) {
  const auto catalog = build({.cards = R"(
      { "id": "ghost", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "ethereal"], "effects": [] })",
                              .deck = R"({ "card": "ghost", "count": 2 }, { "card": "noop", "count": 8 })"});
  Fight run(catalog);
  const CardRef played = run.card("ghost");
  run.act(Action::play(played));
  EXPECT_EQ(run.s().discard_pile().back(), played);  // played: discarded, not exhausted
  const CardRef kept = run.card("ghost");
  const std::size_t from = run.mark();
  run.end_turn();
  const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  const auto ghost =
      std::find_if(moved.begin(), moved.end(), [&](const Event& e) { return e.subject == kept; });
  ASSERT_NE(ghost, moved.end());
  EXPECT_EQ(static_cast<Pile>(ghost->extra), Pile::Exhaust);
  EXPECT_EQ(run.s().exhaust_pile().size(), 1u);
  EXPECT_EQ(run.s().exhaust_pile()[0], kept);
}

// Retain does not save an Ethereal card (as in the deckbuilders GCS comes from).
TEST(DeckbuilderRulesKeyword, AnEtherealCardIsExhaustedEvenWithRetain) {
  const auto catalog = build({.cards = R"(
      { "id": "wisp", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "ethereal", "retain"], "effects": [] })",
                              .deck = R"({ "card": "wisp", "count": 1 }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  const CardRef wisp = run.card("wisp");
  run.end_turn();
  EXPECT_FALSE(run.in_hand("wisp"));
  ASSERT_EQ(run.s().exhaust_pile().size(), 1u);
  EXPECT_EQ(run.s().exhaust_pile()[0], wisp);
}

// The turn end looks at the hand's keywords only when a card of the battle has Retain or
// Ethereal (BattleState::card_keywords); a quiet battle, where no one hears CardMoved, relies on
// it. A retained card made during the battle must still stay in hand.
TEST(DeckbuilderRulesKeyword, AQuietBattleKeepsARetainedCardMadeDuringIt) {
  const auto catalog = build({.cards = R"(
      { "id": "summon", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "add_card", "card": "keeper", "pile": "hand" }] },
      { "id": "keeper", "type": "skill", "cost": 0, "target": "none", "keywords": ["retain"], "effects": [] })",
                              .deck = R"({ "card": "summon" }, { "card": "noop", "count": 9 })"});
  Battle quiet(catalog, BattleOptions{.event_log = false, .record_history = false});
  ASSERT_TRUE(quiet.start_battle(*catalog->find_encounter("e"), 1).ok());
  ASSERT_FALSE(quiet.events().wants(EventType::CardMoved));
  EXPECT_EQ(quiet.state().card_keywords & (kRetain | kEthereal), 0);
  const auto summon = std::find_if(quiet.state().hand().begin(), quiet.state().hand().end(), [&](CardRef c) {
    return catalog->cards[quiet.state().cards[c].def].id == "summon";
  });
  ASSERT_NE(summon, quiet.state().hand().end());
  ASSERT_TRUE(quiet.submit(Action::play(*summon)).ok());
  EXPECT_NE(quiet.state().card_keywords & kRetain, 0);
  const CardRef keeper = quiet.state().hand().back();
  ASSERT_EQ(catalog->cards[quiet.state().cards[keeper].def].id, "keeper");
  ASSERT_TRUE(quiet.submit(Action::end_turn()).ok());
  ASSERT_EQ(quiet.phase(), Phase::PlayerPhase);
  const auto hand = quiet.state().hand();
  EXPECT_NE(std::find(hand.begin(), hand.end(), keeper), hand.end());
  EXPECT_EQ(std::find(quiet.state().discard_pile().begin(), quiet.state().discard_pile().end(), keeper),
            quiet.state().discard_pile().end());
  // A snapshot holds the cards, not the union: the restored battle makes it again.
  const auto restored = restore(catalog, snapshot(quiet));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state().card_keywords, quiet.state().card_keywords);
}

TEST(DeckbuilderRulesKeyword, ExhaustAndPowerCardsGoToTheExhaustPileWhenPlayed) {
  const auto catalog =
      build({.cards = R"(
      { "id": "flash", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate", "exhaust"], "effects": [] },
      { "id": "aura", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [] })",
             .deck = R"({ "card": "flash" }, { "card": "aura" }, { "card": "noop", "count": 8 })"});
  Fight run(catalog);
  const CardRef flash = run.card("flash"), aura = run.card("aura"), noop = run.card("noop");
  run.play("flash");
  run.play("aura");
  run.act(Action::play(noop));
  EXPECT_EQ(std::vector<CardRef>(run.s().exhaust_pile().begin(), run.s().exhaust_pile().end()),
            (std::vector<CardRef>{flash, aura}));
  EXPECT_EQ(std::vector<CardRef>(run.s().discard_pile().begin(), run.s().discard_pile().end()),
            std::vector<CardRef>{noop});
}

// =============================================================================================
// Armor
// =============================================================================================

constexpr std::string_view kArmorCards = R"(
  { "id": "skin", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"],
    "effects": [{ "op": "armor", "amount": 9 }, { "op": "hook", "hook": "half" }] },
  { "id": "ward", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate"], "effects": [{ "op": "armor", "amount": 5 }] })";
constexpr std::string_view kTurtle = R"(
  { "id": "turtle", "hp": 50, "moves": [{ "id": "shell", "intent": "defend", "effects": [{ "op": "armor", "amount": 3 }] }],
    "behavior": { "kind": "sequence", "moves": ["shell"] } })";

std::shared_ptr<const Catalog> armor_pack(std::string_view rules) {
  return build(
      {.cards = std::string(kArmorCards),
       .deck = R"({ "card": "skin" }, { "card": "ward", "count": 2 }, { "card": "noop", "count": 17 })",
       .hooks = R"({ "id": "half", "kind": "armor_reset", "keep_percent": 50 })",
       .enemies = std::string(kTurtle),
       .foes = R"("turtle")",
       .rules = std::string(rules)});
}

TEST(DeckbuilderRulesArmor, ResetOnTurnStartClearsArmorAtTheStartOfEachUnitsTurn) {
  Fight run(armor_pack(R"("armor_decay": "reset_on_turn_start")"));
  run.play("ward");
  EXPECT_EQ(run.s().player.armor, 5);
  run.end_turn();
  EXPECT_EQ(run.s().player.armor, 0);
  EXPECT_EQ(run.s().enemies[0].unit.armor, 3);
  run.end_turn();
  EXPECT_EQ(run.s().enemies[0].unit.armor, 3);  // reset before each of its moves
}

TEST(DeckbuilderRulesArmor, PersistKeepsArmorAcrossTurns) {
  Fight run(armor_pack(R"("armor_decay": "persist")"));
  run.play("ward");
  run.end_turn();
  EXPECT_EQ(run.s().player.armor, 5);
  EXPECT_EQ(run.s().enemies[0].unit.armor, 3);
  run.end_turn();
  EXPECT_EQ(run.s().player.armor, 5);
  EXPECT_EQ(run.s().enemies[0].unit.armor, 6);
}

TEST(DeckbuilderRulesArmor, AnArmorResetHookKeepsItsPercentOfItsOwnersArmor) {
  Fight run(armor_pack(R"("armor_decay": "reset_on_turn_start")"));
  run.play("skin");
  ASSERT_EQ(run.s().player.armor, 9);
  std::vector<std::int32_t> armor;
  for (int turn = 0; turn < 4; ++turn) {
    run.end_turn();
    armor.push_back(run.s().player.armor);
    EXPECT_EQ(run.s().enemies[0].unit.armor, 3);  // the hook is the player's: the turtle's armor still resets
  }
  EXPECT_EQ(armor, (std::vector<std::int32_t>{4, 2, 1, 0}));  // floor(armor x 50 / 100)
}

TEST(DeckbuilderRulesArmor, AnArmorResetHookDoesNothingWhenArmorPersists) {
  Fight run(armor_pack(R"("armor_decay": "persist")"));
  run.play("skin");
  run.end_turn();
  run.end_turn();
  EXPECT_EQ(run.s().player.armor, 9);
}

// =============================================================================================
// Hooks, delayed triggers, cost rules
// =============================================================================================

TEST(DeckbuilderRulesHook, AHookExpiresAfterItsDurationInTurnsOfItsOwner) {
  const auto catalog =
      build({.cards = R"(
      { "id": "truce", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "calm" }] },
      { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": 1 }] })",
             .deck = R"({ "card": "truce" }, { "card": "zap", "count": 29 })",
             .hooks = R"({ "id": "calm", "kind": "refuse_play", "card_type": "attack", "duration": 2 })"});
  Fight run(catalog);
  run.play("truce");
  EXPECT_EQ(run.battle.can_play_card(run.card("zap")), PlayCheck::RefusedByPlayableHook);
  std::size_t from = run.mark();
  run.end_turn();  // one turn of two gone
  EXPECT_EQ(count(run.events_since(from), EventType::HookExpired), 0u);
  EXPECT_EQ(run.s().hooks.size(), 1u);
  EXPECT_EQ(run.s().hooks[0].turns_left, 1);
  EXPECT_EQ(run.battle.can_play_card(run.card("zap")), PlayCheck::RefusedByPlayableHook);
  from = run.mark();
  run.end_turn();
  // Expired at the player's turn end, step 6: after the hand left, before TurnEnded.
  EXPECT_EQ(slice(run.since(from), "DiscardPhase", "TurnEnded"),
            seq({"DiscardPhase", "CardMoved*5", "HookExpired", "TurnEnded"}));
  const std::vector<Event> expired = of_type(run.events_since(from), EventType::HookExpired);
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].subject, 0);
  EXPECT_EQ(expired[0].target, kPlayerUnit);
  EXPECT_TRUE(run.s().hooks.empty());
  EXPECT_EQ(run.battle.can_play_card(run.card("zap")), PlayCheck::Ok);
}

TEST(DeckbuilderRulesHook, OnCardPlayedHooksRunForMatchingCardsOnly) {
  const auto catalog =
      build({.cards = R"(
      { "id": "fury", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "hook", "hook": "fury" }] },
      { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 1 }] })",
             .deck = R"({ "card": "fury" }, { "card": "zap" }, { "card": "noop", "count": 8 })",
             .hooks = R"({ "id": "fury", "kind": "on_card_played", "card_type": "attack",
                                            "effects": [{ "op": "damage", "amount": 3 }] })",
             .foes = R"("dummy", "dummy")"});
  Fight run(catalog);
  run.play("fury");
  std::size_t from = run.mark();
  run.play("noop");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "CardMoved"}));  // a skill: no Fury
  from = run.mark();
  run.play("zap", 1);
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "DamageDealt", "CardMoved"}));
  // The hook's chosen unit is the played card's target.
  EXPECT_EQ(run.s().enemies[0].unit.hp, 100);
  EXPECT_EQ(run.s().enemies[1].unit.hp, 96);
}

/// Which delayed trigger fired where: its armor amount, the phase, the turn.
struct Fired {
  std::int32_t armor;
  Phase phase;
  std::uint32_t turn;
  friend bool operator==(const Fired&, const Fired&) = default;
};

TEST(DeckbuilderRulesDelayed, EachTimingFiresAfterItsTurnsHavePassed) {
  const auto catalog = build({.cards = R"(
      { "id": "timers", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [
          { "op": "delayed", "timing": "player_turn_start", "effects": [{ "op": "armor", "amount": 1 }] },
          { "op": "delayed", "timing": "player_turn_start", "after_turns": 1, "effects": [{ "op": "armor", "amount": 2 }] },
          { "op": "delayed", "timing": "player_turn_end", "effects": [{ "op": "armor", "amount": 3 }] },
          { "op": "delayed", "timing": "enemy_phase_end", "effects": [{ "op": "armor", "amount": 4 }] },
          { "op": "delayed", "timing": "enemy_phase_end", "after_turns": 1, "effects": [{ "op": "armor", "amount": 5 }] }] })",
                              .deck = R"({ "card": "timers" }, { "card": "noop", "count": 19 })"});
  Fight run(catalog);
  std::size_t from = run.mark();
  run.play("timers");
  const std::vector<Event> scheduled = of_type(run.events_since(from), EventType::DelayedScheduled);
  ASSERT_EQ(scheduled.size(), 5u);
  EXPECT_EQ(scheduled[0].amount, static_cast<std::int32_t>(DelayedTiming::PlayerTurnStart));
  EXPECT_EQ(scheduled[2].amount, static_cast<std::int32_t>(DelayedTiming::PlayerTurnEnd));
  EXPECT_EQ(scheduled[3].amount, static_cast<std::int32_t>(DelayedTiming::EnemyPhaseEnd));
  from = run.mark();
  for (int i = 0; i < 3; ++i) run.end_turn();
  std::vector<Fired> fired;
  Phase phase = Phase::PlayerPhase;
  std::uint32_t turn = 1;
  const std::vector<Event> ev = run.events_since(from);
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (ev[i].type == EventType::PhaseChanged) {
      phase = static_cast<Phase>(ev[i].value);
      if (phase == Phase::PlayerTurnStart) ++turn;
    }
    if (ev[i].type == EventType::DelayedFired) {
      ASSERT_LT(i + 1, ev.size());
      ASSERT_EQ(ev[i + 1].type, EventType::ArmorGained);
      fired.push_back(Fired{ev[i + 1].amount, phase, turn});
    }
  }
  EXPECT_EQ(fired, (std::vector<Fired>{{3, Phase::PlayerTurnEnd, 1},
                                       {4, Phase::EnemyPhase, 1},
                                       {1, Phase::PlayerTurnStart, 2},
                                       {5, Phase::EnemyPhase, 2},
                                       {2, Phase::PlayerTurnStart, 3}}));
  EXPECT_TRUE(run.s().delayed.empty());
}

TEST(DeckbuilderRulesDelayed, ATriggerWhoseTargetDiedAimsAtTheFirstAliveEnemy) {
  const auto catalog =
      build({.cards = R"(
      { "id": "curse", "type": "skill", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "delayed", "timing": "player_turn_end", "effects": [{ "op": "damage", "amount": 3 }] }] },
      { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 6 }] })",
             .deck = R"({ "card": "curse" }, { "card": "zap" }, { "card": "noop", "count": 8 })",
             .foes = R"("dummy", "wisp", "dummy")"});
  Fight run(catalog);
  run.play("curse", 1);
  run.play("zap", 1);  // the Wisp, the trigger's target, dies
  run.end_turn();
  EXPECT_EQ(run.s().enemies[0].unit.hp, 97);
  EXPECT_EQ(run.s().enemies[2].unit.hp, 100);
}

// A dead unit does nothing: an enemy's delayed trigger fires (DelayedFired) after the enemy died
// but runs no op, where the same trigger of a living enemy hits the player.
TEST(DeckbuilderRulesDelayed, ATriggerOfADeadSourceFiresAndRunsNoOp) {
  const auto catalog =
      build({.deck = R"({ "card": "jab", "count": 10 })",
             .enemies = R"({ "id": "bomber", "hp": 1, "moves": [{ "id": "plant", "intent": "unknown",
               "effects": [{ "op": "delayed", "timing": "player_turn_end", "effects": [{ "op": "damage", "amount": 10 }] }] }],
               "behavior": { "kind": "sequence", "moves": ["plant"] } })",
             .foes = R"("bomber", "dummy")"});
  for (const bool kill : {false, true}) {
    SCOPED_TRACE(kill ? "the bomber dies" : "the bomber lives");
    Fight run(catalog);
    run.end_turn();  // the bomber plants a trigger for the end of the player's next turn
    ASSERT_EQ(run.s().delayed.size(), 1u);
    if (kill) run.play("jab", 0);
    EXPECT_EQ(run.s().enemies[0].unit.alive(), !kill);
    const std::size_t from = run.mark();
    run.end_turn();
    const std::vector<Event> ev = run.events_since(from);
    EXPECT_EQ(count(ev, EventType::DelayedFired), 1u);
    const std::vector<Event> hits = of_type(ev, EventType::DamageDealt);
    if (kill) {
      EXPECT_TRUE(hits.empty());
      EXPECT_EQ(run.s().player.hp, 50);
    } else {
      ASSERT_EQ(hits.size(), 1u);
      EXPECT_EQ(hits[0].source, enemy_unit(0));
      EXPECT_EQ(run.s().player.hp, 40);
    }
  }
}

// A battle holds at most kMaxCards card instances, kMaxHooks hooks and kMaxDelayed delayed
// effects: what an effect would add past one of them is not added, and each raises LimitReached,
// naming the limit, its size and what was not added (a unit's statuses: mechanics_test).
TEST(DeckbuilderRulesLimits, WhatAnEffectWouldAddPastALimitIsNotAddedAndSaysSo) {
  const auto catalog = build({
      .cards = R"(
        { "id": "swarm", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "repeat", "times": 6, "effects": [{ "op": "add_card", "card": "noop", "count": 10, "pile": "discard" }] }] },
        { "id": "vows", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "repeat", "times": 17, "effects": [{ "op": "hook", "hook": "echo" }] }] },
        { "id": "plans", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
          "effects": [{ "op": "repeat", "times": 17, "effects": [{ "op": "delayed", "timing": "player_turn_end",
                                                                   "effects": [{ "op": "armor", "amount": 1 }] }] }] })",
      .deck =
          R"({ "card": "swarm" }, { "card": "vows" }, { "card": "plans" }, { "card": "noop", "count": 7 })",
      .hooks = R"({ "id": "echo", "kind": "on_card_played", "card_type": "attack",
                    "effects": [{ "op": "armor", "amount": 1 }] })",
  });
  static_assert(kMaxHooks == 16 && kMaxDelayed == 16, "the cards add one more than each limit");
  Fight run(catalog);
  const Catalog& c = run.battle.catalog();
  const auto reached = [&](std::size_t from) {
    return of_type(run.events_since(from), EventType::LimitReached);
  };

  std::size_t from = run.mark();
  run.play("swarm");  // 10 cards in the deck and 60 created: the last 6 are not
  EXPECT_EQ(run.s().cards.size(), kMaxCards);
  std::vector<Event> ev = reached(from);
  ASSERT_EQ(ev.size(), 10 + 60 - kMaxCards);
  for (const Event& e : ev) {
    EXPECT_EQ(static_cast<Limit>(e.amount), Limit::CardInstances);
    EXPECT_EQ(e.extra, static_cast<std::int32_t>(kMaxCards));
    EXPECT_EQ(c.cards.at(e.subject).id, "noop");
  }
  EXPECT_EQ(event_to_json(ev[0], c),
            nlohmann::json::parse(
                R"({"type": "LimitReached", "limit": "card_instances", "max": 64, "card_id": "noop"})"));
  EXPECT_EQ(event_text(run.battle, ev[0]), "noop is not created: the battle holds 64 cards, the most it can");

  from = run.mark();
  run.play("vows");
  EXPECT_EQ(run.s().hooks.size(), kMaxHooks);
  ev = reached(from);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(event_to_json(ev[0], c),
            nlohmann::json::parse(R"({"type": "LimitReached", "limit": "hooks", "max": 16,
                                                               "hook": "echo", "owner": "player"})"));
  EXPECT_EQ(event_text(run.battle, ev[0]), "you: echo is not put in effect: 16 hooks are, the most at once");

  from = run.mark();
  run.play("plans");
  EXPECT_EQ(run.s().delayed.size(), kMaxDelayed);
  ev = reached(from);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(event_to_json(ev[0], c)["limit"], "delayed");
  EXPECT_EQ(event_to_json(ev[0], c)["block"], run.s().delayed[0].block) << "the block each op schedules";
  EXPECT_EQ(event_text(run.battle, ev[0]), "a delayed effect is not set: 16 are, the most at once");
}

// Hooks stay registered when their owner dies: its play-blocking hook goes on blocking, while
// its on_card_played hook runs no op.
TEST(DeckbuilderRulesHook, HooksOfADeadOwnerStillBlockButRunNoOp) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "smite", "type": "skill", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": 6 }] })",
       .deck = R"({ "card": "smite" }, { "card": "jab" }, { "card": "noop", "count": 3 })",
       .hooks =
           R"({ "id": "sting", "kind": "on_card_played", "effects": [{ "op": "lose_hp", "amount": 3, "target": "all_enemies" }] },
                         { "id": "calm", "kind": "refuse_play", "card_type": "attack" })",
       .enemies = R"({ "id": "warden", "hp": 1, "moves": [{ "id": "bind", "intent": "unknown",
               "effects": [{ "op": "hook", "hook": "sting" }, { "op": "hook", "hook": "calm" }] }],
               "behavior": { "kind": "sequence", "moves": ["bind"] } })",
       .foes = R"("warden", "dummy")"});
  Fight run(catalog);
  run.end_turn();  // the warden registers both hooks; the five cards of the deck are drawn again
  ASSERT_EQ(run.s().hooks.size(), 2u);
  ASSERT_TRUE(run.s().enemies[0].unit.alive());
  const std::int32_t hp = run.s().player.hp;
  run.play("noop");
  EXPECT_EQ(run.s().player.hp, hp - 3);  // Sting, its owner alive
  EXPECT_EQ(run.battle.can_play_card(run.card("jab")), PlayCheck::RefusedByPlayableHook);
  run.play("smite", 0);  // the warden dies by the card's own effect, before the hooks fire
  EXPECT_FALSE(run.s().enemies[0].unit.alive());
  EXPECT_EQ(run.s().hooks.size(), 2u);
  EXPECT_EQ(run.s().player.hp, hp - 3);
  EXPECT_EQ(run.battle.can_play_card(run.card("jab")), PlayCheck::RefusedByPlayableHook);
}

constexpr std::string_view kCostCards = R"(
  { "id": "rush", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
    "effects": [{ "op": "cost_rule", "scope": "hand", "set": 0, "turns": 2 }] },
  { "id": "heavy", "type": "skill", "cost": 2, "target": "none", "keywords": ["innate"], "effects": [] },
  { "id": "surge", "type": "attack", "cost": 2, "target": "enemy", "keywords": ["innate"],
    "effects": [{ "op": "damage", "amount": 1 }, { "op": "cost_rule", "scope": "this_card", "change": -1 }] })";

TEST(DeckbuilderRulesCostRule, ARuleForSomeTurnsEndsWithCostChangedBack) {
  const auto catalog = build(
      {.cards = std::string(kCostCards),
       .deck = R"({ "card": "rush" }, { "card": "heavy", "count": 3 }, { "card": "noop", "count": 16 })"});
  Fight run(catalog);
  std::vector<CardRef> heavies;
  for (CardRef c : run.s().hand())
    if (run.def(c).id == "heavy") heavies.push_back(c);
  ASSERT_EQ(heavies.size(), 3u);
  std::size_t from = run.mark();
  run.play("rush");
  const std::vector<Event> set = of_type(run.events_since(from), EventType::CostChanged);
  ASSERT_EQ(set.size(), 4u);  // the three Heavies and the noop
  for (const Event& e : set) EXPECT_EQ(e.amount, 0);
  for (CardRef c : heavies) EXPECT_EQ(run.battle.effective_cost(c), 0);
  EXPECT_EQ(run.s().turn_cost_cards, 4);  // what the turn end's tick looks at first
  // A snapshot holds the rules, not the count: the restored battle counts them again.
  const auto restored = restore(catalog, snapshot(run.battle));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state().turn_cost_cards, 4);
  EXPECT_TRUE(restored.value() == run.battle);
  from = run.mark();
  run.end_turn();  // one of two turns
  EXPECT_EQ(count(run.events_since(from), EventType::CostChanged), 0u);
  EXPECT_EQ(run.s().turn_cost_cards, 4);
  for (CardRef c : heavies) EXPECT_EQ(run.battle.effective_cost(c), 0) << "wherever the card is";
  from = run.mark();
  run.end_turn();
  // PlayerTurnEnd step 7, after the statuses and hooks, before the delayed triggers and TurnEnded.
  const std::vector<std::string> trace = slice(run.since(from), "DiscardPhase", "TurnEnded");
  ASSERT_GE(trace.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(trace.end() - 5, trace.end()), seq({"CostChanged*4", "TurnEnded"}));
  for (const Event& e : of_type(run.events_since(from), EventType::CostChanged))
    EXPECT_EQ(e.amount, catalog->cards[run.s().cards[e.subject].def].cost);
  for (CardRef c : heavies) EXPECT_EQ(run.battle.effective_cost(c), 2);
  EXPECT_EQ(run.s().turn_cost_cards, 0);
}

TEST(DeckbuilderRulesCostRule, ABattleLongRuleLastsAndItsChangesAddUp) {
  const auto catalog = build(
      {.cards = std::string(kCostCards), .deck = R"({ "card": "surge" }, { "card": "noop", "count": 4 })"});
  Fight run(catalog);
  const CardRef surge = run.card("surge");
  EXPECT_EQ(run.battle.effective_cost(surge), 2);
  std::size_t from = run.mark();
  run.play("surge", 0);
  std::vector<Event> changed = of_type(run.events_since(from), EventType::CostChanged);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0].subject, surge);
  EXPECT_EQ(changed[0].amount, 1);
  from = run.mark();
  for (int turn = 0; turn < 3; ++turn) run.end_turn();  // five cards: Surge is back in hand each turn
  EXPECT_EQ(count(run.events_since(from), EventType::CostChanged), 0u);  // nothing to tick
  EXPECT_EQ(run.battle.effective_cost(surge), 1);
  ASSERT_TRUE(run.in_hand("surge"));
  from = run.mark();
  run.play("surge", 0);
  EXPECT_EQ(run.s().energy, 2);  // paid 1
  changed = of_type(run.events_since(from), EventType::CostChanged);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0].amount, 0);  // 2 less now: changes of the same kind add up
  EXPECT_EQ(run.battle.effective_cost(surge), 0);
}

TEST(DeckbuilderRulesCostRule, ATurnRuleEndingLeavesTheBattleRuleInPlace) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "streamline", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "cost_rule", "scope": "hand", "change": -1 }] },
      { "id": "quicken", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "cost_rule", "scope": "hand", "set": 0, "turns": 1 }] },
      { "id": "heavy", "type": "skill", "cost": 3, "target": "none", "keywords": ["innate"], "effects": [] })",
       .deck =
           R"({ "card": "streamline" }, { "card": "quicken" }, { "card": "heavy" }, { "card": "noop", "count": 2 })"});
  Fight run(catalog);
  const CardRef heavy = run.card("heavy");
  run.play("streamline");
  EXPECT_EQ(run.battle.effective_cost(heavy), 2);
  EXPECT_EQ(run.s().turn_cost_cards, 0);  // a rule for the battle does not count
  run.play("quicken");
  EXPECT_EQ(run.battle.effective_cost(heavy), 0);  // max(0, 0 - 1)
  EXPECT_EQ(run.s().turn_cost_cards, 3);           // Heavy and the two noops left in hand
  const std::size_t from = run.mark();
  run.end_turn();
  std::vector<Event> back;
  for (const Event& e : of_type(run.events_since(from), EventType::CostChanged))
    if (e.subject == heavy) back.push_back(e);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].amount, 2);  // the turn's set 0 is gone; the battle's -1 stays
  EXPECT_EQ(run.battle.effective_cost(heavy), 2);
  EXPECT_EQ(run.s().turn_cost_cards, 0);
}

TEST(DeckbuilderRulesCostRule, TheListingByteFollowsTheRulesAndTheListingWithIt) {
  const auto catalog =
      build({.cards = R"(
      { "id": "quicken", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "cost_rule", "scope": "hand", "set": 0, "turns": 1 }] },
      { "id": "heavy", "type": "attack", "cost": 4, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "damage", "amount": 1 }] })",
             .deck = R"({ "card": "quicken" }, { "card": "heavy" }, { "card": "noop", "count": 3 })"});
  Fight run(catalog);
  const CardRef heavy = run.card("heavy");
  const auto listed = [&] {
    for (const Action& a : run.battle.decision().options)
      if (a.kind == ActionKind::PlayCard && a.card == heavy) return true;
    return false;
  };
  EXPECT_EQ(run.s().cards[heavy].listing, kListingAimed | 4);  // aimed at an enemy, cost 4
  EXPECT_FALSE(listed());                                      // 4 > 3 energy
  run.play("quicken");
  EXPECT_EQ(run.s().cards[heavy].listing, kListingAimed | 0);
  EXPECT_TRUE(listed());
  // A snapshot holds the rules, not the byte: the restored battle makes it again.
  const auto restored = restore(catalog, snapshot(run.battle));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state().cards[heavy].listing, kListingAimed | 0);
  EXPECT_TRUE(restored.value() == run.battle);
  run.end_turn();  // the rule for one turn expires at the turn end
  EXPECT_EQ(run.s().cards[heavy].listing, kListingAimed | 4);
  EXPECT_EQ(stale_listing(run.s(), *catalog), kNoCard);
}

// =============================================================================================
// Hand-card ops: discard, exhaust and put_on_draw_pile, chosen and random
// =============================================================================================

constexpr std::string_view kHandCards = R"(
  { "id": "sift", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "amount": 1, "mode": "choose" }] },
  { "id": "sift2", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "amount": 2, "mode": "choose" }] },
  { "id": "purge", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "exhaust", "amount": 1, "mode": "choose" }] },
  { "id": "toss", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "amount": 2, "mode": "random" }] },
  { "id": "pyre", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "exhaust", "amount": 1, "mode": "random" }] },
  { "id": "stack", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_on_draw_pile", "amount": 2, "mode": "choose" }] },
  { "id": "shove", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_on_draw_pile", "amount": 1, "mode": "random" }] },
  { "id": "recall", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_on_draw_pile", "amount": 1, "mode": "choose", "from": "discard" }] },
  { "id": "dredge", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_on_draw_pile", "amount": 2, "mode": "random", "from": "discard" }] },
  { "id": "salvage", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 2, "mode": "choose" }] },
  { "id": "scrounge", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 2, "mode": "random" }] },
  { "id": "exhume", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 1, "mode": "choose", "from": "exhaust" }] },
  { "id": "peek", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "scry", "amount": 3 }, { "op": "draw", "amount": 1 }] },
  { "id": "seek", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 2, "mode": "choose", "from": "draw" }] },
  { "id": "rummage", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 2, "mode": "random", "from": "draw" }] },
  { "id": "arm", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 1, "mode": "choose", "from": "draw", "card_type": "attack" }] },
  { "id": "shed", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "amount": 2, "mode": "random", "card_type": "attack" }] },
  { "id": "relic", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "amount": 1, "mode": "choose", "card_type": "power" }] },
  { "id": "clear", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "mode": "all" }] },
  { "id": "cull", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "exhaust", "mode": "all", "card_type": "attack" }] },
  { "id": "hoard", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "mode": "all" }] },
  { "id": "restack", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_on_draw_pile", "mode": "all", "from": "discard" }] },
  { "id": "muster", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "put_in_hand", "mode": "all", "from": "draw", "card_type": "attack" }] },
  { "id": "sever", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "exhaust", "mode": "all", "card_type": ["skill", "power", "status", "curse"] }] },
  { "id": "sort", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "discard", "amount": 1, "mode": "choose", "card_type": ["power", "attack"] }] },
  { "id": "charm", "type": "power", "cost": 0, "target": "none", "effects": [] },
  { "id": "wound", "type": "status", "cost": 0, "target": "none", "keywords": ["unplayable"], "effects": [] })";

std::shared_ptr<const Catalog> hand_pack(std::string_view card, std::string_view rules = "") {
  return build({.cards = std::string(kHandCards),
                .deck = R"({ "card": ")" + std::string(card) +
                        R"(" }, { "card": "jab", "count": 2 }, { "card": "guard", "count": 7 })",
                .rules = std::string(rules)});
}

/// The hand cards other than `played`, in hand order: the choice's options.
std::vector<CardRef> others(const Fight& run, CardRef played) {
  std::vector<CardRef> out;
  for (CardRef c : run.s().hand())
    if (c != played) out.push_back(c);
  return out;
}

TEST(DeckbuilderRulesHandOps, DiscardChooseOffersTheOtherHandCardsInHandOrder) {
  Fight run(hand_pack("sift"));
  const CardRef sift = run.card("sift");
  const std::vector<CardRef> options = others(run, sift);
  ASSERT_EQ(options.size(), 4u);
  std::size_t from = run.mark();
  run.play("sift");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ChoiceOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 4);
  EXPECT_EQ(run.recorder.events.back().extra,
            static_cast<std::int32_t>(PendingChoice::Kind::DiscardFromHand));
  EXPECT_EQ(run.battle.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1),
                                                                Action::choose(2), Action::choose(3)}));
  expect_refused(run.battle, Action::skip_choice(), RefusalReason::InvalidOption);
  expect_refused(run.battle, Action::choose(4), RefusalReason::InvalidOption);
  from = run.mark();
  run.act(Action::choose(2));
  EXPECT_EQ(run.since(from), seq({"ChoiceMade", "CardMoved", "CardMoved"}));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(ev[1].subject, options[2]);
  EXPECT_EQ(static_cast<Pile>(ev[1].extra), Pile::Discard);
  EXPECT_EQ(ev[2].subject, sift);
  EXPECT_EQ(run.s().hand().size(), 3u);
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
}

TEST(DeckbuilderRulesHandOps, DiscardChooseTwoIsTwoDecisions) {
  Fight run(hand_pack("sift2"));
  const CardRef sift = run.card("sift2");
  const std::vector<CardRef> options = others(run, sift);
  run.play("sift2");
  std::size_t from = run.mark();
  run.act(Action::choose(0));
  EXPECT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.battle.decision().options.size(), 3u);
  EXPECT_EQ(of_type(run.events_since(from), EventType::CardMoved).at(0).subject, options[0]);
  from = run.mark();
  run.act(Action::choose(2));  // of the three left: what was options[3]
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0].subject, options[3]);
  EXPECT_EQ(moved[1].subject, sift);
  EXPECT_EQ(run.s().discard_pile().size(), 3u);
}

TEST(DeckbuilderRulesHandOps, ExhaustChooseSendsThePickToTheExhaustPile) {
  Fight run(hand_pack("purge"));
  const std::vector<CardRef> options = others(run, run.card("purge"));
  run.play("purge");
  EXPECT_EQ(run.recorder.events.back().extra,
            static_cast<std::int32_t>(PendingChoice::Kind::ExhaustFromHand));
  run.act(Action::choose(1));
  ASSERT_EQ(run.s().exhaust_pile().size(), 1u);
  EXPECT_EQ(run.s().exhaust_pile()[0], options[1]);
  EXPECT_EQ(run.s().discard_pile().size(), 1u);  // Purge itself
}

TEST(DeckbuilderRulesHandOps, ChooseWithNoOtherCardInHandAsksNothing) {
  Fight run(hand_pack("sift", R"("opening_hand": 1)"));
  ASSERT_EQ(run.s().hand().size(), 1u);
  const std::size_t from = run.mark();
  run.play("sift");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "CardMoved"}));
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
}

TEST(DeckbuilderRulesHandOps, RandomDiscardAndExhaustNeverTakeThePlayedCard) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Fight toss(hand_pack("toss"), seed);
    const CardRef played = toss.card("toss");
    const std::vector<CardRef> before = others(toss, played);
    std::size_t from = toss.mark();
    toss.play("toss");
    const std::vector<Event> moved = of_type(toss.events_since(from), EventType::CardMoved);
    ASSERT_EQ(moved.size(), 3u);
    std::set<CardRef> gone;
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_NE(moved[i].subject, played);
      EXPECT_NE(std::find(before.begin(), before.end(), moved[i].subject), before.end());
      EXPECT_EQ(static_cast<Pile>(moved[i].extra), Pile::Discard);
      gone.insert(static_cast<CardRef>(moved[i].subject));
    }
    EXPECT_EQ(gone.size(), 2u);
    EXPECT_EQ(moved[2].subject, played);
    EXPECT_EQ(toss.s().hand().size(), 2u);

    Fight pyre(hand_pack("pyre"), seed);
    from = pyre.mark();
    const CardRef burnt = pyre.card("pyre");
    pyre.play("pyre");
    ASSERT_EQ(pyre.s().exhaust_pile().size(), 1u);
    EXPECT_NE(pyre.s().exhaust_pile()[0], burnt);
  }
  // The same seed picks the same cards.
  Fight a(hand_pack("toss"), 7), b(hand_pack("toss"), 7);
  a.play("toss");
  b.play("toss");
  EXPECT_TRUE(a.s() == b.s());
}

// Each pick goes on top of the draw pile, the last one on top; the next turn draws them first, and
// until then the player knows them to lie there.
TEST(DeckbuilderRulesHandOps, PutOnDrawPileChooseSendsThePicksOnTopToBeDrawnNext) {
  Fight run(hand_pack("stack"));
  const CardRef stack = run.card("stack");
  const std::vector<CardRef> options = others(run, stack);
  ASSERT_EQ(options.size(), 4u);
  const std::size_t draw_before = run.s().draw_pile().size();
  ASSERT_EQ(run.s().known_on_top(), 0u);
  std::size_t from = run.mark();
  run.play("stack");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ChoiceOffered"}));
  const Event offered = run.recorder.events.back();
  EXPECT_EQ(offered.extra, static_cast<std::int32_t>(PendingChoice::Kind::PutOnDrawPileFromHand));
  EXPECT_EQ(event_to_json(offered, run.battle.catalog())["kind"], "put_on_draw_pile_from_hand");
  EXPECT_EQ(action_label(run.battle, Action::choose(1)),
            "choose: put on the draw pile " + run.def(options[1]).name);
  from = run.mark();
  run.act(Action::choose(1));
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].subject, options[1]);
  EXPECT_EQ(static_cast<Pile>(moved[0].amount), Pile::Hand);
  EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Draw);
  EXPECT_EQ(run.s().draw_pile().back(), options[1]);
  EXPECT_EQ(run.s().known_on_top(), 1u);
  run.act(Action::choose(0));  // of the three left: options[0]
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  const DrawPileView draw = run.s().draw_pile();
  ASSERT_EQ(draw.size(), draw_before + 2);
  EXPECT_EQ(draw[draw.size() - 1], options[0]);  // the top: the last one put there
  EXPECT_EQ(draw[draw.size() - 2], options[1]);
  EXPECT_EQ(run.s().known_on_top(), 2u);
  // The text view names them, top first.
  const std::string shown = "draw " + std::to_string(draw.size()) + " (on top: " + run.def(options[0]).name +
                            ", " + run.def(options[1]).name + ") |";
  EXPECT_NE(render_text(run.battle).find(shown), std::string::npos) << render_text(run.battle);
  EXPECT_EQ(run.s().hand().size(), 2u);
  ASSERT_FALSE(run.s().discard_pile().empty());
  EXPECT_EQ(run.s().discard_pile().back(), stack);
  from = run.mark();
  run.end_turn();
  const std::vector<Event> drawn = of_type(run.events_since(from), EventType::CardDrawn);
  ASSERT_GE(drawn.size(), 2u);
  EXPECT_EQ(drawn[0].subject, options[0]);
  EXPECT_EQ(drawn[1].subject, options[1]);
  EXPECT_EQ(run.s().known_on_top(), 0u);
}

TEST(DeckbuilderRulesHandOps, PutOnDrawPileRandomNeverTakesThePlayedCard) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    Fight run(hand_pack("shove"), seed);
    const CardRef played = run.card("shove");
    const std::vector<CardRef> before = others(run, played);
    const std::size_t from = run.mark();
    run.play("shove");
    EXPECT_FALSE(run.battle.is_waiting_for_choice());
    const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
    ASSERT_EQ(moved.size(), 2u);
    EXPECT_NE(moved[0].subject, played);
    EXPECT_NE(std::find(before.begin(), before.end(), moved[0].subject), before.end());
    EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Draw);
    EXPECT_EQ(run.s().draw_pile().back(), moved[0].subject);
    EXPECT_EQ(run.s().known_on_top(), 1u);
    EXPECT_EQ(moved[1].subject, played);
    EXPECT_EQ(static_cast<Pile>(moved[1].extra), Pile::Discard);
  }
}

// The search re-samples the draw pile under the cards put on top and keeps them there in their
// order, as the player knows them to be; a snapshot taken between two picks restores the same
// battle.
TEST(DeckbuilderRulesHandOps, CardsPutOnTopStayThereInTheSearchesSampleAndInASnapshot) {
  Fight run(hand_pack("stack"));
  const std::vector<CardRef> options = others(run, run.card("stack"));
  run.play("stack");
  run.act(Action::choose(3));
  const nlohmann::json s = snapshot(run.battle);
  EXPECT_EQ(s["state"]["choice"]["kind"], "put_on_draw_pile_from_hand");
  EXPECT_EQ(s["state"]["draw_known_from"], run.s().draw_pile().size() - 1);
  EXPECT_EQ(s["state"]["draw_ordered_from"], run.s().draw_pile().size() - 1);
  auto restored = restore(hand_pack("stack"), s);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  EXPECT_TRUE(copy.state() == run.s());
  ASSERT_TRUE(copy.submit(Action::choose(1)).ok());
  run.act(Action::choose(1));
  EXPECT_TRUE(copy.state() == run.s());
  EXPECT_EQ(copy.state_hash(), run.battle.state_hash());

  const std::vector<CardRef> real(run.s().draw_pile().begin(), run.s().draw_pile().end());
  ASSERT_EQ(run.s().known_in_order_on_top(), 2u);
  EXPECT_EQ(real.end()[-1], options[1]);  // the top: the last one put there
  EXPECT_EQ(real.end()[-2], options[3]);
  std::set<std::vector<CardRef>> unders;
  for (std::uint64_t sample = 1; sample <= 20; ++sample) {
    Battle other = run.battle;
    resample_hidden(other, sample);
    const std::vector<CardRef> pile(other.state().draw_pile().begin(), other.state().draw_pile().end());
    ASSERT_EQ(pile.size(), real.size());
    EXPECT_EQ(pile.end()[-1], options[1]) << "sample " << sample;
    EXPECT_EQ(pile.end()[-2], options[3]) << "sample " << sample;
    unders.insert(std::vector<CardRef>(pile.begin(), pile.end() - 2));
  }
  EXPECT_GE(unders.size(), 15u);  // the five cards under them: 120 orders
}

/// A battle of the hand-card pack whose opening hand holds Sift and `card`, and whose discard
/// pile holds, bottom first, the hand card Sift discarded (the first other than `card`) and Sift.
std::unique_ptr<Fight> after_sift(std::string_view card) {
  auto run = std::make_unique<Fight>(
      build({.cards = std::string(kHandCards),
             .deck = R"({ "card": "sift" }, { "card": ")" + std::string(card) +
                     R"(" }, { "card": "jab", "count": 2 }, { "card": "guard", "count": 6 })"}));
  const CardRef sift = run->card("sift");
  const CardRef keep = run->card(card);
  run->play("sift");
  const std::vector<CardRef> options = others(*run, sift);
  const auto first_other = std::find_if(options.begin(), options.end(), [&](CardRef c) { return c != keep; });
  run->act(Action::choose(static_cast<std::uint8_t>(first_other - options.begin())));
  return run;
}

/// Restoring `snapshot` is refused with a message holding `expected`.
void expect_restore_refused(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& snapshot,
                            std::string_view expected) {
  const auto refused = restore(catalog, snapshot);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(expected), std::string::npos) << refused.error().message;
}

/// `snapshot` with every card of its pile `from` moved on top of its pile `to`.
nlohmann::json with_pile_moved(nlohmann::json snapshot, std::string_view from, std::string_view to) {
  nlohmann::json& state = snapshot["state"];
  for (const nlohmann::json& card : state[from]) state[to].push_back(card);
  state[from] = nlohmann::json::array();
  return snapshot;
}

/// `s`, a snapshot of the battle `run` plays, restores to a battle that goes on as `run` does
/// when both are given `action`.
void expect_restored_goes_on_alike(Fight& run, const std::shared_ptr<const Catalog>& catalog,
                                   const nlohmann::json& s, const Action& action) {
  auto restored = restore(catalog, s);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  ASSERT_TRUE(copy.submit(action).ok());
  run.act(action);
  EXPECT_TRUE(copy.state() == run.s());
}

// From the discard pile: a Choice of its cards, bottom first; the pick goes on top of the draw
// pile, known there in order, and is drawn next.
TEST(DeckbuilderRulesHandOps, PutOnDrawPileFromTheDiscardPileOffersItsCards) {
  const auto run = after_sift("recall");
  const std::vector<CardRef> discard(run->s().discard_pile().begin(), run->s().discard_pile().end());
  ASSERT_EQ(discard.size(), 2u);
  const CardRef recall = run->card("recall");
  std::size_t from = run->mark();
  run->play("recall");
  EXPECT_EQ(run->since(from), seq({"CardPlayed", "ChoiceOffered"}));
  EXPECT_EQ(run->recorder.events.back().amount, 2);
  EXPECT_EQ(event_to_json(run->recorder.events.back(), run->battle.catalog())["kind"],
            "put_on_draw_pile_from_discard");
  EXPECT_EQ(run->battle.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1)}));
  EXPECT_EQ(action_label(run->battle, Action::choose(1)),
            "choose: put on the draw pile " + run->def(discard[1]).name);
  expect_refused(run->battle, Action::choose(2), RefusalReason::InvalidOption);
  // A snapshot taken here restores the same battle, which goes on alike; one whose discard pile
  // holds no card to pick is refused.
  const nlohmann::json s = snapshot(run->battle);
  EXPECT_EQ(s["state"]["choice"]["kind"], "put_on_draw_pile_from_discard");
  const auto catalog = build(
      {.cards = std::string(kHandCards),
       .deck =
           R"({ "card": "sift" }, { "card": "recall" }, { "card": "jab", "count": 2 }, { "card": "guard", "count": 6 })"});
  expect_restore_refused(catalog, with_pile_moved(s, "discard_pile", "exhaust_pile"),
                         "/state/choice/kind: a choice of cards (put_on_draw_pile_from_discard) "
                         "waits, but its pile (discard) holds no card to pick");
  auto restored = restore(catalog, s);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  ASSERT_TRUE(copy.submit(Action::choose(1)).ok());
  from = run->mark();
  run->act(Action::choose(1));
  EXPECT_TRUE(copy.state() == run->s());
  const std::vector<Event> moved = of_type(run->events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0].subject, discard[1]);
  EXPECT_EQ(static_cast<Pile>(moved[0].amount), Pile::Discard);
  EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Draw);
  EXPECT_EQ(moved[1].subject, recall);  // the play's end: Recall to the discard pile
  EXPECT_EQ(run->s().draw_pile().back(), discard[1]);
  EXPECT_EQ(run->s().known_in_order_on_top(), 1u);
  EXPECT_EQ(std::vector<CardRef>(run->s().discard_pile().begin(), run->s().discard_pile().end()),
            (std::vector<CardRef>{discard[0], recall}));
  from = run->mark();
  run->end_turn();
  const std::vector<Event> drawn = of_type(run->events_since(from), EventType::CardDrawn);
  ASSERT_FALSE(drawn.empty());
  EXPECT_EQ(drawn[0].subject, discard[1]);
}

/// A battle of encounter "e" of `catalog` started from a scenario whose piles and rules are the
/// members of `piles` (seed 1).
Battle scenario_battle(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& piles) {
  return test::scenario_battle_of(catalog, "e", piles);
}

// The largest choice of cards: every card of the battle but the one being played, in the discard
// pile; it fits the options list.
TEST(DeckbuilderRulesHandOps, AChoiceOfEveryOtherCardOfTheBattleFitsTheOptionsList) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "recall" }, { "card": "guard", "count": 9 })"});
  Battle b = scenario_battle(
      catalog, {{"hand", {"recall"}}, {"discard_pile", std::vector<std::string>(kMaxCards - 1, "guard")}});
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
  ASSERT_TRUE(b.is_waiting_for_choice());
  Options listed;
  b.legal_actions(listed);
  ASSERT_EQ(listed.size(), kMaxCards - 1);
  EXPECT_EQ(listed.back(), Action::choose(static_cast<std::uint8_t>(kMaxCards - 2)));
  const CardRef top = b.state().discard_pile().back();
  ASSERT_TRUE(b.submit(listed.back()).ok());
  EXPECT_EQ(b.state().draw_pile().back(), top);
  EXPECT_EQ(b.state().known_in_order_on_top(), 1u);
}

TEST(DeckbuilderRulesHandOps, PutOnDrawPileFromAnEmptyDiscardPileDoesNothing) {
  Fight run(hand_pack("recall"));
  ASSERT_TRUE(run.s().discard_pile().empty());
  const std::size_t draw = run.s().draw_pile().size();
  const std::size_t from = run.mark();
  run.play("recall");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "CardMoved"}));
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.s().draw_pile().size(), draw);
  EXPECT_EQ(run.s().known_on_top(), 0u);
}

TEST(DeckbuilderRulesHandOps, PutOnDrawPileFromTheDiscardPileAtRandomTakesItsCards) {
  std::set<std::vector<CardRef>> orders;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const auto run = after_sift("dredge");
    Battle::Access::of(run->battle).s.rng = RngStreams(seed);  // the random picks drawn afresh
    const std::vector<CardRef> discard(run->s().discard_pile().begin(), run->s().discard_pile().end());
    const CardRef dredge = run->card("dredge");
    run->play("dredge");
    EXPECT_FALSE(run->battle.is_waiting_for_choice());
    const std::vector<CardRef> draw(run->s().draw_pile().begin(), run->s().draw_pile().end());
    const std::vector<CardRef> top = {draw.end()[-1], draw.end()[-2]};
    EXPECT_EQ(std::set<CardRef>(top.begin(), top.end()), std::set<CardRef>(discard.begin(), discard.end()));
    EXPECT_EQ(run->s().known_in_order_on_top(), 2u);
    EXPECT_EQ(std::vector<CardRef>(run->s().discard_pile().begin(), run->s().discard_pile().end()),
              (std::vector<CardRef>{dredge}));
    orders.insert(top);
  }
  EXPECT_EQ(orders.size(), 2u);  // both orders come up
}

// put_in_hand from the discard pile: a Choice of its cards, bottom first; each pick goes to the
// end of the hand, one decision per card; a snapshot between two picks restores the same battle.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheDiscardPileOffersItsCardsOneDecisionEach) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "salvage" }, { "card": "jab", "count": 9 })"});
  Fight run(catalog);
  const CardRef salvage = run.card("salvage");
  // Two jabs played: the discard pile holds them, bottom first.
  run.act(Action::play(others(run, salvage)[0], 0));
  run.act(Action::play(others(run, salvage)[0], 0));
  const std::vector<CardRef> discard(run.s().discard_pile().begin(), run.s().discard_pile().end());
  ASSERT_EQ(discard.size(), 2u);
  const std::vector<CardRef> hand_before(run.s().hand().begin(), run.s().hand().end());
  std::size_t from = run.mark();
  run.play("salvage");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ChoiceOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 2);
  EXPECT_EQ(event_to_json(run.recorder.events.back(), run.battle.catalog())["kind"],
            "put_in_hand_from_discard");
  EXPECT_EQ(run.battle.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1)}));
  EXPECT_EQ(action_label(run.battle, Action::choose(1)), "choose: put in hand " + run.def(discard[1]).name);
  expect_refused(run.battle, Action::choose(2), RefusalReason::InvalidOption);
  from = run.mark();
  run.act(Action::choose(1));
  std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].subject, discard[1]);
  EXPECT_EQ(static_cast<Pile>(moved[0].amount), Pile::Discard);
  EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Hand);
  EXPECT_EQ(run.s().hand().back(), discard[1]);
  // The second pick waits; a snapshot here restores the same battle, which goes on alike.
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.battle.decision().options, (std::vector<Action>{Action::choose(0)}));
  const nlohmann::json s = snapshot(run.battle);
  EXPECT_EQ(s["state"]["choice"]["kind"], "put_in_hand_from_discard");
  ASSERT_NO_FATAL_FAILURE(expect_restored_goes_on_alike(run, catalog, s, Action::choose(0)));
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  std::vector<CardRef> hand = hand_before;
  hand.erase(std::find(hand.begin(), hand.end(), salvage));
  hand.push_back(discard[1]);
  hand.push_back(discard[0]);
  EXPECT_EQ(std::vector<CardRef>(run.s().hand().begin(), run.s().hand().end()), hand);
  EXPECT_EQ(std::vector<CardRef>(run.s().discard_pile().begin(), run.s().discard_pile().end()),
            (std::vector<CardRef>{salvage}));
  EXPECT_EQ(run.s().known_on_top(), 0u) << "the draw pile is untouched";
}

// put_in_hand from the exhaust pile, the discard pile left as it lies.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheExhaustPileTakesAnExhaustedCard) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "exhume" }, { "card": "guard", "count": 9 })"});
  Battle b = scenario_battle(
      catalog, {{"hand", {"exhume"}}, {"discard_pile", {"guard"}}, {"exhaust_pile", {"jab", "sift"}}});
  const std::vector<CardRef> exhaust(b.state().exhaust_pile().begin(), b.state().exhaust_pile().end());
  const CardRef exhume = b.state().hand()[0];
  ASSERT_TRUE(b.submit(Action::play(exhume, -1)).ok());
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().choice.kind, PendingChoice::Kind::PutInHandFromExhaust);
  EXPECT_EQ(action_label(b, Action::choose(1)),
            "choose: put in hand " + b.catalog().cards[b.state().cards[exhaust[1]].def].name);
  ASSERT_TRUE(b.submit(Action::choose(1)).ok());
  EXPECT_FALSE(b.is_waiting_for_choice()) << "one card to pick";
  EXPECT_EQ(std::vector<CardRef>(b.state().hand().begin(), b.state().hand().end()),
            (std::vector<CardRef>{exhaust[1]}));
  EXPECT_EQ(std::vector<CardRef>(b.state().exhaust_pile().begin(), b.state().exhaust_pile().end()),
            (std::vector<CardRef>{exhaust[0]}));
  EXPECT_EQ(b.state().discard_pile().size(), 2u);  // the guard, then Exhume
}

/// The draw pile's cards, top first.
std::vector<CardRef> draw_top_first(const BattleState& s) {
  const std::span<const CardRef> top = s.piles.draw_top_first();
  return {top.begin(), top.end()};
}

// put_in_hand from the draw pile: a Choice of its cards listed in the order of the instances,
// not the order they lie in (which the player does not know), one decision a card; the cards
// left keep their order; a snapshot between two picks restores the same battle.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheDrawPileOffersItsCardsInInstanceOrder) {
  const auto catalog =
      build({.cards = std::string(kHandCards), .deck = R"({ "card": "seek" }, { "card": "jab", "count": 5 },
                                         { "card": "guard", "count": 6 })"});
  Fight run(catalog, 3);
  const CardRef seek = run.card("seek");
  const std::vector<CardRef> pile = draw_top_first(run.s());
  ASSERT_EQ(pile.size(), 7u);
  std::vector<CardRef> by_card = pile;
  std::sort(by_card.begin(), by_card.end());
  ASSERT_NE(by_card, pile) << "a seed whose shuffle leaves the draw pile in another order";
  std::size_t from = run.mark();
  run.play("seek");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ChoiceOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 7);
  EXPECT_EQ(event_to_json(run.recorder.events.back(), run.battle.catalog())["kind"], "put_in_hand_from_draw");
  EXPECT_EQ(run.battle.decision().options.size(), 7u);
  expect_refused(run.battle, Action::skip_choice(), RefusalReason::InvalidOption);
  expect_refused(run.battle, Action::choose(7), RefusalReason::InvalidOption);
  for (std::uint8_t i = 0; i < 7; ++i)
    EXPECT_EQ(action_label(run.battle, Action::choose(i)), "choose: put in hand " + run.def(by_card[i]).name);
  from = run.mark();
  run.act(Action::choose(4));
  std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].subject, by_card[4]);
  EXPECT_EQ(static_cast<Pile>(moved[0].amount), Pile::Draw);
  EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Hand);
  EXPECT_EQ(run.s().hand().back(), by_card[4]);
  std::vector<CardRef> left = pile;
  left.erase(std::find(left.begin(), left.end(), by_card[4]));
  EXPECT_EQ(draw_top_first(run.s()), left) << "the other cards lie as they did";
  // The second pick waits; a snapshot here restores the same battle, which goes on alike.
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.battle.decision().options.size(), 6u);
  const nlohmann::json s = snapshot(run.battle);
  EXPECT_EQ(s["state"]["choice"]["kind"], "put_in_hand_from_draw");
  ASSERT_NO_FATAL_FAILURE(expect_restored_goes_on_alike(run, catalog, s, Action::choose(0)));
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.s().hand().back(), by_card[0]);
  left.erase(std::find(left.begin(), left.end(), by_card[0]));
  EXPECT_EQ(draw_top_first(run.s()), left);
  EXPECT_EQ(std::vector<CardRef>(run.s().discard_pile().begin(), run.s().discard_pile().end()),
            (std::vector<CardRef>{seek}));

  // A snapshot of that choice waiting on an empty draw pile is refused.
  expect_restore_refused(catalog, with_pile_moved(s, "draw_pile", "discard_pile"),
                         "/state/choice/kind: a choice of cards (put_in_hand_from_draw) waits, "
                         "but its pile (draw) holds no card to pick");
}

// An option names the same card whatever order the draw pile lies in: the search, which
// reshuffles what the player does not know (resample_hidden), takes the card the player would.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheDrawPileNamesTheSameCardInAnyOrderOfThePile) {
  const auto catalog =
      build({.cards = std::string(kHandCards), .deck = R"({ "card": "seek" }, { "card": "jab", "count": 5 },
                                         { "card": "guard", "count": 6 })"});
  Fight run(catalog, 3);
  run.play("seek");
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  std::set<std::vector<CardRef>> orders;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Battle imagined = run.battle;
    resample_hidden(imagined, seed);
    orders.insert(draw_top_first(imagined.state()));
    for (std::uint8_t i = 0; i < 7; ++i) {
      Battle real = run.battle;
      Battle other = imagined;
      ASSERT_TRUE(real.submit(Action::choose(i)).ok());
      ASSERT_TRUE(other.submit(Action::choose(i)).ok());
      EXPECT_EQ(real.state().hand().back(), other.state().hand().back()) << "option " << int{i};
    }
  }
  EXPECT_GT(orders.size(), 1u) << "the search imagined other orders of the pile";
}

// What the player knows of the draw pile's top stays known when a card is taken from under
// it, and shrinks by the card when it is taken from among those.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheDrawPileKeepsWhatThePlayerKnowsOfItsTop) {
  const auto catalog =
      build({.cards = std::string(kHandCards),
             .deck = R"({ "card": "peek" }, { "card": "seek" }, { "card": "jab", "count": 5 },
                                         { "card": "guard", "count": 6 })"});
  Fight run(catalog, 5);
  run.play("peek");  // looks at the top 3, discards none, draws the top one: 2 known, in order
  run.act(Action::skip_choice());
  ASSERT_FALSE(run.battle.is_waiting_for_choice());
  ASSERT_EQ(run.s().known_in_order_on_top(), 2u);
  const std::vector<CardRef> pile = draw_top_first(run.s());
  const std::vector<CardRef> known(pile.begin(), pile.begin() + 2);
  run.play("seek");
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  std::array<std::uint8_t, kMaxCards> places{};
  ASSERT_EQ(run.s().choice_cards(*catalog, places), pile.size());
  // The option of the bottom card, under the known ones.
  std::uint8_t bottom = 0;
  while (places[bottom] != pile.size() - 1) ++bottom;
  run.act(Action::choose(bottom));
  EXPECT_EQ(run.s().hand().back(), pile.back());
  EXPECT_EQ(run.s().known_on_top(), 2u);
  EXPECT_EQ(run.s().known_in_order_on_top(), 2u);
  const std::vector<CardRef> after = draw_top_first(run.s());
  EXPECT_EQ(std::vector<CardRef>(after.begin(), after.begin() + 2), known);
  // Then the option of the top card, one of the known ones.
  ASSERT_EQ(run.s().choice_cards(*catalog, places), pile.size() - 1);
  std::uint8_t top = 0;
  while (places[top] != 0) ++top;
  run.act(Action::choose(top));
  EXPECT_EQ(run.s().hand().back(), known[0]);
  EXPECT_EQ(run.s().known_in_order_on_top(), 1u);
  EXPECT_EQ(draw_top_first(run.s()).front(), known[1]);
  const auto restored = restore(catalog, snapshot(run.battle));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored.value().state().known_in_order_on_top(), 1u);
}

// At random, any card of the draw pile may come, not only its top ones; with no draw pile,
// nothing comes (no reshuffle); the same seed takes the same cards.
TEST(DeckbuilderRulesHandOps, PutInHandFromTheDrawPileAtRandomTakesAnyOfItsCards) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "rummage" }, { "card": "jab", "count": 5 },
                                         { "card": "guard", "count": 6 })"});
  bool below_the_top = false;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Fight run(catalog, seed);
    const std::vector<CardRef> pile = draw_top_first(run.s());
    const std::size_t from = run.mark();
    run.play("rummage");
    const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
    ASSERT_EQ(moved.size(), 3u) << "two cards to the hand, then Rummage to the discard pile";
    std::vector<CardRef> left = pile;
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(static_cast<Pile>(moved[k].amount), Pile::Draw);
      EXPECT_EQ(static_cast<Pile>(moved[k].extra), Pile::Hand);
      const auto at = std::find(left.begin(), left.end(), static_cast<CardRef>(moved[k].subject));
      ASSERT_NE(at, left.end());
      if (at - left.begin() >= 2) below_the_top = true;
      left.erase(at);
    }
    EXPECT_EQ(draw_top_first(run.s()), left);
    Fight again(catalog, seed);
    again.play("rummage");
    EXPECT_TRUE(again.s() == run.s());
  }
  EXPECT_TRUE(below_the_top);

  Battle dry = scenario_battle(catalog, {{"hand", {"rummage"}}, {"discard_pile", {"jab", "guard"}}});
  ASSERT_TRUE(dry.submit(Action::play(dry.state().hand()[0], -1)).ok());
  EXPECT_TRUE(dry.state().hand().empty());
  EXPECT_EQ(dry.state().discard_pile().size(), 3u);
  EXPECT_TRUE(dry.state().draw_pile().empty());
}

// A listener may snapshot the battle at any event of a pick, the last card of its pile leaving
// included: every snapshot restores to itself, and the last pick leaves no choice waiting.
TEST(DeckbuilderRulesHandOps, ASnapshotAtAnyEventOfAPickRestores) {
  struct Snapper final : Listener {
    const Battle* battle = nullptr;
    std::shared_ptr<const Catalog> catalog;
    std::vector<std::string> kinds;  // the choice waiting at each event
    void on_event(const Event& e) override {
      const nlohmann::json s = snapshot(*battle);
      auto r = restore(catalog, s);
      ASSERT_TRUE(r.ok()) << "at " << event_type_name(e.type) << ": " << r.error().message;
      EXPECT_EQ(snapshot(r.value()), s);
      kinds.push_back(std::string(event_type_name(e.type)) + ":" +
                      s["state"]["choice"]["kind"].get<std::string>());
    }
  };
  const auto catalog = build({.cards = std::string(kHandCards),
                              .deck = R"({ "card": "salvage" }, { "card": "guard", "count": 9 })"});
  for (const std::size_t discarded : {std::size_t{1}, std::size_t{2}}) {
    nlohmann::json piles = {{"hand", {"salvage"}}, {"discard_pile", nlohmann::json::array()}};
    for (std::size_t i = 0; i < discarded; ++i) piles["discard_pile"].push_back("jab");
    Battle b = scenario_battle(catalog, piles);
    ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
    ASSERT_TRUE(b.is_waiting_for_choice());
    Snapper snapper;
    snapper.battle = &b;
    snapper.catalog = catalog;
    b.events().attach(&snapper);
    for (std::size_t i = 0; i < discarded; ++i) ASSERT_TRUE(b.submit(Action::choose(0)).ok());
    b.events().detach(&snapper);
    EXPECT_FALSE(b.is_waiting_for_choice());
    EXPECT_TRUE(b.state().discard_pile().size() == 1u) << "Salvage only";
    const std::vector<std::string> one = {"ChoiceMade:put_in_hand_from_discard", "CardMoved:none"};
    std::vector<std::string> expected = one;
    if (discarded == 2) {
      expected.push_back("ChoiceOffered:put_in_hand_from_discard");
      expected.insert(expected.end(), one.begin(), one.end());
    }
    expected.push_back("CardMoved:none");  // Salvage to the discard pile
    EXPECT_EQ(snapper.kinds, expected) << discarded << " discarded";
  }
}

// An op with a card_type takes only cards of that type: a Choice lists only those (kept in the
// choice, its snapshots and its hash), a random pick takes only those, and with none there the
// op does nothing.
TEST(DeckbuilderRulesHandOps, AHandCardOpWithACardTypeTakesOnlyCardsOfThatType) {
  const auto catalog =
      build({.cards = std::string(kHandCards), .deck = R"({ "card": "arm" }, { "card": "jab", "count": 4 },
                                         { "card": "guard", "count": 7 })"});
  Fight run(catalog, 3);
  std::vector<CardRef> attacks;  // of the draw pile, in instance order
  for (CardRef c : draw_top_first(run.s()))
    if (run.def(c).type == CardType::Attack) attacks.push_back(c);
  std::sort(attacks.begin(), attacks.end());
  ASSERT_GE(attacks.size(), 2u);
  ASSERT_LT(attacks.size(), run.s().draw_pile().size()) << "skills lie there too";
  run.play("arm");
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.s().choice.filter, card_filter_of(CardType::Attack));
  EXPECT_EQ(run.recorder.events.back().amount, static_cast<std::int32_t>(attacks.size()));
  EXPECT_EQ(run.battle.decision().options.size(), attacks.size());
  for (std::uint8_t i = 0; i < attacks.size(); ++i)
    EXPECT_EQ(action_label(run.battle, Action::choose(i)), "choose: put in hand " + run.def(attacks[i]).name);
  expect_refused(run.battle, Action::choose(static_cast<std::uint8_t>(attacks.size())),
                 RefusalReason::InvalidOption);
  // The filter is part of the state: its snapshot names it and restores it, its hash counts it.
  const nlohmann::json s = snapshot(run.battle);
  EXPECT_EQ(s["state"]["choice"]["card_type"], "attack");
  auto restored = restore(catalog, s);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  EXPECT_TRUE(copy.state() == run.s());
  Battle any = run.battle;
  Battle::Access::of(any).s.choice.filter = kAnyCard;
  EXPECT_NE(any.state_hash(), run.battle.state_hash());
  nlohmann::json unfiltered = s;
  unfiltered["state"]["choice"].erase("card_type");  // written before the filter was kept: any
  auto older = restore(catalog, unfiltered);
  ASSERT_TRUE(older.ok()) << older.error().message;
  EXPECT_EQ(older.value().decision().options.size(), run.s().draw_pile().size());
  nlohmann::json unknown = s;
  unknown["state"]["choice"]["card_type"] = "spell";
  expect_restore_refused(catalog, unknown, "/state/choice/card_type");
  run.act(Action::choose(1));
  EXPECT_EQ(run.s().hand().back(), attacks[1]);
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(snapshot(run.battle)["state"]["choice"]["card_type"], nullptr);
  nlohmann::json none = snapshot(run.battle);
  none["state"]["choice"]["card_type"] = "attack";
  expect_restore_refused(catalog, none, "/state/choice/card_type: expected null: a choice of no cards");

  // At random, from the hand: the attacks only, however many skills there are.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Battle shed = scenario_battle(build({.cards = std::string(kHandCards),
                                         .deck = R"({ "card": "shed" }, { "card": "guard", "count": 9 })"}),
                                  {{"hand", {"shed", "guard", "jab", "guard", "jab", "guard", "jab"}}});
    ASSERT_TRUE(shed.submit(Action::play(shed.state().hand()[0], -1)).ok());
    std::size_t jabs = 0;
    for (CardRef c : shed.state().hand()) jabs += shed.catalog().cards[shed.state().cards[c].def].id == "jab";
    EXPECT_EQ(jabs, 1u) << "seed " << seed;
    EXPECT_EQ(shed.state().hand().size(), 4u);
  }
  // None of the type there: nothing offered, nothing moved.
  Battle relic = scenario_battle(build({.cards = std::string(kHandCards),
                                        .deck = R"({ "card": "relic" }, { "card": "guard", "count": 9 })"}),
                                 {{"hand", {"relic"}}, {"discard_pile", {"jab", "guard"}}});
  ASSERT_TRUE(relic.submit(Action::play(relic.state().hand()[0], -1)).ok());
  EXPECT_FALSE(relic.is_waiting_for_choice());
  EXPECT_TRUE(relic.state().hand().empty());
  EXPECT_EQ(relic.state().discard_pile().size(), 3u);
}

/// The cards of `pile` of `b`, as their card ids, in pile order.
std::vector<std::string> card_ids(const Battle& b, std::span<const CardRef> pile) {
  std::vector<std::string> ids;
  for (CardRef c : pile) ids.push_back(b.catalog().cards[b.state().cards[c].def].id);
  return ids;
}

// Mode all takes every card the op may (of its card_type, when it names one), in the order a
// Choice would list them, with no decision and no draw from the Effects stream; cards going to
// the hand stop when it is full.
TEST(DeckbuilderRulesHandOps, ModeAllTakesEveryCardItMayInTheOrderAChoiceListsThem) {
  const auto catalog = build({.cards = std::string(kHandCards),
                              .deck = R"({ "card": "clear" }, { "card": "guard", "count": 9 })",
                              .rules = R"("hand_limit": 6)"});
  const auto play_first = [](Battle& b) {
    const Rng effects = b.state().rng[Stream::Effects];
    ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
    EXPECT_FALSE(b.is_waiting_for_choice());
    EXPECT_EQ(b.state().rng[Stream::Effects], effects) << "no random pick";
  };
  using Ids = std::vector<std::string>;
  // The hand, in hand order, then the card played.
  Battle clear =
      scenario_battle(catalog, {{"hand", {"clear", "guard", "jab", "sift"}}, {"discard_pile", {"jab"}}});
  const std::vector<CardRef> hand(clear.state().hand().begin() + 1, clear.state().hand().end());
  ASSERT_NO_FATAL_FAILURE(play_first(clear));
  EXPECT_TRUE(clear.state().hand().empty());
  EXPECT_EQ(card_ids(clear, clear.state().discard_pile()), (Ids{"jab", "guard", "jab", "sift", "clear"}));
  EXPECT_TRUE(std::equal(hand.begin(), hand.end(), clear.state().discard_pile().begin() + 1));
  // Of one type only.
  Battle cull = scenario_battle(catalog, {{"hand", {"cull", "jab", "guard", "jab", "sift"}}});
  ASSERT_NO_FATAL_FAILURE(play_first(cull));
  EXPECT_EQ(card_ids(cull, cull.state().hand()), (Ids{"guard", "sift"}));
  EXPECT_EQ(card_ids(cull, cull.state().exhaust_pile()), (Ids{"jab", "jab"}));
  // The discard pile, bottom first, while the hand has room (hoard is in it until its effect ends).
  Battle hoard = scenario_battle(
      catalog,
      {{"hand", {"hoard", "guard"}}, {"discard_pile", {"jab", "sift", "guard", "jab", "peek", "seek"}}});
  ASSERT_NO_FATAL_FAILURE(play_first(hoard));
  EXPECT_EQ(card_ids(hoard, hoard.state().hand()), (Ids{"guard", "jab", "sift", "guard", "jab"}));
  EXPECT_EQ(card_ids(hoard, hoard.state().discard_pile()), (Ids{"peek", "seek", "hoard"}));
  // On top of the draw pile, bottom first, so the top one of the discard pile is drawn first, and
  // the player knows them all in their order.
  Battle restack = scenario_battle(
      catalog,
      {{"hand", {"restack"}}, {"draw_pile", {"guard", "guard"}}, {"discard_pile", {"jab", "sift", "peek"}}});
  ASSERT_NO_FATAL_FAILURE(play_first(restack));
  EXPECT_EQ(card_ids(restack, draw_top_first(restack.state())),
            (Ids{"peek", "sift", "jab", "guard", "guard"}));
  EXPECT_EQ(restack.state().known_in_order_on_top(), 3u);
  EXPECT_EQ(card_ids(restack, restack.state().discard_pile()), (Ids{"restack"}));
  // The draw pile's cards of the type, in the order of the card instances: where they lie is not
  // told by the order they come in. The others keep theirs.
  Battle muster = scenario_battle(
      catalog, {{"hand", {"muster"}}, {"draw_pile", {"jab", "guard", "sift", "jab", "guard", "jab"}}});
  std::vector<CardRef> jabs;
  std::vector<CardRef> rest;
  for (CardRef c : draw_top_first(muster.state()))
    (card_ids(muster, std::span(&c, 1))[0] == "jab" ? jabs : rest).push_back(c);
  std::sort(jabs.begin(), jabs.end());
  ASSERT_EQ(jabs.size(), 3u);
  Battle::Access::of(muster).s.see_draw_pile_top(2);  // the player saw the top two lie there
  ASSERT_NO_FATAL_FAILURE(play_first(muster));
  EXPECT_EQ(std::vector<CardRef>(muster.state().hand().begin(), muster.state().hand().end()), jabs);
  EXPECT_EQ(draw_top_first(muster.state()), rest);
  EXPECT_EQ(muster.state().known_in_order_on_top(), 1u) << "the guard seen under the top jab";
  // None to take: nothing moves.
  Battle none = scenario_battle(catalog, {{"hand", {"cull", "guard"}}});
  ASSERT_NO_FATAL_FAILURE(play_first(none));
  EXPECT_EQ(card_ids(none, none.state().hand()), (Ids{"guard"}));
  EXPECT_TRUE(none.state().exhaust_pile().empty());
}

// A card_type may list several types, in any order: the op takes cards of any of them. A Choice
// keeps the set (its snapshot lists it in type order, its hash counts it), and a set of every
// type is no filter at all.
TEST(DeckbuilderRulesHandOps, ACardTypeListTakesCardsOfEachOfItsTypes) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "sever" }, { "card": "guard", "count": 9 })"});
  using Ids = std::vector<std::string>;
  // All but the attacks, in hand order.
  Battle sever = scenario_battle(catalog, {{"hand", {"sever", "jab", "guard", "wound", "charm", "jab"}}});
  ASSERT_TRUE(sever.submit(Action::play(sever.state().hand()[0], -1)).ok());
  EXPECT_EQ(card_ids(sever, sever.state().hand()), (Ids{"jab", "jab"}));
  EXPECT_EQ(card_ids(sever, sever.state().exhaust_pile()), (Ids{"guard", "wound", "charm"}));

  // A Choice of the attacks and the powers.
  Battle sort = scenario_battle(catalog, {{"hand", {"sort", "guard", "jab", "wound", "charm"}}});
  ASSERT_TRUE(sort.submit(Action::play(sort.state().hand()[0], -1)).ok());
  ASSERT_TRUE(sort.is_waiting_for_choice());
  const CardFilter set = card_filter_of(CardType::Attack) | card_filter_of(CardType::Power);
  EXPECT_EQ(sort.state().choice.filter, set);
  EXPECT_EQ(card_filter_name(set), "attack or power");
  ASSERT_EQ(sort.decision().options.size(), 2u);
  EXPECT_EQ(action_label(sort, Action::choose(0)), "choose: discard jab");
  EXPECT_EQ(action_label(sort, Action::choose(1)), "choose: discard charm");
  const nlohmann::json s = snapshot(sort);
  EXPECT_EQ(s["state"]["choice"]["card_type"], nlohmann::json({"attack", "power"}));
  nlohmann::json reordered = s;
  reordered["state"]["choice"]["card_type"] = {"power", "attack"};
  for (const nlohmann::json& j : {s, reordered}) {
    auto restored = restore(catalog, j);
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    EXPECT_TRUE(restored.value() == sort);
  }
  // Its hash counts the set; one type keeps the number it always had (a replay of a battle with
  // a filter of one type still matches).
  for (const CardFilter other :
       {kAnyCard, card_filter_of(CardType::Attack), card_filter_of(CardType::Power)}) {
    Battle copy = sort;
    Battle::Access::of(copy).s.choice.filter = other;
    EXPECT_NE(copy.state_hash(), sort.state_hash()) << card_filter_name(other);
  }
  for (std::uint8_t t = 0; t < kCardTypeNames.size(); ++t)
    EXPECT_EQ(card_filter_hash_code(card_filter_of(static_cast<CardType>(t))), t + 1);
  EXPECT_EQ(card_filter_hash_code(kAnyCard), 0);
  // Every type: any card, as null says.
  nlohmann::json every = s;
  every["state"]["choice"]["card_type"] = {"curse", "status", "power", "skill", "attack"};
  auto any = restore(catalog, every);
  ASSERT_TRUE(any.ok()) << any.error().message;
  EXPECT_EQ(any.value().state().choice.filter, kAnyCard);
  EXPECT_EQ(any.value().decision().options.size(), 4u);
  EXPECT_EQ(snapshot(any.value())["state"]["choice"]["card_type"], nullptr);
  // A bad list is refused at the element at fault.
  nlohmann::json twice = s;
  twice["state"]["choice"]["card_type"] = {"attack", "attack"};
  expect_restore_refused(catalog, twice, "/state/choice/card_type/1: 'attack' is listed twice");
  nlohmann::json unknown = s;
  unknown["state"]["choice"]["card_type"] = {"attack", "spell"};
  expect_restore_refused(catalog, unknown, "/state/choice/card_type/1: unknown value 'spell'");
  nlohmann::json empty = s;
  empty["state"]["choice"]["card_type"] = nlohmann::json::array();
  expect_restore_refused(catalog, empty,
                         "/state/choice/card_type: expected a type's name or a non-empty array");
  // With neither type left in the pile, the waiting choice is refused, naming the set.
  nlohmann::json gone = s;
  auto& hand = gone["state"]["hand"];
  gone["state"]["discard_pile"].push_back(hand[2]);
  gone["state"]["discard_pile"].push_back(hand[4]);
  hand.erase(4);
  hand.erase(2);
  expect_restore_refused(catalog, gone, "holds no attack or power card to pick");
  ASSERT_TRUE(sort.submit(Action::choose(1)).ok());
  EXPECT_EQ(card_ids(sort, sort.state().discard_pile()), (Ids{"charm", "sort"}));
}

// --- counted amounts ------------------------------------------------------------------------

constexpr std::string_view kCountingCards = R"(
  { "id": "slam", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": { "count": "armor" } }] },
  { "id": "tally", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "hand", "per": 2, "plus": 1 } }] },
  { "id": "surge", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "gain_energy", "amount": { "count": "hand", "per": 5 } }] },
  { "id": "finisher", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": { "count": "attacks_this_turn", "per": 6, "plus": -6 } }] },
  { "id": "tempo", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "cards_played_this_turn" } }] },
  { "id": "grit", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "missing_hp" } }] },
  { "id": "spark", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "energy", "per": 10 } }] },
  { "id": "relics", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "exhaust_pile" } }] },
  { "id": "depth", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "draw_pile", "per": -1, "plus": 20 } }] },
  { "id": "recoup", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "draw", "amount": { "count": "discard_pile" } }] },
  { "id": "hoist", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "apply_status", "status": "charge", "amount": 2, "target": "self" }] },
  { "id": "brand", "type": "skill", "cost": 0, "target": "enemy", "effects": [{ "op": "apply_status", "status": "mark", "amount": 3 }] },
  { "id": "reap", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": { "count": "stacks", "status": "mark", "of": "target", "per": 2 } }] },
  { "id": "execute", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": { "count": "missing_hp", "of": "target" } }] })";

// An amount may be counted as its op runs: plus + per × the count, within the op's range (0 let
// in). Each count is read at the moment the op starts.
TEST(DeckbuilderRulesAmounts, ACountedAmountIsCountedAsItsOpRuns) {
  const auto catalog = build({.cards = std::string(kCountingCards),
                              .deck = R"({ "card": "guard", "count": 10 })",
                              .statuses = R"({ "id": "charge", "timings": { "turn_start": [
                                 { "op": "armor", "amount": { "count": "stacks", "per": 3 }, "target": "self" }] } },
                                 { "id": "mark" })"});
  const auto play = [](Battle& b, std::size_t i, std::int8_t target = -1) {
    ASSERT_TRUE(b.submit(Action::play(b.state().hand()[i], target)).ok()) << "hand " << i;
  };
  const auto armor = [](const Battle& b) { return b.state().player.armor; };
  // Armor: the source's (Body Slam).
  Battle slam = scenario_battle(catalog, {{"hand", {"slam"}}, {"player", {{"armor", 13}}}});
  const std::int32_t hp = slam.state().enemies[0].unit.hp;
  ASSERT_NO_FATAL_FAILURE(play(slam, 0, 0));
  EXPECT_EQ(slam.state().enemies[0].unit.hp, hp - 13);
  // The hand, the card being played not counted: 1 + 2 × 3.
  Battle tally = scenario_battle(catalog, {{"hand", {"guard", "tally", "guard", "guard"}}});
  ASSERT_NO_FATAL_FAILURE(play(tally, 1));
  EXPECT_EQ(armor(tally), 7);
  // Kept within the op's range: gain_energy takes -9 to 9.
  Battle surge = scenario_battle(catalog, {{"hand", {"surge", "guard", "guard"}}, {"energy", 0}});
  ASSERT_NO_FATAL_FAILURE(play(surge, 0));
  EXPECT_EQ(surge.state().energy, 9);
  // The attacks played this turn, this one included; 0 (not -6) for the first.
  Battle finisher = scenario_battle(catalog, {{"hand", {"finisher", "slam", "finisher"}}});
  const std::int32_t ehp = finisher.state().enemies[0].unit.hp;
  ASSERT_NO_FATAL_FAILURE(play(finisher, 0, 0));
  EXPECT_EQ(finisher.state().enemies[0].unit.hp, ehp);
  ASSERT_NO_FATAL_FAILURE(play(finisher, 0, 0));  // Slam, with no armor: 0
  ASSERT_NO_FATAL_FAILURE(play(finisher, 0, 0));  // the third attack: 6 × 3 - 6
  EXPECT_EQ(finisher.state().enemies[0].unit.hp, ehp - 12);
  // The cards played this turn, this one included.
  Battle tempo = scenario_battle(catalog, {{"hand", {"tally", "tally", "tempo"}}});
  ASSERT_NO_FATAL_FAILURE(play(tempo, 0));
  ASSERT_NO_FATAL_FAILURE(play(tempo, 0));
  const std::int32_t before = armor(tempo);
  ASSERT_NO_FATAL_FAILURE(play(tempo, 0));
  EXPECT_EQ(armor(tempo) - before, 3);
  // Missing HP, energy, the exhaust and the draw piles.
  Battle grit = scenario_battle(catalog, {{"hand", {"grit"}}, {"player", {{"hp", 38}}}});
  ASSERT_NO_FATAL_FAILURE(play(grit, 0));
  EXPECT_EQ(armor(grit), 50 - 38);
  Battle spark = scenario_battle(catalog, {{"hand", {"spark"}}, {"energy", 2}});
  ASSERT_NO_FATAL_FAILURE(play(spark, 0));
  EXPECT_EQ(armor(spark), 20);
  Battle relics =
      scenario_battle(catalog, {{"hand", {"relics"}}, {"exhaust_pile", {"guard", "guard", "slam", "tempo"}}});
  ASSERT_NO_FATAL_FAILURE(play(relics, 0));
  EXPECT_EQ(armor(relics), 4);
  Battle depth = scenario_battle(catalog, {{"hand", {"depth"}}, {"draw_pile", {"guard", "guard", "guard"}}});
  ASSERT_NO_FATAL_FAILURE(play(depth, 0));
  EXPECT_EQ(armor(depth), 17);
  // A draw of as many cards as the discard pile holds, counted before the first is drawn.
  Battle recoup = scenario_battle(catalog, {{"hand", {"recoup"}},
                                            {"draw_pile", {"guard", "guard", "guard", "guard"}},
                                            {"discard_pile", {"slam", "slam", "slam"}}});
  ASSERT_NO_FATAL_FAILURE(play(recoup, 0));
  EXPECT_EQ(recoup.state().hand().size(), 3u);
  // A status's stacks, per 3: two stacks give 6 armor at the next turn's start.
  Battle hoist = scenario_battle(catalog, {{"hand", {"hoist"}}});
  ASSERT_NO_FATAL_FAILURE(play(hoist, 0));
  ASSERT_TRUE(hoist.submit(Action::end_turn()).ok());
  EXPECT_EQ(armor(hoist), 6);
  // A named status's stacks, and missing HP, of the chosen target: 2 × 3 marks, then the 6 it
  // is missing.
  Battle reap = scenario_battle(catalog, {{"hand", {"brand", "reap", "execute"}}});
  const std::int32_t full = reap.state().enemies[0].unit.hp;
  ASSERT_EQ(full, reap.state().enemies[0].unit.max_hp);
  ASSERT_NO_FATAL_FAILURE(play(reap, 0, 0));
  ASSERT_NO_FATAL_FAILURE(play(reap, 0, 0));
  EXPECT_EQ(reap.state().enemies[0].unit.hp, full - 6);
  ASSERT_NO_FATAL_FAILURE(play(reap, 0, 0));
  EXPECT_EQ(reap.state().enemies[0].unit.hp, full - 12);
  // The catalog keeps each counted amount once, with the op's range.
  ASSERT_EQ(catalog->counted_amounts.size(), 13u);
  const auto energy = std::find_if(catalog->counted_amounts.begin(), catalog->counted_amounts.end(),
                                   [](const CountedAmount& a) { return a.per == 5; });
  ASSERT_NE(energy, catalog->counted_amounts.end());
  EXPECT_EQ(energy->count, AmountCount::Hand);
  EXPECT_EQ(energy->plus, 0);
  EXPECT_EQ(energy->min, -9);
  EXPECT_EQ(energy->max, 9);
  EXPECT_EQ(std::count_if(catalog->ops.begin(), catalog->ops.end(),
                          [](const Op& op) { return (op.flags & kAmountCounted) != 0; }),
            13);
}

constexpr std::string_view kCardCountCards = R"(
  { "id": "drill", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "hand", "card_type": "attack", "per": 2 } }] },
  { "id": "stock", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "draw_pile", "card_type": ["skill", "power"] } }] },
  { "id": "scrap", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": { "count": "discard_pile", "card_type": "attack", "per": 4 } }] },
  { "id": "combo", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "armor", "amount": { "count": "cards_played_this_turn", "card_type": "skill", "per": 3 } }] },
  { "id": "flurry", "type": "attack", "cost": 0, "target": "enemy", "effects": [{ "op": "damage", "amount": 2, "times": { "count": "hand", "card_type": "attack" } }] },
  { "id": "drumroll", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "repeat", "times": { "count": "exhaust_pile" }, "effects": [{ "op": "armor", "amount": 1 }] }] })";

// A count of cards may take a card_type: only the cards of its types count. A number of hits or
// passes may be counted as well, 0 running none.
TEST(DeckbuilderRulesAmounts, ACountOfCardsTakesACardTypeAndHitsMayBeCounted) {
  const auto catalog =
      build({.cards = std::string(kCardCountCards), .deck = R"({ "card": "guard", "count": 10 })"});
  const auto play = [](Battle& b, std::size_t i, std::int8_t target = -1) {
    ASSERT_TRUE(b.submit(Action::play(b.state().hand()[i], target)).ok()) << "hand " << i;
  };
  const auto armor = [](const Battle& b) { return b.state().player.armor; };
  // Two attacks in hand, per 2; the guard is a skill.
  Battle drill = scenario_battle(catalog, {{"hand", {"drill", "jab", "guard", "jab"}}});
  ASSERT_NO_FATAL_FAILURE(play(drill, 0));
  EXPECT_EQ(armor(drill), 4);
  // The skills and powers of the draw pile: guard, noop, guard (jab is an attack).
  Battle stock =
      scenario_battle(catalog, {{"hand", {"stock"}}, {"draw_pile", {"guard", "jab", "noop", "guard"}}});
  ASSERT_NO_FATAL_FAILURE(play(stock, 0));
  EXPECT_EQ(armor(stock), 3);
  // Two attacks in the discard pile, per 4.
  Battle scrap = scenario_battle(catalog, {{"hand", {"scrap"}}, {"discard_pile", {"jab", "guard", "jab"}}});
  const std::int32_t hp = scrap.state().enemies[0].unit.hp;
  ASSERT_NO_FATAL_FAILURE(play(scrap, 0, 0));
  EXPECT_EQ(scrap.state().enemies[0].unit.hp, hp - 8);
  // The skills played this turn, this one included: noop and combo, not jab.
  Battle combo = scenario_battle(catalog, {{"hand", {"noop", "jab", "combo"}}});
  ASSERT_NO_FATAL_FAILURE(play(combo, 0));
  ASSERT_NO_FATAL_FAILURE(play(combo, 0, 0));
  ASSERT_NO_FATAL_FAILURE(play(combo, 0));
  EXPECT_EQ(armor(combo), 6);
  // As many hits as the other attacks in hand: three of 2; with none, no hit.
  Battle flurry = scenario_battle(catalog, {{"hand", {"flurry", "jab", "jab", "guard", "jab"}}});
  const std::int32_t full = flurry.state().enemies[0].unit.hp;
  ASSERT_NO_FATAL_FAILURE(play(flurry, 0, 0));
  EXPECT_EQ(flurry.state().enemies[0].unit.hp, full - 6);
  Battle alone = scenario_battle(catalog, {{"hand", {"flurry", "guard"}}});
  ASSERT_NO_FATAL_FAILURE(play(alone, 0, 0));
  EXPECT_EQ(alone.state().enemies[0].unit.hp, full);
  // A repeat as many times as the exhaust pile has cards; none with it empty.
  Battle drumroll =
      scenario_battle(catalog, {{"hand", {"drumroll"}}, {"exhaust_pile", {"jab", "guard", "noop"}}});
  ASSERT_NO_FATAL_FAILURE(play(drumroll, 0));
  EXPECT_EQ(armor(drumroll), 3);
  Battle quiet = scenario_battle(catalog, {{"hand", {"drumroll"}}});
  ASSERT_NO_FATAL_FAILURE(play(quiet, 0));
  EXPECT_EQ(armor(quiet), 0);
  EXPECT_TRUE(quiet.state().effects.empty());
  // What the catalog holds: the filters, and the counted hits and passes with their ranges.
  const auto of_count = [&](AmountCount count) {
    return *std::find_if(catalog->counted_amounts.begin(), catalog->counted_amounts.end(),
                         [&](const CountedAmount& a) { return a.count == count; });
  };
  EXPECT_EQ(of_count(AmountCount::DrawPile).cards,
            card_filter_of_set(1u << static_cast<unsigned>(CardType::Skill) |
                               1u << static_cast<unsigned>(CardType::Power)));
  EXPECT_EQ(of_count(AmountCount::ExhaustPile).cards, kAnyCard);
  EXPECT_EQ(of_count(AmountCount::ExhaustPile).max, 20);
  EXPECT_EQ(of_count(AmountCount::ExhaustPile).min, 0);
  EXPECT_EQ(std::count_if(catalog->ops.begin(), catalog->ops.end(),
                          [](const Op& op) { return (op.flags & kTimesCounted) != 0; }),
            2);  // flurry's hits and drumroll's passes
  EXPECT_EQ(std::count_if(
                catalog->ops.begin(), catalog->ops.end(),
                [](const Op& op) { return (op.flags & kOneHit) != 0 && (op.flags & kTimesCounted) != 0; }),
            0);
}

constexpr std::string_view kXCostCards = R"(
  { "id": "whirl", "type": "attack", "cost": "x", "target": "none", "effects": [
      { "op": "damage", "amount": 5, "times": { "count": "x" }, "target": "all_enemies" }] },
  { "id": "brace", "type": "skill", "cost": "x", "target": "none", "effects": [
      { "op": "repeat", "times": { "count": "x", "plus": 1 }, "effects": [{ "op": "armor", "amount": 2 }] },
      { "op": "armor", "amount": { "count": "x", "per": 10 } }],
    "upgrade": { "cost": "x", "text": "More." } },
  { "id": "ponder", "type": "skill", "cost": "x", "target": "none", "effects": [
      { "op": "choice", "options": [
        { "label": "Guard", "effects": [{ "op": "armor", "amount": { "count": "x", "per": 3 } }] },
        { "label": "Nothing", "effects": [] }] }] },
  { "id": "cheapen", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "cost_rule", "scope": "hand", "set": 0 }] },
  { "id": "conjure", "type": "skill", "cost": "x", "target": "none", "effects": [
      { "op": "add_card", "card": "jab", "count": { "count": "x" }, "pile": "hand" }] })";

// An X-cost card takes all the energy, 0 too, and its effects count what it took; no cost rule
// changes it. The X is kept through a Choice, in snapshots and in the state hash.
TEST(DeckbuilderRulesPlayCheck, AnXCostCardTakesAllTheEnergyAndCountsIt) {
  const auto catalog = build({.cards = std::string(kXCostCards),
                              .deck = R"({ "card": "guard", "count": 10 })",
                              .foes = R"("dummy", "dummy")"});
  const CardDef& whirl_def = catalog->cards[*catalog->find_card("whirl")];
  EXPECT_EQ(whirl_def.cost, kXCost);
  EXPECT_TRUE(whirl_def.x_cost());
  EXPECT_TRUE(catalog->cards[*catalog->find_card("brace+")].x_cost());
  EXPECT_FALSE(catalog->cards[*catalog->find_card("cheapen")].x_cost());
  // Three energy: three hits on each enemy, and no energy left.
  Battle whirl = scenario_battle(catalog, {{"hand", {"whirl", "guard"}}, {"energy", 3}});
  const std::int32_t hp = whirl.state().enemies[0].unit.hp;
  EXPECT_EQ(whirl.effective_cost(whirl.state().hand()[0]), 3);
  EXPECT_EQ(action_label(whirl, Action::play(whirl.state().hand()[0], -1)), "play whirl (cost X = 3)");
  ASSERT_TRUE(whirl.submit(Action::play(whirl.state().hand()[0], -1)).ok());
  EXPECT_EQ(whirl.state().enemies[0].unit.hp, hp - 15);
  EXPECT_EQ(whirl.state().enemies[1].unit.hp, hp - 15);
  EXPECT_EQ(whirl.state().energy, 0);
  EXPECT_TRUE(whirl.state().playing == PlayInProgress{});
  EXPECT_EQ(whirl.state().playing_x, 0) << "the X goes with the play";
  // With no energy the card is still listed and played: X is 0, no hit.
  Battle broke = scenario_battle(catalog, {{"hand", {"whirl", "guard"}}, {"energy", 0}});
  std::vector<Action> options;
  broke.legal_actions(options);
  EXPECT_EQ(std::count_if(options.begin(), options.end(),
                          [](const Action& a) { return a.kind == ActionKind::PlayCard; }),
            1);
  ASSERT_TRUE(broke.submit(Action::play(broke.state().hand()[0], -1)).ok());
  EXPECT_EQ(broke.state().enemies[0].unit.hp, hp);
  // X + 1 passes of 2 armor, then 10 per X: two energy give 6 + 20.
  Battle brace = scenario_battle(catalog, {{"hand", {"brace"}}, {"energy", 2}});
  ASSERT_TRUE(brace.submit(Action::play(brace.state().hand()[0], -1)).ok());
  EXPECT_EQ(brace.state().player.armor, 26);
  // X new cards: three jabs in hand for three energy, none for none.
  for (const int energy : {3, 0}) {
    Battle conjure = scenario_battle(catalog, {{"hand", {"conjure"}}, {"energy", energy}});
    ASSERT_TRUE(conjure.submit(Action::play(conjure.state().hand()[0], -1)).ok());
    EXPECT_EQ(conjure.state().hand().size(), static_cast<std::size_t>(energy)) << energy << " energy";
    for (const CardRef card : conjure.state().hand())
      EXPECT_EQ(catalog->cards[conjure.state().cards[card].def].id, "jab");
  }
  // Cost rules leave it alone: after "everything in hand costs 0" it still takes all the energy.
  Battle cheap = scenario_battle(catalog, {{"hand", {"cheapen", "brace", "jab"}}, {"energy", 2}});
  ASSERT_TRUE(cheap.submit(Action::play(cheap.state().hand()[0], -1)).ok());
  const CardRef brace_ref = cheap.state().hand()[0];
  EXPECT_FALSE(cheap.state().cards[brace_ref].has_cost_rule());
  EXPECT_EQ(cheap.effective_cost(cheap.state().hand()[1]), 0) << "the jab takes the rule";
  EXPECT_EQ(cheap.effective_cost(brace_ref), 2);
  ASSERT_TRUE(cheap.submit(Action::play(brace_ref, -1)).ok());
  EXPECT_EQ(cheap.state().energy, 0);
  EXPECT_EQ(cheap.state().player.armor, 26);
  // Through a Choice: the X waits with the play, in the snapshot and the hash.
  Battle ponder = scenario_battle(catalog, {{"hand", {"ponder"}}, {"energy", 2}});
  ASSERT_TRUE(ponder.submit(Action::play(ponder.state().hand()[0], -1)).ok());
  ASSERT_TRUE(ponder.is_waiting_for_choice());
  EXPECT_EQ(ponder.state().playing_x, 2);
  const nlohmann::json waiting = snapshot(ponder);
  EXPECT_EQ(waiting["state"]["playing"]["x"], 2);
  auto restored = restore(catalog, waiting);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle again = std::move(restored).value();
  EXPECT_EQ(again.state_hash(), ponder.state_hash());
  nlohmann::json other_x = waiting;
  other_x["state"]["playing"]["x"] = 1;
  auto differs = restore(catalog, other_x);
  ASSERT_TRUE(differs.ok()) << differs.error().message;
  EXPECT_NE(differs.value().state_hash(), ponder.state_hash()) << "the hash counts the X";
  ASSERT_TRUE(again.submit(Action::choose(0)).ok());
  EXPECT_EQ(again.state().player.armor, 6);
  // A snapshot written before X costs (no "x") reads as 0; an X outside an X-cost card's play is refused.
  nlohmann::json older = waiting;
  older["state"]["playing"].erase("x");
  auto old_read = restore(catalog, older);
  ASSERT_TRUE(old_read.ok()) << old_read.error().message;
  EXPECT_EQ(old_read.value().state().playing_x, 0);
  const Battle idle_battle = scenario_battle(catalog, {{"hand", {"ponder"}}});
  nlohmann::json idle = snapshot(idle_battle);
  idle["state"]["playing"]["x"] = 1;
  expect_restore_refused(catalog, idle,
                         "/state/playing/x: only an X-cost card in play has an X: expected 0, got 1");
  // No cost rule applies to an X-cost card, and a snapshot may give it none.
  const CardRef ponder_ref = idle_battle.state().hand()[0];
  nlohmann::json ruled = snapshot(idle_battle);
  ruled["state"]["cards"][ponder_ref]["battle_cost_change"] = -1;
  expect_restore_refused(
      catalog, ruled,
      fmt::format("/state/cards/{}/card: card 'ponder' costs X, which no cost rule changes", ponder_ref));
}

// The hand has room for one card of the two asked (the card being played is in it until its
// effect ends, as for a draw): a choice ends after one pick, a random pick takes one; with the
// hand full, nothing is offered. A snapshot of a choice waiting with a full hand is refused.
TEST(DeckbuilderRulesHandOps, PutInHandStopsWhenTheHandIsFull) {
  const auto catalog = build({.cards = std::string(kHandCards),
                              .deck = R"({ "card": "salvage" }, { "card": "guard", "count": 9 })",
                              .rules = R"("hand_limit": 3)"});
  const nlohmann::json piles = {{"hand", {"salvage", "guard"}}, {"discard_pile", {"jab", "jab", "sift"}}};
  Battle chosen = scenario_battle(catalog, piles);
  ASSERT_TRUE(chosen.submit(Action::play(chosen.state().hand()[0], -1)).ok());
  ASSERT_TRUE(chosen.is_waiting_for_choice());
  EXPECT_EQ(chosen.decision().options.size(), 3u);
  const nlohmann::json waiting = snapshot(chosen);
  const CardRef picked = chosen.state().discard_pile()[2];
  const CardRef guard = chosen.state().hand()[1];
  ASSERT_TRUE(chosen.submit(Action::choose(2)).ok());
  EXPECT_FALSE(chosen.is_waiting_for_choice()) << "the hand is full after one pick";
  EXPECT_EQ(std::vector<CardRef>(chosen.state().hand().begin(), chosen.state().hand().end()),
            (std::vector<CardRef>{guard, picked}))
      << "then Salvage left it";

  nlohmann::json full = waiting;  // a third card in hand: no room for any
  full["state"]["hand"].push_back(full["state"]["discard_pile"][0]);
  full["state"]["discard_pile"].erase(0);
  expect_restore_refused(catalog, full,
                         "/state/choice/kind: a choice of cards (put_in_hand_from_discard) "
                         "waits, but the hand they go to is full (3 cards)");

  nlohmann::json at_random = piles;
  at_random["hand"] = {"scrounge", "guard"};
  Battle random = scenario_battle(build({.cards = std::string(kHandCards),
                                         .deck = R"({ "card": "scrounge" }, { "card": "guard", "count": 9 })",
                                         .rules = R"("hand_limit": 3)"}),
                                  at_random);
  ASSERT_TRUE(random.submit(Action::play(random.state().hand()[0], -1)).ok());
  EXPECT_EQ(random.state().hand().size(), 2u) << "one card came, then Scrounge left the hand";
  EXPECT_EQ(random.state().discard_pile().size(), 3u);  // two of the three, and Scrounge

  nlohmann::json no_room = piles;
  no_room["hand"] = {"salvage", "guard", "guard"};
  Battle none = scenario_battle(catalog, no_room);
  ASSERT_TRUE(none.submit(Action::play(none.state().hand()[0], -1)).ok());
  EXPECT_FALSE(none.is_waiting_for_choice());
  EXPECT_EQ(none.state().discard_pile().size(), 4u);  // the three, and Salvage
}

TEST(DeckbuilderRulesHandOps, PutInHandAtRandomTakesCardsOfThePileOnTheEffectsStream) {
  const auto catalog = build({.cards = std::string(kHandCards),
                              .deck = R"({ "card": "scrounge" }, { "card": "guard", "count": 9 })"});
  std::set<std::vector<CardRef>> picks;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    Battle b = scenario_battle(catalog, {{"hand", {"scrounge"}}, {"discard_pile", {"jab", "guard", "sift"}}});
    Battle::Access::of(b).s.rng = RngStreams(seed);  // the random picks drawn afresh
    const std::vector<CardRef> discard(b.state().discard_pile().begin(), b.state().discard_pile().end());
    ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
    EXPECT_FALSE(b.is_waiting_for_choice());
    const std::vector<CardRef> hand(b.state().hand().begin(), b.state().hand().end());
    ASSERT_EQ(hand.size(), 2u);
    EXPECT_NE(hand[0], hand[1]);
    for (CardRef c : hand) EXPECT_NE(std::find(discard.begin(), discard.end(), c), discard.end());
    picks.insert(hand);
  }
  EXPECT_GE(picks.size(), 4u);  // of the six ordered pairs
}

TEST(DeckbuilderRulesHandOps, PutInHandFromAnEmptyPileDoesNothing) {
  Fight run(hand_pack("exhume"));
  ASSERT_TRUE(run.s().exhaust_pile().empty());
  const std::size_t from = run.mark();
  run.play("exhume");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "CardMoved"}));
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
}

// scry: a skippable Choice of the draw pile's top cards, top first, one decision per card
// discarded; the player knows the cards left there and their order, the search keeps them, a
// snapshot between two picks restores the same battle, and the play's next op draws the top one.
TEST(DeckbuilderRulesHandOps, ScryOffersTheTopCardsTopFirstAndDiscardsThePicks) {
  const auto catalog = hand_pack("peek");
  Fight run(catalog);
  std::vector<CardRef> top(run.s().draw_pile().size());
  for (std::size_t i = 0; i < top.size(); ++i) top[i] = run.s().draw_pile()[top.size() - 1 - i];
  ASSERT_GE(top.size(), 4u);
  ASSERT_EQ(run.s().known_on_top(), 0u);
  std::size_t from = run.mark();
  run.play("peek");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ChoiceOffered"}));
  EXPECT_EQ(run.recorder.events.back().amount, 3);
  EXPECT_EQ(event_to_json(run.recorder.events.back(), run.battle.catalog())["kind"], "discard_from_draw_top");
  EXPECT_EQ(run.battle.decision().options, (std::vector<Action>{Action::choose(0), Action::choose(1),
                                                                Action::choose(2), Action::skip_choice()}));
  EXPECT_EQ(action_label(run.battle, Action::choose(1)), "choose: discard " + run.def(top[1]).name);
  EXPECT_EQ(run.s().known_on_top(), 3u);
  EXPECT_EQ(run.s().known_in_order_on_top(), 3u);
  from = run.mark();
  run.act(Action::choose(1));
  const std::vector<Event> moved = of_type(run.events_since(from), EventType::CardMoved);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].subject, top[1]);
  EXPECT_EQ(static_cast<Pile>(moved[0].amount), Pile::Draw);
  EXPECT_EQ(static_cast<Pile>(moved[0].extra), Pile::Discard);
  EXPECT_EQ(run.s().discard_pile().back(), top[1]);
  ASSERT_TRUE(run.battle.is_waiting_for_choice());
  EXPECT_EQ(run.battle.decision().options,
            (std::vector<Action>{Action::choose(0), Action::choose(1), Action::skip_choice()}));
  EXPECT_EQ(action_label(run.battle, Action::choose(1)), "choose: discard " + run.def(top[2]).name);
  EXPECT_EQ(run.s().known_in_order_on_top(), 2u);

  const nlohmann::json snap = snapshot(run.battle);
  EXPECT_EQ(snap["state"]["choice"]["kind"], "discard_from_draw_top");
  EXPECT_EQ(snap["state"]["choice"]["skippable"], true);
  auto restored = restore(catalog, snap);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  // The search re-samples the cards under the two seen, and keeps those on top as they lie.
  for (std::uint64_t sample = 1; sample <= 10; ++sample) {
    Battle other = run.battle;
    resample_hidden(other, sample);
    EXPECT_EQ(other.state().draw_pile().back(), top[0]);
    EXPECT_EQ(other.state().draw_pile()[other.state().draw_pile().size() - 2], top[2]);
  }
  ASSERT_TRUE(copy.submit(Action::skip_choice()).ok());
  from = run.mark();
  run.act(Action::skip_choice());
  EXPECT_TRUE(copy.state() == run.s());
  EXPECT_FALSE(run.battle.is_waiting_for_choice());
  const std::vector<Event> drawn = of_type(run.events_since(from), EventType::CardDrawn);
  ASSERT_EQ(drawn.size(), 1u);
  EXPECT_EQ(drawn[0].subject, top[0]) << "the top card, kept there";
  EXPECT_EQ(run.s().draw_pile().back(), top[2]);
  EXPECT_EQ(run.s().known_in_order_on_top(), 1u);
}

// Fewer cards in the draw pile than the scry's amount: all of them, and no reshuffle; with none,
// nothing is offered. Each card discarded ends the choice when none is left to look at.
TEST(DeckbuilderRulesHandOps, ScryLooksAtWhatTheDrawPileHolds) {
  const auto catalog = build(
      {.cards = std::string(kHandCards), .deck = R"({ "card": "peek" }, { "card": "guard", "count": 9 })"});
  Battle two = scenario_battle(
      catalog, {{"hand", {"peek"}}, {"draw_pile", {"jab", "guard"}}, {"discard_pile", {"sift"}}});
  ASSERT_TRUE(two.submit(Action::play(two.state().hand()[0], -1)).ok());
  ASSERT_TRUE(two.is_waiting_for_choice());
  EXPECT_EQ(two.decision().options.size(), 3u);  // two cards and the skip
  EXPECT_EQ(two.state().discard_pile().size(), 1u) << "no reshuffle";
  ASSERT_TRUE(two.submit(Action::choose(0)).ok());
  ASSERT_TRUE(two.submit(Action::choose(0)).ok());
  EXPECT_FALSE(two.is_waiting_for_choice()) << "both looked at, both discarded";
  // The draw then reshuffles the three discarded cards and draws one.
  EXPECT_EQ(two.state().hand().size(), 1u);
  EXPECT_EQ(two.state().draw_pile().size(), 2u);
  EXPECT_EQ(two.state().known_on_top(), 0u);

  Battle none = scenario_battle(catalog, {{"hand", {"peek"}}, {"draw_pile", nlohmann::json::array()}});
  ASSERT_TRUE(none.submit(Action::play(none.state().hand()[0], -1)).ok());
  EXPECT_FALSE(none.is_waiting_for_choice());
  EXPECT_EQ(none.state().known_on_top(), 0u);
}

/// The hand-card pack with an Innate "rune" that does nothing: a deck of one `card`, `runes` runes
/// and 5 Guards, whose opening hand draws 5 Innate cards and leaves the other runes on top.
std::shared_ptr<const Catalog> runes_pack(std::string_view card, int runes) {
  return build({.cards = std::string(kHandCards) + R"(,
      { "id": "rune", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [] })",
                .deck = R"({ "card": ")" + std::string(card) + R"(" }, { "card": "rune", "count": )" +
                        std::to_string(runes) + R"( }, { "card": "guard", "count": 5 })"});
}

// Over Innate cards left on top, in an order the player has not seen, a scry that looks at fewer
// cards than they are makes those known in order, and the rest stay known in an unknown order; one
// that looks deeper makes every card it sees known in order, the run of known cards reaching down.
TEST(DeckbuilderRulesHandOps, ScryOverInnateCardsKnowsTheOrderOfWhatItSaw) {
  struct Case {
    int runes;
    std::size_t known_before, known_after, in_order_after;
  };
  for (const Case c : {Case{8, 4, 4, 3}, Case{6, 2, 3, 3}}) {
    SCOPED_TRACE(c.runes);
    const auto catalog = runes_pack("peek", c.runes);
    std::size_t battles = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      Fight run(catalog, seed);
      if (!run.in_hand("peek")) continue;  // the opening hand draws 5 of the Innate cards
      ++battles;
      ASSERT_EQ(run.s().known_on_top(), c.known_before);
      ASSERT_EQ(run.s().known_in_order_on_top(), 0u);
      run.play("peek");
      EXPECT_EQ(run.s().known_on_top(), c.known_after);
      EXPECT_EQ(run.s().known_in_order_on_top(), c.in_order_after);
      run.act(Action::skip_choice());
      EXPECT_EQ(run.s().known_on_top(), c.known_after - 1);  // the top one drawn
      EXPECT_EQ(run.s().known_in_order_on_top(), c.in_order_after - 1);
    }
    EXPECT_GE(battles, 2u);
  }
}

// Over Innate cards left on top, whose order the player has not seen, a card put there is known
// in order: the search keeps it on the very top, the Innate cards under it in an order drawn
// afresh, and the rest under them.
TEST(DeckbuilderRulesHandOps, ACardPutOverInnateCardsIsKnownInOrderAndTheyAreNot) {
  const auto catalog = runes_pack("stack", 6);
  std::size_t battles = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Fight run(catalog, seed);
    if (!run.in_hand("stack")) continue;  // the opening hand draws 5 of the 7 Innate cards
    ++battles;
    SCOPED_TRACE(seed);
    ASSERT_EQ(run.s().known_on_top(), 2u);  // the two runes the hand had no room for
    ASSERT_EQ(run.s().known_in_order_on_top(), 0u);
    const std::string rune = run.def(run.s().draw_pile().back()).name;
    EXPECT_NE(render_text(run.battle).find("(on top, in an unknown order: " + rune + ", " + rune + ") |"),
              std::string::npos)
        << render_text(run.battle);
    run.play("stack");
    const CardRef put = others(run, run.card("stack"))[0];
    run.act(Action::choose(0));
    run.act(Action::choose(0));  // the second pick: what was the second card
    const std::vector<CardRef> real(run.s().draw_pile().begin(), run.s().draw_pile().end());
    ASSERT_EQ(real.size(), 9u);
    EXPECT_EQ(run.s().known_on_top(), 4u);
    EXPECT_EQ(run.s().known_in_order_on_top(), 2u);
    EXPECT_EQ(real.end()[-2], put);
    const std::string shown = "(on top: " + run.def(real.end()[-1]).name + ", " + run.def(put).name +
                              "; under them, in an unknown order: " + rune + ", " + rune + ") |";
    EXPECT_NE(render_text(run.battle).find(shown), std::string::npos) << render_text(run.battle);
    const std::set<CardRef> runes = {real.end()[-3], real.end()[-4]};
    std::set<std::vector<CardRef>> rune_orders;
    for (std::uint64_t sample = 1; sample <= 20; ++sample) {
      Battle other = run.battle;
      resample_hidden(other, sample);
      const std::vector<CardRef> pile(other.state().draw_pile().begin(), other.state().draw_pile().end());
      EXPECT_TRUE(std::equal(pile.end() - 2, pile.end(), real.end() - 2)) << "sample " << sample;
      EXPECT_EQ((std::set<CardRef>{pile.end()[-3], pile.end()[-4]}), runes) << "sample " << sample;
      rune_orders.insert({pile.end()[-3], pile.end()[-4]});
    }
    EXPECT_EQ(rune_orders.size(), 2u);  // both orders of the two runes come up
    // Known in order or only known: the hash tells them apart.
    Battle unordered = run.battle;
    Battle::Access::of(unordered).s.draw_ordered_from = kNothingKnownOnTop;
    EXPECT_NE(unordered.state_hash(), run.battle.state_hash());
  }
  EXPECT_GE(battles, 5u);
}

// =============================================================================================
// The upgrade op: cards upgraded where they lie, for the rest of the battle
// =============================================================================================

constexpr std::string_view kUpgradeCards = R"(
  { "id": "hone", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "upgrade", "amount": 1, "mode": "choose" }] },
  { "id": "hone_all", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "upgrade", "mode": "all" }] },
  { "id": "whet", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "upgrade", "amount": 2, "mode": "random", "from": "draw" }] },
  { "id": "temper", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "upgrade", "amount": 1, "mode": "choose", "from": "draw", "card_type": "attack" }] },
  { "id": "refit", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "upgrade", "amount": 2, "mode": "choose", "from": "discard" }] },
  { "id": "ease", "type": "skill", "cost": 0, "target": "none", "effects": [{ "op": "cost_rule", "scope": "hand", "change": -1, "turns": 2 }] },
  { "id": "blade", "type": "attack", "cost": 2, "target": "enemy", "effects": [{ "op": "damage", "amount": 6 }],
    "upgrade": { "cost": 1, "effects": [{ "op": "damage", "amount": 9 }] } },
  { "id": "ward", "type": "skill", "cost": 1, "target": "none", "effects": [{ "op": "armor", "amount": 5 }],
    "upgrade": { "effects": [{ "op": "armor", "amount": 8 }] } },
  { "id": "surge", "type": "skill", "cost": 1, "target": "none", "effects": [], "upgrade": { "cost": "x" } })";

std::shared_ptr<const Catalog> upgrade_pack() {
  return build({.cards = std::string(kUpgradeCards), .deck = R"({ "card": "guard", "count": 10 })"});
}

// Mode choose: a Choice of the hand's cards that have an upgrade, the card being played not among
// them; the pick becomes its upgraded card where it lies, with the upgrade's cost and effects.
TEST(DeckbuilderRulesUpgrade, ChooseOffersTheHandCardsWithAnUpgradeAndUpgradesThePick) {
  using Ids = std::vector<std::string>;
  const auto catalog = upgrade_pack();
  Battle b = scenario_battle(catalog, {{"hand", {"hone", "guard", "blade", "ward", "blade"}}});
  Recorder recorder;
  b.events().attach(&recorder);
  const CardRef blade = b.state().hand()[2];
  EXPECT_EQ(b.effective_cost(blade), 2);
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
  ASSERT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.state().choice.kind, PendingChoice::Kind::UpgradeInHand);
  EXPECT_EQ(event_to_json(recorder.events.back(), *catalog)["kind"], "upgrade_in_hand");
  ASSERT_EQ(b.decision().options.size(), 3u) << "not the guard, which has no upgrade, nor the hone";
  EXPECT_EQ(action_label(b, Action::choose(0)), "choose: upgrade blade");
  EXPECT_EQ(action_label(b, Action::choose(1)), "choose: upgrade ward");
  expect_refused(b, Action::skip_choice(), RefusalReason::InvalidOption);
  const nlohmann::json waiting = snapshot(b);
  EXPECT_EQ(waiting["state"]["choice"]["kind"], "upgrade_in_hand");

  const std::size_t from = recorder.events.size();
  ASSERT_TRUE(b.submit(Action::choose(0)).ok());
  EXPECT_FALSE(b.is_waiting_for_choice()) << "one card to upgrade";
  EXPECT_EQ(card_ids(b, b.state().hand()), (Ids{"guard", "blade+", "ward", "blade"}));
  EXPECT_EQ(b.state().hand()[1], blade) << "upgraded where it lies";
  const std::vector<Event> upgraded =
      of_type({recorder.events.begin() + static_cast<std::ptrdiff_t>(from), recorder.events.end()},
              EventType::CardUpgraded);
  ASSERT_EQ(upgraded.size(), 1u);
  EXPECT_EQ(upgraded[0].subject, blade);
  EXPECT_EQ(upgraded[0].value, *catalog->find_card("blade+"));
  EXPECT_EQ(upgraded[0].amount, *catalog->find_card("blade"));
  const nlohmann::json j = event_to_json(upgraded[0], *catalog);
  EXPECT_EQ(j["type"], "CardUpgraded");
  EXPECT_EQ(j["card"], blade);
  EXPECT_EQ(j["card_id"], "blade+");
  EXPECT_EQ(j["from"], "blade");
  EXPECT_EQ(event_text(b, upgraded[0]), "blade is upgraded to blade+");
  // The upgrade's cost, in the listing the options read too, and its effects.
  EXPECT_EQ(b.effective_cost(blade), 1);
  EXPECT_EQ(stale_listing(b.state(), *catalog), kNoCard);
  EXPECT_TRUE(b.state().listing_costs == listing_costs_of(b.state()));
  const std::int32_t energy = b.state().energy;
  ASSERT_TRUE(b.submit(Action::play(blade, 0)).ok());
  EXPECT_EQ(b.state().energy, energy - 1);
  EXPECT_EQ(b.state().enemies[0].unit.hp, 100 - 9);

  // The snapshot taken while the choice waited restores a battle that goes on alike.
  auto restored = restore(catalog, waiting);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  ASSERT_TRUE(copy.submit(Action::choose(0)).ok());
  ASSERT_TRUE(copy.submit(Action::play(blade, 0)).ok());
  EXPECT_TRUE(copy.state() == b.state());
  // With no card left that has an upgrade, the waiting choice is refused.
  nlohmann::json none = waiting;
  for (nlohmann::json& card : none["state"]["cards"])
    if (card["card"] != "hone") card["card"] = "guard";
  expect_restore_refused(catalog, none,
                         "/state/choice/kind: a choice of cards (upgrade_in_hand) waits, but its pile (hand) "
                         "holds no card with an upgrade to pick");
  // With none in hand, nothing is asked.
  Battle bare = scenario_battle(catalog, {{"hand", {"hone", "guard", "jab"}}});
  ASSERT_TRUE(bare.submit(Action::play(bare.state().hand()[0], -1)).ok());
  EXPECT_FALSE(bare.is_waiting_for_choice());
  EXPECT_EQ(card_ids(bare, bare.state().hand()), (Ids{"guard", "jab"}));
}

// Mode all upgrades every hand card with an upgrade, in hand order, with no decision; an
// upgraded card keeps its cost rules, but one whose upgrade costs X drops them.
TEST(DeckbuilderRulesUpgrade, AllUpgradesEveryHandCardWithAnUpgradeAndAnXCostDropsItsRules) {
  using Ids = std::vector<std::string>;
  const auto catalog = upgrade_pack();
  Battle b = scenario_battle(catalog, {{"hand", {"ease", "hone_all", "blade", "surge", "guard", "ward"}}});
  Recorder recorder;
  b.events().attach(&recorder);
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());  // the others cost 1 less for 2 turns
  const CardRef blade = b.state().hand()[1];
  const CardRef surge = b.state().hand()[2];
  EXPECT_EQ(b.effective_cost(blade), 1);
  EXPECT_EQ(b.state().turn_cost_cards, 5);
  const std::size_t from = recorder.events.size();
  ASSERT_TRUE(b.submit(Action::play(b.state().hand()[0], -1)).ok());
  EXPECT_FALSE(b.is_waiting_for_choice());
  EXPECT_EQ(card_ids(b, b.state().hand()), (Ids{"blade+", "surge+", "guard", "ward+"}));
  std::vector<CardRef> upgraded;
  for (const Event& e : recorder.events)
    if (e.type == EventType::CardUpgraded) upgraded.push_back(static_cast<CardRef>(e.subject));
  EXPECT_EQ(upgraded, (std::vector<CardRef>{blade, surge, b.state().hand()[3]}));
  EXPECT_EQ(count({recorder.events.begin() + static_cast<std::ptrdiff_t>(from), recorder.events.end()},
                  EventType::ChoiceOffered),
            0u);
  EXPECT_EQ(b.effective_cost(blade), 0) << "the upgrade's 1, less the rule's 1";
  EXPECT_TRUE(catalog->cards[b.state().cards[surge].def].x_cost());
  EXPECT_FALSE(b.state().cards[surge].has_cost_rule());
  EXPECT_EQ(b.effective_cost(surge), b.state().energy);
  EXPECT_EQ(b.state().turn_cost_cards, 4);
  EXPECT_EQ(b.state().turn_cost_cards, count_turn_cost_cards(b.state()));
  EXPECT_EQ(stale_listing(b.state(), *catalog), kNoCard);
  EXPECT_TRUE(b.state().listing_costs == listing_costs_of(b.state()));
  EXPECT_EQ(b.state().card_keywords, card_keywords_of(b.state(), *catalog));
  // A snapshot restores the upgraded cards as they are, and the battle's hash tells them apart.
  auto restored = restore(catalog, snapshot(b));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_TRUE(restored.value().state() == b.state());
  Battle plain = b;
  Battle::Access::of(plain).s.cards[blade].def = *catalog->find_card("blade");
  EXPECT_NE(plain.state_hash(), b.state_hash());
  // Every card upgraded, a second one finds nothing.
  Battle again = scenario_battle(catalog, {{"hand", {"hone_all", "hone_all", "ward"}}});
  ASSERT_TRUE(again.submit(Action::play(again.state().hand()[0], -1)).ok());
  ASSERT_TRUE(again.submit(Action::play(again.state().hand()[0], -1)).ok());
  EXPECT_EQ(card_ids(again, again.state().hand()), (Ids{"ward+"}));
}

// From the draw pile: at random on the Effects stream, or a Choice of its cards with an upgrade
// (of the op's card_type) in the order of the instances; the cards keep their places. From the
// discard pile: a Choice of its cards, bottom first.
TEST(DeckbuilderRulesUpgrade, FromTheDrawAndTheDiscardPileTheCardsKeepTheirPlaces) {
  using Ids = std::vector<std::string>;
  const auto catalog = upgrade_pack();
  const nlohmann::json draw = {"guard", "blade", "ward", "guard", "blade", "surge"};
  Battle whet = scenario_battle(catalog, {{"hand", {"whet"}}, {"draw_pile", draw}});
  const std::vector<CardRef> before = draw_top_first(whet.state());
  const Rng effects = whet.state().rng[Stream::Effects];
  ASSERT_TRUE(whet.submit(Action::play(whet.state().hand()[0], -1)).ok());
  EXPECT_FALSE(whet.is_waiting_for_choice());
  EXPECT_EQ(draw_top_first(whet.state()), before) << "upgraded where they lie";
  std::size_t plus = 0;
  for (CardRef c : whet.state().draw_pile()) {
    const std::string& id = catalog->cards[whet.state().cards[c].def].id;
    plus += id.back() == '+' ? 1 : 0;
    EXPECT_NE(id, "guard+");
  }
  EXPECT_EQ(plus, 2u);
  EXPECT_NE(whet.state().rng[Stream::Effects], effects) << "picked on the Effects stream";

  Battle temper = scenario_battle(catalog, {{"hand", {"temper"}}, {"draw_pile", draw}});
  const std::vector<CardRef> pile = draw_top_first(temper.state());
  ASSERT_TRUE(temper.submit(Action::play(temper.state().hand()[0], -1)).ok());
  ASSERT_TRUE(temper.is_waiting_for_choice());
  EXPECT_EQ(temper.state().choice.kind, PendingChoice::Kind::UpgradeInDraw);
  // The two blades, the attacks with an upgrade, in the order of their instances.
  std::vector<CardRef> blades;
  for (CardRef c : pile)
    if (catalog->cards[temper.state().cards[c].def].id == "blade") blades.push_back(c);
  std::sort(blades.begin(), blades.end());
  ASSERT_EQ(temper.decision().options.size(), 2u);
  const nlohmann::json waiting = snapshot(temper);
  ASSERT_TRUE(temper.submit(Action::choose(1)).ok());
  EXPECT_EQ(catalog->cards[temper.state().cards[blades[1]].def].id, "blade+");
  EXPECT_EQ(catalog->cards[temper.state().cards[blades[0]].def].id, "blade");
  EXPECT_EQ(draw_top_first(temper.state()), pile);
  auto restored = restore(catalog, waiting);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  ASSERT_TRUE(copy.submit(Action::choose(1)).ok());
  EXPECT_TRUE(copy.state() == temper.state());

  Battle refit =
      scenario_battle(catalog, {{"hand", {"refit"}}, {"discard_pile", {"ward", "guard", "surge"}}});
  ASSERT_TRUE(refit.submit(Action::play(refit.state().hand()[0], -1)).ok());
  ASSERT_TRUE(refit.is_waiting_for_choice());
  EXPECT_EQ(refit.state().choice.kind, PendingChoice::Kind::UpgradeInDiscard);
  ASSERT_EQ(refit.decision().options.size(), 2u);
  EXPECT_EQ(action_label(refit, Action::choose(1)), "choose: upgrade surge");
  ASSERT_TRUE(refit.submit(Action::choose(1)).ok());
  ASSERT_TRUE(refit.is_waiting_for_choice()) << "the second pick";
  ASSERT_EQ(refit.decision().options.size(), 1u);
  ASSERT_TRUE(refit.submit(Action::choose(0)).ok());
  EXPECT_FALSE(refit.is_waiting_for_choice());
  EXPECT_EQ(card_ids(refit, refit.state().discard_pile()), (Ids{"ward+", "guard", "surge+", "refit"}));
}

// =============================================================================================
// Structured ops: for_each_enemy, repeat, conditional
// =============================================================================================

TEST(DeckbuilderRulesOps, ForEachEnemyRunsItsEffectsOnEachAliveEnemyInOrder) {
  const auto catalog =
      build({.cards = R"(
      { "id": "arc", "type": "attack", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "for_each_enemy", "effects": [{ "op": "damage", "amount": 3 },
                                                          { "op": "apply_status", "status": "mark", "amount": 1 }] }] },
      { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 6 }] })",
             .deck = R"({ "card": "arc" }, { "card": "zap" }, { "card": "noop", "count": 8 })",
             .statuses = R"({ "id": "mark" })",
             .foes = R"("dummy", "wisp", "dummy")"});
  Fight run(catalog);
  run.play("zap", 1);
  const std::size_t from = run.mark();
  run.play("arc");
  EXPECT_EQ(run.since(from),
            seq({"CardPlayed", "DamageDealt", "StatusApplied", "DamageDealt", "StatusApplied", "CardMoved"}));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(ev[1].target, enemy_unit(0));
  EXPECT_EQ(ev[2].target, enemy_unit(0));
  EXPECT_EQ(ev[3].target, enemy_unit(2));
  EXPECT_EQ(ev[4].target, enemy_unit(2));
}

TEST(DeckbuilderRulesOps, RepeatRunsItsEffectsThatManyTimes) {
  const auto catalog = build({.cards = R"(
      { "id": "flurry", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "repeat", "times": 3, "effects": [{ "op": "damage", "amount": 2 }, { "op": "armor", "amount": 1 }] }] })",
                              .deck = R"({ "card": "flurry" }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.play("flurry", 0);
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "ArmorGained", "DamageDealt", "ArmorGained",
                                  "DamageDealt", "ArmorGained", "CardMoved"}));
  EXPECT_EQ(run.s().enemies[0].unit.hp, 94);
  EXPECT_EQ(run.s().player.armor, 3);
}

/// `innermost` (one op) inside `lists` effect lists, each list but the innermost a repeat of one
/// pass followed by an armor op of 1: every list holds its effect frame while the innermost runs.
std::string nested_effects(std::size_t lists, std::string_view innermost) {
  std::string effects = "[" + std::string(innermost) + "]";
  for (std::size_t level = 1; level < lists; ++level)
    effects =
        R"([{ "op": "repeat", "times": 1, "effects": )" + effects + R"( }, { "op": "armor", "amount": 1 }])";
  return effects;
}

// The deepest nesting the loader takes (a card's list and 15 lists inside it, kMaxEffectDepth in
// all) runs to its end: every list in progress holds an effect frame, and they fit.
TEST(DeckbuilderRulesOps, EffectListsNestedAsDeepAsTheLoaderTakesRunToTheirEnd) {
  const std::string effects = nested_effects(kMaxEffectDepth, R"({ "op": "armor", "amount": 1 })");
  const auto catalog = build({.cards = R"({ "id": "deep", "type": "skill", "cost": 0, "target": "none",
                                            "keywords": ["innate"], "effects": )" +
                                       effects + " }",
                              .deck = R"({ "card": "deep" }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  run.play("deep", -1);
  EXPECT_EQ(run.s().player.armor, static_cast<std::int32_t>(kMaxEffectDepth)) << "one armor op a list";
  EXPECT_TRUE(run.s().effects.empty());
}

/// A pack with one probe card: `then` gains 10 armor, `else` 1.
std::shared_ptr<const Catalog> probe_pack(std::string_view condition, std::string_view target,
                                          std::string_view deck, std::string_view player = R"("max_hp": 50)",
                                          std::string_view rules = "") {
  return build(
      {.cards = R"({ "id": "probe", "type": "skill", "cost": 0, "target": ")" + std::string(target) +
                R"(", "keywords": ["innate"], "effects": [{ "op": "conditional", "if": )" +
                std::string(condition) +
                R"(, "then": [{ "op": "armor", "amount": 10 }], "else": [{ "op": "armor", "amount": 1 }] }] },
                { "id": "marker", "type": "skill", "cost": 0, "target": "enemy", "keywords": ["innate"],
                  "effects": [{ "op": "apply_status", "status": "mark", "amount": 1 }] },
                { "id": "zap", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
                  "effects": [{ "op": "damage", "amount": 1 }] },
                { "id": "spend", "type": "skill", "cost": 1, "target": "none", "keywords": ["innate"], "effects": [] })",
       .deck = std::string(deck),
       .statuses = R"({ "id": "mark" })",
       .rules = std::string(rules),
       .player = std::string(player)});
}

/// The armor a probe play gave: 10 when the condition held, 1 when not.
std::int32_t probe(Fight& run, std::int8_t target = -1) {
  const std::int32_t before = run.s().player.armor;
  run.play("probe", target);
  return run.s().player.armor - before;
}

TEST(DeckbuilderRulesConditional, TargetHasStatus) {
  const auto catalog = probe_pack(
      R"({ "kind": "target_has_status", "status": "mark", "at_least": 2 })", "enemy",
      R"({ "card": "probe", "count": 3 }, { "card": "marker", "count": 2 }, { "card": "noop", "count": 5 })",
      R"("max_hp": 50)", R"("opening_hand": 5)");
  Fight run(catalog);
  EXPECT_EQ(probe(run, 0), 1);
  run.play("marker", 0);
  EXPECT_EQ(probe(run, 0), 1);  // 1 stack, 2 needed
  run.play("marker", 0);
  EXPECT_EQ(probe(run, 0), 10);
}

TEST(DeckbuilderRulesConditional, SelfHpBelowPercent) {
  const char* deck = R"({ "card": "probe" }, { "card": "noop", "count": 9 })";
  const char* condition = R"({ "kind": "self_hp_below_percent", "percent": 50 })";
  Fight healthy(probe_pack(condition, "none", deck, R"("max_hp": 50, "hp": 25)"));
  EXPECT_EQ(probe(healthy), 1);  // exactly half is not below half
  Fight hurt(probe_pack(condition, "none", deck, R"("max_hp": 50, "hp": 24)"));
  EXPECT_EQ(probe(hurt), 10);
}

TEST(DeckbuilderRulesConditional, HandSizeAtLeastCountsThePlayedCard) {
  const char* deck = R"({ "card": "probe" }, { "card": "noop", "count": 9 })";
  const char* condition = R"({ "kind": "hand_size_at_least", "count": 3 })";
  Fight three(probe_pack(condition, "none", deck, R"("max_hp": 50)", R"("opening_hand": 3)"));
  EXPECT_EQ(probe(three), 10);
  Fight two(probe_pack(condition, "none", deck, R"("max_hp": 50)", R"("opening_hand": 2)"));
  EXPECT_EQ(probe(two), 1);
}

TEST(DeckbuilderRulesConditional, EnergyAtLeastSeesTheEnergyLeft) {
  Fight run(
      probe_pack(R"({ "kind": "energy_at_least", "amount": 3 })", "none",
                 R"({ "card": "probe", "count": 2 }, { "card": "spend" }, { "card": "noop", "count": 7 })"));
  EXPECT_EQ(probe(run), 10);
  run.play("spend");
  EXPECT_EQ(probe(run), 1);
}

TEST(DeckbuilderRulesConditional, AttackedThisTurnResetsEachTurn) {
  Fight run(
      probe_pack(R"({ "kind": "attacked_this_turn" })", "none",
                 R"({ "card": "probe", "count": 2 }, { "card": "zap" }, { "card": "noop", "count": 17 })"));
  EXPECT_EQ(probe(run), 1);
  run.play("zap", 0);
  EXPECT_EQ(probe(run), 10);
  EXPECT_EQ(run.s().attacks_this_turn, 1);
  run.end_turn();
  EXPECT_EQ(run.s().attacks_this_turn, 0);
}

TEST(DeckbuilderRulesConditional, WithoutElseAFalseConditionDoesNothing) {
  const auto catalog = build({.cards = R"(
      { "id": "maybe", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "conditional", "if": { "kind": "energy_at_least", "amount": 9 },
                      "then": [{ "op": "armor", "amount": 10 }] }, { "op": "armor", "amount": 1 }] })",
                              .deck = R"({ "card": "maybe" }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.play("maybe");
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "ArmorGained", "CardMoved"}));
  EXPECT_EQ(run.s().player.armor, 1);
}

TEST(DeckbuilderRulesConditional, AnEnemysOnceRuleFiresOnceWhenItsConditionHolds) {
  const auto catalog = build({
      .cards = R"({ "id": "nuke", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
                    "effects": [{ "op": "damage", "amount": 21 }] })",
      .deck = R"({ "card": "nuke" }, { "card": "noop", "count": 4 })",
      .enemies = R"({ "id": "leech", "hp": 40,
          "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 1 }] },
                    { "id": "gorge", "intent": "buff", "effects": [{ "op": "armor", "amount": 1 }] }],
          "behavior": { "kind": "conditional",
                        "rules": [{ "if": { "kind": "self_hp_below_percent", "percent": 50 }, "move": "gorge", "once": true }],
                        "otherwise": { "kind": "sequence", "moves": ["bite"] } } })",
      .foes = R"("leech")",
  });
  Fight run(catalog);
  std::vector<std::string> intents;
  const auto intent = [&] {
    return catalog->enemies[run.s().enemies[0].def].moves[run.s().enemies[0].intent].id;
  };
  intents.push_back(intent());
  run.play("nuke", 0);  // 19 of 40: below half
  for (int turn = 0; turn < 3; ++turn) {
    run.end_turn();
    intents.push_back(intent());
  }
  EXPECT_EQ(run.s().enemies[0].unit.hp, 19);
  EXPECT_EQ(intents, (std::vector<std::string>{"bite", "gorge", "bite", "bite"}));
}

// =============================================================================================
// Status timings
// =============================================================================================

constexpr std::string_view kPoison = R"(
  { "id": "venom", "kind": "debuff", "decay": "owner_turn_end",
    "timings": { "turn_start": [{ "op": "lose_hp", "amount": "stacks", "target": "self" }] } })";

TEST(DeckbuilderRulesStatus, PoisonLosesItsStacksInHpAtTheOwnersTurnStartThenDecays) {
  const auto catalog = build({.cards = R"(
      { "id": "dart", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "venom", "amount": 3 }] })",
                              .deck = R"({ "card": "dart" }, { "card": "noop", "count": 19 })",
                              .statuses = std::string(kPoison)});
  Fight run(catalog);
  run.play("dart", 0);
  std::vector<std::int32_t> lost;
  std::size_t from = run.mark();
  for (int turn = 0; turn < 4; ++turn) run.end_turn();
  for (const Event& e : of_type(run.events_since(from), EventType::HpLost)) {
    EXPECT_EQ(e.target, enemy_unit(0));
    lost.push_back(e.amount);
  }
  EXPECT_EQ(lost, (std::vector<std::int32_t>{3, 2, 1}));
  EXPECT_EQ(run.s().enemies[0].unit.hp, 94);
  EXPECT_TRUE(run.s().enemies[0].unit.statuses.empty());
  EXPECT_EQ(count(run.events_since(from), EventType::StatusExpired), 1u);
}

TEST(DeckbuilderRulesStatus, PoisonOnThePlayerRunsAtThePlayersTurnStart) {
  const auto catalog = build({.statuses = std::string(kPoison),
                              .enemies = R"({ "id": "viper", "hp": 100,
                                  "moves": [{ "id": "spit", "intent": "debuff", "effects": [{ "op": "apply_status", "status": "venom", "amount": 2 }] },
                                            { "id": "wait", "intent": "unknown", "effects": [] }],
                                  "behavior": { "kind": "sequence", "moves": ["spit", "wait"], "loop_from": 1 } })",
                              .foes = R"("viper")"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "PhaseChanged(EnemyPhase->PlayerTurnStart)", "DrawPhase"),
            seq({"PhaseChanged(EnemyPhase->PlayerTurnStart)", "HpLost", "DrawPhase"}));
  EXPECT_EQ(run.s().player.hp, 48);
}

TEST(DeckbuilderRulesStatus, PoisonCanKillAtTurnStartAndWinTheBattle) {
  const auto catalog = build({.cards = R"(
      { "id": "dart", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "venom", "amount": 5 }] })",
                              .deck = R"({ "card": "dart" }, { "card": "noop", "count": 9 })",
                              .statuses = std::string(kPoison),
                              .enemies = R"({ "id": "frail", "hp": 2,
                                  "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 5 }] }],
                                  "behavior": { "kind": "sequence", "moves": ["hit"] } })",
                              .foes = R"("frail")"});
  Fight run(catalog);
  run.play("dart", 0);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(
      slice(run.since(from), "EnemyTurnStarted", "BattleEnded"),
      seq({"EnemyTurnStarted", "HpLost", "UnitDied", "PhaseChanged(EnemyPhase->BattleWon)", "BattleEnded"}));
  EXPECT_EQ(of_type(run.events_since(from), EventType::HpLost).at(0).amount, 2);  // HP stops at 0
  EXPECT_EQ(run.s().enemies[0].unit.hp, 0);
  EXPECT_EQ(run.s().player.hp, 50);
}

constexpr std::string_view kThorns = R"(
  { "id": "spines", "timings": { "on_attacked": [{ "op": "damage", "amount": "stacks", "target": "chosen" }] } })";

std::shared_ptr<const Catalog> thorns_pack() {
  return build({.cards = R"(
      { "id": "twin", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "damage", "amount": 2, "times": 2 }] },
      { "id": "bristle", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "spines", "amount": 2, "target": "self" }] })",
                .deck = R"({ "card": "twin" }, { "card": "bristle" }, { "card": "noop", "count": 8 })",
                .statuses = std::string(kThorns),
                .enemies = R"({ "id": "spiker", "hp": 40, "statuses": [{ "status": "spines", "amount": 3 }],
                    "moves": [{ "id": "stab", "intent": "attack", "effects": [{ "op": "damage", "amount": 5 }] }],
                    "behavior": { "kind": "sequence", "moves": ["stab"] } })",
                .foes = R"("spiker")"});
}

TEST(DeckbuilderRulesStatus, ThornsHitTheAttackerAfterEachHit) {
  Fight run(thorns_pack());
  const std::size_t from = run.mark();
  run.play("twin", 0);
  EXPECT_EQ(run.since(from),
            seq({"CardPlayed", "DamageDealt", "DamageDealt", "DamageDealt", "DamageDealt", "CardMoved"}));
  const std::vector<Event> hits = of_type(run.events_since(from), EventType::DamageDealt);
  EXPECT_EQ(hits[0].target, enemy_unit(0));
  EXPECT_EQ(hits[1].source, enemy_unit(0));
  EXPECT_EQ(hits[1].target, kPlayerUnit);
  EXPECT_EQ(hits[1].amount, 3);
  EXPECT_EQ(run.s().player.hp, 44);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 36);
}

TEST(DeckbuilderRulesStatus, ThornsOnBothSidesDoNotBounceForever) {
  Fight run(thorns_pack());
  run.play("bristle");
  std::size_t from = run.mark();
  run.play("twin", 0);
  // The player's own Spines do not answer the Spiker's (damage done by a status is no attack).
  EXPECT_EQ(run.since(from),
            seq({"CardPlayed", "DamageDealt", "DamageDealt", "DamageDealt", "DamageDealt", "CardMoved"}));
  from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "EnemyActed", "EnemyIntent"),
            seq({"EnemyActed", "DamageDealt", "DamageDealt", "EnemyIntent"}));
  EXPECT_EQ(run.s().player.hp, 50 - 6 - 5);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 40 - 4 - 2);
}

// An attack runs its target's on_attacked behaviour inside the attack's own list, so the effect
// frames of both are in use at once. The deepest pair the loader takes (12 lists and 4, together
// kMaxEffectDepth) runs to its end.
TEST(DeckbuilderRulesStatus, AnOnAttackedBehaviourRunsInsideTheDeepestAttackTheLoaderTakes) {
  constexpr std::size_t kAttack = 12;
  constexpr std::size_t kBehaviour = kMaxEffectDepth - kAttack;
  const auto catalog = build(
      {.cards = R"({ "id": "deep", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
                    "effects": )" +
                nested_effects(kAttack, R"({ "op": "damage", "amount": 1 })") + " }",
       .deck = R"({ "card": "deep" }, { "card": "noop", "count": 9 })",
       .statuses = R"({ "id": "bristles", "timings": { "on_attacked": )" +
                   nested_effects(kBehaviour, R"({ "op": "armor", "amount": 100 })") + " } }",
       .enemies = R"({ "id": "hedgehog", "hp": 50, "statuses": [{ "status": "bristles", "amount": 1 }],
                      "moves": [{ "id": "wait", "intent": "unknown", "effects": [] }],
                      "behavior": { "kind": "sequence", "moves": ["wait"] } })",
       .foes = R"("hedgehog")"});
  Fight run(catalog);
  run.play("deep", 0);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 49) << "the hit lands before the behaviour's armor";
  EXPECT_EQ(run.s().enemies[0].unit.armor, static_cast<std::int32_t>(100 + kBehaviour - 1));
  EXPECT_EQ(run.s().player.armor, static_cast<std::int32_t>(kAttack - 1)) << "one armor op a list";
  EXPECT_TRUE(run.s().effects.empty());
}

TEST(DeckbuilderRulesStatus, AnEnemyKilledByThornsMidMoveStopsHitting) {
  // An enemy killed by the player's thorns on the first hit of a multi-hit move stops: its
  // remaining hits and the rest of its move do not run, though a second enemy keeps the battle
  // going (seed: "Iterates alive enemies"; a unit at 0 HP is dead).
  const auto catalog = build({.cards = R"(
      { "id": "bristle", "type": "power", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "spines", "amount": 20, "target": "self" }] })",
                              .deck = R"({ "card": "bristle" }, { "card": "noop", "count": 9 })",
                              .statuses = std::string(kThorns),
                              .enemies = R"({ "id": "chopper", "hp": 10,
                                  "moves": [{ "id": "chop", "intent": "attack", "effects": [{ "op": "damage", "amount": 3, "times": 3 }] }],
                                  "behavior": { "kind": "sequence", "moves": ["chop"] } })",
                              .foes = R"("chopper", "dummy")"});
  Fight run(catalog);
  run.play("bristle");
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(slice(run.since(from), "EnemyActed", "EnemyActed"),
            seq({"EnemyActed", "DamageDealt", "DamageDealt", "UnitDied", "EnemyActed"}));
  EXPECT_FALSE(run.s().enemies[0].unit.alive());
  EXPECT_EQ(run.s().player.hp, 47);
}

TEST(DeckbuilderRulesStatus, AnEnemyWithASkipsTurnStatusMakesNoMove) {
  const auto catalog =
      build({.cards = R"(
      { "id": "bonk", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "stun", "amount": 1 }] })",
             .deck = R"({ "card": "bonk" }, { "card": "noop", "count": 19 })",
             .statuses = R"({ "id": "stun", "decay": "owner_turn_end", "skips_turn": true })",
             .foes = R"("brute")"});
  Fight run(catalog);
  run.play("bonk", 0);
  std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(count(run.events_since(from), EventType::EnemyActed), 0u);
  EXPECT_EQ(count(run.events_since(from), EventType::StatusExpired), 1u);
  EXPECT_EQ(run.s().player.hp, 50);
  from = run.mark();
  run.end_turn();
  EXPECT_EQ(count(run.events_since(from), EventType::EnemyActed), 1u);
  EXPECT_EQ(run.s().player.hp, 45);
}

TEST(DeckbuilderRulesStatus, APlayersSkipsTurnStatusDoesNotSkipTheTurn) {
  // docs/deckbuilder.md: the player's turns are skipped only by skip_turns.
  const auto catalog =
      build({.cards = R"(
      { "id": "daze", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "apply_status", "status": "stun", "amount": 2, "target": "self" }] })",
             .deck = R"({ "card": "daze" }, { "card": "noop", "count": 19 })",
             .statuses = R"({ "id": "stun", "decay": "owner_turn_end", "skips_turn": true })"});
  Fight run(catalog);
  run.play("daze");
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(count(run.events_since(from), EventType::TurnSkipped), 0u);
  EXPECT_EQ(run.battle.phase(), Phase::PlayerPhase);
  EXPECT_EQ(run.s().player.stacks(status_id(run.battle, "stun")), 1);
}

TEST(DeckbuilderRulesStatus, BattleEndBehaviourRunsWhenTheTurnLimitEndsTheBattle) {
  const auto catalog = build(
      {.cards = self_status_card("glow", "afterglow"),
       .deck = R"({ "card": "glow" }, { "card": "noop", "count": 19 })",
       .statuses =
           R"({ "id": "afterglow", "timings": { "battle_end": [{ "op": "heal", "amount": 5, "target": "self" }] } })",
       .rules = R"("turn_limit": 2)",
       .player = R"("max_hp": 50, "hp": 40)"});
  Fight run(catalog);
  run.play("glow");
  run.end_turn();
  const std::size_t from = run.mark();
  run.end_turn();
  const std::vector<std::string> trace = run.since(from);
  ASSERT_GE(trace.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(trace.end() - 4, trace.end()),
            seq({"EnemyIntent", "PhaseChanged(EnemyPhase->BattleLost)", "Healed", "BattleEnded"}));
  const std::vector<Event> ev = run.events_since(from);
  EXPECT_EQ(trigger_name(static_cast<Trigger>(ev[ev.size() - 3].amount)), trigger_name(Trigger::Defeat));
  EXPECT_EQ(ev.back().amount, 0);
  EXPECT_EQ(run.battle.phase(), Phase::BattleLost);
  EXPECT_TRUE(run.s().player.alive());
  EXPECT_EQ(run.s().player.hp, 45);
}

TEST(DeckbuilderRulesStatus, BattleEndBehaviourRunsToItsEndAfterAWin) {
  // docs/deckbuilder.md: battle-end behaviour is the one effect that runs once the battle is
  // decided, to its end (for the player when alive and each alive enemy).
  const auto catalog = build(won_with_afterglow(
      R"({ "op": "heal", "amount": 5, "target": "self" }, { "op": "armor", "amount": 1, "target": "self" })"));
  Fight run(catalog);
  run.play("glow");
  const std::size_t from = run.mark();
  run.play("zap", 0);
  EXPECT_EQ(run.since(from),
            seq({"CardPlayed", "DamageDealt", "UnitDied", "CardMoved", "PhaseChanged(PlayerPhase->BattleWon)",
                 "Healed", "ArmorGained", "BattleEnded"}));
  EXPECT_EQ(run.s().player.hp, 45);
}

// A draw_phase timing that decides the battle leaves the draw of turn start step 8 out.
TEST(DeckbuilderRulesStatus, ADrawPhaseTimingThatDecidesTheBattleLeavesTheDrawOut) {
  const auto catalog = build(
      {.cards = self_status_card("doom", "wither"),
       .deck = R"({ "card": "doom" }, { "card": "noop", "count": 9 })",
       .statuses =
           R"({ "id": "wither", "timings": { "draw_phase": [{ "op": "lose_hp", "amount": 99, "target": "self" }] } })"});
  Fight run(catalog);
  run.play("doom");
  const std::size_t from = run.mark();
  run.end_turn();
  const std::vector<std::string> trace = run.since(from);
  EXPECT_EQ(slice(trace, "DrawPhase", "BattleEnded"),
            seq({"DrawPhase", "HpLost", "UnitDied", "TurnStarted",
                 "PhaseChanged(PlayerTurnStart->BattleLost)", "BattleEnded"}));
  EXPECT_EQ(run.battle.phase(), Phase::BattleLost);
  EXPECT_TRUE(run.s().hand().empty());
}

// The battle is decided when battle-end behaviour runs, and a damage op there still runs every
// hit (elsewhere a decided battle stops it after the hit that decided it).
TEST(DeckbuilderRulesStatus, BattleEndDamageRunsEveryHit) {
  const auto catalog = build(
      {.cards = self_status_card("brand", "scar"),
       .deck = R"({ "card": "brand" }, { "card": "jab", "count": 9 })",
       .statuses =
           R"({ "id": "scar", "timings": { "battle_end": [{ "op": "damage", "amount": 2, "times": 3, "target": "self" }] } })",
       .foes = R"("wisp")",
       .player = R"("max_hp": 50, "hp": 40)"});
  Fight run(catalog);
  run.play("brand");
  const std::size_t from = run.mark();
  run.play("jab", 0);
  EXPECT_EQ(run.since(from), seq({"CardPlayed", "DamageDealt", "UnitDied", "CardMoved",
                                  "PhaseChanged(PlayerPhase->BattleWon)", "DamageDealt*3", "BattleEnded"}));
  EXPECT_EQ(run.s().player.hp, 34);
}

TEST(DeckbuilderRulesStatus, BattleEndBehaviourOfAliveEnemiesRunsAfterTheirWin) {
  const auto catalog = build(
      {.statuses =
           R"({ "id": "gloat", "timings": { "battle_end": [{ "op": "armor", "amount": 3, "target": "self" }] } })",
       .enemies = R"({ "id": "victor", "hp": 30, "statuses": [{ "status": "gloat", "amount": 1 }],
                                  "moves": [{ "id": "hit", "intent": "attack", "effects": [{ "op": "damage", "amount": 10 }] }],
                                  "behavior": { "kind": "sequence", "moves": ["hit"] } })",
       .foes = R"("victor", "dummy")",
       .player = R"("max_hp": 50, "hp": 10)"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.end_turn();
  const std::vector<std::string> trace = run.since(from);
  ASSERT_GE(trace.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(trace.end() - 3, trace.end()),
            seq({"PhaseChanged(EnemyPhase->BattleLost)", "ArmorGained", "BattleEnded"}));
  EXPECT_EQ(run.recorder.events[run.recorder.events.size() - 2].target, enemy_unit(0));
  EXPECT_EQ(run.s().enemies[0].unit.armor, 3);
  EXPECT_EQ(run.s().player.hp, 0);
}

// =============================================================================================
// The turn limit, HP bounds, created cards, upgrades
// =============================================================================================

TEST(DeckbuilderRulesTurnLimit, AStalemateEndsInBattleLost) {
  const auto catalog = build({.rules = R"("turn_limit": 3)"});
  Fight run(catalog);
  for (int turn = 1; turn <= 2; ++turn) {
    run.end_turn();
    EXPECT_EQ(run.battle.phase(), Phase::PlayerPhase) << "turn " << turn;
  }
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(run.battle.phase(), Phase::BattleLost);
  EXPECT_EQ(run.since(from).back(), "BattleEnded");
  EXPECT_EQ(run.recorder.events.back().amount, 0);
  EXPECT_EQ(count(run.events_since(from), EventType::TurnStarted), 0u);
  EXPECT_TRUE(run.s().player.alive());
  EXPECT_TRUE(run.s().enemies[0].unit.alive());
  EXPECT_EQ(run.battle.history().back().trigger, Trigger::Defeat);
  EXPECT_EQ(run.battle.history().back().from, Phase::EnemyPhase);
}

TEST(DeckbuilderRulesHp, HpStaysWithinZeroAndItsMaximum) {
  const auto catalog = build(
      {.cards = R"(
      { "id": "smite", "type": "skill", "cost": 0, "target": "enemy", "keywords": ["innate"],
        "effects": [{ "op": "lose_hp", "amount": 999, "target": "chosen" }] },
      { "id": "crush", "type": "attack", "cost": 0, "target": "enemy", "keywords": ["innate"], "effects": [{ "op": "damage", "amount": 500 }] },
      { "id": "salve", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"], "effects": [{ "op": "heal", "amount": 25 }] })",
       .deck =
           R"({ "card": "smite" }, { "card": "crush" }, { "card": "salve" }, { "card": "noop", "count": 7 })",
       .foes = R"("dummy", "dummy", "dummy")",
       .player = R"("max_hp": 50, "hp": 40)"});
  Fight run(catalog);
  std::size_t from = run.mark();
  run.play("salve");
  EXPECT_EQ(of_type(run.events_since(from), EventType::Healed).at(0).amount, 10);
  EXPECT_EQ(run.s().player.hp, 50);
  from = run.mark();
  run.play("smite", 0);
  EXPECT_EQ(of_type(run.events_since(from), EventType::HpLost).at(0).amount, 100);
  EXPECT_EQ(run.s().enemies[0].unit.hp, 0);
  from = run.mark();
  run.play("crush", 1);
  EXPECT_EQ(of_type(run.events_since(from), EventType::DamageDealt).at(0).amount, 100);
  EXPECT_EQ(run.s().enemies[1].unit.hp, 0);
}

TEST(DeckbuilderRulesHp, ThePlayersHpStopsAtZeroOnDefeat) {
  const auto catalog = build({.foes = R"("brute")", .player = R"("max_hp": 50, "hp": 3)"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.end_turn();
  EXPECT_EQ(of_type(run.events_since(from), EventType::DamageDealt).at(0).amount, 3);
  EXPECT_EQ(run.s().player.hp, 0);
  EXPECT_EQ(run.battle.phase(), Phase::BattleLost);
}

TEST(DeckbuilderRulesAddCard, CreatedCardsAreNewInstancesInTheirPile) {
  const auto catalog = build({.cards = R"(
      { "id": "conjure", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "add_card", "card": "jab", "count": 2, "pile": "hand" },
                    { "op": "add_card", "card": "guard", "pile": "draw" },
                    { "op": "add_card", "card": "guard", "pile": "discard" }] })",
                              .deck = R"({ "card": "conjure" }, { "card": "noop", "count": 9 })"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.play("conjure");
  const std::vector<Event> created = of_type(run.events_since(from), EventType::CardCreated);
  ASSERT_EQ(created.size(), 4u);
  EXPECT_EQ(static_cast<Pile>(created[0].amount), Pile::Hand);
  EXPECT_EQ(static_cast<Pile>(created[1].amount), Pile::Hand);
  EXPECT_EQ(static_cast<Pile>(created[2].amount), Pile::Draw);
  EXPECT_EQ(static_cast<Pile>(created[3].amount), Pile::Discard);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(created[i].subject, 10 + i);  // new instances, numbered on
  EXPECT_EQ(run.s().cards.size(), 14u);
  EXPECT_EQ(run.s().hand().size(), 6u);
  EXPECT_EQ(run.s().draw_pile().size(), 6u);
  EXPECT_EQ(run.s().discard_pile().size(), 2u);  // the created Guard and Conjure
}

TEST(DeckbuilderRulesAddCard, ACardForAFullHandGoesToTheDiscardPile) {
  const auto catalog = build({.cards = R"(
      { "id": "conjure", "type": "skill", "cost": 0, "target": "none", "keywords": ["innate"],
        "effects": [{ "op": "add_card", "card": "jab", "count": 2, "pile": "hand" }] })",
                              .deck = R"({ "card": "conjure" }, { "card": "noop", "count": 9 })",
                              .rules = R"("hand_limit": 5)"});
  Fight run(catalog);
  const std::size_t from = run.mark();
  run.play("conjure");  // still in hand while its effects run: the hand is full
  for (const Event& e : of_type(run.events_since(from), EventType::CardCreated))
    EXPECT_EQ(static_cast<Pile>(e.amount), Pile::Discard);
  EXPECT_EQ(run.s().hand().size(), 4u);
  EXPECT_EQ(run.s().discard_pile().size(), 3u);
}

TEST(DeckbuilderRulesUpgrade, AnUpgradedCardIsItsOwnCardInAMasterDeck) {
  const auto catalog = build({.cards = R"(
      { "id": "zap", "type": "attack", "cost": 1, "target": "enemy", "effects": [{ "op": "damage", "amount": 6 }],
        "upgrade": { "cost": 0, "effects": [{ "op": "damage", "amount": 9 }] } })",
                              .deck = R"({ "card": "zap", "count": 5 })"});
  const CardId zap = *catalog->find_card("zap");
  const std::optional<CardId> plus = catalog->find_card("zap+");
  ASSERT_TRUE(plus.has_value());
  EXPECT_EQ(catalog->cards[zap].upgrade, plus);
  EXPECT_EQ(catalog->cards[*plus].cost, 0);
  const std::vector<CardId> master(5, *plus);
  Fight upgraded(catalog, 1, master);
  const CardRef card = upgraded.s().hand()[0];
  EXPECT_EQ(upgraded.def(card).id, "zap+");
  EXPECT_EQ(upgraded.battle.effective_cost(card), 0);
  upgraded.act(Action::play(card, 0));
  EXPECT_EQ(upgraded.s().enemies[0].unit.hp, 91);
  EXPECT_EQ(upgraded.s().energy, 3);
  Fight plain(catalog);
  plain.act(Action::play(plain.s().hand()[0], 0));
  EXPECT_EQ(plain.s().enemies[0].unit.hp, 94);
  EXPECT_EQ(plain.s().energy, 2);
}

// =============================================================================================
// A random sweep over every encounter of the starter pack
// =============================================================================================

/// Counts what the sweep needs from the events, as they happen (the sweep keeps no log, so a
/// clone per step stays cheap).
struct SweepCounter final : Listener {
  void on_event(const Event& e) override {
    created += e.type == EventType::CardCreated ? 1u : 0u;
    ended += e.type == EventType::BattleEnded ? 1u : 0u;
    // Battle::damage_stats, from the events: a unit's hits on the other side.
    if (e.type == EventType::DamageDealt && e.source >= 0 &&
        (e.source == kPlayerUnit) != (e.target == kPlayerUnit)) {
      damage.hp[static_cast<std::size_t>(e.source)] += e.amount;
      damage.armor[static_cast<std::size_t>(e.source)] += e.extra;
    }
  }
  std::size_t created = 0;
  std::size_t ended = 0;
  DamageStats damage;
};

/// The first broken invariant of a reachable state, or "" when they all hold.
std::string first_broken_invariant(const Battle& b, std::size_t created) {
  const BattleState& s = b.state();
  const EncounterDef& encounter = b.catalog().encounters[s.encounter];
  // Card conservation: the starting deck plus the created cards, each in exactly one pile.
  const std::size_t deck = b.catalog().players[encounter.player].deck.size();
  if (s.cards.size() != deck + created)
    return std::to_string(s.cards.size()) + " card instances, but the deck has " + std::to_string(deck) +
           " and " + std::to_string(created) + " were created";
  if (s.hand().size() > std::min<std::size_t>(encounter.rules.hand_limit, kMaxHand))
    return "a hand of " + std::to_string(s.hand().size()) + " cards";
  std::array<int, kMaxCards> seen{};
  const auto tally = [&](const auto& pile) {
    for (CardRef c : pile) {
      if (c >= s.cards.size()) return false;
      ++seen[c];
    }
    return true;
  };
  if (!tally(s.draw_pile()) || !tally(s.hand()) || !tally(s.discard_pile()) || !tally(s.exhaust_pile()))
    return "a pile holds a card instance that does not exist";
  for (std::size_t i = 0; i < s.cards.size(); ++i)
    if (seen[i] != 1)
      return "card instance " + std::to_string(i) + " is in " + std::to_string(seen[i]) + " piles";
  if (s.card_keywords != card_keywords_of(s, b.catalog())) return "the card keywords are not the cards' own";
  if (stale_listing(s, b.catalog()) != kNoCard) return "a card's listing byte is not its own";
  if (s.listing_costs != listing_costs_of(s)) return "the listing costs are not the cards' own";
  if (s.rules != rules_of(b.catalog(), s.encounter)) return "the battle's rules are not its encounter's";
  if (s.energy < 0) return "energy " + std::to_string(s.energy);
  const auto unit_ok = [](const UnitState& u) { return u.hp >= 0 && u.hp <= u.max_hp; };
  if (!unit_ok(s.player))
    return "player HP " + std::to_string(s.player.hp) + " of " + std::to_string(s.player.max_hp);
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (!unit_ok(s.enemies[i].unit))
      return "enemy " + std::to_string(i) + " HP " + std::to_string(s.enemies[i].unit.hp) + " of " +
             std::to_string(s.enemies[i].unit.max_hp);
  const Battle clone = b;
  if (!(clone.state() == s)) return "a clone's state differs";
  if (clone.state_hash() != b.state_hash()) return "a clone's hash differs";
  return {};
}

TEST(DeckbuilderRulesSweep, EveryStarterEncounterEndsWonOrLostWithItsInvariantsHeld) {
  // The issue asks 1000 seeded battles per encounter; they run in a few seconds under the
  // sanitizers, so all 1000 are kept.
  constexpr std::uint64_t kBattles = 1000;
  constexpr int kMaxActions = 20000;
  const std::shared_ptr<const Catalog> catalog = test::starter();
  ASSERT_FALSE(catalog->encounters.empty());
  std::vector<Action> options;
  for (std::size_t e = 0; e < catalog->encounters.size(); ++e) {
    const EncounterDef& encounter = catalog->encounters[e];
    std::uint64_t won = 0;
    std::uint64_t decisions = 0;
    std::int64_t dealt = 0;  // by the player, over the encounter's battles
    for (std::uint64_t seed = 1; seed <= kBattles; ++seed) {
      const std::string where = encounter.id + " seed " + std::to_string(seed);
      SweepCounter counter;
      Battle b(catalog, BattleOptions{.event_log = false, .record_history = false});
      b.events().attach(&counter);
      RandomPolicy policy;
      policy.reset(policy_seed(seed));
      int actions = 0;
      try {
        ASSERT_TRUE(b.start_battle(static_cast<EncounterId>(e), seed).ok()) << where;
        ASSERT_EQ(first_broken_invariant(b, counter.created), "") << where << " at the start";
        while (b.status() == Status::AwaitingDecision) {
          ASSERT_LT(actions, kMaxActions) << where << " is still going";
          Action a = Action::take_reward(0);  // reward waits take the first candidate
          if (!b.is_waiting_for_reward()) {
            b.legal_actions(options);
            ASSERT_FALSE(options.empty()) << where;
            a = options[policy.pick(options.size())];
          }
          const Result<Status, Rejection> r = b.submit(a);
          ASSERT_TRUE(r.ok()) << where << ": a legal option was refused: " << r.error().message;
          ++actions;
          ASSERT_EQ(first_broken_invariant(b, counter.created), "")
              << where << " after " << actions << " actions";
        }
      } catch (const std::exception& ex) {
        FAIL() << where << " after " << actions << " actions threw: " << ex.what();
      }
      ASSERT_TRUE(b.phase() == Phase::BattleWon || b.phase() == Phase::BattleLost)
          << where << " stopped in " << phase_name(b.phase());
      ASSERT_EQ(counter.ended, 1u) << where;
      ASSERT_TRUE(b.damage_stats() == counter.damage) << where << ": the damage stats are not the hits' sums";
      dealt += counter.damage.hp[kPlayerUnit];
      ASSERT_EQ(b.status(), Status::Finished) << where;
      b.events().detach(&counter);
      won += b.won() ? 1u : 0u;
      decisions += static_cast<std::uint64_t>(actions);
    }
    EXPECT_GT(dealt, 0) << encounter.id;
    RecordProperty(encounter.id + "_won", std::to_string(won));
    RecordProperty(encounter.id + "_decisions", std::to_string(decisions));
  }
}

}  // namespace
}  // namespace battlecore::deckbuilder
