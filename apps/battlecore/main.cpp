// battlecore: the command line. It parses arguments and hands them to the rule set's commands
// (commands.hpp), nothing more.
// Exit codes: 0 success, 1 a run that found a failure, 2 bad arguments or bad content.

#include <algorithm>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace {

using namespace battlecore::cli;

/// Every rule set the command line knows, one line each.
std::vector<std::unique_ptr<RuleSetCommands>> rule_sets() {
  std::vector<std::unique_ptr<RuleSetCommands>> sets;
  sets.push_back(make_deckbuilder_commands());
  sets.push_back(make_clash_commands());
  return sets;
}

}  // namespace

int main(int argc, char** argv) {
  const auto sets = rule_sets();
  std::vector<std::string> rule_names;
  std::vector<std::string> policy_names;
  for (const auto& s : sets) {
    rule_names.emplace_back(s->name());
    for (auto& p : s->policies())
      if (std::find(policy_names.begin(), policy_names.end(), p) == policy_names.end())
        policy_names.push_back(p);
  }

  CLI::App app{"battlecore: turn-based battles on an explicit phase state machine"};
  app.require_subcommand(1);
  Options options;

  auto add_rules = [&](CLI::App* sub) {
    sub->add_option("--rules", options.rules, "rule set")->required()->check(CLI::IsMember(rule_names));
  };

  CLI::App* graph = app.add_subcommand("graph", "print the phase graph from the transition table");
  add_rules(graph);
  graph->add_option("--format", options.format, "dot or mermaid")->check(CLI::IsMember({"dot", "mermaid"}));

  CLI::App* validate = app.add_subcommand("validate", "check a content pack or file; list every problem");
  add_rules(validate);
  validate->add_option("path", options.content, "a pack directory or a content file")->required();

  CLI::App* list = app.add_subcommand("list", "list the encounters and definitions of a pack");
  add_rules(list);
  list->add_option("--content", options.content, "pack directory (default: the bundled pack)");
  list->add_flag("--json", options.json, "print one JSON object");

  CLI::App* sim = app.add_subcommand("sim", "simulate many battles with a policy");
  add_rules(sim);
  sim->add_option("--content", options.content, "pack directory (default: the bundled pack)");
  sim->add_option("--encounter", options.encounter, "encounter id (default: the pack's default)");
  sim->add_option("--battles", options.battles, "number of battles (at least 1)")->check(CLI::PositiveNumber);
  sim->add_option("--seed", options.seed, "run seed");
  sim->add_option("--policy", options.policy, "policy")->check(CLI::IsMember(policy_names));
  sim->add_flag("--json", options.json, "print one JSON object");

  CLI::App* play = app.add_subcommand("play", "play a battle in the terminal");
  add_rules(play);
  play->add_option("--content", options.content, "pack directory (default: the bundled pack)");
  play->add_option("--encounter", options.encounter, "encounter id (default: the pack's default)");
  play->add_option("--seed", options.seed, "battle seed");

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
    return kOk;
  } catch (const CLI::ParseError& e) {
    std::cerr << "battlecore: " << e.what() << "\n\n" << app.help();
    return kUsageError;
  }

  RuleSetCommands* set = nullptr;
  for (const auto& s : sets)
    if (s->name() == options.rules) set = s.get();
  if (set == nullptr) return kUsageError;  // CLI11 checked the name already

  if (sim->parsed()) {
    const auto accepted = set->policies();
    if (std::find(accepted.begin(), accepted.end(), options.policy) == accepted.end()) {
      std::cerr << "battlecore: the " << options.rules << " rule set has no policy '" << options.policy
                << "'\n";
      return kUsageError;
    }
  }

  Io io{std::cin, std::cout, std::cerr};
  if (graph->parsed()) return set->graph(options, io);
  if (validate->parsed()) return set->validate(options, io);
  if (list->parsed()) return set->list(options, io);
  if (sim->parsed()) return set->sim(options, io);
  if (play->parsed()) return set->play(options, io);
  return kUsageError;
}
