// The deckbuilder's commands.

#include <atomic>
#include <iostream>
#include <string_view>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/play_session.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"
#include "deckbuilder_determinism.hpp"
#include "determinism.hpp"

namespace battlecore::cli {
namespace {

using deckbuilder::Catalog;

/// The pack used when no content is given.
constexpr std::string_view kBundledPack = "starter";

/// The deckbuilder content at `path`, or the bundled pack; null after printing every problem.
std::shared_ptr<const Catalog> load_content(const std::string& path, std::ostream& err) {
  return load_pack("deckbuilder", kBundledPack, path, err,
                   [](const std::filesystem::path& dir) { return deckbuilder::load_catalog(dir); });
}

class DeckbuilderCommands final : public RuleSetCommands {
 public:
  std::string_view name() const override { return "deckbuilder"; }
  std::vector<std::string_view> own_sim_options() const override {
    return {"--deck", "--versus-deck", "--no-enemy-damage"};
  }
  std::vector<std::string> policies() const override {
    const auto names = deckbuilder::policy_names();
    return {names.begin(), names.end()};
  }

  int graph(const Options& options, Io io) override {
    return print_graph<deckbuilder::Machine>(options, io.out);
  }

  int validate(const Options& options, Io io) override {
    return validate_content(name(), kBundledPack, options, io, load_content, [](const Catalog& catalog) {
      return fmt::format("{} cards, {} statuses, {} enemies, {} players, {} encounters", catalog.cards.size(),
                         catalog.statuses.size(), catalog.enemies.size(), catalog.players.size(),
                         catalog.encounters.size());
    });
  }

  int list(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    nlohmann::json j = {{"rules", "deckbuilder"},
                        {"pack", catalog->pack.id},
                        {"encounters", ids_of(catalog->encounters)},
                        {"cards", ids_of(catalog->cards)},
                        {"enemies", ids_of(catalog->enemies)},
                        {"statuses", ids_of(catalog->statuses)},
                        {"players", ids_of(catalog->players)}};
    if (options.json) {
      io.out << j.dump(2) << "\n";
    } else {
      for (const char* key : {"encounters", "cards", "enemies", "statuses", "players"}) {
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
    const auto scenario = deckbuilder_scenario(options, *catalog, catalog, io.err);
    if (!scenario) return kUsageError;
    std::shared_ptr<const Catalog> versus;
    if (!options.versus_content.empty() && !(versus = load_content(options.versus_content, io.err)))
      return kUsageError;
    sim::SimConfig config = sim_config(options, io);
    std::atomic<bool> unwritten{false};
    if (!add_recording<sim::DeckbuilderRules>(options, io, catalog, *scenario, config, unwritten))
      return kUsageError;
    const auto report = sim::simulate_deckbuilder(catalog, config, versus);
    return finish_sim(options, report, io, unwritten ? kWriteError : kUsageError);
  }

  int play(const Options& options, Io io) override {
    const auto catalog = load_content(options.content, io.err);
    if (!catalog) return kUsageError;
    const auto scenario = deckbuilder_scenario(options, *catalog, catalog, io.err);
    if (!scenario) return kUsageError;
    return sim::play_deckbuilder(catalog, {options.encounter, scenario_seed(*scenario, options.seed)},
                                 io.play_input(), io.out, io.err,
                                 {options.record, *scenario, scenario->is_null() ? "" : options.scenario});
  }

  sim::ActionCheck replay_action_check() const override { return sim::action_check<sim::DeckbuilderRules>(); }

  int replay(const Options& options, Io io, const sim::ReplayFile& file) override {
    return deckbuilder_replay(file, options, io, [&] { return load_content(options.content, io.err); });
  }
};

}  // namespace

std::unique_ptr<RuleSetCommands> make_deckbuilder_commands() {
  return std::make_unique<DeckbuilderCommands>();
}

}  // namespace battlecore::cli
