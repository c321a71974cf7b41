// BattleReferee: after every remaining seat has taken its turn. The seed's steps, in order:
// collect the cards played, compare every unordered pair of remaining seats (earlier and later in
// turn order), 1 damage to each loser, reset every choice, apply the eliminations together (seats
// going out in the same round share a place), then decide: two or more remain -> a new round
// (BattleLoop, or BattleStart when the encounter re-runs the setup); one remains -> BattleEnd;
// none remain -> BattleEnd with a shared place; the human seat out (when the encounter says so)
// or the round limit -> BattleEnd, which completes the ranking.

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {
namespace {

void damage(Ctx& x, std::uint8_t seat) {
  SeatState& s = x.s.seats[seat];
  s.health -= 1;
  x.ev.emit_with(EventType::Damaged, [&] {
    return Event{
        .type = EventType::Damaged, .seat = static_cast<SeatRef>(seat), .amount = 1, .extra = s.health};
  });
}

void duel_every_pair(Ctx& x, const FixedVec<std::uint8_t, kMaxSeats>& in) {
  for (std::size_t a = 0; a < in.size(); ++a)
    for (std::size_t b = a + 1; b < in.size(); ++b) {
      const Card ca = x.s.seats[in[a]].choice, cb = x.s.seats[in[b]].choice;
      const int result = compare_cards(ca, cb, x.e.rules.equal_values);
      const SeatRef winner = result > 0   ? static_cast<SeatRef>(in[a])
                             : result < 0 ? static_cast<SeatRef>(in[b])
                                          : kNoSeat;
      x.ev.emit_with(EventType::DuelResolved, [&] {
        return Event{.type = EventType::DuelResolved,
                     .seat = static_cast<SeatRef>(in[a]),
                     .other = static_cast<SeatRef>(in[b]),
                     .winner = winner,
                     .card = ca,
                     .other_card = cb};
      });
      if (result > 0) damage(x, in[b]);
      if (result < 0) damage(x, in[a]);
    }
}

void reset_choices(Ctx& x) {
  for (SeatState& seat : x.s.seats) {
    seat.choice = Card{};
    seat.acted = false;
  }
}

// A seat with no card in hand and none to come is out, as when the original's deck ran dry.
bool out_of_cards(const EncounterDef& e, const SeatState& seat) {
  return seat.hand.empty() && (!e.rules.refill || (e.rules.deck == DeckSource::Listed && seat.pile.empty()));
}

// Everyone going out this round, whatever the reason, shares one place; events in turn order.
void apply_eliminations(Ctx& x, const FixedVec<std::uint8_t, kMaxSeats>& in) {
  std::size_t going = 0;
  for (std::uint8_t seat : in)
    going += health_out(x.e, x.s.seats[seat]) || out_of_cards(x.e, x.s.seats[seat]) ? 1u : 0u;
  const auto place = static_cast<std::uint8_t>(in.size() - going + 1);
  for (std::uint8_t seat : in) {
    if (health_out(x.e, x.s.seats[seat]))
      eliminate(x, seat, place, OutReason::Health);
    else if (out_of_cards(x.e, x.s.seats[seat]))
      eliminate(x, seat, place, OutReason::NoCards);
  }
}

bool any_human_seat(const BattleState& s) {
  for (const SeatState& seat : s.seats)
    if (seat.kind == SeatKind::Human) return true;
  return false;
}

bool human_remains(const BattleState& s) {
  for (const SeatState& seat : s.seats)
    if (seat.kind == SeatKind::Human && !seat.out) return true;
  return false;
}

}  // namespace

std::optional<Trigger> run_battle_referee(Ctx& x) {
  const auto in = remaining(x.s);
  duel_every_pair(x, in);
  reset_choices(x);
  apply_eliminations(x, in);
  const std::size_t left = remaining(x.s).size();
  x.ev.emit_with(EventType::RoundEnded, [&] {
    return Event{.type = EventType::RoundEnded,
                 .amount = static_cast<std::int32_t>(x.s.round),
                 .extra = static_cast<std::int32_t>(left)};
  });
  if (left == 0) return Trigger::AllEliminated;
  if (left == 1) return Trigger::OneLeft;
  if (x.e.rules.end_when_human_out && any_human_seat(x.s) && !human_remains(x.s)) return Trigger::HumanOut;
  if (x.s.round >= x.e.rules.round_limit) return Trigger::RoundLimit;
  if (x.e.rules.resetup_between_rounds) return Trigger::Resetup;
  begin_round(x);
  return Trigger::NextRound;
}

}  // namespace battlecore::clash::detail
