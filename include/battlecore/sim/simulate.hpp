#pragma once
/// Batch simulation of the deckbuilder: play many seeded battles with a policy and report what
/// they show. A thin layer over the generic runner (runner.hpp) with the deckbuilder's adapter.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/report.hpp"

namespace battlecore::sim {

/// What to simulate.
struct SimConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  std::string policy = "random";
  std::string versus_policy{};  ///< non-empty: paired A/B against this policy on the same seeds
  unsigned threads = 1;
  std::uint32_t shard_index = 1;  ///< run only shard shard_index of shard_count
  std::uint32_t shard_count = 1;
  deckbuilder::PolicyOptions policy_options{};
  /// Count the damage each enemy deals. It needs the battle's events, which are otherwise never
  /// built; off, the enemy table keeps its battle counts and its damage columns stay 0.
  bool count_enemy_damage = true;
  /// Called about ten times a second while the run goes on (see RunOptions::progress).
  std::function<void(std::uint64_t done, std::uint64_t total, double elapsed_s)> progress{};
};

/// The per-battle policy seed, derived from the battle's seed.
std::uint64_t policy_seed(std::uint64_t battle_seed);

/// Plays the battles of `config`: battle i uses battle_seed(config.seed, i), whatever the thread
/// count or the shard.
Result<SimReport> simulate_deckbuilder(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                       const SimConfig& config);

}  // namespace battlecore::sim
