#include "deckbuilder_determinism.hpp"

#include <ostream>

#include <fmt/format.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/recording.hpp"
#include "battlecore/sim/replay.hpp"
#include "determinism_commands.hpp"

namespace battlecore::cli {

std::optional<nlohmann::json> deckbuilder_scenario(const Options& options,
                                                   const std::shared_ptr<const deckbuilder::Catalog>& catalog,
                                                   std::ostream& err) {
  return checked_scenario(options, catalog, err, [](const auto& shared, const content::JsonDocument& doc) {
    return deckbuilder::start_scenario(shared, doc);
  });
}

int deckbuilder_sim_recorded(const Options& options, Io io,
                             const std::shared_ptr<const deckbuilder::Catalog>& catalog) {
  const auto scenario = deckbuilder_scenario(options, catalog, io.err);
  if (!scenario) return kUsageError;
  const sim::SimConfig config{options.encounter, options.battles, options.seed, options.policy};
  const sim::RecordConfig record{options.record, options.record_failures, *scenario};
  auto report = sim::simulate_deckbuilder_recorded(catalog, config, record);
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

int deckbuilder_replay(const Options& options, Io io, const CatalogLoader& load) {
  return replay_command<sim::DeckbuilderRules>(options, io, load);
}

}  // namespace battlecore::cli
