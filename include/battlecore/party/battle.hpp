#pragma once
/// A party battle: Bug Fables' main turn life cycle (BF: Battle flow/Main turn life cycle) on the
/// core's phase machine and run-to-decision interface.
///
/// Notes on this implementation (docs/party.md lists every rule):
/// - The phase table is Machine in phases.hpp; each phase has one handler in
///   src/party/phases.cpp. A handler is re-entrant: like the original's per-frame Update, it
///   looks at the state, does the first applicable step and either asks for a decision, asks
///   for a trigger, or does the next step. advance() is the one driver.
/// - Action counters are the reference's `cantmove`: 0 is one action, each step below 0 one
///   more, acting adds 1. The select cycle is `lastturns`.
/// - The defender's block is an out-of-turn decision posed before each enemy hit on a member.
///   The battle draws a roll (0..99) from its Dice stream when it poses it, so a bot answering
///   by a success rate uses the battle's randomness, not its own.
/// - The battle is a value: copying it clones it (listeners are not copied; see EventBus).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/decision.hpp"
#include "battlecore/core/fixed_vec.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/party/actions.hpp"
#include "battlecore/party/catalog.hpp"
#include "battlecore/party/events.hpp"
#include "battlecore/party/phases.hpp"

namespace battlecore::party {

namespace detail {
struct BattleIo;
}

inline constexpr std::size_t kMaxMembers = 4;
inline constexpr std::size_t kMaxActiveEnemies = 4;
inline constexpr std::size_t kMaxEncounterEnemies = 12;  ///< active and reserves together
// Every enemy's number (below kMaxEncounterEnemies) names it in events as enemy_actor, 16 + number.
static_assert(16 + kMaxEncounterEnemies <= 127, "an enemy's event actor must fit a signed byte");
/// Different conditions on one actor. A pack defines at most this many (the loader refuses
/// more) and an actor holds each once, so every condition of a pack fits on one actor.
inline constexpr std::size_t kMaxConditions = 24;
inline constexpr std::size_t kMaxItemSlots = 8;
inline constexpr std::size_t kMaxProjectiles = 8;
inline constexpr std::int32_t kMaxCharge = 3;
/// The largest max HP of a member or an enemy: a scenario's bound, above the content's (99 for a
/// member, 999 for an enemy); no rule changes a max HP, and the rules' arithmetic on HP (a fire
/// tick's max HP * 2) holds within it. A snapshot is held to it too.
inline constexpr std::int32_t kMaxActorHp = 9999;
/// The largest max TP of a party: a scenario's bound, above the content's 99. A snapshot is held
/// to it too.
inline constexpr std::int32_t kMaxPartyTp = 999;
inline constexpr std::uint8_t kInactionFailsafeTurns = 5;

/// A condition on an actor with its main turns left.
struct ConditionSlot {
  ConditionId condition = 0;
  std::int16_t turns = 0;
  friend bool operator==(const ConditionSlot&, const ConditionSlot&) = default;
};
using Conditions = FixedVec<ConditionSlot, kMaxConditions>;

/// The lowest action counter: at most 8 actions banked (a relay to a member there is refused).
inline constexpr std::int8_t kMinCounter = -8;
/// An enemy's lowest action counter, 1 - its moves: the one it gets as it joins and at each turn
/// advance, with all its actions of the turn ahead. Acting adds 1, a stop or a landing projectile
/// sets 1 and a thaw at most 0: nothing takes it lower.
constexpr std::int8_t min_enemy_counter(const EnemyDef& def) {
  return static_cast<std::int8_t>(1 - def.moves);
}

struct MemberState {
  MemberId def = 0;
  std::int32_t hp = 0;
  std::int32_t max_hp = 0;
  std::int8_t cantmove = 0;        ///< action counter: 0 one action, -1 two, 1 waits (kMinCounter..1)
  std::int8_t tired = 0;           ///< exhaustion: subtracted from damage, reset each turn
  std::int8_t charge = 0;          ///< added to the next damage
  std::int8_t more_next_turn = 0;  ///< extra actions carried over to the next main turn
  bool has_passed = false;         ///< relayed this main turn
  Conditions conditions;
  bool alive() const { return hp > 0; }
  friend bool operator==(const MemberState&, const MemberState&) = default;
};

struct EnemyState {
  EnemyId def = 0;
  std::uint8_t uid = 0;  ///< battle-wide number, in order of appearance
  std::int32_t hp = 0;
  std::int32_t max_hp = 0;
  std::int8_t cantmove = 0;  ///< action counter, as a member's (min_enemy_counter..1)
  std::int8_t tired = 0;
  std::int8_t charge = 0;
  Position position = Position::Ground;
  std::uint8_t sequence_pos = 0;  ///< Sequence behaviour: next move
  Conditions conditions;
  bool alive() const { return hp > 0; }
  friend bool operator==(const EnemyState&, const EnemyState&) = default;
};

struct ItemSlot {
  ItemId item = 0;
  std::uint8_t count = 0;
  friend bool operator==(const ItemSlot&, const ItemSlot&) = default;
};

/// A delayed projectile: lands on the member at formation slot `slot` after `turns` turn ends.
struct Projectile {
  std::uint8_t turns = 0;
  std::uint8_t slot = 0;
  std::int16_t damage = 0;
  friend bool operator==(const Projectile&, const Projectile&) = default;
};

/// An enemy action in progress: the explicit cursor that lets it pause on a Block decision.
struct EnemyActionCursor {
  bool active = false;
  std::uint8_t enemy_uid = 0;
  std::uint8_t move = 0;
  FixedVec<std::int8_t, kMaxMembers> targets;  ///< member indices, or enemy uids for self moves
  bool targets_enemies = false;
  std::uint8_t target_pos = 0;
  std::uint8_t effect_pos = 0;
  std::uint8_t hit = 0;
  bool awaiting_block = false;  ///< the next hit waits for its Block decision
  std::uint8_t block_roll = 0;  ///< drawn from the Dice stream when the decision was posed
  bool keeps_charge = false;    ///< the action charged the acting enemy: EndEnemyTurn keeps it
  friend bool operator==(const EnemyActionCursor&, const EnemyActionCursor&) = default;
};

/// The whole rules state of a battle: a plain value, no pointers.
struct BattleState {
  std::uint64_t seed = 0;
  RngStreams rng;
  EncounterId encounter = 0;
  std::uint32_t turn = 0;        ///< the reference's `turns`: 0 on the first main turn
  std::uint32_t main_turns = 0;  ///< player phases begun
  std::int32_t tp = 0;           ///< shared by the party
  std::int32_t max_tp = 0;
  FixedVec<MemberState, kMaxMembers> members;        ///< in the party's definition order
  FixedVec<std::uint8_t, kMaxMembers> formation;     ///< member indices, front first
  FixedVec<EnemyState, kMaxActiveEnemies> enemies;   ///< active enemies in slot order
  FixedVec<EnemyId, kMaxEncounterEnemies> reserves;  ///< refill empty slots, in order
  std::uint8_t next_uid = 0;
  FixedVec<ItemSlot, kMaxItemSlots> items;
  FixedVec<std::int8_t, kMaxMembers> last_turns;  ///< the select cycle (-1 = empty slot)
  std::int8_t current = -1;                       ///< the selected member, or -1
  bool companion_turn = false;                    ///< the companion's decision is pending
  bool companion_acted = false;
  bool companion_locked = false;
  bool ally_acted = false;
  bool first_strike = false;  ///< the enemies' half turn before turn 0 is running
  bool first_strike_acted = false;
  bool acted_this_turn = false;
  bool fled = false;
  std::uint8_t no_action_turns = 0;
  std::uint8_t deselects = 0;  ///< Deselects since the select cycle was last reset
  std::uint8_t swaps = 0;      ///< Swaps since the last action (Deselects between them included)
  FixedVec<Projectile, kMaxProjectiles> projectiles;
  EnemyActionCursor enemy_action;
  friend bool operator==(const BattleState&, const BattleState&) = default;
};

/// What kind of decision is pending.
enum class DecisionKind : std::uint8_t { None, MemberTurn, Companion, Block };
std::string_view decision_kind_name(DecisionKind k);

/// The pending decision: who decides, what about, and the legal options.
struct Decision {
  Decider who;  ///< Actor with the member index for a member's turn and a block; Player for the companion
  DecisionKind kind = DecisionKind::None;
  /// Stable indices. MemberTurn: attack per reachable enemy (slot order); each skill (member's
  /// order) per target; each item slot per target; relay per eligible member (formation order);
  /// do nothing; flee; swap; deselect. Companion: attack per enemy, special per enemy, pass.
  /// Block: none, block, super block.
  std::vector<Action> options;
};

/// Options for a battle's bookkeeping (the rules are the same either way).
struct BattleOptions {
  bool event_log = true;       ///< keep every event in events().log()
  bool record_history = true;  ///< keep the transition history and the action list
};

/// One party battle.
class Battle {
 public:
  explicit Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options = {});

  /// Sets up `encounter` with `seed` and runs to the first decision; a missing encounter is an
  /// error and starts nothing, and so is a battle in play (over, a battle may start again).
  Result<Status> start_battle(std::string_view encounter_id, std::uint64_t seed);
  Result<Status> start_battle(EncounterId encounter, std::uint64_t seed);

  /// Runs automatic steps until a decision is needed or the battle is over.
  Status advance();
  Status status() const;
  DecisionKind decision_kind() const;
  Decision decision() const;
  /// The legal options into `out` (cleared first); no allocation once `out` has grown.
  void legal_actions(std::vector<Action>& out) const;
  /// Applies a legal action and advances; refuses an illegal one, changing nothing.
  Result<Status, Rejection> submit(const Action& action);

  Phase phase() const { return driver_.current(); }
  bool started() const { return started_; }
  bool is_battle_over() const;
  bool won() const { return phase() == Phase::Victory; }
  const BattleState& state() const { return state_; }
  const Catalog& catalog() const { return *catalog_; }
  const std::shared_ptr<const Catalog>& catalog_ptr() const { return catalog_; }
  std::uint32_t turn() const { return state_.turn; }
  const std::vector<PhaseRecord>& history() const { return driver_.history(); }
  std::uint32_t transitions() const { return driver_.moves(); }
  const std::vector<Action>& actions() const { return actions_; }
  EventLog& events() { return events_; }
  const EventLog& events() const { return events_; }
  /// A 64-bit hash of the rules state, the phase and the move counter.
  std::uint64_t state_hash() const;
  /// The roll (0..99) drawn for the pending Block decision (bots answer by a success rate).
  std::uint8_t block_roll() const { return state_.enemy_action.block_roll; }

  /// Equal rules state, phase, move counter, history, actions, event log, options and queued
  /// trigger (snapshots restore a battle equal to the original).
  bool operator==(const Battle& other) const;

  /// Internal: gives phase handlers access to the state. Not for hosts.
  struct Access;

 private:
  friend struct Access;
  friend struct detail::BattleIo;
  Result<Status, Rejection> apply_member_action(const Action& action);
  Result<Status, Rejection> apply_companion_action(const Action& action);
  Result<Status, Rejection> apply_block(const Action& action);
  /// The rules of a member's action, written once: the first rule `action` breaks, as
  /// `refused(reason, why)` (`why()` gives the refusal's text), or `allowed` when it breaks none.
  template <class R, class Refused>
  R judge_member_action(const Action& action, R allowed, Refused&& refused) const;
  /// The refusal of `action`, with its text, or nothing when the rules allow it.
  std::optional<Rejection> check_member_action(const Action& action) const;
  /// Whether the rules refuse `action` (check_member_action without the text, for listing).
  bool refuses_member_action(const Action& action) const;

  std::shared_ptr<const Catalog> catalog_;
  BattleOptions options_;
  BattleState state_;
  PhaseDriver<Machine> driver_;
  EventLog events_;
  std::vector<Action> actions_;
  bool started_ = false;
  bool has_pending_trigger_ = false;
  Trigger pending_trigger_ = Trigger::BattleReady;
};

/// Engine invariants of a party battle between two actions: counters and HP within bounds, TP
/// in [0, max TP], the formation every member once, a member that is down with nothing left (no
/// conditions, counter, exhaustion or charge), a selected member that can act, no fallen enemy in
/// a slot while a decision waits, at most 4 active enemies, the phase's flags and the turn within
/// the turn limit, and until the battle is over a decision the rules pose (the companion's for a
/// companion that may act, a Block by an enemy action in progress, whose enemy has an action
/// left: counter 0 or below). False on the first broken one, with the reason in `why` and, when
/// `where` is given, the JSON pointer of the value at fault in the battle's snapshot (which
/// `restore` reports).
bool check_invariants(const Battle& battle, std::string* why, std::string* where = nullptr);

}  // namespace battlecore::party
