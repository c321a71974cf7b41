#pragma once
// Internal: what snapshots and scenarios may touch inside a clash Battle.

#include <memory>

#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash::detail {

struct BattleIo {
  static nlohmann::json snapshot(const Battle& b);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j);
  /// The rules state of a battle, writable (scenario overrides).
  static BattleState& state(Battle& b) { return b.state_; }
  /// start_battle up to the first move (scenarios apply their overrides then).
  static void set_up(Battle& b, EncounterId encounter, std::uint64_t seed) { b.set_up(encounter, seed); }
  /// Replaces the set-up state with `s` and begins the first turn of its turn order.
  static void begin(Battle& b, const BattleState& s);
};

}  // namespace battlecore::clash::detail
