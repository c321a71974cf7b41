#pragma once
/// The party rule set's decisions: what can be submitted, and why a submit is refused.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/result.hpp"

namespace battlecore::party {

enum class ActionKind : std::uint8_t {
  Attack,            ///< the selected member's basic attack on enemy `target`
  Skill,             ///< the member's skill number `index` at `target` (enemy, member or -1)
  Item,              ///< the party's item slot `index` at `target` (enemy, member or -1)
  Relay,             ///< give member `target` one more action; the relayer's turn ends
  DoNothing,         ///< end the member's turn
  Flee,              ///< try to run away (the encounter's chance)
  Swap,              ///< rotate the formation (only while the whole party is free)
  Deselect,          ///< back to the select cycle (only while more than one member is free)
  CompanionAttack,   ///< the companion attacks enemy `target`
  CompanionSpecial,  ///< the companion's special (TP) on enemy `target`
  CompanionPass,     ///< the companion does nothing this turn
  Block,             ///< answer to an enemy hit: `index` 0 none, 1 block, 2 super block
};
inline constexpr std::size_t kActionKindCount = 12;
std::string_view action_kind_name(ActionKind k);

/// Block levels, the answers to a Block decision.
enum class BlockLevel : std::uint8_t { None, Block, SuperBlock };
std::string_view block_level_name(BlockLevel b);

/// One input. Small and trivially copyable.
struct Action {
  ActionKind kind = ActionKind::DoNothing;
  std::uint8_t index = 0;   ///< Skill: member's skill number; Item: item slot; Block: level
  std::int8_t target = -1;  ///< enemy slot, member index, or -1 for none
  friend bool operator==(const Action&, const Action&) = default;

  static constexpr Action attack(std::int8_t enemy) { return {ActionKind::Attack, 0, enemy}; }
  static constexpr Action skill(std::uint8_t i, std::int8_t target) { return {ActionKind::Skill, i, target}; }
  static constexpr Action item(std::uint8_t slot, std::int8_t target) {
    return {ActionKind::Item, slot, target};
  }
  static constexpr Action relay(std::int8_t member) { return {ActionKind::Relay, 0, member}; }
  static constexpr Action do_nothing() { return {ActionKind::DoNothing, 0, -1}; }
  static constexpr Action flee() { return {ActionKind::Flee, 0, -1}; }
  static constexpr Action swap() { return {ActionKind::Swap, 0, -1}; }
  static constexpr Action deselect() { return {ActionKind::Deselect, 0, -1}; }
  static constexpr Action companion_attack(std::int8_t enemy) {
    return {ActionKind::CompanionAttack, 0, enemy};
  }
  static constexpr Action companion_special(std::int8_t enemy) {
    return {ActionKind::CompanionSpecial, 0, enemy};
  }
  static constexpr Action companion_pass() { return {ActionKind::CompanionPass, 0, -1}; }
  static constexpr Action block(BlockLevel level) {
    return {ActionKind::Block, static_cast<std::uint8_t>(level), -1};
  }
};

/// Why submit() refused an action.
enum class RefusalReason : std::uint8_t {
  NoBattle,            ///< no battle was started
  BattleOver,          ///< the battle is over
  NotYourDecision,     ///< the pending decision is of another kind
  InvalidOption,       ///< no such skill, item slot or block level
  InvalidTarget,       ///< the target is missing, of the wrong side, down, or out of reach
  SkillsBanned,        ///< Inked or Taunted
  ItemsBanned,         ///< Sticky or Taunted
  CannotPay,           ///< not enough TP (or HP) for the skill
  NoItemsLeft,         ///< the item slot is empty
  RelayNotAllowed,     ///< one member, Taunted, already relayed, or the target cannot receive
  SwapNotAllowed,      ///< someone is not free, or one member only
  DeselectNotAllowed,  ///< only one member is free
  FleeNotAllowed,      ///< the encounter forbids fleeing
};
std::string_view refusal_reason_name(RefusalReason r);

/// A refused action: the reason and text naming the action and the phase.
struct Rejection {
  RefusalReason reason;
  std::string message;
};

/// The JSON form: {"type":"skill","index":1,"target":0}; `index` and `target` appear where
/// the kind uses them.
nlohmann::json action_to_json(const Action& a);
/// Parses the JSON form. Errors name what was wrong.
Result<Action> action_from_json(const nlohmann::json& j);
/// The action with only the fields its kind reads (`index` 0 and `target` -1 otherwise): the
/// form a battle records, so that an action and its JSON form compare equal.
Action canonical_action(const Action& a);

}  // namespace battlecore::party
