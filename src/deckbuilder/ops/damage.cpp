// damage: an attack. {"op": "damage", "amount": 6, "times": 1, "target": "chosen"}
// Each hit is modified by the attacker's and the target's statuses (mechanics attack_damage).
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto amount = r.required_int("amount", 0, 999);
  op.times = static_cast<std::int32_t>(r.int_or("times", 1, 1, 99));
  op.target = oc.target(r, OpTarget::Chosen);
  if (!amount) return false;
  op.amount = static_cast<std::int32_t>(*amount);
  return true;
}

void run(OpContext& ctx, const Op& op) {
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  for (std::int32_t hit = 0; hit < op.times; ++hit) {
    const std::size_t n = op_targets(ctx, op.target, targets);
    for (std::size_t i = 0; i < n; ++i)
      take_damage(ctx.x, ctx.source, targets[i], attack_damage(ctx.x, ctx.source, targets[i], op.amount));
  }
}

}  // namespace

void register_damage_op(OpRegistry& registry) {
  registry.add({"damage", "attack damage, modified by statuses, `times` hits", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
