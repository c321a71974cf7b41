// SuddenDeath: the sixth state, added as the seed's "Adding a new state" guide says (one
// enumerator, this handler, its registration in run_phase, rows in the table). It is entered when
// the remaining seats all went out in the same round. While the encounter allows another
// sudden-death round (`sudden_death_rounds`, 0 by default) and the round limit is not reached
// (sudden-death rounds are rounds like the others), its steps, in order: bring back the
// seats that went out this round, those out of health with their last health (one more lost duel
// puts them out again),
// fill their hands from the deck source, raise SuddenDeathBegun, and begin a new round ->
// BattleLoop. Otherwise -> BattleEnd, where the seats share first place.

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {

std::optional<Trigger> run_sudden_death(Ctx& x) {
  if (x.s.sudden_deaths >= x.e.rules.sudden_death_rounds || x.s.round >= x.e.rules.round_limit)
    return Trigger::NoSuddenDeath;
  ++x.s.sudden_deaths;
  const std::int32_t last_health = x.e.rules.elimination == Elimination::AtZero ? 1 : 0;
  std::int32_t back = 0;
  for (std::uint8_t seat : x.s.order) {
    SeatState& s = x.s.seats[seat];
    if (!s.out || s.out_round != x.s.round) continue;
    s.out = false;
    s.place = 0;
    s.out_round = 0;
    if (health_out(x.e, s)) s.health = last_health;
    deal_hand(x, seat);
    ++back;
  }
  x.ev.emit_with(EventType::SuddenDeathBegun, [&] {
    return Event{.type = EventType::SuddenDeathBegun,
                 .amount = static_cast<std::int32_t>(x.s.sudden_deaths),
                 .extra = back};
  });
  begin_round(x);
  return Trigger::SuddenDeathRound;
}

}  // namespace battlecore::clash::detail
