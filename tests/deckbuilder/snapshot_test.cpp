// Snapshots and clones of a deckbuilder battle: round trips in every phase and every wait,
// identical continuation, refusal of other versions and other content.

#include "battlecore/deckbuilder/snapshot.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "support/innate_pack.hpp"
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

/// Plays `b` to its end with the random policy seeded `seed`; stops at the first fatal failure
/// (a refused option, or one raised by a listener).
void play_out(Battle& b, std::uint64_t seed) {
  RandomPolicy policy;
  policy.reset(seed);
  std::vector<Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options[policy.pick(options.size())]).ok());
    if (::testing::Test::HasFatalFailure()) return;
  }
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
  ASSERT_NO_FATAL_FAILURE(play_out(b, 5));
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

/// The card instance in hand whose card is `id`.
CardRef in_hand(const Battle& b, std::string_view id) {
  for (CardRef card : b.state().hand())
    if (b.catalog().cards[b.state().cards[card].def].id == id) return card;
  ADD_FAILURE() << "no " << id << " in hand";
  return 0;
}

/// Sets the field at `pointer` of a copy of `doc` to `value`.
json with(const json& doc, std::string_view pointer, const json& value) {
  json out = doc;
  out[json::json_pointer(std::string(pointer))] = value;
  return out;
}

TEST(DeckbuilderSnapshot, AnRngWordIsReadInTheLowerCaseItIsWrittenIn) {
  // As replays read their hashes: the one form written, 16 lower-case hex digits.
  const json s = snapshot(started("w1", 1));
  const std::string word = s["state"]["rng"]["setup"][0].get<std::string>();
  std::string upper = word;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_NE(upper, word) << "a word with a letter in it";
  EXPECT_TRUE(restore(starter(), with(s, "/state/rng/setup/0", word)).ok());
  expect_refused(with(s, "/state/rng/setup/0", upper), "/state/rng/setup/0",
                 "expected 16 lower-case hex digits");
}

/// A battle paused on a Choice with a hook and a delayed trigger registered: every unit
/// reference of the state has a value to edit.
json paused_with_everything() {
  Battle a = from_scenario({{"encounter", "sludge_pair"},
                            {"seed", 4},
                            {"hand", {"battle_fury", "foresight", "tactics"}},
                            {"energy", 9}});
  EXPECT_TRUE(a.submit(Action::play(in_hand(a, "battle_fury"))).ok());
  EXPECT_TRUE(a.submit(Action::play(in_hand(a, "foresight"))).ok());
  EXPECT_TRUE(a.submit(Action::play(in_hand(a, "tactics"))).ok());
  EXPECT_TRUE(a.is_waiting_for_choice());
  return snapshot(a);
}

// What the player knows of the draw pile's top is state: kept by the snapshot, restored with it,
// and the restored battle goes on as the original does.
TEST(DeckbuilderSnapshot, TheCardsKnownOnTopOfTheDrawPileRoundTrip) {
  Battle a(test::innate_pack());
  ASSERT_TRUE(a.start_battle("e", 4).ok());
  ASSERT_EQ(a.state().known_on_top(), test::kRunesLeftOnTop);
  const json s = snapshot(a);
  EXPECT_EQ(s["state"]["draw_known_from"], test::kOrdinaryCards);
  auto r = restore(test::innate_pack(), s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Battle b = std::move(r).value();
  EXPECT_TRUE(b == a);
  EXPECT_EQ(b.state().draw_known_from, a.state().draw_known_from);
  EXPECT_EQ(b.state_hash(), a.state_hash());
  EXPECT_EQ(snapshot(b), s);
  play_both_to_the_end(a, b, 8);
  // Nothing known: null.
  EXPECT_TRUE(snapshot(started("w1", 1))["state"]["draw_known_from"].is_null());
  // A snapshot without the key (written before it was kept) knows nothing.
  json old = s;
  old["state"].erase("draw_known_from");
  auto o = restore(test::innate_pack(), old);
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o.value().state().draw_known_from, kNothingKnownOnTop);
  EXPECT_EQ(o.value().state().known_on_top(), 0u);
}

// The rules set the mark within the draw pile (below the Innate cards on top, or at a card put
// there from the hand), below the number of card instances, and the cards it covers in an unknown
// order are Innate: any other mark is refused.
TEST(DeckbuilderSnapshot, AMarkOfTheCardsKnownOnTopTheRulesNeverSetIsRefused) {
  Battle a(test::innate_pack());
  ASSERT_TRUE(a.start_battle("e", 4).ok());
  const json s = snapshot(a);
  const std::size_t cards = a.state().cards.size();
  const auto refused = [&](const json& mark, const std::string& what) {
    const auto r = restore(test::innate_pack(), with(s, "/state/draw_known_from", mark));
    ASSERT_FALSE(r.ok()) << mark;
    EXPECT_NE(r.error().message.find("/state/draw_known_from"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  };
  refused(cards, fmt::format("a draw pile index below the battle's {} card instances: expected an integer in "
                             "[0, {}]",
                             cards, cards - 1));
  refused(-1, "got -1");
  refused("top", "expected an integer");
  // The cards known in order are among those known to be on top.
  const auto refused_ordered = [&](const json& doc, const std::string& what) {
    const auto r = restore(test::innate_pack(), doc);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("/state/draw_ordered_from"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  };
  refused_ordered(with(s, "/state/draw_ordered_from", test::kOrdinaryCards - 1),
                  fmt::format("expected an index at or above draw_known_from ({}), got {}",
                              test::kOrdinaryCards, test::kOrdinaryCards - 1));
  refused_ordered(with(with(s, "/state/draw_known_from", nullptr), "/state/draw_ordered_from", 3),
                  "draw_known_from is null, so no card is known in order, got 3");
  refused_ordered(with(s, "/state/draw_ordered_from", cards), "expected an integer in");
  refused(test::kOrdinaryCards - 1,
          fmt::format("at draw pile index {} is not Innate", test::kOrdinaryCards - 1));
  refused(0, "at draw pile index 0 is not Innate");
  // Cards known in order may be any cards (put on top from the hand): the run they start is not
  // held to Innate cards.
  for (const std::size_t ordered : {std::size_t{0}, test::kOrdinaryCards - 1, test::kOrdinaryCards + 1}) {
    const json marked = with(with(s, "/state/draw_known_from", std::min(ordered, test::kOrdinaryCards)),
                             "/state/draw_ordered_from", ordered);
    const auto r = restore(test::innate_pack(), marked);
    ASSERT_TRUE(r.ok()) << ordered << ": " << r.error().message;
    EXPECT_EQ(r.value().state().known_in_order_on_top(),
              test::kOrdinaryCards + test::kRunesLeftOnTop - ordered);
  }
  // Marks the draws could have left: one rune still covered, none, or passed long ago.
  for (const std::size_t mark : {test::kOrdinaryCards + 1, test::kOrdinaryCards + 2, cards - 1}) {
    const auto r = restore(test::innate_pack(), with(s, "/state/draw_known_from", mark));
    ASSERT_TRUE(r.ok()) << mark << ": " << r.error().message;
    EXPECT_EQ(r.value().state().known_on_top(), test::kOrdinaryCards + test::kRunesLeftOnTop > mark
                                                    ? test::kOrdinaryCards + test::kRunesLeftOnTop - mark
                                                    : 0u);
  }
}

// A battle without card instances knows none on top: a mark there says so, not a range of none.
TEST(DeckbuilderSnapshot, AMarkInABattleWithoutCardsIsRefusedAsSuch) {
  json s = snapshot(started("w1", 1));
  for (const char* key : {"cards", "draw_pile", "hand", "discard_pile", "exhaust_pile", "played_this_turn"})
    s["state"][key] = json::array();
  ASSERT_TRUE(restore(starter(), s).ok()) << restore(starter(), s).error().message;  // such a battle restores
  const auto r = restore(starter(), with(s, "/state/draw_known_from", 0));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/state/draw_known_from: expected null: the battle has no card instances"),
            std::string::npos)
      << r.error().message;
}

TEST(DeckbuilderSnapshot, ARewardOutsideTheWonBattleIsRefused) {
  const json scenario = {
      {"encounter", "cultist_rite"}, {"seed", 8}, {"hand", {"strike"}}, {"enemies", {{{"hp", 1}}}}};
  Battle b = from_scenario(scenario);
  const json playing = snapshot(b);
  ASSERT_TRUE(b.submit(Action::play(0, 0)).ok());
  ASSERT_TRUE(b.is_waiting_for_reward());
  const json waiting = snapshot(b);
  const json offered = waiting["state"]["reward_options"];
  ASSERT_FALSE(offered.empty());
  ASSERT_TRUE(b.submit(Action::take_reward(0)).ok());
  const json taken = snapshot(b);
  ASSERT_EQ(taken["state"]["reward_taken"], offered[0]);
  EXPECT_TRUE(restore(starter(), waiting).ok());
  EXPECT_TRUE(restore(starter(), taken).ok());

  // Rewards are offered only once the battle is won.
  expect_refused(with(playing, "/state/reward_options", offered), "/state/reward_options",
                 "a battle in phase PlayerPhase offers no reward: expected [], got");
  // A reward waits only with options to take.
  expect_refused(with(waiting, "/state/reward_options", json::array()), "/state/reward_pending",
                 "no reward options are offered: expected false, got true");
  // The card taken is one of the options.
  expect_refused(with(taken, "/state/reward_taken", "bash"), "/state/reward_taken",
                 "expected one of the reward options, got 'bash'");
}

TEST(DeckbuilderSnapshot, APlayOutsideThePlayerPhaseIsRefused) {
  const json paused = paused_with_everything();
  ASSERT_FALSE(paused["state"]["playing"]["card"].is_null());
  ASSERT_TRUE(restore(starter(), paused).ok());
  // A card is played, and a Choice waits in its play, only in the player phase.
  for (const std::string phase : {"PlayerTurnStart", "PlayerTurnEnd", "EnemyPhase", "BattleWon"})
    expect_refused(with(paused, "/phase", phase), "/state/playing/card",
                   "no card is played in phase " + phase + ": expected null, got " +
                       paused["state"]["playing"]["card"].dump());
}

TEST(DeckbuilderSnapshot, ADecidedBattleWaitingForThePlayerIsRefused) {
  // A play ends by firing Victory or Defeat once a side is down: the player never decides, between
  // plays, in a battle without an enemy standing or with the player down (a play there would
  // target no enemy).
  const json s = snapshot(started("sludge_pair", 2));
  ASSERT_EQ(s["phase"], "PlayerPhase");
  ASSERT_EQ(s["state"]["enemies"].size(), 2u);
  ASSERT_TRUE(s["state"]["playing"]["card"].is_null());
  const json one_down = with(s, "/state/enemies/0/hp", 0);
  EXPECT_TRUE(restore(starter(), one_down).ok());
  expect_refused(with(one_down, "/state/enemies/1/hp", 0), "/state/enemies",
                 "no enemy is alive in phase PlayerPhase with no card in play: expected at least one");
  expect_refused(with(s, "/state/player/hp", 0), "/state/player/hp",
                 "the player is down in phase PlayerPhase with no card in play: expected HP above 0");
}

TEST(DeckbuilderSnapshot, ABattleRestoredInTheMiddleOfAPlayCannotGoOn) {
  // A listener snapshots the battle as the last enemy dies, in the middle of a Strike. Restored,
  // the play's rest is gone with the listener's stack: the battle is undecided, in the player
  // phase, with no enemy standing. A play there found no target (an enemy at index -2).
  struct Snapper : Listener {
    const Battle* battle = nullptr;
    std::optional<json> snap;
    void on_event(const Event& e) override {
      if (e.type == EventType::UnitDied) snap = snapshot(*battle);
    }
  } snapper;
  Battle b = from_scenario({{"encounter", "cultist_rite"},
                            {"seed", 8},
                            {"hand", {"strike", "strike", "defend"}},
                            {"enemies", {{{"hp", 1}}}}});
  snapper.battle = &b;
  b.events().attach(&snapper);
  ASSERT_TRUE(b.submit(Action::play(in_hand(b, "strike"), 0)).ok());
  ASSERT_TRUE(snapper.snap.has_value());
  ASSERT_FALSE((*snapper.snap)["state"]["playing"]["card"].is_null());
  auto restored = restore(starter(), *snapper.snap);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle& r = restored.value();
  EXPECT_EQ(r.phase(), Phase::PlayerPhase);
  EXPECT_TRUE(r.is_play_interrupted());
  EXPECT_EQ(r.decision().who.kind, Decider::Kind::Nobody);
  EXPECT_TRUE(r.decision().options.empty());
  const std::uint64_t hash = r.state_hash();
  for (const Action& a :
       {Action::play(in_hand(r, "strike"), 0), Action::play(in_hand(r, "defend")), Action::end_turn()}) {
    const auto refused = r.submit(a);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().reason, RefusalReason::NotYourDecision);
    EXPECT_TRUE(refused.error().message.find("was interrupted") != std::string::npos)
        << refused.error().message;
  }
  EXPECT_EQ(r.state_hash(), hash);
  // A battle paused on a Choice is in the middle of a play too, and goes on.
  auto paused = restore(starter(), paused_with_everything());
  ASSERT_TRUE(paused.ok());
  EXPECT_FALSE(paused.value().is_play_interrupted());
  EXPECT_FALSE(paused.value().decision().options.empty());
}

/// Snapshots `battle` as it enters Initialize, before Initialize's first step (the state is
/// still the last battle's).
struct SnapshotsAtInitialize : Listener {
  const Battle* battle = nullptr;
  std::vector<json> snaps;
  void on_event(const Event& e) override {
    if (e.type == EventType::PhaseChanged && battle->phase() == Phase::Initialize)
      snaps.push_back(snapshot(*battle));
  }
};

TEST(DeckbuilderSnapshot, EnemiesOtherThanTheEncountersAreRefused) {
  // No rule adds, removes or swaps an enemy: once Initialize has built them they are the
  // encounter's, in its order. These once restored and played on.
  const json s = paused_with_everything();
  ASSERT_EQ(s["state"]["enemies"].size(), 2u);
  const std::string encounter = s["state"]["encounter"];
  const std::string first = s["state"]["enemies"][0]["enemy"];
  const std::string second = s["state"]["enemies"][1]["enemy"];
  // A sentry moves like a sludge (a sequence of two moves), so only the enemy itself is wrong.
  ASSERT_NE(first, "sentry");
  json swapped = with(s, "/state/enemies/0/enemy", "sentry");
  expect_refused(swapped, "/state/enemies/0/enemy",
                 fmt::format("encounter '{}' has enemy '{}' here, got 'sentry'", encounter, first));
  json fewer = s;
  fewer["state"]["enemies"].erase(1);
  for (const char* key : {"hp", "armor"}) fewer["damage_stats"][key].erase(2);
  expect_refused(fewer, "/state/enemies", fmt::format("encounter '{}' has 2 enemies, got 1", encounter));
  json more = s;
  more["state"]["enemies"].push_back(s["state"]["enemies"][1]);
  expect_refused(more, "/state/enemies", fmt::format("encounter '{}' has 2 enemies, got 3", encounter));
  // Each position is checked: the second enemy too.
  expect_refused(with(s, "/state/enemies/1/enemy", "sentry"), "/state/enemies/1/enemy",
                 fmt::format("encounter '{}' has enemy '{}' here, got 'sentry'", encounter, second));
  // Until Initialize has built them, the last battle's enemies are still there: a battle of
  // `w1` (a gnasher), then one of `sludge_pair`, snapshotted as it enters Initialize.
  SnapshotsAtInitialize listener;
  Battle b(starter());
  ASSERT_TRUE(b.start_battle("w1", 1).ok());
  ASSERT_NO_FATAL_FAILURE(play_out(b, 1));
  listener.battle = &b;
  b.events().attach(&listener);
  ASSERT_TRUE(b.start_battle("sludge_pair", 2).ok());
  ASSERT_EQ(listener.snaps.size(), 1u);
  const json& early = listener.snaps[0];
  ASSERT_EQ(early["state"]["encounter"], "sludge_pair");
  ASSERT_EQ(early["state"]["enemies"].size(), 1u);
  EXPECT_EQ(early["state"]["enemies"][0]["enemy"], "gnasher");
  const auto r = restore(starter(), early);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(snapshot(r.value()), early);
}

TEST(DeckbuilderSnapshot, UnitsOutsideTheRulesBoundsAreRefused) {
  const json s = paused_with_everything();
  ASSERT_TRUE(restore(starter(), s).ok());
  ASSERT_EQ(s["phase"], "PlayerPhase");
  ASSERT_EQ(s["state"]["enemies"].size(), 2u);
  const std::int32_t max_hp = s["state"]["player"]["max_hp"];
  const std::int32_t enemy_max_hp = s["state"]["enemies"][1]["max_hp"];
  struct Case {
    std::string pointer;
    json bad;
    std::string why;
    json good;  // just inside the bound
  };
  const std::vector<Case> cases = {
      // HP stops at 0 and at the max HP, which the content keeps in 1 to 9999.
      {"/state/player/hp", -1, fmt::format("expected an integer in [0, {}], got -1", max_hp), 0},
      {"/state/player/hp", max_hp + 1,
       fmt::format("expected an integer in [0, {}], got {}", max_hp, max_hp + 1), max_hp},
      {"/state/enemies/1/hp", enemy_max_hp + 1,
       fmt::format("expected an integer in [0, {}], got {}", enemy_max_hp, enemy_max_hp + 1), enemy_max_hp},
      {"/state/player/max_hp", -1, "expected an integer in [1, 9999], got -1", 9999},
      {"/state/player/max_hp", 0, "expected an integer in [1, 9999], got 0", 9999},
      {"/state/enemies/0/max_hp", 0, "expected an integer in [1, 9999], got 0", 9999},
      {"/state/enemies/0/max_hp", 10000, "expected an integer in [1, 9999], got 10000", 9999},
      // Armor absorbs down to 0 and stops at kMaxArmor; energy stays in 0 to 999.
      {"/state/player/armor", -1, "expected an integer in [0, 999999], got -1", 0},
      {"/state/enemies/0/armor", 2147483647, "expected an integer in [0, 999999], got 2147483647", kMaxArmor},
      {"/state/energy", -3, "expected an integer in [0, 999], got -3", 0},
      {"/state/energy", 1000, "expected an integer in [0, 999], got 1000", 999},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer + " = " + c.bad.dump());
    expect_refused(with(s, c.pointer, c.bad), c.pointer + ": " + c.why, "");
    json good = with(s, c.pointer, c.good);
    if (c.pointer.ends_with("max_hp"))
      good[json::json_pointer(c.pointer.substr(0, c.pointer.size() - 6) + "hp")] = 1;
    const auto r = restore(starter(), good);
    EXPECT_TRUE(r.ok()) << r.error().message;
  }
}

TEST(DeckbuilderSnapshot, EnemyMovesOutsideTheirDefinitionAreRefused) {
  const json s = paused_with_everything();
  const json& e = s["state"]["enemies"][0];
  const auto& def = *std::find_if(starter()->enemies.begin(), starter()->enemies.end(),
                                  [&](const EnemyDef& d) { return d.id == e["enemy"]; });
  const std::size_t moves = def.moves.size();
  const std::string last = std::to_string(moves - 1);
  ASSERT_FALSE(e["intent"].is_null());
  const std::string in_moves = "expected an integer in [0, " + last + "], got ";
  expect_refused(with(s, "/state/enemies/0/intent", 200), "/state/enemies/0/intent: " + in_moves + "200", "");
  expect_refused(with(s, "/state/enemies/0/intent", static_cast<int>(moves)),
                 "/state/enemies/0/intent: " + in_moves + std::to_string(moves), "");
  EXPECT_TRUE(restore(starter(), with(s, "/state/enemies/0/intent", moves - 1)).ok());
  json moved = with(s, "/state/enemies/0/last_move", moves - 1);
  moved["state"]["enemies"][0]["streak"] = 1;
  EXPECT_TRUE(restore(starter(), moved).ok());
  expect_refused(with(moved, "/state/enemies/0/last_move", static_cast<int>(moves)),
                 "/state/enemies/0/last_move: " + in_moves + std::to_string(moves), "");

  // An alive enemy has an intent once the battle is built; a dead one keeps its last.
  expect_refused(
      with(s, "/state/enemies/0/intent", nullptr),
      "/state/enemies/0/intent: enemy '" + def.id + "' is alive in phase PlayerPhase: expected a move", "");
  json dead = with(s, "/state/enemies/0/intent", nullptr);
  dead["state"]["enemies"][0]["hp"] = 0;
  EXPECT_TRUE(restore(starter(), dead).ok());

  // The streak counts the turns in a row of last_move: 0 before the first move, then 1 and up.
  ASSERT_TRUE(e["last_move"].is_null());
  expect_refused(with(s, "/state/enemies/0/streak", 1),
                 "/state/enemies/0/streak: no last move yet: expected an integer in [0, 0], got 1", "");
  expect_refused(with(moved, "/state/enemies/0/streak", 0),
                 "/state/enemies/0/streak: expected an integer in [1, 255], got 0", "");

  // A sequence position is within the sequence (0 for an enemy without one); a used rule is one
  // of its once rules.
  const std::size_t positions = std::max<std::size_t>(def.sequence.size(), 1);
  expect_refused(with(s, "/state/enemies/0/sequence_pos", static_cast<int>(positions)),
                 "/state/enemies/0/sequence_pos: expected an integer in [0, " +
                     std::to_string(positions - 1) + "], got " + std::to_string(positions),
                 "");
  EXPECT_TRUE(restore(starter(), with(s, "/state/enemies/0/sequence_pos", positions - 1)).ok());
  std::size_t not_once = 0;
  while (not_once < def.rules.size() && def.rules[not_once].once) ++not_once;
  expect_refused(with(s, "/state/enemies/0/rules_used", 1u << not_once),
                 "/state/enemies/0/rules_used: bit " + std::to_string(not_once) + " names no once rule", "");
}

TEST(DeckbuilderSnapshot, ReferencesToUnitsAndCardsOutsideTheBattleAreRefused) {
  const json s = paused_with_everything();
  ASSERT_EQ(s["state"]["hooks"].size(), 1u);
  ASSERT_EQ(s["state"]["delayed"].size(), 1u);
  ASSERT_FALSE(s["state"]["effects"].empty());
  ASSERT_EQ(s["state"]["choice"]["kind"], "options");
  const int cards = static_cast<int>(s["state"]["cards"].size());
  const std::string card_range = "expected an integer in [0, " + std::to_string(cards - 1) + "], got ";
  // Units: 0 the player, 1 and 2 the two enemies; -1 (none) only where the rules leave it.
  const std::string unit = "expected an integer in [0, 2], got ";
  const std::string unit_or_none = "expected an integer in [-1, 2], got ";
  struct Case {
    std::string pointer;
    json bad;
    std::string why;
    json good;
  };
  const std::vector<Case> cases = {
      {"/state/hooks/0/owner", -1, unit + "-1", 2},
      {"/state/hooks/0/owner", 3, unit + "3", 0},
      {"/state/hooks/0/turns_left", 100, "expected an integer in [0, 99], got 100", 0},
      {"/state/delayed/0/source", -1, unit + "-1", 2},
      {"/state/delayed/0/target", 3, unit_or_none + "3", -1},
      {"/state/delayed/0/occurrences_left", 21, "expected an integer in [0, 20], got 21", 0},
      {"/state/effects/0/source", -1, unit + "-1", 2},
      {"/state/effects/0/target", 3, unit_or_none + "3", -1},
      {"/state/effects/0/card", cards, card_range + std::to_string(cards), cards - 1},
      {"/state/effects/0/repeat_left", 20, "expected an integer in [0, 19], got 20", 19},
      {"/state/choice/source", -1, unit + "-1", 2},
      {"/state/choice/target", 3, unit_or_none + "3", -1},
      {"/state/choice/card", cards, card_range + std::to_string(cards), cards - 1},
      {"/state/choice/option_count", 1, "a choice of options waits: expected an integer in [2, 4], got 1",
       s["state"]["choice"]["option_count"]},
      {"/state/choice/picks_left", 1, "no choice of cards waits: expected an integer in [0, 0], got 1", 0},
      {"/state/playing/target", -1, unit + "-1", 2},
      {"/state/playing/card", cards, card_range + std::to_string(cards), s["state"]["playing"]["card"]},
      {"/state/playing/card", nullptr,
       "a choice waits in a card's play: expected the card being played, got null",
       s["state"]["playing"]["card"]},
      {"/state/encounter", nullptr, "a battle in phase PlayerPhase has an encounter", "sludge_pair"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer + " = " + c.bad.dump());
    expect_refused(with(s, c.pointer, c.bad), c.pointer + ": " + c.why, "");
    const auto r = restore(starter(), with(s, c.pointer, c.good));
    EXPECT_TRUE(r.ok()) << r.error().message;
  }

  // A battle never started names its encounter too, unless the content has none.
  const json fresh = snapshot(Battle(starter()));
  ASSERT_EQ(fresh["phase"], "None");
  expect_refused(with(fresh, "/state/encounter", nullptr),
                 "/state/encounter: the content has encounters: expected an encounter id", "");

  // A choice of cards waits only with a card to pick: here the hand holds only the card being
  // played, no option would be left, and the battle could not go on.
  json hand_choice = with(s, "/state/choice/kind", "discard_from_hand");
  hand_choice["state"]["choice"]["option_count"] = 0;
  hand_choice["state"]["choice"]["picks_left"] = 10;
  ASSERT_EQ(s["state"]["hand"], json::array({s["state"]["playing"]["card"]}));
  expect_refused(
      hand_choice,
      "/state/choice/kind: a choice of cards (discard_from_hand) waits, but its pile (hand) holds no card to "
      "pick: expected \"none\"",
      "");
  // With the discard pile's top card in hand, there is one.
  ASSERT_FALSE(s["state"]["discard_pile"].empty());
  hand_choice["state"]["hand"].push_back(hand_choice["state"]["discard_pile"].back());
  hand_choice["state"]["discard_pile"].erase(hand_choice["state"]["discard_pile"].size() - 1);
  const auto r = restore(starter(), hand_choice);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().decision().options.size(), 1u);
  // It has 1 to 10 cards left to pick.
  expect_refused(with(hand_choice, "/state/choice/picks_left", 0),
                 "/state/choice/picks_left: a choice of cards waits: expected an integer in [1, 10], got 0",
                 "");
  // With no choice waiting, its source and the card being played may be none.
  json no_choice = with(s, "/state/choice/kind", "none");
  no_choice["state"]["choice"]["option_count"] = 0;
  no_choice["state"]["choice"]["source"] = -1;
  no_choice["state"]["playing"] = {{"card", nullptr}, {"target", -1}};
  EXPECT_TRUE(restore(starter(), no_choice).ok());
}

TEST(DeckbuilderSnapshot, AQueuedTransitionIsRefused) {
  // advance() fires each transition as it is asked for: none is ever left queued. A queued one
  // once restored and fired at the next action: EndTurnRequested ended the turn after a play,
  // and a trigger the phase has no transition for threw at it.
  Battle b = from_scenario({{"encounter", "w1"}, {"seed", 4}, {"hand", {"strike", "defend"}}, {"energy", 3}});
  const json s = snapshot(b);
  ASSERT_TRUE(s["pending_trigger"].is_null());
  for (const std::string_view trigger : Machine::kTriggerNames) {
    SCOPED_TRACE(trigger);
    expect_refused(
        with(s, "/pending_trigger", std::string(trigger)), "/pending_trigger",
        fmt::format("the rules fire a transition as it is asked for: expected null, got '{}'", trigger));
  }
  // The paused battle has none queued either.
  EXPECT_TRUE(paused_with_everything()["pending_trigger"].is_null());
}

TEST(DeckbuilderSnapshot, TurnCountersTheRulesNeverReachAreRefused) {
  Battle b = from_scenario({{"encounter", "w1"}, {"seed", 4}, {"hand", {"strike", "defend"}}, {"energy", 3}});
  const json s = snapshot(b);
  ASSERT_EQ(s["phase"], "PlayerPhase");
  const int limit = b.state().rules.turn_limit;
  // The turn is 1 to turn_limit: past it the enemy phase has lost the battle. Turn 101 of 100
  // once restored and played a turn more; turn 0 gave one more turn than the limit.
  for (const int turn : {0, limit + 1})
    expect_refused(
        with(s, "/state/turn", turn), "/state/turn",
        fmt::format("encounter 'w1' has a turn_limit of {}: expected an integer in [1, {}], got {}", limit,
                    limit, turn));
  EXPECT_TRUE(restore(starter(), with(s, "/state/turn", limit)).ok());
  // The player phase comes after a player turn start, which counted the turn. With 0 the next
  // turn start took it for the first turn, whose hand is drawn at battle start: no card was drawn.
  expect_refused(with(s, "/state/player_turns", 0), "/state/player_turns",
                 "phase PlayerPhase comes after a player turn start: expected an integer in [1, ");
  // A battle lost at the turn limit is one turn past it.
  json lost = with(s, "/phase", "BattleLost");
  EXPECT_TRUE(restore(starter(), with(lost, "/state/turn", limit + 1)).ok());
  expect_refused(with(lost, "/state/turn", limit + 2), "/state/turn",
                 fmt::format("turn_limit of {} and the battle is over", limit));
  // Extra turns stop at 9 pending and turns to skip at 99: more granted are lost.
  EXPECT_TRUE(restore(starter(), with(with(s, "/state/extra_turns", 9), "/state/skipped_turns", 99)).ok());
  expect_refused(with(s, "/state/extra_turns", 10), "/state/extra_turns",
                 "expected an integer in [0, 9], got 10");
  expect_refused(with(s, "/state/skipped_turns", 100), "/state/skipped_turns",
                 "expected an integer in [0, 99], got 100");
}

TEST(DeckbuilderSnapshot, HooksAndDelayedTriggersTheContentNeverSchedulesAreRefused) {
  const json s = paused_with_everything();
  ASSERT_EQ(s["state"]["hooks"][0]["hook"], "battle_fury");  // lasts the battle
  ASSERT_EQ(s["state"]["hooks"][0]["turns_left"], 0);
  // A hook starts with its duration and leaves at 0; one of duration 0 is never counted down.
  // A peace vow restored with 0 turns left once refused attacks for the rest of the battle.
  expect_refused(with(s, "/state/hooks/0/turns_left", 1), "/state/hooks/0/turns_left",
                 "hook 'battle_fury' lasts the battle: expected 0, got 1");
  json vow = with(s, "/state/hooks/0/hook", "peace_vow");
  for (const int turns : {0, 2})
    expect_refused(with(vow, "/state/hooks/0/turns_left", turns), "/state/hooks/0/turns_left",
                   fmt::format("hook 'peace_vow' lasts 1 turn(s): expected 1 to 1, got {}", turns));
  EXPECT_TRUE(restore(starter(), with(vow, "/state/hooks/0/turns_left", 1)).ok());

  // A delayed trigger is a delayed op's effects, at its timing, with at most its after_turns
  // left. Another block once ran at the timing: a block with a choice, outside a card's play,
  // broke an engine invariant.
  const json& d = s["state"]["delayed"][0];
  ASSERT_EQ(d["timing"], "player_turn_start");
  const int option = s["state"]["choice"]["first_block"];
  expect_refused(with(s, "/state/delayed/0/block", option), "/state/delayed/0/block",
                 fmt::format("block {} is no delayed op's effects", option));
  expect_refused(with(s, "/state/delayed/0/timing", "enemy_phase_end"), "/state/delayed/0/timing",
                 "fires at player_turn_start, got enemy_phase_end");
  expect_refused(with(s, "/state/delayed/0/occurrences_left", 1), "/state/delayed/0/occurrences_left",
                 "waits 0 occurrence(s): expected at most 0, got 1");
}

TEST(DeckbuilderSnapshot, AChoiceTheContentNeverPosesIsRefused) {
  // A choice of options is a choice op's: its first option block, its count of options and
  // whether it may be skipped. Another op's blocks would be offered as options.
  const json s = paused_with_everything();
  const json& choice = s["state"]["choice"];
  ASSERT_EQ(choice["kind"], "options");
  const int first = choice["first_block"];
  const int count = choice["option_count"];
  expect_refused(with(s, "/state/choice/first_block", first + 1), "/state/choice/first_block",
                 fmt::format("block {} is no choice op's first option", first + 1));
  const int other_count = count == 2 ? 3 : 2;
  expect_refused(with(s, "/state/choice/option_count", other_count), "/state/choice/option_count",
                 fmt::format("the choice op of block {} has {} options, got {}", first, count, other_count));
  expect_refused(with(s, "/state/choice/skippable", !choice["skippable"].get<bool>()),
                 "/state/choice/skippable", fmt::format("the choice op of block {} is", first));
  // A choice of cards is never skipped, and with no choice waiting nothing is: a skippable one
  // restored was offered "skip", which the rules never offer there.
  Battle sifting = from_scenario({{"encounter", "w1"}, {"seed", 3}, {"hand", {"sift", "strike", "defend"}}});
  ASSERT_TRUE(sifting.submit(Action::play(in_hand(sifting, "sift"))).ok());
  const json cards = snapshot(sifting);
  ASSERT_EQ(cards["state"]["choice"]["kind"], "discard_from_hand");
  ASSERT_EQ(cards["state"]["choice"]["skippable"], false);
  ASSERT_TRUE(restore(starter(), cards).ok());
  expect_refused(with(cards, "/state/choice/skippable", true), "/state/choice/skippable",
                 "a choice of cards (discard_from_hand) cannot be skipped: expected false, got true");
  // A scry's choice is always skippable, and offers only cards the player has seen in order.
  Battle scrying = from_scenario(
      {{"encounter", "w1"}, {"seed", 1}, {"hand", {"survey"}}, {"draw_pile", {"strike", "defend", "bash"}}});
  ASSERT_TRUE(scrying.submit(Action::play(in_hand(scrying, "survey"))).ok());
  const json scry = snapshot(scrying);
  ASSERT_EQ(scry["state"]["choice"]["kind"], "discard_from_draw_top");
  ASSERT_EQ(scry["state"]["draw_ordered_from"], 0);
  ASSERT_TRUE(restore(starter(), scry).ok());
  expect_refused(with(scry, "/state/choice/skippable", false), "/state/choice/skippable",
                 "a choice of cards (discard_from_draw_top) can be skipped: expected true, got false");
  expect_refused(
      with(with(scry, "/state/draw_known_from", 1), "/state/draw_ordered_from", 1), "/state/choice/kind",
      "a choice of the draw pile's top 3 cards waits, but the player knows the order of only 2 there");
  expect_refused(
      with(scry, "/state/choice/picks_left", 4), "/state/choice/picks_left",
      "a choice of the draw pile's top cards offers as many as are left to pick, but the draw pile "
      "holds 3: expected at most 3, got 4");
  const json none = snapshot(started("w1", 3));
  ASSERT_EQ(none["state"]["choice"]["kind"], "none");
  ASSERT_TRUE(restore(starter(), none).ok());
  expect_refused(with(none, "/state/choice/skippable", true), "/state/choice/skippable",
                 "no choice waits: expected false, got true");
}

TEST(DeckbuilderSnapshot, TheNextBattlesStartAfterARewardRestores) {
  // Until Initialize's first step the state is the won battle's, its reward options and the
  // card taken included: a snapshot from a listener there restores.
  Battle b = from_scenario(
      {{"encounter", "cultist_rite"}, {"seed", 8}, {"hand", {"strike"}}, {"enemies", {{{"hp", 1}}}}});
  ASSERT_TRUE(b.submit(Action::play(0, 0)).ok());
  ASSERT_TRUE(b.submit(Action::take_reward(0)).ok());
  SnapshotsAtInitialize listener;
  listener.battle = &b;
  b.events().attach(&listener);
  ASSERT_TRUE(b.start_battle("w1", 2).ok());
  ASSERT_EQ(listener.snaps.size(), 1u);
  ASSERT_FALSE(listener.snaps[0]["state"]["reward_options"].empty());
  const auto r = restore(starter(), listener.snaps[0]);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(snapshot(r.value()), listener.snaps[0]);
}

TEST(DeckbuilderSnapshot, TheFirstTransitionHoldsTheEncountersRules) {
  // start_battle sets the encounter and its rules together, so a snapshot at the first
  // PhaseChanged, which reads the rules from the encounter, restores to an equal battle: in a
  // fresh battle (default rules) and in one that played another encounter first (its rules).
  const auto rules_of = [](std::string_view encounter) {
    return starter()->encounters[starter()->find_encounter(encounter).value()].rules;
  };
  const BattleRules throne = rules_of("warlord_throne");
  ASSERT_FALSE(throne == BattleRules{});
  ASSERT_FALSE(throne == rules_of("golem_vault"));
  struct AtTheFirstTransition : Listener {
    const Battle* battle = nullptr;
    int seen = 0;
    void on_event(const Event& e) override {
      if (e.type != EventType::PhaseChanged || seen++ > 0) return;
      const json s = snapshot(*battle);
      auto r = restore(starter(), s);
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_TRUE(r.value() == *battle);
      EXPECT_EQ(snapshot(r.value()), s);
    }
  };
  for (const bool after_another : {false, true}) {
    SCOPED_TRACE(after_another ? "after golem_vault" : "fresh");
    Battle b(starter());
    if (after_another) {
      ASSERT_TRUE(b.start_battle("golem_vault", 4).ok());
      ASSERT_NO_FATAL_FAILURE(play_out(b, 4));
      ASSERT_TRUE(b.state().rules == rules_of("golem_vault"));
    }
    AtTheFirstTransition listener;
    listener.battle = &b;
    b.events().attach(&listener);
    ASSERT_TRUE(b.start_battle("warlord_throne", 4).ok());
    EXPECT_GT(listener.seen, 1);
    EXPECT_TRUE(b.state().rules == throne);
  }
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
