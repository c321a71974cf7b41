// armor: gain armor (block), modified by the receiver's statuses. {"op": "armor", "amount": 5, "target": "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 0, 999, op);
  op.target = oc.target(r, OpTarget::Self);
  return ok;
}

void run(OpContext& ctx, const Op& op) {
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  const std::size_t n = op_targets(ctx, op.target, targets);
  for (std::size_t i = 0; i < n; ++i) gain_armor(ctx.x, targets[i], armor_gain(ctx.x, targets[i], op_amount(ctx, op)));
}

}  // namespace

void register_armor_op(OpRegistry& registry) {
  registry.add({"armor", "gain armor, which absorbs damage before HP", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
