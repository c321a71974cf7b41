#pragma once
/// Scenarios: a clash battle started from a stated position (docs/determinism.md#scenarios,
/// docs/clash.md#scenarios). The encounter is set up as usual with the scenario's seed (hands
/// dealt, turn order shuffled, seats on their rocks), then the overrides replace what they name
/// (round, turn order, each seat's health, rock and hand), and the first turn of the order begins.

#include <cstdint>
#include <memory>
#include <optional>

#include "battlecore/clash/battle.hpp"
#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash {

inline constexpr std::uint32_t kScenarioFormatVersion = 1;

/// Starts the battle a scenario document describes. `seed`, when given, replaces the
/// scenario's seed (batch simulation gives each battle its own). Every bad override is
/// reported with its position and JSON pointer, in the content diagnostics style, and no
/// battle is returned.
Result<Battle, content::Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog,
                                                    const content::JsonDocument& scenario,
                                                    std::optional<std::uint64_t> seed = std::nullopt,
                                                    BattleOptions options = {});

}  // namespace battlecore::clash
