// One workload per other rule set: whole clash battles (bots4: four random bots) and party
// battles (swamp: the random policy against the swamp's enemies), event log and history off,
// then the same through the batch runner. Figures go to docs/performance.md.

#include <benchmark/benchmark.h>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/load.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/snapshot.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/load.hpp"
#include "battlecore/party/policies.hpp"
#include "battlecore/party/snapshot.hpp"
#include "battlecore/sim/simulate.hpp"
#include "snapshot_bench.hpp"
#include "started.hpp"

/// The heap allocations made so far (deckbuilder_bench.cpp counts them).
std::uint64_t bench_allocations();

namespace {

using namespace battlecore;

template <class Load>
auto bundled(Load load, const char* rules, const char* pack) {
  auto loaded = load(std::filesystem::path(BATTLECORE_DATA_DIR) / rules / pack);
  if (!loaded) throw std::runtime_error(loaded.error().to_string());
  return loaded.value();
}

std::shared_ptr<const clash::Catalog> classic() {
  static const auto catalog =
      bundled([](const std::filesystem::path& p) { return clash::load_catalog(p); }, "clash", "classic");
  return catalog;
}

std::shared_ptr<const party::Catalog> meadow() {
  static const auto catalog =
      bundled([](const std::filesystem::path& p) { return party::load_catalog(p); }, "party", "meadow");
  return catalog;
}

/// Whole battles of `encounter` with the random policy answering every decision.
template <class Battle, class Catalog, class Policy, class Options>
void whole_battles(benchmark::State& st, const std::shared_ptr<const Catalog>& catalog, const char* encounter,
                   Options quiet) {
  const auto id = *catalog->find_encounter(encounter);
  Battle battle(catalog, quiet);
  Policy policy;
  std::vector<typename std::remove_cvref_t<decltype(battle.actions())>::value_type> options;
  std::uint64_t i = 0, decisions = 0;
  for (auto _ : st) {
    const std::uint64_t seed = battle_seed(1, i++);
    policy.reset(policy_seed(seed));
    if (!bench::started(st, battle.start_battle(id, seed))) break;
    while (battle.status() == Status::AwaitingDecision) {
      battle.legal_actions(options);
      (void)battle.submit(options[policy.choose(battle, options)]);
      ++decisions;
    }
    benchmark::DoNotOptimize(battle.state_hash());
  }
  st.counters["battles_per_s"] = benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
  st.counters["decisions_per_s"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  st.counters["decisions_per_battle"] =
      static_cast<double>(decisions) / static_cast<double>(std::max<std::uint64_t>(i, 1));
}

void BM_ClashBattles(benchmark::State& st) {
  whole_battles<clash::Battle, clash::Catalog, clash::RandomPolicy>(
      st, classic(), "bots4", clash::BattleOptions{.event_log = false, .record_history = false});
}
BENCHMARK(BM_ClashBattles);

void BM_PartyBattles(benchmark::State& st) {
  whole_battles<party::Battle, party::Catalog, party::RandomPolicy>(
      st, meadow(), "swamp", party::BattleOptions{.event_log = false, .record_history = false});
}
BENCHMARK(BM_PartyBattles);

/// A clone of a battle in the middle of its first round or turn.
template <class Battle, class Catalog, class Options>
void clone_midway(benchmark::State& st, const std::shared_ptr<const Catalog>& catalog, const char* encounter,
                  Options quiet) {
  Battle battle(catalog, quiet);
  if (!bench::started(st, battle.start_battle(encounter, battle_seed(1, 0)))) return;
  for (auto _ : st) {
    Battle copy = battle;
    benchmark::DoNotOptimize(copy);
  }
  st.counters["sizeof_battle_state"] = static_cast<double>(sizeof(battle.state()));
}

void BM_ClashClone(benchmark::State& st) {
  clone_midway<clash::Battle>(st, classic(), "bots4",
                              clash::BattleOptions{.event_log = false, .record_history = false});
}
BENCHMARK(BM_ClashClone);

void BM_PartyClone(benchmark::State& st) {
  clone_midway<party::Battle>(st, meadow(), "swamp",
                              party::BattleOptions{.event_log = false, .record_history = false});
}
BENCHMARK(BM_PartyClone);

/// Snapshots written and restored at the same point as the clones above.
constexpr clash::BattleOptions kClashQuiet{.event_log = false, .record_history = false};
constexpr party::BattleOptions kPartyQuiet{.event_log = false, .record_history = false};

/// Runs `measure` on a battle of `encounter` at its first decision (battle 0 of seed 1).
template <class Battle, class Catalog, class Options, class Measure>
void at_first_decision(benchmark::State& st, const std::shared_ptr<const Catalog>& catalog,
                       const char* encounter, Options quiet, Measure measure) {
  Battle battle(catalog, quiet);
  if (!bench::started(st, battle.start_battle(encounter, battle_seed(1, 0)))) return;
  measure(battle);
}

void BM_ClashSnapshot(benchmark::State& st) {
  at_first_decision<clash::Battle>(st, classic(), "bots4", kClashQuiet,
                                   [&](const clash::Battle& b) { bench::snapshot_write(st, b); });
}
BENCHMARK(BM_ClashSnapshot);

void BM_ClashRestore(benchmark::State& st) {
  at_first_decision<clash::Battle>(st, classic(), "bots4", kClashQuiet, [&](const clash::Battle& b) {
    bench::snapshot_restore(st, b, classic());
  });
}
BENCHMARK(BM_ClashRestore);

void BM_PartySnapshot(benchmark::State& st) {
  at_first_decision<party::Battle>(st, meadow(), "swamp", kPartyQuiet,
                                   [&](const party::Battle& b) { bench::snapshot_write(st, b); });
}
BENCHMARK(BM_PartySnapshot);

void BM_PartyRestore(benchmark::State& st) {
  at_first_decision<party::Battle>(st, meadow(), "swamp", kPartyQuiet,
                                   [&](const party::Battle& b) { bench::snapshot_restore(st, b, meadow()); });
}
BENCHMARK(BM_PartyRestore);

/// The batch runner at 1 and 2 threads (real time: compare battles_per_s).
template <class Simulate>
void runner(benchmark::State& st, Simulate simulate, const char* encounter, std::uint64_t battles) {
  sim::SimConfig config;
  config.encounter = encounter;
  config.battles = battles;
  config.threads = static_cast<unsigned>(st.range(0));
  double played = 0;
  for (auto _ : st) {
    auto r = simulate(config);
    benchmark::DoNotOptimize(r.ok());
    played += static_cast<double>(battles);
  }
  st.counters["battles_per_s"] = benchmark::Counter(played, benchmark::Counter::kIsRate);
}

void BM_ClashRunner(benchmark::State& st) {
  runner(
      st, [](const sim::SimConfig& c) { return sim::simulate_clash(classic(), c); }, "bots4", 100000);
}
BENCHMARK(BM_ClashRunner)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_PartyRunner(benchmark::State& st) {
  runner(
      st, [](const sim::SimConfig& c) { return sim::simulate_party(meadow(), c); }, "swamp", 50000);
}
BENCHMARK(BM_PartyRunner)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

/// One MCTS decision (the first of a battle of `encounter`) at st.range(0) iterations; the
/// counter iterations_per_s is the search speed, allocations_per_decision the heap allocations
/// of a decision after the first (warm-up) one.
template <class Battle, class Mcts, class Catalog, class Options>
void mcts_decision(benchmark::State& st, const std::shared_ptr<const Catalog>& catalog, const char* encounter,
                   Options quiet, Mcts& mcts) {
  Battle battle(catalog, quiet);
  if (!bench::started(st, battle.start_battle(encounter, battle_seed(1, 0)))) return;
  std::vector<typename std::remove_cvref_t<decltype(battle.actions())>::value_type> options;
  battle.legal_actions(options);
  mcts.reset(1);
  benchmark::DoNotOptimize(mcts.choose(battle, options));  // warm-up: the tree and scratch grow
  const std::uint64_t before = bench_allocations();
  std::uint64_t n = 0, decisions = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(mcts.choose(battle, options));
    n += static_cast<std::uint64_t>(st.range(0));
    ++decisions;
  }
  const std::uint64_t allocations = bench_allocations() - before;
  st.counters["iterations_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
  st.counters["allocations_per_decision"] =
      decisions ? static_cast<double>(allocations) / static_cast<double>(decisions) : 0.0;
}

void BM_ClashMctsDecision(benchmark::State& st) {
  clash::MctsPolicy mcts(UctOptions{.iterations = static_cast<std::uint32_t>(st.range(0))});
  mcts_decision<clash::Battle>(st, classic(), "bots4",
                               clash::BattleOptions{.event_log = false, .record_history = false}, mcts);
}
BENCHMARK(BM_ClashMctsDecision)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_PartyMctsDecision(benchmark::State& st) {
  party::MctsPolicy mcts(party::BlockSkill{},
                         UctOptions{.iterations = static_cast<std::uint32_t>(st.range(0))});
  mcts_decision<party::Battle>(st, meadow(), "swamp",
                               party::BattleOptions{.event_log = false, .record_history = false}, mcts);
}
BENCHMARK(BM_PartyMctsDecision)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
