#include "deckbuilder_determinism.hpp"

#include <ostream>

#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/recording.hpp"
#include "determinism.hpp"

namespace battlecore::cli {

std::optional<nlohmann::json> deckbuilder_scenario(const Options& options, const deckbuilder::Catalog&,
                                                   const std::shared_ptr<const deckbuilder::Catalog>& shared,
                                                   std::ostream& err) {
  return scenario_option(options, shared, err, [](const auto& catalog, const content::JsonDocument& doc) {
    return deckbuilder::start_scenario(catalog, doc);
  });
}

std::uint64_t scenario_seed(const nlohmann::json& scenario, std::uint64_t fallback) {
  if (!scenario.is_object()) return fallback;
  const auto it = scenario.find("seed");
  return it != scenario.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : fallback;
}

bool recorded_run_options_ok(const Options& options, std::ostream& err) {
  if (options.threads != 1 || !options.shard.empty() || !options.versus_policy.empty() ||
      !options.report.empty()) {
    err << "battlecore: --record and --scenario run on one thread without --shard, "
           "--versus-policy or --report\n";
    return false;
  }
  return true;
}

int deckbuilder_sim_recorded(const Options& options, Io io,
                             const std::shared_ptr<const deckbuilder::Catalog>& catalog) {
  const auto scenario = deckbuilder_scenario(options, *catalog, catalog, io.err);
  if (!scenario) return kUsageError;
  const sim::SimConfig config{options.encounter, options.battles, options.seed, options.policy};
  const sim::RecordConfig record{options.record, options.record_failures, *scenario};
  auto report = sim::simulate_deckbuilder_recorded(catalog, config, record);
  if (!report) {
    io.err << "battlecore: " << report.error().message << "\n";
    return kUsageError;
  }
  return print_report(options, io, report.value());
}

int deckbuilder_replay(const Options& options, Io io, const CatalogLoader& load) {
  return replay_file<sim::DeckbuilderRules>(options, io, load);
}

}  // namespace battlecore::cli
