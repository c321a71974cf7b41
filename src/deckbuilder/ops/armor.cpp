// armor: gain armor (block). {"op": "armor", "amount": 5, "target": "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto amount = r.required_int("amount", 0, 999);
  op.target = oc.target(r, OpTarget::Self);
  if (!amount) return false;
  op.amount = static_cast<std::int32_t>(*amount);
  return true;
}

void run(OpContext& ctx, const Op& op) {
  std::array<UnitRef, kMaxEnemies + 1> targets{};
  const std::size_t n = op_targets(ctx, op.target, targets);
  for (std::size_t i = 0; i < n; ++i) gain_armor(ctx.x, targets[i], op.amount);
}

}  // namespace

void register_armor_op(OpRegistry& registry) {
  registry.add({"armor", "gain armor, which absorbs damage before HP", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
