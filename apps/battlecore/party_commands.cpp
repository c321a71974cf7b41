// The party rule set's commands.

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/load.hpp"
#include "battlecore/party/phases.hpp"
#include "battlecore/party/scenario.hpp"
#include "battlecore/party/simulate.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "battlecore/sim/recording.hpp"
#include "commands.hpp"
#include "determinism_commands.hpp"

namespace battlecore::cli {
namespace {

using party::Catalog;

using R = sim::PartyRules;

/// --scenario checked against the content: null without one, nullopt when refused.
std::optional<nlohmann::json> party_scenario(const Options& options,
                                             const std::shared_ptr<const Catalog>& catalog,
                                             std::ostream& err) {
  return checked_scenario(options, catalog, err, [](const auto& shared, const content::JsonDocument& doc) {
    return party::start_scenario(shared, doc);
  });
}

/// The party content at `path`, or the bundled pack; null after printing every problem.
std::shared_ptr<const Catalog> load_content(const std::string& path, std::ostream& err) {
  return load_pack("party", "meadow", path, err,
                   [](const std::filesystem::path& dir) { return party::load_catalog(dir); });
}

class PartyCommands final : public RuleSetCommands {
 public:
  std::string_view name() const override { return "party"; }
  std::vector<std::string> policies() const override { return {"random", "greedy"}; }

  int graph(const Options& options, Io io) override { return print_graph<party::Machine>(options, io.out); }

  int validate(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    io.out << fmt::format(
        "{}: valid ({} conditions, {} skills, {} items, {} members, {} companions, {} allies, {} enemies, {} "
        "parties, "
        "{} encounters)\n",
        options.content, catalog->conditions.size(), catalog->skills.size(), catalog->items.size(),
        catalog->members.size(), catalog->companions.size(), catalog->allies.size(), catalog->enemies.size(),
        catalog->parties.size(), catalog->encounters.size());
    return kOk;
  }

  int list(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    nlohmann::json j = {{"rules", "party"},
                        {"pack", catalog->pack.id},
                        {"encounters", ids_of(catalog->encounters)},
                        {"members", ids_of(catalog->members)},
                        {"skills", ids_of(catalog->skills)},
                        {"items", ids_of(catalog->items)},
                        {"enemies", ids_of(catalog->enemies)},
                        {"conditions", ids_of(catalog->conditions)},
                        {"parties", ids_of(catalog->parties)}};
    if (options.json) {
      io.out << j.dump(2) << "\n";
    } else {
      for (const char* key :
           {"encounters", "members", "skills", "items", "enemies", "conditions", "parties"}) {
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
    party::SimConfig config{options.encounter,
                            options.battles,
                            options.seed,
                            options.policy,
                            party::BlockSkill{options.block_rate, options.super_block_rate},
                            {},
                            {}};
    const auto scenario = party_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    config.scenario = *scenario;
    if (!options.record.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(options.record, ec);
      if (ec) {
        io.err << fmt::format("battlecore: cannot create directory '{}': {}\n", options.record, ec.message());
        return kUsageError;
      }
      const std::string encounter = start_encounter(*scenario, options.encounter, *catalog, io.err);
      config.after_battle = [&, encounter](std::uint64_t index, std::uint64_t seed,
                                           const party::Battle& battle, bool failed) -> Result<void> {
        if (options.record_failures && !failed) return {};
        auto replay = sim::record_replay<R>(catalog, {encounter, seed, *scenario}, battle.actions());
        if (!replay)
          return Error{fmt::format("battle {}: cannot record its replay: {}", index, replay.error().message)};
        return sim::write_replay(std::filesystem::path(options.record) / sim::replay_file_name(index),
                                 replay.value());
      };
    }
    auto report = party::simulate(catalog, config);
    if (!report) {
      io.err << "battlecore: " << report.error().message << "\n";
      return kUsageError;
    }
    if (options.json)
      io.out << report.value().to_json().dump() << "\n";
    else
      io.out << report.value().to_text();
    return report.value().failures.empty() ? kOk : kFailure;
  }

  int play(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    const auto scenario = party_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    const std::string encounter = start_encounter(*scenario, options.encounter, *catalog, io.err);
    if (encounter.empty()) return kUsageError;
    const sim::BattleStart start{encounter, scenario_seed(*scenario, options.seed), *scenario};
    auto started = R::start(catalog, start);
    if (!started) {
      io.err << "battlecore: " << started.error().message << "\n";
      return kUsageError;
    }
    party::Battle& battle = started.value();
    io.out << fmt::format("battle '{}' with seed {}{} (type 'help' for commands)\n", encounter, start.seed,
                          scenario->is_null() ? "" : " from scenario " + options.scenario);
    const int code = party::play(battle, io.in, io.out);
    if (options.record.empty()) return code;
    if (!write_battle_replay<R>(catalog, start, battle.actions(), options.record, io.err)) return kUsageError;
    io.out << fmt::format("replay written to {}\n", options.record);
    return code;
  }

  int replay(const Options& options, Io io) override {
    return replay_command<R>(options, io, [&] { return load_content(options.content, io.err); });
  }
};

}  // namespace

std::unique_ptr<RuleSetCommands> make_party_commands() { return std::make_unique<PartyCommands>(); }

}  // namespace battlecore::cli
