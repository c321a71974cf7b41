#pragma once
// One handler per phase; each runs the seed's ordered steps and returns the trigger it asks
// the machine for, or nothing when the phase waits for a decision (or is terminal).

#include <array>
#include <optional>

#include "deckbuilder/mechanics.hpp"

namespace battlecore::deckbuilder::detail {

std::optional<Trigger> run_initialize(Ctx& x);
std::optional<Trigger> run_player_turn_start(Ctx& x);
std::optional<Trigger> run_player_phase(Ctx& x);
std::optional<Trigger> run_player_turn_end(Ctx& x);
std::optional<Trigger> run_enemy_phase(Ctx& x);
std::optional<Trigger> run_battle_won(Ctx& x);
std::optional<Trigger> run_battle_lost(Ctx& x);

/// The handler of each phase, by Phase.
using PhaseHandler = std::optional<Trigger> (*)(Ctx& x);
extern const std::array<PhaseHandler, Machine::kPhaseNames.size()> kPhaseHandlers;

/// Dispatches to the handler of `phase` (a phase of the machine): one indirect call, made at
/// every transition.
inline std::optional<Trigger> run_phase(Ctx& x, Phase phase) {
  return kPhaseHandlers[static_cast<std::size_t>(phase)](x);
}

}  // namespace battlecore::deckbuilder::detail
