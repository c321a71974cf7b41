// Snapshots and clones of a deckbuilder battle: round trips in every phase and every wait,
// identical continuation, refusal of other versions and other content.

#include "battlecore/deckbuilder/snapshot.hpp"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

using nlohmann::json;
using test::starter;

Battle started(std::string_view encounter, std::uint64_t seed) {
  Battle b(starter());
  EXPECT_TRUE(b.start_battle(encounter, seed).ok());
  return b;
}

Battle from_scenario(const json& scenario) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("scenario.json", scenario.dump(), diags);
  EXPECT_TRUE(doc.has_value());
  auto b = start_scenario(starter(), *doc);
  if (!b) ADD_FAILURE() << b.error().to_string();
  return std::move(b).value();
}

Battle round_trip(const Battle& b) {
  auto r = restore(starter(), snapshot(b));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

/// Plays both battles with the same seeded random choices to the end, checking they stay equal.
void play_both_to_the_end(Battle& a, Battle& b, std::uint64_t seed) {
  RandomPolicy policy;
  policy.reset(seed);
  std::vector<Action> options;
  int steps = 0;
  while (a.status() == Status::AwaitingDecision && steps++ < 2000) {
    a.legal_actions(options);
    const Action pick = options[policy.pick(options.size())];
    ASSERT_TRUE(a.submit(pick).ok());
    ASSERT_TRUE(b.submit(pick).ok());
    ASSERT_TRUE(a == b);
    ASSERT_EQ(a.state_hash(), b.state_hash());
  }
  EXPECT_TRUE(a.is_battle_over());
  EXPECT_EQ(a.events().log(), b.events().log());
}

TEST(DeckbuilderSnapshot, AFreshBattleRoundTrips) {
  const Battle b(starter());
  const Battle r = round_trip(b);
  EXPECT_TRUE(r == b);
  EXPECT_EQ(r.phase(), Phase::None);
}

TEST(DeckbuilderSnapshot, RoundTripInThePlayerPhaseIsEqualFieldByField) {
  const Battle b = started("w1", 7);
  ASSERT_EQ(b.phase(), Phase::PlayerPhase);
  const Battle r = round_trip(b);
  EXPECT_TRUE(r == b);
  EXPECT_EQ(r.state(), b.state());
  EXPECT_EQ(r.history(), b.history());
  EXPECT_EQ(r.actions(), b.actions());
  EXPECT_EQ(r.events().log(), b.events().log());
  EXPECT_EQ(r.state_hash(), b.state_hash());
  EXPECT_EQ(snapshot(r), snapshot(b));
}

TEST(DeckbuilderSnapshot, ARestoredBattleContinuesIdentically) {
  for (const std::string encounter : {"w1", "sludge_pair", "swamp", "warlord_throne"}) {
    SCOPED_TRACE(encounter);
    Battle a = started(encounter, 11);
    Battle b = round_trip(a);
    play_both_to_the_end(a, b, 99);
  }
}

TEST(DeckbuilderSnapshot, SnapshotsTakenInEveryPhaseRoundTrip) {
  // A listener snapshots the battle at every phase change, inside advance().
  struct Snapper : Listener {
    const Battle* battle = nullptr;
    std::vector<json> snaps;
    void on_event(const Event& e) override {
      if (e.type == EventType::PhaseChanged) snaps.push_back(snapshot(*battle));
    }
  } snapper;
  Battle b(starter());
  snapper.battle = &b;
  b.events().attach(&snapper);
  ASSERT_TRUE(b.start_battle("w1", 3).ok());
  RandomPolicy policy;
  policy.reset(5);
  std::vector<Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options[policy.pick(options.size())]).ok());
  }
  std::set<std::string> phases;
  for (const json& s : snapper.snaps) {
    phases.insert(s["phase"].get<std::string>());
    auto r = restore(starter(), s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(snapshot(r.value()), s);
  }
  for (const char* p : {"Initialize", "PlayerTurnStart", "PlayerPhase", "PlayerTurnEnd", "EnemyPhase"})
    EXPECT_TRUE(phases.count(p)) << p;
  EXPECT_TRUE(phases.count("BattleWon") + phases.count("BattleLost") == 1);
}

TEST(DeckbuilderSnapshot, ABattlePausedOnAChoiceRestoresAndContinuesIdentically) {
  Battle a =
      from_scenario({{"encounter", "w1"}, {"seed", 4}, {"hand", {"tactics", "strike"}}, {"energy", 3}});
  const std::int32_t cost = a.effective_cost(0);
  ASSERT_TRUE(a.submit(Action::play(0)).ok());
  ASSERT_TRUE(a.is_waiting_for_choice());
  ASSERT_FALSE(a.state().effects.empty());
  Battle b = round_trip(a);
  EXPECT_TRUE(b == a);
  EXPECT_TRUE(b.is_waiting_for_choice());
  EXPECT_EQ(b.decision().options, a.decision().options);
  ASSERT_TRUE(a.submit(Action::choose(2)).ok());  // gain 2 energy
  ASSERT_TRUE(b.submit(Action::choose(2)).ok());
  EXPECT_TRUE(b == a);
  EXPECT_EQ(a.state().energy, 3 - cost + 2);
  play_both_to_the_end(a, b, 17);
}

TEST(DeckbuilderSnapshot, ABattlePausedOnARewardRestoresAndContinuesIdentically) {
  Battle a = from_scenario(
      {{"encounter", "cultist_rite"}, {"seed", 8}, {"hand", {"strike"}}, {"enemies", {{{"hp", 1}}}}});
  ASSERT_TRUE(a.submit(Action::play(0, 0)).ok());
  ASSERT_TRUE(a.is_waiting_for_reward());
  ASSERT_EQ(a.phase(), Phase::BattleWon);
  Battle b = round_trip(a);
  EXPECT_TRUE(b == a);
  EXPECT_TRUE(b.is_waiting_for_reward());
  EXPECT_EQ(b.decision().options, a.decision().options);
  ASSERT_TRUE(a.submit(Action::take_reward(0)).ok());
  ASSERT_TRUE(b.submit(Action::take_reward(0)).ok());
  EXPECT_TRUE(b == a);
  EXPECT_EQ(a.state().reward_taken, static_cast<std::int32_t>(a.state().reward_options[0]));
  EXPECT_EQ(a.events().log(), b.events().log());
  EXPECT_EQ(a.status(), Status::Finished);
}

TEST(DeckbuilderSnapshot, AFinishedBattleRoundTrips) {
  Battle a = started("w1", 21);
  Battle unused = a;
  play_both_to_the_end(a, unused, 3);
  const Battle r = round_trip(a);
  EXPECT_TRUE(r == a);
  EXPECT_TRUE(r.is_battle_over());
}

TEST(DeckbuilderSnapshot, AnotherFormatVersionIsRefusedClearly) {
  json s = snapshot(started("w1", 1));
  s["format_version"] = kSnapshotFormatVersion + 1;
  auto r = restore(starter(), s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/format_version"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("version 2 is not supported"), std::string::npos) << r.error().message;
}

/// Restoring `doc` fails, naming `pointer` and saying `what`.
void expect_refused(const json& doc, std::string_view pointer, std::string_view what) {
  const auto r = restore(starter(), doc);
  ASSERT_FALSE(r.ok()) << pointer;
  EXPECT_NE(r.error().message.find(pointer), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
}

TEST(DeckbuilderSnapshot, OtherContentAndBrokenFieldsAreRefusedWithTheirPointer) {
  const json s = snapshot(started("w1", 1));
  json other = s;
  other["content_hash"] = "0000000000000000";
  expect_refused(other, "/content_hash", "");

  json bad_card = s;
  bad_card["state"]["cards"][0]["card"] = "no_such_card";
  expect_refused(bad_card, "/state/cards/0/card", "");

  json bad_pile = s;
  bad_pile["state"]["hand"][0] = 200;
  expect_refused(bad_pile, "/state/hand/0", "");

  // The piles share the battle's kMaxCards places, and the hand holds at most kMaxHand.
  json crowded = s;
  for (std::size_t i = 0; i < kMaxCards; ++i) crowded["state"]["exhaust_pile"].push_back(0);
  expect_refused(crowded, "/state/exhaust_pile", "more than 64 cards together");
  json big_hand = s;
  for (std::size_t i = 0; i < kMaxHand; ++i) big_hand["state"]["hand"].push_back(0);
  expect_refused(big_hand, "/state/hand", "more than 12 entries");

  json missing = s;
  missing["state"].erase("energy");
  expect_refused(missing, "", "missing key 'energy'");
}

TEST(DeckbuilderSnapshot, DamageStatsRoundTripAndAreCheckedOnRestore) {
  Battle a = started("w1", 21);
  Battle unused = a;
  play_both_to_the_end(a, unused, 3);
  const DamageStats dealt = a.damage_stats();
  ASSERT_GT(dealt.hp[0], 0);  // the player's hits
  ASSERT_GT(dealt.hp[1], 0);  // the enemy's
  const json s = snapshot(a);
  ASSERT_EQ(s["damage_stats"]["hp"].size(), 2u);  // the player and the one enemy
  EXPECT_EQ(s["damage_stats"]["hp"][0], dealt.hp[0]);
  EXPECT_TRUE(round_trip(a).damage_stats() == dealt);

  // A snapshot without the key (written before the stats were kept) restores them as zeros.
  json old = s;
  old.erase("damage_stats");
  auto r = restore(starter(), old);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r.value().damage_stats() == DamageStats{});
  EXPECT_EQ(r.value().state_hash(), a.state_hash());  // not rules state: the hash leaves them out

  json short_list = s;
  short_list["damage_stats"]["armor"].erase(1);
  expect_refused(short_list, "/damage_stats/armor", "expected 2 entries (the player and 1 enemies), got 1");
  json negative = s;
  negative["damage_stats"]["hp"][1] = -5;
  expect_refused(negative, "/damage_stats/hp/1", "expected an integer in [0, ");
  json not_a_list = s;
  not_a_list["damage_stats"]["hp"] = 3;
  expect_refused(not_a_list, "/damage_stats/hp", "expected an array");

  // The next battle counts from zero.
  ASSERT_TRUE(a.start_battle("w1", 22).ok());
  EXPECT_TRUE(a.damage_stats() == DamageStats{});
}

TEST(DeckbuilderSnapshot, AStateTheRulesNeverReachIsRefused) {
  const json s = snapshot(from_scenario(
      {{"encounter", "w1"}, {"player", {{"statuses", {{{"status", "strength"}, {"stacks", 2}}}}}}}));
  ASSERT_EQ(s["state"]["player"]["statuses"].size(), 1u);
  ASSERT_TRUE(restore(starter(), s).ok());

  // A status has 1 to 999 stacks: the rules erase it at 0 and never go below.
  for (const int stacks : {0, -1, 1000}) {
    json bad = s;
    bad["state"]["player"]["statuses"][0]["stacks"] = stacks;
    expect_refused(bad, "/state/player/statuses/0/stacks", "");
  }
  json top = s;
  top["state"]["player"]["statuses"][0]["stacks"] = kMaxStatusStacks;
  EXPECT_TRUE(restore(starter(), top).ok());

  // A status is on a unit once.
  json twice = s;
  twice["state"]["player"]["statuses"].push_back(s["state"]["player"]["statuses"][0]);
  expect_refused(twice, "/state/player/statuses/1/status", "status 'strength' is listed twice");

  // A card instance is in exactly one pile, once.
  const json& hand = s["state"]["hand"];
  ASSERT_FALSE(hand.empty());
  json two_piles = s;
  two_piles["state"]["discard_pile"].push_back(hand[0]);
  expect_refused(two_piles, "/state/discard_pile/0", "card " + hand[0].dump() + " is already in hand");
  json nowhere = s;
  nowhere["state"]["hand"].erase(nowhere["state"]["hand"].size() - 1);
  expect_refused(nowhere, "/state/cards/" + hand.back().dump(),
                 "card " + hand.back().dump() + " is in no pile");
  json twice_in_hand = s;
  twice_in_hand["state"]["hand"].push_back(hand[0]);
  expect_refused(twice_in_hand, "/state/hand/" + std::to_string(hand.size()),
                 "card " + hand[0].dump() + " is already in hand");
}

TEST(DeckbuilderClone, ACloneAndItsOriginalGivenTheSameActionsLogTheSameEvents) {
  Battle original = started("sludge_pair", 5);
  Battle clone = original;
  EXPECT_TRUE(clone == original);
  play_both_to_the_end(original, clone, 77);
  EXPECT_EQ(original.events().log(), clone.events().log());
  EXPECT_FALSE(original.events().log().empty());
}

TEST(DeckbuilderClone, ActingOnACloneLeavesTheOriginalUntouched) {
  const Battle original = started("w1", 5);
  const json before = snapshot(original);
  const std::uint64_t hash = original.state_hash();
  Battle clone = original;
  ASSERT_TRUE(clone.submit(Action::end_turn()).ok());
  EXPECT_FALSE(clone == original);
  EXPECT_EQ(snapshot(original), before);
  EXPECT_EQ(original.state_hash(), hash);
  EXPECT_EQ(original.actions().size(), 0u);

  Battle other = original;  // and the other way round
  Battle copy = other;
  ASSERT_TRUE(other.submit(Action::end_turn()).ok());
  EXPECT_TRUE(copy == original);
}

}  // namespace
}  // namespace battlecore::deckbuilder
