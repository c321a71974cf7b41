#pragma once
/// What every rule set's recorded runs share (`battlecore sim --record DIR`, `--record-failures`,
/// `--scenario FILE`, `battlecore play --record FILE`; docs/determinism.md#recording), generic
/// over a rule-set adapter R (battlecore/sim/deckbuilder_rules.hpp, clash_rules.hpp).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/decision.hpp"
#include "battlecore/core/invariant.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

struct RecordConfig {
  std::filesystem::path dir;   ///< where replays go; empty: no recording
  bool failures_only = false;  ///< record only the battles that hit an engine error
  nlohmann::json scenario;     ///< a scenario document every battle starts from, or null
};

/// The file name of battle `index`'s replay: battle-000042.json.
std::string replay_file_name(std::uint64_t index);

/// The encounter a run plays: the scenario's when it names one, else `encounter`, else the
/// pack's default; an error when there is none or the pack does not have it.
template <class Catalog>
Result<std::string> run_encounter(const Catalog& catalog, std::string encounter,
                                  const nlohmann::json& scenario) {
  if (const auto it = scenario.is_object() ? scenario.find("encounter") : scenario.end();
      it != scenario.end() && it->is_string())
    encounter = it->get<std::string>();
  if (encounter.empty()) {
    if (!catalog.pack.default_encounter)
      return Error{"the pack names no default encounter; pass --encounter ID"};
    encounter = catalog.encounters[*catalog.pack.default_encounter].id;
  }
  if (!catalog.find_encounter(encounter))
    return Error{fmt::format("no encounter '{}' in pack '{}'", encounter, catalog.pack.id)};
  return encounter;
}

/// One battle of run_recorded, as the caller's tally sees it.
template <class Battle>
struct RecordedBattle {
  std::uint64_t index = 0;
  std::uint64_t seed = 0;                   ///< the battle's seed
  const Battle* battle = nullptr;           ///< the battle as it ended (null when it broke while starting)
  std::uint64_t decisions = 0;              ///< decisions taken
  std::optional<std::string> engine_error;  ///< the InvariantError that stopped it
};

/// Plays `battles` battles of `encounter` (from `record.scenario` when given): battle i with
/// seed battle_seed(seed, i) and the policy reset to policy_seed(that seed), every decision the
/// policy's. `tally` sees every battle; replays are written into `record.dir` (created when
/// missing) per battle, or per failed battle with `failures_only`. A battle that breaks while
/// starting has no action to replay: it is tallied, not recorded.
template <class R, class Policy, class PolicySeed, class Tally>
Result<void> run_recorded(const std::shared_ptr<const typename R::Catalog>& catalog,
                          const std::string& encounter, std::uint64_t battles, std::uint64_t seed,
                          Policy& policy, PolicySeed policy_seed, const RecordConfig& record, Tally tally) {
  using Battle = typename R::Battle;
  if (!record.dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(record.dir, ec);
    if (ec) return Error{fmt::format("cannot create directory '{}': {}", record.dir.string(), ec.message())};
  }
  std::vector<typename R::Action> options;
  for (std::uint64_t i = 0; i < battles; ++i) {
    const BattleStart start{encounter, battle_seed(seed, i), record.scenario};
    RecordedBattle<Battle> seen{i, start.seed, nullptr, 0, std::nullopt};
    std::optional<Battle> battle;
    try {
      auto started = R::start(catalog, start, {.event_log = false, .record_history = true});
      if (!started) return started.error();
      battle.emplace(std::move(started).value());
      policy.reset(policy_seed(start.seed));
      while (battle->status() == Status::AwaitingDecision) {
        battle->legal_actions(options);
        const std::size_t pick = policy.choose(*battle, options);
        ++seen.decisions;
        const auto applied = battle->submit(options[pick]);
        BATTLECORE_ENSURE(applied.ok(), "a legal option was refused: {}",
                          applied.ok() ? "" : R::refusal_text(applied.error()));
      }
    } catch (const InvariantError& e) {
      seen.engine_error = e.what();
    }
    seen.battle = battle ? &*battle : nullptr;
    tally(seen);
    if (!battle || record.dir.empty() || (record.failures_only && !seen.engine_error)) continue;
    auto replay = record_replay<R>(catalog, start, battle->actions());
    if (!replay)
      return Error{fmt::format("battle {}: cannot record its replay: {}", i, replay.error().message)};
    if (auto written = write_replay(record.dir / replay_file_name(i), replay.value()); !written)
      return written.error();
  }
  return {};
}

/// Writes the replay of a terminal session's battle to `path` when one is asked for
/// (`play --record FILE`): `code`, or 2 when the replay cannot be written.
template <class R>
int write_session_replay(const std::shared_ptr<const typename R::Catalog>& catalog, const BattleStart& start,
                         const typename R::Battle& battle, const std::string& path, int code,
                         std::ostream& out, std::ostream& err) {
  if (path.empty()) return code;
  auto replay = record_replay<R>(catalog, start, battle.actions());
  auto written = replay ? write_replay(path, replay.value()) : Result<void>(replay.error());
  if (!written) {
    err << "battlecore: " << written.error().message << "\n";
    return 2;
  }
  out << fmt::format("replay written to {}\n", path);
  return code;
}

}  // namespace battlecore::sim
