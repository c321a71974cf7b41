// lose_hp: lose HP, ignoring armor and modifiers. {"op": "lose_hp", "amount": 3, "target": "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

void run(OpContext& ctx, const Op& op) {
  for_each_op_target(
      ctx, op, [](Ctx& x, UnitRef target, UnitState&, std::int32_t amount) { lose_hp(x, target, amount); });
}

}  // namespace

void register_lose_hp_op(OpRegistry& registry) {
  registry.add({"lose_hp", "lose HP, ignoring armor and modifiers", compile_amount_to_target, run});
}

}  // namespace battlecore::deckbuilder::detail
