// Deckbuilder benchmarks on workload W1 (the starter pack's w1 encounter, random legal policy,
// event log and history off). Run with `make bench`; figures go to docs/performance.md.

#include <benchmark/benchmark.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/sim/simulate.hpp"

namespace {

using namespace battlecore;
using namespace battlecore::deckbuilder;

std::shared_ptr<const Catalog> starter() {
  static const std::shared_ptr<const Catalog> catalog = [] {
    auto loaded = load_catalog(std::filesystem::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter");
    if (!loaded) throw std::runtime_error(loaded.error().to_string());
    return loaded.value();
  }();
  return catalog;
}

constexpr BattleOptions kQuiet{.event_log = false, .record_history = false};

// Whole W1 battles, setup from the loaded catalog included.
void BM_W1Battles(benchmark::State& st) {
  const auto catalog = starter();
  const EncounterId w1 = *catalog->find_encounter("w1");
  Battle battle(catalog, kQuiet);
  RandomPolicy policy;
  std::vector<Action> options;
  std::uint64_t i = 0, decisions = 0;
  for (auto _ : st) {
    const std::uint64_t seed = battle_seed(1, i++);
    policy.reset(sim::policy_seed(seed));
    (void)battle.start_battle(w1, seed);
    while (battle.status() == Status::AwaitingDecision) {
      battle.legal_actions(options);
      (void)battle.submit(options[policy.pick(options.size())]);
      ++decisions;
    }
    benchmark::DoNotOptimize(battle.state().player.hp);
  }
  st.counters["battles_per_s"] = benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
  st.counters["decisions_per_s"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_W1Battles);

// Copying a battle in the middle of W1 (the first decision of battle 0).
void BM_W1Clone(benchmark::State& st) {
  const auto catalog = starter();
  Battle root(catalog, kQuiet);
  (void)root.start_battle("w1", battle_seed(1, 0));
  for (auto _ : st) {
    Battle copy = root;
    benchmark::DoNotOptimize(copy);
  }
  st.counters["sizeof_state"] = static_cast<double>(sizeof(BattleState));
}
BENCHMARK(BM_W1Clone);

// Listing the legal options at the first decision.
void BM_W1LegalActions(benchmark::State& st) {
  const auto catalog = starter();
  Battle battle(catalog, kQuiet);
  (void)battle.start_battle("w1", battle_seed(1, 0));
  std::vector<Action> options;
  for (auto _ : st) {
    battle.legal_actions(options);
    benchmark::DoNotOptimize(options.data());
  }
}
BENCHMARK(BM_W1LegalActions);

}  // namespace
