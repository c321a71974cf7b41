// BattleReferee and BattleEnd on set-up rounds: every pair, damage, choices reset, eliminations
// together with shared places, everyone out together, the end conditions and the ranking.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

using test::one_encounter;

/// A started battle whose state the test then arranges.
struct Table {
  explicit Table(std::shared_ptr<const Catalog> c, std::uint64_t seed = 1) : battle(std::move(c)) {
    if (!battle.start_battle("e", seed).ok()) throw std::runtime_error("cannot start");
    battle.events().clear_log();
  }
  BattleState& s() { return Battle::Access::state(battle); }
  detail::Ctx ctx() { return detail::Ctx{s(), battle.encounter(), Battle::Access::events(battle)}; }
  /// Turn order = seats 0, 1, 2, ...; each plays `cards[i]` this round.
  void round_with(std::initializer_list<Card> cards) {
    s().order.clear();
    std::size_t i = 0;
    for (Card c : cards) {
      s().order.push_back(static_cast<std::uint8_t>(i));
      s().seats[i].choice = c;
      s().seats[i].acted = true;
      ++i;
    }
  }
  std::optional<Trigger> referee() {
    detail::Ctx x = ctx();
    return detail::run_battle_referee(x);
  }
  std::vector<Event> of(EventType t) const {
    std::vector<Event> out;
    for (const Event& e : battle.events().log())
      if (e.type == t) out.push_back(e);
    return out;
  }
  Battle battle;
};

constexpr Card fire(std::uint8_t v) { return {Element::Fire, v}; }
constexpr Card water(std::uint8_t v) { return {Element::Water, v}; }
constexpr Card air(std::uint8_t v) { return {Element::Air, v}; }
constexpr Card earth(std::uint8_t v) { return {Element::Earth, v}; }

TEST(ClashReferee, EveryUnorderedPairIsComparedInTurnOrderAndEachLoserTakesOneDamage) {
  Table t(one_encounter(test::kFourBots));
  t.round_with({fire(5), water(2), air(9), Card{}});
  ASSERT_EQ(t.referee(), Trigger::NextRound);
  const auto duels = t.of(EventType::DuelResolved);
  ASSERT_EQ(duels.size(), 6u);
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  const std::vector<int> winners = {1, 0, -1, 2, -1, -1};  // water>fire, fire>air, no card ties, air>water
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(duels[i].seat, pairs[i].first);
    EXPECT_EQ(duels[i].other, pairs[i].second);
    EXPECT_EQ(duels[i].winner, winners[i]) << i;
  }
  EXPECT_EQ(duels[0].card, fire(5));
  EXPECT_EQ(duels[0].other_card, water(2));
  // Seat 0 lost to 1, seat 1 to 2, seat 2 to 0: one damage each; seat 3 played nothing.
  EXPECT_EQ(t.s().seats[0].health, 4);
  EXPECT_EQ(t.s().seats[1].health, 4);
  EXPECT_EQ(t.s().seats[2].health, 4);
  EXPECT_EQ(t.s().seats[3].health, 5);
  EXPECT_EQ(t.of(EventType::Damaged).size(), 3u);
  for (const SeatState& seat : t.s().seats) {
    EXPECT_TRUE(seat.choice.empty());
    EXPECT_FALSE(seat.acted);
  }
  EXPECT_EQ(t.s().round, 2u);
}

TEST(ClashReferee, ASeatCanLoseEveryDuelOfTheRound) {
  Table t(one_encounter(test::kFourBots));
  t.round_with({air(9), earth(1), earth(2), earth(3)});  // air beats earth
  ASSERT_TRUE(t.referee().has_value());
  EXPECT_EQ(t.s().seats[0].health, 5);
  EXPECT_EQ(t.s().seats[1].health, 2);  // lost to 0, 2 and 3
  EXPECT_EQ(t.s().seats[2].health, 3);
  EXPECT_EQ(t.s().seats[3].health, 4);
}

TEST(ClashReferee, SeatsOutInTheSameRoundShareAPlace) {
  Table t(one_encounter(test::kFourBots));
  t.s().seats[1].health = 1;
  t.s().seats[2].health = 1;
  t.round_with({air(9), earth(1), earth(2), air(9)});
  ASSERT_EQ(t.referee(), Trigger::NextRound);
  EXPECT_TRUE(t.s().seats[1].out);
  EXPECT_TRUE(t.s().seats[2].out);
  EXPECT_EQ(t.s().seats[1].place, 3);
  EXPECT_EQ(t.s().seats[2].place, 3);
  const auto out = t.of(EventType::Eliminated);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].seat, 1);
  EXPECT_EQ(out[1].seat, 2);
  EXPECT_EQ(out[0].amount, 3);
  // Eliminations come after every duel.
  const auto& log = t.battle.events().log();
  std::size_t last_duel = 0, first_out = log.size();
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i].type == EventType::DuelResolved) last_duel = i;
    if (log[i].type == EventType::Eliminated && first_out == log.size()) first_out = i;
  }
  EXPECT_LT(last_duel, first_out);
}

TEST(ClashReferee, OneSeatLeftEndsTheBattleAndTheRankingFollowsEliminationRounds) {
  Table t(one_encounter(test::kThreeBots));
  t.s().seats[2].health = 1;
  t.round_with({air(9), earth(8), earth(1)});
  ASSERT_EQ(t.referee(), Trigger::NextRound);
  EXPECT_EQ(t.s().seats[2].place, 3);
  t.s().seats[1].health = 1;
  t.round_with({air(9), earth(8), Card{}});
  t.s().order.clear();
  for (int i : {0, 1, 2}) t.s().order.push_back(static_cast<std::uint8_t>(i));
  ASSERT_EQ(t.referee(), Trigger::OneLeft);
  EXPECT_EQ(t.s().seats[1].place, 2);
  detail::Ctx x = t.ctx();
  EXPECT_FALSE(detail::run_battle_end(x).has_value());
  EXPECT_EQ(t.s().seats[0].place, 1);
  const auto ended = t.of(EventType::BattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(unpack_place(ended[0].amount, 0), 1);
  EXPECT_EQ(unpack_place(ended[0].amount, 1), 2);
  EXPECT_EQ(unpack_place(ended[0].amount, 2), 3);
}

TEST(ClashReferee, EveryoneOutTogetherSharesFirstPlace) {
  Table t(one_encounter(test::kThreeBots));
  for (std::size_t i = 0; i < 3; ++i) t.s().seats[i].health = 1;
  t.round_with({fire(5), air(5), earth(5)});  // fire>air, air>earth, earth>fire: each loses once
  ASSERT_EQ(t.referee(), Trigger::AllEliminated);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(t.s().seats[i].out);
    EXPECT_EQ(t.s().seats[i].place, 1) << i;
  }
  detail::Ctx x = t.ctx();
  detail::run_battle_end(x);
  const auto ended = t.of(EventType::BattleEnded);
  ASSERT_EQ(ended.size(), 1u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(unpack_place(ended[0].amount, i), 1);
}

TEST(ClashParameters, EliminationAtZeroOrBelowZero) {
  for (const auto& [rules, out] : {std::pair{R"({"elimination": "at_zero"})", true},
                                   std::pair{R"({"elimination": "below_zero"})", false}}) {
    Table t(one_encounter(test::kThreeBots, rules));
    t.s().seats[1].health = 1;
    t.round_with({air(9), earth(1), Card{}});
    ASSERT_TRUE(t.referee().has_value());
    EXPECT_EQ(t.s().seats[1].health, 0);
    EXPECT_EQ(t.s().seats[1].out, out) << rules;
  }
  Table t(one_encounter(test::kThreeBots, R"({"elimination": "below_zero"})"));
  t.s().seats[1].health = 0;
  t.round_with({air(9), earth(1), Card{}});
  ASSERT_TRUE(t.referee().has_value());
  EXPECT_TRUE(t.s().seats[1].out);
}

TEST(ClashParameters, EqualValuesTieOrTheLaterSeatWins) {
  {
    Table t(one_encounter(test::kTwoBots, R"({"equal_values": "tie"})"));
    t.round_with({fire(6), fire(6)});
    ASSERT_TRUE(t.referee().has_value());
    EXPECT_EQ(t.of(EventType::DuelResolved)[0].winner, -1);
    EXPECT_EQ(t.s().seats[0].health, 5);
    EXPECT_EQ(t.s().seats[1].health, 5);
  }
  {
    Table t(one_encounter(test::kTwoBots, R"({"equal_values": "later_wins"})"));
    t.round_with({fire(6), fire(6)});
    ASSERT_TRUE(t.referee().has_value());
    EXPECT_EQ(t.of(EventType::DuelResolved)[0].winner, 1);
    EXPECT_EQ(t.s().seats[0].health, 4);
    EXPECT_EQ(t.s().seats[1].health, 5);
  }
}

TEST(ClashParameters, WithoutRefillASeatOutOfCardsIsOut) {
  Table t(one_encounter(test::kThreeBots, R"({"refill": false})"));
  t.s().seats[2].hand.clear();
  t.round_with({Card{}, Card{}, Card{}});
  ASSERT_EQ(t.referee(), Trigger::NextRound);
  EXPECT_TRUE(t.s().seats[2].out);
  EXPECT_EQ(t.s().seats[2].place, 3);
  EXPECT_EQ(static_cast<OutReason>(t.of(EventType::Eliminated)[0].extra), OutReason::NoCards);
}

TEST(ClashParameters, EndWhenTheHumanIsOutCompletesTheRankingByHealth) {
  Table t(one_encounter(test::kHumanAnd3Bots, R"({"end_when_human_out": true})"));
  t.s().seats[0].health = 1;
  t.s().seats[1].health = 2;
  t.s().seats[2].health = 4;
  t.s().seats[3].health = 2;
  t.round_with({earth(1), air(2), Card{}, Card{}});
  ASSERT_EQ(t.referee(), Trigger::HumanOut);
  EXPECT_EQ(t.s().seats[0].place, 4);
  detail::Ctx x = t.ctx();
  detail::run_battle_end(x);
  EXPECT_EQ(t.s().seats[2].place, 1);
  EXPECT_EQ(t.s().seats[1].place, 2);  // 2 and 2 health: out in the same pass, shared place
  EXPECT_EQ(t.s().seats[3].place, 2);
  EXPECT_TRUE(t.battle.state().seats[0].out);
}

TEST(ClashParameters, WithoutTheOptionTheBotsPlayOnAfterTheHuman) {
  Table t(one_encounter(test::kHumanAnd3Bots));
  t.s().seats[0].health = 1;
  t.round_with({earth(1), air(2), Card{}, Card{}});
  EXPECT_EQ(t.referee(), Trigger::NextRound);
}

// Content cannot set the option without a human seat (the loader refuses it); a catalog built in
// code that does plays on, as no human seat can go out.
TEST(ClashParameters, EndWhenHumanOutWithoutAHumanSeatPlaysOn) {
  auto catalog = std::make_shared<Catalog>(*one_encounter(test::kFourBots));
  catalog->encounters[0].rules.end_when_human_out = true;
  Table t(catalog);
  t.round_with({earth(1), air(2), Card{}, Card{}});
  EXPECT_EQ(t.referee(), Trigger::NextRound);
}

TEST(ClashParameters, ResetupSendsTheRefereeBackToBattleStartForFreshHands) {
  Battle b(one_encounter(test::kThreeBots, R"({"resetup_between_rounds": true, "refill": false})"));
  ASSERT_TRUE(b.start_battle("e", 3).ok());
  for (int i = 0; i < 100 && b.round() == 1 && b.status() == Status::AwaitingDecision; ++i)
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
  if (b.is_battle_over()) GTEST_SKIP() << "ended in round 1";
  bool resetup = false;
  for (const PhaseRecord& r : b.history())
    resetup |= r.from == Phase::BattleReferee && r.trigger == Trigger::Resetup && r.to == Phase::BattleStart;
  EXPECT_TRUE(resetup);
  for (const SeatState& seat : b.state().seats)
    if (!seat.out) {
      EXPECT_EQ(seat.hand.size(), 9u);  // no refill, yet full hands again
    }
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
}

TEST(ClashParameters, AResetupDealsTheHumanSeatsThenTheBotsAsTheFirstSetupDoes) {
  // The human sits between two bots: seat order alone, or the turn order, would deal otherwise.
  Battle b(one_encounter(
      R"([{"kind": "bot", "name": "A"}, {"kind": "human", "name": "H"}, {"kind": "bot", "name": "C"}])",
      R"({"resetup_between_rounds": true, "refill": false})"));
  ASSERT_TRUE(b.start_battle("e", 3).ok());
  for (int i = 0; i < 100 && b.round() == 1 && b.status() == Status::AwaitingDecision; ++i)
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
  if (b.is_battle_over()) GTEST_SKIP() << "ended in round 1";
  // The re-setup's deals: between the end of round 1 and the start of round 2; then the new
  // turn order, once, after every deal.
  std::vector<SeatRef> dealt;
  std::vector<nlohmann::json> orders;
  std::size_t dealt_before_order = 0;
  bool between = false;
  for (const Event& e : b.events().log()) {
    if (e.type == EventType::RoundEnded && e.amount == 1) between = true;
    if (between && e.type == EventType::RoundStarted) break;
    if (between && e.type == EventType::CardDealt) dealt.push_back(e.seat);
    if (between && e.type == EventType::TurnOrderSet) {
      orders.push_back(event_to_json(e)["order"]);
      dealt_before_order = dealt.size();
    }
  }
  std::vector<SeatRef> expected;
  for (const SeatRef seat : {SeatRef{1}, SeatRef{0}, SeatRef{2}})
    if (!b.state().seats[static_cast<std::size_t>(seat)].out) expected.insert(expected.end(), 9, seat);
  ASSERT_GE(expected.size(), 18u) << "two seats or more are still in";
  EXPECT_EQ(dealt, expected);
  const auto& order = b.state().order;
  const std::vector<nlohmann::json> shuffled = {nlohmann::json{order[0], order[1], order[2]}};
  EXPECT_EQ(orders, shuffled);
  EXPECT_EQ(dealt_before_order, expected.size());
}

TEST(ClashParameters, AResetupBuildsAListedDeckAgainBeforeDealing) {
  // Dealt from what was left of the old pile, a listed deck of 12 with hands of 5 ran dry by the
  // third round and every seat went out for having no card.
  std::string deck;
  for (const char* element : {"air", "earth", "energy", "fire", "water", "air"})
    for (int value : {3, 8})
      deck += fmt::format(R"({}{{"element": "{}", "value": {}}})", deck.empty() ? "" : ", ", element, value);
  Battle b(one_encounter(test::kThreeBots, fmt::format(R"({{"resetup_between_rounds": true, "refill": false,
      "hand_size": 5, "deck": [{}]}})",
                                                       deck)));
  ASSERT_TRUE(b.start_battle("e", 5).ok());
  std::uint32_t checked = 0;
  for (int i = 0; i < 400 && b.status() == Status::AwaitingDecision && b.round() <= 4; ++i) {
    const std::uint32_t round = b.round();
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
    if (b.round() == round || b.is_battle_over()) continue;
    // A new round after a re-setup: every seat still in holds a full hand from a fresh deck.
    for (const SeatState& seat : b.state().seats) {
      if (seat.out) continue;
      EXPECT_EQ(seat.hand.size(), 5u) << "round " << b.round();
      EXPECT_EQ(seat.pile.size(), 7u) << "round " << b.round();
    }
    ++checked;
  }
  EXPECT_GE(checked, 2u);
  for (const Event& e : b.events().log()) {
    if (e.type == EventType::Eliminated) {
      EXPECT_NE(static_cast<OutReason>(e.extra), OutReason::NoCards);
    }
  }
}

TEST(ClashParameters, TheRoundLimitEndsTheBattleWithAFullRanking) {
  Battle b(one_encounter(test::kFourBots, R"({"round_limit": 1})"));
  ASSERT_TRUE(b.start_battle("e", 3).ok());
  for (int i = 0; i < 100 && b.status() == Status::AwaitingDecision; ++i)
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
  ASSERT_TRUE(b.is_battle_over());
  EXPECT_EQ(b.round(), 1u);
  for (const SeatState& seat : b.state().seats) EXPECT_GE(seat.place, 1);
  // Four seats with 5 health cannot lose more than 3 duels in one round: only the limit ends it.
  EXPECT_EQ(b.history().back().trigger, Trigger::RoundLimit);
  std::set<std::uint8_t> places;
  for (const SeatState& seat : b.state().seats) places.insert(seat.place);
  EXPECT_TRUE(places.count(1));
}

}  // namespace
}  // namespace battlecore::clash
