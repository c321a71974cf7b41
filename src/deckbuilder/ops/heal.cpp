// heal: restore HP, up to the maximum. {"op": "heal", "amount": 3, "target": "self"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

void run(OpContext& ctx, const Op& op) {
  for_each_op_target(
      ctx, op, [](Ctx& x, UnitRef target, UnitState&, std::int32_t amount) { heal(x, target, amount); });
}

}  // namespace

void register_heal_op(OpRegistry& registry) {
  registry.add({"heal", "restore HP, up to the maximum", compile_amount_to_target, run});
}

}  // namespace battlecore::deckbuilder::detail
