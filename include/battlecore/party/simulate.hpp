#pragma once
/// Batch simulation of party battles, and a terminal session for a human player.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/party/catalog.hpp"
#include "battlecore/party/policies.hpp"

namespace battlecore::party {

class Battle;

/// What to simulate.
struct SimConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  std::string policy = "random";
  BlockSkill block;  ///< how the policy answers Block decisions
  /// A scenario document every battle starts from (with the battle's own seed), or null
  /// (docs/party.md#scenarios). Its encounter, when it names one, wins over `encounter`.
  nlohmann::json scenario;
  /// Called after each battle that started (`failed`: it raised an engine error, and its action
  /// list ends with the action that raised it) with its index and seed; when set, battles keep
  /// their action list. An error stops the run (`sim --record`).
  std::function<Result<void>(std::uint64_t index, std::uint64_t seed, const Battle& battle, bool failed)>
      after_battle;
};

/// A battle that broke an engine invariant: enough to replay it.
struct SimFailure {
  std::uint64_t index;
  std::uint64_t battle_seed;
  std::string message;
};

/// The outcome of a run. Everything but the timing depends only on the content and config.
struct SimReport {
  std::string encounter;
  std::string policy;
  std::uint64_t battles = 0;
  std::uint64_t seed = 0;
  std::uint64_t wins = 0;
  std::uint64_t defeats = 0;
  std::uint64_t fled = 0;
  std::uint64_t turns = 0;      ///< main turns begun, summed over battles
  std::uint64_t decisions = 0;  ///< choices made by the policy, forced ones and blocks included
  std::uint64_t hp_left = 0;    ///< the party's HP at the end, summed over battles
  std::uint64_t hp_left_on_wins = 0;
  BlockSkill block;
  std::vector<SimFailure> failures;
  double elapsed_s = 0;

  double win_rate() const { return battles ? double(wins) / double(battles) : 0.0; }
  double mean_turns() const { return battles ? double(turns) / double(battles) : 0.0; }
  double mean_decisions() const { return battles ? double(decisions) / double(battles) : 0.0; }
  double mean_hp_left() const { return battles ? double(hp_left) / double(battles) : 0.0; }
  /// One JSON object with the deckbuilder's keys where they apply (rules, encounter, battles,
  /// seed, policy, wins, win_rate, mean_turns, decisions, mean_decisions, mean_hp_left_on_wins,
  /// errors, elapsed_s, battles_per_s, decisions_per_s) plus defeats, fled, flee_rate,
  /// mean_hp_left, block_percent, super_block_percent.
  nlohmann::json to_json() const;
  /// The report as aligned `key value` lines.
  std::string to_text() const;
};

/// The per-battle policy seed, derived from the battle's seed.
std::uint64_t policy_seed(std::uint64_t battle_seed);

/// Plays `config.battles` battles: battle i uses battle_seed(config.seed, i).
Result<SimReport> simulate(const std::shared_ptr<const Catalog>& catalog, const SimConfig& config);

/// A human plays one battle on `in` / `out`: the state, numbered options (member actions,
/// companion actions and blocks), `help`, `history`, `log [N]`, `state`, `json`, `quit`.
/// Returns 0 when the battle ended or the player quit, 2 when it could not start.
int play(const std::shared_ptr<const Catalog>& catalog, const std::string& encounter, std::uint64_t seed,
         std::istream& in, std::ostream& out, std::ostream& err);
/// The same session on a battle already started (a scenario's, or one to be recorded): it
/// ends when the battle is over, the player quits or the input ends. Returns 0.
int play(Battle& battle, std::istream& in, std::ostream& out);

}  // namespace battlecore::party
