#include "deckbuilder_determinism.hpp"

#include <ostream>

#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
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

int deckbuilder_replay(const sim::ReplayFile& file, const Options& options, Io io,
                       const CatalogLoader& load) {
  return replay_file<sim::DeckbuilderRules>(file, options, io, load);
}

}  // namespace battlecore::cli
