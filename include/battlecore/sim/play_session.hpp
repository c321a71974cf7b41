#pragma once
/// A human plays a battle in a terminal, with --record and --scenario: the deckbuilder's session
/// (the state, numbered legal actions, `help`, `history`, `log`, `state`, `quit`; bad input is
/// answered, never fatal) and the clash's.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "battlecore/clash/play_session.hpp"
#include "battlecore/core/play_input.hpp"
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::sim {

struct PlayConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t seed = 1;
};

/// Determinism options of a session (docs/determinism.md).
struct PlayRecording {
  std::string record;         ///< when set, the battle's replay is written here when the session ends
  nlohmann::json scenario;    ///< a scenario document to start from, or null
  std::string scenario_file;  ///< where the scenario came from, named on the start line
};

/// Runs the session on `in` / `out` until the battle ends, `quit`, end of input or interrupt.
/// Returns 0 when the battle ended or the player left, 2 when it could not start (or the
/// replay could not be written).
int play_deckbuilder(const std::shared_ptr<const deckbuilder::Catalog>& catalog, const PlayConfig& config,
                     PlayInput in, std::ostream& out, std::ostream& err, const PlayRecording& recording = {});

/// The clash's session (clash::play_battle) on the encounter or the scenario; the replay is
/// written when `recording.record` asks for one, whichever way the session ends. The exit code of
/// the session, or 2 when the battle cannot start or the replay cannot be written.
int play_clash(const std::shared_ptr<const clash::Catalog>& catalog, const clash::PlayConfig& config,
               PlayInput in, std::ostream& out, std::ostream& err, const PlayRecording& recording = {});

}  // namespace battlecore::sim
