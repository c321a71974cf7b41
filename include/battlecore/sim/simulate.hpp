#pragma once
/// Batch simulation: play many seeded battles with a policy and report what they show.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::sim {

/// What to simulate.
struct SimConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  std::string policy = "random";
};

/// A battle that broke an engine invariant: enough to replay it.
struct SimFailure {
  std::uint64_t index;
  std::uint64_t battle_seed;
  std::string message;
};

/// The outcome of a run. Everything but the timing depends only on the content and config.
struct SimReport {
  std::string rules;
  std::string encounter;
  std::string policy;
  std::uint64_t battles = 0;
  std::uint64_t seed = 0;
  std::uint64_t wins = 0;
  std::uint64_t turns = 0;      ///< player turns begun, summed over battles
  std::uint64_t decisions = 0;  ///< choices made by the policy, forced ones included
  std::uint64_t hp_left_on_wins = 0;
  std::vector<SimFailure> failures;
  double elapsed_s = 0;

  double win_rate() const { return battles ? double(wins) / double(battles) : 0.0; }
  double mean_turns() const { return battles ? double(turns) / double(battles) : 0.0; }
  double mean_decisions() const { return battles ? double(decisions) / double(battles) : 0.0; }
  /// The report as one JSON object (keys: rules, encounter, battles, seed, policy, wins, win_rate,
  /// mean_turns, decisions, mean_decisions, mean_hp_left_on_wins, errors, elapsed_s,
  /// battles_per_s, decisions_per_s).
  nlohmann::json to_json() const;
  /// The report as aligned `key value` lines.
  std::string to_text() const;
};

/// The per-battle policy seed, derived from the battle's seed.
std::uint64_t policy_seed(std::uint64_t battle_seed);

/// Plays `config.battles` deckbuilder battles: battle i uses battle_seed(config.seed, i).
Result<SimReport> simulate_deckbuilder(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                       const SimConfig& config);

}  // namespace battlecore::sim
