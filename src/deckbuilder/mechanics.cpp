#include "deckbuilder/mechanics.hpp"

#include <algorithm>
#include <utility>

namespace battlecore::deckbuilder::detail {

const UnitState& unit(const BattleState& s, UnitRef u) {
  BATTLECORE_ENSURE(u >= 0 && static_cast<std::size_t>(u) <= s.enemies.size(), "unit {} of {} enemies", u,
                    s.enemies.size());
  return u == kPlayerUnit ? s.player : s.enemies[static_cast<std::size_t>(u - 1)].unit;
}

UnitState& unit(Ctx& x, UnitRef u) { return const_cast<UnitState&>(unit(std::as_const(x.s), u)); }

bool all_enemies_dead(const BattleState& s) {
  for (const EnemyState& e : s.enemies)
    if (e.unit.alive()) return false;
  return true;
}

std::optional<Trigger> outcome(const BattleState& s) {
  if (!s.player.alive()) return Trigger::Defeat;
  if (all_enemies_dead(s)) return Trigger::Victory;
  return std::nullopt;
}

UnitRef first_alive_enemy(const BattleState& s) {
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (s.enemies[i].unit.alive()) return enemy_unit(i);
  return kNoUnit;
}

// --- cards ------------------------------------------------------------------------------

void shuffle_discard_into_draw(Ctx& x) {
  const auto count = static_cast<std::int32_t>(x.s.discard_pile.size());
  // The discard pile goes under whatever is left in the draw pile, then the new cards are shuffled.
  CardPile merged;
  for (CardRef c : x.s.discard_pile) merged.push_back(c);
  x.s.rng[Stream::Shuffle].shuffle(merged.span());
  for (CardRef c : x.s.draw_pile) merged.push_back(c);
  x.s.draw_pile = merged;
  x.s.discard_pile.clear();
  x.ev.emit_with([&] { return Event{.type = EventType::PileShuffled, .amount = count}; });
}

void draw_cards(Ctx& x, int count) {
  const std::size_t hand_limit = std::min<std::size_t>(kMaxHand, x.c.encounters[x.s.encounter].rules.hand_limit);
  for (int i = 0; i < count; ++i) {
    if (x.s.hand.size() >= hand_limit) return;
    if (x.s.draw_pile.empty()) {
      if (x.s.discard_pile.empty()) return;
      shuffle_discard_into_draw(x);
    }
    const CardRef card = x.s.draw_pile.pop_back();
    x.s.hand.push_back(card);
    x.ev.emit_with([&] {
      return Event{.type = EventType::CardDrawn, .subject = card, .value = x.s.cards[card].def};
    });
  }
}

void move_from_hand(Ctx& x, std::size_t hand_index, Pile to) {
  const CardRef card = x.s.hand[hand_index];
  x.s.hand.erase_at(hand_index);
  switch (to) {
    case Pile::Discard: x.s.discard_pile.push_back(card); break;
    case Pile::Exhaust: x.s.exhaust_pile.push_back(card); break;
    case Pile::Draw: x.s.draw_pile.push_back(card); break;
    case Pile::Hand:
    case Pile::None: BATTLECORE_ENSURE(false, "cannot move card {} to pile {}", card, pile_name(to));
  }
  x.ev.emit_with([&] {
    return Event{.type = EventType::CardMoved,
                 .subject = card,
                 .value = x.s.cards[card].def,
                 .amount = static_cast<std::int32_t>(Pile::Hand),
                 .extra = static_cast<std::int32_t>(to)};
  });
}

// --- units ------------------------------------------------------------------------------

std::int32_t attack_damage(const Ctx& x, UnitRef source, UnitRef target, std::int32_t base) {
  const UnitState& from = unit(x.s, source);
  const UnitState& to = unit(x.s, target);
  std::int64_t damage = base;
  std::int64_t percent_num = 1;
  std::int64_t percent_den = 1;
  for (const StatusStack& st : from.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    damage += std::int64_t{def.damage_dealt_per_stack} * st.stacks;
    if (st.stacks > 0 && def.damage_dealt_percent != 100) {
      percent_num *= def.damage_dealt_percent;
      percent_den *= 100;
    }
  }
  if (damage < 0) damage = 0;
  for (const StatusStack& st : to.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    if (st.stacks > 0 && def.damage_taken_percent != 100) {
      percent_num *= def.damage_taken_percent;
      percent_den *= 100;
    }
  }
  // One rounding down after every multiplier, so 75% and 150% together give 112.5% of the base.
  return static_cast<std::int32_t>(damage * percent_num / percent_den);
}

void take_damage(Ctx& x, UnitRef source, UnitRef target, std::int32_t damage) {
  UnitState& u = unit(x, target);
  if (!u.alive() || damage <= 0) return;
  const std::int32_t absorbed = std::min(damage, u.armor);
  u.armor -= absorbed;
  // HP stops at 0: the event reports the HP actually lost.
  const std::int32_t lost = std::min(damage - absorbed, u.hp);
  u.hp -= lost;
  x.ev.emit_with([&] {
    return Event{.type = EventType::DamageDealt, .source = source, .target = target, .amount = lost,
                 .extra = absorbed};
  });
  if (!u.alive()) x.ev.emit_with([&] { return Event{.type = EventType::UnitDied, .target = target}; });
}

void gain_armor(Ctx& x, UnitRef target, std::int32_t amount) {
  UnitState& u = unit(x, target);
  if (!u.alive() || amount <= 0) return;
  u.armor += amount;
  x.ev.emit_with([&] { return Event{.type = EventType::ArmorGained, .target = target, .amount = amount}; });
}

void apply_status(Ctx& x, UnitRef source, UnitRef target, StatusId status, std::int32_t stacks) {
  UnitState& u = unit(x, target);
  if (!u.alive() || stacks == 0) return;
  StatusStack* slot = nullptr;
  for (StatusStack& st : u.statuses)
    if (st.status == status) slot = &st;
  if (slot == nullptr) {
    u.statuses.push_back(StatusStack{status, 0});
    slot = &u.statuses.back();
  }
  slot->stacks = static_cast<std::int16_t>(std::clamp<std::int32_t>(slot->stacks + stacks, -999, 999));
  const std::int32_t now = slot->stacks;
  if (now == 0) u.statuses.erase_at(static_cast<std::size_t>(slot - u.statuses.begin()));
  x.ev.emit_with([&] {
    return Event{.type = EventType::StatusApplied, .source = source, .target = target, .subject = status,
                 .amount = stacks, .extra = now};
  });
}

void decay_armor(Ctx& x, UnitRef u) {
  if (x.c.encounters[x.s.encounter].rules.armor_decay == ArmorDecayRule::ResetOnTurnStart) unit(x, u).armor = 0;
}

void tick_turn_end_statuses(Ctx& x, UnitRef u) {
  UnitState& unit_state = unit(x, u);
  for (std::size_t i = unit_state.statuses.size(); i-- > 0;) {
    StatusStack& st = unit_state.statuses[i];
    if (x.c.statuses[st.status].decay != Decay::OwnerTurnEnd) continue;
    st.stacks = static_cast<std::int16_t>(st.stacks - (st.stacks > 0 ? 1 : -1));
    if (st.stacks == 0) {
      const StatusId gone = st.status;
      unit_state.statuses.erase_at(i);
      x.ev.emit_with([&] { return Event{.type = EventType::StatusExpired, .target = u, .subject = gone}; });
    }
  }
}

// --- enemies ----------------------------------------------------------------------------

void resolve_intent(Ctx& x, std::size_t index) {
  EnemyState& e = x.s.enemies[index];
  const EnemyDef& def = x.c.enemies[e.def];
  MoveIndex next = 0;
  if (e.last_move == kNoMove && def.first_move) {
    next = *def.first_move;
  } else if (def.behavior == BehaviorKind::Sequence) {
    next = def.sequence[e.sequence_pos];
    e.sequence_pos = static_cast<std::uint8_t>(e.sequence_pos + 1u);
    if (e.sequence_pos >= def.sequence.size()) e.sequence_pos = def.loop_from;
  } else {
    // Weighted among the moves whose repeat limit allows them (all of them if none does).
    const auto allowed = [&](const WeightedMove& w) {
      return w.max_in_a_row == 0 || w.move != e.last_move || e.streak < w.max_in_a_row;
    };
    std::uint32_t total = 0;
    for (const WeightedMove& w : def.weighted)
      if (allowed(w)) total += w.weight;
    const bool any = total > 0;
    if (!any)
      for (const WeightedMove& w : def.weighted) total += w.weight;
    std::uint32_t r = x.s.rng[Stream::Ai].below(total);
    for (const WeightedMove& w : def.weighted) {
      if (any && !allowed(w)) continue;
      if (r < w.weight) {
        next = w.move;
        break;
      }
      r -= w.weight;
    }
  }
  e.intent = next;
  x.ev.emit_with([&] {
    return Event{.type = EventType::EnemyIntent, .source = enemy_unit(index), .subject = next, .value = e.def};
  });
}

void perform_intent(Ctx& x, std::size_t index) {
  EnemyState& e = x.s.enemies[index];
  const MoveIndex move = e.intent;
  BATTLECORE_ENSURE(move != kNoMove, "enemy {} has no intent", index);
  e.streak = move == e.last_move ? static_cast<std::uint8_t>(std::min(e.streak + 1, 255)) : std::uint8_t{1};
  e.last_move = move;
  x.ev.emit_with([&] {
    return Event{.type = EventType::EnemyActed, .source = enemy_unit(index), .subject = move, .value = e.def};
  });
  run_effects(x, x.c.enemies[e.def].moves[move].effects, enemy_unit(index), kPlayerUnit, kNoCard);
}

// --- effects ----------------------------------------------------------------------------

void run_effects(Ctx& x, OpRange ops, UnitRef source, UnitRef target, CardRef card) {
  OpContext ctx{x, source, target, card};
  for (std::uint32_t i = ops.begin; i < ops.end; ++i) {
    const Op& op = x.c.ops[i];
    x.c.op_handlers[op.code](ctx, op);
    if (outcome(x.s)) return;  // the battle ends as soon as a side is down, even mid-effect
  }
}

std::size_t op_targets(OpContext& ctx, OpTarget kind, std::array<UnitRef, kMaxEnemies + 1>& out) {
  const BattleState& s = ctx.x.s;
  const bool source_is_player = ctx.source == kPlayerUnit;
  std::size_t n = 0;
  switch (kind) {
    case OpTarget::Self:
      if (unit(ctx.x, ctx.source).alive()) out[n++] = ctx.source;
      break;
    case OpTarget::Chosen:
      if (ctx.target != kNoUnit && unit(ctx.x, ctx.target).alive()) out[n++] = ctx.target;
      break;
    case OpTarget::AllEnemies:
      if (!source_is_player) {
        if (s.player.alive()) out[n++] = kPlayerUnit;
      } else {
        for (std::size_t i = 0; i < s.enemies.size(); ++i)
          if (s.enemies[i].unit.alive()) out[n++] = enemy_unit(i);
      }
      break;
    case OpTarget::RandomEnemy: {
      if (!source_is_player) {
        if (s.player.alive()) out[n++] = kPlayerUnit;
        break;
      }
      std::array<UnitRef, kMaxEnemies> alive{};
      std::size_t count = 0;
      for (std::size_t i = 0; i < s.enemies.size(); ++i)
        if (s.enemies[i].unit.alive()) alive[count++] = enemy_unit(i);
      if (count > 0) out[n++] = alive[count > 1 ? ctx.x.s.rng[Stream::Effects].below(static_cast<std::uint32_t>(count)) : 0];
      break;
    }
  }
  return n;
}

}  // namespace battlecore::deckbuilder::detail
