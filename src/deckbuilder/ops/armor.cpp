// armor: gain armor (block), modified by the receiver's statuses. {"op": "armor", "amount": 5, "target":
// "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

// Every case: each unit the op names, the receiver's modifiers, the event.
[[gnu::noinline]] void run_any(OpContext& ctx, const Op& op) {
  for_each_op_target(ctx, op, [](Ctx& x, UnitRef target, UnitState& u, std::int32_t amount) {
    gain_armor(x, target, u, armor_gain(x, u, amount));
  });
}

// The common case on its own: a literal amount for one unit without armor modifiers, no one
// hearing ArmorGained. Everything else is a tail call of run_any, so that this path, with no
// call of its own, saves no registers.
[[gnu::hot]] void run(OpContext& ctx, const Op& op) {
  UnitState* const u = one_op_unit(ctx, op.target);
  if (!names_one_unit(op.target) || (op.flags & kAmountCounted) != 0 || u == nullptr ||
      (u->status_traits & status_trait::kChangesArmorGained) != 0 || ctx.x.ev.wants(EventType::ArmorGained))
    return run_any(ctx, op);
  gain_armor_unheard(*u, armor_gain(ctx.x, *u, op.amount));
}

}  // namespace

void register_armor_op(OpRegistry& registry) {
  registry.add({"armor", "gain armor, which absorbs damage before HP", compile_amount_to_target, run});
}

}  // namespace battlecore::deckbuilder::detail
