// exhaust: hand cards go to the exhaust pile. {"op": "exhaust", "amount": 1, "mode": "choose" | "random"},
// or {"op": "exhaust", "mode": "all"}
// (see hand_cards.hpp for the rules both share)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  return compile_hand_cards(oc, r, op, "exhaust");
}

void run(OpContext& ctx, const Op& op) {
  chosen_cards_to_pile(ctx, op, PendingChoice::Kind::ExhaustFromHand);
}

}  // namespace

void register_exhaust_op(OpRegistry& registry) {
  registry.add({"exhaust", "hand cards to the exhaust pile, chosen by the player, at random or all", compile,
                run, true});
}

}  // namespace battlecore::deckbuilder::detail
