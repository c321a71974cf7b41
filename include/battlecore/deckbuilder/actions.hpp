#pragma once
/// The deckbuilder's decisions: what the player can submit, and why a submit is refused.

#include <bit>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/events.hpp"

namespace battlecore::deckbuilder {

struct Catalog;

/// An index into the battle's card instances: stable for the whole battle.
using CardRef = std::uint8_t;
inline constexpr CardRef kNoCard = 0xFF;

enum class ActionKind : std::uint8_t {
  PlayCard,      ///< play `card` from the hand at `target` (an enemy index, or -1)
  EndTurn,       ///< end the player's turn
  ChooseOption,  ///< pick option `index` of the pending Choice
  SkipChoice,    ///< skip the pending Choice
  TakeReward,    ///< take reward candidate `index`
  SkipReward,    ///< take no reward
};
std::string_view action_kind_name(ActionKind k);

/// One input. Small and trivially copyable.
struct Action {
  ActionKind kind = ActionKind::EndTurn;
  CardRef card = kNoCard;
  std::int8_t target = -1;  ///< enemy index for PlayCard with a target, else -1
  std::uint8_t index = 0;   ///< ChooseOption, TakeReward: which one
  friend bool operator==(const Action&, const Action&) = default;

  /// Built as one 4-byte value on little-endian machines: listing options then writes each in
  /// one store, and the policy's read of a whole option right after is served by that store
  /// (written field by field, the read would wait for the bytes to reach the cache).
  static constexpr Action play(CardRef card, std::int8_t target = -1) {
    if constexpr (std::endian::native == std::endian::little) {
      return std::bit_cast<Action>(std::uint32_t{static_cast<std::uint8_t>(ActionKind::PlayCard)} |
                                   std::uint32_t{card} << 8 |
                                   std::uint32_t{static_cast<std::uint8_t>(target)} << 16);
    } else {
      return Action{ActionKind::PlayCard, card, target, 0};
    }
  }
  static constexpr Action end_turn() { return Action{ActionKind::EndTurn, kNoCard, -1, 0}; }
  static constexpr Action choose(std::uint8_t i) { return Action{ActionKind::ChooseOption, kNoCard, -1, i}; }
  static constexpr Action skip_choice() { return Action{ActionKind::SkipChoice, kNoCard, -1, 0}; }
  static constexpr Action take_reward(std::uint8_t i) {
    return Action{ActionKind::TakeReward, kNoCard, -1, i};
  }
  static constexpr Action skip_reward() { return Action{ActionKind::SkipReward, kNoCard, -1, 0}; }
};
static_assert(sizeof(Action) == 4 && std::is_trivially_copyable_v<Action>, "Action::play packs 4 bytes");
static_assert(Action::play(7, 2) == Action{ActionKind::PlayCard, 7, 2, 0});
static_assert(Action::play(9) == Action{ActionKind::PlayCard, 9, -1, 0});

/// The seed's nine reasons a card play fails, in its order, then the engine's own limit on plays
/// per turn; plus Ok (GCSApi.CanPlayCard).
enum class PlayCheck : std::uint8_t {
  Ok,
  WrongPhase,             ///< the phase is not PlayerPhase
  NullCard,               ///< no such card
  MissingPlayer,          ///< the player unit is missing
  NotInHand,              ///< the card is not in hand
  NoActiveDefinition,     ///< the card has no active card definition
  CannotPayCost,          ///< the player cannot pay the effective cost
  CancelledByOnPlayHook,  ///< an on-play hook cancels the play
  Unplayable,             ///< the card has the Unplayable keyword
  RefusedByPlayableHook,  ///< a playable hook cancels or returns false
  TurnPlayLimit,          ///< kMaxCards cards were played this turn (the engine's limit)
};
std::string_view play_check_name(PlayCheck c);

/// Why submit() refused an action.
enum class RefusalReason : std::uint8_t {
  NoBattle,          ///< no battle is active
  BattleOver,        ///< the battle is over
  NotYourDecision,   ///< the pending decision is of another kind
  CannotPlayCard,    ///< can_play_card failed; the message says which PlayCheck
  InvalidTarget,     ///< the target is missing, not an enemy, or not alive
  WaitingForChoice,  ///< a Choice is pending: only its options (or skip) are accepted
  WaitingForReward,  ///< a reward is offered: only taking one or skipping is accepted
  InvalidOption,     ///< no such option, or skipping a Choice that cannot be skipped
};
std::string_view refusal_reason_name(RefusalReason r);

/// A refused action: the reason, the failed play check when there is one, and text.
struct Rejection {
  RefusalReason reason;
  PlayCheck check = PlayCheck::Ok;
  std::string message;
};

/// The action with only the fields its kind reads (the others at their defaults): what the
/// battle records, so that an action and its JSON form always compare equal.
constexpr Action canonical_action(const Action& a) {
  switch (a.kind) {
    case ActionKind::PlayCard:
      return Action::play(a.card, a.target);
    case ActionKind::ChooseOption:
      return Action::choose(a.index);
    case ActionKind::TakeReward:
      return Action::take_reward(a.index);
    case ActionKind::EndTurn:
    case ActionKind::SkipChoice:
    case ActionKind::SkipReward:
      break;
  }
  return Action{a.kind, kNoCard, -1, 0};
}

/// The JSON form of an action: {"type":"play_card","card":3,"card_id":"strike","target":0}.
/// `card_id` is informative and needs the battle's card table; pass nullptr to omit it.
nlohmann::json action_to_json(const Action& a, const std::string* card_id = nullptr);
/// Parses the JSON form (card_id is ignored). Errors name what was wrong.
Result<Action> action_from_json(const nlohmann::json& j);

}  // namespace battlecore::deckbuilder
