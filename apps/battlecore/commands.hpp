#pragma once
/// The command line's view of a rule set: each rule set implements these commands in its own
/// file (`<rules>_commands.cpp`) and main.cpp lists it once in `rule_sets()`.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/play_input.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/sim/content_path.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::cli {

/// Exit codes shared by every command.
inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;     ///< a run that found a failure (engine error, divergence)
inline constexpr int kUsageError = 2;  ///< bad arguments or bad content
inline constexpr int kWriteError = 3;  ///< the output could not be written (stdout, the --report file)

/// Everything the subcommands parse; a command reads the fields it needs.
struct Options {
  std::string rules;
  std::string format = "dot";  ///< graph: dot or mermaid
  std::string content;         ///< pack directory or file; empty: the bundled pack
  std::string encounter;       ///< empty: the pack's default
  std::string policy = "random";
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  bool json = false;
  std::string record;            ///< play: the replay file to write; sim: the directory for replays
  bool record_failures = false;  ///< sim: record only the battles that hit an engine error
  std::string scenario;          ///< play, sim: a scenario file to start from
  std::string replay;            ///< replay: the replay file to check
  // sim at scale (docs/simulation.md)
  unsigned threads = 1;
  /// --shard K/N, read: run the K-th of N seed ranges (1/1: the whole run).
  std::pair<std::uint32_t, std::uint32_t> shard{1, 1};
  std::string versus_policy;  ///< paired A/B: policy B on the same seeds
  /// deckbuilder sim: side A's master deck, read from "ID[*N],..." (empty: not given).
  std::vector<std::string> deck;
  std::vector<std::string> versus_deck;  ///< deckbuilder sim: paired A/B: side B's master deck
  std::string versus_content;            ///< sim: paired A/B: side B plays this pack
  std::uint32_t mcts_iterations = 200;
  double mcts_exploration = 0.7;
  bool mcts_options_given = false;         ///< --mcts-iterations or --mcts-exploration was given
  bool no_enemy_damage = false;            ///< leave the enemy damage columns out of the report
  std::string report;                      ///< write the HTML report here
  std::vector<std::string> files;          ///< report merge: the shard reports (sim --json outputs)
  std::uint32_t block_rate = 60;           ///< party sim: percent of enemy hits a bot blocks
  std::uint32_t super_block_rate = 15;     ///< party sim: percent of enemy hits a bot super blocks
  std::vector<std::string> seat_policies;  ///< clash sim: "K=NAME", the policy of seat K
};

/// The streams a command writes to (and reads from, for play).
struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  const InterruptFlag* interrupted = nullptr;  ///< play: set by Ctrl-C, it ends the session
  /// What a play session reads: `in` until `interrupted` is set.
  PlayInput play_input() const { return {in, interrupted}; }
};

/// One rule set's commands. Each returns an exit code.
class RuleSetCommands {
 public:
  virtual ~RuleSetCommands() = default;
  virtual std::string_view name() const = 0;
  /// The policy names `sim --policy` accepts.
  virtual std::vector<std::string> policies() const = 0;
  /// The `sim` options only this rule set takes (`--seat-policy`); the others refuse them.
  virtual std::vector<std::string_view> own_sim_options() const { return {}; }
  virtual int graph(const Options& options, Io io) = 0;
  virtual int validate(const Options& options, Io io) = 0;
  virtual int list(const Options& options, Io io) = 0;
  virtual int sim(const Options& options, Io io) = 0;
  virtual int play(const Options& options, Io io) = 0;
  /// How a replay file of this rule set reads its actions (sim::action_check of its adapter).
  virtual sim::ActionCheck replay_action_check() const { return {}; }
  /// Replays `file`, read from options.replay and naming this rule set, against the content: 0
  /// match, 1 divergence, 2 bad file or content.
  virtual int replay(const Options& options, Io io, const sim::ReplayFile& file);
};

/// The replay file at `path`, read once (sim::read_replay_file), its actions by the rule set of
/// `sets` it names; nullopt once its problems are printed on `err` (every problem, when it names
/// none of them, that reading without a rule set finds).
std::optional<sim::ReplayFile> read_replay(const std::string& path,
                                           const std::vector<std::unique_ptr<RuleSetCommands>>& sets,
                                           std::ostream& err);

/// The content at `path`, or the directory of the bundled pack `rules`/`pack` when `path` is
/// empty; nullopt, with the reason on `err`, when that pack is not found (`instead` says how the
/// command takes a path).
inline std::optional<std::filesystem::path> content_path(std::string_view rules, std::string_view pack,
                                                         const std::string& path, std::ostream& err,
                                                         std::string_view instead = "pass --content DIR") {
  if (!path.empty()) return std::filesystem::path(path);
  auto found = sim::find_bundled_pack(rules, pack);
  if (!found) err << fmt::format("battlecore: the bundled {} pack was not found; {}\n", rules, instead);
  return found;
}

/// Loads the content at `path`, or the bundled pack `rules`/`pack` when `path` is empty, with
/// the rule set's `load_catalog`; prints every diagnostic and returns null on failure.
template <class Load>
auto load_pack(std::string_view rules, std::string_view pack, const std::string& path, std::ostream& err,
               Load load_catalog) -> std::decay_t<decltype(load_catalog(std::filesystem::path{}).value())> {
  const auto dir = content_path(rules, pack, path, err);
  if (!dir) return nullptr;
  auto loaded = load_catalog(*dir);
  if (!loaded) {
    err << loaded.error().to_string();
    err << fmt::format("battlecore: {} problem(s) in {}; nothing was loaded\n", loaded.error().size(),
                       dir->string());
    return nullptr;
  }
  return loaded.value();
}

/// `battlecore validate`: loads the content at options.content, or the bundled pack `rules`/`pack`
/// when none is given, with the rule set's `load_content(path, err)` (which prints every problem)
/// and prints "PATH: valid (SUMMARY)", SUMMARY from `summary(catalog)`.
template <class Load, class Summary>
int validate_content(std::string_view rules, std::string_view pack, const Options& options, Io io,
                     Load load_content, Summary summary) {
  const auto dir = content_path(rules, pack, options.content, io.err, "give the path to check");
  if (!dir) return kUsageError;
  const auto catalog = load_content(dir->string(), io.err);
  if (!catalog) return kUsageError;
  io.out << fmt::format("{}: valid ({})\n", dir->string(), summary(*catalog));
  return kOk;
}

/// `battlecore graph` for the rule set whose phase-machine traits are `Machine`.
template <class Machine>
int print_graph(const Options& options, std::ostream& out) {
  const auto g = make_phase_graph<Machine>();
  out << (options.format == "mermaid" ? to_mermaid(g) : to_dot(g));
  return kOk;
}

/// The ids of a catalog's definitions, in catalog order.
template <class Defs>
std::vector<std::string> ids_of(const Defs& defs) {
  std::vector<std::string> ids;
  for (const auto& d : defs) ids.push_back(d.id);
  return ids;
}

std::unique_ptr<RuleSetCommands> make_deckbuilder_commands();
std::unique_ptr<RuleSetCommands> make_party_commands();

// Shared by every rule set's sim (sim_output.cpp).
}  // namespace battlecore::cli
namespace battlecore::sim {
struct SimReport;
struct SimConfig;
}  // namespace battlecore::sim
namespace battlecore::cli {
/// A progress bar on `err` when it is a terminal, drawn once a run has lasted a second; empty
/// otherwise.
std::function<void(std::uint64_t, std::uint64_t, double)> terminal_progress(std::ostream& err);
/// The run's configuration from the command line: battles, seeds, policies, threads, shard and
/// the progress bar.
sim::SimConfig sim_config(const Options& options, Io io);
/// False (with the reason on io.err) when a file cannot be written at `path`, the value of
/// `option`: it is a directory, its directory does not exist, or it is not writable. An empty
/// path (the option not given) is fine.
bool output_file_ok(std::string_view option, const std::string& path, Io io);
/// For an output directory (sim --record DIR): true when `path` is a directory that can be
/// written, or does not exist and its nearest existing ancestor is one (in which it can then be
/// made); otherwise false, with the reason on io.err.
bool output_dir_ok(std::string_view option, const std::string& path, Io io);
/// Prints the report (text or --json), writes --report FILE.html; the exit code of the run.
int finish_sim(const Options& options, const sim::SimReport& report, Io io);
/// finish_sim, or the error of a run that could not start or stopped (exit `stopped_status`: 2,
/// or kWriteError for a run stopped by a replay file it could not write).
int finish_sim(const Options& options, const Result<sim::SimReport>& report, Io io,
               int stopped_status = kUsageError);
/// `battlecore report merge FILES...`: merges shard reports into the report of the whole run.
int report_merge(const Options& options, Io io);

/// Options of `battlecore serve`, the battle monitor (not tied to one rule set).
struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  bool reveal = false;  ///< snapshots of battles in play (monitor::ServerOptions::reveal)
};
/// Runs the monitor's server until the process is stopped (serve_command.cpp).
int serve(const ServeOptions& options, Io io);
std::unique_ptr<RuleSetCommands> make_clash_commands();

}  // namespace battlecore::cli
