// BattleLoop: the bot turns. The seed's steps, in order: determine whose turn it is (a human
// seat hands over to BattleTurn at once, as the Loop row says), roll the dice for the bot, then
// the bot selects a rock and a card through the seat's decisions (Battle::submit), which end
// with the handover rule (hand_over): next is a bot -> BattleLoop again; the human ->
// BattleTurn; no turns left in the round -> BattleReferee.

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {

std::optional<Trigger> run_battle_loop(Ctx& x) {
  const auto seat = static_cast<std::size_t>(x.s.current);
  if (is_human(x.s, seat)) return Trigger::HumanNext;
  roll_die(x);
  return std::nullopt;  // the bot's rock, then its card, are decisions
}

}  // namespace battlecore::clash::detail
