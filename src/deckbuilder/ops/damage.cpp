// damage: an attack. {"op": "damage", "amount": 6, "times": 1, "target": "chosen"}
// Each hit is modified by the attacker's and the target's statuses (mechanics attack_damage);
// a unit hit by an attack runs its statuses' on_attacked behaviour against the attacker.
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 0, 999, op);
  op.times = static_cast<std::int32_t>(r.int_or("times", 1, 1, 99));
  op.target = oc.target(r, OpTarget::Chosen);
  return ok;
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

void run(OpContext& ctx, const Op& op) {
  Ctx& x = ctx.x;
  const std::int32_t amount = op_amount(ctx, op);
  // Damage done by a status's behaviour (thorns) does not itself count as being attacked.
  const bool reactive = ctx.status != kNoStatus;
  // The most common attack, one hit on one unit, without the lists of targets and hits.
  if (op.times == 1 && names_one_unit(op.target)) {
    UnitState* const to = one_op_unit(ctx, op.target);
    if (to != nullptr && to->alive()) hit(x, ctx, one_op_target(ctx, op.target), *to, amount, reactive);
    return;
  }
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  for (std::int32_t h = 0; h < op.times; ++h) {
    const std::size_t n = op_targets(ctx, op.target, targets);
    // Each unit is looked up once per hit; units never move in the state.
    for (std::size_t i = 0; i < n; ++i)
      if (!hit(x, ctx, targets[i], unit(x, targets[i]), amount, reactive)) return;
  }
}

}  // namespace

void register_damage_op(OpRegistry& registry) {
  registry.add({"damage", "attack damage, modified by statuses, `times` hits", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
