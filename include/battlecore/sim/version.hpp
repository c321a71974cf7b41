#pragma once
/// The version of the build, written into what it records (replays, sim reports).

#include <string_view>

namespace battlecore::sim {

/// The project version this build was made from ("0.1.0").
std::string_view engine_version();

}  // namespace battlecore::sim
