#pragma once
// The deckbuilder's effect ops: each op is one file in ops/ with a compile function (JSON
// parameters -> Op, every problem reported) and a handler, registered by one line in
// register_builtin_ops().

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::deckbuilder::detail {

/// The most ops one effect may run before the engine reports a runaway loop.
inline constexpr std::uint32_t kMaxOpsPerEffect = 10000;

/// Where an effect list lives, which decides what it may do.
enum class EffectOwner : std::uint8_t {
  Card,      ///< a card's on-play effects: may ask the player (choice, chosen discard)
  Move,      ///< an enemy's move
  Status,    ///< a status's timing: amounts may count its "stacks"
  Deferred,  ///< a hook's or a delayed trigger's effects: run later, never ask the player
};

using IdMap = std::map<std::string, std::uint16_t, std::less<>>;

/// What an op's compile function can resolve while the catalog is being loaded.
struct OpCompiler {
  const IdMap& status_ids;
  const IdMap& card_ids;
  const IdMap& hook_ids;
  bool all_read;  ///< every file of the pack was read: an id none defines is reported as unknown
  EffectOwner owner;
  bool* uses_chosen;  ///< set when an op aims at the chosen target (nullptr: not tracked)
  /// Compiles a nested effect list at `key` into Catalog::ops; nothing when absent or invalid.
  std::function<std::optional<OpRange>(content::ObjectReader&, std::string_view key, EffectOwner,
                                       bool* uses_chosen, bool required)>
      compile_effects;
  /// Registers a block (a nested list) with a label; returns its index in Catalog::blocks.
  std::function<std::uint16_t(OpRange, std::string label)> add_block;
  /// Reads a condition object at `key`; returns its index in Catalog::conditions.
  std::function<std::optional<std::uint16_t>(content::ObjectReader&, std::string_view key)> compile_condition;
  /// Adds a counted amount to Catalog::counted_amounts; returns its index.
  std::function<std::int32_t(const CountedAmount&)> add_counted_amount;

  /// The op's "target" key (default `fallback`): chosen, self, all_enemies, random_enemy.
  OpTarget target(content::ObjectReader& r, OpTarget fallback) const;
  /// A required id of `kind` at `key`; a dangling id is reported when every file was read.
  std::optional<std::uint16_t> status(content::ObjectReader& r, std::string_view key) const;
  std::optional<std::uint16_t> card(content::ObjectReader& r, std::string_view key) const;
  std::optional<std::uint16_t> hook(content::ObjectReader& r, std::string_view key) const;
  /// A required amount in [min, max], or one counted as the op runs ({"count": ..., "per": ...,
  /// "plus": ...}, kept within [min, max] with 0 let in; kAmountCounted); in a status timing also
  /// the string "stacks", which counts the status's stacks.
  bool amount(content::ObjectReader& r, std::string_view key, std::int64_t min, std::int64_t max,
              Op& op) const;
  /// A number of hits, passes or cards at `key` in [min, max], `fallback` when absent (none: required),
  /// or one counted as the op runs, as for amount; into Op::times (kTimesCounted).
  bool times(content::ObjectReader& r, std::string_view key, std::int64_t min, std::int64_t max,
             std::optional<std::int64_t> fallback, Op& op) const;
  /// Reads an amount (amount, times) into `field`: its literal, or the index of its counted
  /// amount, with `counted` set.
  bool read_amount(content::ObjectReader& r, std::string_view key, std::int64_t min, std::int64_t max,
                   std::optional<std::int64_t> fallback, std::int32_t& field, bool& counted) const;
  /// Reports that the op cannot be used where it is; returns false.
  bool only_in(content::ObjectReader& r, std::string_view op, std::string_view where) const;
};

/// One op kind.
struct OpSpec {
  std::string_view name;     ///< the "op" value in content
  std::string_view summary;  ///< one line for docs
  /// Reads the op's parameters into `op` (its code is set, its target is Self); false when invalid.
  bool (*compile)(const OpCompiler&, content::ObjectReader&, Op&);
  OpHandler handler;
  /// The handler may push effect frames (push_block) or pause on a choice; a list without such
  /// an op runs without the effect stack (OpRange::flat). The loader gives each op of this kind
  /// the flag kNests; `compile` clears it where the op's parameters rule both out.
  bool nests = false;
  /// The handler attacks: a unit it hits runs its statuses' on_attacked behaviour, inside the
  /// list the op is in (the loader checks that the effect frames of both fit in a battle).
  bool attacks = false;
};

/// The ops a catalog may use, in registration order (which gives Op::code).
class OpRegistry {
 public:
  void add(const OpSpec& spec);
  const OpSpec* find(std::string_view name) const;
  std::uint8_t code_of(std::string_view name) const;
  const std::vector<OpSpec>& specs() const { return specs_; }
  /// Every op name, comma-separated, for messages.
  std::string names() const;

 private:
  std::vector<OpSpec> specs_;
};

/// Registers every built-in op; one line per op.
void register_builtin_ops(OpRegistry& registry);

// One registration function per op file.
void register_damage_op(OpRegistry& registry);
void register_armor_op(OpRegistry& registry);
void register_draw_op(OpRegistry& registry);
void register_discard_op(OpRegistry& registry);
void register_exhaust_op(OpRegistry& registry);
void register_gain_energy_op(OpRegistry& registry);
void register_heal_op(OpRegistry& registry);
void register_lose_hp_op(OpRegistry& registry);
void register_apply_status_op(OpRegistry& registry);
void register_add_card_op(OpRegistry& registry);
void register_cost_rule_op(OpRegistry& registry);
void register_delayed_op(OpRegistry& registry);
void register_hook_op(OpRegistry& registry);
void register_choice_op(OpRegistry& registry);
void register_conditional_op(OpRegistry& registry);
void register_repeat_op(OpRegistry& registry);
void register_for_each_enemy_op(OpRegistry& registry);
void register_end_turn_op(OpRegistry& registry);
void register_extra_turn_op(OpRegistry& registry);
void register_skip_turns_op(OpRegistry& registry);
void register_put_on_draw_pile_op(OpRegistry& registry);
void register_put_in_hand_op(OpRegistry& registry);
void register_scry_op(OpRegistry& registry);
void register_upgrade_op(OpRegistry& registry);

}  // namespace battlecore::deckbuilder::detail
