#pragma once
/// A human plays a party battle in a terminal. Batch simulation is sim::simulate_party
/// (battlecore/sim/simulate.hpp).

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "battlecore/core/play_input.hpp"
#include "battlecore/party/catalog.hpp"

namespace battlecore::party {

class Battle;

/// A human plays one battle on `in` / `out`: the state, numbered options (member actions,
/// companion actions and blocks), `help`, `history`, `log [N]`, `state`, `json`, `quit`.
/// Returns 0 when the battle ended or the player left, 2 when it could not start.
int play(const std::shared_ptr<const Catalog>& catalog, const std::string& encounter, std::uint64_t seed,
         PlayInput in, std::ostream& out, std::ostream& err);
/// The same session on a battle already started (a scenario's, or one to be recorded): it
/// ends when the battle is over, the player quits, the input ends or is interrupted. Returns 0.
int play(Battle& battle, PlayInput in, std::ostream& out);

}  // namespace battlecore::party
