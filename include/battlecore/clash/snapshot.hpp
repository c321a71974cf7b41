#pragma once
/// Snapshots of a clash battle: the whole battle as JSON, and back
/// (docs/determinism.md#snapshots, docs/clash.md#snapshots). A restored battle equals the
/// original field by field, has the same state_hash() and continues identically.

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash {

/// Version of the clash snapshot format; a snapshot of another version is refused.
inline constexpr std::uint32_t kSnapshotFormatVersion = 1;

/// The whole battle: phase, move counter and transition history, every seat (health, hand,
/// listed deck, rock, choice, place), the turn order, the round, the turn step with its roll and
/// offered rocks, the RNG streams, the action list, the event log, the queued trigger and the
/// bookkeeping options. The encounter is named by id.
nlohmann::json snapshot(const Battle& battle);

/// Rebuilds a battle from a snapshot made with the same content. Refuses, saying why, a
/// snapshot of another format or version, of another rule set or content, or with a field
/// that is missing, of the wrong type or out of range (its JSON pointer is named).
Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const nlohmann::json& snapshot);

}  // namespace battlecore::clash
