#pragma once
// One handler per phase. A handler is re-entrant: each call looks at the state and does the
// first applicable step of its phase (the original's per-frame Update), until it needs a
// decision (returns nothing with the decision pending), or the phase is done (returns the
// trigger it asks for), or the phase is terminal (returns nothing).

#include <optional>

#include "party/mechanics.hpp"

namespace battlecore::party::detail {

std::optional<Trigger> run_battle_start(Ctx& x);
std::optional<Trigger> run_first_strike(Ctx& x);
std::optional<Trigger> run_player_phase(Ctx& x, bool entering);
std::optional<Trigger> run_enemy_phase(Ctx& x);
std::optional<Trigger> run_turn_end(Ctx& x);
/// Victory, Defeat and Fled: BattleEnded on entry.
std::optional<Trigger> run_battle_end(Ctx& x, Phase phase, bool entering);

/// Dispatches to the handler of `phase`; `entering` is true on the first call after a move.
std::optional<Trigger> run_phase(Ctx& x, Phase phase, bool entering);

}  // namespace battlecore::party::detail
