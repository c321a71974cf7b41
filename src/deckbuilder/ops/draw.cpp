// draw: the player draws cards. {"op": "draw", "amount": 2}  (not in enemy moves)
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 1, 20, op);
  if (oc.owner == EffectOwner::Move)
    return oc.only_in(r, "draw", "card, status and deferred effects: enemies have no hand");
  return ok;
}

void run(OpContext& ctx, const Op& op) { draw_cards(ctx.x, op_amount(ctx, op)); }

}  // namespace

void register_draw_op(OpRegistry& registry) {
  registry.add(
      {"draw", "the player draws cards (an empty draw pile reshuffles the discard pile)", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
