#pragma once
/// The clash's typed events. Events report; the phase is the authority.

#include <cstdint>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/clash/rules.hpp"
#include "battlecore/core/events.hpp"

namespace battlecore::clash {

struct Catalog;

/// A seat in events and actions: 0 .. seats-1 in the encounter's order; -1 is nobody.
using SeatRef = std::int8_t;
inline constexpr SeatRef kNoSeat = -1;

/// Why a seat went out (Eliminated's `extra`).
enum class OutReason : std::uint8_t {
  Health,       ///< health reached the encounter's threshold
  NoCards,      ///< no card left in hand and none to draw
  RankingPass,  ///< the end of the battle completed the ranking (human out, round limit)
};
std::string_view out_reason_name(OutReason r);

enum class EventType : std::uint8_t {
  PhaseChanged,      ///< amount: from phase, extra: to phase, winner: trigger
  RoundStarted,      ///< amount: round number
  DiceRolled,        ///< seat, amount: the roll, card.value / other_card.value: the two rocks offered
  SeatMoved,         ///< seat, amount: from rock, extra: to rock
  CardPlayed,        ///< seat, card, amount: rock
  Passed,            ///< seat (no playable card on its rock), amount: rock
  DuelResolved,      ///< seat vs other with card vs other_card; winner (or -1 for a tie)
  Damaged,           ///< seat, amount: damage, extra: health now
  Eliminated,        ///< seat, amount: place, extra: OutReason
  RoundEnded,        ///< amount: round number, extra: seats remaining
  BattleEnded,       ///< amount: places packed, one byte per seat (seat 0 lowest), 0 = no seat
  CardDealt,         ///< seat, card (a hand as it is dealt, at the setup or a re-setup; a refill)
  SuddenDeathBegun,  ///< amount: sudden-death rounds so far, extra: seats brought back
  TurnOrderSet,      ///< amount: the shuffled order packed (pack_order), extra: its number of seats
  SeatPlaced,        ///< seat, amount: the starting rock it is placed on
};
std::string_view event_type_name(EventType t);

/// One event: 16 bytes, trivially copyable. Field meaning per type (above).
struct Event {
  EventType type;
  SeatRef seat = kNoSeat;
  SeatRef other = kNoSeat;
  SeatRef winner = kNoSeat;
  Card card{};
  Card other_card{};
  std::int32_t amount = 0;
  std::int32_t extra = 0;
  friend bool operator==(const Event&, const Event&) = default;
};

static_assert(sizeof(Event) == 16);

using EventLog = EventBus<Event>;
using Listener = EventListener<Event>;

/// Packs places (1-based, one per seat, at most 4) for BattleEnded.
std::int32_t pack_places(const std::uint8_t* places, std::size_t seats);
/// The place of `seat` in a packed BattleEnded amount (0 when there is no such seat).
std::uint8_t unpack_place(std::int32_t packed, std::size_t seat);
/// Packs a turn order (seat indices, first seat in the lowest byte, at most 4) for TurnOrderSet.
std::int32_t pack_order(const std::uint8_t* order, std::size_t seats);
/// The seat at `position` of a packed TurnOrderSet order.
std::uint8_t unpack_order(std::int32_t packed, std::size_t position);

/// The readable JSON form of an event.
nlohmann::json event_to_json(const Event& e);

}  // namespace battlecore::clash
