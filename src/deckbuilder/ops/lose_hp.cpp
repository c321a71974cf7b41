// lose_hp: lose HP, ignoring armor and modifiers. {"op": "lose_hp", "amount": 3, "target": "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 1, 999, op);
  op.target = oc.target(r, OpTarget::Self);
  return ok;
}

void run(OpContext& ctx, const Op& op) {
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  const std::size_t n = op_targets(ctx, op.target, targets);
  for (std::size_t i = 0; i < n; ++i) lose_hp(ctx.x, targets[i], op_amount(ctx, op));
}

}  // namespace

void register_lose_hp_op(OpRegistry& registry) { registry.add({"lose_hp", "lose HP, ignoring armor and modifiers", compile, run}); }

}  // namespace battlecore::deckbuilder::detail
