#pragma once
/// Snapshots of a deckbuilder battle: the whole battle as JSON, and back
/// (docs/determinism.md#snapshots). A restored battle equals the original field by field, has
/// the same state_hash() and continues identically.

#include <cstdint>
#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

inline constexpr std::string_view kSnapshotFormat = "battlecore-snapshot";
/// Version of the deckbuilder snapshot format; a snapshot of another version is refused.
inline constexpr std::uint32_t kSnapshotFormatVersion = 1;

/// The whole battle: phase, move counter and transition history, every pile and counter,
/// statuses, hooks, delayed triggers, the effect frames (an effect paused on a Choice), the
/// pending Choice and reward, the RNG streams, the action list, the event log, the queued
/// trigger and the bookkeeping options. Card, status, enemy, hook and encounter definitions are
/// named by id; effect positions are indices into the catalog's compiled ops, which the
/// content hash pins.
nlohmann::json snapshot(const Battle& battle);

/// Rebuilds a battle from a snapshot made with the same content. Refuses, saying why, a
/// snapshot of another format or version, of other content, or with a field that is missing,
/// of the wrong type or out of range (its JSON pointer is named).
Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const nlohmann::json& snapshot);

}  // namespace battlecore::deckbuilder
