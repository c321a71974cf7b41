// Deckbuilder benchmarks on workload W1 (the starter pack's w1 encounter, random legal policy,
// event log and history off). Run with `make bench`; figures go to docs/performance.md.

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/sim/simulate.hpp"
#include "snapshot_bench.hpp"
#include "started.hpp"

// A counting allocator: every replaceable operator new of the program goes through here, so a
// benchmark can count the heap allocations made inside its loop. The over-aligned forms are
// replaced too (libstdc++'s call aligned_alloc, not the plain form), and so are the nothrow ones,
// with the operator deletes that free what they return. malloc itself is not counted: the engine
// allocates only through new.
namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

/// The heap allocations made so far (rule_set_bench.cpp reads it too).
std::uint64_t bench_allocations() { return g_allocations.load(); }

// GCC pairs the inlined malloc of this operator new with the free of this operator delete and
// warns that they do not match; they are the replacement pair, so they do.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  // aligned_alloc takes a size that is a multiple of the alignment (a power of two).
  const auto a = static_cast<std::size_t>(align);
  if (size > std::numeric_limits<std::size_t>::max() - a) throw std::bad_alloc();
  if (void* p = std::aligned_alloc(a, size == 0 ? a : (size + a - 1) & ~(a - 1))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) { return operator new(size, align); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return operator new(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return operator new(size, std::nothrow);
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  try {
    return operator new(size, align);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return operator new(size, align, std::nothrow);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
#pragma GCC diagnostic pop

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

// Whole W1 battles, setup from the loaded catalog included, played as `battlecore sim` plays them
// (the random policy's pick by pick_option).
void BM_W1Battles(benchmark::State& st) {
  const auto catalog = starter();
  const EncounterId w1 = *catalog->find_encounter("w1");
  Battle battle(catalog, kQuiet);
  RandomPolicy policy;
  Options options;
  std::uint64_t i = 0, decisions = 0;
  for (auto _ : st) {
    const std::uint64_t seed = battle_seed(1, i++);
    policy.reset(policy_seed(seed));
    if (!bench::started(st, battle.start_battle(w1, seed))) break;
    while (battle.status() == Status::AwaitingDecision) {
      battle.submit_listed(battle.pick_option(options, [&](std::size_t n) { return policy.pick(n); }));
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
  if (!bench::started(st, root.start_battle("w1", battle_seed(1, 0)))) return;
  for (auto _ : st) {
    Battle copy = root;
    benchmark::DoNotOptimize(copy);
  }
  st.counters["sizeof_state"] = static_cast<double>(sizeof(BattleState));
}
BENCHMARK(BM_W1Clone);

// Copying a battle into one that already exists, as the MCTS policy does at every iteration
// (its scratch battle is assigned, not constructed): the same copy of the state, without the
// catalog's reference count to take and give back.
void BM_W1CloneInto(benchmark::State& st) {
  const auto catalog = starter();
  Battle root(catalog, kQuiet);
  if (!bench::started(st, root.start_battle("w1", battle_seed(1, 0)))) return;
  Battle copy(catalog, kQuiet);
  for (auto _ : st) {
    benchmark::DoNotOptimize(root);
    copy = root;
    benchmark::DoNotOptimize(copy);
  }
  st.counters["sizeof_state"] = static_cast<double>(sizeof(BattleState));
}
BENCHMARK(BM_W1CloneInto);

// Listing the legal options at the first decision.
void BM_W1LegalActions(benchmark::State& st) {
  const auto catalog = starter();
  Battle battle(catalog, kQuiet);
  if (!bench::started(st, battle.start_battle("w1", battle_seed(1, 0)))) return;
  Options options;
  for (auto _ : st) {
    battle.legal_actions(options);
    benchmark::DoNotOptimize(options.data());
  }
}
BENCHMARK(BM_W1LegalActions);

// The snapshot of a W1 battle at its first decision: written as text, and restored from it.
void BM_W1Snapshot(benchmark::State& st) {
  Battle battle(starter(), kQuiet);
  if (!bench::started(st, battle.start_battle("w1", battle_seed(1, 0)))) return;
  bench::snapshot_write(st, battle);
}
BENCHMARK(BM_W1Snapshot);

void BM_W1Restore(benchmark::State& st) {
  Battle battle(starter(), kQuiet);
  if (!bench::started(st, battle.start_battle("w1", battle_seed(1, 0)))) return;
  bench::snapshot_restore(st, battle, starter());
}
BENCHMARK(BM_W1Restore);

// Heap allocations per decision after warm-up: W1 battles with the random policy, the battle
// object and the options list reused (as `battlecore sim` does). The figure is the counter
// allocations_per_decision; the target is 0.
void BM_W1AllocationsPerDecision(benchmark::State& st) {
  const auto catalog = starter();
  const EncounterId w1 = *catalog->find_encounter("w1");
  Battle battle(catalog, kQuiet);
  RandomPolicy policy;
  Options options;
  std::uint64_t i = 0;
  auto play = [&] {
    std::uint64_t decisions = 0;
    const std::uint64_t seed = battle_seed(7, i++);
    policy.reset(policy_seed(seed));
    // A battle that does not start marks the run failed once; no battle is played after it.
    if (st.error_occurred() || !bench::started(st, battle.start_battle(w1, seed))) return decisions;
    while (battle.status() == Status::AwaitingDecision) {
      battle.submit_listed(battle.pick_option(options, [&](std::size_t n) { return policy.pick(n); }));
      ++decisions;
    }
    return decisions;
  };
  for (int warm = 0; warm < 100; ++warm) play();
  std::uint64_t decisions = 0;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : st) {
    decisions += play();
    if (st.error_occurred()) break;
  }
  const std::uint64_t allocations = g_allocations.load() - before;
  st.counters["allocations"] = static_cast<double>(allocations);
  st.counters["allocations_per_decision"] =
      decisions ? static_cast<double>(allocations) / static_cast<double>(decisions) : 0.0;
}
BENCHMARK(BM_W1AllocationsPerDecision);

// One MCTS decision (the first of a W1 battle) at a given number of iterations; the counter
// iterations_per_s is the search speed.
void BM_MctsDecision(benchmark::State& st) {
  const auto catalog = starter();
  Battle battle(catalog, kQuiet);
  if (!bench::started(st, battle.start_battle("w1", battle_seed(1, 0)))) return;
  std::vector<Action> options;
  battle.legal_actions(options);
  const auto iterations = static_cast<std::uint32_t>(st.range(0));
  MctsPolicy mcts(UctOptions{.iterations = iterations});
  mcts.reset(1);
  std::uint64_t n = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(mcts.choose(battle, options));
    n += iterations;
  }
  st.counters["iterations_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MctsDecision)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

// One greedy decision (the first of a W1 battle).
void BM_GreedyDecision(benchmark::State& st) {
  const auto catalog = starter();
  Battle battle(catalog, kQuiet);
  if (!bench::started(st, battle.start_battle("w1", battle_seed(1, 0)))) return;
  std::vector<Action> options;
  battle.legal_actions(options);
  GreedyPolicy greedy;
  greedy.reset(1);
  for (auto _ : st) benchmark::DoNotOptimize(greedy.choose(battle, options));
}
BENCHMARK(BM_GreedyDecision);

// The batch runner on W1 with the random policy, the event listener for the enemy table on,
// at 1 and 2 threads (real time: the figure to compare is battles_per_s).
void BM_W1Runner(benchmark::State& st) {
  sim::SimConfig config{"w1", 200000, 1, "random"};
  config.threads = static_cast<unsigned>(st.range(0));
  double battles = 0;
  for (auto _ : st) {
    auto r = sim::simulate_deckbuilder(starter(), config);
    benchmark::DoNotOptimize(r.ok());
    battles += static_cast<double>(config.battles);
  }
  st.counters["battles_per_s"] = benchmark::Counter(battles, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_W1Runner)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
