#pragma once
// The party rule set's primitives: queries of the reference (IsStopped, IsStoppedLite, free
// members), conditions, the damage pipeline, member and enemy actions, the turn advance.
// Phase handlers and Battle::submit are written in these words.

#include <optional>

#include "battlecore/party/battle.hpp"

namespace battlecore::party {

/// What phase handlers may touch: the parts of one battle.
struct Battle::Access {
  BattleState& s;
  const Catalog& c;
  EventLog& ev;
  static Access of(Battle& b) { return Access{b.state_, *b.catalog_, b.events_}; }
};

namespace detail {

using Ctx = Battle::Access;

// --- queries ------------------------------------------------------------------------------

const ConditionDef& condition(const Catalog& c, ConditionId id);
/// The turns left of the first condition with `effect`, or 0.
std::int32_t effect_turns(const Catalog& c, const Conditions& conds, ConditionEffect effect);
bool has_effect(const Catalog& c, const Conditions& conds, ConditionEffect effect);
/// The bit of `effect` in a set of effects (effects_held).
constexpr std::uint32_t effect_bit(ConditionEffect effect) { return 1u << static_cast<unsigned>(effect); }
static_assert(kConditionEffectCount <= 32, "a set of effects is 32 bits");
/// The effects of `conds`, one bit each (effect_bit): one pass for the questions that ask of several.
std::uint32_t effects_held(const Catalog& c, const Conditions& conds);
/// Sum of the amounts of every condition with `effect`.
std::int32_t effect_amount(const Catalog& c, const Conditions& conds, ConditionEffect effect);
/// True for the conditions Sturdy keeps out and Cure removes.
bool is_harmful(ConditionEffect e);

/// The reference's IsStopped: Freeze, Numb, Flipped, Sleep, or down.
bool is_stopped(const Catalog& c, const Conditions& conds, std::int32_t hp);
/// IsStoppedLite: the same, but Flipped does not count.
bool is_stopped_lite(const Catalog& c, const Conditions& conds, std::int32_t hp);
/// GetFreePlayerAmmount's test: counter at or below 0, alive, no Sleep, Numb or Freeze.
bool is_free_member(const Catalog& c, const MemberState& m);
std::size_t free_member_count(const BattleState& s, const Catalog& c);
/// The free members the selection may pick: free and not stopped (a Flipped member is free,
/// BF: Actors states/Player party members/GetFreePlayerAmmount, but stopped, so the selection never
/// picks it, BF: Battle flow/Main turn life cycle).
std::size_t selectable_member_count(const BattleState& s, const Catalog& c);
std::size_t alive_member_count(const BattleState& s);
/// AllPartyFree: no member has a counter of 1 or more.
bool all_party_free(const BattleState& s);
/// SwitchParty's condition (BF: Player UI/Confirmation handling/BaseAction): the whole party free
/// (AllPartyFree) or only one member alive.
bool swap_allowed_now(const BattleState& s);
/// Whether another Swap in a row is allowed: swaps in a row stop once every member has been at
/// the front (members - 1 of them), so that Swap and Deselect cannot cycle without an action.
inline bool swaps_left(const BattleState& s) { return std::size_t{s.swaps} + 1 < s.members.size(); }
/// The formation slot of member `member`.
std::size_t formation_slot(const BattleState& s, std::size_t member);

/// The enemy slot with battle-wide number `uid`, or nothing.
std::optional<std::size_t> enemy_slot(const BattleState& s, std::uint8_t uid);
bool reaches(Reach reach, const EnemyState& e);
/// Some standing enemy is in `reach` (a skill on every enemy has a target).
bool any_enemy_in_reach(const BattleState& s, Reach reach);
/// No enemy active and none in reserve.
bool no_enemy_left(const BattleState& s);

bool skills_banned(const Catalog& c, const MemberState& m);  ///< Inked or Taunted
bool items_banned(const Catalog& c, const MemberState& m);   ///< Sticky or Taunted
/// The relayer may relay: more than one member, not Taunted, not relayed yet this turn.
bool may_relay(const BattleState& s, const Catalog& c, std::size_t relayer);
/// The member may receive a relay: alive, not stopped, not Taunted or Sturdy, not the relayer.
bool may_receive_relay(const BattleState& s, const Catalog& c, std::size_t relayer, std::size_t target);
bool can_pay(const BattleState& s, const MemberState& m, const SkillDef& skill);
/// Deselect leads somewhere: more than one member may be selected (free and not stopped) and not
/// every one of them has been offered since the last action (each Deselect offers the next one),
/// so a battle cannot go back and forth between members forever, nor deselect a member only to
/// select it again.
bool may_deselect(const BattleState& s, const Catalog& c);

// --- conditions ---------------------------------------------------------------------------

/// Applies (or amends: the longer duration stays) a condition. With `resisted_by_roll` the
/// target's resistance is rolled first (Effects stream: applied when rand(0..99) >= res).
/// Sturdy keeps harmful conditions out; an actor that is down takes none (no roll). Returns
/// whether it was applied.
bool apply_condition(Ctx& x, ActorRef source, ActorRef target, ConditionId cond, std::int32_t turns,
                     bool resisted_by_roll);
Conditions* conditions_of(Ctx& x, ActorRef a);
void remove_condition(Ctx& x, ActorRef a, std::size_t index);
/// The reference's ClearStatus.
void clear_conditions(Ctx& x, ActorRef a);

// --- the damage pipeline ------------------------------------------------------------------

/// Named steps of the damage pipeline, in order.
enum class DamageStep : std::uint8_t {
  Shield,
  Base,
  Block,
  Exhaustion,
  FrontBonus,
  Charge,
  Thaw,
  Numb,
  Infliction,
  Defense,
  DefenseUp,
  DefenseDown,
  AttackUp,
  AttackDown,
  Sturdy,
  Clamp,
};
std::string_view damage_step_name(DamageStep s);

struct DamageStepRecord {
  DamageStep step;
  std::int32_t value;  ///< the damage after the step
};
using DamageTrace = FixedVec<DamageStepRecord, 20>;

/// One hit: who, on whom, how hard, with what.
struct Hit {
  ActorRef attacker = kNobody;  ///< nobody for projectiles
  ActorRef target = kNobody;
  std::int32_t base = 0;
  BlockLevel block = BlockLevel::None;
  bool pierce = false;
  ConditionId inflict = kNoCondition;  ///< inflicted by the hit (a Flipped one flips)
  std::int32_t inflict_turns = 0;
};

/// The reference's ordered pipeline (DoDamage, CalculateBaseDamage), applied: returns the HP
/// the target lost. `trace`, when given, receives the damage after each step.
std::int32_t resolve_hit(Ctx& x, const Hit& hit, DamageTrace* trace = nullptr);
/// Non-lethal HP loss (poison, fire): never below 1.
void lose_hp_nonlethal(Ctx& x, ActorRef target, std::int32_t amount);
void heal(Ctx& x, ActorRef target, std::int32_t amount);
void restore_tp(Ctx& x, std::int32_t amount);

// --- actions ------------------------------------------------------------------------------

/// Runs the ops of a member's skill or item (or the companion's special) on the targets; every
/// enemy target is one `reach` reaches.
void run_player_ops(Ctx& x, ActorRef user, const std::vector<Op>& ops, TargetKind kind, Reach reach,
                    std::int8_t target);
/// EndPlayerTurn: counter +1, nobody selected, frozen or asleep enemies wait, cycle reset.
void end_player_turn(Ctx& x, std::size_t member);
/// SetLastTurns: the select cycle gets (free members - 1) empty slots.
void reset_select_cycle(Ctx& x);
/// AddLastTurn: the member goes into the next empty slot, or pushes out the oldest.
void add_last_turn(Ctx& x, std::int8_t member);
/// The member selection part: the first member in formation order that is not stopped, has a
/// counter at or below 0 and is cleared by the select cycle; -1 when none.
std::int8_t pick_member(const BattleState& s, const Catalog& c);
/// CheckDead for enemies: the fallen leave their slots, and each emptied slot is refilled by
/// the next reserve, in order.
void remove_fallen_enemies(Ctx& x);
/// The next reserve takes a free slot (ReserveJoined when `announce`).
void spawn_from_reserves(Ctx& x, bool announce);
/// The AI ally's action: `hits` hits on a random enemy (Ai stream).
void ally_action(Ctx& x);

// --- enemies ------------------------------------------------------------------------------

/// Starts enemy `slot`'s action (DoAction's enemy branch): Flipped handling, the move, targets.
void begin_enemy_action(Ctx& x, std::size_t slot);
/// Runs the action in progress until it needs a Block decision (true) or is done (false).
bool continue_enemy_action(Ctx& x);

// --- the turn advance ---------------------------------------------------------------------

/// Delayed projectiles count down and land; true when any landed.
bool land_projectiles(Ctx& x);
/// AdvanceTurnEntity for a member or an enemy: condition ticks, countdown, expiry, counter.
void advance_turn_member(Ctx& x, std::size_t member);
void advance_turn_enemy(Ctx& x, std::size_t slot);
/// The inaction failsafe: every living stopped member loses its conditions and may act.
void inaction_failsafe(Ctx& x);

}  // namespace detail
}  // namespace battlecore::party
