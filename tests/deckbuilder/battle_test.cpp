#include "battlecore/deckbuilder/battle.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "deckbuilder/mechanics.hpp"
#include "support/innate_pack.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

// --- helpers ---------------------------------------------------------------------------------

using test::starter;

Battle started(std::string_view encounter, std::uint64_t seed) {
  Battle b(starter());
  const Result<Status> r = b.start_battle(encounter, seed);
  if (!r.ok()) throw std::runtime_error(r.error().message);
  return b;
}

const CardDef& def_of(const Battle& b, CardRef card) { return b.catalog().cards[b.state().cards[card].def]; }

/// The first card in hand whose definition is `id`.
std::optional<CardRef> in_hand(const Battle& b, std::string_view id) {
  for (CardRef c : b.state().hand())
    if (def_of(b, c).id == id) return c;
  return std::nullopt;
}

/// The first seed in [1, 2000] whose opening hand satisfies `wanted`.
std::uint64_t seed_where(std::string_view encounter, const std::function<bool(const Battle&)>& wanted) {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed)
    if (wanted(started(encounter, seed))) return seed;
  throw std::runtime_error("no seed in [1, 2000] gives the wanted opening hand");
}

/// Plays with a RandomPolicy until the battle ends (or `max_steps`), calling `each_step` after
/// every accepted action; returns the number of actions.
int play_randomly(Battle& b, std::uint64_t policy_seed,
                  const std::function<void(const Battle&)>& each_step = {}, int max_steps = 5000) {
  RandomPolicy policy;
  policy.reset(policy_seed);
  int steps = 0;
  while (b.status() == Status::AwaitingDecision && steps < max_steps) {
    const Decision d = b.decision();
    const Result<Status, Rejection> r = b.submit(d.options[policy.choose(b, d.options)]);
    if (!r.ok()) {
      ADD_FAILURE() << "a legal option was refused: " << r.error().message;
      break;
    }
    ++steps;
    if (each_step) each_step(b);
  }
  return steps;
}

/// Everything a refused action must leave untouched.
struct Snapshot {
  explicit Snapshot(const Battle& b)
      : hash(b.state_hash()),
        state(b.state()),
        phase(b.phase()),
        history(b.history().size()),
        transitions(b.transitions()),
        log(b.events().log().size()),
        actions(b.actions().size()) {}
  std::uint64_t hash;
  BattleState state;
  Phase phase;
  std::size_t history;
  std::uint32_t transitions;
  std::size_t log;
  std::size_t actions;
};

void expect_unchanged(const Battle& b, const Snapshot& before) {
  EXPECT_EQ(b.state_hash(), before.hash);
  EXPECT_TRUE(b.state() == before.state);
  EXPECT_EQ(b.phase(), before.phase);
  EXPECT_EQ(b.history().size(), before.history);
  EXPECT_EQ(b.transitions(), before.transitions);
  EXPECT_EQ(b.events().log().size(), before.log);
  EXPECT_EQ(b.actions().size(), before.actions);
}

/// Submits `action`, expects it refused for `reason` (and `check`), and the battle unchanged.
void expect_refused(Battle& b, const Action& action, RefusalReason reason, PlayCheck check = PlayCheck::Ok) {
  const Snapshot before(b);
  const Result<Status, Rejection> r = b.submit(action);
  ASSERT_FALSE(r.ok()) << "accepted";
  EXPECT_EQ(r.error().reason, reason) << r.error().message;
  EXPECT_EQ(r.error().check, check) << r.error().message;
  EXPECT_FALSE(r.error().message.empty());
  expect_unchanged(b, before);
}

/// Spends energy on 1-cost cards other than `keep` (w1 has no 0-cost card) until `energy` is left.
void spend_energy_down_to(Battle& b, std::int32_t energy, std::string_view keep) {
  while (b.state().energy > energy) {
    std::optional<Action> play;
    for (const Action& a : b.decision().options)
      if (a.kind == ActionKind::PlayCard && def_of(b, a.card).id != keep && def_of(b, a.card).cost == 1) {
        play = a;
        break;
      }
    ASSERT_TRUE(play.has_value()) << "no 1-cost card left to spend energy on";
    ASSERT_TRUE(b.submit(*play).ok());
  }
}

// --- starting --------------------------------------------------------------------------------

TEST(DeckbuilderBattleStart, UnknownEncounterIsAnErrorAndStartsNothing) {
  Battle b(starter());
  const Result<Status> r = b.start_battle("no_such_encounter", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no_such_encounter"), std::string::npos) << r.error().message;
  EXPECT_EQ(b.phase(), Phase::None);
  EXPECT_FALSE(b.is_battle_active());
  EXPECT_FALSE(b.is_battle_over());
  EXPECT_EQ(b.status(), Status::Finished);
  EXPECT_TRUE(b.history().empty());
  EXPECT_TRUE(b.events().log().empty());
  EXPECT_TRUE(b.decision().options.empty());
}

TEST(DeckbuilderBattleStart, EncounterIndexOutOfRangeIsAnError) {
  Battle b(starter());
  const Result<Status> r = b.start_battle(static_cast<EncounterId>(starter()->encounters.size()), 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(b.phase(), Phase::None);
  EXPECT_TRUE(b.events().log().empty());
}

TEST(DeckbuilderBattleStart, EntersPlayerPhaseWithFiveCardsAndThreeEnergy) {
  Battle b(starter());
  const Result<Status> r = b.start_battle("w1", 1);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value(), Status::AwaitingDecision);
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(b.status(), Status::AwaitingDecision);
  EXPECT_TRUE(b.is_battle_active());
  EXPECT_FALSE(b.is_battle_over());
  EXPECT_EQ(b.state().hand().size(), 5u);
  EXPECT_EQ(b.state().draw_pile().size(), 5u);
  EXPECT_EQ(b.state().energy, 3);
  EXPECT_EQ(b.turn(), 1u);
  EXPECT_EQ(b.state().player.hp, 80);
  EXPECT_EQ(b.state().player.max_hp, 80);
  ASSERT_EQ(b.state().enemies.size(), 1u);
  EXPECT_NE(b.state().enemies[0].intent, kNoMove);
}

TEST(DeckbuilderBattleStart, AStartedBattleCannotBeStartedAgain) {
  Battle b = started("w1", 1);
  const Snapshot before(b);
  const Result<Status> r = b.start_battle("w1", 2);
  EXPECT_FALSE(r.ok());
  expect_unchanged(b, before);
}

TEST(DeckbuilderBattleStart, AFinishedBattleCanBeFollowedByAnother) {
  Battle b = started("w1", 3);
  play_randomly(b, 3);
  ASSERT_TRUE(b.is_battle_over());
  const Result<Status> r = b.start_battle("w1", 3);
  ASSERT_TRUE(r.ok());
  // The second battle is the same as a fresh one: no leftover history, log or actions.
  const Battle fresh = started("w1", 3);
  EXPECT_EQ(b.state_hash(), fresh.state_hash());
  EXPECT_EQ(b.events().log(), fresh.events().log());
  EXPECT_EQ(b.history(), fresh.history());
  EXPECT_TRUE(b.actions().empty());
}

// --- the decision ----------------------------------------------------------------------------

/// The options the seed's rules give: each affordable hand card in hand order (once per alive
/// enemy when it takes a target), then end turn.
std::vector<Action> expected_options(const Battle& b) {
  std::vector<Action> out;
  for (CardRef c : b.state().hand()) {
    const CardDef& d = def_of(b, c);
    if (d.cost > b.state().energy) continue;
    if (d.target == CardTarget::Enemy) {
      for (std::size_t e = 0; e < b.state().enemies.size(); ++e)
        if (b.state().enemies[e].unit.alive()) out.push_back(Action::play(c, static_cast<std::int8_t>(e)));
    } else {
      out.push_back(Action::play(c));
    }
  }
  out.push_back(Action::end_turn());
  return out;
}

TEST(DeckbuilderDecision, ListsHandCardsInHandOrderThenEndTurn) {
  const Battle b = started("w1", 1);
  const Decision d = b.decision();
  EXPECT_EQ(d.who, (Decider{Decider::Kind::Player, 0}));
  ASSERT_EQ(d.options.size(), 6u);  // five cards, one enemy, everything affordable
  for (std::size_t i = 0; i < 5; ++i) {
    const CardRef card = b.state().hand()[i];
    const std::int8_t target = def_of(b, card).target == CardTarget::Enemy ? 0 : -1;
    EXPECT_EQ(d.options[i], Action::play(card, target)) << i;
  }
  EXPECT_EQ(d.options.back(), Action::end_turn());
}

TEST(DeckbuilderDecision, TargetedCardsHaveOneOptionPerAliveEnemy) {
  const std::uint64_t seed =
      seed_where("sludge_pair", [](const Battle& b) { return in_hand(b, "strike") && in_hand(b, "defend"); });
  const Battle b = started("sludge_pair", seed);
  const std::vector<Action> options = b.decision().options;
  EXPECT_EQ(options, expected_options(b));
  const CardRef strike = *in_hand(b, "strike");
  const CardRef defend = *in_hand(b, "defend");
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(strike, 0)), 1);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(strike, 1)), 1);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(defend)), 1);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(defend, 0)), 0);
}

TEST(DeckbuilderDecision, TargetedCardsAimOnlyAtTheOneEnemyLeft) {
  const std::uint64_t seed =
      seed_where("sludge_pair", [](const Battle& b) { return in_hand(b, "strike") && in_hand(b, "defend"); });
  for (std::size_t dead : {0u, 1u}) {
    SCOPED_TRACE(dead);
    nlohmann::json doc = snapshot(started("sludge_pair", seed));
    doc["state"]["enemies"][dead]["hp"] = 0;
    auto restored = restore(starter(), doc);
    ASSERT_TRUE(restored.ok());
    const Battle b = std::move(restored).value();
    const std::vector<Action> options = b.decision().options;
    EXPECT_EQ(options, expected_options(b));
    const CardRef strike = *in_hand(b, "strike");
    const auto alive = static_cast<std::int8_t>(1 - dead);
    EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(strike, alive)), 1);
    EXPECT_EQ(
        std::count(options.begin(), options.end(), Action::play(strike, static_cast<std::int8_t>(dead))), 0);
    EXPECT_EQ(std::count(options.begin(), options.end(), Action::play(*in_hand(b, "defend"))), 1);
  }
}

TEST(DeckbuilderDecision, CardsTooExpensiveAreNotListed) {
  const std::uint64_t seed = seed_where("w1", [](const Battle& b) { return in_hand(b, "bash").has_value(); });
  Battle b = started("w1", seed);
  spend_energy_down_to(b, 1, "bash");
  const CardRef bash = *in_hand(b, "bash");
  const std::vector<Action> options = b.decision().options;
  EXPECT_EQ(options, expected_options(b));
  for (const Action& a : options) EXPECT_NE(a.card, bash);
  EXPECT_EQ(options.size(), b.state().hand().size());  // the 1-cost cards left, then end turn
}

TEST(DeckbuilderDecision, OnlyEndTurnWhenNoEnergyIsLeft) {
  Battle b = started("w1", 4);
  spend_energy_down_to(b, 0, "");
  ASSERT_FALSE(b.state().hand().empty());
  EXPECT_EQ(b.decision().options, std::vector<Action>{Action::end_turn()});
}

TEST(DeckbuilderDecision, LegalActionsClearsItsOutputFirst) {
  const Battle b = started("w1", 5);
  std::vector<Action> out(7, Action::play(9, 0));
  b.legal_actions(out);
  EXPECT_EQ(out, b.decision().options);
}

TEST(DeckbuilderDecision, MatchesTheRulesAtEveryStepOfRandomBattles) {
  Options listed;
  for (std::string_view encounter : {"w1", "sludge_pair"}) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      Battle b = started(encounter, seed);
      play_randomly(b, seed, [&](const Battle& now) {
        if (now.status() == Status::AwaitingDecision) {
          const std::vector<Action> expected = expected_options(now);
          EXPECT_EQ(now.decision().options, expected);
          now.legal_actions(listed);  // the fixed-capacity list the simulator uses
          EXPECT_EQ(std::vector<Action>(listed.begin(), listed.end()), expected);
        }
      });
    }
  }
}

// The plays listed in the player phase are exactly those can_play_card accepts, in hand order,
// each aimed card once per alive enemy, then End turn: for every encounter of the starter pack
// (hooks, cost rules, Unplayable cards, several enemies), so that the listing by the cards'
// listing bytes (one enemy, no hooks) and the checked listing agree with the rules alike.
TEST(DeckbuilderDecision, ListsExactlyThePlaysCanPlayCardAcceptsInEveryEncounter) {
  Options listed;
  int one_enemy_decisions = 0, other_decisions = 0;
  for (const EncounterDef& encounter : starter()->encounters) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      Battle b = started(encounter.id, seed);
      play_randomly(b, seed * 3 + 1, [&](const Battle& now) {
        if (now.phase() != Phase::PlayerPhase || now.is_waiting_for_choice() || now.is_waiting_for_reward())
          return;
        const BattleState& s = now.state();
        std::vector<Action> expected;
        for (CardRef c : s.hand()) {
          if (now.can_play_card(c) != PlayCheck::Ok) continue;
          if (def_of(now, c).target != CardTarget::Enemy) {
            expected.push_back(Action::play(c));
            continue;
          }
          for (std::size_t e = 0; e < s.enemies.size(); ++e)
            if (s.enemies[e].unit.alive()) expected.push_back(Action::play(c, static_cast<std::int8_t>(e)));
        }
        expected.push_back(Action::end_turn());
        now.legal_actions(listed);
        EXPECT_EQ(std::vector<Action>(listed.begin(), listed.end()), expected)
            << encounter.id << " seed " << seed;
        EXPECT_EQ(now.decision().options, expected) << encounter.id << " seed " << seed;
        (s.enemies_alive == 1 && s.hooks.empty() ? one_enemy_decisions : other_decisions) += 1;
      });
    }
  }
  // Both listings were reached many times.
  EXPECT_GT(one_enemy_decisions, 500);
  EXPECT_GT(other_decisions, 500);
}

// pick_option gives the random policy's action without listing the options where the hand gives
// them: at every decision of every encounter (cost rules that raise and lower costs, Unplayable
// cards, several enemies, Choices and rewards), the action, the counts of options the pick is
// asked for and the policy's draws must be those of listing the options and picking from them.
TEST(DeckbuilderPickOption, GivesTheActionAndTheDrawsOfListingThenPicking) {
  int every_card = 0, no_card = 0, listed = 0, with_cost_rules = 0;
  for (const EncounterDef& encounter : starter()->encounters) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Battle by_listing = started(encounter.id, seed);
      Battle by_pick = by_listing;
      RandomPolicy listing_policy, pick_policy;
      listing_policy.reset(seed * 5 + 1);
      pick_policy.reset(seed * 5 + 1);
      Options options, scratch;
      for (int step = 0; by_listing.status() == Status::AwaitingDecision && step < 5000; ++step) {
        by_listing.legal_actions(options);
        const Action expected = options[listing_policy.pick(options.size())];
        const BattleState& s = by_pick.state();
        // The decision list_options lists by the listing byte.
        const bool by_byte = by_pick.phase() == Phase::PlayerPhase && !by_pick.is_waiting_for_choice() &&
                             !by_pick.is_waiting_for_reward() && !s.played_this_turn.full() &&
                             s.hooks.empty() && s.energy <= kMaxListedCost && s.enemies_alive == 1;
        if (by_byte && s.energy >= s.listing_costs.highest)
          ++every_card;
        else if (by_byte && s.energy < s.listing_costs.lowest)
          ++no_card;
        else
          ++listed;
        with_cost_rules += std::any_of(s.cards.begin(), s.cards.end(),
                                       [](const CardInstance& c) { return c.has_cost_rule(); })
                               ? 1
                               : 0;
        std::vector<std::size_t> asked;
        const Action got = by_pick.pick_option(scratch, [&](std::size_t n) {
          asked.push_back(n);
          return pick_policy.pick(n);
        });
        ASSERT_EQ(got, expected) << encounter.id << " seed " << seed << " step " << step;
        EXPECT_EQ(asked, std::vector<std::size_t>{options.size()}) << encounter.id << " seed " << seed;
        by_listing.submit_listed(expected);
        by_pick.submit_listed(got);
      }
      EXPECT_TRUE(by_pick == by_listing) << encounter.id << " seed " << seed;
      // The same draws: the two policies' generators are in the same place.
      EXPECT_EQ(pick_policy.pick(1u << 20), listing_policy.pick(1u << 20))
          << encounter.id << " seed " << seed;
    }
  }
  // All three ways were taken many times.
  EXPECT_GT(every_card, 1000);
  EXPECT_GT(no_card, 100);
  EXPECT_GT(listed, 1000);
  EXPECT_GT(with_cost_rules, 100);  // decisions made after a cost rule changed a card
}

// A pick at or past the number of options is the policy's error, whichever way pick_option
// takes: the hand and End turn, End turn alone, or the listing. The energy is set through a
// snapshot, whose restore recounts the listing costs.
TEST(DeckbuilderPickOption, RefusesAPickPastTheOptionsAsAnEngineError) {
  const std::uint64_t seed = seed_where("w1", [](const Battle& b) { return in_hand(b, "bash").has_value(); });
  const auto with_energy = [&](std::int32_t energy) {
    nlohmann::json doc = snapshot(started("w1", seed));
    doc["state"]["energy"] = energy;
    auto restored = restore(starter(), doc);
    if (!restored.ok()) throw std::runtime_error(restored.error().message);
    return std::move(restored).value();
  };
  const auto past_the_end = [](std::size_t n) { return n; };
  const auto last = [](std::size_t n) { return n - 1; };
  Options scratch;
  for (const std::int32_t energy : {3, 0, 1}) {  // every card's cost (1 and 2) and more, none, some
    SCOPED_TRACE(energy);
    const Battle b = with_energy(energy);
    EXPECT_EQ(b.state().listing_costs, (ListingCosts{.lowest = 1, .highest = 2}));
    EXPECT_THROW((void)b.pick_option(scratch, past_the_end), InvariantError);
    std::vector<Action> options;
    b.legal_actions(options);
    EXPECT_EQ(b.pick_option(scratch, last), Action::end_turn());
    EXPECT_EQ(b.pick_option(scratch, [](std::size_t) { return std::size_t{0}; }), options.front());
  }
}

// A cost rule moves the listing costs: a card made to cost 3 is not listed at 2 energy, and one
// made to cost 0 is listed at 0 energy, by pick_option as by legal_actions.
TEST(DeckbuilderPickOption, FollowsCostRulesPastTheDeckCosts) {
  const std::uint64_t seed =
      seed_where("w1", [](const Battle& b) { return in_hand(b, "strike").has_value(); });
  const Battle fresh = started("w1", seed);
  const CardRef strike = *in_hand(fresh, "strike");
  for (const auto& [cost, energy] : {std::pair{3, 2}, std::pair{0, 0}}) {
    SCOPED_TRACE(cost);
    nlohmann::json doc = snapshot(fresh);
    doc["state"]["energy"] = energy;
    doc["state"]["cards"][strike]["battle_cost_set"] = cost;
    auto restored = restore(starter(), doc);
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    const Battle b = std::move(restored).value();
    EXPECT_EQ(b.state().listing_costs, listing_costs_of(b.state()));
    EXPECT_EQ(cost == 3 ? b.state().listing_costs.highest : b.state().listing_costs.lowest, cost);
    std::vector<Action> options;
    b.legal_actions(options);
    const bool strike_listed =
        std::find(options.begin(), options.end(), Action::play(strike, 0)) != options.end();
    EXPECT_EQ(strike_listed, cost == 0);
    Options scratch;
    for (std::size_t i = 0; i < options.size(); ++i)
      EXPECT_EQ(b.pick_option(scratch, [&](std::size_t n) { return n == options.size() ? i : n; }),
                options[i]);
  }
}

// submit_listed skips the checks for an option just listed: it must leave the battle submit
// leaves (the state, the phase history, the action list, the event log), at every step, plays,
// End turn, a Choice's options and a reward's alike.
TEST(DeckbuilderSubmitListed, LeavesTheBattleSubmitLeavesAtEveryStep) {
  int choices = 0, rewards = 0, plays = 0;
  for (const EncounterDef& encounter : starter()->encounters) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      Battle checked = started(encounter.id, seed);
      Battle listed = checked;
      RandomPolicy policy;
      policy.reset(seed * 7 + 3);
      std::vector<Action> options;
      for (int step = 0; checked.status() == Status::AwaitingDecision && step < 5000; ++step) {
        checked.legal_actions(options);
        const Action a = options[policy.choose(checked, options)];
        choices += checked.is_waiting_for_choice() ? 1 : 0;
        rewards += checked.is_waiting_for_reward() ? 1 : 0;
        plays += a.kind == ActionKind::PlayCard ? 1 : 0;
        const Result<Status, Rejection> r = checked.submit(a);
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(listed.submit_listed(a), r.value());
        ASSERT_TRUE(listed == checked) << encounter.id << " seed " << seed << " step " << step;
      }
      EXPECT_TRUE(checked.is_battle_over()) << encounter.id << " seed " << seed;
    }
  }
  // The pack's Choice cards and rewards were reached, so those paths were compared too.
  EXPECT_GT(choices, 0);
  EXPECT_GT(rewards, 0);
  EXPECT_GT(plays, 1000);
}

// --- refusals --------------------------------------------------------------------------------

TEST(DeckbuilderSubmit, RefusesEverythingBeforeAnyBattle) {
  Battle b(starter());
  expect_refused(b, Action::end_turn(), RefusalReason::NoBattle);
  expect_refused(b, Action::play(0, 0), RefusalReason::NoBattle);
  EXPECT_EQ(b.phase(), Phase::None);
}

TEST(DeckbuilderSubmit, RefusesACardNotInHand) {
  Battle b = started("w1", 1);
  ASSERT_FALSE(b.state().draw_pile().empty());
  const CardRef in_draw_pile = b.state().draw_pile()[0];
  const std::int8_t target = def_of(b, in_draw_pile).target == CardTarget::Enemy ? 0 : -1;
  expect_refused(b, Action::play(in_draw_pile, target), RefusalReason::CannotPlayCard, PlayCheck::NotInHand);
}

TEST(DeckbuilderSubmit, RefusesACardThatDoesNotExist) {
  Battle b = started("w1", 1);
  expect_refused(b, Action::play(static_cast<CardRef>(b.state().cards.size()), 0),
                 RefusalReason::CannotPlayCard, PlayCheck::NullCard);
  expect_refused(b, Action::play(kNoCard), RefusalReason::CannotPlayCard, PlayCheck::NullCard);
}

TEST(DeckbuilderSubmit, RefusesACardTooExpensive) {
  const std::uint64_t seed = seed_where("w1", [](const Battle& b) { return in_hand(b, "bash").has_value(); });
  Battle b = started("w1", seed);
  spend_energy_down_to(b, 1, "bash");
  ASSERT_EQ(b.state().energy, 1);
  expect_refused(b, Action::play(*in_hand(b, "bash"), 0), RefusalReason::CannotPlayCard,
                 PlayCheck::CannotPayCost);
}

TEST(DeckbuilderSubmit, RefusalOfAPlayNamesTheCardThePhaseAndTheReason) {
  Battle b = started("w1", 1);
  const CardRef in_draw_pile = b.state().draw_pile()[0];
  const Result<Status, Rejection> r = b.submit(Action::play(in_draw_pile));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_NE(m.find(std::to_string(in_draw_pile)), std::string::npos) << m;
  EXPECT_NE(m.find("PlayerPhase"), std::string::npos) << m;
  EXPECT_NE(m.find(play_check_name(PlayCheck::NotInHand)), std::string::npos) << m;
}

TEST(DeckbuilderSubmit, RefusesATargetForAnUntargetedCard) {
  const std::uint64_t seed =
      seed_where("w1", [](const Battle& b) { return in_hand(b, "defend").has_value(); });
  Battle b = started("w1", seed);
  expect_refused(b, Action::play(*in_hand(b, "defend"), 0), RefusalReason::InvalidTarget);
}

TEST(DeckbuilderSubmit, RefusesATargetOutOfRange) {
  const std::uint64_t seed =
      seed_where("w1", [](const Battle& b) { return in_hand(b, "strike").has_value(); });
  Battle b = started("w1", seed);
  const CardRef strike = *in_hand(b, "strike");
  expect_refused(b, Action::play(strike, 1), RefusalReason::InvalidTarget);  // w1 has one enemy
  expect_refused(b, Action::play(strike, 5), RefusalReason::InvalidTarget);
  expect_refused(b, Action::play(strike, 127), RefusalReason::InvalidTarget);
  expect_refused(b, Action::play(strike, -2), RefusalReason::InvalidTarget);
}

/// A sludge_pair battle in PlayerPhase where enemy 0 is dead, enemy 1 alive, and a targeted card
/// is still affordable: found by hitting enemy 0 with whatever targets it.
std::optional<Battle> battle_with_dead_first_sludge() {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Battle b = started("sludge_pair", seed);
    while (b.status() == Status::AwaitingDecision) {
      const std::vector<Action> options = b.decision().options;
      if (!b.state().enemies[0].unit.alive()) {
        for (const Action& a : options)
          if (a.kind == ActionKind::PlayCard && def_of(b, a.card).target == CardTarget::Enemy) return b;
        break;
      }
      Action next = Action::end_turn();
      for (const Action& a : options)
        if (a.kind == ActionKind::PlayCard && a.target == 0) {
          next = a;
          break;
        }
      if (!b.submit(next).ok()) break;
    }
  }
  return std::nullopt;
}

TEST(DeckbuilderSubmit, RefusesADeadTarget) {
  std::optional<Battle> found = battle_with_dead_first_sludge();
  ASSERT_TRUE(found.has_value());
  Battle& b = *found;
  ASSERT_EQ(b.phase(), Phase::PlayerPhase);
  ASSERT_FALSE(b.state().enemies[0].unit.alive());
  ASSERT_TRUE(b.state().enemies[1].unit.alive());
  CardRef targeted = kNoCard;
  for (CardRef c : b.state().hand())
    if (def_of(b, c).target == CardTarget::Enemy && b.can_play_card(c) == PlayCheck::Ok) targeted = c;
  ASSERT_NE(targeted, kNoCard);
  expect_refused(b, Action::play(targeted, 0), RefusalReason::InvalidTarget);
  // The decision offers the alive sludge only.
  const std::vector<Action> options = b.decision().options;
  EXPECT_EQ(options, expected_options(b));
  for (const Action& a : options) EXPECT_NE(a.target, 0);
  EXPECT_TRUE(b.submit(Action::play(targeted, 1)).ok());
}

TEST(DeckbuilderSubmit, RefusesEverythingOnceTheBattleIsOver) {
  Battle b = started("w1", 2);
  play_randomly(b, 2);
  ASSERT_TRUE(b.is_battle_over());
  expect_refused(b, Action::end_turn(), RefusalReason::BattleOver);
  expect_refused(b, Action::play(0, 0), RefusalReason::BattleOver);
  expect_refused(b, Action::play(0), RefusalReason::BattleOver);
}

TEST(DeckbuilderSubmit, AnAcceptedActionIsRecorded) {
  Battle b = started("w1", 1);
  const Action first = b.decision().options.front();
  ASSERT_TRUE(b.submit(first).ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(b.actions(), (std::vector<Action>{first, Action::end_turn()}));
}

TEST(DeckbuilderSubmit, TargetedCardWithoutTargetHitsTheFirstAliveEnemy) {
  // The seed's step 3: "falling back to the first alive enemy when no target is provided".
  const std::uint64_t seed =
      seed_where("sludge_pair", [](const Battle& b) { return in_hand(b, "strike").has_value(); });
  Battle b = started("sludge_pair", seed);
  const std::int32_t hp0 = b.state().enemies[0].unit.hp;
  const std::int32_t hp1 = b.state().enemies[1].unit.hp;
  ASSERT_TRUE(b.submit(Action::play(*in_hand(b, "strike"))).ok());
  EXPECT_EQ(b.state().enemies[0].unit.hp, hp0 - 6);
  EXPECT_EQ(b.state().enemies[1].unit.hp, hp1);
}

TEST(DeckbuilderSubmit, TryPlayCardAndEndPlayerTurnAreSubmit) {
  const std::uint64_t seed =
      seed_where("w1", [](const Battle& b) { return in_hand(b, "defend").has_value(); });
  Battle a = started("w1", seed);
  Battle b = started("w1", seed);
  const CardRef defend = *in_hand(a, "defend");
  ASSERT_TRUE(a.try_play_card(defend).ok());
  ASSERT_TRUE(b.submit(Action::play(defend)).ok());
  EXPECT_EQ(a.state_hash(), b.state_hash());
  ASSERT_TRUE(a.end_player_turn().ok());
  ASSERT_TRUE(b.submit(Action::end_turn()).ok());
  EXPECT_EQ(a.state_hash(), b.state_hash());
  EXPECT_EQ(a.events().log(), b.events().log());
  EXPECT_EQ(a.actions(), b.actions());
  const Result<Status, Rejection> refused = a.try_play_card(kNoCard);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().check, PlayCheck::NullCard);
}

// --- the seed's CanPlayCard and RequiresTarget -----------------------------------------------

TEST(DeckbuilderCanPlayCard, OkForEveryOpeningHandCard) {
  const Battle b = started("w1", 1);
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.can_play_card(c), PlayCheck::Ok) << int{c};
}

TEST(DeckbuilderCanPlayCard, WrongPhaseBeforeAndAfterTheBattle) {
  Battle b(starter());
  EXPECT_EQ(b.can_play_card(0), PlayCheck::WrongPhase);
  ASSERT_TRUE(b.start_battle("w1", 6).ok());
  const CardRef card = b.state().hand()[0];
  play_randomly(b, 6);
  ASSERT_TRUE(b.is_battle_over());
  EXPECT_EQ(b.can_play_card(card), PlayCheck::WrongPhase);
  EXPECT_EQ(b.can_play_card(b.state().hand().empty() ? 0 : b.state().hand()[0]), PlayCheck::WrongPhase);
}

TEST(DeckbuilderCanPlayCard, NullCardForARefOutOfRange) {
  const Battle b = started("w1", 1);
  EXPECT_EQ(b.can_play_card(static_cast<CardRef>(b.state().cards.size())), PlayCheck::NullCard);
  EXPECT_EQ(b.can_play_card(kNoCard), PlayCheck::NullCard);
  EXPECT_EQ(b.active_card(kNoCard), nullptr);
}

TEST(DeckbuilderCanPlayCard, NotInHandForDrawAndDiscardPileCards) {
  Battle b = started("w1", 1);
  for (CardRef c : b.state().draw_pile()) EXPECT_EQ(b.can_play_card(c), PlayCheck::NotInHand) << int{c};
  const Action first = b.decision().options.front();
  ASSERT_EQ(first.kind, ActionKind::PlayCard);
  ASSERT_TRUE(b.submit(first).ok());
  ASSERT_EQ(b.state().discard_pile().size(), 1u);
  EXPECT_EQ(b.can_play_card(b.state().discard_pile()[0]), PlayCheck::NotInHand);
}

TEST(DeckbuilderCanPlayCard, CannotPayCostWhenEnergyIsShort) {
  const std::uint64_t seed = seed_where("w1", [](const Battle& b) { return in_hand(b, "bash").has_value(); });
  Battle b = started("w1", seed);
  const CardRef bash = *in_hand(b, "bash");
  EXPECT_EQ(b.can_play_card(bash), PlayCheck::Ok);
  spend_energy_down_to(b, 1, "bash");
  EXPECT_EQ(b.can_play_card(bash), PlayCheck::CannotPayCost);
  spend_energy_down_to(b, 0, "bash");
  for (CardRef c : b.state().hand()) EXPECT_EQ(b.can_play_card(c), PlayCheck::CannotPayCost) << int{c};
}

TEST(DeckbuilderRequiresTarget, StrikeAndBashTakeATargetDefendDoesNot) {
  const Battle b(starter());
  const Catalog& c = *starter();
  EXPECT_TRUE(b.requires_target(*c.find_card("strike")));
  EXPECT_TRUE(b.requires_target(*c.find_card("bash")));
  EXPECT_FALSE(b.requires_target(*c.find_card("defend")));
  EXPECT_FALSE(b.requires_target(*c.find_card("quick_study")));
  EXPECT_FALSE(b.requires_target(*c.find_card("cleave")));  // hits every enemy, picks none
  EXPECT_FALSE(b.requires_target(static_cast<CardId>(c.cards.size())));
}

TEST(DeckbuilderActiveCard, IsTheDefinitionOfTheInstance) {
  const Battle b = started("w1", 1);
  for (std::size_t i = 0; i < b.state().cards.size(); ++i) {
    const CardDef* d = b.active_card(static_cast<CardRef>(i));
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d, &b.catalog().cards[b.state().cards[i].def]);
  }
}

// --- clones and determinism ------------------------------------------------------------------

TEST(DeckbuilderClone, ACopyGivenTheSameActionsStaysIdentical) {
  for (std::string_view encounter : {"w1", "sludge_pair"}) {
    Battle original = started(encounter, 11);
    Battle clone = original;
    EXPECT_TRUE(clone.state() == original.state());
    EXPECT_EQ(clone.state_hash(), original.state_hash());
    RandomPolicy policy;
    policy.reset(11);
    while (original.status() == Status::AwaitingDecision) {
      const Decision d = original.decision();
      const Action a = d.options[policy.choose(original, d.options)];
      ASSERT_TRUE(original.submit(a).ok());
      ASSERT_TRUE(clone.submit(a).ok());
      ASSERT_EQ(clone.state_hash(), original.state_hash());
    }
    EXPECT_TRUE(clone.state() == original.state());
    EXPECT_EQ(clone.events().log(), original.events().log());
    EXPECT_EQ(clone.history(), original.history());
    EXPECT_EQ(clone.actions(), original.actions());
    EXPECT_EQ(clone.phase(), original.phase());
  }
}

TEST(DeckbuilderClone, ActingOnTheCloneLeavesTheOriginalUntouched) {
  Battle original = started("w1", 12);
  const Snapshot before(original);
  const std::vector<Event> log_before = original.events().log();
  {
    Battle clone = original;
    play_randomly(clone, 99);
    EXPECT_TRUE(clone.is_battle_over());
    EXPECT_NE(clone.state_hash(), original.state_hash());
  }
  expect_unchanged(original, before);
  EXPECT_EQ(original.events().log(), log_before);
  EXPECT_EQ(original.status(), Status::AwaitingDecision);
  // The original plays on exactly like a fresh battle with its seed.
  Battle fresh = started("w1", 12);
  play_randomly(original, 5);
  play_randomly(fresh, 5);
  EXPECT_EQ(original.state_hash(), fresh.state_hash());
  EXPECT_EQ(original.events().log(), fresh.events().log());
}

// What the player knows of the draw pile's top is part of the state and its hash, counted by the
// cards it covers: a mark the draws have passed hashes as no mark.
TEST(DeckbuilderClone, TheCardsKnownOnTopAreCopiedComparedAndHashed) {
  Battle original(test::innate_pack());
  ASSERT_TRUE(original.start_battle("e", 7).ok());
  ASSERT_EQ(original.state().known_on_top(), test::kRunesLeftOnTop);
  const Battle clone = original;
  EXPECT_TRUE(clone == original);
  EXPECT_EQ(clone.state().draw_known_from, original.state().draw_known_from);
  Battle forgot = original;
  Battle::Access::of(forgot).s.draw_known_from = kNothingKnownOnTop;
  EXPECT_FALSE(forgot == original);
  EXPECT_NE(forgot.state_hash(), original.state_hash());
  Battle passed = original;
  Battle::Access::of(passed).s.draw_known_from =
      static_cast<std::uint8_t>(original.state().draw_pile().size());
  EXPECT_EQ(passed.state().known_on_top(), 0u);
  EXPECT_EQ(passed.state_hash(), forgot.state_hash());
}

struct CountingListener final : Listener {
  void on_event(const Event&) override { ++count; }
  int count = 0;
};

TEST(DeckbuilderClone, ListenersAreNotCopied) {
  Battle original(starter());
  CountingListener listener;
  original.events().attach(&listener);
  ASSERT_TRUE(original.start_battle("w1", 13).ok());
  const int heard = listener.count;
  EXPECT_EQ(static_cast<std::size_t>(heard), original.events().log().size());
  Battle clone = original;
  EXPECT_EQ(clone.events().listener_count(), 0u);
  ASSERT_TRUE(clone.submit(Action::end_turn()).ok());
  EXPECT_EQ(listener.count, heard);
  ASSERT_TRUE(original.submit(Action::end_turn()).ok());
  EXPECT_GT(listener.count, heard);
  original.events().detach(&listener);
}

TEST(DeckbuilderDeterminism, TheSameSeedGivesTheSameBattle) {
  for (std::string_view encounter : {"w1", "sludge_pair"}) {
    for (std::uint64_t seed : {1u, 42u, 1000u}) {
      Battle a = started(encounter, seed);
      Battle b = started(encounter, seed);
      EXPECT_TRUE(a.state() == b.state());
      play_randomly(a, seed + 7);
      play_randomly(b, seed + 7);
      EXPECT_EQ(a.state_hash(), b.state_hash());
      EXPECT_EQ(a.events().log(), b.events().log());
      EXPECT_EQ(a.history(), b.history());
      EXPECT_EQ(a.actions(), b.actions());
    }
  }
}

TEST(DeckbuilderDeterminism, DifferentSeedsGiveDifferentBattles) {
  // Not only the hash (which includes the seed): the deal and the enemies differ.
  std::set<std::vector<CardRef>> hands;
  std::set<std::int32_t> gnasher_hp;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Battle b = started("w1", seed);
    hands.insert(std::vector<CardRef>(b.state().hand().begin(), b.state().hand().end()));
    gnasher_hp.insert(b.state().enemies[0].unit.hp);
  }
  EXPECT_GT(hands.size(), 10u);
  EXPECT_GT(gnasher_hp.size(), 1u);
  const Battle one = started("w1", 1);
  const Battle two = started("w1", 2);
  EXPECT_NE(one.state_hash(), two.state_hash());
  EXPECT_NE(one.events().log(), two.events().log());
}

// --- whole battles ---------------------------------------------------------------------------

TEST(DeckbuilderRandomBattle, AlwaysEndsWonOrLost) {
  std::set<Phase> endings;
  for (std::string_view encounter : {"w1", "sludge_pair"}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      Battle b = started(encounter, seed);
      play_randomly(b, seed);
      ASSERT_TRUE(b.phase() == Phase::BattleWon || b.phase() == Phase::BattleLost)
          << encounter << " seed " << seed << " stopped in " << phase_name(b.phase());
      endings.insert(b.phase());
      EXPECT_TRUE(b.is_battle_over());
      EXPECT_FALSE(b.is_battle_active());
      EXPECT_EQ(b.status(), Status::Finished);
      EXPECT_EQ(b.won(), b.phase() == Phase::BattleWon);
      const Decision d = b.decision();
      EXPECT_EQ(d.who.kind, Decider::Kind::Nobody);
      EXPECT_TRUE(d.options.empty());
      ASSERT_FALSE(b.events().log().empty());
      const Event& last = b.events().log().back();
      EXPECT_EQ(last.type, EventType::BattleEnded);
      EXPECT_EQ(last.amount, b.won() ? 1 : 0);
      bool any_enemy_alive = false;
      for (const EnemyState& e : b.state().enemies) any_enemy_alive |= e.unit.alive();
      if (b.won()) {
        EXPECT_TRUE(b.state().player.alive());
        EXPECT_FALSE(any_enemy_alive);
      } else {
        EXPECT_FALSE(b.state().player.alive());
      }
    }
  }
  EXPECT_EQ(endings.size(), 2u) << "random play should both win and lose some battles";
}

/// Counts the cards a battle created (add_card's CardCreated events), reading only the events
/// logged since the last call, so a check at every step stays linear in the log.
struct CreatedCards {
  std::size_t count(const Battle& b) {
    const std::vector<Event>& log = b.events().log();
    if (log.size() < read) read = created = 0;  // a new battle
    for (; read < log.size(); ++read) created += log[read].type == EventType::CardCreated ? 1u : 0u;
    return created;
  }
  std::size_t read = 0;
  std::size_t created = 0;
};

/// The invariants of every reachable state.
void check_invariants(const Battle& b, std::size_t created, const std::string& where) {
  SCOPED_TRACE(where);
  const BattleState& s = b.state();
  const EncounterDef& encounter = b.catalog().encounters[s.encounter];
  // Card conservation: every instance in exactly one pile, and no instance appears from
  // nowhere: the starting deck plus the cards effects created (CardCreated).
  std::vector<int> seen(s.cards.size(), 0);
  const auto count = [&](const auto& pile) {
    for (CardRef c : pile) {
      ASSERT_LT(c, seen.size());
      ++seen[c];
    }
  };
  count(s.draw_pile());
  count(s.hand());
  count(s.discard_pile());
  count(s.exhaust_pile());
  EXPECT_EQ(s.draw_pile().size() + s.hand().size() + s.discard_pile().size() + s.exhaust_pile().size(),
            s.cards.size());
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "card instance " << i;
  EXPECT_EQ(s.cards.size(), b.catalog().players[encounter.player].deck.size() + created);
  EXPECT_LE(s.hand().size(), encounter.rules.hand_limit);
  // Energy: effects may add energy beyond the turn's maximum (gain_energy), never below 0.
  EXPECT_GE(s.energy, 0);
  // Units: HP never goes below 0 nor above the maximum.
  const auto check_unit = [](const UnitState& u, const char* who) {
    EXPECT_GE(u.hp, 0) << who;
    EXPECT_LE(u.hp, u.max_hp) << who;
    EXPECT_GE(u.armor, 0) << who;
    for (const StatusStack& st : u.statuses)
      EXPECT_GT(st.stacks, 0) << who << " keeps an empty or negative status";
  };
  check_unit(s.player, "player");
  for (const EnemyState& e : s.enemies) check_unit(e.unit, "enemy");
  if (b.phase() == Phase::PlayerPhase) {
    EXPECT_TRUE(s.player.alive());
    bool any_enemy = false;
    for (const EnemyState& e : s.enemies) any_enemy |= e.unit.alive();
    EXPECT_TRUE(any_enemy);
  }
  // A clone is equal.
  const Battle clone = b;
  EXPECT_TRUE(clone.state() == s);
  EXPECT_EQ(clone.state_hash(), b.state_hash());
}

TEST(DeckbuilderRandomBattle, InvariantsHoldIn200BattlesPerEncounter) {
  for (const EncounterDef& encounter : starter()->encounters) {
    int won = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      const std::string where = encounter.id + " seed " + std::to_string(seed);
      Battle b = started(encounter.id, seed);
      CreatedCards created;
      check_invariants(b, created.count(b), where + " at start");
      // Reward waits are decisions too: the random policy takes or skips a reward.
      const int steps = play_randomly(
          b, seed * 31 + 1, [&](const Battle& now) { check_invariants(now, created.count(now), where); },
          5000);
      ASSERT_TRUE(b.is_battle_over()) << where << " did not end in " << steps << " actions";
      ASSERT_EQ(b.status(), Status::Finished) << where;
      won += b.won() ? 1 : 0;
      if (HasFatalFailure() || ::testing::Test::HasFailure()) FAIL() << "stopped at " << where;
    }
    RecordProperty(encounter.id + "_won", won);
  }
}

}  // namespace
}  // namespace battlecore::deckbuilder
