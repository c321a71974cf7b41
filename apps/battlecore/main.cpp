// battlecore: the command line. It parses arguments and hands them to the rule set's commands
// (commands.hpp), nothing more.
// Exit codes: 0 success, 1 a run that found a failure, 2 bad arguments or bad content, 3 output
// that could not be written, 130 a `play` session ended by Ctrl-C.

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "battlecore/core/invariant.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/uct.hpp"
#include "battlecore/sim/report.hpp"
#include "battlecore/sim/session_replay.hpp"
#include "battlecore/sim/simulate.hpp"
#include "battlecore/sim/version.hpp"
#include "commands.hpp"

namespace {

using namespace battlecore::cli;

/// Set by SIGINT while a `play` session runs (a signal handler can only set such a flag).
volatile std::sig_atomic_t g_interrupted = 0;

/// Ctrl-C during a session: the session's input ends there. The session looks at the flag before
/// and after each read, so no line is played once it is set, those the stream had read ahead
/// from a pipe included. Standard input becomes /dev/null (open, dup2 and close are safe in a
/// handler), so a read that starts after the signal sees the end at once, and one under way
/// fails with EINTR (the handler has no SA_RESTART).
extern "C" void on_interrupt(int) {
  g_interrupted = 1;
  const int null = open("/dev/null", O_RDONLY);
  if (null < 0) return;
  dup2(null, STDIN_FILENO);
  close(null);
}

/// For the life of a `play` session, Ctrl-C (SIGINT) ends the session as the end of its input
/// does, rather than the process, so its --record replay is written. The handler before is put
/// back at the end.
class InterruptEndsSession {
 public:
  InterruptEndsSession() {
    g_interrupted = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    installed_ = sigaction(SIGINT, &action, &before_) == 0;
  }
  ~InterruptEndsSession() {
    if (installed_) sigaction(SIGINT, &before_, nullptr);
  }
  InterruptEndsSession(const InterruptEndsSession&) = delete;
  InterruptEndsSession& operator=(const InterruptEndsSession&) = delete;
  bool interrupted() const { return g_interrupted != 0; }
  /// The flag the handler sets, for the session to look at.
  const battlecore::InterruptFlag* flag() const { return &g_interrupted; }

 private:
  struct sigaction before_ {};
  bool installed_ = false;
};

/// The exit status of a process ended by Ctrl-C, as shells report it (128 + SIGINT).
constexpr int kInterrupted = 128 + SIGINT;

/// A whole number from `min` to `max` in decimal digits, read before CLI11 converts it (which
/// would wrap "-5" around, clamp a number past 2^64 to its largest value, and read "010" as octal
/// and "0x10" as hexadecimal). A transform: the text CLI11 converts is the number written back
/// without leading zeros, so "010" is ten.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < min ||
            value > max)
          return fmt::format("expected a whole number from {} to {}, got '{}'", min, max, text);
        text = std::to_string(value);
        return std::string();
      },
      fmt::format("[{} - {}]", min, max));
}

/// A finite number, 0 or more ("nan" and "inf" are refused), as std::from_chars reads it: the
/// double nearest the text. CLI11 reads a floating-point option through long double, which rounds
/// twice where long double is wider than double (80 bits on x86), so a text near the midpoint of
/// two doubles would give another number there than where long double is double.
battlecore::Result<double> finite_non_negative(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) ||
      value < 0)
    return battlecore::Error{fmt::format("expected a finite number, 0 or more, got '{}'", text)};
  return value;
}

/// Text that is not empty: a path or an id given as "" (an unset shell variable, say) would
/// otherwise read as the option not given, and `validate ""` would check the bundled pack.
CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator(
      [what](const std::string& text) {
        return text.empty() ? fmt::format("expected {}, got an empty string", what) : std::string();
      },
      "");
}

/// An option whose text `read` turns into `out` (a Result): read once, as it is parsed; a text
/// it refuses is a usage error with its message ("--deck: deck 'x*0': ...").
template <class T, class Read>
CLI::Option* add_read_option(CLI::App* app, const std::string& name, T& out, Read read,
                             const std::string& form, const std::string& help) {
  return app
      ->add_option_function<std::string>(
          name,
          [&out, read, name](const std::string& text) {
            auto value = read(text);
            if (!value) throw CLI::ValidationError(name, value.error().message);
            out = std::move(value).value();
          },
          help)
      ->type_name(form);
}

/// Every rule set the command line knows, one line each.
std::vector<std::unique_ptr<RuleSetCommands>> rule_sets() {
  std::vector<std::unique_ptr<RuleSetCommands>> sets;
  sets.push_back(make_deckbuilder_commands());
  sets.push_back(make_party_commands());
  sets.push_back(make_clash_commands());
  return sets;
}

/// The command line's command; its exit status.
int run_command(int argc, char** argv) {
  const auto sets = rule_sets();
  std::vector<std::string> rule_names;
  std::vector<std::string> policy_names;
  for (const auto& s : sets) {
    rule_names.emplace_back(s->name());
    for (auto& p : s->policies())
      if (std::find(policy_names.begin(), policy_names.end(), p) == policy_names.end())
        policy_names.push_back(p);
  }

  // Named here, not from argv[0]: the usage reads "battlecore sim ..." however the program was
  // started, and also when it is printed before the command line is parsed (an unknown command).
  CLI::App app{"battlecore: turn-based battles on an explicit phase state machine", "battlecore"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "battlecore " + std::string(battlecore::sim::engine_version()));
  Options options;

  const CLI::Validator path = non_empty("a path");
  const CLI::Validator id = non_empty("an id");
  auto add_rules = [&](CLI::App* sub) {
    sub->add_option("--rules", options.rules, "rule set")->required()->check(CLI::IsMember(rule_names));
  };

  CLI::App* graph = app.add_subcommand("graph", "print the phase graph from the transition table");
  add_rules(graph);
  graph->add_option("--format", options.format, "dot or mermaid")->check(CLI::IsMember({"dot", "mermaid"}));

  CLI::App* validate = app.add_subcommand("validate", "check a content pack or file; list every problem");
  add_rules(validate);
  validate
      ->add_option("path", options.content, "a pack directory or a content file (default: the bundled pack)")
      ->check(path);

  CLI::App* list = app.add_subcommand("list", "list the encounters and definitions of a pack");
  add_rules(list);
  list->add_option("--content", options.content, "pack directory (default: the bundled pack)")->check(path);
  list->add_flag("--json", options.json, "print one JSON object");

  CLI::App* sim = app.add_subcommand("sim", "simulate many battles with a policy");
  add_rules(sim);
  sim->add_option("--content", options.content, "pack directory (default: the bundled pack)")->check(path);
  sim->add_option("--encounter", options.encounter, "encounter id (default: the pack's default)")->check(id);
  sim->add_option("--battles", options.battles,
                  fmt::format("number of battles (1 to {})", battlecore::sim::kMaxBattles))
      ->transform(whole_number(1, battlecore::sim::kMaxBattles));
  const CLI::Validator seed_range = whole_number(0, std::numeric_limits<std::uint64_t>::max());
  sim->add_option("--seed", options.seed, "run seed (0 to 2^64 - 1)")->transform(seed_range);
  sim->add_option("--policy", options.policy, "policy")->check(CLI::IsMember(policy_names));
  sim->add_flag("--json", options.json, "print one JSON object");
  sim->add_option("--threads", options.threads,
                  fmt::format("threads to play on (1 to {}; results do not depend on it)",
                              battlecore::sim::kMaxThreads))
      ->transform(whole_number(1, battlecore::sim::kMaxThreads));
  add_read_option(sim, "--shard", options.shard, battlecore::sim::parse_shard, "K/N",
                  "K/N: play only the K-th of N seed ranges (merge with report merge)");
  sim->add_option("--versus-policy", options.versus_policy,
                  "paired A/B: also play this policy on the same seeds")
      ->check(CLI::IsMember(policy_names));
  add_read_option(sim, "--deck", options.deck, battlecore::sim::parse_deck, "ID[*N],...",
                  "deckbuilder: the master deck, card ids in order, e.g. strike*5,defend*4,bash "
                  "(default: the encounter's player deck)");
  add_read_option(sim, "--versus-deck", options.versus_deck, battlecore::sim::parse_deck, "ID[*N],...",
                  "deckbuilder: paired A/B: also play this deck on the same seeds");
  sim->add_option("--versus-content", options.versus_content,
                  "paired A/B: also play this pack on the same seeds (the same encounter; cards and enemies "
                  "matched by id)")
      ->check(path);
  sim->add_option("--mcts-iterations", options.mcts_iterations,
                  fmt::format("mcts: iterations per decision (1 to {})", battlecore::kMaxUctIterations))
      ->transform(whole_number(1, battlecore::kMaxUctIterations));
  add_read_option(sim, "--mcts-exploration", options.mcts_exploration, finite_non_negative, "NUMBER >= 0",
                  "mcts: UCB1 exploration constant (0 or more)");
  sim->add_option("--report", options.report, "also write a self-contained HTML report to this file")
      ->check(path);
  sim->add_flag("--no-enemy-damage", options.no_enemy_damage,
                "deckbuilder, party: leave the damage each enemy deals out of the report");
  sim->add_option("--record", options.record, "write a replay of every battle into DIR")->check(path);
  sim->add_flag("--record-failures", options.record_failures,
                "with --record: only the battles that hit an engine error");
  sim->add_option("--scenario", options.scenario,
                  "start every battle from a scenario file (with its own seed)")
      ->check(path);
  sim->add_option("--block-rate", options.block_rate, "party: percent of enemy hits a bot blocks (0-100)")
      ->transform(whole_number(0, 100));
  sim->add_option("--super-block-rate", options.super_block_rate,
                  "party: percent of enemy hits a bot super blocks (0-100, at most --block-rate)")
      ->transform(whole_number(0, 100));
  sim->add_option("--seat-policy", options.seat_policies,
                  "clash: K=NAME gives seat K its own policy (repeatable; seat 0's is the run's policy)")
      ->check(CLI::Validator(
          // An unknown NAME is an unknown policy, refused as --policy's is; the seat is checked
          // against the encounter later.
          [&policy_names](const std::string& text) {
            const auto eq = text.find('=');
            const std::string name = eq == std::string::npos ? std::string() : text.substr(eq + 1);
            if (name.empty() ||
                std::find(policy_names.begin(), policy_names.end(), name) != policy_names.end())
              return std::string();
            return fmt::format("unknown policy '{}' in '{}'; known policies: {}", name, text,
                               fmt::join(policy_names, ", "));
          },
          "K=NAME"));

  CLI::App* report = app.add_subcommand("report", "work with sim reports");
  report->require_subcommand(1);
  CLI::App* merge = report->add_subcommand("merge", "merge the --json reports of the shards of one run");
  merge->add_option("files", options.files, "the shard reports (sim --json outputs)")
      ->required()
      ->check(path);
  merge->add_flag("--json", options.json, "print one JSON object");
  merge->add_option("--report", options.report, "also write a self-contained HTML report to this file")
      ->check(path);

  CLI::App* play = app.add_subcommand("play", "play a battle in the terminal");
  add_rules(play);
  play->add_option("--content", options.content, "pack directory (default: the bundled pack)")->check(path);
  play->add_option("--encounter", options.encounter, "encounter id (default: the pack's default)")->check(id);
  play->add_option("--seed", options.seed, "battle seed (0 to 2^64 - 1)")->transform(seed_range);
  play->add_option("--record", options.record, "write the battle's replay to FILE when the session ends")
      ->check(path);
  play->add_option("--scenario", options.scenario, "start from a scenario file")->check(path);

  CLI::App* replay = app.add_subcommand("replay", "replay a recorded battle and check its hashes");
  replay->add_option("file", options.replay, "a replay file")->required()->check(path);
  replay->add_option("--content", options.content, "pack directory (default: the bundled pack)")->check(path);

  ServeOptions serve_options;
  CLI::App* serve_cmd = app.add_subcommand("serve", "serve the battle monitor (a web page and JSON API)");
  serve_cmd->add_option("--port", serve_options.port, "TCP port (0: any free port)")
      ->transform(whole_number(0, 65535));
  serve_cmd->add_option("--host", serve_options.host, "address to listen on (default: loopback only)")
      ->check(non_empty("an address"));
  serve_cmd->add_flag("--reveal", serve_options.reveal,
                      "give the snapshot of a battle in play, hidden cards and all (for debugging)");

  // An unknown command word would otherwise read as "a subcommand is required", at the top
  // (`battlecore frobnicate`) and under a command that takes one (`battlecore report frobnicate`).
  // So would an unknown option there (`battlecore --frob`), and a command's option written before
  // its word (`battlecore --rules deckbuilder sim`) read as missing ("--rules is required").
  {
    CLI::App* parent = &app;
    std::string command;  // the command words read so far, each with a space after it
    const auto any = [](CLI::App*) { return true; };
    const auto named = [](std::string_view word) {
      return [word](CLI::App* sub) { return sub->check_name(std::string(word)); };
    };
    // Named as the parse names it ("Usage: battlecore report ..."), also before the parse.
    const auto usage = [&] { return parent == &app ? app.help() : parent->help("battlecore"); };
    for (int i = 1; i < argc && std::string_view(argv[i]) != "--" && !parent->get_subcommands(any).empty();
         ++i) {
      const std::string_view word = argv[i];
      if (word.starts_with('-')) {
        const std::string option(word.substr(0, word.find('=')));
        if (parent->get_option_no_throw(option) != nullptr) continue;  // --help, --version
        // Some command's option, or none at all? The commands under this one are searched.
        std::vector<CLI::App*> commands = parent->get_subcommands(any);
        bool known = false;
        for (std::size_t k = 0; k < commands.size() && !known; ++k) {
          known = commands[k]->get_option_no_throw(option) != nullptr;
          for (CLI::App* sub : commands[k]->get_subcommands(any)) commands.push_back(sub);
        }
        if (!known) {
          std::cerr << "battlecore: unknown option '" << option << "'\n\n" << usage();
          return kUsageError;
        }
        // The command word, when it is given later, makes the example.
        std::string_view example = "COMMAND";
        for (int j = i + 1; j < argc && example == "COMMAND"; ++j)
          if (!parent->get_subcommands(named(argv[j])).empty()) example = argv[j];
        std::cerr << "battlecore: option '" << option
                  << "' comes before the command; a command's options follow "
                  << "its word, as in 'battlecore " << command << example << " " << option << " ...'\n\n"
                  << usage();
        return kUsageError;
      }
      const auto found = parent->get_subcommands(named(word));
      if (found.empty()) {
        std::cerr << "battlecore: unknown command '" << command << word << "'\n\n" << usage();
        return kUsageError;
      }
      parent = found.front();
      command.append(word).append(" ");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kOk;
  } catch (const CLI::CallForVersion& version) {
    std::cout << version.what() << "\n";
    return kOk;
  } catch (const CLI::ParseError& e) {
    std::cerr << "battlecore: " << e.what() << "\n\n" << app.help();
    return kUsageError;
  }

  // A replay file is read once, by the rule set it names.
  std::optional<battlecore::sim::ReplayFile> replay_file;
  if (replay->parsed()) {
    replay_file = read_replay(options.replay, sets, std::cerr);
    if (!replay_file) return kUsageError;
    options.rules = replay_file->replay.rules;
  }
  if (sim->parsed() && options.record_failures && options.record.empty()) {
    std::cerr << "battlecore: --record-failures needs --record DIR\n\n" << sim->help("battlecore");
    return kUsageError;
  }
  Io io{std::cin, std::cout, std::cerr};
  // Files written at the end are checked now, so that a long run is not lost to a bad path.
  if (((sim->parsed() || merge->parsed()) && !output_file_ok("--report", options.report, io)) ||
      (play->parsed() && !output_file_ok("--record", options.record, io)))
    return kUsageError;
  if (merge->parsed()) return report_merge(options, io);
  if (serve_cmd->parsed()) return serve(serve_options, io);

  RuleSetCommands* set = nullptr;
  for (const auto& s : sets)
    if (s->name() == options.rules) set = s.get();
  if (set == nullptr) return kUsageError;  // CLI11 checked the name already

  if (sim->parsed()) {
    // An option of another rule set (--seat-policy, --block-rate, ...) would be ignored: refuse it.
    // The message names every rule set that takes the option.
    const auto takes = [](const RuleSetCommands& s, std::string_view flag) {
      const auto flags = s.own_sim_options();
      return std::find(flags.begin(), flags.end(), flag) != flags.end();
    };
    for (const auto& other : sets)
      for (std::string_view flag : other->own_sim_options()) {
        if (takes(*set, flag) || sim->count(std::string(flag)) == 0) continue;
        std::string owners;
        for (const auto& s : sets)
          if (takes(*s, flag)) owners += fmt::format("{}{}", owners.empty() ? "" : " and ", s->name());
        std::cerr << "battlecore: " << flag << " is a " << owners << " option; the " << options.rules
                  << " rule set does not take it\n\n"
                  << sim->help("battlecore");
        return kUsageError;
      }
    // The party's block rates: a super block is a block, so there are at most as many.
    if (options.super_block_rate > options.block_rate) {
      std::cerr << "battlecore: --super-block-rate " << options.super_block_rate
                << (sim->count("--super-block-rate") > 0 ? "" : " (the default)")
                << " is more than --block-rate " << options.block_rate
                << "; a super block is a block, so it must be at most that\n\n"
                << sim->help("battlecore");
      return kUsageError;
    }
    const auto accepted = set->policies();
    for (const std::string* p : {&options.policy, &options.versus_policy}) {
      if (p->empty() && p == &options.versus_policy) continue;
      if (std::find(accepted.begin(), accepted.end(), *p) == accepted.end()) {
        std::cerr << "battlecore: the " << options.rules << " rule set has no policy '" << *p << "'\n";
        return kUsageError;
      }
    }
    // The MCTS options tune that policy: where no side plays it they would be ignored. (Clash:
    // --policy mcts with every seat given another policy by --seat-policy is refused by the run,
    // which knows the encounter's seats.)
    options.mcts_options_given = sim->count("--mcts-iterations") + sim->count("--mcts-exploration") > 0;
    const bool mcts_plays =
        options.policy == "mcts" || options.versus_policy == "mcts" ||
        std::any_of(options.seat_policies.begin(), options.seat_policies.end(),
                    [](const std::string& seat) { return seat.substr(seat.find('=') + 1) == "mcts"; });
    for (const char* flag : {"--mcts-iterations", "--mcts-exploration"})
      if (!mcts_plays && sim->count(flag) > 0) {
        std::cerr << "battlecore: " << flag
                  << " tunes the mcts policy, and no side plays it (--policy, --versus-policy"
                  << (takes(*set, "--seat-policy") ? ", --seat-policy" : "") << ")\n\n"
                  << sim->help("battlecore");
        return kUsageError;
      }
  }

  // `sim` counts a battle's engine error and goes on, `play` ends the session with it (and records
  // it), `replay` reports it; one raised anywhere else (a battle that breaks while it starts)
  // ends the command with its message rather than an abort.
  try {
    if (graph->parsed()) return set->graph(options, io);
    if (validate->parsed()) return set->validate(options, io);
    if (list->parsed()) return set->list(options, io);
    if (sim->parsed()) return set->sim(options, io);
    if (play->parsed()) {
      const InterruptEndsSession interrupt;
      const int code = set->play(options, {io.in, io.out, io.err, interrupt.flag()});
      if (!interrupt.interrupted() || code != kOk) return code;
      io.err << "battlecore: interrupted\n";
      return kInterrupted;
    }
    if (replay->parsed()) return set->replay(options, io, *replay_file);
  } catch (const battlecore::InvariantError& e) {
    battlecore::sim::report_engine_error(std::cout, std::cerr, e);
    return kFailure;
  }
  return kUsageError;
}

}  // namespace

int main(int argc, char** argv) {
  const int status = run_command(argc, argv);
  // What the command printed must have reached standard output: on a full disk, say, a report
  // lost is an error, not a success.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "battlecore: could not write to standard output\n";
    return kWriteError;
  }
  return status;
}
