// put_on_draw_pile: hand cards go on top of the draw pile, to be drawn next.
// {"op": "put_on_draw_pile", "amount": 1, "mode": "choose" | "random"}
// (see hand_cards.hpp for the rules it shares with discard and exhaust)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  return compile_hand_cards(oc, r, op, "put_on_draw_pile");
}

void run(OpContext& ctx, const Op& op) {
  hand_cards_to_pile(ctx, op, Pile::Draw, PendingChoice::Kind::PutOnDrawPileFromHand);
}

}  // namespace

void register_put_on_draw_pile_op(OpRegistry& registry) {
  registry.add({"put_on_draw_pile", "hand cards on top of the draw pile, chosen by the player or at random",
                compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
