#pragma once
// The precompiled header of the engine's libraries and the battlecore program (the
// battlecore_precompile function of the top-level CMakeLists.txt): third-party and standard
// headers only, which change with the system, not with the project, so editing the engine never
// rebuilds it. The sources still include what they use.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
