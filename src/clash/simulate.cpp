#include "battlecore/clash/simulate.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/core/rng.hpp"

namespace battlecore::clash {

std::uint64_t policy_seed(std::uint64_t battle_seed) {
  return splitmix64_mix(battle_seed ^ 0x706f6c6963790000ull);
}

SimReport::SimReport(const EncounterDef& def, const SimConfig& config)
    : encounter(def.id), policy(config.policy), battles(config.battles), seed(config.seed) {
  for (const SeatDef& s : def.seats) {
    seat_names.push_back(s.name);
    seat_kinds.emplace_back(seat_kind_name(s.kind));
  }
  wins.assign(def.seats.size(), 0);
  place_sum.assign(def.seats.size(), 0);
}

void SimReport::tally(const Battle& battle) {
  std::size_t first = 0, winner = 0;
  for (std::size_t s = 0; s < battle.state().seats.size(); ++s) {
    const std::uint8_t place = battle.state().seats[s].place;
    place_sum[s] += place;
    if (place == 1) {
      ++first;
      winner = s;
    }
  }
  if (first == 1)
    ++wins[winner];
  else
    ++shared_first;
  rounds += battle.round();
}

double SimReport::mean_place(std::size_t seat) const {
  return battles && seat < place_sum.size() ? double(place_sum[seat]) / double(battles) : 0.0;
}

nlohmann::json SimReport::to_json() const {
  nlohmann::json errors = nlohmann::json::array();
  for (const SimFailure& f : failures)
    errors.push_back({{"index", f.index}, {"battle_seed", f.battle_seed}, {"message", f.message}});
  nlohmann::json seats = nlohmann::json::array(), win = nlohmann::json::object(),
                 place = nlohmann::json::object();
  for (std::size_t i = 0; i < wins.size(); ++i) {
    seats.push_back({{"seat", i}, {"name", seat_names[i]}, {"kind", seat_kinds[i]}});
    win[std::to_string(i)] = wins[i];
    place[std::to_string(i)] = mean_place(i);
  }
  return {{"rules", "clash"},
          {"encounter", encounter},
          {"policy", policy},
          {"battles", battles},
          {"seed", seed},
          {"seats", seats},
          {"wins", win},
          {"mean_place", place},
          {"shared_first", shared_first},
          {"mean_rounds", battles ? double(rounds) / double(battles) : 0.0},
          {"decisions", decisions},
          {"mean_decisions", battles ? double(decisions) / double(battles) : 0.0},
          {"errors", errors},
          {"elapsed_s", elapsed_s},
          {"battles_per_s", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0},
          {"decisions_per_s", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0}};
}

std::string SimReport::to_text() const {
  std::string out;
  out += fmt::format("rules           clash\n");
  out += fmt::format("encounter       {}\n", encounter);
  out += fmt::format("policy          {}\n", policy);
  out += fmt::format("battles         {}\n", battles);
  out += fmt::format("seed            {}\n", seed);
  out += fmt::format("seat  kind   wins      win_rate  mean_place  name\n");
  for (std::size_t i = 0; i < wins.size(); ++i)
    out += fmt::format("{:<5} {:<6} {:<9} {:<9.4f} {:<11.4f} {}\n", i, seat_kinds[i], wins[i],
                       battles ? double(wins[i]) / double(battles) : 0.0, mean_place(i), seat_names[i]);
  out += fmt::format("shared_first    {}\n", shared_first);
  out += fmt::format("mean_rounds     {:.4f}\n", battles ? double(rounds) / double(battles) : 0.0);
  out += fmt::format("decisions       {}\n", decisions);
  out += fmt::format("mean_decisions  {:.4f}\n", battles ? double(decisions) / double(battles) : 0.0);
  out += fmt::format("errors          {}\n", failures.size());
  for (const SimFailure& f : failures)
    out += fmt::format("  battle {} (battle seed {}): {}\n", f.index, f.battle_seed, f.message);
  out += fmt::format("elapsed_s       {:.3f}\n", elapsed_s);
  out += fmt::format("battles_per_s   {:.0f}\n", elapsed_s > 0 ? double(battles) / elapsed_s : 0.0);
  out += fmt::format("decisions_per_s {:.0f}\n", elapsed_s > 0 ? double(decisions) / elapsed_s : 0.0);
  return out;
}

Result<SimReport> simulate(const std::shared_ptr<const Catalog>& catalog, const SimConfig& config) {
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

  SimReport report(catalog->encounters[*encounter], config);
  const BattleOptions quiet{.event_log = false, .record_history = false};
  Battle battle(catalog, quiet);
  std::vector<Action> options;
  options.reserve(16);
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
      BATTLECORE_ENSURE(battle.is_battle_over(), "the battle stopped in {}", phase_name(battle.phase()));
      report.tally(battle);
    } catch (const InvariantError& e) {
      report.failures.push_back(SimFailure{i, seed, e.what()});
      battle = Battle(catalog, quiet);
    }
  }
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace battlecore::clash
