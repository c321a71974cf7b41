// A clash battle through its decisions: who decides, the turn steps, refusals that change
// nothing, the handover rule, the rule parameters, determinism, and a golden scripted battle.

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/view.hpp"
#include "clash/mechanics.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

using test::one_encounter;

Battle started(std::shared_ptr<const Catalog> c, std::uint64_t seed, std::string_view encounter = "e") {
  Battle b(std::move(c));
  const auto r = b.start_battle(encounter, seed);
  if (!r.ok()) throw std::runtime_error(r.error().message);
  return b;
}

/// Takes option 0 until seat `seat`'s decision, or the end; returns false at the end.
bool run_until_seat(Battle& b, SeatRef seat) {
  for (int i = 0; i < 10000 && b.status() == Status::AwaitingDecision; ++i) {
    if (b.decision().who.index == seat) return true;
    if (!b.submit(b.decision().options.front()).ok()) return false;
  }
  return false;
}

std::vector<EventType> types_of(const Battle& b) {
  std::vector<EventType> t;
  for (const Event& e : b.events().log()) t.push_back(e.type);
  return t;
}

/// The events of the first setup, as JSON lines: those before the first move out of BattleStart.
std::vector<std::string> setup_lines(const Battle& b) {
  std::vector<std::string> lines;
  for (const Event& e : b.events().log()) {
    if (e.type == EventType::PhaseChanged) break;
    lines.push_back(event_to_json(e).dump());
  }
  return lines;
}

/// The first setup in the seed's order, as JSON lines, for a battle at its first decision (no
/// card played yet): the hands of the seats in `dealt` (the human seats, then the bots), each
/// card as it was dealt; the shuffled turn order; each seat on its rock in `rocks`; round 1.
std::vector<std::string> expected_setup(const Battle& b, const std::vector<std::size_t>& dealt,
                                        const std::vector<std::uint8_t>& rocks) {
  using nlohmann::json;
  std::vector<std::string> lines;
  for (const std::size_t seat : dealt)
    for (const Card c : b.state().seats[seat].hand)
      lines.push_back(json{{"type", "CardDealt"},
                           {"seat", seat},
                           {"card", {{"element", element_name(c.element)}, {"value", c.value}}}}
                          .dump());
  lines.push_back(json{{"type", "TurnOrderSet"},
                       {"order", std::vector<int>(b.state().order.begin(), b.state().order.end())}}
                      .dump());
  for (std::size_t seat = 0; seat < rocks.size(); ++seat)
    lines.push_back(json{{"type", "SeatPlaced"},
                         {"seat", seat},
                         {"rock", rocks[seat]},
                         {"rock_element", element_name(rock_element(rocks[seat]))}}
                        .dump());
  lines.push_back(json{{"type", "RoundStarted"}, {"round", 1}}.dump());
  return lines;
}

// --- starting ---------------------------------------------------------------------------------

TEST(ClashBattle, StartDealsHandsShufflesTheOrderAndPlacesSeatsSpreadAroundTheRing) {
  const Battle b = started(one_encounter(test::kHumanAnd3Bots), 7);
  const BattleState& s = b.state();
  ASSERT_EQ(s.seats.size(), 4u);
  EXPECT_EQ(s.round, 1u);
  for (const SeatState& seat : s.seats) {
    EXPECT_EQ(seat.health, 5);
    EXPECT_EQ(seat.hand.size(), 9u);
    EXPECT_FALSE(seat.out);
  }
  // spread: seat i on rock i * 18 / 4
  EXPECT_EQ(s.seats[0].rock, 0);
  EXPECT_EQ(s.seats[1].rock, 4);
  EXPECT_EQ(s.seats[2].rock, 9);
  EXPECT_EQ(s.seats[3].rock, 13);
  std::array<int, 4> seen{};
  for (std::uint8_t o : s.order) ++seen[o];
  EXPECT_EQ(seen, (std::array<int, 4>{1, 1, 1, 1}));
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
}

TEST(ClashBattle, TheFirstSetupDealsTheHumanSeatsThenTheBotsThenSetsTheOrderAndPlacesTheSeats) {
  // The human sits between two bots: seat order alone, or the turn order, would deal otherwise.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Battle b = started(
        one_encounter(
            R"([{"kind": "bot", "name": "A"}, {"kind": "human", "name": "H"}, {"kind": "bot", "name": "C"}])"),
        seed);
    ASSERT_EQ(b.state().seats[1].hand.size(), 9u);
    // setup_player (seat 1), setup_bots (seats 0 and 2, the shuffled order), setup_world (spread:
    // seat i on rock i * 18 / 3), then round 1.
    EXPECT_EQ(setup_lines(b), expected_setup(b, {1, 0, 2}, {0, 6, 12})) << "seed " << seed;
  }
}

TEST(ClashBattle, TheTurnOrderIsShuffledBySeed) {
  std::set<std::vector<std::uint8_t>> orders;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Battle b = started(one_encounter(test::kFourBots), seed);
    orders.insert(std::vector<std::uint8_t>(b.state().order.begin(), b.state().order.end()));
  }
  EXPECT_GT(orders.size(), 10u);
}

TEST(ClashBattle, AHumanFirstGoesToBattleTurnABotFirstToBattleLoop) {
  bool human_first = false, bot_first = false;
  for (std::uint64_t seed = 1; seed <= 40 && !(human_first && bot_first); ++seed) {
    const Battle b = started(one_encounter(test::kHumanAnd3Bots), seed);
    ASSERT_FALSE(b.history().empty());
    const PhaseRecord& first = b.history().front();
    EXPECT_EQ(first.from, Phase::BattleStart);
    if (b.state().order[0] == 0) {
      human_first = true;
      EXPECT_EQ(first.to, Phase::BattleTurn);
      EXPECT_EQ(first.trigger, Trigger::HumanNext);
      EXPECT_EQ(b.state().step, TurnStep::Roll);
    } else {
      bot_first = true;
      EXPECT_EQ(first.to, Phase::BattleLoop);
      EXPECT_EQ(first.trigger, Trigger::BotNext);
      EXPECT_EQ(b.state().step, TurnStep::Rock);  // the bot's die is already rolled
    }
    EXPECT_EQ(b.decision().who, (Decider{Decider::Kind::Seat, b.state().order[0]}));
  }
  EXPECT_TRUE(human_first);
  EXPECT_TRUE(bot_first);
}

TEST(ClashBattle, UnknownEncounterStartsNothing) {
  Battle b(one_encounter(test::kTwoBots));
  const auto r = b.start_battle("nope", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("nope"), std::string::npos);
  EXPECT_FALSE(b.is_battle_active());
  EXPECT_EQ(b.status(), Status::Finished);
  const auto refused = b.submit(Action::roll(0));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().reason, RefusalReason::NoBattle);
}

// --- a human's turn -----------------------------------------------------------------------------

TEST(ClashBattle, AHumanTurnIsRollThenRockThenAMatchingCard) {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 3);
  ASSERT_TRUE(run_until_seat(b, 0));
  ASSERT_EQ(b.phase(), Phase::BattleTurn);
  Decision d = b.decision();
  EXPECT_EQ(d.who, (Decider{Decider::Kind::Seat, 0}));
  ASSERT_EQ(d.options, std::vector<Action>{Action::roll(0)});
  ASSERT_TRUE(b.submit(Action::roll(0)).ok());
  const BattleState& s = b.state();
  ASSERT_GE(s.dice, 1);
  ASSERT_LE(s.dice, 6);
  const auto rocks = offered_rocks(s.seats[0].rock, s.dice, 18);
  d = b.decision();
  ASSERT_EQ(d.options.size(), 2u);
  EXPECT_EQ(d.options[0], Action::choose_rock(0, rocks[0]));
  EXPECT_EQ(d.options[1], Action::choose_rock(0, rocks[1]));
  ASSERT_TRUE(b.submit(d.options[1]).ok());
  EXPECT_EQ(b.state().seats[0].rock, rocks[1]);
  if (b.state().step == TurnStep::Card) {
    const Element rock = rock_element(rocks[1]);
    for (const Action& a : b.decision().options) {
      EXPECT_EQ(a.kind, ActionKind::PlayCard);
      EXPECT_TRUE(playable_on(b.state().seats[0].hand[a.value], rock));
    }
  } else {
    EXPECT_EQ(b.events().log().back().type == EventType::Passed || b.state().current != 0, true);
  }
}

/// A battle at seat 0's card step on a non-wildcard rock, with a hand holding both a matching
/// and a non-matching card.
Battle at_card_step() {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 5);
  if (!run_until_seat(b, 0)) throw std::runtime_error("seat 0 never decides");
  BattleState& s = Battle::Access::state(b);
  s.seats[0].rock = 3;  // energy rock; the roll of 1 offers rocks 2 (earth) and 4 (fire)
  s.seats[0].hand.clear();
  s.seats[0].hand.push_back(Card{Element::Water, 4});
  s.seats[0].hand.push_back(Card{Element::Fire, 6});
  s.seats[0].hand.push_back(Card{Element::Earth, 2});
  s.step = TurnStep::Rock;
  s.dice = 1;
  s.offered = offered_rocks(3, 1, 18);
  s.offered_count = 2;
  if (!b.submit(Action::choose_rock(0, 4)).ok()) throw std::runtime_error("rock 4 refused");
  return b;
}

TEST(ClashBattle, OnlyCardsOfTheRocksElementAreOffered) {
  const Battle b = at_card_step();
  ASSERT_EQ(b.state().step, TurnStep::Card);
  EXPECT_EQ(b.decision().options, std::vector<Action>{Action::play(0, 1)});
}

TEST(ClashBattle, ACardThatDoesNotMatchTheRockIsRefusedAndNothingChanges) {
  Battle b = at_card_step();
  const std::uint64_t hash = b.state_hash();
  const std::size_t events = b.events().log().size();
  const auto r = b.submit(Action::play(0, 0));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::CardDoesNotMatch);
  EXPECT_NE(r.error().message.find("water 4 does not match rock 4 (fire)"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(b.state_hash(), hash);
  EXPECT_EQ(b.events().log().size(), events);
  const auto slot = b.submit(Action::play(0, 9));
  ASSERT_FALSE(slot.ok());
  EXPECT_EQ(slot.error().reason, RefusalReason::NoSuchCard);
  EXPECT_EQ(b.state_hash(), hash);
  ASSERT_TRUE(b.submit(Action::play(0, 1)).ok());
  EXPECT_EQ(b.state().seats[0].choice, (Card{Element::Fire, 6}));
}

TEST(ClashBattle, ARockNotOfferedIsRefusedAndNothingChanges) {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 3);
  ASSERT_TRUE(run_until_seat(b, 0));
  ASSERT_TRUE(b.submit(Action::roll(0)).ok());
  const auto offered = b.state().offered;
  std::uint8_t wrong = 0;
  while (wrong == offered[0] || wrong == offered[1]) ++wrong;
  const std::uint64_t hash = b.state_hash();
  const Battle before = b;
  const auto r = b.submit(Action::choose_rock(0, wrong));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::RockNotOffered);
  EXPECT_NE(r.error().message.find("is not offered"), std::string::npos) << r.error().message;
  EXPECT_EQ(b.state_hash(), hash);
  EXPECT_TRUE(b.state() == before.state());
}

TEST(ClashBattle, AnotherSeatOrAnotherStepIsRefused) {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 3);
  ASSERT_TRUE(run_until_seat(b, 0));
  const std::uint64_t hash = b.state_hash();
  auto r = b.submit(Action::roll(1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::NotYourTurn);
  r = b.submit(Action::choose_rock(0, 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::WrongStep);
  EXPECT_NE(r.error().message.find("roll"), std::string::npos);
  r = b.submit(Action::play(0, 0));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::WrongStep);
  EXPECT_EQ(b.state_hash(), hash);
}

TEST(ClashBattle, ASeatWithNoPlayableCardPassesWithNoCard) {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 5);
  ASSERT_TRUE(run_until_seat(b, 0));
  BattleState& s = Battle::Access::state(b);
  s.seats[0].rock = 3;
  s.seats[0].hand.clear();
  s.seats[0].hand.push_back(Card{Element::Water, 4});
  s.step = TurnStep::Rock;
  s.dice = 1;
  s.offered = offered_rocks(3, 1, 18);
  s.offered_count = 2;
  ASSERT_TRUE(b.submit(Action::choose_rock(0, 4)).ok());
  EXPECT_TRUE(b.state().seats[0].acted);
  EXPECT_TRUE(b.state().seats[0].choice.empty());
  EXPECT_EQ(b.state().seats[0].hand.size(), 1u);
  bool passed = false;
  for (const Event& e : b.events().log()) passed |= e.type == EventType::Passed && e.seat == 0;
  EXPECT_TRUE(passed);
}

// The roll stays for the card step (the die shown); the rocks it offers leave the state as the
// rock is chosen, and the roll as the turn ends: nothing of a past offer shows in the state, its
// view or its hash.
TEST(ClashBattle, TheOfferedRocksGoWithTheRockChoiceAndTheRollWithTheTurn) {
  std::size_t card_steps = 0, roll_steps = 0;
  for (const char* encounter : {"classic", "trio", "bots4", "big_ring", "resetup", "old_rules"}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Battle b = started(test::classic(), seed, encounter);
      for (int i = 0; i < 2000; ++i) {
        const BattleState& s = b.state();
        const std::string at = fmt::format("{} seed {} action {} step {}", encounter, seed, i, int(s.step));
        const nlohmann::json view = state_view(b);
        if (s.step == TurnStep::Rock) {
          EXPECT_GE(s.offered_count, 1) << at;
          EXPECT_EQ(view["offered"].size(), s.offered_count) << at;
        } else {
          EXPECT_EQ(s.offered, (std::array<std::uint8_t, 2>{})) << at;
          EXPECT_EQ(s.offered_count, 0) << at;
          EXPECT_TRUE(view["offered"].empty()) << at;
        }
        const bool rolled = s.step == TurnStep::Rock || s.step == TurnStep::Card;
        EXPECT_EQ(s.dice != 0, rolled) << at;
        card_steps += s.step == TurnStep::Card ? 1u : 0u;
        roll_steps += s.step == TurnStep::Roll ? 1u : 0u;
        if (b.status() != Status::AwaitingDecision) break;
        const auto options = b.decision().options;
        ASSERT_TRUE(b.submit(options[static_cast<std::size_t>(i) % options.size()]).ok()) << at;
      }
      EXPECT_TRUE(b.is_battle_over()) << encounter << " seed " << seed;
    }
  }
  EXPECT_GE(card_steps, 100u);
  EXPECT_GE(roll_steps, 20u);
}

// A seat that reaches rock 3 from rock 0 (offered 15 and 3) or from rock 6 (offered 3 and 9) with
// the same roll, hand and streams is in the same state, with the same hash, and stays so.
TEST(ClashBattle, TwoWaysToTheSameRockLeaveTheSameState) {
  Battle from_zero = started(one_encounter(test::kHumanAnd3Bots), 5);
  ASSERT_TRUE(run_until_seat(from_zero, 0));
  Battle from_six = from_zero;
  for (const auto& [b, rock] : {std::pair{&from_zero, 0}, std::pair{&from_six, 6}}) {
    BattleState& s = Battle::Access::state(*b);
    s.seats[0].rock = static_cast<std::uint8_t>(rock);
    s.seats[0].hand.clear();
    s.seats[0].hand.push_back(Card{Element::Energy, 4});  // rock 3 is an energy rock
    s.seats[0].hand.push_back(Card{Element::Fire, 2});
    s.step = TurnStep::Rock;
    s.dice = 3;
    s.offered = offered_rocks(static_cast<std::uint32_t>(rock), 3, 18);
    s.offered_count = 2;
    std::string why;
    ASSERT_TRUE(check_invariants(*b, &why)) << why;
    ASSERT_TRUE(b->submit(Action::choose_rock(0, 3)).ok());
    ASSERT_EQ(b->state().step, TurnStep::Card);
  }
  EXPECT_TRUE(from_zero.state() == from_six.state());
  EXPECT_EQ(from_zero.state_hash(), from_six.state_hash());
  for (int i = 0; i < 2000 && from_zero.status() == Status::AwaitingDecision; ++i) {
    const Action next = from_zero.decision().options.front();
    ASSERT_TRUE(from_zero.submit(next).ok());
    ASSERT_TRUE(from_six.submit(next).ok());
    ASSERT_TRUE(from_zero.state() == from_six.state()) << "after action " << i;
    ASSERT_EQ(from_zero.state_hash(), from_six.state_hash()) << "after action " << i;
  }
  EXPECT_TRUE(from_zero.is_battle_over());
}

// --- bots ---------------------------------------------------------------------------------------

TEST(ClashBattle, ABotRollsOnEnteringBattleLoopAndDecidesRockAndCard) {
  Battle b = started(one_encounter(test::kFourBots), 11);
  EXPECT_EQ(b.phase(), Phase::BattleLoop);
  const SeatRef first = static_cast<SeatRef>(b.state().order[0]);
  EXPECT_EQ(b.decision().who, (Decider{Decider::Kind::Seat, first}));
  EXPECT_EQ(b.events().log().back().type, EventType::DiceRolled);
  EXPECT_EQ(b.decision().options.front().kind, ActionKind::ChooseRock);
  const auto r = b.submit(Action::roll(first));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::WrongStep);
}

// --- the handover rule --------------------------------------------------------------------------

/// The seats whose turns begin, in order, until the referee, taking option 0 each time.
std::vector<int> turns_of_one_round(Battle& b) {
  std::vector<int> turns;
  const std::uint32_t round = b.round();
  while (b.status() == Status::AwaitingDecision && b.round() == round) {
    const int seat = b.decision().who.index;
    if (turns.empty() || turns.back() != seat) turns.push_back(seat);
    if (!b.submit(b.decision().options.front()).ok()) break;
  }
  return turns;
}

TEST(ClashHandover, ARoundGivesEveryRemainingSeatOneTurnInShuffledOrder) {
  Battle b = started(one_encounter(test::kHumanAnd3Bots), 21);
  const auto order = b.state().order;
  const std::vector<int> turns = turns_of_one_round(b);
  ASSERT_EQ(turns.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(turns[i], order[i]);
}

TEST(ClashHandover, ASeatEliminatedMidOrderIsSkippedAndTheRoundStillEndsAfterTheLastSeat) {
  Battle b = started(one_encounter(test::kFourBots), 21);
  // Put the second seat of the order out before anyone acts.
  BattleState& s = Battle::Access::state(b);
  const auto order = s.order;
  s.seats[order[1]].out = true;
  s.seats[order[1]].place = 4;
  s.seats[order[1]].out_round = 1;
  const std::vector<int> turns = turns_of_one_round(b);
  EXPECT_EQ(turns, (std::vector<int>{order[0], order[2], order[3]}));
  // Round 2 begins at the first seat again; the referee ran in between.
  EXPECT_EQ(b.round(), 2u);
  EXPECT_EQ(b.state().current, order[0]);
  bool referee = false;
  for (const PhaseRecord& r : b.history())
    referee |= r.to == Phase::BattleReferee && r.trigger == Trigger::RoundOver;
  EXPECT_TRUE(referee);
}

TEST(ClashHandover, WithTheFirstSeatOutTheRoundEndsBeforeTheNextRemainingSeatAndStartsThere) {
  Battle b = started(one_encounter(test::kFourBots), 4);
  BattleState& s = Battle::Access::state(b);
  const auto order = s.order;
  s.seats[order[0]].out = true;
  detail::Ctx x{s, b.encounter(), Battle::Access::events(b)};
  detail::begin_turn(x, order[1]);
  EXPECT_EQ(detail::hand_over(x), Trigger::BotNext);
  EXPECT_EQ(s.current, order[2]);
  EXPECT_EQ(detail::hand_over(x), Trigger::BotNext);
  EXPECT_EQ(s.current, order[3]);
  EXPECT_EQ(detail::hand_over(x), Trigger::RoundOver);  // next would be order[1], the first remaining
  EXPECT_EQ(s.current, kNoSeat);
  detail::begin_round(x);
  EXPECT_EQ(s.current, order[1]);
}

TEST(ClashHandover, ANewRoundEntersBattleLoopWhichHandsOverAtOnceToAHumanFirst) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Battle b = started(one_encounter(test::kHumanAnd3Bots), seed);
    if (b.state().order[0] != 0) continue;  // the human seat is first in the turn order
    (void)turns_of_one_round(b);
    if (b.is_battle_over() || b.state().current != 0) continue;
    const auto& h = b.history();
    ASSERT_GE(h.size(), 2u);
    EXPECT_EQ(h[h.size() - 2].from, Phase::BattleReferee);
    EXPECT_EQ(h[h.size() - 2].trigger, Trigger::NextRound);
    EXPECT_EQ(h[h.size() - 2].to, Phase::BattleLoop);
    EXPECT_EQ(h.back().from, Phase::BattleLoop);
    EXPECT_EQ(h.back().trigger, Trigger::HumanNext);
    EXPECT_EQ(h.back().to, Phase::BattleTurn);
    EXPECT_EQ(b.state().step, TurnStep::Roll);  // BattleLoop rolled nothing for the human
    EXPECT_EQ(b.state().dice, 0);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(ClashHandover, LoopAndTurnUseTheSameRule) {
  // Two humans and two bots: every handover edge out of Loop and out of Turn is taken.
  std::set<std::pair<Phase, Trigger>> seen;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Battle b = started(
        one_encounter(R"([{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])"), seed);
    for (int i = 0; i < 400 && b.status() == Status::AwaitingDecision; ++i)
      ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
    for (const PhaseRecord& r : b.history()) seen.insert({r.from, r.trigger});
  }
  for (Phase p : {Phase::BattleLoop, Phase::BattleTurn})
    for (Trigger t : {Trigger::BotNext, Trigger::HumanNext, Trigger::RoundOver})
      EXPECT_TRUE(seen.count({p, t})) << phase_name(p) << " " << trigger_name(t);
}

// --- rule parameters ----------------------------------------------------------------------------

TEST(ClashParameters, HandSizeSevenOrNine) {
  EXPECT_EQ(started(one_encounter(test::kTwoBots, R"({"hand_size": 7})"), 1).state().seats[0].hand.size(),
            7u);
  EXPECT_EQ(started(one_encounter(test::kTwoBots, R"({"hand_size": 9})"), 1).state().seats[1].hand.size(),
            9u);
}

/// Plays one card with the first seat to act; returns its hand size before and after.
std::pair<std::size_t, std::size_t> hand_around_a_play(const std::string& rules) {
  for (std::uint64_t seed = 1; seed < 100; ++seed) {
    Battle b = started(one_encounter(test::kTwoBots, rules), seed);
    const auto seat = static_cast<std::size_t>(b.state().current);
    const std::size_t before = b.state().seats[seat].hand.size();
    if (!b.submit(b.decision().options.front()).ok()) break;
    if (b.state().step != TurnStep::Card) continue;  // passed: try another seed
    if (!b.submit(b.decision().options.front()).ok()) break;
    return {before, b.state().seats[seat].hand.size()};
  }
  return {0, 0};
}

TEST(ClashParameters, RefillAfterAPlayOrNot) {
  EXPECT_EQ(hand_around_a_play(R"({"refill": true})"), (std::pair<std::size_t, std::size_t>{9, 9}));
  EXPECT_EQ(hand_around_a_play(R"({"refill": false})"), (std::pair<std::size_t, std::size_t>{9, 8}));
}

TEST(ClashParameters, AListedDeckDealsOnlyItsCards) {
  const auto c = one_encounter(test::kTwoBots, R"({"hand_size": 3, "deck": [{"element": "fire", "value": 3},
      {"element": "water", "value": 10}, {"element": "air", "value": 1}, {"element": "earth", "value": 2}]})");
  const Battle b = started(c, 2);
  for (const SeatState& seat : b.state().seats) {
    EXPECT_EQ(seat.hand.size(), 3u);
    EXPECT_EQ(seat.pile.size(), 1u);
    std::multiset<std::pair<int, int>> all;
    for (Card card : seat.hand) all.insert({static_cast<int>(card.element), card.value});
    for (Card card : seat.pile) all.insert({static_cast<int>(card.element), card.value});
    EXPECT_EQ(all, (std::multiset<std::pair<int, int>>{{static_cast<int>(Element::Fire), 3},
                                                       {static_cast<int>(Element::Water), 10},
                                                       {static_cast<int>(Element::Air), 1},
                                                       {static_cast<int>(Element::Earth), 2}}));
  }
}

TEST(ClashParameters, RandomCardsHaveARealElementAndAValueOneToTen) {
  std::set<int> elements, values;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Battle b = started(one_encounter(test::kFourBots), seed);
    for (const SeatState& seat : b.state().seats)
      for (Card c : seat.hand) {
        elements.insert(static_cast<int>(c.element));
        values.insert(c.value);
      }
  }
  EXPECT_EQ(elements, (std::set<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(values, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(ClashParameters, RockCountAndStartingRocks) {
  const Battle b =
      started(one_encounter(test::kThreeBots, R"({"rocks": 24, "starting_rocks": [5, 11, 23]})"), 3);
  EXPECT_EQ(b.state().seats[0].rock, 5);
  EXPECT_EQ(b.state().seats[1].rock, 11);
  EXPECT_EQ(b.state().seats[2].rock, 23);
  const SeatRef cur = b.state().current;
  const std::uint8_t from = b.state().seats[static_cast<std::size_t>(cur)].rock;
  EXPECT_EQ(b.state().offered, offered_rocks(from, b.state().dice, 24));
  const Battle spread = started(one_encounter(test::kThreeBots, R"({"rocks": 24})"), 3);
  EXPECT_EQ(spread.state().seats[1].rock, 8);
  EXPECT_EQ(spread.state().seats[2].rock, 16);
}

// --- values, clones, determinism, JSON ----------------------------------------------------------

TEST(ClashBattle, ACloneIsEqualAndGoesOnAlike) {
  Battle a = started(test::classic(), 5, "classic");
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(a.submit(a.decision().options.back()).ok());
  Battle b = a;
  EXPECT_TRUE(a.state() == b.state());
  EXPECT_EQ(a.state_hash(), b.state_hash());
  for (int i = 0; i < 30 && a.status() == Status::AwaitingDecision; ++i) {
    ASSERT_TRUE(a.submit(a.decision().options.front()).ok());
    ASSERT_TRUE(b.submit(b.decision().options.front()).ok());
    ASSERT_EQ(a.state_hash(), b.state_hash());
  }
  EXPECT_EQ(a.events().log(), b.events().log());
}

TEST(ClashBattle, ReplayingTheActionsReachesTheSameHash) {
  Battle a(test::classic());
  ASSERT_TRUE(a.start_battle("classic", 99).ok());
  for (int i = 0; i < 2000 && a.status() == Status::AwaitingDecision; ++i) {
    const auto opts = a.decision().options;
    ASSERT_TRUE(a.submit(opts[static_cast<std::size_t>(i) % opts.size()]).ok());
  }
  ASSERT_TRUE(a.is_battle_over());
  Battle b(test::classic());
  ASSERT_TRUE(b.start_battle("classic", 99).ok());
  for (const Action& act : a.actions()) {
    const auto parsed = action_from_json(action_to_json(act));
    ASSERT_TRUE(parsed.ok());
    ASSERT_EQ(parsed.value(), act);
    ASSERT_TRUE(b.submit(parsed.value()).ok());
  }
  EXPECT_EQ(a.state_hash(), b.state_hash());
  EXPECT_EQ(a.events().log(), b.events().log());
  EXPECT_EQ(a.history(), b.history());
}

TEST(ClashActions, JsonFormsRoundTripAndBadOnesAreNamed) {
  for (const Action& a : {Action::roll(2), Action::choose_rock(1, 17), Action::play(3, 8)}) {
    const auto back = action_from_json(action_to_json(a));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back.value(), a);
  }
  EXPECT_EQ(action_to_json(Action::choose_rock(1, 5)).dump(), R"({"rock":5,"seat":1,"type":"choose_rock"})");
  for (const char* bad : {R"([])", R"({"seat":0})", R"({"type":"dance","seat":0})", R"({"type":"roll"})",
                          R"({"type":"roll","seat":4})", R"({"type":"choose_rock","seat":0})",
                          R"({"type":"play_card","seat":0,"slot":-1})"}) {
    const auto r = action_from_json(nlohmann::json::parse(bad));
    EXPECT_FALSE(r.ok()) << bad;
  }
  const auto bogus = action_from_json(nlohmann::json::parse(R"({"type":"roll","seat":0,"bogus":1})"));
  ASSERT_FALSE(bogus.ok());
  EXPECT_EQ(bogus.error().message, "unknown key 'bogus'; allowed keys: type, seat");
  const auto rock =
      action_from_json(nlohmann::json::parse(R"({"type":"play_card","seat":0,"slot":1,"rock":2})"));
  ASSERT_FALSE(rock.ok());
  EXPECT_EQ(rock.error().message, "unknown key 'rock'; allowed keys: type, seat, slot");
}

TEST(ClashView, StateViewShowsSeatsHandsAndTheDecision) {
  Battle b = started(test::classic(), 5, "classic");
  const nlohmann::json v = state_view(b);
  EXPECT_EQ(v["rules"], "clash");
  EXPECT_EQ(v["encounter"], "classic");
  ASSERT_EQ(v["seats"].size(), 4u);
  EXPECT_EQ(v["seats"][0]["kind"], "human");
  EXPECT_EQ(v["seats"][0]["hand"].size(), 9u);
  EXPECT_EQ(v["decision"]["seat"], b.state().current);
  EXPECT_EQ(v["decision"]["options"].size(), b.decision().options.size());
  EXPECT_FALSE(render_text(b).empty());
}

// A roll that ends on one rock both ways round the ring offers that rock once, and says so.
TEST(ClashView, ARollEndingOnOneRockBothWaysNamesItOnce) {
  Battle b = started(test::classic(), 5, "classic");
  Event e{.type = EventType::DiceRolled,
          .seat = 0,
          .card = Card{Element::Fire, 3},
          .other_card = Card{Element::Fire, 3},
          .amount = 6};
  const std::string seat = b.catalog().encounters[b.state().encounter].seats[0].name + " (seat 0)";
  EXPECT_EQ(event_label(b, e), seat + " rolls 6: rock 3");
  e.other_card = Card{Element::Water, 15};
  EXPECT_EQ(event_label(b, e), seat + " rolls 6: rock 3 or rock 15");
}

TEST(ClashView, TheSetupsEventsNameTheHandsTheTurnOrderAndTheStartingRocks) {
  const Battle b = started(
      one_encounter(
          R"([{"kind": "bot", "name": "A"}, {"kind": "human", "name": "H"}, {"kind": "bot", "name": "C"}])",
          R"({"starting_rocks": [4, 9, 13]})"),
      3);
  std::vector<std::string> labels;
  std::vector<nlohmann::json> table;
  for (const Event& e : b.events().log()) {
    if (e.type == EventType::PhaseChanged) break;
    labels.push_back(event_label(b, e));
    table.push_back(table_event_json(b, e));
  }
  ASSERT_EQ(labels.size(), 3u * 9u + 1u + 3u + 1u);
  const Card first = b.state().seats[1].hand[0];
  EXPECT_EQ(labels[0], fmt::format("H (seat 1) draws {} {}", element_name(first.element), first.value));
  EXPECT_TRUE(table[0].contains("card"));
  // A bot's hand stays hidden from the first deal on.
  EXPECT_EQ(labels[9], "A (seat 0) draws a card");
  EXPECT_FALSE(table[9].contains("card")) << table[9].dump();
  const std::array<std::string_view, 3> names = {"A", "H", "C"};
  const auto& o = b.state().order;
  EXPECT_EQ(labels[27], fmt::format("turn order: {} (seat {}), {} (seat {}), {} (seat {})", names[o[0]], o[0],
                                    names[o[1]], o[1], names[o[2]], o[2]));
  EXPECT_EQ(table[27]["order"], nlohmann::json(std::vector<int>{o[0], o[1], o[2]}));
  EXPECT_EQ(labels[28], "A (seat 0) starts on rock 4 (fire)");
  EXPECT_EQ(labels[29], "H (seat 1) starts on rock 9 (energy)");
  EXPECT_EQ(labels[30], "C (seat 2) starts on rock 13 (air)");
  EXPECT_EQ(table[30].dump(), R"({"rock":13,"rock_element":"air","seat":2,"type":"SeatPlaced"})");
  EXPECT_EQ(labels[31], "--- round 1 ---");
  // A hand in one line (the terminal game's): the human's cards in the order dealt, a bot's count.
  const std::span<const Event> log(b.events().log());
  std::vector<std::string> cards;
  for (const Card c : b.state().seats[1].hand)
    cards.push_back(fmt::format("{} {}", element_name(c.element), c.value));
  EXPECT_EQ(dealt_label(b, log.subspan(0, 9)), fmt::format("H (seat 1) draws {}", fmt::join(cards, ", ")));
  EXPECT_EQ(dealt_label(b, log.subspan(9, 9)), "A (seat 0) draws 9 cards");
  EXPECT_EQ(dealt_label(b, log.subspan(9, 1)), "A (seat 0) draws a card");
}

// --- a golden scripted battle -------------------------------------------------------------------

// Three bots with 1 health and one listed deck, seed 12, option 0 every time: the order, rolls,
// moves, plays, every duel, the damage, the eliminations and the ranking are all in the file.
const char* const kGoldenName = "clash_scripted_seed12.jsonl";

std::shared_ptr<const Catalog> golden_catalog() {
  return one_encounter(test::kThreeBots, R"({"health": 1, "hand_size": 3, "deck": [
      {"element": "fire", "value": 7}, {"element": "water", "value": 3}, {"element": "air", "value": 9},
      {"element": "earth", "value": 5}, {"element": "energy", "value": 2}, {"element": "fire", "value": 4}]})");
}

Battle golden_battle() {
  Battle b = started(golden_catalog(), 12);
  for (int i = 0; i < 1000 && b.status() == Status::AwaitingDecision; ++i)
    if (!b.submit(b.decision().options.front()).ok()) throw std::runtime_error("option 0 refused");
  return b;
}

TEST(ClashGoldenTrace, ScriptedBattleFollowsTheSeedsOrder) {
  const Battle b = golden_battle();
  ASSERT_TRUE(b.is_battle_over());
  // BattleStart: setup_player deals no hand (no human seat), setup_bots deals seats 0, 1, 2 and
  // shuffles the order, setup_world places them (spread: rocks 0, 6, 12); then round 1. The
  // hands as dealt are those of the same battle at its first decision.
  const Battle first = started(golden_catalog(), 12);
  EXPECT_EQ(first.state().order, b.state().order);  // no re-setup: the order is the first one
  const std::vector<std::string> setup = setup_lines(b);
  EXPECT_EQ(setup, expected_setup(first, {0, 1, 2}, {0, 6, 12}));
  const std::vector<EventType> t = types_of(b);
  // Round 1: RoundStarted, then per seat in turn order its roll, move and play (or pass), then
  // the three duels, then damage and eliminations, RoundEnded.
  ASSERT_GE(t.size(), setup.size() + 10u);
  EXPECT_EQ(t[setup.size() - 1], EventType::RoundStarted);
  std::size_t i = setup.size();
  for (std::size_t seat = 0; seat < 3; ++seat) {
    while (t[i] == EventType::PhaseChanged) ++i;
    EXPECT_EQ(t[i++], EventType::DiceRolled);
    EXPECT_EQ(t[i++], EventType::SeatMoved);
    EXPECT_TRUE(t[i] == EventType::CardPlayed || t[i] == EventType::Passed);
    if (t[i++] == EventType::CardPlayed && t[i] == EventType::CardDealt) ++i;
  }
  while (t[i] == EventType::PhaseChanged) ++i;
  for (int duel = 0; duel < 3; ++duel) {
    EXPECT_EQ(t[i], EventType::DuelResolved);
    ++i;
    while (t[i] == EventType::Damaged) ++i;
  }
  while (t[i] == EventType::Eliminated) ++i;
  EXPECT_EQ(t[i], EventType::RoundEnded);
  EXPECT_EQ(t.back(), EventType::BattleEnded);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
}

TEST(ClashGoldenTrace, ScriptedBattleMatchesTheGoldenFile) {
  const Battle b = golden_battle();
  std::vector<std::string> lines;
  for (const Event& e : b.events().log()) lines.push_back(event_to_json(e).dump());
  const std::filesystem::path path = std::filesystem::path(BATTLECORE_GOLDEN_DIR) / kGoldenName;
  const char* update = std::getenv("BATTLECORE_UPDATE_GOLDEN");
  if ((update != nullptr && std::string_view(update) == "1") || !std::filesystem::exists(path)) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (const std::string& line : lines) out << line << '\n';
    out.close();
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    FAIL() << "golden file " << path << " was (re)written with " << lines.size()
           << " events; review it, check it in, and run again without BATTLECORE_UPDATE_GOLDEN";
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::vector<std::string> golden;
  for (std::string line; std::getline(in, line);) golden.push_back(line);
  const std::size_t common = std::min(golden.size(), lines.size());
  for (std::size_t k = 0; k < common; ++k)
    ASSERT_EQ(lines[k], golden[k]) << "first difference at line " << k + 1 << " of " << path
                                   << " (set BATTLECORE_UPDATE_GOLDEN=1 to rewrite it if intended)";
  EXPECT_EQ(lines.size(), golden.size());
}

}  // namespace
}  // namespace battlecore::clash
