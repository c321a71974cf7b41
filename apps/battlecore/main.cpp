// battlecore: the command line. It parses arguments and calls the library, nothing more.
// Exit codes: 0 success, 1 a run that found a failure, 2 bad arguments or bad content.

#include <cstdio>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/play_session.hpp"
#include "battlecore/sim/simulate.hpp"

namespace {

using battlecore::deckbuilder::Catalog;

constexpr int kUsageError = 2;

/// Loads the content at `path` (or the bundled pack); prints every diagnostic on failure.
std::shared_ptr<const Catalog> load_content(const std::string& rules, const std::string& path) {
  std::filesystem::path dir = path;
  if (path.empty()) {
    const auto found = battlecore::sim::find_bundled_pack(rules);
    if (!found) {
      std::cerr << "battlecore: the bundled " << rules << " pack was not found; pass --content DIR\n";
      return nullptr;
    }
    dir = *found;
  }
  auto loaded = battlecore::deckbuilder::load_catalog(dir);
  if (!loaded) {
    std::cerr << loaded.error().to_string();
    std::cerr << fmt::format("battlecore: {} problem(s) in {}; nothing was loaded\n", loaded.error().size(),
                             dir.string());
    return nullptr;
  }
  return loaded.value();
}

/// The ids of a catalog's definitions, in catalog order.
template <class Defs>
std::vector<std::string> ids_of(const Defs& defs) {
  std::vector<std::string> ids;
  for (const auto& d : defs) ids.push_back(d.id);
  return ids;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"battlecore: turn-based battles on an explicit phase state machine"};
  app.require_subcommand(1);
  const std::vector<std::string> kRules = {"deckbuilder"};

  std::string rules;
  std::string format = "dot";
  std::string content;
  std::string encounter;
  std::string policy = "random";
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  bool json = false;

  auto add_rules = [&](CLI::App* sub) {
    sub->add_option("--rules", rules, "rule set")->required()->check(CLI::IsMember(kRules));
  };

  CLI::App* graph = app.add_subcommand("graph", "print the phase graph from the transition table");
  add_rules(graph);
  graph->add_option("--format", format, "dot or mermaid")->check(CLI::IsMember({"dot", "mermaid"}));

  CLI::App* validate = app.add_subcommand("validate", "check a content pack or file; list every problem");
  add_rules(validate);
  validate->add_option("path", content, "a pack directory or a content file")->required();

  CLI::App* list = app.add_subcommand("list", "list the encounters, cards and enemies of a pack");
  add_rules(list);
  list->add_option("--content", content, "pack directory (default: the bundled starter pack)");
  list->add_flag("--json", json, "print one JSON object");

  CLI::App* sim = app.add_subcommand("sim", "simulate many battles with a policy");
  add_rules(sim);
  sim->add_option("--content", content, "pack directory (default: the bundled starter pack)");
  sim->add_option("--encounter", encounter, "encounter id (default: the pack's default)");
  sim->add_option("--battles", battles, "number of battles (at least 1)")->check(CLI::PositiveNumber);
  sim->add_option("--seed", seed, "run seed");
  sim->add_option("--policy", policy, "policy")->check(CLI::IsMember({"random"}));
  sim->add_flag("--json", json, "print one JSON object");

  CLI::App* play = app.add_subcommand("play", "play a battle in the terminal");
  add_rules(play);
  play->add_option("--content", content, "pack directory (default: the bundled starter pack)");
  play->add_option("--encounter", encounter, "encounter id (default: the pack's default)");
  play->add_option("--seed", seed, "battle seed");

  // An unknown command word would otherwise read as "a subcommand is required".
  if (argc >= 2 && argv[1][0] != '-' &&
      app.get_subcommands([&](CLI::App* sub) { return sub->check_name(argv[1]); }).empty()) {
    std::cerr << "battlecore: unknown command '" << argv[1] << "'\n\n" << app.help();
    return kUsageError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "battlecore: " << e.what() << "\n\n" << app.help();
    return kUsageError;
  }

  if (graph->parsed()) {
    const auto g = battlecore::make_phase_graph<battlecore::deckbuilder::Machine>();
    std::cout << (format == "mermaid" ? battlecore::to_mermaid(g) : battlecore::to_dot(g));
    return 0;
  }
  if (validate->parsed()) {
    const auto catalog = load_content(rules, content);
    if (!catalog) return kUsageError;
    std::cout << fmt::format("{}: valid ({} cards, {} statuses, {} enemies, {} players, {} encounters)\n",
                             content, catalog->cards.size(), catalog->statuses.size(),
                             catalog->enemies.size(), catalog->players.size(), catalog->encounters.size());
    return 0;
  }
  const auto catalog = load_content(rules, content);
  if (!catalog) return kUsageError;
  if (list->parsed()) {
    nlohmann::json j = {{"rules", rules},
                        {"pack", catalog->pack.id},
                        {"encounters", ids_of(catalog->encounters)},
                        {"cards", ids_of(catalog->cards)},
                        {"enemies", ids_of(catalog->enemies)},
                        {"statuses", ids_of(catalog->statuses)},
                        {"players", ids_of(catalog->players)}};
    if (json) {
      std::cout << j.dump(2) << "\n";
    } else {
      for (const char* key : {"encounters", "cards", "enemies", "statuses", "players"}) {
        std::cout << key << ":";
        for (const auto& id : j[key]) std::cout << " " << id.get<std::string>();
        std::cout << "\n";
      }
    }
    return 0;
  }
  if (sim->parsed()) {
    battlecore::sim::SimConfig config{encounter, battles, seed, policy};
    auto report = battlecore::sim::simulate_deckbuilder(catalog, config);
    if (!report) {
      std::cerr << "battlecore: " << report.error().message << "\n";
      return kUsageError;
    }
    if (json)
      std::cout << report.value().to_json().dump() << "\n";
    else
      std::cout << report.value().to_text();
    return report.value().failures.empty() ? 0 : 1;
  }
  if (play->parsed()) {
    return battlecore::sim::play_deckbuilder(catalog, {encounter, seed}, std::cin, std::cout, std::cerr);
  }
  return kUsageError;
}
