// Clash scenarios: a battle started from a stated position; bad overrides refused with their
// pointer, every one of them.

#include "battlecore/clash/scenario.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/snapshot.hpp"
#include "battlecore/core/rng.hpp"
#include "support/clash_pack.hpp"
#include "support/diagnostics_list.hpp"
#include "support/scenario_seeds.hpp"

namespace battlecore::clash {
namespace {

using test::classic;

Result<Battle, content::Diagnostics> start(const std::string& text, std::optional<std::uint64_t> seed = {}) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("s.json", text, diags);
  if (!doc) return diags;
  return start_scenario(classic(), *doc, seed);
}

std::string problems(const Result<Battle, content::Diagnostics>& r) {
  return r.ok() ? "" : r.error().to_string();
}

TEST(ClashScenario, OverridesReplaceTheStatedFieldsAndTheFirstSeatOfTheOrderBegins) {
  const auto r = start(R"({
    "format": "battlecore-scenario", "format_version": 1, "rules": "clash",
    "encounter": "trio", "seed": 12, "round": 7, "order": [0, 2, 1],
    "seats": [
      {"health": 2, "rock": 6, "hand": [{"element": "fire", "value": 7}, {"element": "air", "value": 1}]},
      {"health": 1},
      {"rock": 17}
    ]
  })");
  ASSERT_TRUE(r.ok()) << problems(r);
  const Battle& b = r.value();
  const BattleState& s = b.state();
  EXPECT_EQ(s.seed, 12u);
  EXPECT_EQ(s.round, 7u);
  ASSERT_EQ(s.order.size(), 3u);
  EXPECT_EQ(s.order[1], 2);
  EXPECT_EQ(s.seats[0].health, 2);
  EXPECT_EQ(s.seats[0].rock, 6);
  ASSERT_EQ(s.seats[0].hand.size(), 2u);
  EXPECT_EQ(s.seats[0].hand[0], (Card{Element::Fire, 7}));
  EXPECT_EQ(s.seats[1].health, 1);
  EXPECT_EQ(s.seats[2].rock, 17);
  EXPECT_EQ(s.seats[2].health, 5);
  // Seat 0 is human and first: its turn, a roll.
  EXPECT_EQ(b.phase(), Phase::BattleTurn);
  EXPECT_EQ(s.current, 0);
  EXPECT_EQ(s.step, TurnStep::Roll);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  ASSERT_EQ(b.history().size(), 1u);
  EXPECT_EQ(b.history()[0].from, Phase::BattleStart);
}

TEST(ClashScenario, TheLogTellsTheStatedPositionNotTheSetupItReplaced) {
  const auto r = start(R"({
    "encounter": "trio", "seed": 12, "round": 7, "order": [0, 2, 1],
    "seats": [{"rock": 6, "hand": [{"element": "fire", "value": 7}, {"element": "air", "value": 1}]}, {}, {"rock": 17}]
  })");
  ASSERT_TRUE(r.ok()) << problems(r);
  const Battle& b = r.value();
  std::vector<std::string> lines;
  for (const Event& e : b.events().log()) {
    if (e.type == EventType::PhaseChanged) break;
    lines.push_back(event_to_json(e).dump());
  }
  // The human seat's stated hand, then the bots' hands as dealt, the stated order and rocks (seat
  // 1 where the setup placed it), the stated round.
  std::vector<std::string> expected = {R"({"card":{"element":"fire","value":7},"seat":0,"type":"CardDealt"})",
                                       R"({"card":{"element":"air","value":1},"seat":0,"type":"CardDealt"})"};
  for (const SeatRef seat : {SeatRef{1}, SeatRef{2}})
    for (const Card c : b.state().seats[static_cast<std::size_t>(seat)].hand)
      expected.push_back(event_to_json(Event{.type = EventType::CardDealt, .seat = seat, .card = c}).dump());
  for (const char* line : {R"({"order":[0,2,1],"type":"TurnOrderSet"})",
                           R"({"rock":6,"rock_element":"none","seat":0,"type":"SeatPlaced"})",
                           R"({"rock":6,"rock_element":"none","seat":1,"type":"SeatPlaced"})",
                           R"({"rock":17,"rock_element":"water","seat":2,"type":"SeatPlaced"})",
                           R"({"round":7,"type":"RoundStarted"})"})
    expected.emplace_back(line);
  EXPECT_EQ(lines, expected);
}

TEST(ClashScenario, WithoutOverridesItIsThePlainStartAndTheSeedArgumentWins) {
  const auto r = start(R"({"encounter": "bots4", "seed": 3})", 99);
  ASSERT_TRUE(r.ok()) << problems(r);
  Battle plain(classic());
  ASSERT_TRUE(plain.start_battle("bots4", 99).ok());
  EXPECT_TRUE(r.value() == plain);
  EXPECT_EQ(r.value().state_hash(), plain.state_hash());
}

TEST(ClashScenario, ABotFirstInTheOrderRollsAtOnce) {
  const auto r =
      start(R"({"encounter": "trio", "seed": 4, "order": [2, 0, 1], "seats": [{}, {}, {"rock": 3}]})");
  ASSERT_TRUE(r.ok()) << problems(r);
  const BattleState& s = r.value().state();
  EXPECT_EQ(r.value().phase(), Phase::BattleLoop);
  EXPECT_EQ(s.current, 2);
  EXPECT_EQ(s.step, TurnStep::Rock);
  const auto offered = offered_rocks(3, s.dice, 18);
  EXPECT_EQ(s.offered[0], offered[0]);
  EXPECT_EQ(s.offered[1], offered[1]);
}

TEST(ClashScenario, AListedDeckHandIsTakenFromTheSeatsOwnDeck) {
  const auto r = start(
      R"({"encounter": "listed_deck", "seats": [{"hand": [{"element": "air", "value": 2}, {"element": "water", "value": 8}]}]})");
  ASSERT_TRUE(r.ok()) << problems(r);
  const SeatState& seat = r.value().state().seats[0];
  EXPECT_EQ(seat.hand.size(), 2u);
  EXPECT_EQ(seat.hand.size() + seat.pile.size(), 20u);  // every card of the list accounted for
  const auto twice = start(
      R"({"encounter": "listed_deck", "seats": [{"hand": [{"element": "air", "value": 2}, {"element": "air", "value": 2}]}]})");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(problems(twice).find("/seats/0/hand/1: air 2 is not left in the seat's copy of the listed deck"),
            std::string::npos)
      << problems(twice);
}

TEST(ClashScenario, EveryBadOverrideIsRefusedWithItsPointer) {
  const auto r = start(R"({
    "rules": "clash", "encounter": "trio", "round": 0, "order": [0, 0, 1],
    "seats": [
      {"health": 6, "hand": [{"element": "plasma", "value": 3}, {"element": "fire", "value": 11}]},
      {"rock": 18, "colour": "red"},
      {"health": 0},
      {}
    ]
  })");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  for (const char* expected : {
           "/round: expected an integer in [1, 200]",
           "/order/1: seat 0 is listed twice",
           "/seats: encounter 'trio' has 3 seats; 4 are given",
           "/seats/0/health: expected health in [1, 5]",
           "/seats/0/hand/0/element: unknown element 'plasma'",
           "/seats/0/hand/1/value:",
           "/seats/1/rock:",
           "/seats/1/colour:",
           "/seats/2/health: expected health in [1, 5]",
       })
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " not in:\n" << text;
  EXPECT_NE(text.find("s.json:"), std::string::npos);
}

TEST(ClashScenario, EveryEntryOfTheOrderIsCheckedSayingTheValueGiven) {
  EXPECT_EQ(
      problems(start(
          R"({"format":"battlecore-scenario","format_version":1,"rules":"clash","encounter":"trio","order":[7,1,1]})")),
      "s.json:1:96: /order/0: expected a seat index in [0, 2], got 7\n"
      "s.json:1:100: /order/2: seat 1 is listed twice\n");
  // A list of another length has its entries checked too.
  EXPECT_EQ(problems(start(R"({"encounter": "trio", "order": [0, 1, 2, 2, "x", -1]})")),
            "s.json:1:32: /order: expected all 3 seats in turn order, got 6\n"
            "s.json:1:42: /order/3: seat 2 is listed twice\n"
            "s.json:1:45: /order/4: expected a seat index in [0, 2], got a string\n"
            "s.json:1:50: /order/5: expected a seat index in [0, 2], got -1\n");
}

TEST(ClashScenario, AHandTooLongHasEveryCardCheckedAllTheSame) {
  const auto r = start(R"({"encounter": "listed_deck", "seats": [{"hand": [
    {"element": "air", "value": 2}, {"element": "air", "value": 5}, {"element": "air", "value": 8},
    {"element": "earth", "value": 3}, {"element": "earth", "value": 6}, {"element": "earth", "value": 9},
    {"element": "energy", "value": 1}, {"element": "air", "value": 2}, {"element": "plasma", "value": 1}]}]})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(test::pointed_messages(r.error()),
            (std::vector<std::string>{
                "/seats/0/hand: 9 cards in hand; the encounter's hand holds at most 7",
                "/seats/0/hand/7: air 2 is not left in the seat's copy of the listed deck",
                "/seats/0/hand/8/element: unknown element 'plasma'; expected air, earth, energy, fire or "
                "water",
            }));
}

TEST(ClashScenario, RefusesAnotherFormatVersionRuleSetOrEncounter) {
  const auto r = start(R"({"format_version": 2, "rules": "deckbuilder", "encounter": "nope"})");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  EXPECT_NE(text.find("/format_version: scenario format version 2 is not supported"), std::string::npos)
      << text;
  EXPECT_NE(text.find("/rules: the scenario is of rule set 'deckbuilder', not 'clash'"), std::string::npos);
  EXPECT_NE(text.find("/encounter: no encounter 'nope' in pack 'classic'"), std::string::npos);
}

TEST(ClashScenario, AnUnknownKeyIsReportedEvenWhenTheHeaderStopsTheReading) {
  const auto r = start("{\"encounter\": \"trio\", \"seed\": \"x\",\n \"round\": 999, \"bogus\": 1}");
  // The round is not checked without a battle to check it against; the unknown key is.
  EXPECT_EQ(
      problems(r),
      "s.json:1:31: /seed: expected a seed: an integer in [0, 2^64), got a string\n"
      "s.json:2:25: /bogus: unknown key 'bogus'; allowed keys: format, format_version, rules, encounter, "
      "seed, round, order, seats\n");
}

TEST(ClashScenario, ABattleFromAScenarioSnapshotsAndRestores) {
  const auto r = start(R"({"encounter": "classic", "seed": 8, "round": 3, "seats": [{"health": 1}]})");
  ASSERT_TRUE(r.ok()) << problems(r);
  auto restored = restore(classic(), snapshot(r.value()));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_TRUE(restored.value() == r.value());
}

/// A scenario of random overrides for an encounter of the classic pack, from `rng`: the round,
/// the turn order, each seat's health, rock and hand. Some are out of range (health 0 where it
/// ends a seat, a rock past the ring, a card a listed deck does not hold), so that some
/// scenarios are refused.
nlohmann::json random_scenario(Rng& rng, const Catalog& c) {
  using nlohmann::json;
  const auto any = [&](std::size_t n) { return rng.below(static_cast<std::uint32_t>(n)); };
  constexpr std::array<const char*, 5> kElements = {"air", "earth", "energy", "fire", "water"};
  const EncounterDef& e = c.encounters[any(c.encounters.size())];
  json doc = {{"encounter", e.id}, {"seats", json::array()}};
  if (any(3) == 0) doc["round"] = 1 + any(e.rules.round_limit);
  if (any(3) == 0) {
    std::vector<std::size_t> order(e.seats.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    rng.shuffle(std::span<std::size_t>(order));
    doc["order"] = order;
  }
  for (std::size_t i = 0; i < e.seats.size(); ++i) {
    json seat = json::object();
    if (any(2) != 0) seat["health"] = any(static_cast<std::size_t>(e.rules.health) + 1);
    if (any(3) == 0) seat["rock"] = any(e.rules.rocks + 1);
    if (any(3) == 0) {
      seat["hand"] = json::array();
      for (std::size_t k = any(std::size_t{e.rules.hand_size} + 1); k > 0; --k)
        seat["hand"].push_back(
            {{"element", kElements[any(kElements.size())]}, {"value", 1 + any(kMaxCardValue)}});
    }
    doc["seats"].push_back(seat);
  }
  return doc;
}

TEST(ClashScenario, AScenarioStartsEveryBattleOrNone) {
  // Every override is checked against the encounter, none against what the seed dealt (a
  // listed deck's hand is taken from the whole list): `sim --scenario` checks a scenario once,
  // with the first battle's seed, and then starts every battle from it.
  test::expect_scenarios_start_every_seed_or_none(
      11, [](Rng& rng) { return random_scenario(rng, *classic()).dump(); },
      [](const std::string& scenario, std::uint64_t seed) { return start(scenario, seed).ok(); });
}

}  // namespace
}  // namespace battlecore::clash
