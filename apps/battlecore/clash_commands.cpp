// The clash's commands.

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/load.hpp"
#include "battlecore/clash/phases.hpp"
#include "battlecore/clash/play_session.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/simulate.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/sim/content_path.hpp"
#include "commands.hpp"

namespace battlecore::cli {
namespace {

using clash::Catalog;

/// The clash content at `path`, or the bundled pack; null after printing every problem.
std::shared_ptr<const Catalog> load_clash_content(const std::string& path, std::ostream& err) {
  return load_pack("clash", "classic", path, err,
                   [](const std::filesystem::path& dir) { return clash::load_catalog(dir); });
}

class ClashCommands final : public RuleSetCommands {
 public:
  std::string_view name() const override { return "clash"; }
  std::vector<std::string> policies() const override {
    std::vector<std::string> names;
    for (std::string_view n : clash::policy_names()) names.emplace_back(n);
    return names;
  }

  int graph(const Options& options, Io io) override { return print_graph<clash::Machine>(options, io.out); }

  int validate(const Options& options, Io io) override {
    const auto catalog = load_clash_content(options.content, io.err);
    if (!catalog) return kUsageError;
    io.out << fmt::format("{}: valid ({} encounters)\n", options.content, catalog->encounters.size());
    return kOk;
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
    auto report =
        clash::simulate(catalog, {options.encounter, options.battles, options.seed, options.policy});
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
    const auto catalog = load_clash_content(options.content, io.err);
    if (!catalog) return kUsageError;
    return clash::play(catalog, {options.encounter, options.seed, "random"}, io.in, io.out, io.err);
  }
};

}  // namespace

std::unique_ptr<RuleSetCommands> make_clash_commands() { return std::make_unique<ClashCommands>(); }

}  // namespace battlecore::cli
