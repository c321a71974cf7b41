#pragma once
/// Scenarios: a deckbuilder battle started from a stated position (docs/determinism.md#scenarios).
/// The encounter starts as usual with the scenario's seed (the first turn is dealt), then the
/// overrides replace what they name: the piles, the player's and enemies' HP, armor and
/// statuses, energy, counters and the turn number.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
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

/// A scenario read once, to start many battles from it: what batch simulation does, battle i
/// with its own seed. Reading it checks it as start_scenario does (it starts one battle, with
/// the scenario's seed or `seed`); start() then applies the overrides already read, without the
/// document.
class ScenarioStart {
 public:
  static Result<ScenarioStart, content::Diagnostics> read(std::shared_ptr<const Catalog> catalog,
                                                          const content::JsonDocument& scenario,
                                                          std::optional<std::uint64_t> seed = std::nullopt);
  ScenarioStart(const ScenarioStart&);
  ScenarioStart& operator=(const ScenarioStart&);
  ~ScenarioStart();

  EncounterId encounter() const { return encounter_; }
  /// The seed the scenario was read with: its own, or the one read() was given.
  std::uint64_t seed() const { return seed_; }
  /// Starts `battle` (a battle of the content the scenario was read with, any options) from the
  /// scenario with `seed`: the battle start_scenario(catalog, document, seed, options) returns,
  /// and true. False, `battle` left as it was, when a battle is in progress in it
  /// (Battle::start_battle refuses it). False, `battle` left with no battle in progress, when that
  /// seed's start does not fit the overrides (an HP above the max HP an enemy rolled, say):
  /// start_scenario with that seed lists why.
  bool start(Battle& battle, std::uint64_t seed) const;
  /// Empty when start() fits every seed; otherwise which override fits some seeds only, and what
  /// to give instead: an enemy's HP above the lowest max HP it rolls, or a max HP below the
  /// highest (the HP starts at the max HP rolled). Batch simulation refuses such a scenario
  /// before the run.
  std::string fits_only_some_seeds() const;

 private:
  struct Overrides;
  friend Result<Battle, content::Diagnostics> start_scenario(std::shared_ptr<const Catalog>,
                                                             const content::JsonDocument&,
                                                             std::optional<std::uint64_t>, BattleOptions);
  ScenarioStart(std::shared_ptr<const Catalog> catalog, EncounterId encounter, std::uint64_t seed,
                std::shared_ptr<const Overrides> overrides);
  /// read(), starting `battle` from the scenario (moved from, on a problem).
  static Result<ScenarioStart, content::Diagnostics> read_into(std::shared_ptr<const Catalog> catalog,
                                                               const content::JsonDocument& scenario,
                                                               std::optional<std::uint64_t> seed,
                                                               Battle& battle);

  std::shared_ptr<const Catalog> catalog_;
  EncounterId encounter_ = 0;
  std::uint64_t seed_ = 0;
  std::shared_ptr<const Overrides> overrides_;  ///< immutable: copies share it
};

}  // namespace battlecore::deckbuilder
