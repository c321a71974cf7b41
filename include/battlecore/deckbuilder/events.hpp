#pragma once
/// The deckbuilder's typed events. Names follow the seed (OnBattleStarted -> BattleStarted).
/// Events report; the phase is the authority.

#include <cstdint>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/events.hpp"

namespace battlecore::deckbuilder {

struct Catalog;

/// A unit in events and actions: 0 is the player, 1 + i is enemy i, -1 is nobody.
using UnitRef = std::int8_t;
inline constexpr UnitRef kPlayerUnit = 0;
inline constexpr UnitRef kNoUnit = -1;
constexpr UnitRef enemy_unit(std::size_t index) { return static_cast<UnitRef>(index + 1); }

/// Where a card sits.
enum class Pile : std::uint8_t { Draw, Hand, Discard, Exhaust, None };
std::string_view pile_name(Pile p);

enum class EventType : std::uint8_t {
  PhaseChanged,         ///< subject: from phase, value: to phase, amount: trigger
  BattleStarted,        ///< subject: encounter
  TurnStarted,          ///< amount: turn number
  DrawPhase,            ///< amount: turn number
  CardDrawn,            ///< subject: card instance, value: card id
  PileShuffled,         ///< amount: cards shuffled into the draw pile
  CardPlayed,           ///< subject: card instance, value: card id, target: chosen unit, amount: energy spent
  CardMoved,            ///< subject: card instance, value: card id, amount: from pile, extra: to pile
  DamageDealt,          ///< source, target, amount: HP lost, extra: armor absorbed
  ArmorGained,          ///< target, amount
  StatusApplied,        ///< source, target, subject: status, amount: stacks added, extra: stacks now
  StatusExpired,        ///< target, subject: status
  UnitDied,             ///< target
  DiscardPhase,         ///< amount: turn number
  TurnEnded,            ///< amount: turn number
  EnemyTurnStarted,     ///< amount: turn number
  EnemyIntent,          ///< source: enemy, subject: move index, value: enemy id
  EnemyActed,           ///< source: enemy, subject: move index, value: enemy id
  BattleEnded,          ///< amount: 1 when won, 0 when lost
  EnergyChanged,        ///< amount: change, extra: energy now
  Healed,               ///< target, amount
  HpLost,               ///< target, amount (not an attack)
  CardCreated,          ///< subject: card instance, value: card id, amount: pile
  CostChanged,          ///< subject: card instance, amount: effective cost now
  HookRegistered,       ///< subject: hook, target: owner
  HookExpired,          ///< subject: hook, target: owner
  DelayedScheduled,     ///< subject: block, amount: timing
  DelayedFired,         ///< subject: block, amount: timing
  ChoiceOffered,        ///< amount: options, extra: choice kind
  ChoiceMade,           ///< amount: option index, or -1 when skipped
  TurnSkipped,          ///< amount: turn number
  ExtraTurnGranted,     ///< amount: extra turns pending
  BattleRewardOffered,  ///< amount: candidates
  BattleRewardSelected,  ///< value: card id
  BattleRewardSkipped,
  LimitReached,  ///< amount: the Limit met, extra: its size, subject: what was not added (card id,
                 ///< status, hook or block), target: the unit (a status) or the owner (a hook)
  CardUpgraded,  ///< subject: card instance, value: card id now (the upgrade), amount: card id before
};
inline constexpr std::size_t kEventTypeCount = static_cast<std::size_t>(EventType::CardUpgraded) + 1;
std::string_view event_type_name(EventType t);

/// A limit of the battle state that an effect met (LimitReached): what it would have added was not.
enum class Limit : std::uint8_t {
  CardInstances,  ///< a battle's card instances (kMaxCards): a created card
  UnitStatuses,   ///< the statuses one unit holds (kMaxStatusSlots): a status it does not hold
  Hooks,          ///< the hooks registered at once (kMaxHooks)
  Delayed,        ///< the delayed effects scheduled at once (kMaxDelayed)
};
std::string_view limit_name(Limit l);

/// One event: 16 bytes, trivially copyable. Field meaning per type (above).
struct Event {
  EventType type;
  UnitRef source = kNoUnit;
  UnitRef target = kNoUnit;
  std::uint8_t pad = 0;
  std::uint16_t subject = 0;
  std::uint16_t value = 0;
  std::int32_t amount = 0;
  std::int32_t extra = 0;
  friend bool operator==(const Event&, const Event&) = default;
};

using EventLog = EventBus<Event>;
using Listener = EventListener<Event>;

/// The readable JSON form of an event (names resolved through the catalog).
nlohmann::json event_to_json(const Event& e, const Catalog& catalog);

}  // namespace battlecore::deckbuilder
