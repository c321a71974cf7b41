#pragma once
// Snapshots of a battle in the middle of play, for every rule set: writing one (the JSON object
// and its text) and restoring one (parsing the text and rebuilding the battle, with every check
// restore makes). The counter snapshot_bytes is the size of the text.

#include <benchmark/benchmark.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace battlecore::bench {

// `snapshot` and `restore` are found by argument-dependent lookup in the battle's namespace.

/// Writes the snapshot of `battle` as text, as `battlecore` saves it.
template <class Battle>
void snapshot_write(benchmark::State& st, const Battle& battle) {
  std::size_t bytes = 0;
  for (auto _ : st) {
    const std::string text = snapshot(battle).dump();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  st.counters["snapshot_bytes"] = static_cast<double>(bytes);
}

/// Restores `battle` from its snapshot's text. The run fails if the restore is refused or gives
/// a battle whose state hash differs from the original's (checked once, before the timed loop).
template <class Battle, class Catalog>
void snapshot_restore(benchmark::State& st, const Battle& battle,
                      const std::shared_ptr<const Catalog>& catalog) {
  const std::string text = snapshot(battle).dump();
  const auto first = restore(catalog, nlohmann::json::parse(text));
  if (!first || first.value().state_hash() != battle.state_hash()) {
    st.SkipWithError("the snapshot did not restore the same battle");
    return;
  }
  for (auto _ : st) {
    auto restored = restore(catalog, nlohmann::json::parse(text));
    benchmark::DoNotOptimize(restored);
  }
  st.counters["snapshot_bytes"] = static_cast<double>(text.size());
}

}  // namespace battlecore::bench
