// damage: an attack. {"op": "damage", "amount": 6, "times": 1, "target": "chosen"}; the amount and
// the number of hits may be counted as the op runs (both before the first hit).
// Each hit is modified by the attacker's and the target's statuses (mechanics attack_damage);
// a unit hit by an attack runs its statuses' on_attacked behaviour against the attacker.
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool amount = oc.amount(r, "amount", 0, 999, op);
  const bool times = oc.times(r, "times", 1, 99, 1, op);
  op.target = oc.target(r, OpTarget::Chosen);
  if (op.times == 1 && names_one_unit(op.target) && (op.flags & (kAmountCounted | kTimesCounted)) == 0)
    op.flags = static_cast<std::uint8_t>(op.flags | kOneHit);
  return amount && times;
}

/// One hit on one unit (`to` is unit `target`); false when the effect must stop. Always inlined:
/// run calls it in two places, and a call per hit costs more than the second copy.
[[gnu::always_inline]] inline bool hit(Ctx& x, const OpContext& ctx, UnitRef target, UnitState& to,
                                       std::int32_t amount, bool reactive) {
  if (ctx.from == nullptr) [[unlikely]]
    bad_unit(x.s, ctx.source);
  const UnitState& from = *ctx.from;
  take_damage(x, ctx.source, target, to, attack_damage(x, from, to, amount));
  if (!reactive) run_status_timing(x, target, to, StatusTiming::OnAttacked, ctx.source);
  // What run_flat checks before each op; battle-end behaviour runs to its end.
  if (outcome(x.s) || !from.alive()) [[unlikely]] {
    if (x.battle.is_battle_active()) return false;
  }
  return true;
}

// Every case: several hits or units, an amount from a status's stacks, behaviours when attacked,
// the events.
[[gnu::noinline]] void run_any(OpContext& ctx, const Op& op) {
  Ctx& x = ctx.x;
  const std::int32_t amount = op_amount(ctx, op);
  // Damage done by a status's behaviour (thorns) does not itself count as being attacked.
  const bool reactive = ctx.status != kNoStatus;
  const std::int32_t times = op_times(ctx, op);  // counted before the first hit, as the amount
  // The most common attack, one hit on one unit, without the lists of targets and hits.
  if (times == 1 && names_one_unit(op.target)) {
    UnitState* const to = one_op_unit(ctx, op.target);
    if (to != nullptr && to->alive()) hit(x, ctx, one_op_target(ctx, op.target), *to, amount, reactive);
    return;
  }
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  for (std::int32_t h = 0; h < times; ++h) {
    const std::size_t n = op_targets(ctx, op.target, targets);
    // Each unit is looked up once per hit; units never move in the state.
    for (std::size_t i = 0; i < n; ++i)
      if (!hit(x, ctx, targets[i], unit(x, targets[i]), amount, reactive)) return;
  }
}

// One hit of the op's literal amount on `to`, the alive unit it names, unheard.
[[gnu::always_inline]] inline void hit_unheard(OpContext& ctx, const Op& op, UnitState& to) {
  const std::int32_t damage = attack_damage(ctx.x, *ctx.from, to, op.amount);
  if (damage <= 0) return;
  std::int32_t absorbed = 0, lost = 0;
  take_damage_unheard(ctx.x, ctx.source, one_op_target(ctx, op.target), to, damage, absorbed, lost);
}

// The common case with the attacker's or the target's damage modifiers.
[[gnu::noinline, gnu::hot]] void run_modified(OpContext& ctx, const Op& op) {
  hit_unheard(ctx, op, *one_op_unit(ctx, op.target));
}

// The common case on its own: one hit of a literal amount on one unit with no behaviour when
// attacked, no one hearing DamageDealt or UnitDied. Everything else is a tail call, of run_any or
// (with damage modifiers, whose loops need registers) run_modified, so that this path saves no
// registers. What follows the hit in `hit` (a decided battle or a dead attacker stops further
// hits) has no hit left to stop.
[[gnu::hot]] void run(OpContext& ctx, const Op& op) {
  Ctx& x = ctx.x;
  UnitState* const to = one_op_unit(ctx, op.target);
  constexpr auto kOnAttacked = 1u << static_cast<unsigned>(StatusTiming::OnAttacked);
  if ((op.flags & kOneHit) == 0 || to == nullptr || ctx.from == nullptr ||
      (to->status_traits & kOnAttacked) != 0 || x.ev.wants(EventType::DamageDealt) ||
      x.ev.wants(EventType::UnitDied))
    return run_any(ctx, op);
  if (!to->alive()) return;
  if (damage_modified(*ctx.from, *to)) return run_modified(ctx, op);
  hit_unheard(ctx, op, *to);
}

}  // namespace

void register_damage_op(OpRegistry& registry) {
  registry.add({.name = "damage",
                .summary = "attack damage, modified by statuses, `times` hits",
                .compile = compile,
                .handler = run,
                .attacks = true});
}

}  // namespace battlecore::deckbuilder::detail
