#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {

FixedVec<std::uint8_t, kMaxSeats> remaining(const BattleState& s) {
  FixedVec<std::uint8_t, kMaxSeats> in;
  for (std::uint8_t seat : s.order)
    if (!s.seats[seat].out) in.push_back(seat);
  return in;
}

Trigger trigger_for(const BattleState& s, std::size_t seat) {
  return is_human(s, seat) ? Trigger::HumanNext : Trigger::BotNext;
}

Card draw_card(Ctx& x, std::size_t seat) {
  if (x.e.rules.deck == DeckSource::Listed) {
    auto& pile = x.s.seats[seat].pile;
    return pile.empty() ? Card{} : pile.pop_back();
  }
  Rng& rng = x.s.rng[Stream::Setup];
  const auto element = static_cast<Element>(1 + rng.below(5));
  const auto value = static_cast<std::uint8_t>(rng.between(kMinCardValue, kMaxCardValue));
  return Card{element, value};
}

void deal_hand(Ctx& x, std::size_t seat) {
  auto& hand = x.s.seats[seat].hand;
  while (hand.size() < x.e.rules.hand_size) {
    const Card card = draw_card(x, seat);
    if (card.empty()) return;
    hand.push_back(card);
    announce_dealt(x, seat, card);
  }
}

void announce_dealt(Ctx& x, std::size_t seat, Card card) {
  x.ev.emit_with(EventType::CardDealt, [&] {
    return Event{.type = EventType::CardDealt, .seat = static_cast<SeatRef>(seat), .card = card};
  });
}

bool has_playable(const SeatState& seat, Element rock) {
  for (const Card& c : seat.hand)
    if (playable_on(c, rock)) return true;
  return false;
}

namespace {
/// `seat`'s turn (none: kNoSeat) before any step: no die rolled, no rock offered.
void set_turn(BattleState& s, SeatRef seat) {
  s.current = seat;
  s.step = TurnStep::None;
  s.dice = 0;
  s.offered = {};
  s.offered_count = 0;
}
}  // namespace

void begin_turn(Ctx& x, std::size_t seat) { set_turn(x.s, static_cast<SeatRef>(seat)); }

void roll_die(Ctx& x) {
  const auto seat = static_cast<std::size_t>(x.s.current);
  x.s.dice = static_cast<std::uint8_t>(x.s.rng[Stream::Dice].between(1, 6));
  x.s.offered = offered_rocks(x.s.seats[seat].rock, x.s.dice, x.e.rules.rocks);
  x.s.offered_count = x.s.offered[0] == x.s.offered[1] ? 1 : 2;
  x.s.step = TurnStep::Rock;
  x.ev.emit_with(EventType::DiceRolled, [&] {
    return Event{.type = EventType::DiceRolled,
                 .seat = x.s.current,
                 .card = Card{rock_element(x.s.offered[0]), x.s.offered[0]},
                 .other_card = Card{rock_element(x.s.offered[1]), x.s.offered[1]},
                 .amount = x.s.dice};
  });
}

void move_to_rock(Ctx& x, std::uint8_t rock) {
  SeatState& seat = x.s.seats[static_cast<std::size_t>(x.s.current)];
  const std::uint8_t from = seat.rock;
  seat.rock = rock;
  // The rock is chosen: the offer is over (the roll stays, the die shown for the rest of the turn).
  x.s.offered = {};
  x.s.offered_count = 0;
  x.ev.emit_with(EventType::SeatMoved, [&] {
    return Event{.type = EventType::SeatMoved, .seat = x.s.current, .amount = from, .extra = rock};
  });
  if (has_playable(seat, rock_element(rock)))
    x.s.step = TurnStep::Card;
  else
    pass_turn(x);
}

void play_card(Ctx& x, std::uint8_t slot) {
  const auto index = static_cast<std::size_t>(x.s.current);
  SeatState& seat = x.s.seats[index];
  const Card card = seat.hand[slot];
  seat.hand.erase_at(slot);
  seat.choice = card;
  seat.acted = true;
  x.s.step = TurnStep::None;
  x.ev.emit_with(EventType::CardPlayed, [&] {
    return Event{.type = EventType::CardPlayed, .seat = x.s.current, .card = card, .amount = seat.rock};
  });
  if (x.e.rules.refill) {
    const Card drawn = draw_card(x, index);
    if (!drawn.empty()) {
      seat.hand.push_back(drawn);
      announce_dealt(x, index, drawn);
    }
  }
}

void pass_turn(Ctx& x) {
  SeatState& seat = x.s.seats[static_cast<std::size_t>(x.s.current)];
  seat.choice = Card{};
  seat.acted = true;
  x.s.step = TurnStep::None;
  x.ev.emit_with(EventType::Passed,
                 [&] { return Event{.type = EventType::Passed, .seat = x.s.current, .amount = seat.rock}; });
}

Trigger hand_over(Ctx& x) {
  const auto in = remaining(x.s);
  BATTLECORE_ENSURE(!in.empty(), "hand_over with no seat remaining{}", "");
  std::size_t at = 0;
  while (at < in.size() && in[at] != static_cast<std::uint8_t>(x.s.current)) ++at;
  BATTLECORE_ENSURE(at < in.size(), "the current seat {} is not remaining", x.s.current);
  const std::uint8_t next = in[(at + 1) % in.size()];
  if (next == in[0]) {
    set_turn(x.s, kNoSeat);
    return Trigger::RoundOver;
  }
  begin_turn(x, next);
  return trigger_for(x.s, next);
}

void begin_round(Ctx& x) {
  ++x.s.round;
  for (SeatState& seat : x.s.seats) {
    seat.acted = false;
    seat.choice = Card{};
  }
  x.ev.emit_with(EventType::RoundStarted, [&] {
    return Event{.type = EventType::RoundStarted, .amount = static_cast<std::int32_t>(x.s.round)};
  });
  const auto in = remaining(x.s);
  BATTLECORE_ENSURE(!in.empty(), "a round begins with no seat remaining{}", "");
  begin_turn(x, in[0]);
}

void eliminate(Ctx& x, std::uint8_t seat, std::uint8_t place, OutReason reason) {
  SeatState& s = x.s.seats[seat];
  s.out = true;
  s.place = place;
  s.out_round = x.s.round;
  x.ev.emit_with(EventType::Eliminated, [&] {
    return Event{.type = EventType::Eliminated,
                 .seat = static_cast<SeatRef>(seat),
                 .amount = place,
                 .extra = static_cast<std::int32_t>(reason)};
  });
}

bool health_out(const EncounterDef& e, const SeatState& seat) {
  return e.rules.elimination == Elimination::AtZero ? seat.health <= 0 : seat.health < 0;
}

std::optional<Trigger> run_phase(Ctx& x, Phase phase) {
  switch (phase) {
    case Phase::BattleStart:
      return run_battle_start(x);
    case Phase::BattleLoop:
      return run_battle_loop(x);
    case Phase::BattleTurn:
      return run_battle_turn(x);
    case Phase::BattleReferee:
      return run_battle_referee(x);
    case Phase::BattleEnd:
      return run_battle_end(x);
    case Phase::SuddenDeath:
      return run_sudden_death(x);
  }
  return std::nullopt;
}

}  // namespace battlecore::clash::detail
