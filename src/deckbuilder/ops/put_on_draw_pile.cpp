// put_on_draw_pile: cards of the hand, or of the discard pile, go on top of the draw pile, to be
// drawn next. {"op": "put_on_draw_pile", "amount": 1, "mode": "choose" | "random",
// "from": "hand" | "discard" (default "hand")}
// (see hand_cards.hpp for the rules it shares with discard and exhaust)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

constexpr std::array<std::string_view, 2> kFrom = {"hand", "discard"};
constexpr std::array<PendingChoice::Kind, 2> kChoiceFrom = {PendingChoice::Kind::PutOnDrawPileFromHand,
                                                            PendingChoice::Kind::PutOnDrawPileFromDiscard};

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto from = r.enum_or("from", kFrom, 0);
  const bool ok = compile_hand_cards(oc, r, op, "put_on_draw_pile");
  if (!from) return false;
  op.ref = static_cast<std::uint16_t>(*from);  // the pile the cards come from
  return ok;
}

void run(OpContext& ctx, const Op& op) { chosen_cards_to_pile(ctx, op, kChoiceFrom[op.ref]); }

}  // namespace

void register_put_on_draw_pile_op(OpRegistry& registry) {
  registry.add(
      {"put_on_draw_pile",
       "cards of the hand or the discard pile on top of the draw pile, chosen by the player or at random",
       compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
