#pragma once
// The deckbuilder's effect ops: each op is one file in ops/ with a compile function (JSON
// parameters -> Op, every problem reported) and a handler, registered by one line in
// register_builtin_ops().

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::deckbuilder::detail {

/// Where an effect list lives: card effects run for the player, move effects for an enemy.
enum class EffectOwner : std::uint8_t { Card, Move };

/// What an op's compile function can resolve while the catalog is being loaded.
struct OpCompiler {
  const std::map<std::string, StatusId, std::less<>>& status_ids;
  EffectOwner owner;

  /// The op's "target" key (default `fallback`): chosen, self, all_enemies, random_enemy.
  OpTarget target(content::ObjectReader& r, OpTarget fallback) const;
  /// A required status id at `key`; a dangling id is reported.
  std::optional<StatusId> status(content::ObjectReader& r, std::string_view key) const;
};

/// One op kind.
struct OpSpec {
  std::string_view name;     ///< the "op" value in content
  std::string_view summary;  ///< one line for docs and `battlecore list`
  /// Reads the op's parameters into `op` (code and target excluded); false when invalid.
  bool (*compile)(const OpCompiler&, content::ObjectReader&, Op&);
  OpHandler handler;
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
void register_apply_status_op(OpRegistry& registry);

}  // namespace battlecore::deckbuilder::detail
