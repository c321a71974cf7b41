#pragma once
// Internal: what snapshots and scenarios may touch inside a Battle.

#include <memory>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder::detail {

struct BattleIo {
  static nlohmann::json snapshot(const Battle& b);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j);
  /// The rules state of a battle, writable (scenario overrides).
  static BattleState& state(Battle& b) { return b.state_; }
  /// Leaves no battle in progress (the phase back to None, as in a new battle), so that another
  /// can start: a scenario start that does not fit its seed.
  static void stop(Battle& b) { b.driver_.reset(); }
};

}  // namespace battlecore::deckbuilder::detail
