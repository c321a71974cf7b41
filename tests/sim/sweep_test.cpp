// The invariant sweep over every encounter of every bundled pack of every rule set. A rule set
// joins by adding its adapter to RuleSets. N battles per encounter: $BATTLECORE_SWEEP_BATTLES
// (`make sweep` sets it high), 3 by default.

#include <gtest/gtest.h>

#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "support/sweep.hpp"

namespace battlecore::test {
namespace {

template <class R>
class Sweep : public ::testing::Test {};

using RuleSets = ::testing::Types<sim::DeckbuilderRules, sim::ClashRules, sim::PartyRules>;
TYPED_TEST_SUITE(Sweep, RuleSets);

TYPED_TEST(Sweep, EveryEncounterOfEveryBundledPack) {
  const std::uint64_t n = sweep_battles(3);
  const SweepStats stats = sweep_rule_set<TypeParam>(n);
  EXPECT_GT(stats.battles, 0u);
  EXPECT_GT(stats.steps, stats.battles);
  std::cout << "[ sweep    ] " << TypeParam::kName << ": " << stats.battles << " battles, " << stats.steps
            << " steps\n";
}

}  // namespace
}  // namespace battlecore::test
