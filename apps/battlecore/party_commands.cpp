// The party rule set's commands.

#include <atomic>
#include <iostream>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/load.hpp"
#include "battlecore/party/phases.hpp"
#include "battlecore/party/play_session.hpp"
#include "battlecore/party/policies.hpp"
#include "battlecore/party/scenario.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/encounter.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "battlecore/sim/session_replay.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"
#include "determinism.hpp"

namespace battlecore::cli {
namespace {

using R = sim::PartyRules;

/// --scenario checked against the content: null without one, nullopt when refused.
std::optional<nlohmann::json> party_scenario(const Options& options,
                                             const std::shared_ptr<const party::Catalog>& catalog,
                                             std::ostream& err) {
  return scenario_option(options, catalog, err, [](const auto& shared, const content::JsonDocument& doc) {
    return party::start_scenario(shared, doc);
  });
}

using party::Catalog;

/// The pack used when no content is given.
constexpr std::string_view kBundledPack = "meadow";

/// The party content at `path`, or the bundled pack; null after printing every problem.
std::shared_ptr<const Catalog> load_content(const std::string& path, std::ostream& err) {
  return load_pack("party", kBundledPack, path, err,
                   [](const std::filesystem::path& dir) { return party::load_catalog(dir); });
}

class PartyCommands final : public RuleSetCommands {
 public:
  std::string_view name() const override { return "party"; }
  std::vector<std::string_view> own_sim_options() const override {
    return {"--block-rate", "--super-block-rate", "--no-enemy-damage"};
  }
  std::vector<std::string> policies() const override {
    std::vector<std::string> names;
    for (std::string_view n : party::policy_names()) names.emplace_back(n);
    return names;
  }

  int graph(const Options& options, Io io) override { return print_graph<party::Machine>(options, io.out); }

  int validate(const Options& options, Io io) override {
    return validate_content(name(), kBundledPack, options, io, load_content, [](const Catalog& catalog) {
      return fmt::format(
          "{} conditions, {} skills, {} items, {} members, {} companions, {} allies, {} enemies, "
          "{} parties, {} encounters",
          catalog.conditions.size(), catalog.skills.size(), catalog.items.size(), catalog.members.size(),
          catalog.companions.size(), catalog.allies.size(), catalog.enemies.size(), catalog.parties.size(),
          catalog.encounters.size());
    });
  }

  int list(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    nlohmann::json j = {{"rules", "party"},
                        {"pack", catalog->pack.id},
                        {"encounters", ids_of(catalog->encounters)},
                        {"members", ids_of(catalog->members)},
                        {"companions", ids_of(catalog->companions)},
                        {"allies", ids_of(catalog->allies)},
                        {"skills", ids_of(catalog->skills)},
                        {"items", ids_of(catalog->items)},
                        {"enemies", ids_of(catalog->enemies)},
                        {"conditions", ids_of(catalog->conditions)},
                        {"parties", ids_of(catalog->parties)}};
    if (options.json) {
      io.out << j.dump(2) << "\n";
    } else {
      for (const char* key : {"encounters", "members", "companions", "allies", "skills", "items", "enemies",
                              "conditions", "parties"}) {
        io.out << key << ":";
        for (const auto& id : j[key]) io.out << " " << id.get<std::string>();
        io.out << "\n";
      }
    }
    return kOk;
  }

  int sim(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    const auto scenario = party_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    std::shared_ptr<const party::Catalog> versus;
    if (!options.versus_content.empty() && !(versus = load_content(options.versus_content, io.err)))
      return kUsageError;
    sim::SimConfig config = sim_config(options, io);
    std::atomic<bool> unwritten{false};
    if (!add_recording<R>(options, io, catalog, *scenario, config, unwritten)) return kUsageError;
    const party::BlockSkill block{options.block_rate, options.super_block_rate};
    const auto report = sim::simulate_party(catalog, config, block, versus);
    return finish_sim(options, report, io, unwritten ? kWriteError : kUsageError);
  }

  int play(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    const auto scenario = party_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    const auto encounter = sim::resolve_encounter_id(*catalog, options.encounter, *scenario);
    if (!encounter) {
      io.err << "battlecore: " << encounter.error().message << "\n";
      return kUsageError;
    }
    const sim::BattleStart start{encounter.value(), scenario_seed(*scenario, options.seed), *scenario};
    auto started = R::start(catalog, start);
    if (!started) {
      io.err << "battlecore: " << started.error().message << "\n";
      return kUsageError;
    }
    party::Battle& battle = started.value();
    io.out << fmt::format("battle '{}' with seed {}{} (type 'help' for commands)\n", encounter.value(),
                          start.seed, scenario->is_null() ? "" : " from scenario " + options.scenario);
    return sim::run_recorded_session<R>(catalog, start, battle, options.record, io.out, io.err,
                                        [&] { return party::play(battle, io.play_input(), io.out); });
  }

  sim::ActionCheck replay_action_check() const override { return sim::action_check<R>(); }

  int replay(const Options& options, Io io, const sim::ReplayFile& file) override {
    return replay_file<R>(file, options, io, [&] { return load_content(options.content, io.err); });
  }
};

}  // namespace

std::unique_ptr<RuleSetCommands> make_party_commands() { return std::make_unique<PartyCommands>(); }

}  // namespace battlecore::cli
