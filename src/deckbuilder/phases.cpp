#include "deckbuilder/phases.hpp"

namespace battlecore::deckbuilder::detail {

namespace {

const BattleRules& rules(const Ctx& x) { return x.c.encounters[x.s.encounter].rules; }

void emit_turn_event(Ctx& x, EventType type) {
  x.ev.emit_with([&] { return Event{.type = type, .amount = static_cast<std::int32_t>(x.s.turn)}; });
}

// --- battle start steps -------------------------------------------------------------------

void create_fresh_state(Ctx& x) {
  const std::uint64_t seed = x.s.seed;
  const EncounterId encounter = x.s.encounter;
  x.s = BattleState{};
  x.s.seed = seed;
  x.s.encounter = encounter;
  x.s.rng = RngStreams(seed);
  x.s.turn = 1;
}

void build_player(Ctx& x) {
  const PlayerUnitDef& p = x.c.players[x.c.encounters[x.s.encounter].player];
  x.s.player.max_hp = p.max_hp;
  x.s.player.hp = p.hp;
}

void build_enemies(Ctx& x) {
  for (EnemyId id : x.c.encounters[x.s.encounter].enemies) {
    const EnemyDef& def = x.c.enemies[id];
    EnemyState e;
    e.def = id;
    e.unit.max_hp = x.s.rng[Stream::Setup].between(def.hp_min, def.hp_max);
    e.unit.hp = e.unit.max_hp;
    x.s.enemies.push_back(e);
  }
}

void build_draw_pile(Ctx& x) {
  for (CardId card : x.c.players[x.c.encounters[x.s.encounter].player].deck) {
    const auto ref = static_cast<CardRef>(x.s.cards.size());
    x.s.cards.push_back(CardInstance{card});
    x.s.draw_pile.push_back(ref);
  }
}

// Innate cards go to the top of the draw pile (the back), keeping their shuffled order.
void prioritize_innate(Ctx& x) {
  CardPile ordinary, innate;
  for (CardRef c : x.s.draw_pile) (x.c.cards[x.s.cards[c].def].has(kInnate) ? innate : ordinary).push_back(c);
  if (innate.empty()) return;
  for (std::size_t i = innate.size(); i-- > 0;) ordinary.push_back(innate[i]);
  x.s.draw_pile = ordinary;
}

// --- turn end steps -----------------------------------------------------------------------

// Normal cards to discard, Retain cards stay, Ethereal cards are exhausted.
void discard_hand(Ctx& x) {
  std::size_t i = 0;
  while (i < x.s.hand.size()) {
    const CardDef& def = x.c.cards[x.s.cards[x.s.hand[i]].def];
    if (def.has(kRetain)) {
      ++i;
      continue;
    }
    move_from_hand(x, i, def.has(kEthereal) ? Pile::Exhaust : Pile::Discard);
  }
}

}  // namespace

std::optional<Trigger> run_initialize(Ctx& x) {
  create_fresh_state(x);          // 1
  build_player(x);                // 2
  build_enemies(x);               // 3
  build_draw_pile(x);             // 4
  x.s.rng[Stream::Shuffle].shuffle(x.s.draw_pile.span());  // 5
  prioritize_innate(x);           // 6
  // 7: the event bridge is the battle's EventLog; hosts attach listeners to events().
  draw_cards(x, rules(x).opening_hand);  // 8
  x.ev.emit_with([&] {           // 9
    return Event{.type = EventType::BattleStarted, .subject = x.s.encounter};
  });
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) resolve_intent(x, i);  // 10
  // 11: battle-start status behaviour: no status of this pack acts at battle start yet.
  if (auto decided = outcome(x.s)) return decided;
  return Trigger::Initialized;    // 12
}

std::optional<Trigger> run_player_turn_start(Ctx& x) {
  x.s.player_owned = true;
  decay_armor(x, kPlayerUnit);
  x.s.energy = rules(x).max_energy;
  x.s.played_this_turn.clear();
  if (x.s.turn > 1) {
    emit_turn_event(x, EventType::DrawPhase);
    draw_cards(x, rules(x).draw_per_turn);
  }
  emit_turn_event(x, EventType::TurnStarted);
  if (auto decided = outcome(x.s)) return decided;
  return Trigger::TurnBegan;
}

std::optional<Trigger> run_player_phase(Ctx& x) {
  x.s.end_turn_requested = false;
  return std::nullopt;  // waits for the player's decision
}

std::optional<Trigger> run_player_turn_end(Ctx& x) {
  emit_turn_event(x, EventType::DiscardPhase);   // 1
  discard_hand(x);                                // 3
  tick_turn_end_statuses(x, kPlayerUnit);         // 5
  emit_turn_event(x, EventType::TurnEnded);       // 9
  if (auto decided = outcome(x.s)) return decided;
  return Trigger::TurnOver;                       // 11
}

std::optional<Trigger> run_enemy_phase(Ctx& x) {
  x.s.player_owned = false;
  emit_turn_event(x, EventType::EnemyTurnStarted);
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) {
    if (!x.s.enemies[i].unit.alive()) continue;
    const UnitRef self = enemy_unit(i);
    decay_armor(x, self);
    perform_intent(x, i);
    if (auto decided = outcome(x.s)) return decided;
    tick_turn_end_statuses(x, self);
  }
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i)
    if (x.s.enemies[i].unit.alive()) resolve_intent(x, i);
  ++x.s.turn;
  return Trigger::EnemiesDone;
}

std::optional<Trigger> run_battle_won(Ctx& x) {
  x.ev.emit_with([] { return Event{.type = EventType::BattleEnded, .amount = 1}; });
  return std::nullopt;
}

std::optional<Trigger> run_battle_lost(Ctx& x) {
  x.ev.emit_with([] { return Event{.type = EventType::BattleEnded, .amount = 0}; });
  return std::nullopt;
}

std::optional<Trigger> run_phase(Ctx& x, Phase phase) {
  switch (phase) {
    case Phase::None: return std::nullopt;
    case Phase::Initialize: return run_initialize(x);
    case Phase::PlayerTurnStart: return run_player_turn_start(x);
    case Phase::PlayerPhase: return run_player_phase(x);
    case Phase::PlayerTurnEnd: return run_player_turn_end(x);
    case Phase::EnemyPhase: return run_enemy_phase(x);
    case Phase::BattleWon: return run_battle_won(x);
    case Phase::BattleLost: return run_battle_lost(x);
  }
  return std::nullopt;
}

}  // namespace battlecore::deckbuilder::detail
