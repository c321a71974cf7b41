// armor: gain armor (block), modified by the receiver's statuses. {"op": "armor", "amount": 5, "target":
// "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

void run(OpContext& ctx, const Op& op) {
  for_each_op_target(ctx, op, [](Ctx& x, UnitRef target, UnitState& u, std::int32_t amount) {
    gain_armor(x, target, u, armor_gain(x, u, amount));
  });
}

}  // namespace

void register_armor_op(OpRegistry& registry) {
  registry.add({"armor", "gain armor, which absorbs damage before HP", compile_amount_to_target, run});
}

}  // namespace battlecore::deckbuilder::detail
