#include "deckbuilder/mechanics.hpp"

#include "deckbuilder/op_registry.hpp"

#include <algorithm>
#include <utility>

namespace battlecore::deckbuilder::detail {

void bad_unit(const BattleState& s, UnitRef u) {
  ::battlecore::detail::invariant_failed(__FILE__, __LINE__,
                                         fmt::format("unit {} of {} enemies", u, s.enemies.size()));
}

// --- cards ------------------------------------------------------------------------------

[[gnu::hot]] void shuffle_discard_into_draw(Ctx& x) {
  // Through a local: a byte store may alias x, so x.s would be read again before each use.
  BattleState& s = x.s;
  const auto count = static_cast<std::int32_t>(s.discard_pile().size());
  // The discard pile goes under whatever is left in the draw pile, then the new cards are shuffled.
  s.piles.shuffle_discard_under_draw(s.rng[Stream::Shuffle]);
  // Grown again, the draw pile has shuffled cards where a mark would say known ones are.
  s.forget_draw_pile_top();
  x.ev.emit_with(EventType::PileShuffled,
                 [&] { return Event{.type = EventType::PileShuffled, .amount = count}; });
}

[[gnu::hot]] void draw_cards(Ctx& x, int count) {
  const std::size_t hand_limit = x.s.hand_limit();
  std::size_t left = count > 0 ? static_cast<std::size_t>(count) : 0;
  while (left > 0) {
    if (x.s.hand().size() >= hand_limit) return;
    if (x.s.draw_pile().empty()) {
      if (x.s.discard_pile().empty()) return;
      shuffle_discard_into_draw(x);
    }
    // With no CardDrawn to log or hear, nothing runs between two draws: the cards up to the
    // next shuffle (or the hand limit) move in one step, the same cards in the same order.
    // Asked again after each shuffle: a PileShuffled listener may attach a CardDrawn one.
    if (!x.ev.wants(EventType::CardDrawn)) {
      const std::size_t n = std::min({left, hand_limit - x.s.hand().size(), x.s.draw_pile().size()});
      x.s.piles.draw_to_hand(n);
      left -= n;
      continue;
    }
    const CardRef card = x.s.piles.draw_to_hand();
    x.ev.emit_with(EventType::CardDrawn, [&] {
      return Event{.type = EventType::CardDrawn, .subject = card, .value = x.s.cards[card].def};
    });
    --left;
  }
}

void upgrade_card(Ctx& x, CardRef card) {
  CardInstance& ci = x.s.cards[card];
  const CardId from = ci.def;
  const CardId to = *x.c.cards[from].upgrade;
  ci.def = to;
  // Cost rules leave an X-cost card alone: an upgrade that costs X drops those the card held.
  if (x.c.card_play[to].cost == kXCost && ci.has_cost_rule()) {
    if (ci.cost_turns != 0) --x.s.turn_cost_cards;
    ci = CardInstance{.def = to};
  }
  refresh_listing(ci, x.c);
  x.s.listing_costs = listing_costs_of(x.s);
  // The loader gives an upgrade the card's keywords; a catalog built in code may not.
  x.s.card_keywords = card_keywords_of(x.s, x.c);
  x.ev.emit_with(EventType::CardUpgraded, [&] {
    return Event{.type = EventType::CardUpgraded, .subject = card, .value = to, .amount = from};
  });
}

void add_card(Ctx& x, CardId card, Pile pile) {
  if (x.s.cards.full()) return limit_reached(x, Limit::CardInstances, kMaxCards, card);
  const auto ref = static_cast<CardRef>(x.s.cards.size());
  x.s.cards.push_back(CardInstance{.def = card, .listing = x.c.card_play[card].listing});
  x.s.card_keywords |= x.c.card_play[card].keywords;
  x.s.listing_costs.add(x.c.card_play[card].listing);
  if (pile == Pile::Hand && x.s.hand_full()) pile = Pile::Discard;
  switch (pile) {
    case Pile::Hand:
    case Pile::Exhaust:
      x.s.piles.push(pile, ref);
      break;
    case Pile::Draw: {
      // Shuffled in: a random position of the draw pile (effects stream), which the player does
      // not know, so neither do they know what lies on top any more.
      const auto at = x.s.rng[Stream::Effects].below(static_cast<std::uint32_t>(x.s.draw_pile().size() + 1));
      x.s.piles.insert(Pile::Draw, at, ref);
      x.s.forget_draw_pile_top();
      break;
    }
    case Pile::Discard:
    case Pile::None:
      x.s.piles.push(Pile::Discard, ref);
      pile = Pile::Discard;
      break;
  }
  x.ev.emit_with(EventType::CardCreated, [&] {
    return Event{.type = EventType::CardCreated,
                 .subject = ref,
                 .value = card,
                 .amount = static_cast<std::int32_t>(pile)};
  });
}

void count_down_cost_rules(Ctx& x) {
  bool expired = false;
  for (std::size_t i = 0; i < x.s.cards.size(); ++i) {
    CardInstance& ci = x.s.cards[i];
    if (ci.cost_turns == 0) continue;
    if (--ci.cost_turns == 0) {
      --x.s.turn_cost_cards;
      ci.turn_cost_set = -1;
      ci.turn_cost_change = 0;
      refresh_listing(ci, x.c);
      expired = true;
      x.ev.emit_with(EventType::CostChanged, [&] {
        return Event{.type = EventType::CostChanged,
                     .subject = static_cast<std::uint16_t>(i),
                     .amount = effective_cost(x.s, x.c, static_cast<CardRef>(i))};
      });
    }
  }
  // An expired card's cost may have been the lowest or highest: recounted once, after them all.
  if (expired) x.s.listing_costs = listing_costs_of(x.s);
}

// --- units ------------------------------------------------------------------------------

void lose_hp(Ctx& x, UnitRef target, std::int32_t amount) {
  UnitState& u = unit(x, target);
  if (!u.alive() || amount <= 0) return;
  const std::int32_t lost = std::min(amount, u.hp);
  u.hp -= lost;
  count_if_died(x.s, target, u);
  x.ev.emit_with(EventType::HpLost,
                 [&] { return Event{.type = EventType::HpLost, .target = target, .amount = lost}; });
  if (!u.alive())
    x.ev.emit_with(EventType::UnitDied, [&] { return Event{.type = EventType::UnitDied, .target = target}; });
}

void heal(Ctx& x, UnitRef target, std::int32_t amount) {
  UnitState& u = unit(x, target);
  if (!u.alive() || amount <= 0) return;
  const std::int32_t healed = std::min(amount, u.max_hp - u.hp);
  u.hp += healed;
  x.ev.emit_with(EventType::Healed,
                 [&] { return Event{.type = EventType::Healed, .target = target, .amount = healed}; });
}

std::int64_t scaled_by_many(std::int64_t amount, const Percents& percents) {
  // The amount is kept as whole + num / den (num < den), and each percentage p makes it
  // whole * p / 100 + num * p / (100 * den): exact, with den at most 100^16 and every product
  // below 2^127. The percentages below 100 go first: once one of 100 or more is reached the
  // amount can only grow, so it may stop at the cap there.
  BATTLECORE_ENSURE(amount >= 0, "an amount to scale of {} (the modifiers clamp it at 0 first)", amount);
  __extension__ using Wide = unsigned __int128;
  std::array<std::int32_t, 2 * kMaxStatusSlots> sorted = percents.values;
  std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(percents.count));
  Wide whole = static_cast<Wide>(std::min(amount, kMaxModifiedAmount)), num = 0, den = 1;
  for (std::size_t i = 0; i < percents.count; ++i) {
    const auto p = static_cast<Wide>(sorted[i]);
    const Wide scaled = whole * p;
    num = (scaled % 100) * den + num * p;
    den *= 100;
    whole = scaled / 100 + num / den;
    num %= den;
    if (sorted[i] >= 100 && whole >= static_cast<Wide>(kMaxModifiedAmount)) return kMaxModifiedAmount;
  }
  return std::min(static_cast<std::int64_t>(whole), kMaxModifiedAmount);
}

std::int32_t attack_damage_with_many(const Ctx& x, const UnitState& from, const UnitState& to,
                                     std::int64_t damage) {
  Percents percents;
  for (const StatusStack& st : from.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    if (st.stacks > 0 && def.damage_dealt_percent != 100) percents.add(def.damage_dealt_percent);
  }
  for (const StatusStack& st : to.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    if (st.stacks > 0 && def.damage_taken_percent != 100) percents.add(def.damage_taken_percent);
  }
  return static_cast<std::int32_t>(scaled_by(damage, percents));
}

std::int32_t modified_armor_gain(const Ctx& x, const UnitState& u, std::int32_t base) {
  std::int64_t armor = base;
  Percents percents;
  for (const StatusStack& st : u.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    armor += std::int64_t{def.armor_gained_per_stack} * st.stacks;
    if (st.stacks > 0 && def.armor_gained_percent != 100) percents.add(def.armor_gained_percent);
  }
  if (armor < 0) armor = 0;
  return static_cast<std::int32_t>(scaled_by(armor, percents));
}

void gain_energy(Ctx& x, std::int32_t amount) {
  const std::int32_t before = x.s.energy;
  x.s.energy = std::clamp(x.s.energy + amount, 0, 99);
  x.ev.emit_with(EventType::EnergyChanged, [&] {
    return Event{.type = EventType::EnergyChanged, .amount = x.s.energy - before, .extra = x.s.energy};
  });
}

namespace {
/// The cards of `cards` that `filter` takes, but `except`.
template <class Cards>
std::int64_t count_cards(const BattleState& s, const Catalog& c, const Cards& cards, CardFilter filter,
                         CardRef except = kNoCard) {
  std::int64_t n = 0;
  for (const CardRef card : cards)
    if (card != except && card_filter_takes(filter, c.cards[s.cards[card].def].type)) ++n;
  return n;
}
}  // namespace

std::int32_t counted_amount(const OpContext& ctx, const CountedAmount& a) {
  const BattleState& s = ctx.x.s;
  const UnitState* who = a.of_target ? ctx.to : ctx.from;  // the unit counted
  std::int64_t n = 0;
  switch (a.count) {
    case AmountCount::Stacks: {
      const StatusId status = a.status != kNoStatus ? a.status : ctx.status;
      n = who != nullptr && status != kNoStatus ? who->stacks(status) : 0;
      break;
    }
    case AmountCount::Hand:  // the card being played is not counted
      n = count_cards(s, ctx.x.c, s.hand(), a.cards, s.playing.card);
      break;
    case AmountCount::DrawPile:
      n = count_cards(s, ctx.x.c, s.piles.draw_top_first(), a.cards);
      break;
    case AmountCount::DiscardPile:
      n = count_cards(s, ctx.x.c, s.discard_pile(), a.cards);
      break;
    case AmountCount::ExhaustPile:
      n = count_cards(s, ctx.x.c, s.exhaust_pile(), a.cards);
      break;
    case AmountCount::Energy:
      n = s.energy;
      break;
    case AmountCount::Armor:
      n = who != nullptr ? who->armor : 0;
      break;
    case AmountCount::MissingHp:
      n = who != nullptr ? who->max_hp - std::max(who->hp, 0) : 0;
      break;
    case AmountCount::CardsPlayedThisTurn:  // the card being played counts, once for each play
      n = count_cards(s, ctx.x.c, s.played_this_turn, a.cards);
      break;
    case AmountCount::AttacksThisTurn:
      n = s.attacks_this_turn;
      break;
    case AmountCount::X:
      n = s.playing_x;
      break;
  }
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(a.plus + a.per * n, a.min, a.max));
}

[[gnu::hot]] void apply_status(Ctx& x, UnitRef source, UnitRef target, StatusId status, std::int32_t stacks) {
  UnitState& u = unit(x, target);
  if (!u.alive() || stacks == 0) return;
  StatusStack* slot = nullptr;
  for (StatusStack& st : u.statuses)
    if (st.status == status) slot = &st;
  if (slot == nullptr) {
    if (stacks < 0) return;  // nothing to remove
    if (u.statuses.full()) return limit_reached(x, Limit::UnitStatuses, kMaxStatusSlots, status, target);
    u.statuses.push_back(StatusStack{status, 0});
    slot = &u.statuses.back();
    u.status_traits |= x.c.status_traits[status];  // a status's traits are its definition's
  }
  // Stacks never go below 0: removing more than there is removes the status.
  slot->stacks =
      static_cast<std::int16_t>(std::clamp<std::int32_t>(slot->stacks + stacks, 0, kMaxStatusStacks));
  const std::int32_t now = slot->stacks;
  if (now == 0) {
    u.statuses.erase_at(static_cast<std::size_t>(slot - u.statuses.begin()));
    refresh_status_traits(u, x.c);  // the traits of the statuses left
  }
  x.ev.emit_with(EventType::StatusApplied, [&] {
    return Event{.type = EventType::StatusApplied,
                 .source = source,
                 .target = target,
                 .subject = status,
                 .amount = stacks,
                 .extra = now};
  });
}

void reset_armor_with_hooks(Ctx& x, UnitRef u, UnitState& unit_state) {
  std::int32_t keep = 0;
  for (const ActiveHook& h : x.s.hooks) {
    const HookDef& def = x.c.hooks[h.hook];
    if (h.owner == u && def.kind == HookKind::ArmorReset) {
      keep = static_cast<std::int32_t>(std::int64_t{unit_state.armor} * def.keep_percent / 100);
      break;
    }
  }
  unit_state.armor = keep;
}

[[gnu::hot]] void decay_turn_end_statuses(Ctx& x, UnitRef u, UnitState& unit_state) {
  for (std::size_t i = unit_state.statuses.size(); i-- > 0;) {
    StatusStack& st = unit_state.statuses[i];
    if (x.c.statuses[st.status].decay != Decay::OwnerTurnEnd) continue;
    st.stacks = static_cast<std::int16_t>(st.stacks - 1);
    if (st.stacks <= 0) {
      const StatusId gone = st.status;
      unit_state.statuses.erase_at(i);
      refresh_status_traits(unit_state, x.c);
      x.ev.emit_with(EventType::StatusExpired,
                     [&] { return Event{.type = EventType::StatusExpired, .target = u, .subject = gone}; });
    }
  }
}

void run_status_behaviours(Ctx& x, UnitRef u, StatusTiming timing, UnitRef other) {
  // A copy: the behaviours may add or remove statuses of this very unit.
  const auto statuses = unit(x, u).statuses;
  for (const StatusStack& st : statuses) {
    const OpRange ops = x.c.statuses[st.status].timings[static_cast<std::size_t>(timing)];
    if (ops.empty() || !unit(x, u).alive() || unit(x, u).stacks(st.status) == 0) continue;
    run_effects(x, ops, u, other, kNoCard, st.status);
    if (x.battle.is_battle_active() && outcome(x.s)) return;
  }
}

bool has_skipping_status(const Ctx& x, const UnitState& unit_state) {
  for (const StatusStack& st : unit_state.statuses)
    if (st.stacks > 0 && x.c.statuses[st.status].skips_turn) return true;
  return false;
}

// --- hooks and delayed triggers ---------------------------------------------------------

void register_hook(Ctx& x, std::uint16_t hook, UnitRef owner) {
  if (x.s.hooks.full())
    return limit_reached(x, Limit::Hooks, kMaxHooks, hook, owner);  // the newest is dropped
  x.s.hooks.push_back(ActiveHook{hook, owner, x.c.hooks[hook].duration});
  x.ev.emit_with(EventType::HookRegistered,
                 [&] { return Event{.type = EventType::HookRegistered, .target = owner, .subject = hook}; });
}

const ActiveHook* matching_hook(const BattleState& s, const Catalog& c, HookKind kind, const CardDef& card) {
  for (const ActiveHook& h : s.hooks) {
    const HookDef& def = c.hooks[h.hook];
    if (def.kind == kind && card_filter_takes(def.card_type, card.type)) return &h;
  }
  return nullptr;
}

void run_card_played_hooks(Ctx& x, const CardDef& card, UnitRef target) {
  // A copy: a hook's effect may register hooks.
  const auto hooks = x.s.hooks;
  for (const ActiveHook& h : hooks) {
    const HookDef& def = x.c.hooks[h.hook];
    if (def.kind != HookKind::OnCardPlayed || !card_filter_takes(def.card_type, card.type)) continue;
    run_effects(x, def.effects, h.owner, target, kNoCard);
    if (outcome(x.s)) return;
  }
}

void count_down_hooks(Ctx& x, UnitRef owner) {
  for (std::size_t i = x.s.hooks.size(); i-- > 0;) {
    ActiveHook& h = x.s.hooks[i];
    if (h.owner != owner || h.turns_left == 0) continue;
    if (--h.turns_left == 0) {
      const std::uint16_t hook = h.hook;
      x.s.hooks.erase_at(i);
      x.ev.emit_with(EventType::HookExpired,
                     [&] { return Event{.type = EventType::HookExpired, .target = owner, .subject = hook}; });
    }
  }
}

void count_down_delayed(Ctx& x, DelayedTiming timing) {
  // Due triggers are taken out first, then fired in the order they were scheduled.
  FixedVec<DelayedTrigger, kMaxDelayed> due;
  for (std::size_t i = 0; i < x.s.delayed.size();) {
    DelayedTrigger& d = x.s.delayed[i];
    if (d.timing != timing) {
      ++i;
    } else if (d.occurrences_left > 0) {
      --d.occurrences_left;
      ++i;
    } else {
      due.push_back(d);
      x.s.delayed.erase_at(i);
    }
  }
  for (const DelayedTrigger& d : due) {
    x.ev.emit_with(EventType::DelayedFired, [&] {
      return Event{
          .type = EventType::DelayedFired, .subject = d.block, .amount = static_cast<std::int32_t>(timing)};
    });
    UnitRef target = d.target;
    if (target != kNoUnit && !unit(x, target).alive())
      target = d.source == kPlayerUnit ? first_alive_enemy(x.s) : kPlayerUnit;
    run_effects(x, x.c.blocks[d.block], d.source, target, kNoCard);
    if (outcome(x.s)) return;
  }
}

// --- conditions -------------------------------------------------------------------------

bool holds(const Ctx& x, const Condition& c, UnitRef self, UnitRef target) {
  switch (c.kind) {
    case ConditionKind::TargetHasStatus:
      return target != kNoUnit && unit(x.s, target).stacks(c.status) >= c.amount;
    case ConditionKind::SelfHpBelowPercent: {
      const UnitState& u = unit(x.s, self);
      return std::int64_t{u.hp} * 100 < std::int64_t{c.amount} * u.max_hp;
    }
    case ConditionKind::HandSizeAtLeast:
      return static_cast<std::int32_t>(x.s.hand().size()) >= c.amount;
    case ConditionKind::EnergyAtLeast:
      return x.s.energy >= c.amount;
    case ConditionKind::AttackedThisTurn:
      return x.s.attacks_this_turn > 0;
  }
  return false;
}

// --- enemies ----------------------------------------------------------------------------

namespace {
// Slot 0 of a WeightedPick is "no move yet" (kNoMove + 1 wraps to 0), slot 1 + m follows move m.
[[gnu::always_inline]] inline MoveIndex pick_by_table(const Catalog& c, const EnemyDef& def,
                                                      const WeightedPick& pick, MoveIndex last,
                                                      std::uint8_t streak, Rng& rng) {
  const PickSlot& slot = c.pick_slots[pick.slots + static_cast<MoveIndex>(last + 1u)];
  const std::uint32_t* sums =
      c.pick_weights.data() + slot.row + std::size_t{std::min(streak, slot.cap)} * pick.entries;
  const std::uint32_t r = rng.below(sums[pick.entries - 1u]);
  std::size_t i = 0;
  for (std::size_t k = 0; k < pick.entries; ++k) i += sums[k] <= r ? 1u : 0u;
  return def.weighted[i].move;
}

MoveIndex pick_by_list(const EnemyDef& def, MoveIndex last, std::uint8_t streak, Rng& rng) {
  // Weighted among the moves whose repeat limit allows them (all of them if none does).
  const auto allowed = [&](const WeightedMove& w) { return allowed_after(w, last, streak); };
  std::uint32_t total = 0;
  for (const WeightedMove& w : def.weighted)
    if (allowed(w)) total += w.weight;
  const bool any = total > 0;
  if (!any)
    for (const WeightedMove& w : def.weighted) total += w.weight;
  std::uint32_t r = rng.below(total);
  for (const WeightedMove& w : def.weighted) {
    if (any && !allowed(w)) continue;
    if (r < w.weight) return w.move;
    r -= w.weight;
  }
  return kNoMove;  // not reached: r is below the total of the moves walked
}
}  // namespace

MoveIndex pick_weighted(const Catalog& c, EnemyId enemy, MoveIndex last, std::uint8_t streak, Rng& rng,
                        bool use_table) {
  const EnemyDef& def = c.enemies[enemy];
  if (const WeightedPick& pick = c.enemy_picks[enemy]; pick.entries != 0 && use_table)
    return pick_by_table(c, def, pick, last, streak, rng);
  return pick_by_list(def, last, streak, rng);
}

namespace {
// Every case: the first move, behaviour rules, a sequence, a pick by list, the event.
[[gnu::noinline]] void resolve_intent_any(Ctx& x, std::size_t index) {
  EnemyState& e = x.s.enemies[index];
  const EnemyDef& def = x.c.enemies[e.def];
  MoveIndex next = kNoMove;
  if (e.last_move == kNoMove && def.first_move) next = *def.first_move;
  const std::size_t rule_count = def.rules.empty() ? 0 : def.rules.size();  // most enemies have none
  for (std::size_t r = 0; next == kNoMove && r < rule_count; ++r) {
    const BehaviorRule& rule = def.rules[r];
    const auto bit = static_cast<std::uint8_t>(1u << r);
    if (rule.once && (e.rules_used & bit)) continue;
    if (!holds(x, rule.condition, enemy_unit(index), kPlayerUnit)) continue;
    next = rule.move;
    if (rule.once) e.rules_used = static_cast<std::uint8_t>(e.rules_used | bit);
  }
  if (next != kNoMove) {
    // chosen above
  } else if (def.behavior == BehaviorKind::Sequence) {
    next = def.sequence[e.sequence_pos];
    e.sequence_pos = static_cast<std::uint8_t>(e.sequence_pos + 1u);
    if (e.sequence_pos >= def.sequence.size()) e.sequence_pos = def.loop_from;
  } else {
    const WeightedPick& pick = x.c.enemy_picks[e.def];
    next = pick.entries != 0 ? pick_by_table(x.c, def, pick, e.last_move, e.streak, x.s.rng[Stream::Ai])
                             : pick_by_list(def, e.last_move, e.streak, x.s.rng[Stream::Ai]);
  }
  e.intent = next;
  x.ev.emit_with(EventType::EnemyIntent, [&] {
    return Event{
        .type = EventType::EnemyIntent, .source = enemy_unit(index), .subject = next, .value = e.def};
  });
}
}  // namespace

// The common case on its own: a Random behaviour's compiled pick, without behaviour rules, after
// the first move, no one hearing EnemyIntent. Everything else is a tail call of
// resolve_intent_any, so that this path saves no registers.
[[gnu::hot]] void resolve_intent(Ctx& x, std::size_t index) {
  EnemyState& e = x.s.enemies[index];
  const WeightedPick& pick = x.c.enemy_picks[e.def];
  if (!pick.alone || (e.last_move == kNoMove && pick.forced_first) || x.ev.wants(EventType::EnemyIntent))
    return resolve_intent_any(x, index);
  e.intent = pick_by_table(x.c, x.c.enemies[e.def], pick, e.last_move, e.streak, x.s.rng[Stream::Ai]);
}

[[gnu::hot]] void perform_intent(Ctx& x, std::size_t index) {
  EnemyState& e = x.s.enemies[index];
  const MoveIndex move = e.intent;
  BATTLECORE_ENSURE(move != kNoMove, "enemy {} has no intent", index);
  e.streak = move == e.last_move ? static_cast<std::uint8_t>(std::min(e.streak + 1, 255)) : std::uint8_t{1};
  e.last_move = move;
  x.ev.emit_with(EventType::EnemyActed, [&] {
    return Event{.type = EventType::EnemyActed, .source = enemy_unit(index), .subject = move, .value = e.def};
  });
  // The enemy phase has checked that the battle is undecided and the enemy alive.
  run_effects<true>(x, x.c.enemies[e.def].moves[move].effects, enemy_unit(index), kPlayerUnit, kNoCard);
}

// --- effects ----------------------------------------------------------------------------

void push_block(Ctx& x, OpRange ops, EffectFrame::Kind kind, UnitRef source, UnitRef target, CardRef card,
                std::uint8_t repeat_left, StatusId status) {
  if (ops.empty()) return;
  x.s.effects.push_back(
      EffectFrame{ops.begin, ops.begin, ops.end, kind, source, target, card, repeat_left, status});
}

namespace {
/// The next alive enemy after `after` (a UnitRef), or kNoUnit.
UnitRef next_alive_enemy(const BattleState& s, UnitRef after) {
  for (auto i = static_cast<std::size_t>(after); i < s.enemies.size(); ++i)
    if (s.enemies[i].unit.alive()) return enemy_unit(i);
  return kNoUnit;
}
}  // namespace

void run_effect_stack(Ctx& x, std::size_t depth) {
  std::uint32_t budget = kMaxOpsPerEffect;
  while (x.s.effects.size() > depth) {
    if (x.s.choice.kind != PendingChoice::Kind::None) return;  // paused until the player picks
    // The battle ends as soon as a side is down, even mid-effect; battle-end behaviour, which
    // runs once the battle is decided, runs to its end.
    if (x.battle.is_battle_active() && outcome(x.s)) {
      while (x.s.effects.size() > depth) x.s.effects.pop_back();
      return;
    }
    EffectFrame& f = x.s.effects.back();
    // A unit at 0 HP is dead: what it was doing stops (an enemy killed by thorns mid-move).
    if (f.source != kNoUnit && x.battle.is_battle_active() && !unit(x.s, f.source).alive()) {
      x.s.effects.pop_back();
      continue;
    }
    if (f.pc >= f.end) {
      if (f.kind == EffectFrame::Kind::Repeat && f.repeat_left > 0) {
        --f.repeat_left;
        f.pc = f.begin;
      } else if (f.kind == EffectFrame::Kind::ForEachEnemy &&
                 (f.target = next_alive_enemy(x.s, f.target)) != kNoUnit) {
        f.pc = f.begin;
      } else {
        x.s.effects.pop_back();
      }
      continue;
    }
    BATTLECORE_ENSURE(budget-- > 0, "an effect ran more than {} ops: a loop in content", kMaxOpsPerEffect);
    const Op& op = x.c.ops[f.pc++];
    OpContext ctx{x, f.source, f.target, f.card, f.status};
    const std::size_t frames = x.s.effects.size();
    x.c.op_handlers[op.code](ctx, op);  // may push frames: `f` is not used after this
    // A block whose last op just ran leaves now, as the next pass would have it leave (a
    // decided battle drops it with the rest, a dead source drops it, an ended block pops);
    // unless the op paused on a choice or pushed frames.
    if (x.s.effects.size() == frames && x.s.choice.kind == PendingChoice::Kind::None) {
      const EffectFrame& top = x.s.effects.back();
      if (top.kind == EffectFrame::Kind::Block && top.pc >= top.end) x.s.effects.pop_back();
    }
  }
}

void flat_list_nested(const Ctx& x, const OpRange& ops, std::size_t depth) {
  std::string names;
  for (std::uint32_t pc = ops.begin; pc < ops.end; ++pc)
    names += fmt::format("{}'{}'", names.empty() ? "" : ", ", x.c.op_names[x.c.ops[pc].code]);
  ::battlecore::detail::invariant_failed(
      __FILE__, __LINE__,
      fmt::format("a flat list (ops {}) left {} effect frames where it began with {}, or paused on a "
                  "choice: an op that can do either must keep the flag kNests",
                  names, x.s.effects.size(), depth));
}

void run_effects_on_stack(Ctx& x, OpRange ops, UnitRef source, UnitRef target, CardRef card,
                          StatusId status) {
  const std::size_t depth = x.s.effects.size();
  push_block(x, ops, EffectFrame::Kind::Block, source, target, card, 0, status);
  run_effect_stack(x, depth);
  BATTLECORE_ENSURE(x.s.effects.size() == depth || x.s.choice.kind == PendingChoice::Kind::None,
                    "an effect outside a card play paused on a choice ({} frames)", x.s.effects.size());
}

bool compile_amount_to_target(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 0, 999, op);
  op.target = oc.target(r, OpTarget::Self);
  return ok;
}

std::size_t op_targets_of_side(OpContext& ctx, OpTarget kind, std::array<UnitRef, kMaxEnemies + 1>& out) {
  const BattleState& s = ctx.x.s;
  const bool source_is_player = ctx.source == kPlayerUnit;
  std::size_t n = 0;
  switch (kind) {
    case OpTarget::Self:
    case OpTarget::Chosen:
      return op_targets(ctx, kind, out);
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
      if (count > 0)
        out[n++] =
            alive[count > 1 ? ctx.x.s.rng[Stream::Effects].below(static_cast<std::uint32_t>(count)) : 0];
      break;
    }
  }
  return n;
}

}  // namespace battlecore::deckbuilder::detail
