#pragma once
/// Batch simulation of clash battles: every seat's decisions answered by one policy.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash {

class Battle;

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
  SimReport() = default;
  /// An empty report of a run of `config` on `encounter`: its seats named, no battle counted.
  SimReport(const EncounterDef& encounter, const SimConfig& config);
  /// Counts a battle that ended: its places, its winner (or a shared first place), its rounds.
  void tally(const Battle& battle);

  std::string encounter;
  std::string policy;
  std::uint64_t battles = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> seat_names;
  std::vector<std::string> seat_kinds;
  std::vector<std::uint64_t> wins;       ///< per seat: battles it ended first alone
  std::vector<std::uint64_t> place_sum;  ///< per seat: sum of its places
  std::uint64_t shared_first = 0;        ///< battles where two or more seats shared first place
  std::uint64_t rounds = 0;
  std::uint64_t decisions = 0;
  std::vector<SimFailure> failures;
  double elapsed_s = 0;

  double mean_place(std::size_t seat) const;
  /// One JSON object: rules, encounter, policy, battles, seed, seats, wins (object keyed by
  /// seat index), mean_place (same), shared_first, mean_rounds, decisions, mean_decisions,
  /// errors, elapsed_s, battles_per_s, decisions_per_s.
  nlohmann::json to_json() const;
  /// Aligned `key value` lines, one line per seat.
  std::string to_text() const;
};

/// The per-battle policy seed, derived from the battle's seed (as the deckbuilder's sim does).
std::uint64_t policy_seed(std::uint64_t battle_seed);

/// Plays `config.battles` battles: battle i uses battle_seed(config.seed, i).
Result<SimReport> simulate(const std::shared_ptr<const Catalog>& catalog, const SimConfig& config);

}  // namespace battlecore::clash
