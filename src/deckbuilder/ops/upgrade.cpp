// upgrade: cards of the hand, the draw or the discard pile become their upgraded version for the
// rest of the battle, where they lie. {"op": "upgrade", "amount": 1, "mode": "choose" | "random"
// (or "mode": "all" with no amount), "from": "hand" | "draw" | "discard" (default "hand")}
// Only cards that have an upgrade are offered or taken (BattleState::choice_cards); see
// hand_cards.hpp for the rules it shares with discard, exhaust and put_in_hand.
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

struct Upgrade {
  static constexpr std::string_view kName = "upgrade";
  static constexpr std::array<std::string_view, 3> kFrom = {"hand", "draw", "discard"};
  static constexpr std::array<PendingChoice::Kind, 3> kChoices = {PendingChoice::Kind::UpgradeInHand,
                                                                  PendingChoice::Kind::UpgradeInDraw,
                                                                  PendingChoice::Kind::UpgradeInDiscard};
};

}  // namespace

void register_upgrade_op(OpRegistry& registry) {
  registry.add(
      {"upgrade",
       "cards of the hand, the draw or the discard pile upgraded for the battle, chosen by the player, "
       "at random or all",
       compile_cards_from<Upgrade>, run_cards_from<Upgrade>, true});
}

}  // namespace battlecore::deckbuilder::detail
