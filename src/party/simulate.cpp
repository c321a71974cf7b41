#include "battlecore/party/simulate.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/party/battle.hpp"
#include "battlecore/party/scenario.hpp"

namespace battlecore::party {

std::uint64_t policy_seed(std::uint64_t battle_seed) {
  return splitmix64_mix(battle_seed ^ 0x706f6c6963790000ull);
}

nlohmann::json SimReport::to_json() const {
  nlohmann::json errors = nlohmann::json::array();
  for (const SimFailure& f : failures)
    errors.push_back({{"index", f.index}, {"battle_seed", f.battle_seed}, {"message", f.message}});
  return {{"rules", "party"},
          {"encounter", encounter},
          {"battles", battles},
          {"seed", seed},
          {"policy", policy},
          {"wins", wins},
          {"win_rate", win_rate()},
          {"defeats", defeats},
          {"fled", fled},
          {"flee_rate", battles ? double(fled) / double(battles) : 0.0},
          {"mean_turns", mean_turns()},
          {"decisions", decisions},
          {"mean_decisions", mean_decisions()},
          {"mean_hp_left", mean_hp_left()},
          {"mean_hp_left_on_wins", wins ? double(hp_left_on_wins) / double(wins) : 0.0},
          {"block_percent", block.block_percent},
          {"super_block_percent", block.super_block_percent},
          {"errors", errors},
          {"elapsed_s", elapsed_s},
          {"battles_per_s", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0},
          {"decisions_per_s", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0}};
}

std::string SimReport::to_text() const {
  std::string out;
  out += fmt::format("rules                party\n");
  out += fmt::format("encounter            {}\n", encounter);
  out += fmt::format("policy               {}\n", policy);
  out +=
      fmt::format("block                {}% (super {}%)\n", block.block_percent, block.super_block_percent);
  out += fmt::format("battles              {}\n", battles);
  out += fmt::format("seed                 {}\n", seed);
  out += fmt::format("wins                 {}\n", wins);
  out += fmt::format("win_rate             {:.4f}\n", win_rate());
  out += fmt::format("defeats              {}\n", defeats);
  out += fmt::format("fled                 {}\n", fled);
  out += fmt::format("mean_turns           {:.4f}\n", mean_turns());
  out += fmt::format("mean_hp_left         {:.4f}\n", mean_hp_left());
  out += fmt::format("mean_hp_left_on_wins {:.4f}\n", wins ? double(hp_left_on_wins) / double(wins) : 0.0);
  out += fmt::format("decisions            {}\n", decisions);
  out += fmt::format("mean_decisions       {:.4f}\n", mean_decisions());
  out += fmt::format("errors               {}\n", failures.size());
  for (const SimFailure& f : failures)
    out += fmt::format("  battle {} (battle seed {}): {}\n", f.index, f.battle_seed, f.message);
  out += fmt::format("elapsed_s            {:.3f}\n", elapsed_s);
  out += fmt::format("battles_per_s        {:.0f}\n", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0);
  out += fmt::format("decisions_per_s      {:.0f}\n", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0);
  return out;
}

Result<SimReport> simulate(const std::shared_ptr<const Catalog>& catalog, const SimConfig& config) {
  std::optional<EncounterId> encounter;
  std::string encounter_id = config.encounter;
  if (config.scenario.is_object())
    if (const auto it = config.scenario.find("encounter"); it != config.scenario.end() && it->is_string())
      encounter_id = it->get<std::string>();
  if (encounter_id.empty()) {
    encounter = catalog->pack.default_encounter;
    if (!encounter) return Error{"the pack names no default encounter; pass --encounter ID"};
  } else {
    encounter = catalog->find_encounter(encounter_id);
    if (!encounter)
      return Error{fmt::format("no encounter '{}' in pack '{}'", encounter_id, catalog->pack.id)};
  }
  if (config.block.super_block_percent > config.block.block_percent || config.block.block_percent > 100)
    return Error{"block rates must satisfy super block <= block <= 100 percent"};
  auto policy = make_policy(config.policy, config.block);
  if (!policy) return policy.error();

  SimReport report;
  report.encounter = catalog->encounters[*encounter].id;
  report.policy = config.policy;
  report.battles = config.battles;
  report.seed = config.seed;
  report.block = config.block;

  const BattleOptions quiet{.event_log = false, .record_history = config.after_battle != nullptr};
  const content::JsonDocument scenario{"scenario", config.scenario.dump(2), config.scenario};
  Battle battle(catalog, quiet);
  std::vector<Action> options;
  options.reserve(64);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < config.battles; ++i) {
    const std::uint64_t seed = battle_seed(config.seed, i);
    bool started_ok = false;
    try {
      policy.value()->reset(policy_seed(seed));
      if (config.scenario.is_null()) {
        auto started = battle.start_battle(*encounter, seed);
        if (!started) return started.error();
      } else {
        auto started = start_scenario(catalog, scenario, seed, quiet);
        if (!started) return Error{"the scenario is refused:\n" + started.error().to_string()};
        battle = std::move(started).value();
      }
      started_ok = true;
      while (battle.status() == Status::AwaitingDecision) {
        battle.legal_actions(options);
        const std::size_t pick = policy.value()->choose(battle, options);
        ++report.decisions;
        const auto applied = battle.submit(options[pick]);
        BATTLECORE_ENSURE(applied.ok(), "a legal option was refused: {}",
                          applied.ok() ? "" : applied.error().message);
      }
      report.turns += battle.state().main_turns;
      std::uint64_t hp = 0;
      for (const MemberState& m : battle.state().members) hp += static_cast<std::uint64_t>(m.hp);
      report.hp_left += hp;
      if (battle.phase() == Phase::Victory) {
        ++report.wins;
        report.hp_left_on_wins += hp;
      } else if (battle.phase() == Phase::Fled) {
        ++report.fled;
      } else {
        ++report.defeats;
      }
      if (config.after_battle)
        if (auto done = config.after_battle(i, seed, battle, false); !done) return done.error();
    } catch (const InvariantError& e) {
      report.failures.push_back(SimFailure{i, seed, e.what()});
      // A battle that broke while starting has no action to replay.
      if (config.after_battle && started_ok)
        if (auto done = config.after_battle(i, seed, battle, true); !done) return done.error();
      battle = Battle(catalog, quiet);
    }
  }
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace battlecore::party
