// BattleTurn: a human seat's turn. The seed's steps, in order: enable the dice (the seat's Roll
// decision), highlight the two rocks the roll offers (its ChooseRock decision), move, reveal the
// hand and let the seat pick a playable card (its PlayCard decision; with none, it passes), play
// it, pass the turn with the same handover rule as BattleLoop (hand_over).

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {

std::optional<Trigger> run_battle_turn(Ctx& x) {
  x.s.step = TurnStep::Roll;
  return std::nullopt;
}

}  // namespace battlecore::clash::detail
