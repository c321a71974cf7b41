// put_on_draw_pile: cards of the hand, or of the discard pile, go on top of the draw pile, to be
// drawn next. {"op": "put_on_draw_pile", "amount": 1, "mode": "choose" | "random"
// (or "mode": "all" with no amount), "from": "hand" | "discard" (default "hand")}
// (see hand_cards.hpp for the rules it shares with discard and exhaust)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

struct PutOnDrawPile {
  static constexpr std::string_view kName = "put_on_draw_pile";
  static constexpr std::array<std::string_view, 2> kFrom = {"hand", "discard"};
  static constexpr std::array<PendingChoice::Kind, 2> kChoices = {
      PendingChoice::Kind::PutOnDrawPileFromHand, PendingChoice::Kind::PutOnDrawPileFromDiscard};
};

}  // namespace

void register_put_on_draw_pile_op(OpRegistry& registry) {
  registry.add({"put_on_draw_pile",
                "cards of the hand or the discard pile on top of the draw pile, chosen by the player, at "
                "random or all",
                compile_cards_from<PutOnDrawPile>, run_cards_from<PutOnDrawPile>, true});
}

}  // namespace battlecore::deckbuilder::detail
