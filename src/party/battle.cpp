#include "battlecore/party/battle.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "party/mechanics.hpp"
#include "party/phases.hpp"

namespace battlecore::party {

using namespace detail;

std::string_view decision_kind_name(DecisionKind k) {
  switch (k) {
    case DecisionKind::None:
      return "none";
    case DecisionKind::MemberTurn:
      return "member_turn";
    case DecisionKind::Companion:
      return "companion";
    case DecisionKind::Block:
      return "block";
  }
  return "?";
}

Battle::Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options)
    : catalog_(std::move(catalog)), options_(options) {
  BATTLECORE_ENSURE(catalog_ != nullptr, "a battle needs a catalog{}", "");
  events_.set_log_enabled(options_.event_log);
  driver_.set_record_history(options_.record_history);
}

// --- starting -----------------------------------------------------------------------------

Result<Status> Battle::start_battle(std::string_view encounter_id, std::uint64_t seed) {
  const auto id = catalog_->find_encounter(encounter_id);
  if (!id) return Error{fmt::format("no encounter '{}' in pack '{}'", encounter_id, catalog_->pack.id)};
  return start_battle(*id, seed);
}

Result<Status> Battle::start_battle(EncounterId encounter, std::uint64_t seed) {
  if (encounter >= catalog_->encounters.size())
    return Error{
        fmt::format("no encounter with index {} (the pack has {})", encounter, catalog_->encounters.size())};
  if (started_ && !is_battle_over())
    return Error{"a battle is already in progress; it must end before another starts"};
  driver_.reset();
  events_.clear_log();
  actions_.clear();
  state_ = BattleState{};
  state_.seed = seed;
  state_.encounter = encounter;
  state_.rng = RngStreams(seed);
  started_ = true;
  Access x = Access::of(*this);
  pending_trigger_ = *run_phase(x, Phase::BattleStart, true);
  has_pending_trigger_ = true;
  return advance();
}

// --- the driver ---------------------------------------------------------------------------

Status Battle::advance() {
  Access x = Access::of(*this);
  for (;;) {
    bool entering = false;
    if (has_pending_trigger_) {
      has_pending_trigger_ = false;
      const Phase from = driver_.current();
      const Trigger trigger = pending_trigger_;
      const Phase to = driver_.fire(trigger, state_.turn);
      events_.emit_with(EventType::PhaseChanged, [&] {
        return Event{.type = EventType::PhaseChanged,
                     .subject = static_cast<std::uint16_t>(from),
                     .value = static_cast<std::uint16_t>(to),
                     .amount = static_cast<std::int32_t>(trigger)};
      });
      entering = true;
    } else if (decision_kind() != DecisionKind::None || is_battle_over()) {
      break;
    }
    if (const std::optional<Trigger> next = run_phase(x, driver_.current(), entering)) {
      pending_trigger_ = *next;
      has_pending_trigger_ = true;
    } else {
      BATTLECORE_ENSURE(decision_kind() != DecisionKind::None || is_battle_over(),
                        "phase {} stopped without a decision", phase_name(driver_.current()));
    }
  }
  return status();
}

bool Battle::is_battle_over() const {
  return started_ && PhaseMachine<Machine>::is_terminal(driver_.current());
}

DecisionKind Battle::decision_kind() const {
  if (!started_ || is_battle_over() || has_pending_trigger_) return DecisionKind::None;
  const Phase p = phase();
  if ((p == Phase::EnemyPhase || p == Phase::FirstStrike) && state_.enemy_action.awaiting_block)
    return DecisionKind::Block;
  if (p == Phase::PlayerPhase) {
    if (state_.current >= 0) return DecisionKind::MemberTurn;
    if (state_.companion_turn) return DecisionKind::Companion;
  }
  return DecisionKind::None;
}

Status Battle::status() const {
  return decision_kind() != DecisionKind::None ? Status::AwaitingDecision : Status::Finished;
}

// --- decisions ----------------------------------------------------------------------------

namespace {

Rejection refuse(RefusalReason reason, const Action& a, Phase phase, std::string why) {
  return Rejection{
      reason, fmt::format("{} refused in phase {}: {}", action_kind_name(a.kind), phase_name(phase), why)};
}

/// What is wrong with `target` for a skill or item with `kind` and `reach` (None: nothing).
enum class TargetFault : std::uint8_t {
  None,
  NoEnemySlot,
  EnemyDown,
  OutOfReach,
  NoMember,
  MemberDown,
  TakesNoTarget,
  NoneInReach,
  UnknownKind
};

TargetFault target_fault(const BattleState& s, TargetKind kind, Reach reach, std::int8_t target) {
  switch (kind) {
    case TargetKind::Enemy: {
      if (target < 0 || static_cast<std::size_t>(target) >= s.enemies.size()) return TargetFault::NoEnemySlot;
      const EnemyState& e = s.enemies[static_cast<std::size_t>(target)];
      if (!e.alive()) return TargetFault::EnemyDown;
      return reaches(reach, e) ? TargetFault::None : TargetFault::OutOfReach;
    }
    case TargetKind::Ally:
      if (target < 0 || static_cast<std::size_t>(target) >= s.members.size()) return TargetFault::NoMember;
      return s.members[static_cast<std::size_t>(target)].alive() ? TargetFault::None
                                                                 : TargetFault::MemberDown;
    case TargetKind::AllEnemies:
      if (target != -1) return TargetFault::TakesNoTarget;
      return any_enemy_in_reach(s, reach) ? TargetFault::None : TargetFault::NoneInReach;
    case TargetKind::Self:
    case TargetKind::Party:
      return target != -1 ? TargetFault::TakesNoTarget : TargetFault::None;
  }
  return TargetFault::UnknownKind;
}

/// What a refusal for `fault` (not None) says of `target`.
std::string target_fault_text(TargetFault fault, const BattleState& s, std::int8_t target) {
  switch (fault) {
    case TargetFault::NoEnemySlot:
      return fmt::format("target {} is not an enemy slot (there are {})", target, s.enemies.size());
    case TargetFault::EnemyDown:
      return fmt::format("enemy {} is down", target);
    case TargetFault::OutOfReach:
      return fmt::format("enemy {} is flying, out of reach", target);
    case TargetFault::NoMember:
      return fmt::format("target {} is not a member (there are {})", target, s.members.size());
    case TargetFault::MemberDown:
      return fmt::format("member {} is down", target);
    case TargetFault::TakesNoTarget:
      return fmt::format("this takes no target (-1), got {}", target);
    case TargetFault::NoneInReach:
      return "every enemy is flying, out of reach";
    case TargetFault::None:
    case TargetFault::UnknownKind:
      break;
  }
  return "unknown target kind";
}

}  // namespace

// The rules are here once; what a refusal costs is the caller's. Listing the options asks only
// whether an action is refused: its `refused` never calls `why`, so no text is formatted.
template <class R, class Refused>
R Battle::judge_member_action(const Action& a, R allowed, Refused&& refused) const {
  const BattleState& s = state_;
  const Catalog& c = *catalog_;
  const auto who = static_cast<std::size_t>(s.current);
  const MemberState& m = s.members[who];
  const MemberDef& def = c.members[m.def];
  const auto bad_target = [&](TargetFault fault) {
    return refused(RefusalReason::InvalidTarget, [&] { return target_fault_text(fault, s, a.target); });
  };
  switch (a.kind) {
    case ActionKind::Attack:
      if (const TargetFault f = target_fault(s, TargetKind::Enemy, def.reach, a.target);
          f != TargetFault::None)
        return bad_target(f);
      return allowed;
    case ActionKind::Skill: {
      if (a.index >= def.skills.size())
        return refused(RefusalReason::InvalidOption, [&] {
          return fmt::format("{} has no skill {} (it has {})", def.name, a.index, def.skills.size());
        });
      const SkillDef& skill = c.skills[def.skills[a.index]];
      if (skills_banned(c, m))
        return refused(RefusalReason::SkillsBanned,
                       [&] { return fmt::format("{} is Inked or Taunted: no skills", def.name); });
      if (!can_pay(s, m, skill))
        return refused(RefusalReason::CannotPay, [&] {
          return skill.cost_in_hp
                     ? fmt::format("{} costs {} HP and {} has {}", skill.name, skill.cost, def.name, m.hp)
                     : fmt::format("{} costs {} TP and the party has {}", skill.name, skill.cost, s.tp);
        });
      if (const TargetFault f = target_fault(s, skill.target, skill.reach, a.target); f != TargetFault::None)
        return bad_target(f);
      return allowed;
    }
    case ActionKind::Item: {
      if (a.index >= s.items.size())
        return refused(RefusalReason::InvalidOption, [&] {
          return fmt::format("no item slot {} (the party has {})", a.index, s.items.size());
        });
      if (items_banned(c, m))
        return refused(RefusalReason::ItemsBanned,
                       [&] { return fmt::format("{} is Sticky or Taunted: no items", def.name); });
      const ItemSlot& slot = s.items[a.index];
      if (slot.count == 0)
        return refused(RefusalReason::NoItemsLeft,
                       [&] { return fmt::format("no {} left", c.items[slot.item].name); });
      if (const TargetFault f = target_fault(s, c.items[slot.item].target, Reach::Any, a.target);
          f != TargetFault::None)
        return bad_target(f);
      return allowed;
    }
    case ActionKind::Relay:
      if (!may_relay(s, c, who))
        return refused(RefusalReason::RelayNotAllowed, [&] {
          return s.members.size() <= 1 ? std::string("the party has one member")
                 : m.has_passed        ? fmt::format("{} already relayed this turn", def.name)
                                       : fmt::format("{} is Taunted", def.name);
        });
      if (!may_receive_relay(s, c, who, static_cast<std::size_t>(std::max<std::int8_t>(a.target, 0))) ||
          a.target < 0)
        return refused(RefusalReason::RelayNotAllowed, [&] {
          return fmt::format(
              "member {} cannot receive a relay (down, stopped, Taunted, Sturdy, or the relayer)", a.target);
        });
      return allowed;
    case ActionKind::DoNothing:
      return allowed;
    case ActionKind::Flee:
      if (!c.encounters[s.encounter].can_flee)
        return refused(RefusalReason::FleeNotAllowed,
                       [] { return std::string("this encounter cannot be fled"); });
      return allowed;
    case ActionKind::Swap:
      if (s.members.size() < 2)
        return refused(RefusalReason::SwapNotAllowed, [] { return std::string("the party has one member"); });
      if (!swap_allowed_now(s))
        return refused(RefusalReason::SwapNotAllowed, [] {
          return std::string(
              "someone has already acted this turn: the whole party must be free (or one member alive)");
        });
      if (!swaps_left(s))
        return refused(RefusalReason::SwapNotAllowed, [&] {
          return fmt::format(
              "every member has been at the front since the last action ({} swaps in a row): choose an "
              "action",
              s.swaps);
        });
      return allowed;
    case ActionKind::Deselect:
      if (selectable_member_count(s, c) <= 1)
        return refused(RefusalReason::DeselectNotAllowed, [] {
          return std::string("no other member can be selected (only one is free and not stopped)");
        });
      if (!may_deselect(s, c))
        return refused(RefusalReason::DeselectNotAllowed, [] {
          return std::string(
              "every member that can be selected has been offered since the last action: choose an action");
        });
      return allowed;
    default:
      return refused(RefusalReason::NotYourDecision,
                     [] { return std::string("a member's turn is pending"); });
  }
}

std::optional<Rejection> Battle::check_member_action(const Action& a) const {
  return judge_member_action(a, std::optional<Rejection>{}, [&](RefusalReason reason, const auto& why) {
    return std::optional<Rejection>(refuse(reason, a, phase(), why()));
  });
}

bool Battle::refuses_member_action(const Action& a) const {
  return judge_member_action(a, false, [](RefusalReason, const auto&) { return true; });
}

void Battle::legal_actions(std::vector<Action>& out) const {
  out.clear();
  const BattleState& s = state_;
  const Catalog& c = *catalog_;
  const auto enemy_count = static_cast<std::int8_t>(s.enemies.size());
  switch (decision_kind()) {
    case DecisionKind::None:
      return;
    case DecisionKind::Block:
      for (BlockLevel b : {BlockLevel::None, BlockLevel::Block, BlockLevel::SuperBlock})
        out.push_back(Action::block(b));
      return;
    case DecisionKind::Companion: {
      const CompanionDef& comp = c.companions[*c.parties[c.encounters[s.encounter].party].companion];
      for (std::int8_t e = 0; e < enemy_count; ++e) out.push_back(Action::companion_attack(e));
      if (s.tp >= comp.special_cost)
        for (std::int8_t e = 0; e < enemy_count; ++e) out.push_back(Action::companion_special(e));
      out.push_back(Action::companion_pass());
      return;
    }
    case DecisionKind::MemberTurn:
      break;
  }
  auto add = [&](const Action& a) {
    if (!refuses_member_action(a)) out.push_back(a);
  };
  const MemberDef& def = c.members[s.members[static_cast<std::size_t>(s.current)].def];
  // The targets a skill or item could take: standing enemies in reach, standing members, or none
  // (every enemy at once only when one is in reach).
  auto targets = [&](TargetKind kind, Reach reach, auto&& each) {
    if (kind == TargetKind::Enemy) {
      for (std::int8_t e = 0; e < enemy_count; ++e) {
        const EnemyState& enemy = s.enemies[static_cast<std::size_t>(e)];
        if (enemy.alive() && reaches(reach, enemy)) each(e);
      }
    } else if (kind == TargetKind::AllEnemies) {
      if (any_enemy_in_reach(s, reach)) each(std::int8_t{-1});
    } else if (kind == TargetKind::Ally) {
      for (std::uint8_t i : s.formation)
        if (s.members[i].alive()) each(static_cast<std::int8_t>(i));
    } else {
      each(std::int8_t{-1});
    }
  };
  // Cheap rule checks first, so that few candidates are judged in vain; every option still
  // passes judge_member_action, the one place the rules are written (refuses_member_action asks
  // it without the refusal's text).
  const auto who = static_cast<std::size_t>(s.current);
  const MemberState& m = s.members[who];
  targets(TargetKind::Enemy, def.reach, [&](std::int8_t e) { add(Action::attack(e)); });
  if (!skills_banned(c, m))
    for (std::size_t i = 0; i < def.skills.size(); ++i) {
      const SkillDef& skill = c.skills[def.skills[i]];
      if (can_pay(s, m, skill))
        targets(skill.target, skill.reach,
                [&](std::int8_t t) { add(Action::skill(static_cast<std::uint8_t>(i), t)); });
    }
  if (!items_banned(c, m))
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (s.items[i].count > 0)
        targets(c.items[s.items[i].item].target, Reach::Any,
                [&](std::int8_t t) { add(Action::item(static_cast<std::uint8_t>(i), t)); });
  if (may_relay(s, c, who))
    for (std::uint8_t r : s.formation)
      if (may_receive_relay(s, c, who, r)) add(Action::relay(static_cast<std::int8_t>(r)));
  add(Action::do_nothing());
  if (c.encounters[s.encounter].can_flee) add(Action::flee());
  if (s.members.size() > 1 && swap_allowed_now(s) && swaps_left(s)) add(Action::swap());
  if (may_deselect(s, c)) add(Action::deselect());
}

Decision Battle::decision() const {
  Decision d;
  d.kind = decision_kind();
  switch (d.kind) {
    case DecisionKind::None:
      break;
    case DecisionKind::MemberTurn:
      d.who = Decider{Decider::Kind::Actor, state_.current};
      break;
    case DecisionKind::Companion:
      d.who = Decider{Decider::Kind::Player, 0};
      break;
    case DecisionKind::Block: {
      const EnemyActionCursor& cur = state_.enemy_action;
      d.who = Decider{Decider::Kind::Actor, cur.targets[cur.target_pos]};
      break;
    }
  }
  legal_actions(d.options);
  return d;
}

// --- submitting ---------------------------------------------------------------------------

Result<Status, Rejection> Battle::submit(const Action& action) {
  if (!started_) return refuse(RefusalReason::NoBattle, action, phase(), "no battle was started");
  if (is_battle_over()) return refuse(RefusalReason::BattleOver, action, phase(), "the battle is over");
  const DecisionKind kind = decision_kind();
  switch (action.kind) {
    case ActionKind::Block:
      if (kind != DecisionKind::Block)
        return refuse(RefusalReason::NotYourDecision, action, phase(),
                      fmt::format("no hit is waiting for a block (pending: {})", decision_kind_name(kind)));
      return apply_block(action);
    case ActionKind::CompanionAttack:
    case ActionKind::CompanionSpecial:
    case ActionKind::CompanionPass:
      if (kind != DecisionKind::Companion)
        return refuse(RefusalReason::NotYourDecision, action, phase(),
                      fmt::format("it is not the companion's turn (pending: {})", decision_kind_name(kind)));
      return apply_companion_action(action);
    default:
      if (kind != DecisionKind::MemberTurn)
        return refuse(RefusalReason::NotYourDecision, action, phase(),
                      fmt::format("no member is selected (pending: {})", decision_kind_name(kind)));
      if (auto refused = check_member_action(action)) return *refused;
      return apply_member_action(action);
  }
}

Result<Status, Rejection> Battle::apply_block(const Action& action) {
  if (action.index > 2)
    return refuse(
        RefusalReason::InvalidOption, action, phase(),
        fmt::format("block level {} does not exist (0 none, 1 block, 2 super block)", action.index));
  if (options_.record_history) actions_.push_back(canonical_action(action));
  Access x = Access::of(*this);
  EnemyActionCursor& cur = state_.enemy_action;
  const auto level = static_cast<BlockLevel>(action.index);
  const EnemyState& e = state_.enemies[*enemy_slot(state_, cur.enemy_uid)];
  const Op& op = catalog_->enemies[e.def].move_list[cur.move].effects[cur.effect_pos];
  const ActorRef target = member_actor(static_cast<std::size_t>(cur.targets[cur.target_pos]));
  if (level != BlockLevel::None)
    events_.emit_with(EventType::Blocked, [&] {
      return Event{.type = EventType::Blocked, .target = target, .amount = static_cast<std::int32_t>(level)};
    });
  resolve_hit(x,
              Hit{enemy_actor(cur.enemy_uid), target, op.amount, level, op.pierce, op.condition, op.turns});
  cur.awaiting_block = false;
  ++cur.hit;
  return advance();
}

Result<Status, Rejection> Battle::apply_companion_action(const Action& action) {
  const CompanionDef& comp =
      catalog_->companions[*catalog_->parties[catalog_->encounters[state_.encounter].party].companion];
  if (action.kind != ActionKind::CompanionPass) {
    if (const TargetFault f = target_fault(state_, TargetKind::Enemy, Reach::Any, action.target);
        f != TargetFault::None)
      return refuse(RefusalReason::InvalidTarget, action, phase(),
                    target_fault_text(f, state_, action.target));
    if (action.kind == ActionKind::CompanionSpecial && state_.tp < comp.special_cost)
      return refuse(RefusalReason::CannotPay, action, phase(),
                    fmt::format("{} costs {} TP and the party has {}", comp.special_name, comp.special_cost,
                                state_.tp));
  }
  if (options_.record_history) actions_.push_back(canonical_action(action));
  Access x = Access::of(*this);
  state_.companion_turn = false;
  state_.companion_acted = true;
  // The target as an event actor (the enemy's battle-wide number), as for every other action.
  const ActorRef target = action.kind == ActionKind::CompanionPass
                              ? kNobody
                              : enemy_actor(state_.enemies[static_cast<std::size_t>(action.target)].uid);
  events_.emit_with(EventType::ActionTaken, [&] {
    return Event{.type = EventType::ActionTaken,
                 .source = kCompanionActor,
                 .target = target,
                 .subject = static_cast<std::uint16_t>(action.kind)};
  });
  if (action.kind == ActionKind::CompanionAttack) {
    resolve_hit(x, Hit{kCompanionActor, target, comp.attack});
  } else if (action.kind == ActionKind::CompanionSpecial) {
    state_.tp -= comp.special_cost;
    run_player_ops(x, kCompanionActor, comp.special, TargetKind::Enemy, Reach::Any, action.target);
  }
  remove_fallen_enemies(x);
  return advance();
}

Result<Status, Rejection> Battle::apply_member_action(const Action& a) {
  if (options_.record_history) actions_.push_back(canonical_action(a));
  if (a.kind != ActionKind::Deselect) state_.deselects = 0;
  if (a.kind != ActionKind::Deselect && a.kind != ActionKind::Swap) state_.swaps = 0;
  Access x = Access::of(*this);
  const auto who = static_cast<std::size_t>(state_.current);
  const ActorRef actor = member_actor(who);
  const MemberDef& def = catalog_->members[state_.members[who].def];
  std::uint16_t what = 0;
  if (a.kind == ActionKind::Skill) what = def.skills[a.index];
  if (a.kind == ActionKind::Item) what = state_.items[a.index].item;
  ActorRef target_actor = kNobody;
  if ((a.kind == ActionKind::Attack ||
       (a.kind == ActionKind::Skill && catalog_->skills[what].target == TargetKind::Enemy)) &&
      a.target >= 0)
    target_actor = enemy_actor(state_.enemies[static_cast<std::size_t>(a.target)].uid);
  else if (a.target >= 0 && a.kind != ActionKind::Item)
    target_actor = member_actor(static_cast<std::size_t>(a.target));
  else if (a.kind == ActionKind::Item && a.target >= 0)
    target_actor = catalog_->items[what].target == TargetKind::Enemy
                       ? enemy_actor(state_.enemies[static_cast<std::size_t>(a.target)].uid)
                       : member_actor(static_cast<std::size_t>(a.target));
  events_.emit_with(EventType::ActionTaken, [&] {
    return Event{.type = EventType::ActionTaken,
                 .source = actor,
                 .target = target_actor,
                 .subject = static_cast<std::uint16_t>(a.kind),
                 .value = what};
  });
  // DoAction's post-action steps for an attack, a skill or an item.
  auto finish_action = [&](bool tires, bool spent_charge) {
    MemberState& m = state_.members[who];
    if (tires) m.tired = static_cast<std::int8_t>(m.tired + 1);
    if (spent_charge) m.charge = 0;
    state_.acted_this_turn = true;
    remove_fallen_enemies(x);
    end_player_turn(x, who);
  };
  auto deals_damage = [](const std::vector<Op>& ops) {
    return std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::Damage; });
  };
  switch (a.kind) {
    case ActionKind::Attack:
      resolve_hit(x, Hit{actor, target_actor, def.attack});
      finish_action(true, true);
      break;
    case ActionKind::Skill: {
      const SkillDef& skill = catalog_->skills[what];
      if (skill.cost_in_hp)
        state_.members[who].hp -= skill.cost;
      else
        state_.tp -= skill.cost;
      run_player_ops(x, actor, skill.effects, skill.target, skill.reach, a.target);
      finish_action(skill.tires, deals_damage(skill.effects));
      break;
    }
    case ActionKind::Item: {
      const ItemDef& item = catalog_->items[what];
      state_.items[a.index].count = static_cast<std::uint8_t>(state_.items[a.index].count - 1);
      run_player_ops(x, actor, item.effects, item.target, Reach::Any, a.target);
      finish_action(false, deals_damage(item.effects));
      break;
    }
    case ActionKind::Relay: {
      MemberState& receiver = state_.members[static_cast<std::size_t>(a.target)];
      state_.members[who].has_passed = true;
      receiver.cantmove = static_cast<std::int8_t>(receiver.cantmove - 1);
      events_.emit_with(EventType::Relayed, [&] {
        return Event{.type = EventType::Relayed, .source = actor, .target = target_actor};
      });
      state_.acted_this_turn = true;
      end_player_turn(x, who);
      break;
    }
    case ActionKind::DoNothing:
      end_player_turn(x, who);
      break;
    case ActionKind::Flee: {
      const std::uint32_t roll = state_.rng[Stream::Dice].below(100);
      const bool success =
          roll < static_cast<std::uint32_t>(catalog_->encounters[state_.encounter].flee_chance);
      events_.emit_with(EventType::Fled, [&] {
        return Event{.type = EventType::Fled, .source = actor, .amount = success ? 1 : 0};
      });
      state_.current = -1;
      if (success) {
        state_.fled = true;
      } else {  // the whole party loses its turn
        for (MemberState& m : state_.members)
          if (m.alive()) m.cantmove = 1;
        reset_select_cycle(x);
      }
      break;
    }
    case ActionKind::Swap: {  // SwitchParty: the formation rotates, the new front is selected
      const std::uint8_t front = state_.formation[0];
      state_.formation.erase_at(0);
      state_.formation.push_back(front);
      ++state_.swaps;
      state_.current = -1;
      reset_select_cycle(x);
      break;
    }
    case ActionKind::Deselect:
      state_.current = -1;
      ++state_.deselects;
      break;
    default:
      break;
  }
  return advance();
}

bool Battle::operator==(const Battle& o) const {
  return (catalog_ == o.catalog_ || catalog_->content_hash == o.catalog_->content_hash) &&
         options_.event_log == o.options_.event_log && options_.record_history == o.options_.record_history &&
         started_ == o.started_ && state_ == o.state_ && driver_ == o.driver_ &&
         events_.log_enabled() == o.events_.log_enabled() && events_.log() == o.events_.log() &&
         actions_ == o.actions_ && has_pending_trigger_ == o.has_pending_trigger_ &&
         (!has_pending_trigger_ || pending_trigger_ == o.pending_trigger_);
}

// --- hashing and invariants ---------------------------------------------------------------

namespace {
struct Hasher {
  std::uint64_t h = 0x84222325cbf29ce4ull;
  void add(std::uint64_t v) { h = splitmix64_mix(h ^ (v + kGolden)); }
  void add_signed(std::int64_t v) { add(static_cast<std::uint64_t>(v)); }
  void add_conditions(const Conditions& conds) {
    add(conds.size());
    for (const ConditionSlot& c : conds)
      add((std::uint64_t{c.condition} << 16) ^ static_cast<std::uint16_t>(c.turns));
  }
};
}  // namespace

std::uint64_t Battle::state_hash() const {
  Hasher h;
  const BattleState& s = state_;
  h.add(static_cast<std::uint64_t>(phase()));
  h.add(driver_.moves());
  h.add(started_);
  h.add(has_pending_trigger_ ? 1u + static_cast<unsigned>(pending_trigger_) : 0u);
  h.add(s.seed);
  for (std::size_t k = 0; k < kStreamCount; ++k)
    for (std::uint64_t w : s.rng.words(static_cast<Stream>(k))) h.add(w);
  h.add(s.encounter);
  h.add(s.turn);
  h.add(s.main_turns);
  h.add_signed(s.tp);
  h.add_signed(s.max_tp);
  h.add(s.members.size());
  for (const MemberState& m : s.members) {
    h.add(m.def);
    h.add_signed(m.hp);
    h.add_signed(m.max_hp);
    h.add_signed(m.cantmove);
    h.add_signed(m.tired);
    h.add_signed(m.charge);
    h.add_signed(m.more_next_turn);
    h.add(m.has_passed);
    h.add_conditions(m.conditions);
  }
  h.add(s.formation.size());
  for (std::uint8_t f : s.formation) h.add(f);
  h.add(s.enemies.size());
  for (const EnemyState& e : s.enemies) {
    h.add(e.def);
    h.add(e.uid);
    h.add_signed(e.hp);
    h.add_signed(e.max_hp);
    h.add_signed(e.cantmove);
    h.add_signed(e.tired);
    h.add_signed(e.charge);
    h.add(static_cast<std::uint64_t>(e.position));
    h.add(e.sequence_pos);
    h.add_conditions(e.conditions);
  }
  h.add(s.reserves.size());
  for (EnemyId r : s.reserves) h.add(r);
  h.add(s.next_uid);
  h.add(s.items.size());
  for (const ItemSlot& i : s.items) h.add((std::uint64_t{i.item} << 8) ^ i.count);
  h.add(s.last_turns.size());
  for (std::int8_t l : s.last_turns) h.add_signed(l);
  h.add_signed(s.current);
  h.add((std::uint64_t{s.companion_turn} << 0) ^ (std::uint64_t{s.companion_acted} << 1) ^
        (std::uint64_t{s.companion_locked} << 2) ^ (std::uint64_t{s.ally_acted} << 3) ^
        (std::uint64_t{s.first_strike} << 4) ^ (std::uint64_t{s.first_strike_acted} << 5) ^
        (std::uint64_t{s.acted_this_turn} << 6) ^ (std::uint64_t{s.fled} << 7));
  h.add(s.no_action_turns);
  h.add(s.deselects ^ (std::uint64_t{s.swaps} << 8));  // with 0 swaps, the hash it had before
  h.add(s.projectiles.size());
  for (const Projectile& p : s.projectiles)
    h.add((std::uint64_t{p.turns} << 24) ^ (std::uint64_t{p.slot} << 16) ^
          static_cast<std::uint16_t>(p.damage));
  const EnemyActionCursor& c = s.enemy_action;
  h.add((std::uint64_t{c.keeps_charge} << 57) ^ (std::uint64_t{c.active} << 56) ^
        (std::uint64_t{c.enemy_uid} << 48) ^ (std::uint64_t{c.move} << 40) ^
        (std::uint64_t{c.targets_enemies} << 32) ^ (std::uint64_t{c.target_pos} << 24) ^
        (std::uint64_t{c.effect_pos} << 16) ^ (std::uint64_t{c.hit} << 8) ^ c.block_roll);
  h.add(c.awaiting_block);
  h.add(c.targets.size());
  for (std::int8_t t : c.targets) h.add_signed(t);
  return h.h;
}

bool check_invariants(const Battle& battle, std::string* why, std::string* where) {
  const BattleState& s = battle.state();
  const Catalog& c = battle.catalog();
  auto fail = [&](std::string at, std::string text) {
    if (why != nullptr) *why = std::move(text);
    if (where != nullptr) *where = std::move(at);
    return false;
  };
  if (!battle.started()) return true;
  if (s.tp < 0 || s.tp > s.max_tp)
    return fail("/state/tp", fmt::format("TP {} outside [0, {}]", s.tp, s.max_tp));
  // The formation lists every member once, front first.
  if (s.formation.size() != s.members.size())
    return fail("/state/formation", fmt::format("expected each of the {} members once, got {} entries",
                                                s.members.size(), s.formation.size()));
  std::array<bool, kMaxMembers> placed{};
  for (std::size_t k = 0; k < s.formation.size(); ++k) {
    const std::size_t f = s.formation[k];
    if (f >= s.members.size() || placed[f])
      return fail(fmt::format("/state/formation/{}", k),
                  f >= s.members.size() ? fmt::format("no member {}", f)
                                        : fmt::format("member {} is already in the formation", f));
    placed[f] = true;
  }
  // Members and enemies alike: HP within the max, the action counter in [-8, 1] (an enemy's in
  // [1 - moves, 1]), exhaustion at least 0, charge in [0, kMaxCharge], conditions with a turn
  // left; a member going down loses its conditions; no fallen enemy holds a slot while a decision
  // waits. The pointer and the name are formatted only for a failure: the sweep checks every step.
  const bool deciding = battle.status() == Status::AwaitingDecision;
  const auto check_actor = [&](const auto& a, bool member, std::size_t i) {
    const auto at = [&](std::string_view field) {
      return fmt::format("/state/{}/{}{}", member ? "members" : "enemies", i, field);
    };
    const auto name = [&] {
      return member ? fmt::format("member '{}'", c.members[s.members[i].def].id)
                    : fmt::format("enemy '{}'", c.enemies[s.enemies[i].def].id);
    };
    if (a.hp < 0 || a.hp > a.max_hp)
      return fail(at("/hp"), fmt::format("{} HP {} outside [0, {}]", name(), a.hp, a.max_hp));
    if (const std::int8_t lowest = member ? kMinCounter : min_enemy_counter(c.enemies[s.enemies[i].def]);
        a.cantmove > 1 || a.cantmove < lowest)
      return fail(at("/cantmove"), fmt::format("{} counter {} outside [{}, 1]", name(), a.cantmove, lowest));
    if (a.tired < 0) return fail(at("/tired"), fmt::format("{} exhaustion {} below 0", name(), a.tired));
    if (a.charge < 0 || a.charge > kMaxCharge)
      return fail(at("/charge"), fmt::format("{} charge {} outside [0, {}]", name(), a.charge, kMaxCharge));
    if (member && !a.alive() && !a.conditions.empty())
      return fail(at("/conditions"), fmt::format("{} is down: expected no conditions", name()));
    if (member && !a.alive() && (a.cantmove != 0 || a.tired != 0 || a.charge != 0))  // CheckDead
      return fail(at(a.cantmove != 0 ? "/cantmove"
                     : a.tired != 0  ? "/tired"
                                     : "/charge"),
                  fmt::format("{} is down: expected counter, exhaustion and charge 0, got {}, {} and {}",
                              name(), a.cantmove, a.tired, a.charge));
    for (std::size_t j = 0; j < a.conditions.size(); ++j)
      if (a.conditions[j].turns <= 0)
        return fail(at(fmt::format("/conditions/{}/turns", j)),
                    fmt::format("{} has condition {} with {} turns", name(),
                                c.conditions[a.conditions[j].condition].id, a.conditions[j].turns));
    if (!member && deciding && !a.alive())  // the fallen leave their slots before the next decision
      return fail(at("/hp"), name() + " is down in a slot while a decision is pending: expected HP above 0");
    return true;
  };
  for (std::size_t i = 0; i < s.members.size(); ++i)
    if (!check_actor(s.members[i], true, i)) return false;
  if (s.enemies.size() > kMaxActiveEnemies) return fail("/state/enemies", "more than 4 active enemies");
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (!check_actor(s.enemies[i], false, i)) return false;
  // The phases end the battle as soon as the field is clear, and the reserves fill the slots the
  // fallen leave: a decision always faces an enemy.
  if (deciding && s.enemies.empty())
    return fail("/state/enemies", "no active enemy while a decision is pending: expected at least one");
  if (battle.decision_kind() == DecisionKind::MemberTurn) {
    const MemberState& m = s.members[static_cast<std::size_t>(s.current)];
    if (!m.alive() || m.cantmove > 0 || is_stopped(c, m.conditions, m.hp))
      return fail("/state/current",
                  fmt::format("member '{}' is down, waiting or stopped: expected a member who can act",
                              c.members[m.def].id));
  }
  // The companion's turn is posed in the player phase, with nobody selected, to a companion of
  // the party that has not acted and is not locked.
  if (s.companion_turn) {
    const PartyDef& party = c.parties[c.encounters[s.encounter].party];
    if (battle.phase() != Phase::PlayerPhase || s.current >= 0 || !party.companion || s.companion_acted ||
        s.companion_locked)
      return fail("/state/companion_turn",
                  "the companion's turn is pending: expected the player phase with nobody selected and a "
                  "companion of the party that has not acted and is not locked");
  }
  // Past the encounter's turn limit the battle is lost at the turn end.
  if (const std::uint32_t limit = c.encounters[s.encounter].turn_limit;
      !battle.is_battle_over() && s.turn > limit)
    return fail("/state/turn", fmt::format("turn {} is past the encounter's turn limit {}", s.turn, limit));
  // The first strike runs in its phase only, and a party that fled has left the battle.
  if (!battle.is_battle_over() && s.first_strike != (battle.phase() == Phase::FirstStrike))
    return fail("/state/first_strike",
                fmt::format("expected {} in phase {}", battle.phase() == Phase::FirstStrike,
                            phase_name(battle.phase())));
  if (s.fled && battle.phase() != Phase::Fled)
    return fail("/state/fled",
                fmt::format("the party fled: expected phase Fled, got {}", phase_name(battle.phase())));
  // An enemy action stops only to wait on a Block, in the enemy phase or the first strike.
  if (s.enemy_action.active && (!s.enemy_action.awaiting_block || (battle.phase() != Phase::EnemyPhase &&
                                                                   battle.phase() != Phase::FirstStrike)))
    return fail("/state/enemy_action/active",
                "an enemy action is in progress: expected it to wait on a Block in the enemy phase or the "
                "first strike");
  // An enemy acts only with an action left: the enemy phase picks one at counter 0 or below, the
  // first strike's enemy has just joined (counter 1 - moves), and nothing raises the counter
  // before EndEnemyTurn ends the action. At 1 the action would leave it at 2, past the bound.
  if (s.enemy_action.active)
    if (const auto slot = enemy_slot(s, s.enemy_action.enemy_uid); slot && s.enemies[*slot].cantmove > 0)
      return fail(fmt::format("/state/enemies/{}/cantmove", *slot),
                  fmt::format("enemy '{}' (number {}) is acting (enemy_action.active) with counter {}: "
                              "expected 0 or below, an action left",
                              c.enemies[s.enemies[*slot].def].id, s.enemy_action.enemy_uid,
                              s.enemies[*slot].cantmove));
  // advance() runs until a decision is posed or the battle is over: a battle that is not over
  // waits on a decision (one waiting on nothing would refuse every action).
  if (!battle.is_battle_over() && battle.decision_kind() == DecisionKind::None) {
    const Phase p = battle.phase();
    return fail(p == Phase::PlayerPhase                             ? "/state/current"
                : p == Phase::EnemyPhase || p == Phase::FirstStrike ? "/state/enemy_action/awaiting_block"
                                                                    : "/phase",
                fmt::format("the battle is not over and no decision is pending in phase {}: expected a "
                            "member's turn, the companion's or a Block",
                            phase_name(p)));
  }
  if (s.no_action_turns >= kInactionFailsafeTurns)
    return fail("/state/no_action_turns", "the inaction failsafe did not fire");
  if (s.deselects > kMaxMembers)
    return fail("/state/deselects", fmt::format("{} deselects in a row", s.deselects));
  if (s.swaps != 0 && std::size_t{s.swaps} >= s.members.size())
    return fail("/state/swaps", fmt::format("{} swaps in a row in a party of {}", s.swaps, s.members.size()));
  return true;
}

}  // namespace battlecore::party
