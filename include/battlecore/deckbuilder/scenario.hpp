#pragma once
/// Scenarios: a deckbuilder battle started from a stated position (docs/determinism.md#scenarios).
/// The encounter starts as usual with the scenario's seed (the first turn is dealt), then the
/// overrides replace what they name: the piles, the player's and enemies' HP, armor and
/// statuses, energy, counters and the turn number.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

inline constexpr std::string_view kScenarioFormat = "battlecore-scenario";
inline constexpr std::uint32_t kScenarioFormatVersion = 1;

/// Starts the battle a scenario document describes. `seed`, when given, replaces the
/// scenario's seed (batch simulation gives each battle its own). Every bad override is
/// reported with its position and JSON pointer, in the content diagnostics style, and no
/// battle is returned.
Result<Battle, content::Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog,
                                                    const content::JsonDocument& scenario,
                                                    std::optional<std::uint64_t> seed = std::nullopt,
                                                    BattleOptions options = {});

}  // namespace battlecore::deckbuilder
