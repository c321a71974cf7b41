// The party battle: golden traces of the ordered lists of BF: Battle flow/Main turn life cycle (the
// select cycle, the player phase parts, the enemy phase, first strike), refusals that change nothing,
// and the shape every rule set offers (decisions, clone, hash).

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/party/battle.hpp"
#include "battlecore/party/view.hpp"
#include "party/mechanics.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

using test::give;
using test::start;
using test::submit_ok;
using test::trace;
using Trace = std::vector<std::string>;

const std::vector<EventType> kFlow = {
    EventType::PhaseChanged, EventType::MainTurnStarted, EventType::MemberSelected, EventType::ActionTaken,
    EventType::Relayed,      EventType::EnemyActed,      EventType::TurnAdvanced,   EventType::Fled};

std::vector<std::int8_t> cycle(const Battle& b) {
  return {b.state().last_turns.begin(), b.state().last_turns.end()};
}

// --- the select cycle -----------------------------------------------------------------------

TEST(PartySelectCycle, ThreeFreeMembersRotateInFormationOrder) {
  Battle b = start("trio");
  EXPECT_EQ(trace(b, 0, kFlow), (Trace{"phase BattleStart->PlayerPhase", "turn 0", "select ann"}));
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{0, -1}));  // three free: two slots
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::deselect());
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{0, 1}));
  submit_ok(b, Action::deselect());
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{1, 2}));  // full: the oldest goes
  submit_ok(b, Action::deselect());
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{2, 0}));
  EXPECT_EQ(trace(b, mark, kFlow), (Trace{"ann deselect", "select bob", "bob deselect", "select cat",
                                          "cat deselect", "select ann"}));
  EXPECT_EQ(b.decision().who, (Decider{Decider::Kind::Actor, 0}));
}

TEST(PartySelectCycle, AnActionResetsTheCycleAndTheNextFreeMemberInFormationOrderIsSelected) {
  Battle b = start("trio");
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{1}));  // reset to one slot (two free), then bob
  submit_ok(b, Action::attack(0));
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(trace(b, mark, kFlow),
            (Trace{"ann attack", "select bob", "bob attack", "select cat", "cat attack",
                   "phase PlayerPhase->EnemyPhase", "enemy#0 idle", "phase EnemyPhase->TurnEnd", "advance 1",
                   "phase TurnEnd->PlayerPhase", "turn 1", "select ann"}));
}

TEST(PartySelectCycle, AStoppedMemberIsSkipped) {
  Battle b = start("trio");
  give(b, member_actor(1), "freeze", 2);  // bob frozen while ann is selected
  submit_ok(b, Action::attack(0));        // ann acts; bob is stopped, so cat is next
  submit_ok(b, Action::attack(0));
  ASSERT_EQ(b.state().turn, 1u);
  EXPECT_EQ(b.state().members[1].cantmove, 0);  // frozen members wait at 0
  const std::size_t mark = b.events().log().size();
  EXPECT_EQ(cycle(b), (std::vector<std::int8_t>{0}));  // two free: one slot, ann in it
  submit_ok(b, Action::deselect());
  submit_ok(b, Action::deselect());
  EXPECT_EQ(trace(b, mark, kFlow), (Trace{"ann deselect", "select cat", "cat deselect", "select ann"}));
  EXPECT_EQ(b.state().current, 0);
}

// A Flipped member counts as free (BF: Actors states/Player party members/GetFreePlayerAmmount) but
// is stopped, so the selection never picks it (BF: Battle flow/Main turn life cycle). Deselect goes
// to the next member not offered yet: with no other member to select it is not offered (it could
// only select the same member again), and the Flipped member does not lengthen its round.
TEST(PartySelectCycle, AFlippedMemberIsNeverSelectedSoDeselectDoesNotCountIt) {
  Battle b = start("trio");
  give(b, member_actor(1), "flipped", 2);  // bob flipped, cat frozen while ann is selected
  give(b, member_actor(2), "freeze", 2);
  ASSERT_EQ(detail::free_member_count(b.state(), b.catalog()), 2u);  // ann and the flipped bob
  std::vector<Action> options;
  b.legal_actions(options);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::deselect()), 0);
  const auto refused = b.submit(Action::deselect());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().reason, RefusalReason::DeselectNotAllowed);

  Battle c = start("trio");
  give(c, member_actor(1), "flipped", 2);  // bob flipped; ann and cat may be selected
  const std::size_t mark = c.events().log().size();
  submit_ok(c, Action::deselect());
  submit_ok(c, Action::deselect());
  EXPECT_EQ(trace(c, mark, kFlow), (Trace{"ann deselect", "select cat", "cat deselect", "select ann"}));
  EXPECT_EQ(c.submit(Action::deselect()).error().reason, RefusalReason::DeselectNotAllowed);
}

TEST(PartySelectCycle, RelayGivesTheReceiverOneMoreActionAndEndsTheRelayersTurn) {
  Battle b = start("trio");
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));  // ann
  submit_ok(b, Action::relay(0));   // bob relays to ann, who has acted
  EXPECT_EQ(b.state().members[0].cantmove, 0);
  EXPECT_EQ(b.state().members[1].cantmove, 1);
  EXPECT_TRUE(b.state().members[1].has_passed);
  submit_ok(b, Action::attack(0));  // ann again
  submit_ok(b, Action::attack(0));  // cat
  EXPECT_EQ(trace(b, mark, kFlow),
            (Trace{"ann attack", "select bob", "bob relay", "relay bob->ann", "select ann", "ann attack",
                   "select cat", "cat attack", "phase PlayerPhase->EnemyPhase", "enemy#0 idle",
                   "phase EnemyPhase->TurnEnd", "advance 1", "phase TurnEnd->PlayerPhase", "turn 1",
                   "select ann"}));
  EXPECT_FALSE(b.state().members[1].has_passed);  // reset by the turn advance
}

TEST(PartySelectCycle, ARelayToAFreeMemberGivesItTwoActions) {
  Battle b = start("trio");
  submit_ok(b, Action::relay(2));  // ann relays to cat, who has not acted
  EXPECT_EQ(b.state().members[2].cantmove, -1);
  submit_ok(b, Action::attack(0));  // bob
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));  // cat
  submit_ok(b, Action::attack(0));  // cat again
  EXPECT_EQ(trace(b, mark, {EventType::ActionTaken, EventType::MemberSelected}),
            (Trace{"cat attack", "select cat", "cat attack", "select ann"}));  // then the next turn
}

// --- the player phase parts -------------------------------------------------------------------

TEST(PartyPlayerPhase, CompanionThenAllyThenTheEnemyPhase) {
  Battle b = start("helpers");
  submit_ok(b, Action::attack(0));
  submit_ok(b, Action::attack(0));
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  const Decision d = b.decision();
  EXPECT_EQ(d.kind, DecisionKind::Companion);
  EXPECT_EQ(d.who, (Decider{Decider::Kind::Player, 0}));
  submit_ok(b, Action::companion_attack(0));
  EXPECT_EQ(trace(b, mark, kFlow),
            (Trace{"cat attack", "companion companion_attack", "ally attack", "phase PlayerPhase->EnemyPhase",
                   "enemy#0 idle", "phase EnemyPhase->TurnEnd", "advance 1", "phase TurnEnd->PlayerPhase",
                   "turn 1", "select ann"}));
  EXPECT_FALSE(b.state().companion_acted);  // reset for the new main turn
}

// The companion's action names its target as every action does, by the enemy's event actor:
// its enemy slot used to be written there, which names a member (slot 1 read "member 1").
TEST(PartyPlayerPhase, TheCompanionsActionNamesTheEnemyItTargets) {
  Battle b = start("pet_pair");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::attack(0));
  ASSERT_EQ(b.decision_kind(), DecisionKind::Companion);
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::companion_attack(1));
  const Event& taken = b.events().log()[mark];
  ASSERT_EQ(taken.type, EventType::ActionTaken);
  EXPECT_EQ(taken.source, kCompanionActor);
  EXPECT_EQ(taken.target, enemy_actor(b.state().enemies[1].uid));
  EXPECT_EQ(event_to_json(taken, b.catalog())["target"], "enemy #1");
  EXPECT_EQ(trace(b, mark, {EventType::Damaged}).at(0), "damage enemy#1 1");
}

TEST(PartyPlayerPhase, ALockedCompanionIsSkipped) {
  Battle b = start("locked");
  submit_ok(b, Action::attack(0));
  submit_ok(b, Action::attack(0));
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(trace(b, mark, {EventType::ActionTaken, EventType::PhaseChanged}).at(1), "ally attack");
  EXPECT_EQ(trace(b, mark, {EventType::ActionTaken, EventType::PhaseChanged}).at(2),
            "phase PlayerPhase->EnemyPhase");
}

TEST(PartyPlayerPhase, PartyAdvantageGivesTheLeadMemberAnExtraAction) {
  Battle b = start("advantage");
  EXPECT_EQ(b.state().members[0].cantmove, -1);
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(trace(b, mark, {EventType::ActionTaken, EventType::MemberSelected}),
            (Trace{"ann attack", "select ann", "ann attack", "select bob"}));
}

// --- the enemy phase --------------------------------------------------------------------------

TEST(PartyEnemyPhase, AnEnemyWithTwoMovesActsTwice) {
  Battle b = start("twin");
  EXPECT_EQ(b.state().enemies[0].cantmove, -1);  // 1 - moves
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  std::size_t mark = b.events().log().size();
  ASSERT_EQ(b.decision().kind, DecisionKind::Block);
  EXPECT_EQ(b.decision().options,
            (std::vector<Action>{Action::block(BlockLevel::None), Action::block(BlockLevel::Block),
                                 Action::block(BlockLevel::SuperBlock)}));
  EXPECT_EQ(b.decision().who.kind, Decider::Kind::Actor);
  EXPECT_EQ(b.state().enemies[0].cantmove, -1);
  submit_ok(b, Action::block(BlockLevel::None));
  EXPECT_EQ(b.state().enemies[0].cantmove, 0);
  ASSERT_EQ(b.decision().kind, DecisionKind::Block);  // the second action
  submit_ok(b, Action::block(BlockLevel::None));
  EXPECT_EQ(trace(b, 0, {EventType::EnemyActed}), (Trace{"enemy#0 poke", "enemy#0 poke"}));
  EXPECT_EQ(trace(b, mark, {EventType::PhaseChanged}),
            (Trace{"phase EnemyPhase->TurnEnd", "phase TurnEnd->PlayerPhase"}));
  EXPECT_EQ(b.state().enemies[0].cantmove, -1);  // back to 1 - moves at the turn advance
}

TEST(PartyEnemyPhase, AFlippedEnemyStillActsAndAFrozenOneDoesNot) {
  Battle b = start("pet_pair");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Companion);
  const EnemyState e0 = b.state().enemies[0], e1 = b.state().enemies[1];
  give(b, enemy_actor(e0.uid), "flipped", 1);
  give(b, enemy_actor(e1.uid), "freeze", 1);
  EXPECT_LE(b.state().enemies[1].cantmove, 0);  // frozen after the members' turns: not yet waiting
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::companion_pass());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  EXPECT_TRUE(b.state().enemies[0].conditions.empty());  // Flipped at one turn is removed as it acts
  submit_ok(b, Action::block(BlockLevel::None));
  EXPECT_EQ(trace(b, mark, {EventType::EnemyActed}), (Trace{"enemy#0 poke"}));
}

TEST(PartyEnemyPhase, AnEnemyFlippedForTwoTurnsLosesItsAction) {
  Battle b = start("pet_pair");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  give(b, enemy_actor(b.state().enemies[0].uid), "flipped", 2);
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::companion_pass());
  EXPECT_EQ(trace(b, mark, {EventType::EnemyActed}), (Trace{"enemy#0 flipped", "enemy#1 poke"}));
}

// A stopped member did not act: when a hit ends its stop (thaws or wakes it) it waits, and the
// turn advance leaves it one action, as when the stop runs out.
TEST(PartyEnemyPhase, AMemberAHitThawsOrWakesHasOneActionNextTurn) {
  for (const char* encounter : {"thaw", "wake"}) {
    SCOPED_TRACE(encounter);
    Battle b = start(encounter);
    submit_ok(b, Action::do_nothing());  // turn 0: Ann is frozen (or put to sleep) for 2 turns
    // Turn 1: Ann cannot act, and the enemy's poke, which she cannot block, thaws (or wakes) her.
    ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
    EXPECT_TRUE(b.state().members[0].conditions.empty());
    EXPECT_EQ(b.state().turn, 2u);
    EXPECT_EQ(b.state().members[0].cantmove, 0);  // one action, not two
    const std::string stop = encounter == std::string("thaw") ? "chill" : "lull";
    const std::string poked =
        encounter == std::string("thaw") ? "damage ann 2" : "damage ann 1";  // frozen: +1
    EXPECT_EQ(trace(b, 0, {EventType::EnemyActed, EventType::Damaged, EventType::TurnAdvanced}),
              (Trace{"enemy#0 " + stop, "advance 1", "enemy#0 poke", poked, "advance 2"}));
    const std::size_t mark = b.events().log().size();
    submit_ok(b, Action::do_nothing());
    // Ann's one action, then the enemy stops her again and pokes her on turn 3, and she acts on turn 4.
    EXPECT_EQ(trace(b, mark, {EventType::MemberSelected, EventType::EnemyActed, EventType::TurnAdvanced}),
              (Trace{"enemy#0 " + stop, "advance 3", "enemy#0 poke", "advance 4", "select ann"}));
  }
}

// The reference's DoBlock asks IsStoppedLite: a frozen, numb or sleeping member takes the hit
// unblocked, with no Block decision and no block roll, while a flipped one still blocks.
TEST(PartyEnemyPhase, AFrozenNumbOrSleepingMemberCannotBlockAndAFlippedOneCan) {
  for (const char* condition : {"freeze", "numb", "sleep", "flipped"}) {
    SCOPED_TRACE(condition);
    Battle b = start("solo_poke");
    ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
    submit_ok(b, Action::do_nothing());  // turn 0: the poker pokes Ann
    ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
    submit_ok(b, Action::block(BlockLevel::None));
    ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
    give(b, member_actor(0), condition, 3);
    const Rng dice = b.state().rng[Stream::Dice];
    const std::int32_t hp = b.state().members[0].hp;
    const std::size_t mark = b.events().log().size();
    submit_ok(b, Action::do_nothing());  // turn 1: Ann's last action before the stop
    if (std::string(condition) == "flipped") {
      ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
      EXPECT_NE(b.state().rng[Stream::Dice], dice);  // the block roll is drawn
      continue;
    }
    // Turns pass while Ann is stopped: each poke lands unblocked, and no roll is drawn, until
    // she may act again.
    ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
    EXPECT_GE(b.state().turn, 2u);  // a hit thaws or wakes her; numb lasts its turns
    EXPECT_EQ(b.state().rng[Stream::Dice], dice);
    const Trace pokes = trace(b, mark, {EventType::EnemyActed});
    EXPECT_EQ(pokes.size(), b.state().turn - 1u);
    EXPECT_LE(b.state().members[0].hp, hp - static_cast<std::int32_t>(pokes.size()));
  }
}

// Flipped stops a member as Freeze does: it waits at 0 and then has one action.
TEST(PartyEnemyPhase, AFlippedMemberWaitsAndThenHasOneAction) {
  Battle b = start("tip");
  submit_ok(b, Action::do_nothing());  // turn 0: Ann is flipped for 3 turns
  // Turns 1 and 2 pass without her.
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(b.state().turn, 3u);
  EXPECT_EQ(trace(b, 0, {EventType::MemberSelected}), (Trace{"select ann", "select ann"}));
  EXPECT_TRUE(b.state().members[0].conditions.empty());
  EXPECT_EQ(b.state().members[0].cantmove, 0);
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::do_nothing());
  EXPECT_EQ(trace(b, mark, {EventType::MemberSelected, EventType::TurnAdvanced}),
            (Trace{"advance 4", "select ann"}));
}

// The reference's dontusecharge: an enemy that charges itself keeps the charge for its next action.
TEST(PartyEnemyPhase, AChargeAnEnemyGivesItselfLastsToItsNextAction) {
  Battle b = start("brace");
  submit_ok(b, Action::do_nothing());  // turn 0: the bracer charges itself by 2
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(b.state().enemies[0].charge, 2);
  submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);  // turn 1: its poke
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::block(BlockLevel::None));
  EXPECT_EQ(trace(b, mark, {EventType::Damaged}), (Trace{"damage ann 3"}));  // 1 + 2 charge
  EXPECT_EQ(b.state().enemies[0].charge, 0);                                 // spent by the poke
}

TEST(PartyEnemyPhase, TheGoldenBeetlesBraceChargesItsSlam) {
  Battle b = start("beetle_den", 1, test::meadow_pack());
  const Catalog& c = b.catalog();
  const EnemyDef& beetle = c.enemies[b.state().enemies[0].def];
  ASSERT_EQ(beetle.id, "golden_beetle");
  ASSERT_EQ(beetle.move_list[0].id, "brace");
  ASSERT_EQ(beetle.move_list[1].id, "slam");
  const std::uint8_t uid = b.state().enemies[0].uid;
  // The members pass and every other hit goes unblocked until the slam's Block decision.
  for (int step = 0; step < 40; ++step) {
    ASSERT_EQ(b.status(), Status::AwaitingDecision);
    const DecisionKind k = b.decision_kind();
    if (k == DecisionKind::Block && b.state().enemy_action.enemy_uid == uid) break;
    submit_ok(b, k == DecisionKind::Block       ? Action::block(BlockLevel::None)
                 : k == DecisionKind::Companion ? Action::companion_pass()
                                                : Action::do_nothing());
  }
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  ASSERT_EQ(b.state().enemy_action.move, 1);
  EXPECT_EQ(trace(b, 0, {EventType::EnemyActed}).front(), "enemy#0 brace");
  EXPECT_EQ(b.state().enemies[0].charge, 1);
  const auto target = static_cast<std::size_t>(b.decision().who.index);
  const std::int32_t hp = b.state().members[target].hp;
  submit_ok(b, Action::block(BlockLevel::None));
  // 5, +1 charge, - the member's defense (nobody is guarding or weakened)
  EXPECT_EQ(hp - b.state().members[target].hp,
            std::min(hp, 5 + 1 - c.members[b.state().members[target].def].defense));
}

// The rest of a move skips a member it has downed: the fallen hold no conditions.
TEST(PartyEnemyPhase, TheRestOfAMoveSkipsTheMemberItDowned) {
  Battle b = start("venom");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  const auto target = static_cast<std::size_t>(b.decision().who.index);
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::block(BlockLevel::SuperBlock));  // 30 damage, then poison and attack down
  EXPECT_FALSE(b.state().members[target].alive());
  EXPECT_TRUE(b.state().members[target].conditions.empty());
  EXPECT_EQ(trace(b, mark, {EventType::ConditionApplied, EventType::ConditionResisted}), Trace{});
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  EXPECT_EQ(b.decision_kind(), DecisionKind::MemberTurn);  // the battle goes on
}

// An actor holds each condition once, and every condition of a pack fits.
TEST(PartyEnemyPhase, AMemberGivenMoreThanEightConditionsFightsOn) {
  Battle b = start("hex");
  submit_ok(b, Action::do_nothing());  // turn 0: the hexer gives Ann eleven conditions
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(trace(b, 0, {EventType::ConditionApplied}).size(), 11u);
  EXPECT_EQ(b.state().members[0].conditions.size(), 11u);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  for (const Action& a : b.decision().options) EXPECT_NE(a.kind, ActionKind::Skill);  // Inked, Taunted
  submit_ok(b, Action::attack(0));
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(b.state().turn, 2u);
  EXPECT_EQ(b.state().members[0].conditions.size(), 11u);
  for (const ConditionSlot& cs : b.state().members[0].conditions) EXPECT_EQ(cs.turns, 1);
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  submit_ok(b, Action::attack(0));  // the hexer hexes again: each condition amended, none twice
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(b.state().members[0].conditions.size(), 11u);
  for (const ConditionSlot& cs : b.state().members[0].conditions) EXPECT_EQ(cs.turns, 2);
}

TEST(PartyEnemyPhase, DefeatAtOnceWhenNoMemberStands) {
  Battle b = start("crusher");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  for (int i = 0; i < 3; ++i) {  // one hit on each member, each with its block decision
    ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
    EXPECT_EQ(b.decision().who,
              (Decider{Decider::Kind::Actor, b.state().formation[static_cast<std::size_t>(i)]}));
    submit_ok(b, Action::block(BlockLevel::SuperBlock));
  }
  EXPECT_EQ(b.phase(), Phase::Defeat);
  EXPECT_EQ(trace(b, 0, {EventType::EnemyActed}), (Trace{"enemy#0 crush"}));  // the poker never acts
  EXPECT_EQ(trace(b, 0, {EventType::PhaseChanged}).back(), "phase EnemyPhase->Defeat");
  EXPECT_EQ(trace(b, 0, {EventType::BattleEnded}), (Trace{"end defeat"}));
  EXPECT_EQ(trace(b, 0, {EventType::Blocked}).size(), 3u);
}

// --- first strike -----------------------------------------------------------------------------

TEST(PartyFirstStrike, OnlyTheFirstEnemyActsAndCountersDoNotAdvance) {
  Battle b = start("first_strike");
  ASSERT_EQ(b.phase(), Phase::FirstStrike);
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  submit_ok(b, Action::block(BlockLevel::Block));
  EXPECT_EQ(trace(b, 0, kFlow),
            (Trace{"phase BattleStart->FirstStrike", "enemy#0 poke", "phase FirstStrike->TurnEnd",
                   "phase TurnEnd->PlayerPhase", "turn 0", "select ann"}));
  EXPECT_EQ(b.state().turn, 0u);
  for (const MemberState& m : b.state().members) EXPECT_EQ(m.cantmove, 0);
  for (const EnemyState& e : b.state().enemies) EXPECT_EQ(e.cantmove, 0);  // 1 - moves
  EXPECT_EQ(trace(b, 0, {EventType::Blocked}).size(), 1u);
}

// --- ends -------------------------------------------------------------------------------------

TEST(PartyEnds, FleeSucceedsOrCostsEveryMemberItsTurn) {
  Battle ok = start("sure_flee");
  submit_ok(ok, Action::flee());
  EXPECT_EQ(ok.phase(), Phase::Fled);
  EXPECT_TRUE(ok.is_battle_over());
  EXPECT_EQ(trace(ok, 0, {EventType::Fled, EventType::BattleEnded}), (Trace{"flee success", "end fled"}));

  Battle fail = start("never_flee");
  submit_ok(fail, Action::flee());
  EXPECT_EQ(trace(fail, 0, {EventType::Fled}), (Trace{"flee failure"}));
  EXPECT_EQ(fail.phase(), Phase::EnemyPhase);  // nobody left to act: the enemies' turn
  ASSERT_EQ(fail.decision_kind(), DecisionKind::Block);
}

TEST(PartyEnds, VictoryWhenTheLastEnemyAndItsReservesFall) {
  Battle b = start("reserves");
  EXPECT_EQ(b.state().enemies.size(), 1u);
  EXPECT_EQ(b.state().reserves.size(), 1u);  // the hive's own reserve waits for an emptied slot
  submit_ok(b, Action::attack(0));           // ann: 2 damage, the hive falls, the weakling joins
  EXPECT_EQ(trace(b, 0, {EventType::ActorDown, EventType::ReserveJoined}),
            (Trace{"down enemy#0", "join enemy#1 weakling"}));
  ASSERT_EQ(b.state().enemies.size(), 1u);
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(b.phase(), Phase::Victory);
  EXPECT_TRUE(b.won());
  EXPECT_EQ(trace(b, 0, {EventType::PhaseChanged}).back(), "phase TurnEnd->Victory");
}

TEST(PartyEnds, TheTurnLimitEndsInDefeat) {
  Battle b = start("short");
  while (b.status() == Status::AwaitingDecision) submit_ok(b, Action::do_nothing());
  EXPECT_EQ(b.phase(), Phase::Defeat);
  EXPECT_EQ(b.state().turn, 3u);
}

// --- refusals change nothing ------------------------------------------------------------------

struct Snapshot {
  std::uint64_t hash;
  std::size_t events;
  std::size_t actions;
  explicit Snapshot(const Battle& b)
      : hash(b.state_hash()), events(b.events().log().size()), actions(b.actions().size()) {}
  bool operator==(const Snapshot&) const = default;
};

void expect_refused(Battle& b, const Action& a, RefusalReason reason, std::string_view words) {
  const Snapshot before(b);
  const BattleState state = b.state();
  auto r = b.submit(a);
  ASSERT_FALSE(r.ok()) << action_to_json(a).dump();
  EXPECT_EQ(r.error().reason, reason) << r.error().message;
  EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(action_kind_name(a.kind)), std::string::npos) << r.error().message;
  EXPECT_TRUE(Snapshot(b) == before);
  EXPECT_TRUE(b.state() == state);
}

TEST(PartyRefusals, ASkillWhileInked) {
  Battle b = start("trio");
  give(b, member_actor(0), "inked", 3);
  expect_refused(b, Action::skill(0, 0), RefusalReason::SkillsBanned, "Inked");
  for (const Action& a : b.decision().options) EXPECT_NE(a.kind, ActionKind::Skill);
}

TEST(PartyRefusals, AnItemWhileSticky) {
  Battle b = start("trio");
  give(b, member_actor(0), "sticky", 3);
  expect_refused(b, Action::item(0, 0), RefusalReason::ItemsBanned, "Sticky");
  for (const Action& a : b.decision().options) EXPECT_NE(a.kind, ActionKind::Item);
}

TEST(PartyRefusals, TauntedBansSkillsItemsAndRelay) {
  Battle b = start("trio");
  give(b, member_actor(0), "taunted", 2);
  expect_refused(b, Action::skill(0, 0), RefusalReason::SkillsBanned, "Taunted");
  expect_refused(b, Action::item(0, 0), RefusalReason::ItemsBanned, "Taunted");
  expect_refused(b, Action::relay(1), RefusalReason::RelayNotAllowed, "Taunted");
}

TEST(PartyRefusals, RelayToAStoppedMember) {
  Battle b = start("trio");
  give(b, member_actor(1), "sleep", 2);
  expect_refused(b, Action::relay(1), RefusalReason::RelayNotAllowed, "cannot receive");
  give(b, member_actor(2), "sturdy", 2);
  expect_refused(b, Action::relay(2), RefusalReason::RelayNotAllowed, "cannot receive");
  expect_refused(b, Action::relay(0), RefusalReason::RelayNotAllowed, "relayer");
}

// BF: Player UI/Confirmation handling/SelectPlayer lists what keeps a member from receiving a relay,
// and Flipped is not among it: a flipped member may receive.
TEST(PartyRefusals, AFlippedMemberMayReceiveARelayAndOneAtTheLowestCounterMayNot) {
  Battle b = start("trio");
  give(b, member_actor(1), "flipped", 2);
  Battle::Access::of(b).s.members[2].cantmove = kMinCounter;
  const std::vector<Action> options = b.decision().options;
  EXPECT_NE(std::find(options.begin(), options.end(), Action::relay(1)), options.end());
  EXPECT_EQ(std::find(options.begin(), options.end(), Action::relay(2)), options.end());
  expect_refused(b, Action::relay(2), RefusalReason::RelayNotAllowed, "cannot receive");
  submit_ok(b, Action::relay(1));
  EXPECT_EQ(b.state().members[1].cantmove, -1);
}

// BF: Player UI/Confirmation handling/BaseAction: the switch key works only while the whole party is
// free or one member alone is alive.
TEST(PartyRefusals, TheOneMemberLeftMaySwapAfterTheOthersActed) {
  Battle b = start("trio");
  submit_ok(b, Action::attack(0));  // ann acts: counter 1
  ASSERT_FALSE(detail::all_party_free(b.state()));
  Battle::Access x = Battle::Access::of(b);
  x.s.members[0].hp = 0;
  x.s.members[2].hp = 0;
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  const std::vector<Action> options = b.decision().options;
  EXPECT_NE(std::find(options.begin(), options.end(), Action::swap()), options.end());
  submit_ok(b, Action::swap());
}

TEST(PartyRefusals, SwapWhileSomeoneIsNotFree) {
  Battle b = start("trio");
  submit_ok(b, Action::attack(0));
  expect_refused(b, Action::swap(), RefusalReason::SwapNotAllowed, "whole party must be free");
}

TEST(PartyRefusals, SwapsStopOnceEveryMemberHasBeenAtTheFront) {
  // Swap resets the count of Deselects: without a bound of its own, Swap and Deselect could go on
  // forever without an action. With three members, two Swaps in a row, Deselects between them.
  Battle b = start("trio");
  const auto formation = b.state().formation;
  submit_ok(b, Action::swap());
  submit_ok(b, Action::deselect());
  submit_ok(b, Action::swap());
  EXPECT_EQ(b.state().swaps, 2u);
  EXPECT_NE(b.state().formation, formation);
  expect_refused(b, Action::swap(), RefusalReason::SwapNotAllowed, "every member has been at the front");
  for (const Action& a : b.decision().options) EXPECT_NE(a.kind, ActionKind::Swap);
  std::string why;
  EXPECT_TRUE(check_invariants(b, &why)) << why;
  // An action starts the count again.
  submit_ok(b, Action::do_nothing());
  EXPECT_EQ(b.state().swaps, 0u);
  // A random bot that only swaps and deselects while it may reaches an action in bounded steps.
  Battle loop = start("trio");
  int free_moves = 0;
  while (free_moves < 100) {
    const auto options = loop.decision().options;
    const auto free_move = std::find_if(options.begin(), options.end(), [](const Action& a) {
      return a.kind == ActionKind::Swap || a.kind == ActionKind::Deselect;
    });
    if (free_move == options.end()) break;
    submit_ok(loop, *free_move);
    ++free_moves;
  }
  EXPECT_LT(free_moves, 100);
}

TEST(PartyRefusals, OtherIllegalActions) {
  Battle b = start("no_flee");
  expect_refused(b, Action::flee(), RefusalReason::FleeNotAllowed, "cannot be fled");
  expect_refused(b, Action::attack(3), RefusalReason::InvalidTarget, "not an enemy slot");
  expect_refused(b, Action::skill(9, 0), RefusalReason::InvalidOption, "no skill 9");
  expect_refused(b, Action::skill(1, -1), RefusalReason::InvalidTarget, "not a member");
  expect_refused(b, Action::item(0, 5), RefusalReason::InvalidTarget, "not a member");
  Battle::Access::of(b).s.tp = 0;
  expect_refused(b, Action::skill(0, 0), RefusalReason::CannotPay, "costs 1 TP");
  Battle::Access::of(b).s.members[0].hp = 3;
  expect_refused(b, Action::skill(2, 0), RefusalReason::CannotPay, "costs 3 HP");
  Battle::Access::of(b).s.items[0].count = 0;
  expect_refused(b, Action::item(0, 0), RefusalReason::NoItemsLeft, "no Snack left");
  expect_refused(b, Action::block(BlockLevel::Block), RefusalReason::NotYourDecision, "no hit");
  expect_refused(b, Action::companion_pass(), RefusalReason::NotYourDecision, "companion");
  Battle flyer = start("flyer");
  submit_ok(flyer, Action::do_nothing());  // ann (reach any) passes; bob's attack reaches the ground only
  expect_refused(flyer, Action::attack(0), RefusalReason::InvalidTarget, "flying");
}

// A ground skill on every enemy leaves the flying ones out, and is not offered when every enemy
// flies.
TEST(PartyRefusals, AGroundSkillOnEveryEnemyReachesOnlyTheGround) {
  Battle b = start("sweep");  // bat, dummy, bat: only the dummy stands on the ground
  const auto options = b.decision().options;
  EXPECT_NE(std::find(options.begin(), options.end(), Action::skill(0, -1)), options.end());
  EXPECT_EQ(action_label(b, Action::skill(0, -1)), "Dan: Sweep (1 TP) on every enemy on the ground");
  submit_ok(b, Action::skill(0, -1));  // 2, +1 at the front
  EXPECT_EQ(trace(b, 0, {EventType::Damaged}), (Trace{"damage enemy#1 3"}));
  EXPECT_EQ(b.state().enemies[0].hp, 5);
  EXPECT_EQ(b.state().enemies[2].hp, 5);

  Battle bats = start("sweep_bats");
  for (const Action& a : bats.decision().options) EXPECT_NE(a.kind, ActionKind::Skill);
  expect_refused(bats, Action::skill(0, -1), RefusalReason::InvalidTarget, "out of reach");
}

TEST(PartyRefusals, ActionsOutsideABattle) {
  Battle b(test::rules_pack());
  auto r = b.submit(Action::do_nothing());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, RefusalReason::NoBattle);
  Battle over = start("sure_flee");
  submit_ok(over, Action::flee());
  expect_refused(over, Action::do_nothing(), RefusalReason::BattleOver, "over");
}

// --- the shape ----------------------------------------------------------------------------------

TEST(PartyBattle, EveryOptionIsAcceptedAndEveryDecisionHasOptions) {
  Battle b = start("helpers", 7);
  for (int step = 0; step < 200 && b.status() == Status::AwaitingDecision; ++step) {
    const Decision d = b.decision();
    ASSERT_FALSE(d.options.empty());
    for (const Action& a : d.options) {
      Battle copy = b;
      auto r = copy.submit(a);
      EXPECT_TRUE(r.ok()) << action_to_json(a).dump() << ": " << (r.ok() ? "" : r.error().message);
    }
    submit_ok(b, d.options[static_cast<std::size_t>(step) % d.options.size()]);
    std::string why;
    ASSERT_TRUE(check_invariants(b, &why)) << why;
  }
}

// Listing asks the rules without their texts (Battle::refuses_member_action), submit asks them with
// their texts (check_member_action): one set of rules, so an action is listed exactly when submit
// takes it. Every candidate of every kind, with targets and indices in and out of range, at each of
// the first 40 decisions of one battle of every encounter of the bundled pack and of six of the
// rules pack.
TEST(PartyBattle, AnActionIsListedExactlyWhenSubmitTakesIt) {
  std::vector<Action> candidates;
  for (std::int8_t t = -1; t < 6; ++t) {
    candidates.push_back(Action::attack(t));
    candidates.push_back(Action::relay(t));
    candidates.push_back(Action::companion_attack(t));
    candidates.push_back(Action::companion_special(t));
    for (std::uint8_t i = 0; i < 5; ++i) {
      candidates.push_back(Action::skill(i, t));
      candidates.push_back(Action::item(i, t));
    }
  }
  for (const Action& a : {Action::do_nothing(), Action::flee(), Action::swap(), Action::deselect(),
                          Action::companion_pass(), Action::block(BlockLevel::None),
                          Action::block(BlockLevel::Block), Action::block(BlockLevel::SuperBlock)})
    candidates.push_back(a);
  std::vector<std::pair<std::shared_ptr<const Catalog>, std::string>> battles;
  for (const EncounterDef& e : test::meadow_pack()->encounters)
    battles.emplace_back(test::meadow_pack(), e.id);
  for (const char* id : {"trio", "sweep", "sweep_bats", "flyer", "no_flee", "helpers"})
    battles.emplace_back(test::rules_pack(), id);
  std::size_t decisions = 0;
  for (const auto& [catalog, encounter] : battles) {
    Battle b = start(encounter, 5, catalog);
    for (std::size_t step = 0; step < 40 && b.status() == Status::AwaitingDecision; ++step, ++decisions) {
      const std::vector<Action> options = b.decision().options;
      ASSERT_FALSE(options.empty()) << encounter;
      std::size_t listed = 0;
      for (const Action& a : candidates) {
        const bool offered = std::find(options.begin(), options.end(), a) != options.end();
        Battle copy = b;
        const auto r = copy.submit(a);
        EXPECT_EQ(r.ok(), offered) << encounter << ", decision " << step << ": " << action_to_json(a).dump()
                                   << (r.ok() ? "" : " refused: " + r.error().message);
        listed += offered ? 1 : 0;
      }
      EXPECT_EQ(listed, options.size()) << encounter << ": an option outside the candidates";
      submit_ok(b, options[(step * 7) % options.size()]);
    }
  }
  EXPECT_GT(decisions, 100u);
}

TEST(PartyBattle, ACopyIsAnIndependentCloneWithTheSameHash) {
  Battle a = start("pet_pair", 3);
  for (int i = 0; i < 3; ++i) submit_ok(a, Action::do_nothing());
  Battle b = a;
  EXPECT_EQ(a.state_hash(), b.state_hash());
  EXPECT_TRUE(a.state() == b.state());
  const std::uint64_t before = a.state_hash();
  submit_ok(b, Action::companion_attack(1));
  EXPECT_EQ(a.state_hash(), before);
  EXPECT_NE(b.state_hash(), before);
  submit_ok(a, Action::companion_attack(1));
  EXPECT_EQ(a.state_hash(), b.state_hash());
  EXPECT_EQ(a.events().log(), b.events().log());
}

TEST(PartyBattle, SameSeedSameActionsSameBattle) {
  Battle a = start("pet_pair", 11), b = start("pet_pair", 11);
  for (int i = 0; i < 60 && a.status() == Status::AwaitingDecision; ++i) {
    const auto opts = a.decision().options;
    submit_ok(a, opts[static_cast<std::size_t>(i * 7) % opts.size()]);
    submit_ok(b, opts[static_cast<std::size_t>(i * 7) % opts.size()]);
    ASSERT_EQ(a.state_hash(), b.state_hash());
  }
  EXPECT_EQ(a.events().log(), b.events().log());
  EXPECT_EQ(a.actions(), b.actions());
  Battle c = start("pet_pair", 12);
  EXPECT_NE(c.state_hash(), start("pet_pair", 11).state_hash());
}

TEST(PartyBattle, StartingAMissingEncounterIsAnError) {
  Battle b(test::rules_pack());
  auto r = b.start_battle("no_such_encounter", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no_such_encounter"), std::string::npos);
  EXPECT_FALSE(b.started());
}

TEST(PartyBattle, StartingWhileABattleIsInPlayIsAnErrorAndChangesNothing) {
  // As in the deckbuilder and clash: a host cannot lose a battle in play to a second start.
  Battle b = test::start("pet_pair", 3);
  ASSERT_EQ(b.status(), Status::AwaitingDecision);
  const Battle before = b;
  auto r = b.start_battle("pet_pair", 4);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "a battle is already in progress; it must end before another starts");
  EXPECT_TRUE(b == before);
  // Once it is over, the same battle starts again: the battle a fresh one starts.
  std::vector<Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    test::submit_ok(b, options.front());
  }
  ASSERT_TRUE(b.is_battle_over());
  ASSERT_TRUE(b.start_battle("pet_pair", 4).ok());
  EXPECT_EQ(b.state_hash(), test::start("pet_pair", 4).state_hash());
}

}  // namespace
}  // namespace battlecore::party
