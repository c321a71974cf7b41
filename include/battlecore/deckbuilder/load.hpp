#pragma once
/// Loading deckbuilder content: strict, total, two passes (ids, then everything with its
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
#include "battlecore/deckbuilder/catalog.hpp"

namespace battlecore::deckbuilder {

using CatalogResult = Result<std::shared_ptr<const Catalog>, content::Diagnostics>;

/// Loads a pack directory (its *.json files, merged) or a single content file.
CatalogResult load_catalog(const std::filesystem::path& path);
/// Loads already parsed documents, in order (used by tests and embedders).
CatalogResult load_catalog(const std::vector<content::JsonDocument>& documents);

/// The most items of one kind (cards, statuses, hooks, enemies, players, encounters, reward pools)
/// a pack defines; the upgraded cards come on top of the cards.
inline constexpr std::size_t kMaxIdsPerKind = 4000;
/// The most nested effect lists (of `repeat`, `conditional`, `choice`, `delayed` and
/// `for_each_enemy` ops) a pack compiles: an op names its list in 16 bits (Op::block).
inline constexpr std::size_t kMaxBlocks = std::size_t{1} << 16;
/// The most conditions (of `conditional` ops and behaviour rules) a pack compiles: an op names
/// its condition in 16 bits (Op::ref).
inline constexpr std::size_t kMaxConditions = std::size_t{1} << 16;

/// The keys a content file may have at its top level.
inline constexpr std::array<std::string_view, 8> kContentSections = {
    "pack", "cards", "statuses", "enemies", "players", "encounters", "hooks", "reward_pools"};

}  // namespace battlecore::deckbuilder
