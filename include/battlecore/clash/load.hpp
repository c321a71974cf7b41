#pragma once
/// Loading clash content: strict and total; any error means no catalog.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::clash {

using CatalogResult = Result<std::shared_ptr<const Catalog>, content::Diagnostics>;

/// Loads a pack directory (its *.json files, merged) or a single content file.
CatalogResult load_catalog(const std::filesystem::path& path);
/// Loads already parsed documents, in order (used by tests and embedders).
CatalogResult load_catalog(const std::vector<content::JsonDocument>& documents);
/// Parses and loads JSON text (tests); `file` names it in diagnostics.
CatalogResult load_catalog_text(std::string file, std::string text);

/// Reads one card, {"element": "fire", "value": 7} (content and scenarios): every problem is
/// reported through `r` and the card is then not to be used.
Card read_card(content::ObjectReader& r);

/// The most encounters a pack defines.
inline constexpr std::size_t kMaxEncounters = 4000;

/// The keys a content file may have at its top level.
inline constexpr std::array<std::string_view, 2> kContentSections = {"pack", "encounters"};

}  // namespace battlecore::clash
