#include "deckbuilder_determinism.hpp"

#include <ostream>

#include <fmt/format.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::cli {

std::optional<nlohmann::json> deckbuilder_scenario(const Options& options,
                                                   const deckbuilder::Catalog& catalog,
                                                   const std::shared_ptr<const deckbuilder::Catalog>& shared,
                                                   std::ostream& err) {
  if (options.scenario.empty()) return nlohmann::json();
  content::Diagnostics diags;
  auto doc = content::parse_json_file(options.scenario, diags);
  if (doc) {
    auto started = deckbuilder::start_scenario(shared, *doc);
    if (started) return doc->root;
    diags = started.error();
  }
  err << diags.to_string();
  err << fmt::format("battlecore: {} problem(s) in scenario {} (pack '{}'); nothing was started\n",
                     diags.size(), options.scenario, catalog.pack.id);
  return std::nullopt;
}

std::uint64_t scenario_seed(const nlohmann::json& scenario, std::uint64_t fallback) {
  if (!scenario.is_object()) return fallback;
  const auto it = scenario.find("seed");
  return it != scenario.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : fallback;
}

int deckbuilder_replay(const Options& options, Io io, const CatalogLoader& load) {
  auto replay = sim::read_replay(options.replay);
  if (!replay) {
    io.err << replay.error().to_string();
    io.err << fmt::format("battlecore: malformed replay {}: {} problem(s)\n", options.replay,
                          replay.error().size());
    return kUsageError;
  }
  const auto catalog = load();
  if (!catalog) return kUsageError;
  const sim::ReplayCheck check = sim::check_replay<sim::DeckbuilderRules>(catalog, replay.value());
  switch (check.kind) {
    case sim::ReplayCheck::Kind::Match:
      io.out << options.replay << ": " << check.message << "\n";
      break;
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
