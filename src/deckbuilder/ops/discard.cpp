// discard: hand cards go to the discard pile. {"op": "discard", "amount": 1, "mode": "choose" | "random"},
// or {"op": "discard", "mode": "all"}
// (see hand_cards.hpp for the rules both share)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  return compile_hand_cards(oc, r, op, "discard");
}

void run(OpContext& ctx, const Op& op) {
  chosen_cards_to_pile(ctx, op, PendingChoice::Kind::DiscardFromHand);
}

}  // namespace

void register_discard_op(OpRegistry& registry) {
  registry.add({"discard", "hand cards to the discard pile, chosen by the player, at random or all", compile,
                run, true});
}

}  // namespace battlecore::deckbuilder::detail
