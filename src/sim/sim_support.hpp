#pragma once
// What every rule set's simulate_* entry point shares: the encounter a run plays and the
// runner's options from a SimConfig.

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/content/scenario_io.hpp"
#include "battlecore/sim/replay.hpp"
#include "battlecore/sim/runner.hpp"
#include "battlecore/sim/simulate.hpp"

namespace battlecore::sim {

/// `config` with its scenario naming `encounter`, the run's, when it names none (a scenario's
/// encounter defaults to --encounter, not to the pack's default).
inline SimConfig with_scenario_encounter(SimConfig config, const std::string& encounter) {
  config.scenario = content::scenario_naming(config.scenario, encounter);
  return config;
}

/// With a scenario, starts battle 0 once, so that a bad scenario is refused before the run.
template <class R>
Result<void> check_scenario(const std::shared_ptr<const typename R::Catalog>& catalog,
                            const std::string& encounter, const SimConfig& config) {
  if (config.scenario.is_null()) return {};
  auto started = R::start(catalog, BattleStart{encounter, battle_seed(config.seed, 0), config.scenario});
  if (!started) return started.error();
  return {};
}

/// Side B's encounter in a paired run of two packs: side A's, by its id, in pack `versus`; an
/// error when that pack does not have it or refuses the run's scenario.
template <class R>
auto versus_encounter(const std::shared_ptr<const typename R::Catalog>& versus, const std::string& encounter,
                      const SimConfig& config) {
  auto found = resolve_encounter(*versus, encounter, config.scenario);
  if (!found) return decltype(found){Error{"the versus pack: " + found.error().message}};
  if (auto checked = check_scenario<R>(versus, encounter, config); !checked)
    return decltype(found){Error{"the versus pack: " + checked.error().message}};
  return found;
}

/// Refuses a list of the user's own policies (SimConfig::deckbuilder_policies and the others)
/// that cannot be told apart from each other or from the rule set's built-in ones (`builtin`).
template <class Policy, class Names>
Result<void> check_own_policies(const std::vector<PolicyMaker<Policy>>& own, const Names& builtin) {
  for (std::size_t i = 0; i < own.size(); ++i) {
    const std::string& name = own[i].name;
    if (!content::valid_id(name))
      return Error{fmt::format("own policy {}: the name '{}' is not 1 to 64 characters a-z, 0-9, '_' or '-'",
                               i, name)};
    if (std::find(builtin.begin(), builtin.end(), std::string_view(name)) != builtin.end())
      return Error{fmt::format("own policy '{}': the name is a built-in policy's", name)};
    for (std::size_t j = 0; j < i; ++j)
      if (own[j].name == name) return Error{fmt::format("own policy '{}' is given twice", name)};
    if (!own[i].make) return Error{fmt::format("own policy '{}' has no maker", name)};
  }
  return {};
}

/// The policy `name`: the user's own of that name (`own`), else the rule set's built-in one,
/// made by `builtin` (whose error for an unknown name is given the own policies' names).
template <class Policy, class Builtin>
Result<std::unique_ptr<Policy>> make_named_policy(std::string_view name,
                                                  const std::vector<PolicyMaker<Policy>>& own,
                                                  Builtin builtin) {
  for (const PolicyMaker<Policy>& m : own) {
    if (m.name != name) continue;
    std::unique_ptr<Policy> made = m.make();
    if (made == nullptr) return Error{fmt::format("own policy '{}': its maker gave no policy", name)};
    return made;
  }
  Result<std::unique_ptr<Policy>> made = builtin(name);
  if (made.ok() || own.empty()) return made;
  std::string names;
  for (const PolicyMaker<Policy>& m : own) names += (names.empty() ? "" : ", ") + m.name;
  return Error{fmt::format("{}; the run's own: {}", made.error().message, names)};
}

/// The runner's options for `config`.
/// Records the mcts settings in `run` when one of `policies` is mcts.
inline void note_policy_settings(RunOptions& run, const SimConfig& config,
                                 std::initializer_list<std::string_view> policies) {
  for (std::string_view p : policies)
    if (p == "mcts") {
      run.policy_settings["mcts_iterations"] = config.policy_options.iterations;
      run.policy_settings["mcts_exploration"] = config.policy_options.exploration;
    }
}

/// A run from a scenario records the scenario's hash (its JSON dumped canonically, FNV-1a) in
/// the settings: the report says the battles did not start from the encounter, and shards of
/// runs from different scenarios do not merge.
inline RunOptions run_options(const SimConfig& config) {
  RunOptions run{config.battles, config.seed,        config.policy,      config.versus_policy,
                 config.threads, config.shard_index, config.shard_count, config.progress};
  run.after_battle = config.after_battle;
  run.before_run = config.before_run;
  note_policy_settings(run, config, {config.policy, config.versus_policy});
  if (!config.scenario.is_null())
    run.policy_settings["scenario_hash"] =
        content::hash_to_hex(content::fnv1a(content::kFnvOffset, config.scenario.dump()));
  return run;
}

}  // namespace battlecore::sim
