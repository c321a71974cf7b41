// The clash's commands.

#include <algorithm>
#include <atomic>
#include <charconv>
#include <iostream>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/load.hpp"
#include "battlecore/clash/phases.hpp"
#include "battlecore/clash/play_session.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/scenario.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/play_session.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"
#include "determinism.hpp"

namespace battlecore::cli {
namespace {

using clash::Catalog;

/// The pack used when no content is given.
constexpr std::string_view kBundledPack = "classic";

/// The clash content at `path`, or the bundled pack; null after printing every problem.
std::shared_ptr<const Catalog> load_clash_content(const std::string& path, std::ostream& err) {
  return load_pack("clash", kBundledPack, path, err,
                   [](const std::filesystem::path& dir) { return clash::load_catalog(dir); });
}

/// The scenario of --scenario (docs/clash.md#scenarios), checked against the content.
std::optional<nlohmann::json> clash_scenario(const Options& options,
                                             const std::shared_ptr<const Catalog>& catalog,
                                             std::ostream& err) {
  return scenario_option(options, catalog, err, [](const auto& c, const content::JsonDocument& doc) {
    return clash::start_scenario(c, doc);
  });
}

class ClashCommands final : public RuleSetCommands {
 public:
  std::string_view name() const override { return "clash"; }
  std::vector<std::string_view> own_sim_options() const override { return {"--seat-policy"}; }
  std::vector<std::string> policies() const override {
    std::vector<std::string> names;
    for (std::string_view n : clash::policy_names()) names.emplace_back(n);
    return names;
  }

  int graph(const Options& options, Io io) override { return print_graph<clash::Machine>(options, io.out); }

  int validate(const Options& options, Io io) override {
    return validate_content(
        name(), kBundledPack, options, io, load_clash_content,
        [](const Catalog& catalog) { return fmt::format("{} encounters", catalog.encounters.size()); });
  }

  int list(const Options& options, Io io) override {
    const auto catalog = load_clash_content(options.content, io.err);
    if (!catalog) return kUsageError;
    nlohmann::json encounters = nlohmann::json::array();
    for (const auto& e : catalog->encounters) encounters.push_back(e.id);
    if (options.json) {
      io.out << nlohmann::json{{"rules", "clash"}, {"pack", catalog->pack.id}, {"encounters", encounters}}
                    .dump(2)
             << "\n";
    } else {
      io.out << "encounters:";
      for (const auto& id : encounters) io.out << " " << id.get<std::string>();
      io.out << "\n";
    }
    return kOk;
  }

  int sim(const Options& options, Io io) override {
    const auto catalog = load_clash_content(options.content, io.err);
    if (!catalog) return kUsageError;
    // --seat-policy K=NAME: seat K's own policy (seat 0's is the run's policy A).
    std::vector<std::string> seats;
    for (const std::string& given : options.seat_policies) {
      const auto eq = given.find('=');
      std::size_t seat = 0;
      const auto [end, ec] = std::from_chars(given.data(), given.data() + std::min(eq, given.size()), seat);
      if (eq == std::string::npos || eq == 0 || ec != std::errc{} || end != given.data() + eq ||
          eq + 1 == given.size() || seat >= clash::kMaxSeats) {
        io.err << "battlecore: --seat-policy '" << given << "' is not K=NAME with a seat K from 0 to "
               << clash::kMaxSeats - 1 << "\n";
        return kUsageError;
      }
      if (seats.size() <= seat) seats.resize(seat + 1);
      if (!seats[seat].empty()) {  // the last one given would otherwise win silently
        io.err << "battlecore: --seat-policy gives seat " << seat << " a policy twice ('" << seat << "="
               << seats[seat] << "' and '" << given << "')\n";
        return kUsageError;
      }
      seats[seat] = given.substr(eq + 1);
    }
    const auto scenario = clash_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    std::shared_ptr<const Catalog> versus;
    if (!options.versus_content.empty() && !(versus = load_clash_content(options.versus_content, io.err)))
      return kUsageError;
    sim::SimConfig config = sim_config(options, io);
    std::atomic<bool> unwritten{false};
    if (!add_recording<sim::ClashRules>(options, io, catalog, *scenario, config, unwritten))
      return kUsageError;
    const auto report = sim::simulate_clash(catalog, config, seats, versus);
    return finish_sim(options, report, io, unwritten ? kWriteError : kUsageError);
  }

  int play(const Options& options, Io io) override {
    const auto catalog = load_clash_content(options.content, io.err);
    if (!catalog) return kUsageError;
    const auto scenario = clash_scenario(options, catalog, io.err);
    if (!scenario) return kUsageError;
    return sim::play_clash(catalog, {options.encounter, scenario_seed(*scenario, options.seed), "random", {}},
                           io.play_input(), io.out, io.err,
                           {options.record, *scenario, scenario->is_null() ? "" : options.scenario});
  }

  sim::ActionCheck replay_action_check() const override { return sim::action_check<sim::ClashRules>(); }

  int replay(const Options& options, Io io, const sim::ReplayFile& file) override {
    return replay_file<sim::ClashRules>(file, options, io,
                                        [&] { return load_clash_content(options.content, io.err); });
  }
};

}  // namespace

std::unique_ptr<RuleSetCommands> make_clash_commands() { return std::make_unique<ClashCommands>(); }

}  // namespace battlecore::cli
