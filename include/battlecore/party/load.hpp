#pragma once
/// Loading party content: strict, total, two passes (ids, then everything with its
/// references), then frozen into an immutable Catalog. Any error means no catalog.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/catalog.hpp"

namespace battlecore::party {

using CatalogResult = Result<std::shared_ptr<const Catalog>, content::Diagnostics>;

/// Loads a pack directory (its *.json files, merged) or a single content file.
CatalogResult load_catalog(const std::filesystem::path& path);
/// Loads already parsed documents, in order (used by tests and embedders).
CatalogResult load_catalog(const std::vector<content::JsonDocument>& documents);

/// The most conditions a pack defines: as many as one actor holds (each once), so that no
/// actor runs out of room whatever it is given.
inline constexpr std::size_t kMaxPackConditions = kMaxConditions;
static_assert(kMaxPackConditions < kNoCondition, "a ConditionId is 8 bits, and 0xFF is kNoCondition");
/// The most a pack defines of any other kind: skills, items, members, companions, allies,
/// enemies, parties, encounters.
inline constexpr std::size_t kMaxIdsPerKind = 4000;

/// The keys a content file may have at its top level.
inline constexpr std::array<std::string_view, 10> kContentSections = {
    "pack",       "conditions", "skills",  "items",   "members",
    "companions", "allies",     "enemies", "parties", "encounters"};

}  // namespace battlecore::party
