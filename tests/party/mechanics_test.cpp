// The party rules primitives: the damage pipeline step by step, each condition's tick and
// expiry, delayed projectiles, the order of the turn end's checks, and the inaction failsafe.

#include <gtest/gtest.h>

#include "party/mechanics.hpp"
#include "party/phases.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

using detail::DamageStep;
using detail::DamageTrace;
using detail::Hit;
using test::give;
using test::start;
using test::submit_ok;
using test::trace;
using Trace = std::vector<std::string>;

std::vector<std::pair<std::string, std::int32_t>> steps(const DamageTrace& t) {
  std::vector<std::pair<std::string, std::int32_t>> out;
  for (const auto& r : t) out.emplace_back(std::string(detail::damage_step_name(r.step)), r.value);
  return out;
}

ActorRef enemy(const Battle& b, std::size_t slot) { return enemy_actor(b.state().enemies[slot].uid); }

// --- the damage pipeline ----------------------------------------------------------------------

TEST(PartyDamagePipeline, EveryStepInOrderForAMemberHittingAnEnemy) {
  Battle b = start("armored");  // the armored enemy: defense 2
  Battle::Access x = Battle::Access::of(b);
  x.s.members[0].tired = 1;
  x.s.members[0].charge = 2;
  give(b, member_actor(0), "attack_up", 2);
  const ActorRef target = enemy(b, 0);
  give(b, target, "freeze", 1);
  give(b, target, "numb", 2);
  give(b, target, "defense_up", 2);
  give(b, target, "defense_down", 2);
  DamageTrace t;
  const std::int32_t lost = detail::resolve_hit(x, Hit{member_actor(0), target, 2}, &t);
  EXPECT_EQ(steps(t), (std::vector<std::pair<std::string, std::int32_t>>{
                          {"base", 2},         // ann's attack
                          {"block", 2},        // the enemy cannot block
                          {"exhaustion", 1},   // -1 per action taken this turn
                          {"front_bonus", 2},  // ann leads the formation
                          {"charge", 4},       // +2 charge
                          {"thaw", 5},         // a frozen target takes +1 and thaws
                          {"numb", 4},         // a numb target takes -1
                          {"infliction", 4},   // nothing inflicted
                          {"defense", 2},      // -2 defense
                          {"defense_up", 1},
                          {"defense_down", 2},
                          {"attack_up", 3},
                          {"attack_down", 3},
                          {"sturdy", 3},
                          {"clamp", 3}}));
  EXPECT_EQ(lost, 3);
  EXPECT_EQ(b.state().enemies[0].hp, 96);
  EXPECT_FALSE(detail::has_effect(b.catalog(), b.state().enemies[0].conditions, ConditionEffect::Freeze));
}

// BF: Damage pipeline/CalculateBaseDamage: the thaw is a step before the infliction, so a freezing
// hit on a frozen target leaves it frozen.
TEST(PartyDamagePipeline, AFreezingHitOnAFrozenTargetLeavesItFrozen) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  const ActorRef target = enemy(b, 0);
  give(b, target, "freeze", 1);
  DamageTrace t;
  const Hit freezing{member_actor(2), target, 4, BlockLevel::None, true, test::cond("freeze"), 3};
  EXPECT_EQ(detail::resolve_hit(x, freezing, &t), 5);
  EXPECT_EQ(steps(t)[5], (std::pair<std::string, std::int32_t>{"thaw", 5}));  // the thaw's +1 all the same
  const Conditions& conds = b.state().enemies[0].conditions;
  ASSERT_EQ(conds.size(), 1u);
  EXPECT_EQ(conds[0], (ConditionSlot{test::cond("freeze"), 3}));  // the new Freeze, not the old one
  // Without an infliction the hit thaws.
  EXPECT_EQ(detail::resolve_hit(x, Hit{member_actor(2), target, 4, BlockLevel::None, true}), 5);
  EXPECT_TRUE(b.state().enemies[0].conditions.empty());
}

TEST(PartyDamagePipeline, AnAttackThroughSubmitRunsTheSamePipeline) {
  Battle b = start("armored");
  give(b, enemy(b, 0), "defense_down", 2);
  submit_ok(b, Action::attack(0));  // 2 + 1 front bonus - 2 defense + 1 defense down
  EXPECT_EQ(b.state().enemies[0].hp, 97);
  EXPECT_EQ(b.state().members[0].tired, 1);
  submit_ok(b, Action::attack(0));  // bob: 3 - 2 + 1, not in front
  EXPECT_EQ(b.state().enemies[0].hp, 95);
}

TEST(PartyDamagePipeline, BlocksAndTheAtLeastOneClampOnMembers) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  const ActorRef foe = enemy(b, 0);
  // Bob has defense 1: an unblocked 1-damage hit still deals 1; a blocked one may deal 0.
  EXPECT_EQ(detail::resolve_hit(x, Hit{foe, member_actor(1), 1, BlockLevel::None}), 1);
  EXPECT_EQ(detail::resolve_hit(x, Hit{foe, member_actor(1), 1, BlockLevel::Block}), 0);
  EXPECT_EQ(detail::resolve_hit(x, Hit{foe, member_actor(0), 5, BlockLevel::Block}), 4);
  EXPECT_EQ(detail::resolve_hit(x, Hit{foe, member_actor(0), 5, BlockLevel::SuperBlock}), 3);
  // No attacker (a projectile): no minimum.
  EXPECT_EQ(detail::resolve_hit(x, Hit{kNobody, member_actor(1), 1}), 0);
  EXPECT_EQ(b.state().members[1].hp, 19);
  EXPECT_EQ(b.state().members[0].hp, 13);
}

TEST(PartyDamagePipeline, FlippedOrPiercedTargetsLoseNoDefense) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  const ActorRef foe = enemy(b, 0);
  EXPECT_EQ(detail::resolve_hit(x, Hit{member_actor(2), foe, 4}), 2);
  EXPECT_EQ(detail::resolve_hit(x, Hit{member_actor(2), foe, 4, BlockLevel::None, true}), 4);
  // The infliction step comes before the defense step: the flipping hit already ignores it.
  DamageTrace t;
  EXPECT_EQ(detail::resolve_hit(
                x, Hit{member_actor(2), foe, 4, BlockLevel::None, false, test::cond("flipped"), 1}, &t),
            4);
  EXPECT_EQ(steps(t)[8], (std::pair<std::string, std::int32_t>{"defense", 4}));
  EXPECT_EQ(detail::effect_turns(b.catalog(), b.state().enemies[0].conditions, ConditionEffect::Flipped), 1);
}

TEST(PartyDamagePipeline, AFlipKnocksAFlyingEnemyDownInstead) {
  Battle b = start("flyer");
  Battle::Access x = Battle::Access::of(b);
  ASSERT_EQ(b.state().enemies[0].position, Position::Flying);
  detail::resolve_hit(
      x, Hit{member_actor(0), enemy(b, 0), 1, BlockLevel::None, false, test::cond("flipped"), 1});
  EXPECT_EQ(b.state().enemies[0].position, Position::Ground);
  EXPECT_TRUE(b.state().enemies[0].conditions.empty());
}

// BF: Damage pipeline/CalculateBaseDamage: the flying enemy's drop is its own pipeline step, not a
// condition: no resistance roll (the check of BF: Actors states/Conditions is for conditions) and
// Sturdy, which blocks new conditions, does not stop it.
TEST(PartyDamagePipeline, AFlyingEnemyDropsWithNoRollEvenWhenSturdy) {
  Battle b = start("flyer");
  Battle::Access x = Battle::Access::of(b);
  give(b, enemy(b, 0), "sturdy", 2);
  const auto effects = x.s.rng[Stream::Effects];
  detail::resolve_hit(
      x, Hit{member_actor(0), enemy(b, 0), 1, BlockLevel::None, false, test::cond("flipped"), 1});
  EXPECT_EQ(b.state().enemies[0].position, Position::Ground);
  EXPECT_TRUE(x.s.rng[Stream::Effects] == effects);  // no roll drawn
}

TEST(PartyDamagePipeline, ShieldTakesNothingSturdyTakesThreeLess) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  give(b, member_actor(0), "shield", 1);
  DamageTrace t;
  EXPECT_EQ(detail::resolve_hit(x, Hit{enemy(b, 0), member_actor(0), 9}, &t), 0);
  EXPECT_EQ(steps(t), (std::vector<std::pair<std::string, std::int32_t>>{{"shield", 0}}));
  give(b, member_actor(2), "sturdy", 2);
  EXPECT_EQ(detail::resolve_hit(x, Hit{enemy(b, 0), member_actor(2), 5}), 2);
}

TEST(PartyDamagePipeline, AHitWakesTheSleeping) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  give(b, member_actor(2), "sleep", 2);
  detail::resolve_hit(x, Hit{enemy(b, 0), member_actor(2), 2});
  EXPECT_TRUE(b.state().members[2].conditions.empty());
}

TEST(PartyDamagePipeline, AHitThatPutsItsTargetToSleepDoesNotWakeIt) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  const Hit lull{enemy(b, 0), member_actor(0), 2, BlockLevel::None, false, test::cond("sleep"), 2};
  EXPECT_EQ(detail::resolve_hit(x, lull), 2);
  ASSERT_EQ(b.state().members[0].conditions.size(), 1u);
  EXPECT_EQ(b.state().members[0].conditions[0], (ConditionSlot{test::cond("sleep"), 2}));
}

// BF: Damage pipeline/CalculateBaseDamage: a Sleep hit lasts 2 turns, 3 on a member already asleep;
// a Sleep hit on a sleeper puts it to sleep again, it does not wake it. A hit whose Sleep is resisted
// wakes it as any other hit.
TEST(PartyDamagePipeline, ASleepHitOnASleeperLeavesItAsleep) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  give(b, member_actor(0), "sleep", 1);
  const Hit lull{enemy(b, 0), member_actor(0), 2, BlockLevel::None, false, test::cond("sleep"), 2};
  EXPECT_EQ(detail::resolve_hit(x, lull), 2);
  ASSERT_EQ(b.state().members[0].conditions.size(), 1u);
  EXPECT_EQ(b.state().members[0].conditions[0], (ConditionSlot{test::cond("sleep"), 2}));  // renewed
  EXPECT_EQ(b.state().members[0].cantmove, 0);  // not woken: no counter change
  // Cat resists Sleep entirely: the Sleep hit inflicts nothing and wakes it.
  give(b, member_actor(2), "sleep", 2);
  const Hit lull_cat{enemy(b, 0), member_actor(2), 2, BlockLevel::None, false, test::cond("sleep"), 2};
  EXPECT_EQ(detail::resolve_hit(x, lull_cat), 2);
  EXPECT_TRUE(b.state().members[2].conditions.empty());
}

TEST(PartyDamagePipeline, BlockingShortensInkAndSticky) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  detail::resolve_hit(x,
                      Hit{enemy(b, 0), member_actor(0), 1, BlockLevel::Block, false, test::cond("inked"), 3});
  detail::resolve_hit(x,
                      Hit{enemy(b, 0), member_actor(1), 1, BlockLevel::None, false, test::cond("sticky"), 3});
  EXPECT_EQ(b.state().members[0].conditions[0].turns, 2);
  EXPECT_EQ(b.state().members[1].conditions[0].turns, 3);
}

// --- conditions: ticks and expiry -------------------------------------------------------------

/// Runs AdvanceTurnEntity on member `m` and returns the events it emitted.
Trace advance_member(Battle& b, std::size_t m) {
  Battle::Access x = Battle::Access::of(b);
  const std::size_t mark = b.events().log().size();
  detail::advance_turn_member(x, m);
  return trace(b, mark);
}

Trace advance_enemy(Battle& b, std::size_t slot) {
  Battle::Access x = Battle::Access::of(b);
  const std::size_t mark = b.events().log().size();
  detail::advance_turn_enemy(x, slot);
  return trace(b, mark);
}

TEST(PartyConditions, AMemberWhoseStopAHitEndsWaitsForTheTurnAdvance) {
  Battle b = start("armored");
  Battle::Access x = Battle::Access::of(b);
  x.s.members[1].cantmove = 0;  // held at 0 by a turn advance while stopped
  x.s.members[2].cantmove = 0;
  give(b, member_actor(1), "freeze", 2);
  give(b, member_actor(2), "freeze", 2);
  give(b, member_actor(2), "numb", 2);
  detail::resolve_hit(x, Hit{enemy(b, 0), member_actor(1), 1});
  detail::resolve_hit(x, Hit{enemy(b, 0), member_actor(2), 1});
  EXPECT_EQ(b.state().members[1].cantmove, 1);  // thawed: one action after the turn advance
  EXPECT_EQ(b.state().members[2].cantmove, 0);  // still numb: still stopped
  ASSERT_EQ(b.state().members[2].conditions.size(), 1u);
  EXPECT_EQ(advance_member(b, 1), Trace{});
  EXPECT_EQ(b.state().members[1].cantmove, 0);
}

TEST(PartyConditions, poison) {
  Battle b = start("trio");
  give(b, member_actor(1), "poison", 2);
  EXPECT_EQ(advance_member(b, 1), (Trace{"damage bob 1"}));  // clamp(ceil(20 / 10) - 1, 1, 3)
  EXPECT_EQ(advance_member(b, 1), (Trace{"damage bob 1", "expire poison bob"}));
  Battle::Access::of(b).s.members[2].hp = 1;
  give(b, member_actor(2), "poison", 2);
  EXPECT_EQ(advance_member(b, 2), Trace{});  // never lethal
  EXPECT_EQ(b.state().members[2].hp, 1);
  give(b, enemy(b, 0), "poison", 2);
  EXPECT_EQ(advance_enemy(b, 0), (Trace{"damage enemy#0 2"}));  // enemies: at most 2
}

TEST(PartyConditions, fire) {
  Battle b = start("trio");
  give(b, member_actor(0), "fire", 1);
  EXPECT_EQ(advance_member(b, 0),
            (Trace{"damage ann 2", "expire fire ann"}));  // clamp(ceil(20 / 7.5) - 1, 2, 3)
  give(b, enemy(b, 0), "fire", 2);
  EXPECT_EQ(advance_enemy(b, 0), (Trace{"damage enemy#0 3"}));
}

TEST(PartyConditions, sleep) {
  Battle b = start("trio");
  Battle::Access::of(b).s.members[1].hp = 10;
  give(b, member_actor(1), "sleep", 2);
  EXPECT_EQ(advance_member(b, 1), (Trace{"heal bob +2"}));  // ceil(20 / 10)
  EXPECT_EQ(b.state().members[1].cantmove, 0);              // asleep: waits at 0
  EXPECT_EQ(advance_member(b, 1), (Trace{"heal bob +2", "expire sleep bob"}));
  EXPECT_EQ(b.state().members[1].cantmove, 0);  // woke: counter 1, then the turn advance
  Battle::Access::of(b).s.enemies[0].hp = 50;
  give(b, enemy(b, 0), "sleep", 2);
  EXPECT_EQ(advance_enemy(b, 0), (Trace{"heal enemy#0 +4"}));  // enemies heal at most 4
  EXPECT_EQ(b.state().enemies[0].cantmove, 1);                 // a stopped enemy waits at 1
}

TEST(PartyConditions, freeze) {
  Battle b = start("trio");
  give(b, member_actor(2), "freeze", 2);
  EXPECT_TRUE(detail::is_stopped(b.catalog(), b.state().members[2].conditions, 20));
  EXPECT_FALSE(detail::is_free_member(b.catalog(), b.state().members[2]));
  EXPECT_EQ(advance_member(b, 2), Trace{});
  EXPECT_EQ(b.state().members[2].conditions[0].turns, 1);
  EXPECT_EQ(advance_member(b, 2), (Trace{"expire freeze cat"}));
  EXPECT_EQ(b.state().members[2].cantmove, 0);
}

TEST(PartyConditions, numb) {
  Battle b = start("trio");
  give(b, member_actor(2), "numb", 1);
  EXPECT_TRUE(detail::is_stopped(b.catalog(), b.state().members[2].conditions, 20));
  EXPECT_TRUE(detail::is_stopped_lite(b.catalog(), b.state().members[2].conditions, 20));
  EXPECT_EQ(advance_member(b, 2), (Trace{"expire numb cat"}));
}

TEST(PartyConditions, flipped) {
  Battle b = start("trio");
  const ActorRef foe = enemy(b, 0);
  give(b, foe, "flipped", 2);
  EXPECT_TRUE(detail::is_stopped(b.catalog(), b.state().enemies[0].conditions, 99));
  EXPECT_FALSE(detail::is_stopped_lite(b.catalog(), b.state().enemies[0].conditions, 99));
  EXPECT_EQ(advance_enemy(b, 0), Trace{});
  EXPECT_EQ(b.state().enemies[0].conditions[0].turns, 1);
  EXPECT_EQ(advance_enemy(b, 0), Trace{});  // an enemy's Flipped stays at 1 until it acts
  EXPECT_EQ(b.state().enemies[0].conditions[0].turns, 1);
  give(b, member_actor(0), "flipped", 1);
  EXPECT_EQ(advance_member(b, 0), (Trace{"expire flipped ann"}));
}

// A member cannot be selected while Flipped: it waits at 0 like the other stops, and one
// action follows when Flipped runs out.
TEST(PartyConditions, a_flipped_member_banks_no_actions) {
  Battle b = start("trio");
  Battle::Access::of(b).s.members[1].cantmove = 1;  // bob has acted
  give(b, member_actor(1), "flipped", 12);
  for (int turn = 0; turn < 11; ++turn) {
    EXPECT_EQ(advance_member(b, 1), Trace{});
    EXPECT_EQ(b.state().members[1].cantmove, 0);
    std::string why;
    EXPECT_TRUE(check_invariants(b, &why)) << why;
  }
  EXPECT_EQ(advance_member(b, 1), (Trace{"expire flipped bob"}));
  EXPECT_EQ(b.state().members[1].cantmove, 0);
}

TEST(PartyConditions, every_condition_of_the_pack_fits_on_one_actor) {
  Battle b = start("trio");
  const Catalog& c = b.catalog();
  ASSERT_GT(c.conditions.size(), 8u);
  // Sturdy keeps out what is harmful: the harmful ones first.
  std::vector<ConditionId> order;
  for (bool harmful : {true, false})
    for (std::size_t i = 0; i < c.conditions.size(); ++i)
      if (detail::is_harmful(c.conditions[i].effect) == harmful) order.push_back(static_cast<ConditionId>(i));
  for (const ConditionId id : order) give(b, enemy(b, 0), c.conditions[id].id.c_str(), 3);
  EXPECT_EQ(b.state().enemies[0].conditions.size(), c.conditions.size());
  advance_enemy(b, 0);  // overcharged's follow-up amends the attack_down already there
  EXPECT_EQ(b.state().enemies[0].conditions.size(), c.conditions.size());
}

TEST(PartyConditions, an_actor_that_is_down_takes_none) {
  Battle b = start("trio");
  Battle::Access x = Battle::Access::of(b);
  x.s.members[2].hp = 0;
  const Rng effects = b.state().rng[Stream::Effects];
  const std::size_t mark = b.events().log().size();
  EXPECT_FALSE(detail::apply_condition(x, kNobody, member_actor(2), test::cond("poison"), 2, true));
  EXPECT_FALSE(detail::apply_condition(x, kNobody, member_actor(2), test::cond("attack_up"), 2, false));
  EXPECT_TRUE(b.state().members[2].conditions.empty());
  EXPECT_EQ(b.state().rng[Stream::Effects], effects);  // nothing to roll for
  EXPECT_EQ(trace(b, mark), Trace{});
}

TEST(PartyConditions, attack_up_and_its_chain) {
  Battle b = start("trio");
  give(b, member_actor(0), "attack_up", 1);
  EXPECT_EQ(advance_member(b, 0), (Trace{"expire attack_up ann"}));
  give(b, member_actor(0), "overcharged", 1);
  EXPECT_EQ(advance_member(b, 0), (Trace{"expire overcharged ann", "apply attack_down ann 2"}));
  EXPECT_EQ(advance_member(b, 0), Trace{});
  EXPECT_EQ(advance_member(b, 0), (Trace{"expire attack_down ann"}));
}

TEST(PartyConditions, defense_up_and_down_shield_taunted_inked_sticky_expire) {
  for (const char* id :
       {"defense_up", "defense_down", "shield", "taunted", "inked", "sticky", "sturdy", "attack_down"}) {
    SCOPED_TRACE(id);
    Battle b = start("trio");
    give(b, member_actor(1), id, 2);
    EXPECT_EQ(advance_member(b, 1), Trace{});
    EXPECT_EQ(advance_member(b, 1), (Trace{std::string("expire ") + id + " bob"}));
    EXPECT_TRUE(b.state().members[1].conditions.empty());
  }
}

TEST(PartyConditions, gradual_hp_and_gradual_tp) {
  Battle b = start("trio");
  Battle::Access x = Battle::Access::of(b);
  x.s.members[0].hp = 10;
  x.s.tp = 3;
  give(b, member_actor(0), "gradual_hp", 1);
  give(b, member_actor(0), "gradual_tp", 2);
  EXPECT_EQ(advance_member(b, 0), (Trace{"heal ann +2", "tp +2", "expire gradual_hp ann"}));
  EXPECT_EQ(b.state().members[0].hp, 12);
  EXPECT_EQ(b.state().tp, 5);
}

TEST(PartyConditions, sturdy_keeps_harmful_conditions_out) {
  Battle b = start("trio");
  give(b, member_actor(0), "sturdy", 2);
  const std::size_t mark = b.events().log().size();
  give(b, member_actor(0), "poison", 2);
  give(b, member_actor(0), "attack_up", 2);
  EXPECT_EQ(trace(b, mark), (Trace{"resist poison ann", "apply attack_up ann 2"}));
}

TEST(PartyConditions, no_duplicates_the_longer_duration_stays) {
  Battle b = start("trio");
  give(b, member_actor(0), "poison", 2);
  give(b, member_actor(0), "poison", 1);
  give(b, member_actor(0), "poison", 3);
  ASSERT_EQ(b.state().members[0].conditions.size(), 1u);
  EXPECT_EQ(b.state().members[0].conditions[0].turns, 3);
}

TEST(PartyConditions, resistance_is_rolled_on_the_effects_stream) {
  Battle b = start("trio");
  Battle::Access x = Battle::Access::of(b);
  const Rng effects = b.state().rng[Stream::Effects], ai = b.state().rng[Stream::Ai];
  EXPECT_TRUE(
      detail::apply_condition(x, kNobody, member_actor(0), test::cond("sleep"), 1, true));  // resist 0
  EXPECT_NE(b.state().rng[Stream::Effects], effects);
  const std::size_t mark = b.events().log().size();
  for (int i = 0; i < 20; ++i)  // cat resists sleep 100%: always resisted
    EXPECT_FALSE(detail::apply_condition(x, kNobody, member_actor(2), test::cond("sleep"), 1, true));
  EXPECT_EQ(trace(b, mark).front(), "resist sleep cat");
  EXPECT_TRUE(b.state().members[2].conditions.empty());
  EXPECT_EQ(b.state().rng[Stream::Ai], ai);  // other streams untouched
}

// --- projectiles, the turn end's checks and the failsafe --------------------------------------

TEST(PartyTurnEnd, ADelayedProjectileLandsAfterItsTurns) {
  Battle b = start("lobber");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.state().projectiles.size(), 1u);   // thrown at the end of turn 0's enemy phase...
  EXPECT_EQ(b.state().projectiles[0].turns, 1);  // ...and one turn end has passed
  const std::size_t mark = b.events().log().size();
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  const Trace landed = trace(b, mark, {EventType::Damaged});
  ASSERT_FALSE(landed.empty());
  EXPECT_EQ(landed[0].substr(landed[0].size() - 2), " 4");
  for (const MemberState& m : b.state().members) EXPECT_LE(m.cantmove, 0);
}

/// `lobber` after turn 0: its projectile (4 damage) is in flight with one turn end to go and
/// Ann, at the front, is selected on turn 1.
Battle lobber_on_turn_one() {
  Battle b = start("lobber");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  EXPECT_EQ(b.state().turn, 1u);
  EXPECT_EQ(b.state().current, 0);
  EXPECT_EQ(b.state().projectiles.size(), 1u);
  if (!b.state().projectiles.empty()) {
    EXPECT_EQ(b.state().projectiles[0].turns, 1);
  }
  return b;
}

TEST(PartyTurnEnd, NoProjectileLandsOnceTheLastEnemyHasFallen) {
  Battle b = lobber_on_turn_one();
  Battle::Access::of(b).s.enemies[0].hp = 1;
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));  // the last enemy falls in the player phase
  EXPECT_EQ(b.phase(), Phase::Victory);
  EXPECT_EQ(trace(b, mark, {EventType::Damaged, EventType::ActorDown}),
            (Trace{"damage enemy#0 1", "down enemy#0"}));
  for (const MemberState& m : b.state().members) EXPECT_EQ(m.hp, 20);  // the projectile never hit
  EXPECT_EQ(b.state().projectiles.size(), 1u);                         // nor counted down
}

TEST(PartyTurnEnd, AProjectileCannotDownThePartyOnTheWinningTurn) {
  Battle b = lobber_on_turn_one();
  Battle::Access x = Battle::Access::of(b);
  x.s.enemies[0].hp = 1;
  x.s.members[0].hp = 4;  // Ann alone stands, in the projectile's slot, with its damage in HP
  x.s.members[1].hp = 0;
  x.s.members[2].hp = 0;
  ASSERT_EQ(b.state().projectiles.size(), 1u);
  x.s.projectiles[0].slot = 0;
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(b.phase(), Phase::Victory);
  EXPECT_EQ(b.state().members[0].hp, 4);
  EXPECT_EQ(detail::alive_member_count(b.state()), 1u);  // not a victory with the party down
  EXPECT_EQ(trace(b, mark, {EventType::ActorDown, EventType::BattleEnded}),
            (Trace{"down enemy#0", "end victory"}));
}

TEST(PartyTurnEnd, AProjectileDowningTheLastMemberIsADefeatBeforeTheEnemiesAdvance) {
  Battle b = lobber_on_turn_one();
  Battle::Access x = Battle::Access::of(b);
  x.s.members[0].hp = 4;
  x.s.members[1].hp = 0;
  x.s.members[2].hp = 0;
  ASSERT_EQ(b.state().projectiles.size(), 1u);
  x.s.projectiles[0].slot = 0;
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::do_nothing());  // the enemy throws again; the first projectile lands
  EXPECT_EQ(b.phase(), Phase::Defeat);
  EXPECT_EQ(trace(b, mark,
                  {EventType::EnemyActed, EventType::Damaged, EventType::ActorDown, EventType::PhaseChanged,
                   EventType::TurnAdvanced, EventType::BattleEnded}),
            (Trace{"phase PlayerPhase->EnemyPhase", "enemy#0 lob", "phase EnemyPhase->TurnEnd",
                   "damage ann 4", "down ann", "phase TurnEnd->Defeat", "end defeat"}));
  EXPECT_EQ(b.state().turn, 1u);  // stopped before the turn counter
}

TEST(PartyTurnEnd, DefeatIsCheckedBeforeVictory) {
  // Play never reaches a turn end with the party down and no enemy left (a member stands on
  // entry and projectiles land only while an enemy is left), so the handler is run directly.
  Battle b = start("trio");
  Battle::Access x = Battle::Access::of(b);
  for (MemberState& m : x.s.members) m.hp = 0;
  x.s.enemies.clear();
  ASSERT_TRUE(detail::no_enemy_left(b.state()));
  const std::size_t mark = b.events().log().size();
  const std::optional<Trigger> next = detail::run_turn_end(x);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(*next, Trigger::PartyDefeated);  // not AllEnemiesGone
  EXPECT_EQ(b.state().turn, 0u);
  EXPECT_EQ(trace(b, mark, {EventType::TurnAdvanced}), Trace{});
}

TEST(PartyTurnEnd, TheTurnCounterDoesNotRiseOnTheWinningTurn) {
  Battle b = start("trio");
  submit_ok(b, Action::attack(0));
  submit_ok(b, Action::do_nothing());
  submit_ok(b, Action::do_nothing());
  ASSERT_EQ(b.state().turn, 1u);
  Battle::Access::of(b).s.enemies[0].hp = 1;
  const std::size_t mark = b.events().log().size();
  submit_ok(b, Action::attack(0));
  EXPECT_EQ(b.phase(), Phase::Victory);
  EXPECT_EQ(b.state().turn, 1u);
  EXPECT_EQ(trace(b, mark, {EventType::PhaseChanged, EventType::TurnAdvanced}),
            (Trace{"phase PlayerPhase->TurnEnd", "phase TurnEnd->Victory"}));
}

TEST(PartyTurnEnd, TheInactionFailsafeFreesStoppedMembersAfterFiveTurns) {
  Battle b = start("freezer");
  for (int i = 0; i < 3; ++i) submit_ok(b, Action::do_nothing());
  // Frozen every turn by the enemy: nobody acts until the failsafe clears them.
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(trace(b, 0, {EventType::InactionFailsafe}), (Trace{"failsafe"}));
  EXPECT_EQ(b.state().turn, 5u);
  for (const MemberState& m : b.state().members) {
    EXPECT_TRUE(m.conditions.empty());
    EXPECT_EQ(m.cantmove, 0);
  }
  EXPECT_EQ(trace(b, 0, {EventType::EnemyActed}).size(), 5u);
  EXPECT_EQ(b.state().current, 0);
}

// The inaction failsafe of BF: Battle flow/Action coroutines/AdvanceMainTurn counts every main turn
// end in which nobody acted, and the first strike's half turn ends with AdvanceMainTurn
// (BF: Battle flow/firststrike system) with no member having acted.
TEST(PartyTurnEnd, TheFirstStrikeCountsAsATurnWithoutAction) {
  Battle b = start("first_strike");
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  submit_ok(b, Action::block(BlockLevel::Block));
  ASSERT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(b.state().turn, 0u);
  EXPECT_EQ(b.state().no_action_turns, 1);
}

TEST(PartyTurnEnd, ActingResetsTheInactionCount) {
  Battle b = start("trio");
  for (int turn = 0; turn < 8; ++turn) {
    submit_ok(b, Action::attack(0));
    submit_ok(b, Action::do_nothing());
    submit_ok(b, Action::do_nothing());
    EXPECT_EQ(b.state().no_action_turns, 0);
  }
  EXPECT_TRUE(trace(b, 0, {EventType::InactionFailsafe}).empty());
}

}  // namespace
}  // namespace battlecore::party
