#pragma once
// `sim --scenario FILE --record DIR [--record-failures]` for any rule set R: the options become
// the run's scenario and its after-battle hook (battlecore/sim/recording.hpp), so recorded runs
// use the same runner, threads and shards as any other.

#include <filesystem>
#include <memory>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/sim/recording.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"

namespace battlecore::cli {

/// Adds the scenario (already checked; null for none) and --record to `config`: false, with the
/// reason on io.err, when they are refused.
template <class R>
bool add_recording(const Options& options, Io io, const std::shared_ptr<const typename R::Catalog>& catalog,
                   const nlohmann::json& scenario, sim::SimConfig& config) {
  config.scenario = scenario;
  if (options.record.empty()) {
    if (!options.record_failures) return true;
    io.err << "battlecore: --record-failures needs --record DIR\n";
    return false;
  }
  if (!options.versus_policy.empty()) {
    io.err << "battlecore: --record records the battles of one policy; it does not go with --versus-policy\n";
    return false;
  }
  const auto encounter = sim::resolve_encounter(*catalog, config);
  if (!encounter) {
    io.err << "battlecore: " << encounter.error().message << "\n";
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(options.record, ec);
  if (ec) {
    io.err << fmt::format("battlecore: cannot create directory '{}': {}\n", options.record, ec.message());
    return false;
  }
  config.after_battle = sim::replay_writer<R>(catalog, catalog->encounters[encounter.value()].id, scenario,
                                              options.record, options.record_failures);
  return true;
}

}  // namespace battlecore::cli
