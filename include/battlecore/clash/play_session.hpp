#pragma once
/// A human plays a clash battle in a terminal: roll, pick a rock, pick a card, and see the
/// referee's duels. Every human seat is asked at the terminal; bot seats are played by a policy.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/core/play_input.hpp"

namespace battlecore::clash {

struct PlayConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t seed = 1;
  std::string bot_policy = "random";
  std::string scenario_file;  ///< the file of the scenario the battle starts from, named on the start line
};

/// Runs the session on `in` / `out` until the battle ends, `quit`, end of input or interrupt.
/// Returns 0 when the battle ended or the player left, 2 when it could not start.
int play(const std::shared_ptr<const Catalog>& catalog, const PlayConfig& config, PlayInput in,
         std::ostream& out, std::ostream& err);

class Battle;

/// The session on a battle already started (a scenario, or a recorded session whose caller
/// writes the replay from `battle` afterwards); `config.encounter` is not read.
int play_battle(Battle& battle, const PlayConfig& config, PlayInput in, std::ostream& out, std::ostream& err);

}  // namespace battlecore::clash
