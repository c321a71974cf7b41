#pragma once
// The precompiled header of the test programs (tests/CMakeLists.txt): third-party and standard
// headers only, which change with the system, not with the project, so editing the engine never
// rebuilds it.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
