#pragma once
// What every rule set's replay, recording and scenario commands share (docs/determinism.md):
// generic over the rule-set adapter R and called from <rules>_commands.cpp. Recorded and
// scenario runs are ordinary runs of the shared runner with a scenario and an after-battle hook.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/content/scenario_io.hpp"
#include "battlecore/sim/recording.hpp"
#include "battlecore/sim/replay.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"

namespace battlecore::cli {

/// The scenario of --scenario, checked against the catalog by `start_scenario(catalog, doc)`
/// (every problem printed): null when none was given, nullopt when it is refused, or when
/// --encounter names another encounter than the scenario's.
template <class Catalog, class StartScenario>
std::optional<nlohmann::json> scenario_option(const Options& options,
                                              const std::shared_ptr<const Catalog>& catalog,
                                              std::ostream& err, StartScenario start_scenario) {
  if (options.scenario.empty()) return nlohmann::json();
  content::Diagnostics diags;
  auto doc = content::parse_json_file(options.scenario, diags);
  if (doc) {
    // A scenario that names no encounter starts --encounter's, and is checked against it.
    doc->root = content::scenario_naming(doc->root, options.encounter);
    // A duplicate key found while parsing refuses the scenario as much as a bad override does.
    auto started = start_scenario(catalog, *doc);
    if (started && diags.empty()) {
      // The scenario's encounter is the one played: a different --encounter is refused, not ignored.
      const auto named = doc->root.find("encounter");
      if (options.encounter.empty() || named == doc->root.end() || !named->is_string() ||
          *named == options.encounter)
        return doc->root;
      err << fmt::format(
          "battlecore: --encounter '{}' but scenario {} starts encounter '{}'; give one of them\n",
          options.encounter, options.scenario, named->get<std::string>());
      return std::nullopt;
    }
    if (!started)
      for (const content::Diagnostic& d : started.error().items()) diags.add(d);
  }
  err << diags.to_string();
  err << fmt::format("battlecore: {} problem(s) in scenario {} (pack '{}'); nothing was started\n",
                     diags.size(), options.scenario, catalog->pack.id);
  return std::nullopt;
}

/// The scenario's own seed when it names one, else `fallback` (play's --seed).
std::uint64_t scenario_seed(const nlohmann::json& scenario, std::uint64_t fallback);

/// `replay FILE` for rule set R, `file` read from it (read_replay): 0 when it matches, 1 naming
/// the first diverging action, 2 for a start the content refuses or other content. `load` gives
/// the catalog (null after printing why not).
template <class R, class Load>
int replay_file(const sim::ReplayFile& file, const Options& options, Io io, Load load) {
  const auto catalog = load();
  if (!catalog) return kUsageError;
  const sim::Replay& replay = file.replay;
  if (const content::Diagnostics problems = sim::replay_start_problems<R>(catalog, file); !problems.empty()) {
    io.err << problems.to_string();
    io.err << fmt::format("battlecore: malformed replay {}: {} problem(s)\n", options.replay,
                          problems.size());
    return kUsageError;
  }
  const sim::ReplayCheck check = sim::check_replay<R>(catalog, replay);
  switch (check.kind) {
    case sim::ReplayCheck::Kind::Match:
    case sim::ReplayCheck::Kind::Diverged:
      io.out << options.replay << ": " << check.message << "\n";
      break;
    case sim::ReplayCheck::Kind::Malformed:
      io.err << "battlecore: malformed replay " << options.replay << ": " << check.message << "\n";
      break;
    case sim::ReplayCheck::Kind::ContentMismatch:
      io.err << "battlecore: " << options.replay << ": " << check.message << "\n";
      break;
  }
  return check.exit_code();
}

/// Adds the scenario (already checked; null for none) and --record to `config`: false, with the
/// reason on io.err, when they are refused. `unwritten` is set when the run stops on a replay
/// file it cannot write (its exit status is then kWriteError); it must outlive the run.
template <class R>
bool add_recording(const Options& options, Io io, const std::shared_ptr<const typename R::Catalog>& catalog,
                   const nlohmann::json& scenario, sim::SimConfig& config, std::atomic<bool>& unwritten) {
  config.scenario = scenario;
  if (options.record.empty()) {
    if (!options.record_failures) return true;
    io.err << "battlecore: --record-failures needs --record DIR\n";
    return false;
  }
  if (!options.versus_policy.empty() || !options.versus_deck.empty() || !options.versus_content.empty()) {
    io.err << "battlecore: --record records the battles of one side; it does not go with --versus-policy, "
              "--versus-deck or --versus-content\n";
    return false;
  }
  const auto encounter = sim::resolve_encounter(*catalog, config.encounter, config.scenario);
  if (!encounter) {
    io.err << "battlecore: " << encounter.error().message << "\n";
    return false;
  }
  if (!output_dir_ok("--record", options.record, io)) return false;
  // Made once the run has passed its checks: a run refused (a deck naming an unknown card, say)
  // leaves no directory behind.
  config.before_run = [dir = std::filesystem::path(options.record)]() -> Result<void> {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{fmt::format("cannot create directory '{}': {}", dir.string(), ec.message())};
    return {};
  };
  config.after_battle =
      sim::replay_writer<R>(catalog, catalog->encounters[encounter.value()].id, scenario, options.record,
                            options.record_failures, config.deck, &unwritten);
  return true;
}

}  // namespace battlecore::cli
