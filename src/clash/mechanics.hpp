#pragma once
// What the clash states share: the context a handler works in, and the steps more than one state
// takes (dealing, the turn steps, the handover rule, rounds, eliminations).

#include <optional>

#include "battlecore/clash/battle.hpp"

namespace battlecore::clash {

/// Gives the manager's internals to the state handlers.
struct Battle::Access {
  static BattleState& state(Battle& b) { return b.state_; }
  static EventLog& events(Battle& b) { return b.events_; }
};

namespace detail {

/// What a handler works on.
struct Ctx {
  BattleState& s;
  const EncounterDef& e;
  EventLog& ev;
};

// --- seats ------------------------------------------------------------------------------------

/// The seats still in, in turn order.
FixedVec<std::uint8_t, kMaxSeats> remaining(const BattleState& s);
/// Whether `seat` is human.
inline bool is_human(const BattleState& s, std::size_t seat) { return s.seats[seat].kind == SeatKind::Human; }
/// BotNext or HumanNext for the seat about to act.
Trigger trigger_for(const BattleState& s, std::size_t seat);

// --- cards ------------------------------------------------------------------------------------

/// The next card for `seat` from the encounter's deck source (empty when a listed pile is out).
Card draw_card(Ctx& x, std::size_t seat);
/// Fills `seat`'s hand up to the encounter's hand size, a CardDealt per card.
void deal_hand(Ctx& x, std::size_t seat);
/// Raises CardDealt: `card` went into `seat`'s hand.
void announce_dealt(Ctx& x, std::size_t seat, Card card);
/// Whether `seat` holds a card playable on `rock`.
bool has_playable(const SeatState& seat, Element rock);

// --- a turn, bot or human ---------------------------------------------------------------------

/// Makes `seat` the one whose turn it is, before any step.
void begin_turn(Ctx& x, std::size_t seat);
/// Rolls the d6 from the dice stream and offers the two rocks.
void roll_die(Ctx& x);
/// Moves the current seat to `rock` (one of the offered); then the card step, or a pass.
void move_to_rock(Ctx& x, std::uint8_t rock);
/// Plays the card in hand slot `slot` as the seat's choice, then refills per the encounter.
void play_card(Ctx& x, std::uint8_t slot);
/// The seat has no playable card: its choice for the round is no card.
void pass_turn(Ctx& x);
/// The seed's handover rule, the one function BattleLoop and BattleTurn use: the round is over
/// when the next seat would be the first remaining seat of the shuffled order; otherwise the next
/// seat's turn begins and the trigger says whether it is a bot's or a human's.
Trigger hand_over(Ctx& x);

// --- rounds -----------------------------------------------------------------------------------

/// Starts the next round: round number, RoundStarted, the first remaining seat's turn.
void begin_round(Ctx& x);
/// Puts `seat` out at `place` in the current round, with its Eliminated event. Seats going out
/// in the same round share the place 1 + the number of seats left after them.
void eliminate(Ctx& x, std::uint8_t seat, std::uint8_t place, OutReason reason);
/// Whether `seat`'s health is past the encounter's elimination threshold.
bool health_out(const EncounterDef& e, const SeatState& seat);

// --- the states -------------------------------------------------------------------------------

std::optional<Trigger> run_battle_start(Ctx& x);
/// The first setup's events for the position as it stands: every hand (the human seats, then the
/// bots), the turn order, every seat on its rock. For a battle begun from a stated position.
void announce_setup(Ctx& x);
std::optional<Trigger> run_battle_loop(Ctx& x);
std::optional<Trigger> run_battle_turn(Ctx& x);
std::optional<Trigger> run_battle_referee(Ctx& x);
std::optional<Trigger> run_battle_end(Ctx& x);
std::optional<Trigger> run_sudden_death(Ctx& x);

/// The manager's registry of state handlers: dispatches to the handler of `phase`.
std::optional<Trigger> run_phase(Ctx& x, Phase phase);

}  // namespace detail
}  // namespace battlecore::clash
