#include "battlecore/sim/recording.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/play_session.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

using namespace deckbuilder;

std::string replay_file_name(std::uint64_t index) { return fmt::format("battle-{:06}.json", index); }

Result<SimReport> simulate_deckbuilder_recorded(const std::shared_ptr<const Catalog>& catalog,
                                                const SimConfig& config, const RecordConfig& record) {
  using R = DeckbuilderRules;
  auto encounter = run_encounter(*catalog, config.encounter, record.scenario);
  if (!encounter) return encounter.error();
  auto policy = make_policy(config.policy);
  if (!policy) return policy.error();
  SimReport report;
  report.rules = std::string(R::kName);
  report.encounter = encounter.value();
  report.policy = config.policy;
  report.battles = config.battles;
  report.seed = config.seed;
  const auto t0 = std::chrono::steady_clock::now();
  auto run =
      run_recorded<R>(catalog, encounter.value(), config.battles, config.seed, *policy.value(), policy_seed,
                      record, [&](const RecordedBattle<Battle>& b) {
                        report.decisions += b.decisions;
                        if (b.engine_error) {
                          report.failures.push_back(SimFailure{b.index, b.seed, *b.engine_error,
                                                               config.policy, nlohmann::json::array()});
                          return;
                        }
                        report.turns += b.battle->state().player_turns;
                        if (b.battle->won()) {
                          ++report.wins;
                          report.hp_left_on_wins += static_cast<std::uint64_t>(b.battle->state().player.hp);
                        }
                      });
  if (!run) return run.error();
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

Result<clash::SimReport> simulate_clash_recorded(const std::shared_ptr<const clash::Catalog>& catalog,
                                                 const clash::SimConfig& config, const RecordConfig& record) {
  auto encounter = run_encounter(*catalog, config.encounter, record.scenario);
  if (!encounter) return encounter.error();
  auto policy = clash::make_policy(config.policy);
  if (!policy) return policy.error();
  clash::SimReport report(catalog->encounters[*catalog->find_encounter(encounter.value())], config);
  const auto t0 = std::chrono::steady_clock::now();
  auto run = run_recorded<ClashRules>(
      catalog, encounter.value(), config.battles, config.seed, *policy.value(), clash::policy_seed, record,
      [&](const RecordedBattle<clash::Battle>& b) {
        report.decisions += b.decisions;
        if (b.engine_error)
          report.failures.push_back(clash::SimFailure{b.index, b.seed, *b.engine_error});
        else
          report.tally(*b.battle);
      });
  if (!run) return run.error();
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

int play_clash(const std::shared_ptr<const clash::Catalog>& catalog, const clash::PlayConfig& config,
               std::istream& in, std::ostream& out, std::ostream& err, const std::string& record,
               const nlohmann::json& scenario) {
  auto encounter = run_encounter(*catalog, config.encounter, scenario);
  if (!encounter) {
    err << "battlecore: " << encounter.error().message << "\n";
    return 2;
  }
  const BattleStart start{encounter.value(), config.seed, scenario};
  auto started = ClashRules::start(catalog, start);
  if (!started) {
    err << "battlecore: " << started.error().message << "\n";
    return 2;
  }
  const int code = clash::play_battle(started.value(), config, in, out, err);
  return write_session_replay<ClashRules>(catalog, start, started.value(), record, code, out, err);
}

}  // namespace battlecore::sim
