#pragma once
/// The part of a scenario document every rule set reads the same way
/// (docs/determinism.md#scenarios): `format`, `format_version` and `rules` checked when present,
/// `encounter` (default: the pack's) and `seed` (default 1, replaced by the caller's).

#include <cstdint>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"

namespace battlecore::content {

inline constexpr std::string_view kScenarioFormat = "battlecore-scenario";

template <class EncounterId>
struct ScenarioHeader {
  std::optional<EncounterId> encounter;  ///< empty when it is missing or unknown (reported)
  std::uint64_t seed = 1;
};

/// Reads the header keys; problems go to the reader's diagnostics. `catalog` has `pack.id`,
/// `pack.default_encounter` and `find_encounter(id)`.
template <class Catalog>
auto read_scenario_header(ObjectReader& r, const Catalog& catalog, std::uint32_t version, std::string_view rules,
                          std::optional<std::uint64_t> seed) {
  ScenarioHeader<typename decltype(catalog.pack.default_encounter)::value_type> h;
  if (const auto format = r.optional_string("format"); format && *format != kScenarioFormat)
    r.error_at("format", fmt::format("expected \"{}\", got \"{}\"", kScenarioFormat, *format));
  if (const auto v = r.optional_int("format_version", 0, 1'000'000); v && *v != version)
    r.error_at("format_version",
               fmt::format("scenario format version {} is not supported; this engine reads version {}", *v,
                           version));
  if (const auto named = r.optional_string("rules"); named && *named != rules)
    r.error_at("rules", fmt::format("the scenario is of rule set '{}', not '{}'", *named, rules));
  h.encounter = catalog.pack.default_encounter;
  if (const auto id = r.optional_string("encounter")) {
    h.encounter = catalog.find_encounter(*id);
    if (!h.encounter) r.error_at("encounter", fmt::format("no encounter '{}' in pack '{}'", *id, catalog.pack.id));
  } else if (!h.encounter) {
    r.error("the pack names no default encounter; give \"encounter\"");
  }
  if (const nlohmann::json* s = r.optional_value("seed")) {
    if (!s->is_number_unsigned() && !(s->is_number_integer() && s->get<std::int64_t>() >= 0))
      r.error_at("seed", "expected a seed: an integer in [0, 2^64)");
    else
      h.seed = s->get<std::uint64_t>();
  }
  if (seed) h.seed = *seed;
  return h;
}

}  // namespace battlecore::content
