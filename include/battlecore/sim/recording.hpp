#pragma once
/// Batch simulation that records replays or starts from a scenario (`battlecore sim --record
/// DIR`, `--record-failures`, `--scenario FILE`). Battle i uses battle_seed(config.seed, i) and
/// its policy policy_seed(battle seed), as sim::simulate_deckbuilder does, so the same run
/// seed plays the same battles with or without recording.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/sim/simulate.hpp"

namespace battlecore::sim {

struct RecordConfig {
  std::filesystem::path dir;   ///< where replays go; empty: no recording
  bool failures_only = false;  ///< record only the battles that hit an engine error
  nlohmann::json scenario;     ///< a scenario document every battle starts from, or null
};

/// The file name of battle `index`'s replay: battle-000042.json.
std::string replay_file_name(std::uint64_t index);

/// Plays `config.battles` battles like simulate_deckbuilder, starting each from the scenario
/// when one is given (with the battle's own seed) and writing a replay per battle (or per
/// failed battle) into `record.dir`, which is created when missing.
Result<SimReport> simulate_deckbuilder_recorded(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                                const SimConfig& config, const RecordConfig& record);

}  // namespace battlecore::sim
