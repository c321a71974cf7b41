// The invariant sweep over every encounter of every bundled pack of every rule set. A rule set
// joins by adding its adapter to RuleSets. N battles per encounter: $BATTLECORE_SWEEP_BATTLES
// (`make sweep` sets it high), 3 by default.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "deckbuilder/mechanics.hpp"
#include "support/clash_pack.hpp"
#include "support/deckbuilder_scenario.hpp"
#include "support/starter_pack.hpp"
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

// A deckbuilder snapshot restores when taken at any moment, from an event listener in the middle
// of a step too (docs/determinism.md#snapshots). Battles of every encounter, started with the
// seed of one sweep battle in kEveryEventStride (one per encounter in `make test`, 63 with `make
// sweep`'s 500), are played by random legal options with a listener that snapshots them at every
// event: each snapshot restores to a battle equal to the one it was taken from, whose snapshot
// is the same. The event log is off, or each snapshot would hold every event before it; the
// transition history is on.
TEST(DeckbuilderSweep, SnapshotsTakenAtEveryEventRestoreToAnEqualBattle) {
  constexpr std::uint64_t kEveryEventStride = 8;
  struct Snapper : deckbuilder::Listener {
    std::shared_ptr<const deckbuilder::Catalog> catalog;
    const deckbuilder::Battle* battle = nullptr;
    std::uint64_t taken = 0;
    void on_event(const deckbuilder::Event& event) override {
      const nlohmann::json s = sim::DeckbuilderRules::snapshot(*battle);
      auto r = sim::DeckbuilderRules::restore(catalog, s);
      ASSERT_TRUE(r.ok()) << "at " << deckbuilder::event_type_name(event.type) << ": " << r.error().message;
      EXPECT_TRUE(r.value() == *battle) << "at " << deckbuilder::event_type_name(event.type);
      EXPECT_EQ(sim::DeckbuilderRules::snapshot(r.value()), s);
      ++taken;
    }
  };
  const std::uint64_t battles = (sweep_battles(3) + kEveryEventStride - 1) / kEveryEventStride;
  std::uint64_t played = 0;
  for (const auto& pack : bundled_packs(sim::DeckbuilderRules::kName)) {
    auto catalog = sim::DeckbuilderRules::load(pack);
    ASSERT_TRUE(catalog.ok()) << pack << ":\n" << catalog.error().to_string();
    for (const std::string& encounter : sim::DeckbuilderRules::encounters(*catalog.value()))
      for (std::uint64_t i = 0; i < battles; ++i) {
        const std::uint64_t seed = battle_seed(0x5eed, i * kEveryEventStride);
        SCOPED_TRACE(pack.filename().string() + " encounter " + encounter + " seed " + std::to_string(seed));
        Snapper snapper;
        snapper.catalog = catalog.value();
        deckbuilder::Battle b(catalog.value(), deckbuilder::BattleOptions{.event_log = false});
        snapper.battle = &b;
        b.events().attach(&snapper);
        ASSERT_TRUE(b.start_battle(encounter, seed).ok());
        Rng rng = Rng::from_seed(splitmix64_mix(seed ^ 0x736e6170ull));
        std::vector<deckbuilder::Action> options;
        while (b.status() == Status::AwaitingDecision && !::testing::Test::HasFatalFailure()) {
          b.legal_actions(options);
          ASSERT_TRUE(b.submit(options[rng.below(static_cast<std::uint32_t>(options.size()))]).ok());
        }
        ASSERT_FALSE(::testing::Test::HasFatalFailure());
        EXPECT_GT(snapper.taken, 10u);
        ++played;
      }
  }
  EXPECT_GT(played, 0u);
  std::cout << "[ sweep    ] deckbuilder snapshots at every event: " << played << " battles\n";
}

/// A battle of the starter pack's W1 started from a scenario with these `piles`.
deckbuilder::Battle w1_scenario(const nlohmann::json& piles) {
  return scenario_battle_of(starter(), "w1", piles);
}

/// The invariants of the step from `before` to `after` report `what`.
void expect_reported(const deckbuilder::Battle& before, const deckbuilder::Battle& after,
                     const std::string& what) {
  const std::vector<std::string> found = sim::DeckbuilderRules::invariants(before, after);
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [&](const std::string& m) {
    return m.find(what) != std::string::npos;
  })) << what;
}

// A scry's choice of the draw pile's top cards holds what the rules give it: as many cards as it
// has picks left, known in order, and it may be skipped. The invariants report a state that does
// not.
TEST(DeckbuilderInvariants, AScryChoiceTheRulesNeverPoseIsReported) {
  deckbuilder::Battle b = w1_scenario({{"hand", {"survey"}}, {"draw_pile", {"strike", "defend", "bash"}}});
  ASSERT_TRUE(b.submit(deckbuilder::Action::play(b.state().hand()[0])).ok());
  ASSERT_EQ(b.state().choice.kind, deckbuilder::PendingChoice::Kind::DiscardFromDrawTop);
  EXPECT_TRUE(sim::DeckbuilderRules::invariants(b, b).empty());
  deckbuilder::Battle unseen = b;
  deckbuilder::Battle::Access::of(unseen).s.forget_draw_pile_top();
  expect_reported(b, unseen, "a scry offers 3 cards, but the draw pile holds 3, 0 of them known in order");
  deckbuilder::Battle unskippable = b;
  deckbuilder::Battle::Access::of(unskippable).s.choice.skippable = false;
  expect_reported(b, unskippable, "a choice of cards of kind discard_from_draw_top is not skippable");
}

// A card's definition changes only to its upgrade, with a CardUpgraded event: Temper's upgrade
// passes; a card changed to another, or upgraded with no event, is reported.
TEST(DeckbuilderInvariants, ACardChangesOnlyToItsUpgradeWithItsEvent) {
  const deckbuilder::Battle before = w1_scenario({{"hand", {"temper", "brace", "strike"}}});
  const deckbuilder::CardRef brace = before.state().hand()[1];
  deckbuilder::Battle after = before;
  ASSERT_TRUE(after.submit(deckbuilder::Action::play(after.state().hand()[0])).ok());
  ASSERT_TRUE(after.is_waiting_for_choice());
  ASSERT_TRUE(after.submit(deckbuilder::Action::choose(0)).ok());
  const deckbuilder::Catalog& c = *starter();
  ASSERT_EQ(after.state().cards[brace].def, *c.cards[*c.find_card("brace")].upgrade);
  EXPECT_EQ(sim::DeckbuilderRules::invariants(before, after), std::vector<std::string>{});
  deckbuilder::Battle other = after;
  deckbuilder::Battle::Access::of(other).s.cards[brace].def = *c.find_card("strike");
  deckbuilder::refresh_listing(deckbuilder::Battle::Access::of(other).s.cards[brace], c);
  expect_reported(before, other, fmt::format("card {} changed from definition", brace));
  expect_reported(before, other, "which is not its upgrade");
  deckbuilder::Battle silent = before;
  deckbuilder::Battle::Access::of(silent).s.cards[brace].def = after.state().cards[brace].def;
  deckbuilder::refresh_listing(deckbuilder::Battle::Access::of(silent).s.cards[brace], c);
  expect_reported(before, silent, "with no CardUpgraded event");
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
