#pragma once
/// Finding the bundled content packs from any working directory.

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace battlecore::sim {

/// Where bundled packs are looked for, in order: $BATTLECORE_DATA; `data/` beside the running
/// executable and in each of its three parent directories, and `../share/battlecore/data`; the source tree's
/// `data/`.
std::vector<std::filesystem::path> data_roots();
/// The directory of pack `pack` of rule set `rules` (data/<rules>/<pack>), if found.
std::optional<std::filesystem::path> find_bundled_pack(std::string_view rules,
                                                       std::string_view pack = "starter");

}  // namespace battlecore::sim
