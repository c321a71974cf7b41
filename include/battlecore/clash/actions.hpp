#pragma once
/// The clash's decisions: what a seat can submit, and why a submit is refused.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/clash/events.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash {

enum class ActionKind : std::uint8_t {
  Roll,        ///< a human seat rolls the d6 (the die comes from the dice stream)
  ChooseRock,  ///< move to `value`, one of the two rocks the roll offers
  PlayCard,    ///< play the card in hand slot `value`
};
std::string_view action_kind_name(ActionKind k);

/// One input of one seat. Small and trivially copyable.
struct Action {
  ActionKind kind = ActionKind::Roll;
  SeatRef seat = kNoSeat;
  std::uint8_t value = 0;  ///< ChooseRock: the rock; PlayCard: the hand slot
  friend bool operator==(const Action&, const Action&) = default;

  static constexpr Action roll(SeatRef seat) { return Action{ActionKind::Roll, seat, 0}; }
  static constexpr Action choose_rock(SeatRef seat, std::uint8_t rock) {
    return Action{ActionKind::ChooseRock, seat, rock};
  }
  static constexpr Action play(SeatRef seat, std::uint8_t slot) {
    return Action{ActionKind::PlayCard, seat, slot};
  }
};

/// Why submit() refused an action.
enum class RefusalReason : std::uint8_t {
  NoBattle,          ///< no battle has started
  BattleOver,        ///< the battle is over
  NotYourTurn,       ///< the action names a seat other than the one deciding
  WrongStep,         ///< the seat must roll, pick a rock or pick a card, and this is another step
  RockNotOffered,    ///< the rock is not one of the two the roll offers
  NoSuchCard,        ///< the hand has no such slot
  CardDoesNotMatch,  ///< the card's element is not the rock's (and the rock is no wildcard)
};
std::string_view refusal_reason_name(RefusalReason r);

/// A refused action: the reason and text naming the action, the phase and why.
struct Rejection {
  RefusalReason reason;
  std::string message;
};

/// The JSON form: {"type":"roll","seat":0}, {"type":"choose_rock","seat":0,"rock":5},
/// {"type":"play_card","seat":0,"slot":2}.
nlohmann::json action_to_json(const Action& a);
/// Parses the JSON form. Errors name what was wrong.
Result<Action> action_from_json(const nlohmann::json& j);

}  // namespace battlecore::clash
