#pragma once
// The deckbuilder's rules primitives: drawing, moving cards, damage, armor, statuses, hooks,
// delayed triggers, cost rules, intents, and the effect interpreter. Phase handlers and ops
// are written in these words.

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

/// What phase handlers and ops may touch: the parts of one battle.
struct Battle::Access {
  BattleState& s;
  const Catalog& c;
  EventLog& ev;
  DamageStats& damage;
  const Battle& battle;

  static Access of(Battle& b) { return Access{b.state_, *b.catalog_, b.events_, b.damage_stats_, b}; }
  /// The master deck given to start_battle (empty: the player unit's deck).
  const std::vector<CardId>& master_deck() const { return battle.master_deck_; }
};

namespace detail {

using Ctx = Battle::Access;
struct OpCompiler;

/// Reports a UnitRef that names no unit of the battle (an engine invariant).
[[noreturn]] void bad_unit(const BattleState& s, UnitRef u);

/// The unit a UnitRef known to name a unit of the battle names (0 player, 1 + i enemy i).
inline UnitState& unit_unchecked(BattleState& s, UnitRef u) {
  return u == kPlayerUnit ? s.player : s.enemies[static_cast<std::size_t>(u - 1)].unit;
}
/// The unit a UnitRef names (0 player, 1 + i enemy i).
inline const UnitState& unit(const BattleState& s, UnitRef u) {
  if (static_cast<std::uint8_t>(u) > s.enemies.size()) [[unlikely]]
    bad_unit(s, u);
  return unit_unchecked(const_cast<BattleState&>(s), u);
}
inline UnitState& unit(Ctx& x, UnitRef u) { return const_cast<UnitState&>(unit(std::as_const(x.s), u)); }
/// Victory or Defeat when the battle is decided (the player's death first), else nothing.
inline std::optional<Trigger> outcome(const BattleState& s) {
  if (s.down == 0) [[likely]]
    return std::nullopt;
  return (s.down & kPlayerDown) != 0 ? Trigger::Defeat : Trigger::Victory;
}
/// Keeps enemies_alive and down after unit `target` (`u`) lost HP.
inline void count_if_died(BattleState& s, UnitRef target, const UnitState& u) {
  if (u.alive()) return;
  if (target == kPlayerUnit)
    s.down |= kPlayerDown;
  else if (--s.enemies_alive == 0)
    s.down |= kEnemiesDown;
}
/// The first alive enemy as a UnitRef, or kNoUnit.
inline UnitRef first_alive_enemy(const BattleState& s) {
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (s.enemies[i].unit.alive()) return enemy_unit(i);
  return kNoUnit;
}
inline const BattleRules& rules(const Ctx& x) { return x.s.rules; }

// --- cards ------------------------------------------------------------------------------
/// Draws up to `count` cards; an empty draw pile is refilled by shuffling the discard pile;
/// a full hand stops the draw.
void draw_cards(Ctx& x, int count);
void shuffle_discard_into_draw(Ctx& x);
/// Emits CardMoved for `card`, which has just left `from` for `to`.
inline void card_moved(Ctx& x, CardRef card, Pile from, Pile to) {
  x.ev.emit_with(EventType::CardMoved, [&] {
    return Event{.type = EventType::CardMoved,
                 .subject = card,
                 .value = x.s.cards[card].def,
                 .amount = static_cast<std::int32_t>(from),
                 .extra = static_cast<std::int32_t>(to)};
  });
}
/// Emits LimitReached: `what` (a card id, status, hook or block; for a unit's status or a hook
/// its unit) was not added, as `limit`, which holds `size`, is full.
inline void limit_reached(Ctx& x, Limit limit, std::size_t size, std::uint16_t what, UnitRef unit = kNoUnit) {
  x.ev.emit_with(EventType::LimitReached, [&] {
    return Event{.type = EventType::LimitReached,
                 .target = unit,
                 .subject = what,
                 .amount = static_cast<std::int32_t>(limit),
                 .extra = static_cast<std::int32_t>(size)};
  });
}
/// Emits CardMoved for `card`, which has just left the hand for `to`.
inline void card_moved_from_hand(Ctx& x, CardRef card, Pile to) { card_moved(x, card, Pile::Hand, to); }
/// Moves a card from the hand to the top of another pile (discard, exhaust or draw pile),
/// keeping the hand's order, and emits CardMoved. The player knows a card put on the draw
/// pile to lie on top (BattleState::know_card_put_on_top).
inline void move_from_hand(Ctx& x, std::size_t hand_index, Pile to) {
  if (to == Pile::Draw) x.s.know_card_put_on_top();
  card_moved_from_hand(x, x.s.piles.hand_to(hand_index, to), to);
}
/// Moves the card at place `index` of `from` to the top of `to` (the end of the hand), as a
/// choice of cards or a random pick does: from the hand to another pile, from the discard pile
/// to the draw pile, from the discard, exhaust or draw pile to the hand (which has room), or from
/// the draw pile to the discard pile (a place in the draw pile is counted from its top).
inline void move_picked_card(Ctx& x, Pile from, std::size_t index, Pile to) {
  if (from == Pile::Hand) return move_from_hand(x, index, to);
  if (from == Pile::Draw) {
    x.s.take_from_draw_pile(index);
    return card_moved(x, x.s.piles.draw_to(to, index), from, to);
  }
  if (to == Pile::Hand) return card_moved(x, x.s.piles.to_hand(from, index), from, to);
  BATTLECORE_ENSURE(from == Pile::Discard && to == Pile::Draw, "cannot move a card from pile {} to pile {}",
                    pile_name(from), pile_name(to));
  x.s.know_card_put_on_top();
  card_moved(x, x.s.piles.discard_to_draw(index), Pile::Discard, Pile::Draw);
}
/// Upgrades card instance `card`, whose definition has an upgrade (CardDef::upgrade), where it
/// lies, and emits CardUpgraded: it becomes the upgraded card for the rest of the battle.
void upgrade_card(Ctx& x, CardRef card);
/// What a choice of cards of `kind` does with the card at place `index` of its source pile:
/// upgrades it (choice_upgrades) or moves it to the destination pile (move_picked_card).
inline void take_picked_card(Ctx& x, PendingChoice::Kind kind, std::size_t index) {
  if (choice_upgrades(kind)) return upgrade_card(x, x.s.choice_pile(kind)[index]);
  move_picked_card(x, choice_source_pile(kind), index, choice_destination_pile(kind));
}
/// Creates a new card instance in `pile` (a full hand sends it to the discard pile).
void add_card(Ctx& x, CardId card, Pile pile);
/// The energy a card instance costs now.
inline std::int32_t effective_cost(const BattleState& s, const Catalog& c, CardRef card) {
  const CardInstance& ci = s.cards[card];
  return ci.cost_now(c.card_play[ci.def].cost, s.energy);  // the loader keeps costs in 0..9 or X
}
/// tick_cost_rules for a battle with turn-limited cost rules.
void count_down_cost_rules(Ctx& x);
/// Cost rules lose a turn; expired ones are removed.
inline void tick_cost_rules(Ctx& x) {
  if (x.s.turn_cost_cards != 0) count_down_cost_rules(x);  // most turns no card has one
}

// --- units ------------------------------------------------------------------------------
/// The most attack damage or armor gain the status modifiers give: more than any unit can absorb
/// and lose (kMaxArmor and the largest max HP together), so the cap changes no outcome.
inline constexpr std::int64_t kMaxModifiedAmount = 1'000'000'000;

/// The percentages (0 to 1000, none of them 100) that modify one amount: a unit's statuses and,
/// for an attack, the target's, at most kMaxStatusSlots each.
struct Percents {
  std::array<std::int32_t, 2 * kMaxStatusSlots> values{};
  std::size_t count = 0;
  void add(std::int32_t percent) { values[count++] = percent; }
};
/// The most percentages multiplied in 64 bits: an amount below 2^20 times four percentages
/// stays below 2^60. With more, attack_damage calls attack_damage_with_many and scaled_by
/// scaled_by_many.
inline constexpr unsigned kPercentsIn64Bits = 4;
/// scaled_by for more than kPercentsIn64Bits percentages, in 128 bits.
std::int64_t scaled_by_many(std::int64_t amount, const Percents& percents);
/// `amount` (0 to 1,000,000) times every percentage, rounded down once after all of them (75%
/// and 150% together give 112.5%), capped at kMaxModifiedAmount; exact however many there are.
inline std::int64_t scaled_by(std::int64_t amount, const Percents& percents) {
  if (percents.count > kPercentsIn64Bits) [[unlikely]]
    return scaled_by_many(amount, percents);
  std::int64_t num = amount, den = 1;
  for (std::size_t i = 0; i < percents.count; ++i) {
    num *= percents.values[i];
    den *= 100;
  }
  return std::min(num / den, kMaxModifiedAmount);
}
/// attack_damage's last step for more than kPercentsIn64Bits percentages: `damage` is the base
/// with the attacker's per-stack bonuses, at least 0.
std::int32_t attack_damage_with_many(const Ctx& x, const UnitState& from, const UnitState& to,
                                     std::int64_t damage);

/// True when a status of `from` changes the damage it deals or one of `to` the damage it takes.
inline bool damage_modified(const UnitState& from, const UnitState& to) {
  return (from.status_traits & status_trait::kChangesDamageDealt) != 0 ||
         (to.status_traits & status_trait::kChangesDamageTaken) != 0;
}
/// The attack damage unit `from` would deal to unit `to` from `base`, with every modifier.
inline std::int32_t attack_damage(const Ctx& x, const UnitState& from, const UnitState& to,
                                  std::int32_t base) {
  std::int64_t damage = base;
  std::int64_t percent_num = 1;
  std::int64_t percent_den = 1;
  unsigned percents = 0;
  if (!damage_modified(from, to)) return base < 0 ? 0 : base;
  for (const StatusStack& st : from.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    damage += std::int64_t{def.damage_dealt_per_stack} * st.stacks;
    if (st.stacks > 0 && def.damage_dealt_percent != 100 && ++percents <= kPercentsIn64Bits) {
      percent_num *= def.damage_dealt_percent;
      percent_den *= 100;
    }
  }
  if (damage < 0) damage = 0;
  for (const StatusStack& st : to.statuses) {
    const StatusDef& def = x.c.statuses[st.status];
    if (st.stacks > 0 && def.damage_taken_percent != 100 && ++percents <= kPercentsIn64Bits) {
      percent_num *= def.damage_taken_percent;
      percent_den *= 100;
    }
  }
  // One rounding down after every multiplier, so 75% and 150% together give 112.5% of the base.
  // No multiplier (the numerator is then 1 too): no division. More than kPercentsIn64Bits (the
  // count goes on past them, the product does not): attack_damage_with_many.
  if (percent_den == 1) return static_cast<std::int32_t>(damage);
  if (percents > kPercentsIn64Bits) [[unlikely]]
    return attack_damage_with_many(x, from, to, damage);
  return static_cast<std::int32_t>(std::min(damage * percent_num / percent_den, kMaxModifiedAmount));
}
inline std::int32_t attack_damage(const Ctx& x, UnitRef source, UnitRef target, std::int32_t base) {
  return attack_damage(x, unit(x.s, source), unit(x.s, target), base);
}
/// What take_damage does but its events: `damage` (above 0) taken by the alive unit `u` (unit
/// `target`), armor first; sets `absorbed` and `lost`.
inline void take_damage_unheard(Ctx& x, UnitRef source, UnitRef target, UnitState& u, std::int32_t damage,
                                std::int32_t& absorbed, std::int32_t& lost) {
  absorbed = std::min(damage, u.armor);
  u.armor -= absorbed;
  // HP stops at 0: the event reports the HP actually lost.
  lost = std::min(damage - absorbed, u.hp);
  u.hp -= lost;
  count_if_died(x.s, target, u);
  // Counted when it hits the other side: the player an enemy, or an enemy the player.
  if ((source == kPlayerUnit) != (target == kPlayerUnit)) {
    x.damage.hp[static_cast<std::uint8_t>(source)] += lost;
    x.damage.armor[static_cast<std::uint8_t>(source)] += absorbed;
  }
}
/// Armor absorbs first, then HP (never below 0); counts the damage in the source's DamageStats
/// when it hits the other side; emits DamageDealt and UnitDied. `u` is unit `target`; `source`
/// is a unit of the battle (the damage op has looked it up).
inline void take_damage(Ctx& x, UnitRef source, UnitRef target, UnitState& u, std::int32_t damage) {
  if (!u.alive() || damage <= 0) return;
  std::int32_t absorbed = 0, lost = 0;
  take_damage_unheard(x, source, target, u, damage, absorbed, lost);
  x.ev.emit_with(EventType::DamageDealt, [&] {
    return Event{.type = EventType::DamageDealt,
                 .source = source,
                 .target = target,
                 .amount = lost,
                 .extra = absorbed};
  });
  if (!u.alive())
    x.ev.emit_with(EventType::UnitDied, [&] { return Event{.type = EventType::UnitDied, .target = target}; });
}
inline void take_damage(Ctx& x, UnitRef source, UnitRef target, std::int32_t damage) {
  take_damage(x, source, target, unit(x, target), damage);
}
/// HP loss that ignores armor (poison, costs paid in HP).
void lose_hp(Ctx& x, UnitRef target, std::int32_t amount);
void heal(Ctx& x, UnitRef target, std::int32_t amount);
/// armor_gain for a unit with an armor modifier.
std::int32_t modified_armor_gain(const Ctx& x, const UnitState& u, std::int32_t base);
/// Armor unit `u` gains from `base`, with its armor modifiers (Dexterity, Frail).
inline std::int32_t armor_gain(const Ctx& x, const UnitState& u, std::int32_t base) {
  if ((u.status_traits & status_trait::kChangesArmorGained) == 0) return base < 0 ? 0 : base;
  return modified_armor_gain(x, u, base);
}
/// What gain_armor does but its event: the armor the unit `u` gains from `amount`, capped at
/// kMaxArmor (0 for a dead unit or none to gain).
inline std::int32_t gain_armor_unheard(UnitState& u, std::int32_t amount) {
  amount = std::min(amount, kMaxArmor - u.armor);
  if (!u.alive() || amount <= 0) return 0;
  u.armor += amount;
  return amount;
}
/// gain_armor for a unit already looked up: `u` is unit `target`. Armor stops at kMaxArmor, so
/// it never wraps however long it persists; the event reports the armor actually gained.
inline void gain_armor(Ctx& x, UnitRef target, UnitState& u, std::int32_t amount) {
  amount = gain_armor_unheard(u, amount);
  if (amount == 0) return;
  x.ev.emit_with(EventType::ArmorGained,
                 [&] { return Event{.type = EventType::ArmorGained, .target = target, .amount = amount}; });
}
inline void gain_armor(Ctx& x, UnitRef target, std::int32_t amount) {
  gain_armor(x, target, unit(x, target), amount);
}
void gain_energy(Ctx& x, std::int32_t amount);
/// Adds `stacks` (negative: removes) of `status` to unit `target`, from `source`, between 0 and
/// kMaxStatusStacks; at 0 the status leaves the unit. A status the unit does not hold is not
/// applied when it already holds kMaxStatusSlots others (LimitReached), as hooks and delayed
/// triggers past their limits are not registered.
void apply_status(Ctx& x, UnitRef source, UnitRef target, StatusId status, std::int32_t stacks);
/// decay_armor for a unit whose armor resets while hooks are registered: an armor reset hook
/// of the unit changes the value its armor resets to. `state` is unit `u`.
void reset_armor_with_hooks(Ctx& x, UnitRef u, UnitState& state);
/// Armor decay at the start of a unit's turn, per the ArmorDecayRule and armor reset hooks.
/// `state` is unit `u`.
inline void decay_armor(Ctx& x, UnitRef u, UnitState& state) {
  if (rules(x).armor_decay != ArmorDecayRule::ResetOnTurnStart) return;
  if (x.s.hooks.empty())
    state.armor = 0;
  else
    reset_armor_with_hooks(x, u, state);
}
inline void decay_armor(Ctx& x, UnitRef u) { decay_armor(x, u, unit(x, u)); }
/// tick_turn_end_statuses for a unit with such a status: `state` is unit `u`.
void decay_turn_end_statuses(Ctx& x, UnitRef u, UnitState& state);
/// Statuses that lose a stack at their owner's turn end lose one; expired ones go. `state` is
/// unit `u`.
inline void tick_turn_end_statuses(Ctx& x, UnitRef u, UnitState& state) {
  if ((state.status_traits & status_trait::kDecaysAtOwnerTurnEnd) != 0) decay_turn_end_statuses(x, u, state);
}
inline void tick_turn_end_statuses(Ctx& x, UnitRef u) { tick_turn_end_statuses(x, u, unit(x, u)); }
/// run_status_timing for a unit with a status that has a behaviour at `timing`.
void run_status_behaviours(Ctx& x, UnitRef u, StatusTiming timing, UnitRef other);
/// True when a status of the unit (`state`) may have a behaviour at `timing`: its traits say so.
/// A step that runs the timing only in an undecided battle asks this first, as most units have none.
inline bool has_status_timing(const UnitState& state, StatusTiming timing) {
  return (state.status_traits & (1u << static_cast<unsigned>(timing))) != 0;
}
/// Runs the behaviour of each of the unit's statuses at `timing` (in the order they were applied).
/// `state` is unit `u`.
inline void run_status_timing(Ctx& x, UnitRef u, const UnitState& state, StatusTiming timing,
                              UnitRef other = kNoUnit) {
  const auto t = static_cast<std::size_t>(timing);
  if (!has_status_timing(state, timing)) return;
  for (const StatusStack& st : state.statuses)
    if (!x.c.statuses[st.status].timings[t].empty()) return run_status_behaviours(x, u, timing, other);
}
inline void run_status_timing(Ctx& x, UnitRef u, StatusTiming timing, UnitRef other = kNoUnit) {
  run_status_timing(x, u, unit(x.s, u), timing, other);
}
/// skips_turn for a unit with a status that may cost it its action.
bool has_skipping_status(const Ctx& x, const UnitState& u);
/// True when the unit (`state`) has a status that costs it its action.
inline bool skips_turn(const Ctx& x, const UnitState& state) {
  return (state.status_traits & status_trait::kSkipsTurn) != 0 && has_skipping_status(x, state);
}

// --- hooks and delayed triggers ---------------------------------------------------------
void register_hook(Ctx& x, std::uint16_t hook, UnitRef owner);
/// The first registered hook of `kind` that matches the card, or nullptr.
const ActiveHook* matching_hook(const BattleState& s, const Catalog& c, HookKind kind, const CardDef& card);
/// Runs every on_card_played hook that matches (the caller has checked that hooks are registered).
void run_card_played_hooks(Ctx& x, const CardDef& card, UnitRef target);
/// tick_hooks for a battle with registered hooks.
void count_down_hooks(Ctx& x, UnitRef owner);
/// Hooks owned by `owner` lose a turn; expired ones go.
inline void tick_hooks(Ctx& x, UnitRef owner) {
  if (!x.s.hooks.empty()) count_down_hooks(x, owner);
}
/// tick_delayed for a battle with scheduled delayed triggers.
void count_down_delayed(Ctx& x, DelayedTiming timing);
/// Delayed triggers at `timing`: due ones fire (in order scheduled), others count down.
inline void tick_delayed(Ctx& x, DelayedTiming timing) {
  if (!x.s.delayed.empty()) count_down_delayed(x, timing);
}

// --- conditions -------------------------------------------------------------------------
bool holds(const Ctx& x, const Condition& c, UnitRef self, UnitRef target);

// --- enemies ----------------------------------------------------------------------------
/// A Random behaviour's pick for enemy definition `enemy` after it made `last` (kNoMove: no
/// move yet) `streak` times in a row: one draw of `rng`. With its WeightedPick table when it has
/// one and `use_table`, else by walking the weighted list (the two pick alike: tests compare
/// them).
MoveIndex pick_weighted(const Catalog& c, EnemyId enemy, MoveIndex last, std::uint8_t streak, Rng& rng,
                        bool use_table = true);
/// Picks enemy `index`'s next move by its behaviour (AI stream) and emits EnemyIntent.
void resolve_intent(Ctx& x, std::size_t index);
/// Enemy `index` makes its intended move.
void perform_intent(Ctx& x, std::size_t index);

// --- effects ----------------------------------------------------------------------------
/// Pushes an effect list onto the battle's effect stack.
void push_block(Ctx& x, OpRange ops, EffectFrame::Kind kind, UnitRef source, UnitRef target, CardRef card,
                std::uint8_t repeat_left = 0, StatusId status = kNoStatus);
/// Runs the effect stack until it is back to `depth` frames, a Choice pauses it, or the battle
/// is decided (then the frames above `depth` are dropped).
void run_effect_stack(Ctx& x, std::size_t depth);
/// run_effects for a list run_flat does not take (one that can nest, or any while a Choice
/// waits): on the effect stack.
void run_effects_on_stack(Ctx& x, OpRange ops, UnitRef source, UnitRef target, CardRef card, StatusId status);

/// What an op handler sees. The two units are looked up once per list (flat) or per op (on the
/// stack), not by every op: units never move in the state.
struct OpContext {
  Ctx& x;
  UnitRef source;
  UnitRef target;   ///< the resolved chosen target (the player for enemy moves)
  CardRef card;     ///< the card being played, or kNoCard
  StatusId status;  ///< the status whose timing runs ("stacks" amounts), or kNoStatus
  UnitState* from;  ///< unit `source`, or nullptr when it is kNoUnit
  UnitState* to;    ///< unit `target`, or nullptr when it is kNoUnit

  OpContext(Ctx& x_, UnitRef source_, UnitRef target_, CardRef card_, StatusId status_)
      : x(x_),
        source(source_),
        target(target_),
        card(card_),
        status(status_),
        from(source_ != kNoUnit ? &unit(x_, source_) : nullptr),
        to(target_ != kNoUnit ? &unit(x_, target_) : nullptr) {}
  /// For two units known to be units of the battle (run_flat's kLive): looked up unchecked.
  struct Known {};
  OpContext(Ctx& x_, UnitRef source_, UnitRef target_, CardRef card_, StatusId status_, Known)
      : x(x_),
        source(source_),
        target(target_),
        card(card_),
        status(status_),
        from(&unit_unchecked(x_.s, source_)),
        to(&unit_unchecked(x_.s, target_)) {}
};

/// Throws the InvariantError of a flat list (`ops`, begun with `depth` effect frames) whose run
/// pushed an effect frame or paused on a choice: one of its ops lacks the flag kNests it needs.
/// Names the list's ops.
[[noreturn]] void flat_list_nested(const Ctx& x, const OpRange& ops, std::size_t depth);

/// Runs a flat list (OpRange::flat) straight through, with the checks run_effect_stack makes
/// before each op, and returns true; returns false, running nothing, for any other list or while
/// a choice is pending. Inline: every play and every enemy move runs one. `kLive`: the caller
/// has checked that the battle is in progress, undecided, that the source is alive and that no
/// choice waits (a play in the player phase, an enemy's move), so the checks before the first op
/// are left out; the source and the target are units of the battle, looked up unchecked.
template <bool kLive = false>
inline bool run_flat(Ctx& x, const OpRange& ops, UnitRef source, UnitRef target, CardRef card,
                     StatusId status = kNoStatus) {
  if (!ops.flat || (!kLive && x.s.choice.kind != PendingChoice::Kind::None)) return false;
  if (ops.empty()) return true;
  OpContext ctx = kLive ? OpContext{x, source, target, card, status, OpContext::Known{}}
                        : OpContext{x, source, target, card, status};
  const std::size_t depth = x.s.effects.size();
  // No op changes the phase (only the driver does, between phases): read once. Units never
  // move in the state: the source is looked up once.
  const bool active = kLive || x.battle.is_battle_active();
  const UnitState* const from = ctx.from;
  // What run_effect_stack checks before each op: a decided battle stops the effect, and so
  // does a dead source (after the battle it runs to its end).
  const auto stops = [&] { return active && (outcome(x.s) || (from != nullptr && !from->alive())); };
  if (kLive || !stops()) {
    const Op* op = x.c.ops.data() + ops.begin;
    const Op* const last = x.c.ops.data() + ops.end;
    do x.c.op_handlers[op->code](ctx, *op);
    while (++op != last && !stops());
  }
  // An op of a flat list neither pushes frames nor pauses: checked once, after the list (the
  // battle is then an engine error, whatever the ops after the culprit did).
  if (x.s.effects.size() != depth || x.s.choice.kind != PendingChoice::Kind::None) [[unlikely]]
    flat_list_nested(x, ops, depth);
  return true;
}

/// Runs an effect list to its end (never pauses: lists that can pause belong to cards only).
/// Inline: a flat list (an enemy's move, most statuses' behaviour) runs where it is called.
/// `kLive` as for run_flat.
template <bool kLive = false>
inline void run_effects(Ctx& x, const OpRange& ops, UnitRef source, UnitRef target, CardRef card,
                        StatusId status = kNoStatus) {
  if (ops.empty() || run_flat<kLive>(x, ops, source, target, card, status)) return;
  run_effects_on_stack(x, ops, source, target, card, status);
}

/// A counted amount now (CountedAmount): plus + per × the count, within [min, max]. A unit's
/// count is 0 without the unit (no chosen target), the running status's stacks 0 outside its
/// timing.
std::int32_t counted_amount(const OpContext& ctx, const CountedAmount& a);
/// The op's amount: its literal, or its counted amount.
inline std::int32_t op_amount(const OpContext& ctx, const Op& op) {
  if ((op.flags & kAmountCounted) != 0) [[unlikely]]
    return counted_amount(ctx, ctx.x.c.counted_amounts[static_cast<std::size_t>(op.amount)]);
  return op.amount;
}
/// The op's number of hits, passes or cards (Op::times): its literal, or its counted amount.
inline std::int32_t op_times(const OpContext& ctx, const Op& op) {
  if ((op.flags & kTimesCounted) != 0) [[unlikely]]
    return counted_amount(ctx, ctx.x.c.counted_amounts[static_cast<std::size_t>(op.times)]);
  return op.times;
}
/// Reads {"amount": 1..999, "target": ... (default self)}: the shape of armor, heal, lose_hp.
bool compile_amount_to_target(const OpCompiler& oc, content::ObjectReader& r, Op& op);
/// op_targets for the kinds that name several units or draw one at random.
std::size_t op_targets_of_side(OpContext& ctx, OpTarget kind, std::array<UnitRef, kMaxEnemies + 1>& out);
/// True for the target kinds that name one unit (the chosen target, the source itself).
inline bool names_one_unit(OpTarget kind) { return kind == OpTarget::Chosen || kind == OpTarget::Self; }
/// The unit a kind that names one unit names: the source or the chosen target (kNoUnit when
/// there is none; it may be dead).
inline UnitRef one_op_target(const OpContext& ctx, OpTarget kind) {
  return kind == OpTarget::Self ? ctx.source : ctx.target;
}
/// The state of that unit, or nullptr when there is none.
inline UnitState* one_op_unit(const OpContext& ctx, OpTarget kind) {
  return kind == OpTarget::Self ? ctx.from : ctx.to;
}
/// The units an op's target kind names, alive only, into `out`; returns how many.
inline std::size_t op_targets(OpContext& ctx, OpTarget kind, std::array<UnitRef, kMaxEnemies + 1>& out) {
  if (!names_one_unit(kind)) return op_targets_of_side(ctx, kind, out);
  const UnitState* const u = one_op_unit(ctx, kind);
  if (u == nullptr || !u->alive()) return 0;
  out[0] = one_op_target(ctx, kind);
  return 1;
}
/// Calls `apply(x, ref, unit, amount)` for each unit the op targets (`unit` is the state of
/// `ref`), with the op's amount. A kind that names one unit goes straight to it, without the
/// list of targets (most ops are so aimed).
template <class Apply>
void for_each_op_target(OpContext& ctx, const Op& op, Apply apply) {
  if (names_one_unit(op.target)) {
    UnitState* const u = one_op_unit(ctx, op.target);
    if (u != nullptr && u->alive()) apply(ctx.x, one_op_target(ctx, op.target), *u, op_amount(ctx, op));
    return;
  }
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  const std::size_t n = op_targets_of_side(ctx, op.target, targets);
  const std::int32_t amount = op_amount(ctx, op);  // counted once, as the op starts
  for (std::size_t i = 0; i < n; ++i) apply(ctx.x, targets[i], unit(ctx.x, targets[i]), amount);
}
}  // namespace detail
}  // namespace battlecore::deckbuilder
