// BattleEnd: the terminal state. The seed's steps, in order: the final ranking from the
// elimination order (when seats remain because the human seat is out or the round limit was
// reached, the ranking is completed as the original's lose_remaining() does: every remaining seat
// loses 1 health per pass, and those past the threshold in the same pass share a place), the last
// seat standing is first, then BattleEnded with the ranking. Leaving the end screen is the host's.

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {
namespace {

void complete_ranking(Ctx& x) {
  while (remaining(x.s).size() > 1) {
    const auto in = remaining(x.s);
    std::size_t going = 0;
    for (std::uint8_t seat : in) {
      x.s.seats[seat].health -= 1;
      going += health_out(x.e, x.s.seats[seat]) ? 1u : 0u;
    }
    const auto place = static_cast<std::uint8_t>(in.size() - going + 1);
    for (std::uint8_t seat : in)
      if (health_out(x.e, x.s.seats[seat])) eliminate(x, seat, place, OutReason::RankingPass);
  }
}

}  // namespace

std::optional<Trigger> run_battle_end(Ctx& x) {
  complete_ranking(x);
  for (std::uint8_t seat : remaining(x.s)) x.s.seats[seat].place = 1;
  x.s.current = kNoSeat;
  x.s.step = TurnStep::None;
  std::array<std::uint8_t, kMaxSeats> places{};
  for (std::size_t i = 0; i < x.s.seats.size(); ++i) places[i] = x.s.seats[i].place;
  x.ev.emit_with(EventType::BattleEnded, [&] {
    return Event{.type = EventType::BattleEnded, .amount = pack_places(places.data(), x.s.seats.size())};
  });
  return std::nullopt;
}

}  // namespace battlecore::clash::detail
