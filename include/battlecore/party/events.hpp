#pragma once
/// The party rule set's typed events. Events report; the phase is the authority.

#include <cstdint>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/events.hpp"

namespace battlecore::party {

struct Catalog;

/// An actor in events: member i is i (0..3), the companion 4, the AI ally 5, the enemy with
/// battle-wide number u is 16 + u, nobody is -1.
using ActorRef = std::int8_t;
inline constexpr ActorRef kNobody = -1;
inline constexpr ActorRef kCompanionActor = 4;
inline constexpr ActorRef kAllyActor = 5;
constexpr ActorRef member_actor(std::size_t i) { return static_cast<ActorRef>(i); }
constexpr ActorRef enemy_actor(std::uint8_t uid) { return static_cast<ActorRef>(16 + uid); }
constexpr bool is_member_actor(ActorRef a) { return a >= 0 && a < 4; }
constexpr bool is_enemy_actor(ActorRef a) { return a >= 16; }

enum class EventType : std::uint8_t {
  PhaseChanged,       ///< subject: from phase, value: to phase, amount: trigger
  MainTurnStarted,    ///< amount: turn number
  MemberSelected,     ///< source: member
  ActionTaken,        ///< source: actor, subject: action kind, value: skill/item id, target
  Damaged,            ///< source (or nobody), target, amount: HP lost, extra: block level
  Healed,             ///< target, amount, extra: 0 HP, 1 TP
  ConditionApplied,   ///< source, target, subject: condition, amount: turns
  ConditionResisted,  ///< target, subject: condition
  ConditionExpired,   ///< target, subject: condition
  Relayed,            ///< source: relayer, target: receiver
  EnemyActed,         ///< source: enemy, subject: move index, value: enemy id
  Blocked,            ///< target: member, amount: block level (1 block, 2 super block)
  Fled,               ///< amount: 1 success, 0 failure
  TurnAdvanced,       ///< amount: the new turn number
  ActorDown,          ///< target
  ReserveJoined,      ///< target: the new enemy, value: enemy id
  InactionFailsafe,   ///< amount: turns without an action
  BattleEnded,        ///< amount: 0 victory, 1 defeat, 2 fled
};
std::string_view event_type_name(EventType t);

/// One event: 16 bytes, trivially copyable. Field meaning per type (above).
struct Event {
  EventType type;
  ActorRef source = kNobody;
  ActorRef target = kNobody;
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

}  // namespace battlecore::party
