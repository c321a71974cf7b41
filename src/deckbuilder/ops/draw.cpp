// draw: the player draws cards. {"op": "draw", "amount": 2}  (cards only)
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto amount = r.required_int("amount", 1, 20);
  if (oc.owner != EffectOwner::Card) {
    r.error("op 'draw' is only allowed in card effects: enemies have no hand");
    return false;
  }
  if (!amount) return false;
  op.amount = static_cast<std::int32_t>(*amount);
  op.target = OpTarget::Self;
  return true;
}

void run(OpContext& ctx, const Op& op) { draw_cards(ctx.x, op.amount); }

}  // namespace

void register_draw_op(OpRegistry& registry) {
  registry.add({"draw", "the player draws cards (an empty draw pile reshuffles the discard pile)", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
