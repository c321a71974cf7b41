#include "battlecore/sim/simulate.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/policies.hpp"

namespace battlecore::sim {

std::uint64_t policy_seed(std::uint64_t battle_seed) {
  return splitmix64_mix(battle_seed ^ 0x706f6c6963790000ull);
}

nlohmann::json SimReport::to_json() const {
  nlohmann::json errors = nlohmann::json::array();
  for (const SimFailure& f : failures)
    errors.push_back({{"index", f.index}, {"battle_seed", f.battle_seed}, {"message", f.message}});
  return {{"rules", rules},
          {"encounter", encounter},
          {"battles", battles},
          {"seed", seed},
          {"policy", policy},
          {"wins", wins},
          {"win_rate", win_rate()},
          {"mean_turns", mean_turns()},
          {"decisions", decisions},
          {"mean_decisions", mean_decisions()},
          {"mean_hp_left_on_wins", wins ? double(hp_left_on_wins) / double(wins) : 0.0},
          {"errors", errors},
          {"elapsed_s", elapsed_s},
          {"battles_per_s", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0},
          {"decisions_per_s", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0}};
}

std::string SimReport::to_text() const {
  std::string out;
  out += fmt::format("rules           {}\n", rules);
  out += fmt::format("encounter       {}\n", encounter);
  out += fmt::format("policy          {}\n", policy);
  out += fmt::format("battles         {}\n", battles);
  out += fmt::format("seed            {}\n", seed);
  out += fmt::format("wins            {}\n", wins);
  out += fmt::format("win_rate        {:.4f}\n", win_rate());
  out += fmt::format("mean_turns      {:.4f}\n", mean_turns());
  out += fmt::format("decisions       {}\n", decisions);
  out += fmt::format("mean_decisions  {:.4f}\n", mean_decisions());
  out += fmt::format("errors          {}\n", failures.size());
  for (const SimFailure& f : failures)
    out += fmt::format("  battle {} (battle seed {}): {}\n", f.index, f.battle_seed, f.message);
  out += fmt::format("elapsed_s       {:.3f}\n", elapsed_s);
  out += fmt::format("battles_per_s   {:.0f}\n", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0);
  out += fmt::format("decisions_per_s {:.0f}\n", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0);
  return out;
}

Result<SimReport> simulate_deckbuilder(const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                       const SimConfig& config) {
  using namespace deckbuilder;
  std::optional<EncounterId> encounter;
  if (config.encounter.empty()) {
    encounter = catalog->pack.default_encounter;
    if (!encounter) return Error{"the pack names no default encounter; pass --encounter ID"};
  } else {
    encounter = catalog->find_encounter(config.encounter);
    if (!encounter)
      return Error{fmt::format("no encounter '{}' in pack '{}'", config.encounter, catalog->pack.id)};
  }
  auto policy = make_policy(config.policy);
  if (!policy) return policy.error();

  SimReport report;
  report.rules = "deckbuilder";
  report.encounter = catalog->encounters[*encounter].id;
  report.policy = config.policy;
  report.battles = config.battles;
  report.seed = config.seed;

  const BattleOptions quiet{.event_log = false, .record_history = false};
  Battle battle(catalog, quiet);
  std::vector<Action> options;
  options.reserve(64);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < config.battles; ++i) {
    const std::uint64_t seed = battle_seed(config.seed, i);
    try {
      policy.value()->reset(policy_seed(seed));
      auto started = battle.start_battle(*encounter, seed);
      if (!started) return started.error();
      while (battle.status() == Status::AwaitingDecision) {
        battle.legal_actions(options);
        const std::size_t pick = policy.value()->choose(battle, options);
        ++report.decisions;
        const auto applied = battle.submit(options[pick]);
        BATTLECORE_ENSURE(applied.ok(), "a legal option was refused: {}",
                          applied.ok() ? "" : applied.error().message);
      }
      report.turns += battle.state().player_turns;
      if (battle.won()) {
        ++report.wins;
        report.hp_left_on_wins += static_cast<std::uint64_t>(battle.state().player.hp);
      }
    } catch (const InvariantError& e) {
      report.failures.push_back(SimFailure{i, seed, e.what()});
      battle = Battle(catalog, quiet);  // start the next battle from a clean object
    }
  }
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace battlecore::sim
