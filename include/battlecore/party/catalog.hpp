#pragma once
/// The party rule set's content, loaded and frozen: conditions, members, skills, items, the
/// companion and the AI ally, enemies and their moves, parties (formations) and encounters.
/// Everything is referenced by dense indices; the catalog never changes after loading.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace battlecore::party {

using ConditionId = std::uint8_t;
using MemberId = std::uint16_t;
using SkillId = std::uint16_t;
using ItemId = std::uint16_t;
using EnemyId = std::uint16_t;
using PartyId = std::uint16_t;
using EncounterId = std::uint16_t;
using CompanionId = std::uint16_t;
using AllyId = std::uint16_t;
inline constexpr ConditionId kNoCondition = 0xFF;

/// The reference's condition semantics (BF: Actors states/Conditions); a condition in
/// content names one of them and gives its numbers.
enum class ConditionEffect : std::uint8_t {
  Freeze,       ///< stopped; a hit thaws it for +amount damage
  Poison,       ///< non-lethal damage each turn end
  Numb,         ///< stopped; -amount damage taken
  Sleep,        ///< stopped; heals each turn end; a hit wakes
  AttackUp,     ///< +amount damage dealt
  AttackDown,   ///< -amount damage dealt
  DefenseUp,    ///< -amount damage taken
  DefenseDown,  ///< +amount damage taken
  Flipped,      ///< defense ignored; stops a member; an enemy still takes the enemy phase
  Shield,       ///< invulnerable
  Taunted,      ///< no skill, item or relay, cannot be relayed to
  Sturdy,       ///< no new conditions, -amount damage taken, cannot be relayed to
  Fire,         ///< non-lethal damage each turn end
  Inked,        ///< no skills
  Sticky,       ///< no items
  GradualHp,    ///< +amount HP each turn end
  GradualTp,    ///< +amount TP each turn end
};
inline constexpr std::size_t kConditionEffectCount = 17;
/// The content name of an effect ("attack_up").
std::string_view condition_effect_name(ConditionEffect e);

struct ConditionDef {
  std::string id;
  std::string name;
  ConditionEffect effect = ConditionEffect::Poison;
  std::int32_t amount = 1;               ///< the effect's size (modifiers, gradual gains, thaw bonus)
  std::int32_t turns = 2;                ///< default duration when inflicted without a duration
  ConditionId on_expire = kNoCondition;  ///< applied when this one runs out (AttackUp -> AttackDown)
  std::int32_t on_expire_turns = 0;
};

/// What an effect op does.
enum class OpKind : std::uint8_t {
  Damage,      ///< `amount` per hit, `hits` hits; pierce, flip; optional inflict
  Heal,        ///< +amount HP
  RestoreTp,   ///< +amount TP (the party's pool)
  Apply,       ///< the condition for `turns`, no resistance roll (buffs)
  Inflict,     ///< the condition for `turns`, with the target's resistance roll
  Cure,        ///< removes the target's harmful conditions
  Charge,      ///< +amount charge (added to the next damage, at most 3)
  Projectile,  ///< a delayed projectile: `amount` damage lands after `turns` turn ends
};

struct Op {
  OpKind kind = OpKind::Damage;
  std::int32_t amount = 0;
  std::uint8_t hits = 1;
  bool pierce = false;
  bool flip = false;
  ConditionId condition = kNoCondition;  ///< Apply, Inflict, and a Damage op's infliction
  std::int32_t turns = 0;
};

/// Who an action's effects reach.
enum class TargetKind : std::uint8_t { Enemy, AllEnemies, Ally, Self, Party };
/// Which enemies an attack reaches.
enum class Reach : std::uint8_t { Ground, Any };
enum class Position : std::uint8_t { Ground, Flying };

struct SkillDef {
  std::string id;
  std::string name;
  std::int32_t cost = 0;
  bool cost_in_hp = false;  ///< paid in the member's HP instead of the party's TP
  TargetKind target = TargetKind::Enemy;
  Reach reach = Reach::Any;
  bool tires = true;  ///< increments the user's exhaustion (team moves do not)
  std::vector<Op> effects;
};

struct ItemDef {
  std::string id;
  std::string name;
  TargetKind target = TargetKind::Ally;
  std::vector<Op> effects;
};

struct MemberDef {
  std::string id;
  std::string name;
  std::int32_t hp = 1;
  std::int32_t attack = 1;
  std::int32_t defense = 0;
  Reach reach = Reach::Ground;  ///< what the basic attack reaches
  std::vector<SkillId> skills;
  std::vector<std::uint8_t> resist;  ///< per condition, percent (100 = immune)
};

/// The original's chompy: acts once per main turn after the members, unless locked.
struct CompanionDef {
  std::string id;
  std::string name;
  std::int32_t attack = 1;
  std::string special_name;
  std::int32_t special_cost = 2;  ///< TP
  std::vector<Op> special;        ///< on the chosen enemy
};

/// The original's aiparty: acts by itself once per main turn after the companion.
struct AllyDef {
  std::string id;
  std::string name;
  std::int32_t attack = 1;
  std::uint8_t hits = 1;
};

struct MoveDef {
  std::string id;
  std::string name;
  std::uint32_t weight = 1;  ///< relative chance under the random behaviour
  enum class Target : std::uint8_t { Member, AllMembers, Self, AllyLowest } target = Target::Member;
  std::vector<Op> effects;
};

struct EnemyDef {
  std::string id;
  std::string name;
  std::int32_t hp = 1;
  std::int32_t defense = 0;
  std::int32_t moves = 1;  ///< actions per main turn
  Position position = Position::Ground;
  enum class Behavior : std::uint8_t { Random, Sequence } behavior = Behavior::Random;
  std::vector<MoveDef> move_list;
  std::vector<std::uint8_t> resist;  ///< per condition, percent (100 = immune)
  std::vector<EnemyId> reserves;     ///< join the encounter's reserves when this enemy is in it
};

struct ItemStack {
  ItemId item = 0;
  std::uint8_t count = 0;
};

/// A party: the members in formation order, the shared TP, the companion, the AI ally, items.
struct PartyDef {
  std::string id;
  std::string name;
  std::vector<MemberId> formation;
  std::int32_t tp = 0;
  std::optional<CompanionId> companion;
  std::optional<AllyId> ally;
  std::vector<ItemStack> items;
};

enum class Advantage : std::uint8_t { None, Party, Enemy };

struct EncounterDef {
  std::string id;
  std::string name;
  PartyId party = 0;
  std::vector<EnemyId> enemies;  ///< the first 4 are active, the rest are reserves
  Advantage advantage = Advantage::None;
  bool can_flee = true;
  std::int32_t flee_chance = 50;  ///< percent
  bool companion_locked = false;
  std::uint32_t turn_limit = 99;  ///< a battle still going after this many turns is lost
};

struct PackInfo {
  std::string id;
  std::string name;
  std::optional<EncounterId> default_encounter;
};

/// The whole content of a party pack.
struct Catalog {
  PackInfo pack;
  std::vector<ConditionDef> conditions;
  std::vector<SkillDef> skills;
  std::vector<ItemDef> items;
  std::vector<MemberDef> members;
  std::vector<CompanionDef> companions;
  std::vector<AllyDef> allies;
  std::vector<EnemyDef> enemies;
  std::vector<PartyDef> parties;
  std::vector<EncounterDef> encounters;
  std::uint64_t content_hash = 0;

  std::optional<EncounterId> find_encounter(std::string_view id) const;
  std::optional<ConditionId> find_condition(std::string_view id) const;
};

}  // namespace battlecore::party
