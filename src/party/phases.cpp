#include "party/phases.hpp"

#include <algorithm>

namespace battlecore::party::detail {

namespace {

// --- battle start steps -------------------------------------------------------------------

void build_party(Ctx& x) {
  const PartyDef& party = x.c.parties[x.c.encounters[x.s.encounter].party];
  for (MemberId id : party.formation) {
    MemberState m;
    m.def = id;
    m.hp = m.max_hp = x.c.members[id].hp;
    x.s.formation.push_back(static_cast<std::uint8_t>(x.s.members.size()));
    x.s.members.push_back(m);
  }
  x.s.tp = x.s.max_tp = party.tp;
  for (const ItemStack& st : party.items) x.s.items.push_back(ItemSlot{st.item, st.count});
}

/// The first 4 enemies are active; the rest, then every enemy's own reserves, wait in reserve
/// for a slot to be emptied.
void build_enemies(Ctx& x) {
  const EncounterDef& enc = x.c.encounters[x.s.encounter];
  for (EnemyId id : enc.enemies) x.s.reserves.push_back(id);
  for (EnemyId id : enc.enemies)
    for (EnemyId r : x.c.enemies[id].reserves) x.s.reserves.push_back(r);
  const std::size_t active = std::min(enc.enemies.size(), kMaxActiveEnemies);
  for (std::size_t i = 0; i < active; ++i) spawn_from_reserves(x, false);  // the first four take the slots
}

}  // namespace

std::optional<Trigger> run_battle_start(Ctx& x) {
  const EncounterDef& enc = x.c.encounters[x.s.encounter];
  build_party(x);
  build_enemies(x);
  x.s.companion_locked = enc.companion_locked;
  reset_select_cycle(x);
  if (enc.advantage == Advantage::Party && !x.s.formation.empty())
    x.s.members[x.s.formation[0]].cantmove = -1;  // the lead member gets an extra action
  if (enc.advantage == Advantage::Enemy) {
    x.s.first_strike = true;
    return Trigger::EnemyAdvantage;
  }
  return Trigger::BattleReady;
}

std::optional<Trigger> run_first_strike(Ctx& x) {
  for (;;) {
    if (x.s.enemy_action.active) {
      if (continue_enemy_action(x)) return std::nullopt;  // a Block decision waits
      continue;
    }
    if (alive_member_count(x.s) == 0) return Trigger::PartyDefeated;
    if (x.s.first_strike_acted || x.s.enemies.empty()) return Trigger::FirstStrikeOver;
    x.s.first_strike_acted = true;  // only the first enemy acts
    const EnemyState& first = x.s.enemies[0];
    if (!is_stopped_lite(x.c, first.conditions, first.hp)) begin_enemy_action(x, 0);
  }
}

std::optional<Trigger> run_player_phase(Ctx& x, bool entering) {
  if (entering) ++x.s.main_turns;
  if (entering)
    x.ev.emit_with(EventType::MainTurnStarted, [&] {
      return Event{.type = EventType::MainTurnStarted, .amount = static_cast<std::int32_t>(x.s.turn)};
    });
  for (;;) {
    if (x.s.fled) return Trigger::FleeSucceeded;
    if (x.s.enemies.empty()) return Trigger::EnemiesDefeated;
    if (x.s.current >= 0 || x.s.companion_turn) return std::nullopt;  // a decision waits
    const PartyDef& party = x.c.parties[x.c.encounters[x.s.encounter].party];
    // 1. member selection
    if (free_member_count(x.s, x.c) > 0) {
      std::int8_t m = pick_member(x.s, x.c);
      if (m < 0) {  // stale cycle entries: start the cycle again
        reset_select_cycle(x);
        m = pick_member(x.s, x.c);
      }
      if (m >= 0) {
        x.s.current = m;
        x.ev.emit_with(EventType::MemberSelected, [&] {
          return Event{.type = EventType::MemberSelected,
                       .source = member_actor(static_cast<std::size_t>(m))};
        });
        if (x.s.members.size() > 1) add_last_turn(x, m);
        return std::nullopt;
      }
    }
    // 2. the companion's action
    if (party.companion && !x.s.companion_acted && !x.s.companion_locked) {
      x.s.companion_turn = true;
      return std::nullopt;
    }
    // 3. the AI ally's action
    if (party.ally && !x.s.ally_acted) {
      x.s.ally_acted = true;
      ally_action(x);
      remove_fallen_enemies(x);
      continue;
    }
    // 4. end of the player phase
    x.s.current = -1;
    return Trigger::PlayerPhaseOver;
  }
}

std::optional<Trigger> run_enemy_phase(Ctx& x) {
  for (;;) {
    if (x.s.enemy_action.active) {
      if (continue_enemy_action(x)) return std::nullopt;  // a Block decision waits
      continue;
    }
    if (alive_member_count(x.s) == 0) return Trigger::PartyDefeated;  // defeat at once
    std::optional<std::size_t> next;
    for (std::size_t i = 0; i < x.s.enemies.size() && !next; ++i)
      if (x.s.enemies[i].cantmove <= 0 && x.s.enemies[i].alive()) next = i;
    if (!next) return Trigger::EnemiesDone;
    EnemyState& e = x.s.enemies[*next];
    if (is_stopped_lite(x.c, e.conditions, e.hp)) {
      e.cantmove = 1;  // stopped (Flipped does not count): its turn is used up; try the next
      continue;
    }
    begin_enemy_action(x, *next);
  }
}

std::optional<Trigger> run_turn_end(Ctx& x) {
  const EncounterDef& enc = x.c.encounters[x.s.encounter];
  x.s.current = -1;
  x.s.deselects = 0;
  x.s.swaps = 0;
  // 1: projectiles fly only while a member stands and an enemy is left (the delayed projectiles of
  // BF: Battle flow/Action coroutines/AdvanceMainTurn).
  if (alive_member_count(x.s) > 0 && !no_enemy_left(x.s)) land_projectiles(x);
  for (std::size_t i = 0; i < x.s.members.size(); ++i) advance_turn_member(x, i);  // 2, 3, 4
  if (alive_member_count(x.s) == 0) return Trigger::PartyDefeated;                 // 5
  if (no_enemy_left(x.s)) return Trigger::AllEnemiesGone;                          // 6
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) advance_turn_enemy(x, i);   // 2, 3, 4
  remove_fallen_enemies(x);
  if (x.s.first_strike) {  // the first strike ends: every enemy gets its full actions
    x.s.first_strike = false;
    for (EnemyState& e : x.s.enemies) {
      e.cantmove = min_enemy_counter(x.c.enemies[e.def]);
      e.tired = 0;
    }
  } else {
    ++x.s.turn;  // 7
    x.ev.emit_with(EventType::TurnAdvanced, [&] {
      return Event{.type = EventType::TurnAdvanced, .amount = static_cast<std::int32_t>(x.s.turn)};
    });
  }
  reset_select_cycle(x);      // 8
  if (x.s.acted_this_turn) {  // 9
    x.s.no_action_turns = 0;
  } else if (++x.s.no_action_turns >= kInactionFailsafeTurns) {
    inaction_failsafe(x);
    x.s.no_action_turns = 0;
    reset_select_cycle(x);
  }
  x.s.acted_this_turn = false;  // 10
  x.s.companion_acted = false;
  x.s.ally_acted = false;
  if (x.s.turn > enc.turn_limit) return Trigger::TurnLimit;  // 11
  return Trigger::NextTurn;
}

std::optional<Trigger> run_battle_end(Ctx& x, Phase phase, bool entering) {
  if (entering)
    x.ev.emit_with(EventType::BattleEnded, [&] {
      return Event{.type = EventType::BattleEnded,
                   .amount = phase == Phase::Victory  ? 0
                             : phase == Phase::Defeat ? 1
                                                      : 2};
    });
  return std::nullopt;
}

std::optional<Trigger> run_phase(Ctx& x, Phase phase, bool entering) {
  switch (phase) {
    case Phase::BattleStart:
      return run_battle_start(x);
    case Phase::FirstStrike:
      return run_first_strike(x);
    case Phase::PlayerPhase:
      return run_player_phase(x, entering);
    case Phase::EnemyPhase:
      return run_enemy_phase(x);
    case Phase::TurnEnd:
      return run_turn_end(x);
    case Phase::Victory:
    case Phase::Defeat:
    case Phase::Fled:
      return run_battle_end(x, phase, entering);
  }
  return std::nullopt;
}

}  // namespace battlecore::party::detail
