// Clash snapshots: a battle paused on each kind of decision (roll, rock, card) restores equal,
// with the same hash and snapshot, and continues identically; bad snapshots, and states the rules
// never reach, are refused with their pointer.

#include "battlecore/clash/snapshot.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/policies.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

using nlohmann::json;
using test::classic;

/// A classic battle (seed 5) played by the first option until the deciding step is `step`.
Battle battle_at(TurnStep step, std::string_view encounter = "classic") {
  Battle b(classic());
  EXPECT_TRUE(b.start_battle(encounter, 5).ok());
  std::vector<Action> options;
  for (int i = 0; i < 400 && b.status() == Status::AwaitingDecision && b.state().step != step; ++i) {
    b.legal_actions(options);
    EXPECT_TRUE(b.submit(options[static_cast<std::size_t>(i) % options.size()]).ok());
  }
  EXPECT_EQ(b.state().step, step);
  return b;
}

/// Plays both battles on with the same options, comparing them after every action.
void expect_same_continuation(Battle& a, Battle& b) {
  std::vector<Action> options;
  RandomPolicy policy;
  policy.reset(77);
  for (int i = 0; i < 2000 && a.status() == Status::AwaitingDecision; ++i) {
    a.legal_actions(options);
    const Action pick = options[policy.pick(options.size())];
    ASSERT_TRUE(a.submit(pick).ok());
    ASSERT_TRUE(b.submit(pick).ok());
    ASSERT_EQ(a.state_hash(), b.state_hash()) << "after action " << i;
  }
  EXPECT_TRUE(a.is_battle_over());
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.events().log(), b.events().log());
}

class ClashSnapshotAt : public ::testing::TestWithParam<TurnStep> {};

TEST_P(ClashSnapshotAt, RestoresAnEqualBattleThatContinuesIdentically) {
  Battle original = battle_at(GetParam());
  const json snap = snapshot(original);
  EXPECT_EQ(snap["format"], "battlecore-snapshot");
  EXPECT_EQ(snap["format_version"], kSnapshotFormatVersion);
  EXPECT_EQ(snap["rules"], "clash");
  auto restored = restore(classic(), snap);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  EXPECT_TRUE(copy == original);
  EXPECT_EQ(copy.state_hash(), original.state_hash());
  EXPECT_EQ(snapshot(copy), snap);
  EXPECT_EQ(copy.decision().options, original.decision().options);
  // Through text too: what a file holds.
  auto reread = restore(classic(), json::parse(snap.dump()));
  ASSERT_TRUE(reread.ok()) << reread.error().message;
  EXPECT_TRUE(reread.value() == original);
  expect_same_continuation(original, copy);
}

INSTANTIATE_TEST_SUITE_P(EveryDecisionKind, ClashSnapshotAt,
                         ::testing::Values(TurnStep::Roll, TurnStep::Rock, TurnStep::Card));

TEST(ClashSnapshot, OfAFinishedBattleAndOfAListedDeckBattle) {
  for (const char* encounter : {"duel", "listed_deck"}) {
    Battle b = battle_at(TurnStep::None, encounter);
    ASSERT_TRUE(b.is_battle_over()) << encounter;
    auto restored = restore(classic(), snapshot(b));
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    EXPECT_TRUE(restored.value() == b) << encounter;
    EXPECT_EQ(restored.value().state_hash(), b.state_hash());
  }
}

TEST(ClashSnapshot, ARollWithAStrayValueIsRecordedInItsCanonicalFormAndRestoresEqual) {
  Battle b = battle_at(TurnStep::Roll);
  const SeatRef seat = b.state().current;
  ASSERT_TRUE(b.submit(Action{ActionKind::Roll, seat, 9}).ok());
  ASSERT_FALSE(b.actions().empty());
  EXPECT_EQ(b.actions().back(), Action::roll(seat));
  auto restored = restore(classic(), snapshot(b));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_TRUE(restored.value() == b);
}

TEST(ClashSnapshot, AClonePlaysOnWithoutTouchingTheOriginal) {
  Battle original = battle_at(TurnStep::Rock);
  const std::uint64_t hash = original.state_hash();
  Battle clone = original;
  std::vector<Action> options;
  clone.legal_actions(options);
  ASSERT_TRUE(clone.submit(options[0]).ok());
  EXPECT_NE(clone.state_hash(), hash);
  EXPECT_EQ(original.state_hash(), hash);
  EXPECT_FALSE(clone == original);
}

std::string refusal(json snap) {
  auto r = restore(classic(), snap);
  return r.ok() ? "accepted" : r.error().message;
}

TEST(ClashSnapshot, RefusesAnotherVersionFormatRuleSetOrContentAndBadFields) {
  const json snap = snapshot(battle_at(TurnStep::Card));
  json v2 = snap;
  v2["format_version"] = 2;
  EXPECT_EQ(refusal(v2),
            "snapshot refused: /format_version: snapshot format version 2 is not supported; this engine "
            "reads version 1");
  json other = snap;
  other["format"] = "battlecore-replay";
  EXPECT_NE(refusal(other).find("/format: expected \"battlecore-snapshot\""), std::string::npos);
  json rules = snap;
  rules["rules"] = "deckbuilder";
  EXPECT_NE(refusal(rules).find("/rules: the snapshot is of rule set 'deckbuilder', not 'clash'"),
            std::string::npos);
  json content = snap;
  content["content_hash"] = "0000000000000000";
  EXPECT_NE(refusal(content).find("/content_hash:"), std::string::npos);
  json card = snap;
  card["state"]["seats"][1]["hand"][0] = json::array({"plasma", 3});
  EXPECT_EQ(refusal(card), "snapshot refused: /state/seats/1/hand/0/0: unknown value 'plasma'");
  json value = snap;
  value["state"]["seats"][0]["hand"][0][1] = 11;
  EXPECT_EQ(refusal(value),
            "snapshot refused: /state/seats/0/hand/0/1: expected an integer in [1, 10], got 11");
  json seats = snap;
  seats["state"]["seats"].erase(0);
  EXPECT_NE(refusal(seats).find("/state/seats: expected 4 seats"), std::string::npos);
  json missing = snap;
  missing["state"].erase("round");
  EXPECT_EQ(refusal(missing), "snapshot refused: /state: missing key 'round'");
  json rock = snap;
  rock["state"]["seats"][2]["rock"] = 18;
  EXPECT_EQ(refusal(rock), "snapshot refused: /state/seats/2/rock: expected an integer in [0, 17], got 18");
  json event = snap;
  event["events"][0][0] = "Exploded";
  EXPECT_EQ(refusal(event), "snapshot refused: /events/0/0: unknown event type");
}

// --- states the rules never reach -----------------------------------------------------------

/// Refused, naming exactly `pointer`, with `what` in the reason.
void expect_refused(const json& snap, const std::string& pointer, std::string_view what) {
  const std::string message = refusal(snap);
  EXPECT_EQ(message.rfind("snapshot refused: " + pointer + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
}

void expect_accepted(const json& snap) { EXPECT_EQ(refusal(snap), "accepted"); }

/// The snapshot with the value at `pointer` replaced.
json with(json snap, const std::string& pointer, json value) {
  snap[json::json_pointer(pointer)] = std::move(value);
  return snap;
}

/// The snapshot with seat `seat` out: in place `place` since round `round`.
json with_out(const json& snap, int seat, int place, int round) {
  const std::string p = "/state/seats/" + std::to_string(seat);
  return with(with(with(snap, p + "/out", true), p + "/place", place), p + "/out_round", round);
}

TEST(ClashSnapshot, ASeatTheRulesNeverReachIsRefused) {
  const json s = snapshot(battle_at(TurnStep::Card));  // classic: a human and 3 bots, health 5
  expect_accepted(s);
  const int current = s["state"]["current"].get<int>();
  const int other = (current + 1) % 4;
  const std::string p = "/state/seats/" + std::to_string(other);
  const int round = s["state"]["round"].get<int>();
  ASSERT_GE(round, 1);

  // Every seat keeps the encounter's kind.
  expect_refused(with(s, "/state/seats/0/kind", "bot"), "/state/seats/0/kind",
                 "expected \"human\", the encounter's kind for seat 0");
  expect_refused(with(s, "/state/seats/1/kind", "human"), "/state/seats/1/kind", "expected \"bot\"");
  // Health: at most the encounter's; a seat still in has some left.
  expect_refused(with(s, p + "/health", 6), p + "/health", "expected an integer in [-4, 5], got 6");
  expect_accepted(with(s, p + "/health", 5));
  expect_refused(with(s, p + "/health", 0), p + "/health",
                 fmt::format("seat {} is still in: expected health above 0, got 0", other));
  expect_accepted(with(s, p + "/health", 1));
  // A hand holds at most the encounter's hand size (9); random decks have no pile.
  json full = s;
  json& hand = full[json::json_pointer(p + "/hand")];
  while (hand.size() < 9) hand.push_back({"fire", 5});
  expect_accepted(full);
  hand.push_back({"fire", 5});
  expect_refused(full, p + "/hand", "more than 9 cards");
  json pile = s;
  pile[json::json_pointer(p + "/pile")].push_back({"fire", 5});
  expect_refused(pile, p + "/pile", "the encounter deals random cards: expected an empty pile");
  // A card is played as the seat acts.
  const std::string c = "/state/seats/" + std::to_string(current);
  ASSERT_FALSE(s[json::json_pointer(c + "/acted")].get<bool>());
  expect_refused(with(s, c + "/choice", {"fire", 5}), c + "/choice",
                 fmt::format("seat {} has not acted this round: expected null", current));
  // A seat out has its place and the round it went out in; a seat in has neither.
  const json out = with_out(s, other, 4, round);
  expect_accepted(out);
  expect_accepted(with(out, p + "/out_round", 1));
  expect_refused(with(out, p + "/place", 0), p + "/place", "expected an integer in [1, 4], got 0");
  for (const int r : {0, round + 1})
    expect_refused(with(out, p + "/out_round", r), p + "/out_round",
                   fmt::format("expected an integer in [1, {}], got {}", round, r));
  expect_refused(with(s, p + "/place", 2), p + "/place",
                 fmt::format("seat {} is still in: expected 0", other));
  expect_refused(with(s, p + "/out_round", 1), p + "/out_round",
                 fmt::format("seat {} is still in: expected 0, got 1", other));
}

TEST(ClashSnapshot, CardsOutsideASeatsListedDeckAreRefused) {
  const json s = snapshot(battle_at(TurnStep::Card, "listed_deck"));
  expect_accepted(s);
  const auto id = classic()->find_encounter("listed_deck");
  ASSERT_TRUE(id.has_value());
  const EncounterDef& e = classic()->encounters[*id];
  const auto listed = [&](const json& card) {
    return std::count_if(e.rules.listed_deck.begin(), e.rules.listed_deck.end(), [&](Card c) {
      return element_name(c.element) == card[0].get<std::string>() && c.value == card[1].get<int>();
    });
  };
  // The same card one value up or down, which the list does not have.
  const auto off_by_one = [&](const json& card) {
    json off = card;
    for (const int d : {1, -1}) {
      off[1] = card[1].get<int>() + d;
      if (off[1].get<int>() >= 1 && off[1].get<int>() <= 10 && listed(off) == 0) return off;
    }
    ADD_FAILURE() << card.dump() << " has both neighbours in the list";
    return off;
  };
  const int other = (s["state"]["current"].get<int>() + 1) % 3;
  const std::string p = "/state/seats/" + std::to_string(other);
  const json& hand = s[json::json_pointer(p + "/hand")];
  const json& pile = s[json::json_pointer(p + "/pile")];
  ASSERT_FALSE(hand.empty());
  ASSERT_FALSE(pile.empty());
  for (const std::string& at : {p + "/hand/0", p + "/pile/0"}) {
    const json off = off_by_one(s[json::json_pointer(at)]);
    expect_refused(with(s, at, off), at,
                   fmt::format("seat {} holds more {} {} cards than the encounter's deck lists (0)", other,
                               off[0].get<std::string>(), off[1].get<int>()));
  }
  // Each listed card once: a second copy is refused where it turns up, in hand, pile or on the table.
  ASSERT_EQ(listed(hand[0]), 1);
  const std::string twice = fmt::format("seat {} holds more {} {} cards than the encounter's deck lists (1)",
                                        other, hand[0][0].get<std::string>(), hand[0][1].get<int>());
  expect_refused(with(s, p + "/pile/0", hand[0]), p + "/pile/0", twice);
  expect_refused(with(with(s, p + "/acted", true), p + "/choice", hand[0]), p + "/choice", twice);
  // The list's cards anywhere among them are accepted: a hand card and a pile card swapped.
  expect_accepted(with(with(s, p + "/hand/0", pile[0]), p + "/pile/0", hand[0]));
}

TEST(ClashSnapshot, ATurnOrderThatIsNotEverySeatOnceIsRefused) {
  const json s = snapshot(battle_at(TurnStep::Rock));
  const json& order = s["state"]["order"];
  ASSERT_EQ(order.size(), 4u);
  expect_refused(with(s, "/state/order/2", order[0]), "/state/order/2",
                 "seat " + order[0].dump() + " is already in the turn order");
  // Another order of the seats, with the turns taken this round those before the current seat.
  json reversed = with(s, "/state/order", {order[3], order[2], order[1], order[0]});
  bool before = true;
  for (const json& o : reversed["state"]["order"]) {
    before = before && o != s["state"]["current"];
    reversed["state"]["seats"][o.get<std::size_t>()]["acted"] = before;
  }
  expect_accepted(reversed);
}

TEST(ClashSnapshot, ATurnTheRulesNeverPoseIsRefused) {
  // Before the roll the die shows nothing.
  const json roll = snapshot(battle_at(TurnStep::Roll));
  expect_refused(with(roll, "/state/dice", 3), "/state/dice", "the die is not rolled yet: expected 0, got 3");

  // After it, the seat chooses between the two rocks the roll offers from its rock.
  const json rock = snapshot(battle_at(TurnStep::Rock));
  expect_refused(with(rock, "/state/dice", 0), "/state/dice", "expected a roll in [1, 6], got 0");
  const auto from = rock[json::json_pointer("/state/seats/" + rock["state"]["current"].dump() + "/rock")];
  for (const std::uint32_t dice : {1u, 6u}) {
    const auto offered = offered_rocks(from.get<std::uint32_t>(), dice, 18);
    const json rolled = with(with(rock, "/state/dice", dice), "/state/offered", {offered[0], offered[1]});
    expect_accepted(with(rolled, "/state/offered_count", 2));
    expect_refused(with(rolled, "/state/offered/0", (offered[0] + 1) % 18), "/state/offered/0",
                   fmt::format("offers rocks {} and {}", offered[0], offered[1]));
    expect_refused(with(rolled, "/state/offered_count", 1), "/state/offered_count",
                   "the roll offers 2 different rocks: expected 2, got 1");
  }

  // The seat whose turn it is is still in, has not acted, can play, and decides in its phase.
  const json card = snapshot(battle_at(TurnStep::Card));
  const int current = card["state"]["current"].get<int>();
  const std::string c = "/state/seats/" + std::to_string(current);
  expect_refused(with(card, c + "/acted", true), c + "/acted",
                 fmt::format("seat {} is taking its turn: expected false", current));
  const int other = (current + 1) % 4;
  expect_refused(with_out(card, current, 4, 1), "/state/current",
                 fmt::format("seat {} is out: expected a seat still in", current));
  expect_refused(
      with_out(with_out(with_out(card, other, 2, 1), (current + 2) % 4, 2, 1), (current + 3) % 4, 2, 1),
      "/state/step", "only 1 seat is still in");
  const json on_air = with(card, c + "/rock", 1);  // rock 1: air
  expect_refused(with(on_air, c + "/hand", json::array({json::array({"fire", 5})})), c + "/hand",
                 fmt::format("seat {} must play a card: expected one that matches rock 1 (air)", current));
  expect_accepted(with(on_air, c + "/hand", json::array({json::array({"air", 5})})));
  const bool human = card[json::json_pointer(c + "/kind")] == "human";
  EXPECT_EQ(card["phase"], human ? "BattleTurn" : "BattleLoop");
  for (const char* phase : {"BattleLoop", "BattleTurn", "BattleReferee"}) {
    if (card["phase"] == phase) continue;
    expect_refused(with(card, "/phase", phase), "/phase",
                   human ? "expected BattleTurn" : "expected BattleLoop");
  }
}

// The roll lasts until the turn ends, the rocks it offers until one is chosen: a snapshot that
// keeps either past that is refused, as it would restore with another hash than the battle's.
TEST(ClashSnapshot, ARollOrOfferedRocksLeftBehindAreRefused) {
  const std::string stale = "no rock is offered outside a turn's rock step: expected 0, got ";
  for (const TurnStep step : {TurnStep::Roll, TurnStep::Card, TurnStep::None}) {
    const json snap = snapshot(battle_at(step));
    EXPECT_EQ(snap["state"]["offered"], json::array({0, 0}));
    EXPECT_EQ(snap["state"]["offered_count"], 0);
    expect_refused(with(snap, "/state/offered/1", 5), "/state/offered/1", stale + "5");
    expect_refused(with(snap, "/state/offered_count", 2), "/state/offered_count", stale + "2");
  }
  const json over = snapshot(battle_at(TurnStep::None));
  ASSERT_EQ(over["phase"], "BattleEnd");
  EXPECT_EQ(over["state"]["dice"], 0);
  expect_refused(with(over, "/state/dice", 4), "/state/dice",
                 "no die is rolled outside a turn's rock and card steps: expected 0, got 4");
}

TEST(ClashSnapshot, ABattleNotOverWithNoTurnPendingOrWithAMoveQueuedIsRefused) {
  // Between two actions a battle not over waits for a seat: with no turn step it would wait for
  // nobody, neither over nor awaiting a decision, and no other battle could start.
  const json card = snapshot(battle_at(TurnStep::Card));
  expect_refused(with(card, "/state/step", "none"), "/state/step",
                 "the battle is not over: expected a turn step");
  expect_refused(with(with(with(card, "/state/step", "none"), "/state/current", -1), "/state/dice", 0),
                 "/state/step", "the battle is not over: expected a turn step");

  // The manager takes a move as soon as it is queued: none is ever queued in a snapshot. One
  // restored would be taken on the next action (a roll ending the round before the seat moved).
  expect_accepted(with(card, "/pending_trigger", nullptr));
  expect_refused(with(snapshot(battle_at(TurnStep::Roll)), "/pending_trigger", "RoundOver"),
                 "/pending_trigger",
                 "expected null: the manager has no move queued between two steps, got \"RoundOver\"");
}

TEST(ClashSnapshot, ARoundPastTheLimitOrABotWithADieToRollIsRefused) {
  // Rounds count from 1 up to the encounter's round_limit (200), sudden-death rounds up to its
  // sudden_death_rounds (0 in classic): the referee ends the battle there.
  const json card = snapshot(battle_at(TurnStep::Card));
  expect_accepted(with(card, "/state/round", 200));
  expect_refused(with(card, "/state/round", 201), "/state/round",
                 "expected a round in [1, 200] (the encounter's round_limit), got 201");
  expect_refused(with(card, "/state/round", 0), "/state/round", "expected a round in [1, 200]");
  expect_refused(with(card, "/state/sudden_deaths", 1), "/state/sudden_deaths",
                 "the encounter allows 0 sudden-death rounds, got 1");

  // A bot's die is rolled for it as BattleLoop begins its turn: it never has a roll to make.
  Battle b(classic());
  ASSERT_TRUE(b.start_battle("classic", 5).ok());
  std::vector<Action> options;
  for (int i = 0; i < 400 && b.status() == Status::AwaitingDecision &&
                  !(b.state().step == TurnStep::Rock &&
                    b.state().seats[static_cast<std::size_t>(b.state().current)].kind == SeatKind::Bot);
       ++i) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options[0]).ok());
  }
  const json rock = snapshot(b);
  ASSERT_EQ(rock["phase"], "BattleLoop");
  ASSERT_EQ(rock["state"]["step"], "rock");
  expect_accepted(rock);
  const int bot = rock["state"]["current"].get<int>();
  expect_refused(with(with(rock, "/state/step", "roll"), "/state/dice", 0), "/state/step",
                 fmt::format("seat {} is a bot, whose die is rolled for it", bot));
}

TEST(ClashSnapshot, TurnsTakenOutOfTheTurnOrderAreRefused) {
  // A card to play in the middle of a round: seats before and after the current one in the order.
  Battle b = battle_at(TurnStep::Card);
  std::vector<Action> options;
  for (int i = 0; i < 400 && (b.state().step != TurnStep::Card || b.state().current == b.state().order[0] ||
                              b.state().current == b.state().order.back());
       ++i) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options[0]).ok());
  }
  const json s = snapshot(b);
  expect_accepted(s);
  const int current = s["state"]["current"].get<int>();
  ASSERT_NE(s["state"]["order"][0], current);
  ASSERT_NE(s["state"]["order"].back(), current);
  // The seats before it in the turn order have taken their turns this round, those after it not;
  // a seat out takes none.
  bool before = true;
  for (const json& o : s["state"]["order"]) {
    const int seat = o.get<int>();
    if (seat == current) {
      before = false;
      continue;
    }
    const std::string p = "/state/seats/" + std::to_string(seat);
    ASSERT_EQ(s[json::json_pointer(p + "/acted")].get<bool>(), before);
    // A seat that has not acted has no card on the table.
    expect_refused(with(with(s, p + "/acted", !before), p + "/choice", nullptr), p + "/acted",
                   fmt::format("seat {} comes {} the current seat {} in the turn order: expected {}", seat,
                               before ? "before" : "after", current, before));
    const json out = with(with(with_out(s, seat, 4, 1), p + "/acted", false), p + "/choice", nullptr);
    expect_accepted(out);
    expect_refused(with(out, p + "/acted", true), p + "/acted",
                   fmt::format("seat {} is out: expected false", seat));
  }
}

TEST(ClashSnapshot, AnEndTheRulesNeverReachIsRefused) {
  const json s = snapshot(battle_at(TurnStep::None, "duel"));
  ASSERT_EQ(s["phase"], "BattleEnd");
  expect_accepted(s);
  const json& seats = s["state"]["seats"];
  const std::size_t winner = seats[0]["out"].get<bool>() ? 1 : 0;
  const std::size_t loser = 1 - winner;
  ASSERT_TRUE(seats[loser]["out"].get<bool>());
  const std::string w = "/state/seats/" + std::to_string(winner);
  const std::string l = "/state/seats/" + std::to_string(loser);
  // Every seat has its place; the loser's health may be as low as -4 (kMaxSeats lost duels).
  expect_refused(with(s, w + "/place", 0), w + "/place", "the battle is over: expected a place in [1, 2]");
  expect_accepted(with(s, l + "/health", -4));
  expect_refused(with(s, l + "/health", -5), l + "/health", "expected an integer in [-4, 5], got -5");
  // One seat at most is still in, and no turn is pending.
  const json both_in = with(with(s, l + "/out", false), l + "/out_round", 0);
  const std::string second = "/state/seats/" + std::to_string(std::max(winner, loser));
  expect_refused(both_in, second + "/out", "the battle is over: expected one seat at most still in");
  expect_refused(with(s, "/state/current", winner), "/state/current", "the battle is over: expected no turn");
}

}  // namespace
}  // namespace battlecore::clash
