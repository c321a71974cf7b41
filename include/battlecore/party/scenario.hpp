#pragma once
/// Scenarios: a party battle started from a stated position (docs/party.md#scenarios,
/// docs/determinism.md#scenarios). The encounter starts as usual with the scenario's seed up to
/// the party's first decision, then the overrides replace what they name (members' HP,
/// counters, exhaustion, charge and conditions, TP, items, the formation, enemies' HP and
/// conditions, the turn and inaction counters) and the member selection runs again.

#include <cstdint>
#include <memory>
#include <optional>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/party/battle.hpp"

namespace battlecore::party {

inline constexpr std::uint32_t kScenarioFormatVersion = 1;

/// Starts the battle a scenario document describes. `seed`, when given, replaces the
/// scenario's seed. Every bad override is reported with its position and JSON pointer, in the
/// content diagnostics style, and no battle is returned.
Result<Battle, content::Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog,
                                                    const content::JsonDocument& scenario,
                                                    std::optional<std::uint64_t> seed = std::nullopt,
                                                    BattleOptions options = {});

}  // namespace battlecore::party
