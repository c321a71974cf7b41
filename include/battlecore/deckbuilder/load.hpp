#pragma once
/// Loading deckbuilder content: strict, total, two passes (ids, then everything with its
/// references), then frozen into an immutable Catalog. Any error means no catalog.

#include <filesystem>
#include <memory>
#include <vector>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::deckbuilder {

using CatalogResult = Result<std::shared_ptr<const Catalog>, content::Diagnostics>;

/// Loads a pack directory (its *.json files, merged) or a single content file.
CatalogResult load_catalog(const std::filesystem::path& path);
/// Loads already parsed documents, in order (used by tests and embedders).
CatalogResult load_catalog(const std::vector<content::JsonDocument>& documents);

/// The keys a content file may have at its top level.
inline constexpr std::array<std::string_view, 8> kContentSections = {
    "pack", "cards", "statuses", "enemies", "players", "encounters", "hooks", "reward_pools"};

}  // namespace battlecore::deckbuilder
