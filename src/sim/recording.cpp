#include "battlecore/sim/recording.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

using namespace deckbuilder;

std::string replay_file_name(std::uint64_t index) { return fmt::format("battle-{:06}.json", index); }

Result<SimReport> simulate_deckbuilder_recorded(const std::shared_ptr<const Catalog>& catalog,
                                                const SimConfig& config, const RecordConfig& record) {
  using R = DeckbuilderRules;
  std::string encounter = config.encounter;
  if (!record.scenario.is_null()) {
    if (const auto it = record.scenario.find("encounter"); it != record.scenario.end() && it->is_string())
      encounter = it->get<std::string>();
  }
  if (encounter.empty()) {
    if (!catalog->pack.default_encounter)
      return Error{"the pack names no default encounter; pass --encounter ID"};
    encounter = catalog->encounters[*catalog->pack.default_encounter].id;
  }
  if (!catalog->find_encounter(encounter))
    return Error{fmt::format("no encounter '{}' in pack '{}'", encounter, catalog->pack.id)};
  auto policy = make_policy(config.policy);
  if (!policy) return policy.error();
  if (!record.dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(record.dir, ec);
    if (ec) return Error{fmt::format("cannot create directory '{}': {}", record.dir.string(), ec.message())};
  }

  SimReport report;
  report.rules = std::string(R::kName);
  report.encounter = encounter;
  report.policy = config.policy;
  report.battles = config.battles;
  report.seed = config.seed;
  std::vector<Action> options;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < config.battles; ++i) {
    const BattleStart start{encounter, battle_seed(config.seed, i), record.scenario};
    const BattleOptions bookkeeping{.event_log = false, .record_history = true};
    std::optional<Battle> battle;
    bool failed = false;
    try {
      auto started = R::start(catalog, start, bookkeeping);
      if (!started) return started.error();
      battle.emplace(std::move(started).value());
      policy.value()->reset(policy_seed(start.seed));
      while (battle->status() == Status::AwaitingDecision) {
        battle->legal_actions(options);
        const std::size_t pick = policy.value()->choose(*battle, options);
        ++report.decisions;
        const auto applied = battle->submit(options[pick]);
        BATTLECORE_ENSURE(applied.ok(), "a legal option was refused: {}",
                          applied.ok() ? "" : applied.error().message);
      }
      report.turns += battle->state().player_turns;
      if (battle->won()) {
        ++report.wins;
        report.hp_left_on_wins += static_cast<std::uint64_t>(battle->state().player.hp);
      }
    } catch (const InvariantError& e) {
      report.failures.push_back(SimFailure{i, start.seed, e.what(), config.policy, nlohmann::json::array()});
      failed = true;
    }
    // A battle that broke while starting has no action to replay: it is listed, not recorded.
    if (!battle) continue;
    if (record.dir.empty() || (record.failures_only && !failed)) continue;
    auto replay = record_replay<R>(catalog, start, battle->actions());
    if (!replay)
      return Error{fmt::format("battle {}: cannot record its replay: {}", i, replay.error().message)};
    if (auto written = write_replay(record.dir / replay_file_name(i), replay.value()); !written)
      return written.error();
  }
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace battlecore::sim
