#pragma once
// The deckbuilder's replay, recording and scenario commands (docs/determinism.md), called from
// deckbuilder_commands.cpp.

#include <functional>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/catalog.hpp"
#include "commands.hpp"

namespace battlecore::cli {

using CatalogLoader = std::function<std::shared_ptr<const deckbuilder::Catalog>()>;

/// The scenario of --scenario, checked against the catalog (every problem printed): null when
/// none was given, nullopt when it is refused.
std::optional<nlohmann::json> deckbuilder_scenario(const Options& options,
                                                   const deckbuilder::Catalog& catalog,
                                                   const std::shared_ptr<const deckbuilder::Catalog>& shared,
                                                   std::ostream& err);
/// `replay FILE`, `file` read from it.
int deckbuilder_replay(const sim::ReplayFile& file, const Options& options, Io io, const CatalogLoader& load);

}  // namespace battlecore::cli
