#pragma once
/// What every rule set's scenario format shares (docs/determinism.md#scenarios): the header
/// (`format`, `format_version`, `rules`, each checked when present), the encounter (the pack's
/// default when absent) and the seed.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::content {

inline constexpr std::string_view kScenarioFormat = "battlecore-scenario";

/// `scenario` naming `encounter` when it is an object that names none: a scenario's encounter is
/// the one it names, else the one asked for (--encounter), else the pack's default.
inline nlohmann::json scenario_naming(const nlohmann::json& scenario, std::string_view encounter) {
  if (!scenario.is_object() || scenario.contains("encounter") || encounter.empty()) return scenario;
  nlohmann::json named = scenario;
  named["encounter"] = encounter;
  return named;
}

/// Reads a scenario's header, encounter and seed (`seed` replaces the scenario's when given).
/// Problems are reported through `r`; the encounter index and the seed, or nothing when the
/// battle cannot start (then the overrides are not read: their ranges depend on the battle).
template <class Catalog>
auto read_scenario_start(ObjectReader& r, const Catalog& c, std::string_view rules, std::uint32_t version,
                         std::optional<std::uint64_t> seed)
    -> std::optional<std::pair<typename decltype(c.pack.default_encounter)::value_type, std::uint64_t>> {
  const std::size_t before = r.diagnostics().size();
  if (const auto format = r.optional_string("format"); format && *format != kScenarioFormat)
    r.error_at("format", fmt::format("expected \"{}\", got \"{}\"", kScenarioFormat, *format));
  if (const auto v = r.optional_int("format_version", 0, 1'000'000); v && *v != version)
    r.error_at("format_version",
               fmt::format("scenario format version {} is not supported; this engine reads version {}", *v,
                           version));
  if (const auto named = r.optional_string("rules"); named && *named != rules)
    r.error_at("rules", fmt::format("the scenario is of rule set '{}', not '{}'", *named, rules));
  auto encounter = c.pack.default_encounter;
  if (const auto id = r.optional_string("encounter")) {
    encounter = c.find_encounter(*id);
    if (!encounter) r.error_at("encounter", fmt::format("no encounter '{}' in pack '{}'", *id, c.pack.id));
  } else if (!encounter) {
    r.error("the pack names no default encounter; give \"encounter\"");
  }
  std::uint64_t battle_seed = r.optional_seed("seed").value_or(1);
  if (seed) battle_seed = *seed;
  if (r.diagnostics().size() != before || !encounter) return std::nullopt;
  return std::pair{*encounter, battle_seed};
}

/// Reads the array override at `key`, when present, one entry per thing the battle has (its
/// seats, members, enemies; `noun` in the plural): more entries than `count` are refused
/// ("<holder> has <count> <noun>; <n> are given", at `key`, the noun in the singular for 1), and `read(entry,
/// i)` reads entry i of the first `count` through an ObjectReader at `/key/i` (one that has reported a value
/// that is not an object when it is not valid). Whether `key` is present.
template <class Read>
bool read_entries(ObjectReader& r, std::string_view key, std::size_t count, std::string_view holder,
                  std::string_view noun, Read read) {
  const nlohmann::json* list = r.optional_array(key);
  if (!list) return false;
  if (list->size() > count)
    r.error_at(key, fmt::format("{} has {}; {} are given", holder, counted(count, noun), list->size()));
  for (std::size_t i = 0; i < std::min(list->size(), count); ++i) {
    ObjectReader entry(r.document(), (*list)[i], child_pointer(r.pointer_of(key), i), r.diagnostics());
    read(entry, i);
  }
  return true;
}

/// The frame of every rule set's start_scenario. Reads the header, the encounter and the seed;
/// `start(battle, encounter, seed, r)` brings `battle` to where a scenario begins (false once it
/// has reported why it cannot); `overrides(r, battle)` reads the rest of the scenario into it
/// (false on a problem), the keys `override_keys` in that order. The battle comes back only when
/// no problem was reported; otherwise every problem does.
template <class Battle, class Catalog, class Start, class Overrides>
Result<Battle, Diagnostics> start_scenario_frame(const Catalog& catalog, const JsonDocument& doc,
                                                 std::string_view rules, std::uint32_t version,
                                                 std::span<const std::string_view> override_keys,
                                                 std::optional<std::uint64_t> seed, Battle battle,
                                                 Start start, Overrides overrides) {
  Diagnostics diags;
  ObjectReader r(doc, doc.root, "", diags);
  if (!r.valid()) return diags;
  // Without a battle the overrides cannot be checked (their ranges depend on it): stop here,
  // reporting only the keys that are no override at all.
  const auto begin = read_scenario_start(r, catalog, rules, version, seed);
  if (!begin || !start(battle, begin->first, begin->second, r)) {
    for (std::string_view key : override_keys) (void)r.optional_value(key);
    r.finish();
    return diags;
  }
  if (!overrides(r, battle) || !diags.empty()) return diags;
  return battle;
}

}  // namespace battlecore::content
