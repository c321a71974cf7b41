#pragma once
// Internal: what snapshots and scenarios may touch inside a party Battle.

#include <memory>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/party/battle.hpp"

namespace battlecore::party::detail {

struct BattleIo {
  static nlohmann::json snapshot(const Battle& b);
  static Result<Battle> restore(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j);
  /// The rules state of a battle, writable (scenario overrides).
  static BattleState& state(Battle& b) { return b.state_; }
};

}  // namespace battlecore::party::detail
