#pragma once
/// Batch simulation that records replays or starts from a scenario (`battlecore sim --record
/// DIR`, `--record-failures`, `--scenario FILE`). Battle i uses battle_seed(config.seed, i) and
/// its policy policy_seed(battle seed), as sim::simulate_deckbuilder does, so the same run
/// seed plays the same battles with or without recording.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "battlecore/clash/play_session.hpp"
#include "battlecore/clash/simulate.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/sim/recorded_run.hpp"
#include "battlecore/sim/simulate.hpp"

namespace battlecore::sim {

/// Plays `config.battles` battles like simulate_deckbuilder, starting each from the scenario
/// when one is given (with the battle's own seed) and writing a replay per battle (or per
/// failed battle) into `record.dir`, which is created when missing.
Result<SimReport> simulate_deckbuilder_recorded(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                                const SimConfig& config, const RecordConfig& record);

/// The same for the clash: battles like clash::simulate (battle i with battle_seed(config.seed,
/// i), every seat played by the policy reset to clash::policy_seed of it), from the scenario
/// when one is given, with a replay per battle (or per failed battle) in `record.dir`.
Result<clash::SimReport> simulate_clash_recorded(const std::shared_ptr<const clash::Catalog>& catalog,
                                                 const clash::SimConfig& config, const RecordConfig& record);

/// `battlecore play` for the clash with --record FILE and --scenario FILE: the terminal session
/// (clash::play_battle) on the encounter or the scenario, then the replay of the battle is
/// written when one is asked for (whichever way the session ends). The exit code of the session,
/// or 2 when the battle cannot start or the replay cannot be written.
int play_clash(const std::shared_ptr<const clash::Catalog>& catalog, const clash::PlayConfig& config,
               std::istream& in, std::ostream& out, std::ostream& err, const std::string& record,
               const nlohmann::json& scenario);

}  // namespace battlecore::sim
