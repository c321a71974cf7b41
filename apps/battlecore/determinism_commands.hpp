#pragma once
// The determinism commands every rule set shares (docs/determinism.md), as templates over the
// rule set's adapter R (battlecore/sim/<rules>_rules.hpp): checking a replay file, reading and
// checking --scenario, the encounter and seed a session starts from, and recording one battle.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/sim/replay.hpp"
#include "commands.hpp"

namespace battlecore::cli {

/// The scenario's own seed when it names one, else `fallback` (play's --seed).
inline std::uint64_t scenario_seed(const nlohmann::json& scenario, std::uint64_t fallback) {
  if (!scenario.is_object()) return fallback;
  const auto it = scenario.find("seed");
  return it != scenario.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : fallback;
}

/// The encounter a battle starts with: the scenario's, else --encounter, else the pack's
/// default; empty after printing why when there is none.
template <class Catalog>
std::string start_encounter(const nlohmann::json& scenario, const std::string& option, const Catalog& catalog,
                            std::ostream& err) {
  if (scenario.is_object())
    if (const auto it = scenario.find("encounter"); it != scenario.end() && it->is_string())
      return it->get<std::string>();
  if (!option.empty()) return option;
  if (!catalog.pack.default_encounter) {
    err << "battlecore: the pack names no default encounter; pass --encounter ID\n";
    return {};
  }
  return catalog.encounters[*catalog.pack.default_encounter].id;
}

/// The scenario of --scenario, checked against the catalog with `start_scenario(catalog, doc)`
/// (every problem printed): null when none was given, nullopt when it is refused.
template <class Catalog, class StartScenario>
std::optional<nlohmann::json> checked_scenario(const Options& options,
                                               const std::shared_ptr<const Catalog>& catalog,
                                               std::ostream& err, StartScenario start_scenario) {
  if (options.scenario.empty()) return nlohmann::json();
  content::Diagnostics diags;
  auto doc = content::parse_json_file(options.scenario, diags);
  if (doc) {
    auto started = start_scenario(catalog, *doc);
    if (started) return doc->root;
    diags = started.error();
  }
  err << diags.to_string();
  err << fmt::format("battlecore: {} problem(s) in scenario {} (pack '{}'); nothing was started\n",
                     diags.size(), options.scenario, catalog->pack.id);
  return std::nullopt;
}

/// Writes the replay of `actions` played from `start` to `path`; false after printing why.
template <class R, class Actions>
bool write_battle_replay(const std::shared_ptr<const typename R::Catalog>& catalog,
                         const sim::BattleStart& start, const Actions& actions,
                         const std::filesystem::path& path, std::ostream& err) {
  auto replay = sim::record_replay<R>(catalog, start, actions);
  auto written = replay ? sim::write_replay(path, replay.value()) : Result<void>(replay.error());
  if (!written) err << "battlecore: " << written.error().message << "\n";
  return written.ok();
}

/// `battlecore replay FILE`: 0 match, 1 the first diverging action named, 2 a malformed file or
/// other content. `load()` gives the catalog (null after printing why).
template <class R, class Load>
int replay_command(const Options& options, Io io, Load load) {
  auto replay = sim::read_replay(options.replay);
  if (!replay) {
    io.err << replay.error().to_string();
    io.err << fmt::format("battlecore: malformed replay {}: {} problem(s)\n", options.replay,
                          replay.error().size());
    return kUsageError;
  }
  const auto catalog = load();
  if (!catalog) return kUsageError;
  const sim::ReplayCheck check = sim::check_replay<R>(catalog, replay.value());
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

}  // namespace battlecore::cli
