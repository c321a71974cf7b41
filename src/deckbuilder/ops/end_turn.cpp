// end_turn: end the player's turn once the card resolves. {"op": "end_turn"}
#include <algorithm>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op&) {
  if (oc.owner == EffectOwner::Move) return oc.only_in(r, "end_turn", "card, status and deferred effects");
  return true;
}

void run(OpContext& ctx, const Op&) { ctx.x.s.end_turn_requested = true; }

}  // namespace

void register_end_turn_op(OpRegistry& registry) {
  registry.add({"end_turn", "end the player's turn once the card resolves", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
