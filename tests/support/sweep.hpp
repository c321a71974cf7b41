#pragma once
// The invariant sweep, generic over a rule-set adapter R (battlecore/sim/deckbuilder_rules.hpp
// is the deckbuilder's): seeded random battles in which every step is checked. OpenSpiel's
// RandomSimTest is the model.
//
// At every step: a clone equals the original; the snapshot round-trips (equal battle, same
// hash, same snapshot); the state hash is stable; the rule set's invariants hold across the
// step; an arbitrary (often illegal) action submitted to a clone is either accepted or refused
// with the clone left unchanged; every transition taken is a row of the table, in sequence; a
// battle restored from a snapshot mid-battle and given the same actions stays equal. The
// battle ends within the step bound, and its recorded replay reproduces the final hash.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/core/decision.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::test {

/// Battles per encounter: $BATTLECORE_SWEEP_BATTLES, else `fallback`.
inline std::uint64_t sweep_battles(std::uint64_t fallback) {
  if (const char* v = std::getenv("BATTLECORE_SWEEP_BATTLES"); v != nullptr && *v != '\0') {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end != nullptr && *end == '\0' && n > 0) return n;
  }
  return fallback;
}

/// The bundled packs of rule set `rules`: every directory under data/<rules>/, by name.
inline std::vector<std::filesystem::path> bundled_packs(std::string_view rules) {
  std::vector<std::filesystem::path> packs;
  const std::filesystem::path root = std::filesystem::path(BATTLECORE_DATA_DIR) / std::string(rules);
  if (!std::filesystem::is_directory(root)) return packs;
  for (const auto& entry : std::filesystem::directory_iterator(root))
    if (entry.is_directory()) packs.push_back(entry.path());
  std::sort(packs.begin(), packs.end());
  return packs;
}

/// Every transition in `history` is a row of the table, the moves are numbered 1, 2, ... and
/// each starts where the one before it ended.
template <class Machine, class Record>
void expect_history_follows_table(const std::vector<Record>& history, std::uint32_t moves) {
  ASSERT_EQ(history.size(), moves);
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Record& r = history[i];
    EXPECT_EQ(r.sequence, i + 1);
    EXPECT_EQ(PhaseMachine<Machine>::target(r.from, r.trigger), std::optional(r.to))
        << "move " << r.sequence << " is not a row of the table";
    if (i == 0)
      EXPECT_EQ(r.from, Machine::kInitial);
    else
      EXPECT_EQ(r.from, history[i - 1].to) << "move " << r.sequence << " does not start where the last ended";
  }
}

struct SweepStats {
  std::uint64_t battles = 0;
  std::uint64_t steps = 0;
};

template <class R>
class Sweeper {
 public:
  using Battle = typename R::Battle;
  using Action = typename R::Action;

  Sweeper(std::shared_ptr<const typename R::Catalog> catalog, std::size_t step_bound)
      : catalog_(std::move(catalog)), step_bound_(step_bound) {}

  /// The checks of one step, `before` being the battle before it.
  void check_step(const Battle& before, const Battle& b) {
    const Battle clone = b;
    EXPECT_TRUE(clone == b) << "a clone differs from its original";
    EXPECT_EQ(clone.state_hash(), b.state_hash());
    EXPECT_EQ(b.state_hash(), b.state_hash());
    const auto snap = R::snapshot(b);
    auto restored = R::restore(catalog_, snap);
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    EXPECT_TRUE(restored.value() == b) << "the snapshot does not restore the battle";
    EXPECT_EQ(restored.value().state_hash(), b.state_hash());
    EXPECT_EQ(R::snapshot(restored.value()), snap);
    for (const std::string& broken : R::invariants(before, b))
      ADD_FAILURE() << "invariant broken: " << broken;
    expect_history_follows_table<typename R::Machine>(b.history(), b.transitions());
  }

  /// One seeded random battle, every step checked.
  void run(const std::string& encounter, std::uint64_t seed, SweepStats& stats) {
    SCOPED_TRACE(std::string(R::kName) + " encounter " + encounter + " seed " + std::to_string(seed));
    const sim::BattleStart start{encounter, seed, {}};
    auto started = R::start(catalog_, start);
    ASSERT_TRUE(started.ok()) << started.error().message;
    Battle& b = started.value();
    Rng rng = Rng::from_seed(splitmix64_mix(seed ^ 0x7377656570ull));
    check_step(b, b);
    std::vector<Action> options;
    std::optional<Battle> shadow;
    std::size_t steps = 0;
    while (b.status() == Status::AwaitingDecision) {
      ASSERT_LT(steps, step_bound_) << "the battle did not end within " << step_bound_ << " steps";
      b.legal_actions(options);
      ASSERT_FALSE(options.empty()) << "a decision with no legal option";
      {  // an arbitrary action on a clone: accepted, or refused with nothing changed
        Battle probe = b;
        std::array<std::uint8_t, 4> bytes{};
        for (auto& x : bytes) x = static_cast<std::uint8_t>(rng.below(256));
        const auto refused = !probe.submit(R::action_from_bytes(bytes)).ok();
        if (refused) {
          EXPECT_TRUE(probe == b) << "a refused action changed the battle";
        }
      }
      const Action pick = options[rng.below(static_cast<std::uint32_t>(options.size()))];
      const Battle before = b;
      const auto applied = b.submit(pick);
      ASSERT_TRUE(applied.ok()) << "a legal option was refused: " << R::refusal_text(applied.error());
      ++steps;
      if (shadow) {
        ASSERT_TRUE(shadow->submit(pick).ok());
        EXPECT_TRUE(*shadow == b) << "a battle restored from a snapshot continues differently";
        EXPECT_EQ(shadow->events().log(), b.events().log());
      } else if (rng.below(6) == 0) {
        auto restored = R::restore(catalog_, R::snapshot(b));
        ASSERT_TRUE(restored.ok());
        shadow.emplace(std::move(restored).value());
      }
      check_step(before, b);
      if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_TRUE(PhaseMachine<typename R::Machine>::is_terminal(b.history().back().to))
        << "the battle stopped in a phase that is not terminal";
    auto replay = sim::record_replay<R>(catalog_, start, b.actions());
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    EXPECT_EQ(replay.value().final_state_hash, b.state_hash());
    const sim::ReplayCheck check = sim::check_replay<R>(catalog_, replay.value());
    EXPECT_EQ(check.exit_code(), 0) << check.message;
    ++stats.battles;
    stats.steps += steps;
  }

 private:
  std::shared_ptr<const typename R::Catalog> catalog_;
  std::size_t step_bound_;
};

/// Sweeps `battles` battles of every encounter of every bundled pack of R.
template <class R>
SweepStats sweep_rule_set(std::uint64_t battles, std::size_t step_bound = 2000) {
  SweepStats stats;
  const auto packs = bundled_packs(R::kName);
  EXPECT_FALSE(packs.empty()) << "no bundled pack for " << R::kName;
  for (const auto& pack : packs) {
    auto catalog = R::load(pack);
    EXPECT_TRUE(catalog.ok()) << pack << ":\n" << (catalog.ok() ? "" : catalog.error().to_string());
    if (!catalog.ok()) continue;
    Sweeper<R> sweeper(catalog.value(), step_bound);
    for (const std::string& encounter : R::encounters(*catalog.value()))
      for (std::uint64_t i = 0; i < battles; ++i) {
        sweeper.run(encounter, battle_seed(0x5eed, i), stats);
        if (::testing::Test::HasFatalFailure()) return stats;
      }
  }
  return stats;
}

}  // namespace battlecore::test
