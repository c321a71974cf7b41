// put_in_hand: cards of the discard, the exhaust or the draw pile go to the hand.
// {"op": "put_in_hand", "amount": 1, "mode": "choose" | "random"
// (or "mode": "all" with no amount), "from": "discard" | "exhaust" | "draw" (default "discard")}
// (see hand_cards.hpp for the rules it shares with discard, exhaust and put_on_draw_pile)
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

struct PutInHand {
  static constexpr std::string_view kName = "put_in_hand";
  static constexpr std::array<std::string_view, 3> kFrom = {"discard", "exhaust", "draw"};
  static constexpr std::array<PendingChoice::Kind, 3> kChoices = {PendingChoice::Kind::PutInHandFromDiscard,
                                                                  PendingChoice::Kind::PutInHandFromExhaust,
                                                                  PendingChoice::Kind::PutInHandFromDraw};
};

}  // namespace

void register_put_in_hand_op(OpRegistry& registry) {
  registry.add({"put_in_hand",
                "cards of the discard, the exhaust or the draw pile to the hand, chosen by the player, at "
                "random or all",
                compile_cards_from<PutInHand>, run_cards_from<PutInHand>, true});
}

}  // namespace battlecore::deckbuilder::detail
