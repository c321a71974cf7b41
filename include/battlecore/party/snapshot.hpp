#pragma once
/// Snapshots of a party battle: the whole battle as JSON, and back
/// (docs/determinism.md#snapshots, docs/party.md#snapshots). A restored battle equals the
/// original field by field, has the same state_hash() and continues identically, including a
/// battle paused on a member's turn, the companion's turn or a Block decision.

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/party/battle.hpp"

namespace battlecore::party {

/// Version of the party snapshot format; a snapshot of another version is refused.
inline constexpr std::uint32_t kSnapshotFormatVersion = 1;

/// The whole battle: phase, move counter, transition history and queued trigger; members
/// (HP, counters, exhaustion, charge, conditions), TP, items, the formation, active enemies
/// and reserves, projectiles, the select cycle and the selected member, the companion and
/// ally flags, the enemy action cursor (with a pending Block decision and its roll), the turn
/// and inaction counters, the RNG streams, the action list, the event log and the
/// bookkeeping options. Definitions are named by id.
nlohmann::json snapshot(const Battle& battle);

/// Rebuilds a battle from a snapshot made with the same content. Refuses, saying why, a
/// snapshot of another format or version, of other content, or with a field that is missing,
/// of the wrong type or out of range (its JSON pointer is named).
Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const nlohmann::json& snapshot);

}  // namespace battlecore::party
