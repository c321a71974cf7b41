#include "party/mechanics.hpp"

#include <algorithm>

namespace battlecore::party::detail {

namespace {

std::int32_t ceil_div(std::int32_t a, std::int32_t b) { return (a + b - 1) / b; }

}  // namespace

// --- queries ------------------------------------------------------------------------------

const ConditionDef& condition(const Catalog& c, ConditionId id) { return c.conditions[id]; }

std::int32_t effect_turns(const Catalog& c, const Conditions& conds, ConditionEffect effect) {
  for (const ConditionSlot& slot : conds)
    if (c.conditions[slot.condition].effect == effect) return slot.turns;
  return 0;
}

bool has_effect(const Catalog& c, const Conditions& conds, ConditionEffect effect) {
  for (const ConditionSlot& slot : conds)
    if (c.conditions[slot.condition].effect == effect) return true;
  return false;
}

std::int32_t effect_amount(const Catalog& c, const Conditions& conds, ConditionEffect effect) {
  std::int32_t sum = 0;
  for (const ConditionSlot& slot : conds)
    if (c.conditions[slot.condition].effect == effect) sum += c.conditions[slot.condition].amount;
  return sum;
}

bool is_harmful(ConditionEffect e) {
  switch (e) {
    case ConditionEffect::AttackUp:
    case ConditionEffect::DefenseUp:
    case ConditionEffect::Shield:
    case ConditionEffect::Sturdy:
    case ConditionEffect::GradualHp:
    case ConditionEffect::GradualTp:
      return false;
    default:
      return true;
  }
}

std::uint32_t effects_held(const Catalog& c, const Conditions& conds) {
  std::uint32_t held = 0;
  for (const ConditionSlot& slot : conds) held |= effect_bit(c.conditions[slot.condition].effect);
  return held;
}

namespace {
/// The effects that stop a unit in IsStoppedLite (and keep a member from being free).
constexpr std::uint32_t kStopping = effect_bit(ConditionEffect::Freeze) | effect_bit(ConditionEffect::Numb) |
                                    effect_bit(ConditionEffect::Sleep);
/// A member alive, its counter at or below 0 and with none of the effects `barred` (which holds
/// kStopping): is_free_member, or with more effects barred.
bool free_without(const Catalog& c, const MemberState& m, std::uint32_t barred) {
  return m.cantmove <= 0 && m.hp > 0 && (effects_held(c, m.conditions) & barred) == 0;
}
}  // namespace

bool is_stopped_lite(const Catalog& c, const Conditions& conds, std::int32_t hp) {
  return hp <= 0 || (effects_held(c, conds) & kStopping) != 0;
}

bool is_stopped(const Catalog& c, const Conditions& conds, std::int32_t hp) {
  return hp <= 0 || (effects_held(c, conds) & (kStopping | effect_bit(ConditionEffect::Flipped))) != 0;
}

bool is_free_member(const Catalog& c, const MemberState& m) { return free_without(c, m, kStopping); }

std::size_t free_member_count(const BattleState& s, const Catalog& c) {
  std::size_t n = 0;
  for (const MemberState& m : s.members) n += is_free_member(c, m) ? 1u : 0u;
  return n;
}

std::size_t selectable_member_count(const BattleState& s, const Catalog& c) {
  std::size_t n = 0;
  // Free and not stopped: a free member is alive and has none of the stopping effects, so of
  // is_stopped only Flipped is left to ask.
  for (const MemberState& m : s.members)
    n += free_without(c, m, kStopping | effect_bit(ConditionEffect::Flipped)) ? 1u : 0u;
  return n;
}

std::size_t alive_member_count(const BattleState& s) {
  std::size_t n = 0;
  for (const MemberState& m : s.members) n += m.alive() ? 1u : 0u;
  return n;
}

bool all_party_free(const BattleState& s) {
  for (const MemberState& m : s.members)
    if (m.cantmove >= 1) return false;
  return true;
}

bool swap_allowed_now(const BattleState& s) { return all_party_free(s) || alive_member_count(s) == 1; }

std::size_t formation_slot(const BattleState& s, std::size_t member) {
  for (std::size_t i = 0; i < s.formation.size(); ++i)
    if (s.formation[i] == member) return i;
  return 0;
}

std::optional<std::size_t> enemy_slot(const BattleState& s, std::uint8_t uid) {
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (s.enemies[i].uid == uid) return i;
  return std::nullopt;
}

bool reaches(Reach reach, const EnemyState& e) {
  return reach == Reach::Any || e.position == Position::Ground;
}

bool any_enemy_in_reach(const BattleState& s, Reach reach) {
  return std::any_of(s.enemies.begin(), s.enemies.end(),
                     [&](const EnemyState& e) { return e.alive() && reaches(reach, e); });
}

bool no_enemy_left(const BattleState& s) { return s.enemies.empty() && s.reserves.empty(); }

bool skills_banned(const Catalog& c, const MemberState& m) {
  return (effects_held(c, m.conditions) &
          (effect_bit(ConditionEffect::Inked) | effect_bit(ConditionEffect::Taunted))) != 0;
}

bool items_banned(const Catalog& c, const MemberState& m) {
  return (effects_held(c, m.conditions) &
          (effect_bit(ConditionEffect::Sticky) | effect_bit(ConditionEffect::Taunted))) != 0;
}

bool may_relay(const BattleState& s, const Catalog& c, std::size_t relayer) {
  const MemberState& m = s.members[relayer];
  return s.members.size() > 1 && !m.has_passed && !has_effect(c, m.conditions, ConditionEffect::Taunted);
}

bool may_receive_relay(const BattleState& s, const Catalog& c, std::size_t relayer, std::size_t target) {
  if (target == relayer || target >= s.members.size()) return false;
  const MemberState& t = s.members[target];
  // The reference's list: Numb, Sleep and Freeze stop a relay, Flipped does not (IsStoppedLite).
  return t.alive() && t.cantmove > kMinCounter &&
         (effects_held(c, t.conditions) &
          (kStopping | effect_bit(ConditionEffect::Taunted) | effect_bit(ConditionEffect::Sturdy))) == 0;
}

bool can_pay(const BattleState& s, const MemberState& m, const SkillDef& skill) {
  return skill.cost_in_hp ? m.hp > skill.cost : s.tp >= skill.cost;
}

// --- conditions ---------------------------------------------------------------------------

namespace {
struct ActorView {
  std::int32_t* hp = nullptr;
  std::int32_t max_hp = 0;
  Conditions* conditions = nullptr;
  std::int8_t* cantmove = nullptr;
  std::int32_t tired = 0;
  std::int32_t charge = 0;
  std::int32_t defense = 0;
  EnemyState* enemy = nullptr;
  bool member = false;
};

ActorView view(Ctx& x, ActorRef a) {
  ActorView v;
  if (is_member_actor(a) && static_cast<std::size_t>(a) < x.s.members.size()) {
    MemberState& m = x.s.members[static_cast<std::size_t>(a)];
    v = ActorView{
        &m.hp,   m.max_hp, &m.conditions, &m.cantmove, m.tired, m.charge, x.c.members[m.def].defense,
        nullptr, true};
  } else if (is_enemy_actor(a)) {
    if (const auto slot = enemy_slot(x.s, static_cast<std::uint8_t>(a - 16))) {
      EnemyState& e = x.s.enemies[*slot];
      v = ActorView{
          &e.hp, e.max_hp, &e.conditions, &e.cantmove, e.tired, e.charge, x.c.enemies[e.def].defense,
          &e,    false};
    }
  }
  return v;
}
}  // namespace

Conditions* conditions_of(Ctx& x, ActorRef a) { return view(x, a).conditions; }

namespace {
const std::vector<std::uint8_t>* resist_of(Ctx& x, ActorRef a) {
  if (is_member_actor(a)) return &x.c.members[x.s.members[static_cast<std::size_t>(a)].def].resist;
  if (is_enemy_actor(a))
    if (const auto slot = enemy_slot(x.s, static_cast<std::uint8_t>(a - 16)))
      return &x.c.enemies[x.s.enemies[*slot].def].resist;
  return nullptr;
}
}  // namespace

bool apply_condition(Ctx& x, ActorRef source, ActorRef target, ConditionId cond, std::int32_t turns,
                     bool resisted_by_roll) {
  const ActorView v = view(x, target);
  if (v.hp == nullptr || *v.hp <= 0) return false;  // the fallen hold no conditions
  Conditions* conds = v.conditions;
  const ConditionDef& def = x.c.conditions[cond];
  if (turns <= 0) turns = def.turns;
  if (is_harmful(def.effect) && has_effect(x.c, *conds, ConditionEffect::Sturdy)) {
    x.ev.emit_with(EventType::ConditionResisted, [&] {
      return Event{.type = EventType::ConditionResisted, .target = target, .subject = cond};
    });
    return false;
  }
  if (resisted_by_roll) {
    const std::vector<std::uint8_t>* resist = resist_of(x, target);
    const std::uint32_t res = resist != nullptr && cond < resist->size() ? (*resist)[cond] : 0u;
    const std::uint32_t roll = x.s.rng[Stream::Effects].below(100);
    if (roll < res) {
      x.ev.emit_with(EventType::ConditionResisted, [&] {
        return Event{.type = EventType::ConditionResisted, .target = target, .subject = cond};
      });
      return false;
    }
  }
  bool amended = false;
  for (ConditionSlot& slot : *conds)
    if (slot.condition == cond) {  // no duplicates: the longer duration stays
      slot.turns = static_cast<std::int16_t>(std::max<std::int32_t>(slot.turns, turns));
      amended = true;
    }
  if (!amended) conds->push_back(ConditionSlot{cond, static_cast<std::int16_t>(turns)});
  x.ev.emit_with(EventType::ConditionApplied, [&] {
    return Event{.type = EventType::ConditionApplied,
                 .source = source,
                 .target = target,
                 .subject = cond,
                 .amount = turns};
  });
  return true;
}

void remove_condition(Ctx& x, ActorRef a, std::size_t index) {
  Conditions* conds = conditions_of(x, a);
  if (conds == nullptr || index >= conds->size()) return;
  const ConditionId cond = (*conds)[index].condition;
  conds->erase_at(index);
  x.ev.emit_with(EventType::ConditionExpired,
                 [&] { return Event{.type = EventType::ConditionExpired, .target = a, .subject = cond}; });
}

void clear_conditions(Ctx& x, ActorRef a) {
  Conditions* conds = conditions_of(x, a);
  while (conds != nullptr && !conds->empty()) remove_condition(x, a, conds->size() - 1);
}

namespace {
void remove_effect(Ctx& x, ActorRef a, ConditionEffect effect) {
  Conditions* conds = conditions_of(x, a);
  if (conds == nullptr) return;
  for (std::size_t i = conds->size(); i > 0; --i)
    if (x.c.conditions[(*conds)[i - 1].condition].effect == effect) remove_condition(x, a, i - 1);
}
}  // namespace

// --- the damage pipeline ------------------------------------------------------------------

std::string_view damage_step_name(DamageStep s) {
  constexpr std::array<std::string_view, 16> names = {
      "shield",     "base",    "block",      "exhaustion",   "front_bonus", "charge",      "thaw",   "numb",
      "infliction", "defense", "defense_up", "defense_down", "attack_up",   "attack_down", "sturdy", "clamp"};
  return names[static_cast<std::size_t>(s)];
}

namespace {

std::int32_t block_reduction(BlockLevel b) {
  return b == BlockLevel::SuperBlock ? 2 : b == BlockLevel::Block ? 1 : 0;
}

/// +1 when the attacker is the member at the front of the formation.
std::int32_t front_bonus(const Ctx& x, ActorRef attacker) {
  return is_member_actor(attacker) && !x.s.formation.empty() && x.s.formation[0] == attacker ? 1 : 0;
}

std::int32_t condition_amount(const Ctx& x, const ActorView& v, ConditionEffect e) {
  return v.conditions != nullptr ? effect_amount(x.c, *v.conditions, e) : 0;
}

/// The infliction of a hit: a Flipped condition flips a grounded enemy and drops a flying one.
/// Returns whether the condition was applied (or amended).
bool inflict_on_hit(Ctx& x, const Hit& hit, ActorView& target) {
  if (hit.inflict == kNoCondition) return false;
  std::int32_t turns = hit.inflict_turns;
  const ConditionEffect effect = x.c.conditions[hit.inflict].effect;
  if (turns <= 0) turns = x.c.conditions[hit.inflict].turns;
  if (hit.block != BlockLevel::None &&
      (effect == ConditionEffect::Inked || effect == ConditionEffect::Sticky))
    turns = std::max(1, turns - 1);  // a blocked hit inks or sticks one turn less
  if (effect == ConditionEffect::Flipped && target.enemy != nullptr &&
      target.enemy->position == Position::Flying) {
    target.enemy->position = Position::Ground;  // knocked down instead of flipped
    return false;
  }
  return apply_condition(x, hit.attacker, hit.target, hit.inflict, turns, true);
}

}  // namespace

std::int32_t resolve_hit(Ctx& x, const Hit& hit, DamageTrace* trace) {
  ActorView t = view(x, hit.target);
  if (t.hp == nullptr || *t.hp <= 0) return 0;
  ActorView a = view(x, hit.attacker);
  auto rec = [&](DamageStep step, std::int32_t value) {
    if (trace != nullptr) trace->push_back(DamageStepRecord{step, value});
  };
  const std::uint32_t held = effects_held(x.c, *t.conditions);
  const bool invulnerable = (held & effect_bit(ConditionEffect::Shield)) != 0;
  const bool was_frozen = (held & effect_bit(ConditionEffect::Freeze)) != 0;
  const bool was_asleep = (held & effect_bit(ConditionEffect::Sleep)) != 0;
  bool slept = false;  // the hit put its target to sleep (again)
  std::int32_t d = 0;
  if (invulnerable) {
    rec(DamageStep::Shield, 0);
  } else {
    d = hit.base;
    rec(DamageStep::Base, d);
    d -= block_reduction(hit.block);
    rec(DamageStep::Block, d);
    d -= a.tired;
    rec(DamageStep::Exhaustion, d);
    d += front_bonus(x, hit.attacker);
    rec(DamageStep::FrontBonus, d);
    d += a.charge;
    rec(DamageStep::Charge, d);
    d += was_frozen ? condition_amount(x, t, ConditionEffect::Freeze) : 0;
    // The thaw is this step of the pipeline, before the infliction: a Freeze the hit inflicts
    // on a frozen target stays.
    if (was_frozen) remove_effect(x, hit.target, ConditionEffect::Freeze);
    rec(DamageStep::Thaw, d);
    d -= condition_amount(x, t, ConditionEffect::Numb);
    rec(DamageStep::Numb, d);
    slept = inflict_on_hit(x, hit, t) && x.c.conditions[hit.inflict].effect == ConditionEffect::Sleep;
    rec(DamageStep::Infliction, d);
    const bool flipped = has_effect(x.c, *t.conditions, ConditionEffect::Flipped);
    d -= flipped || hit.pierce ? 0 : t.defense;
    rec(DamageStep::Defense, d);
    d -= condition_amount(x, t, ConditionEffect::DefenseUp);
    rec(DamageStep::DefenseUp, d);
    d += condition_amount(x, t, ConditionEffect::DefenseDown);
    rec(DamageStep::DefenseDown, d);
    d += condition_amount(x, a, ConditionEffect::AttackUp);
    rec(DamageStep::AttackUp, d);
    d -= condition_amount(x, a, ConditionEffect::AttackDown);
    rec(DamageStep::AttackDown, d);
    d -= condition_amount(x, t, ConditionEffect::Sturdy);
    rec(DamageStep::Sturdy, d);
    const bool at_least_one = a.hp != nullptr && !a.member && t.member && hit.block == BlockLevel::None;
    d = std::clamp(d, at_least_one ? 1 : 0, 99);
    rec(DamageStep::Clamp, d);
  }
  const std::int32_t lost = std::min(d, *t.hp);
  *t.hp -= lost;
  x.ev.emit_with(EventType::Damaged, [&] {
    return Event{.type = EventType::Damaged,
                 .source = hit.attacker,
                 .target = hit.target,
                 .amount = lost,
                 .extra = static_cast<std::int32_t>(hit.block)};
  });
  // A hit thaws the frozen (above, an enemy may act again) and wakes the sleeping, unless it put
  // its target to sleep, asleep before or not (BF: Damage pipeline/CalculateBaseDamage, where a Sleep
  // hit on a member already asleep gives it a longer Sleep). A member whose stop ends so did not
  // act: it waits (counter 1), so the turn advance leaves it one action, as when a stop runs out;
  // the first strike's turn end advances nothing.
  const bool thawed = was_frozen && !invulnerable;
  const bool woken = was_asleep && lost > 0 && !slept;
  if (thawed) {
    if (t.enemy != nullptr && t.enemy->alive())
      t.enemy->cantmove = static_cast<std::int8_t>(std::min<std::int32_t>(t.enemy->cantmove, 0));
  }
  if (woken) remove_effect(x, hit.target, ConditionEffect::Sleep);
  if ((thawed || woken) && t.member && *t.hp > 0 && !x.s.first_strike &&
      !is_stopped(x.c, *t.conditions, *t.hp))
    *t.cantmove = 1;
  if (*t.hp <= 0) {
    if (t.member) {  // CheckDead for a member: exhaustion and charge go, conditions are cleared
      MemberState& m = x.s.members[static_cast<std::size_t>(hit.target)];
      m.tired = 0;
      m.charge = 0;
      m.cantmove = 0;
    }
    clear_conditions(x, hit.target);
    x.ev.emit_with(EventType::ActorDown,
                   [&] { return Event{.type = EventType::ActorDown, .target = hit.target}; });
  }
  return lost;
}

void lose_hp_nonlethal(Ctx& x, ActorRef target, std::int32_t amount) {
  ActorView t = view(x, target);
  if (t.hp == nullptr || *t.hp <= 1) return;
  const std::int32_t lost = std::min(amount, *t.hp - 1);
  *t.hp -= lost;
  x.ev.emit_with(EventType::Damaged,
                 [&] { return Event{.type = EventType::Damaged, .target = target, .amount = lost}; });
}

void heal(Ctx& x, ActorRef target, std::int32_t amount) {
  ActorView t = view(x, target);
  if (t.hp == nullptr || *t.hp <= 0) return;
  const std::int32_t gained = std::max(0, std::min(amount, t.max_hp - *t.hp));
  *t.hp += gained;
  x.ev.emit_with(EventType::Healed,
                 [&] { return Event{.type = EventType::Healed, .target = target, .amount = gained}; });
}

void restore_tp(Ctx& x, std::int32_t amount) {
  const std::int32_t gained = std::max(0, std::min(amount, x.s.max_tp - x.s.tp));
  x.s.tp += gained;
  x.ev.emit_with(EventType::Healed,
                 [&] { return Event{.type = EventType::Healed, .amount = gained, .extra = 1}; });
}

// --- actions ------------------------------------------------------------------------------

namespace {

void add_charge(Ctx& x, ActorRef a, std::int32_t amount) {
  ActorView v = view(x, a);
  if (v.hp == nullptr) return;
  if (v.member) {
    MemberState& m = x.s.members[static_cast<std::size_t>(a)];
    m.charge = static_cast<std::int8_t>(std::min(kMaxCharge, m.charge + amount));
  } else {
    v.enemy->charge = static_cast<std::int8_t>(std::min(kMaxCharge, v.enemy->charge + amount));
  }
}

/// One op on one target (not Damage, which the callers handle hit by hit).
void run_support_op(Ctx& x, ActorRef user, const Op& op, ActorRef target) {
  switch (op.kind) {
    case OpKind::Heal:
      heal(x, target, op.amount);
      break;
    case OpKind::RestoreTp:
      restore_tp(x, op.amount);
      break;
    case OpKind::Apply:
      apply_condition(x, user, target, op.condition, op.turns, false);
      break;
    case OpKind::Inflict:
      apply_condition(x, user, target, op.condition, op.turns, true);
      break;
    case OpKind::Cure: {
      Conditions* conds = conditions_of(x, target);
      if (conds == nullptr) break;
      for (std::size_t i = conds->size(); i > 0; --i)
        if (is_harmful(x.c.conditions[(*conds)[i - 1].condition].effect)) remove_condition(x, target, i - 1);
      break;
    }
    case OpKind::Charge:
      add_charge(x, target, op.amount);
      break;
    case OpKind::Projectile:
      if (is_member_actor(target) && !x.s.projectiles.full())
        x.s.projectiles.push_back(
            Projectile{static_cast<std::uint8_t>(op.turns),
                       static_cast<std::uint8_t>(formation_slot(x.s, static_cast<std::size_t>(target))),
                       static_cast<std::int16_t>(op.amount)});
      break;
    case OpKind::Damage:
      break;
  }
}

void run_op_on(Ctx& x, ActorRef user, const Op& op, ActorRef target) {
  if (op.kind != OpKind::Damage) {
    run_support_op(x, user, op, target);
    return;
  }
  for (std::uint8_t h = 0; h < op.hits; ++h) {
    ActorView t = view(x, target);
    if (t.hp == nullptr || *t.hp <= 0) break;
    resolve_hit(x, Hit{user, target, op.amount, BlockLevel::None, op.pierce, op.condition, op.turns});
  }
}

}  // namespace

void run_player_ops(Ctx& x, ActorRef user, const std::vector<Op>& ops, TargetKind kind, Reach reach,
                    std::int8_t target) {
  // Targets are fixed before the ops run, by battle-wide number, so a fallen enemy is skipped.
  FixedVec<ActorRef, kMaxActiveEnemies + kMaxMembers> targets;
  switch (kind) {
    case TargetKind::Enemy:
      targets.push_back(enemy_actor(x.s.enemies[static_cast<std::size_t>(target)].uid));
      break;
    case TargetKind::AllEnemies:  // those in reach
      for (const EnemyState& e : x.s.enemies)
        if (reaches(reach, e)) targets.push_back(enemy_actor(e.uid));
      break;
    case TargetKind::Ally:
      targets.push_back(member_actor(static_cast<std::size_t>(target)));
      break;
    case TargetKind::Self:
      targets.push_back(user);
      break;
    case TargetKind::Party:
      for (std::uint8_t m : x.s.formation)
        if (x.s.members[m].alive()) targets.push_back(member_actor(m));
      break;
  }
  for (const Op& op : ops)
    for (ActorRef t : targets) run_op_on(x, user, op, t);
}

bool may_deselect(const BattleState& s, const Catalog& c) {
  const std::size_t selectable = selectable_member_count(s, c);
  return selectable > 1 && std::size_t{s.deselects} < selectable;
}

void reset_select_cycle(Ctx& x) {
  x.s.last_turns.clear();
  const std::size_t free = free_member_count(x.s, x.c);
  for (std::size_t i = 1; i < free; ++i) x.s.last_turns.push_back(-1);
}

void add_last_turn(Ctx& x, std::int8_t member) {
  if (x.s.last_turns.empty()) return;
  for (std::int8_t& slot : x.s.last_turns)
    if (slot < 0) {
      slot = member;
      return;
    }
  x.s.last_turns.erase_at(0);  // all taken: the oldest goes
  x.s.last_turns.push_back(member);
}

void end_player_turn(Ctx& x, std::size_t member) {
  MemberState& m = x.s.members[member];
  m.cantmove = static_cast<std::int8_t>(m.cantmove + 1);
  x.s.current = -1;
  for (EnemyState& e : x.s.enemies)
    if ((effects_held(x.c, e.conditions) &
         (effect_bit(ConditionEffect::Freeze) | effect_bit(ConditionEffect::Sleep))) != 0)
      e.cantmove = 1;
  reset_select_cycle(x);
}

std::int8_t pick_member(const BattleState& s, const Catalog& c) {
  const bool cycle_applies = free_member_count(s, c) > 1;
  for (std::uint8_t i : s.formation) {
    const MemberState& m = s.members[i];
    if (is_stopped(c, m.conditions, m.hp) || m.cantmove > 0) continue;
    if (cycle_applies && std::find(s.last_turns.begin(), s.last_turns.end(), static_cast<std::int8_t>(i)) !=
                             s.last_turns.end())
      continue;
    return static_cast<std::int8_t>(i);
  }
  return -1;
}

void remove_fallen_enemies(Ctx& x) {
  std::size_t fallen = 0;
  for (std::size_t i = x.s.enemies.size(); i > 0; --i)
    if (!x.s.enemies[i - 1].alive()) {
      x.s.enemies.erase_at(i - 1);
      ++fallen;
    }
  for (; fallen > 0 && !x.s.reserves.empty(); --fallen) spawn_from_reserves(x, true);
}

void spawn_from_reserves(Ctx& x, bool announce) {
  if (x.s.enemies.full() || x.s.reserves.empty()) return;
  const EnemyId id = x.s.reserves[0];
  x.s.reserves.erase_at(0);
  const EnemyDef& def = x.c.enemies[id];
  EnemyState e;
  e.def = id;
  e.uid = x.s.next_uid++;
  e.hp = e.max_hp = def.hp;
  e.position = def.position;
  e.cantmove = min_enemy_counter(def);
  x.s.enemies.push_back(e);
  if (announce)
    x.ev.emit_with(EventType::ReserveJoined, [&] {
      return Event{.type = EventType::ReserveJoined, .target = enemy_actor(e.uid), .value = id};
    });
}

void ally_action(Ctx& x) {
  const AllyDef& ally = x.c.allies[*x.c.parties[x.c.encounters[x.s.encounter].party].ally];
  if (x.s.enemies.empty()) return;
  const std::size_t slot = x.s.rng[Stream::Ai].below(static_cast<std::uint32_t>(x.s.enemies.size()));
  const ActorRef target = enemy_actor(x.s.enemies[slot].uid);
  x.ev.emit_with(EventType::ActionTaken, [&] {
    return Event{.type = EventType::ActionTaken,
                 .source = kAllyActor,
                 .target = target,
                 .subject = static_cast<std::uint16_t>(ActionKind::Attack)};
  });
  for (std::uint8_t h = 0; h < ally.hits; ++h) resolve_hit(x, Hit{kAllyActor, target, ally.attack});
}

// --- enemies ------------------------------------------------------------------------------

namespace {

std::uint8_t choose_move(Ctx& x, EnemyState& e) {
  const EnemyDef& def = x.c.enemies[e.def];
  if (def.behavior == EnemyDef::Behavior::Sequence) {
    const std::uint8_t m = static_cast<std::uint8_t>(e.sequence_pos % def.move_list.size());
    e.sequence_pos = static_cast<std::uint8_t>((m + 1) % def.move_list.size());
    return m;
  }
  std::uint32_t total = 0;
  for (const MoveDef& m : def.move_list) total += m.weight;
  std::uint32_t roll = x.s.rng[Stream::Ai].below(total);
  for (std::size_t i = 0; i < def.move_list.size(); ++i) {
    if (roll < def.move_list[i].weight) return static_cast<std::uint8_t>(i);
    roll -= def.move_list[i].weight;
  }
  return 0;
}

/// GetRandomAvaliablePlayer: clamp(rand(-2, n), 0, n - 1) over the standing members in
/// formation order, so the front member is the likeliest target.
std::int8_t random_member(Ctx& x) {
  FixedVec<std::uint8_t, kMaxMembers> standing;
  for (std::uint8_t m : x.s.formation)
    if (x.s.members[m].alive()) standing.push_back(m);
  if (standing.empty()) return -1;
  const auto n = static_cast<std::int32_t>(standing.size());
  const std::int32_t pick = std::clamp(x.s.rng[Stream::Ai].between(-2, n - 1), 0, n - 1);
  return static_cast<std::int8_t>(standing[static_cast<std::size_t>(pick)]);
}

/// EndEnemyTurn: exhaustion, counter +1, charge spent unless the action charged the enemy
/// itself (the reference's dontusecharge); CheckDead refills slots.
void end_enemy_turn(Ctx& x, std::uint8_t uid) {
  if (const auto slot = enemy_slot(x.s, uid)) {
    EnemyState& e = x.s.enemies[*slot];
    e.tired = static_cast<std::int8_t>(e.tired + 1);
    e.cantmove = static_cast<std::int8_t>(e.cantmove + 1);
    if (!x.s.enemy_action.keeps_charge) e.charge = 0;
  }
  x.s.enemy_action = EnemyActionCursor{};
  remove_fallen_enemies(x);
}

}  // namespace

void begin_enemy_action(Ctx& x, std::size_t slot) {
  EnemyState& e = x.s.enemies[slot];
  EnemyActionCursor& cur = x.s.enemy_action;
  cur = EnemyActionCursor{};
  cur.active = true;
  cur.enemy_uid = e.uid;
  const ActorRef self = enemy_actor(e.uid);
  // Flipped: with two turns or more left the enemy cannot act; at exactly one it is removed first.
  const std::int32_t flipped = effect_turns(x.c, e.conditions, ConditionEffect::Flipped);
  if (flipped >= 2) {
    cur.move = 0xFF;
    x.ev.emit_with(EventType::EnemyActed, [&] {
      return Event{.type = EventType::EnemyActed, .source = self, .subject = 0xFF, .value = e.def};
    });
    return;
  }
  if (flipped == 1) remove_effect(x, self, ConditionEffect::Flipped);
  cur.move = choose_move(x, x.s.enemies[slot]);
  const MoveDef& move = x.c.enemies[x.s.enemies[slot].def].move_list[cur.move];
  switch (move.target) {
    case MoveDef::Target::Member:
      if (const std::int8_t m = random_member(x); m >= 0) cur.targets.push_back(m);
      break;
    case MoveDef::Target::AllMembers:
      for (std::uint8_t m : x.s.formation)
        if (x.s.members[m].alive()) cur.targets.push_back(static_cast<std::int8_t>(m));
      break;
    case MoveDef::Target::Self:
      cur.targets_enemies = true;
      cur.targets.push_back(static_cast<std::int8_t>(x.s.enemies[slot].uid));
      break;
    case MoveDef::Target::AllyLowest: {
      cur.targets_enemies = true;
      std::size_t best = 0;
      for (std::size_t i = 1; i < x.s.enemies.size(); ++i)
        if (std::int64_t{x.s.enemies[i].hp} * x.s.enemies[best].max_hp <
            std::int64_t{x.s.enemies[best].hp} * x.s.enemies[i].max_hp)
          best = i;
      cur.targets.push_back(static_cast<std::int8_t>(x.s.enemies[best].uid));
      break;
    }
  }
  x.ev.emit_with(EventType::EnemyActed, [&] {
    return Event{
        .type = EventType::EnemyActed, .source = self, .subject = cur.move, .value = x.s.enemies[slot].def};
  });
}

bool continue_enemy_action(Ctx& x) {
  EnemyActionCursor& cur = x.s.enemy_action;
  const auto slot = enemy_slot(x.s, cur.enemy_uid);
  if (!slot || cur.move == 0xFF) {
    end_enemy_turn(x, cur.enemy_uid);
    return false;
  }
  const ActorRef self = enemy_actor(cur.enemy_uid);
  const MoveDef& move = x.c.enemies[x.s.enemies[*slot].def].move_list[cur.move];
  while (cur.target_pos < cur.targets.size()) {
    const std::int8_t t = cur.targets[cur.target_pos];
    const ActorRef target = cur.targets_enemies ? enemy_actor(static_cast<std::uint8_t>(t))
                                                : member_actor(static_cast<std::size_t>(t));
    while (cur.effect_pos < move.effects.size()) {
      const Op& op = move.effects[cur.effect_pos];
      if (op.kind == OpKind::Damage && !cur.targets_enemies) {
        const MemberState& m = x.s.members[static_cast<std::size_t>(t)];
        if (cur.hit < op.hits && m.alive() && is_stopped_lite(x.c, m.conditions, m.hp)) {
          // A frozen, numb or sleeping member cannot block (the reference's DoBlock asks
          // IsStoppedLite): the hit lands unblocked, with no decision and no roll.
          resolve_hit(x, Hit{self, target, op.amount, BlockLevel::None, op.pierce, op.condition, op.turns});
          ++cur.hit;
          continue;
        }
        if (cur.hit < op.hits && m.alive()) {
          if (!cur.awaiting_block) {  // pose the defender's Block decision before the hit
            cur.awaiting_block = true;
            cur.block_roll = static_cast<std::uint8_t>(x.s.rng[Stream::Dice].below(100));
            return true;
          }
          return true;  // still waiting: the answer comes through submit
        }
      } else if (cur.targets_enemies || x.s.members[static_cast<std::size_t>(t)].alive()) {
        // a member the move has downed takes none of the rest
        run_support_op(x, self, op, target);
        if (op.kind == OpKind::Charge && target == self) cur.keeps_charge = true;
      }
      ++cur.effect_pos;
      cur.hit = 0;
    }
    ++cur.target_pos;
    cur.effect_pos = 0;
    cur.hit = 0;
  }
  end_enemy_turn(x, cur.enemy_uid);
  return false;
}

// --- the turn advance ---------------------------------------------------------------------

bool land_projectiles(Ctx& x) {
  bool landed = false;
  for (std::size_t i = x.s.projectiles.size(); i > 0; --i) {
    Projectile& p = x.s.projectiles[i - 1];
    p.turns = static_cast<std::uint8_t>(p.turns > 0 ? p.turns - 1 : 0);
    if (p.turns > 0) continue;
    const Projectile hit = p;
    x.s.projectiles.erase_at(i - 1);
    if (hit.slot < x.s.formation.size())
      resolve_hit(x, Hit{kNobody, member_actor(x.s.formation[hit.slot]), hit.damage});
    landed = true;
  }
  if (landed) {  // the reference clamps every counter below 1 up to 1 after a landing
    for (MemberState& m : x.s.members) m.cantmove = std::max<std::int8_t>(m.cantmove, 1);
    for (EnemyState& e : x.s.enemies) e.cantmove = std::max<std::int8_t>(e.cantmove, 1);
  }
  return landed;
}

namespace {

/// The per-condition ticks of AdvanceTurnEntity for one living actor.
void tick_conditions(Ctx& x, ActorRef a, bool member) {
  ActorView v = view(x, a);
  const Conditions conds = *v.conditions;  // ticks do not change the list
  for (const ConditionSlot& slot : conds) {
    const ConditionDef& def = x.c.conditions[slot.condition];
    switch (def.effect) {
      case ConditionEffect::Poison:
        if (!x.s.enemies.empty())
          lose_hp_nonlethal(x, a, std::clamp(ceil_div(v.max_hp, 10) - 1, 1, member ? 3 : 2));
        break;
      case ConditionEffect::Fire:  // ceil(maxhp / 7.5) - 1 in [2, 3]
        lose_hp_nonlethal(x, a, std::clamp(ceil_div(v.max_hp * 2, 15) - 1, 2, 3));
        break;
      case ConditionEffect::Sleep:
        heal(x, a, member ? ceil_div(v.max_hp, 10) : std::min(ceil_div(v.max_hp, 10), 4));
        break;
      case ConditionEffect::GradualHp:
        heal(x, a, def.amount);
        break;
      case ConditionEffect::GradualTp:
        if (member) restore_tp(x, def.amount);
        break;
      default:
        break;
    }
  }
}

/// Durations count down; expired ones go with their expiry effects. Returns whether a stop
/// condition ran out (the actor then waits: counter 1); a member's Flipped is one.
bool count_down_conditions(Ctx& x, ActorRef a, bool member) {
  Conditions* conds = conditions_of(x, a);
  bool stop_ended = false;
  FixedVec<ConditionSlot, kMaxConditions> chained;
  for (ConditionSlot& slot : *conds) {
    const ConditionDef& def = x.c.conditions[slot.condition];
    if (!member && def.effect == ConditionEffect::Flipped && slot.turns <= 1) continue;
    slot.turns = static_cast<std::int16_t>(slot.turns - 1);
    if (slot.turns > 0) continue;
    if (def.effect == ConditionEffect::Numb || def.effect == ConditionEffect::Sleep ||
        def.effect == ConditionEffect::Freeze || (member && def.effect == ConditionEffect::Flipped))
      stop_ended = true;
    if (def.on_expire != kNoCondition)
      chained.push_back(ConditionSlot{def.on_expire, static_cast<std::int16_t>(def.on_expire_turns)});
  }
  for (std::size_t i = conds->size(); i > 0; --i)
    if ((*conds)[i - 1].turns <= 0) remove_condition(x, a, i - 1);
  for (const ConditionSlot& c : chained) apply_condition(x, a, a, c.condition, c.turns, false);
  return stop_ended;
}

bool stopped_for_counter(const Catalog& c, const Conditions& conds) {
  return (effects_held(c, conds) & kStopping) != 0;
}

}  // namespace

void advance_turn_member(Ctx& x, std::size_t member) {
  const ActorRef a = member_actor(member);
  if (x.s.members[member].alive()) {
    tick_conditions(x, a, true);
    if (count_down_conditions(x, a, true)) x.s.members[member].cantmove = 1;
  }
  MemberState& m = x.s.members[member];
  if (!m.alive()) {
    m.cantmove = 0;  // dead members' counters reset
  } else if (is_stopped(x.c, m.conditions, m.hp)) {
    m.cantmove = 0;  // stopped in any way (Flipped too): it cannot be selected, so it banks nothing
  } else if (!x.s.first_strike) {
    m.cantmove = static_cast<std::int8_t>(m.cantmove - 1 - m.more_next_turn);
    m.more_next_turn = 0;
  }
  m.tired = 0;
  m.has_passed = false;
}

void advance_turn_enemy(Ctx& x, std::size_t slot) {
  const ActorRef a = enemy_actor(x.s.enemies[slot].uid);
  tick_conditions(x, a, false);
  if (count_down_conditions(x, a, false)) x.s.enemies[slot].cantmove = 1;
  EnemyState& e = x.s.enemies[slot];
  if (stopped_for_counter(x.c, e.conditions)) {
    e.cantmove = 1;
  } else if (!x.s.first_strike) {
    e.cantmove = static_cast<std::int8_t>(e.cantmove - 1);
    if (e.cantmove == 0) e.cantmove = min_enemy_counter(x.c.enemies[e.def]);
  }
  e.tired = 0;
}

void inaction_failsafe(Ctx& x) {
  for (std::size_t i = 0; i < x.s.members.size(); ++i) {
    MemberState& m = x.s.members[i];
    if (!m.alive() || !is_stopped(x.c, m.conditions, m.hp)) continue;
    clear_conditions(x, member_actor(i));
    x.s.members[i].cantmove = 0;
  }
  x.ev.emit_with(EventType::InactionFailsafe, [&] {
    return Event{.type = EventType::InactionFailsafe, .amount = kInactionFailsafeTurns};
  });
}

}  // namespace battlecore::party::detail
