// A sweep of 1,000 seeded all-bot battles per encounter of the classic pack: every battle ends
// with a full ranking, and at every step the invariants hold and a clone equals the original.

#include <gtest/gtest.h>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

struct EndCounter final : Listener {
  void on_event(const Event& e) override { ended += e.type == EventType::BattleEnded ? 1u : 0u; }
  std::size_t ended = 0;
};

TEST(ClashSweep, EveryClassicEncounterEndsWithAFullRankingAndItsInvariantsHeld) {
  constexpr std::uint64_t kBattles = 1000;
  constexpr int kMaxActions = 50000;
  const auto catalog = test::classic();
  std::vector<Action> options;
  for (std::size_t e = 0; e < catalog->encounters.size(); ++e) {
    const EncounterDef& encounter = catalog->encounters[e];
    std::uint64_t rounds = 0;
    for (std::uint64_t seed = 1; seed <= kBattles; ++seed) {
      const std::string where = encounter.id + " seed " + std::to_string(seed);
      EndCounter counter;
      Battle b(catalog, BattleOptions{.event_log = false, .record_history = false});
      b.events().attach(&counter);
      RandomPolicy policy;
      policy.reset(policy_seed(seed));
      int actions = 0;
      std::string why;
      try {
        ASSERT_TRUE(b.start_battle(static_cast<EncounterId>(e), seed).ok()) << where;
        ASSERT_TRUE(check_invariants(b, &why)) << where << " at the start: " << why;
        while (b.status() == Status::AwaitingDecision) {
          ASSERT_LT(actions, kMaxActions) << where << " is still going";
          b.legal_actions(options);
          ASSERT_FALSE(options.empty()) << where;
          const auto r = b.submit(options[policy.pick(options.size())]);
          ASSERT_TRUE(r.ok()) << where << ": a legal option was refused: " << r.error().message;
          ++actions;
          ASSERT_TRUE(check_invariants(b, &why)) << where << " after " << actions << " actions: " << why;
          if (actions % 16 == 0) {
            const Battle clone = b;
            ASSERT_TRUE(clone.state() == b.state()) << where;
            ASSERT_EQ(clone.state_hash(), b.state_hash()) << where;
          }
        }
      } catch (const std::exception& ex) {
        FAIL() << where << " after " << actions << " actions threw: " << ex.what();
      }
      ASSERT_TRUE(b.is_battle_over()) << where << " stopped in " << phase_name(b.phase());
      ASSERT_EQ(counter.ended, 1u) << where;
      std::size_t firsts = 0;
      for (const SeatState& seat : b.state().seats) {
        ASSERT_GE(seat.place, 1) << where;
        ASSERT_LE(seat.place, b.state().seats.size()) << where;
        firsts += seat.place == 1 ? 1u : 0u;
      }
      ASSERT_GE(firsts, 1u) << where;
      b.events().detach(&counter);
      rounds += b.round();
    }
    RecordProperty(encounter.id + "_rounds", std::to_string(rounds));
  }
}

}  // namespace
}  // namespace battlecore::clash
