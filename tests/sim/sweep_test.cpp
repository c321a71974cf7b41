// The invariant sweep over every encounter of every bundled pack of every rule set. A rule set
// joins by adding its adapter to RuleSets. N battles per encounter: $BATTLECORE_SWEEP_BATTLES
// (`make sweep` sets it high), 3 by default.

#include <gtest/gtest.h>

#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "support/clash_pack.hpp"
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

TEST(ClashSweep, AResetupWithAListedDeckBuildsTheDeckAgainWithoutBreakingAnInvariant) {
  // A re-setup builds each seat's listed deck again, so hand plus deck grow back to the list:
  // that is the rule, not cards out of nowhere (every card is still one of the list).
  const auto catalog = one_encounter(kThreeBots, R"({"resetup_between_rounds": true, "hand_size": 5,
      "deck": [{"element": "air", "value": 3}, {"element": "earth", "value": 8}, {"element": "energy", "value": 3},
               {"element": "fire", "value": 8}, {"element": "water", "value": 3}, {"element": "air", "value": 8},
               {"element": "earth", "value": 3}, {"element": "energy", "value": 8}]})");
  Sweeper<sim::ClashRules> sweeper(catalog, 2000);
  SweepStats stats;
  for (std::uint64_t i = 0; i < 5 && !::testing::Test::HasFatalFailure(); ++i)
    sweeper.run("e", battle_seed(0x5eed, i), stats);
  EXPECT_EQ(stats.battles, 5u);
}

}  // namespace
}  // namespace battlecore::test
