// BattleStart: runs once at the beginning of the battle (and again between rounds when the
// encounter asks for a re-setup). The seed's steps, in order: play the battle music (the host's
// business: nothing here), setup_player, setup_bots (random decks, shuffled turn order),
// setup_ui (nothing: views read the state), setup_world (seats on their starting rocks, dice off).
// Each step raises its events as it goes (CardDealt per card, TurnOrderSet, SeatPlaced per seat),
// so the log, and the golden trace, show the setup in the seed's order.
// Next: the first seat of the order is human -> BattleTurn; a bot -> BattleLoop.

#include "clash/mechanics.hpp"

namespace battlecore::clash::detail {
namespace {

// The seat's deck built afresh: a copy of the listed deck, shuffled. A random deck has no pile:
// its cards are made as they are dealt.
void build_deck(Ctx& x, SeatState& seat) {
  seat.pile.clear();
  if (x.e.rules.deck != DeckSource::Listed) return;
  for (const Card& c : x.e.rules.listed_deck) seat.pile.push_back(c);
  x.s.rng[Stream::Shuffle].shuffle(seat.pile.span());
}

void create_seat(Ctx& x, std::size_t index) {
  SeatState seat;
  seat.kind = x.e.seats[index].kind;
  seat.health = x.e.rules.health;
  build_deck(x, seat);
  x.s.seats[index] = seat;
  deal_hand(x, index);
}

void announce_order(Ctx& x) {
  x.ev.emit_with(EventType::TurnOrderSet, [&] {
    return Event{.type = EventType::TurnOrderSet,
                 .amount = pack_order(x.s.order.data(), x.s.order.size()),
                 .extra = static_cast<std::int32_t>(x.s.order.size())};
  });
}

void announce_placed(Ctx& x, std::size_t seat) {
  x.ev.emit_with(EventType::SeatPlaced, [&] {
    return Event{
        .type = EventType::SeatPlaced, .seat = static_cast<SeatRef>(seat), .amount = x.s.seats[seat].rock};
  });
}

// setup_player: the human seats, each with its deck and hand.
void setup_players(Ctx& x) {
  for (std::size_t i = 0; i < x.e.seats.size(); ++i)
    if (x.e.seats[i].kind == SeatKind::Human) create_seat(x, i);
}

// setup_bots: the bot seats with their decks, then the turn order is shuffled.
void setup_bots(Ctx& x) {
  for (std::size_t i = 0; i < x.e.seats.size(); ++i)
    if (x.e.seats[i].kind == SeatKind::Bot) create_seat(x, i);
  x.s.order.clear();
  for (std::size_t i = 0; i < x.e.seats.size(); ++i) x.s.order.push_back(static_cast<std::uint8_t>(i));
  x.s.rng[Stream::Shuffle].shuffle(x.s.order.span());
  announce_order(x);
}

// setup_world: every seat on its starting rock (spread evenly by default); the dice are off.
void setup_world(Ctx& x) {
  const std::size_t n = x.e.seats.size();
  for (std::size_t i = 0; i < n; ++i) {
    x.s.seats[i].rock = x.e.rules.starting_rocks.empty() ? static_cast<std::uint8_t>(i * x.e.rules.rocks / n)
                                                         : x.e.rules.starting_rocks[i];
    announce_placed(x, i);
  }
  x.s.step = TurnStep::None;
}

// The re-setup between rounds, in the order of the first: fresh decks and hands for the human
// seats still in (setup_player), then for the bots still in (setup_bots), and a new turn order.
// The deck is built again as setup builds it: dealing the new hand from what is left of the old
// pile would empty a listed deck a hand at a time. Health and rocks stay: no seat is placed again.
void resetup(Ctx& x) {
  for (const SeatKind kind : {SeatKind::Human, SeatKind::Bot})
    for (std::size_t i = 0; i < x.e.seats.size(); ++i) {
      if (x.e.seats[i].kind != kind || x.s.seats[i].out) continue;
      x.s.seats[i].hand.clear();
      build_deck(x, x.s.seats[i]);
      deal_hand(x, i);
    }
  x.s.rng[Stream::Shuffle].shuffle(x.s.order.span());
  announce_order(x);
}

}  // namespace

void announce_setup(Ctx& x) {
  for (const SeatKind kind : {SeatKind::Human, SeatKind::Bot})
    for (std::size_t i = 0; i < x.s.seats.size(); ++i)
      if (x.s.seats[i].kind == kind)
        for (const Card card : x.s.seats[i].hand) announce_dealt(x, i, card);
  announce_order(x);
  for (std::size_t i = 0; i < x.s.seats.size(); ++i) announce_placed(x, i);
}

std::optional<Trigger> run_battle_start(Ctx& x) {
  if (x.s.seats.empty()) {
    for (std::size_t i = 0; i < x.e.seats.size(); ++i) x.s.seats.push_back(SeatState{});
    setup_players(x);
    setup_bots(x);
    setup_world(x);
  } else {
    resetup(x);
  }
  begin_round(x);
  return trigger_for(x.s, static_cast<std::size_t>(x.s.current));
}

}  // namespace battlecore::clash::detail
