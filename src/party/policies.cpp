#include "battlecore/party/policies.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "party/mechanics.hpp"

namespace battlecore::party {

std::size_t answer_block(const Battle& battle, std::span<const Action> options, const BlockSkill& skill) {
  const std::uint32_t roll = battle.block_roll();
  const BlockLevel want = roll < skill.super_block_percent ? BlockLevel::SuperBlock
                          : roll < skill.block_percent     ? BlockLevel::Block
                                                           : BlockLevel::None;
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i] == Action::block(want)) return i;
  return 0;
}

std::size_t RandomPolicy::choose(const Battle& battle, std::span<const Action> options) {
  if (battle.decision_kind() == DecisionKind::Block) return answer_block(battle, options, skill_);
  return options.size() > 1 ? rng_.below(static_cast<std::uint32_t>(options.size())) : 0;
}

namespace {

using namespace detail;

/// HP the ops would take from their targets, run on a scratch copy of the state whose random
/// streams are reseeded from `sample` (a resistance roll must not be read from the real future).
double damage_on_scratch(const Battle& battle, ActorRef user, const std::vector<Op>& ops, TargetKind kind,
                         Reach reach, std::int8_t target, bool basic_attack, std::int32_t attack,
                         std::uint64_t sample) {
  BattleState scratch = battle.state();
  scratch.rng = RngStreams(sample);
  EventLog quiet;
  quiet.set_log_enabled(false);
  Battle::Access x{scratch, battle.catalog(), quiet};
  std::int32_t before = 0;
  for (const EnemyState& e : scratch.enemies) before += e.hp;
  const std::size_t alive_before = scratch.enemies.size();
  if (basic_attack)
    resolve_hit(x, Hit{user, enemy_actor(scratch.enemies[static_cast<std::size_t>(target)].uid), attack});
  else
    run_player_ops(x, user, ops, kind, reach, target);
  std::int32_t after = 0;
  std::size_t alive_after = 0;
  for (const EnemyState& e : scratch.enemies) {
    after += e.hp;
    alive_after += e.alive() ? 1u : 0u;
  }
  return double(before - after) + 6.0 * double(alive_before - alive_after);
}

/// What healing or support is worth to the party now.
double support_value(const Battle& battle, const std::vector<Op>& ops, TargetKind kind, std::int8_t target) {
  const BattleState& s = battle.state();
  const Catalog& c = battle.catalog();
  double v = 0;
  auto for_targets = [&](auto&& f) {
    if (kind == TargetKind::Ally && target >= 0) f(s.members[static_cast<std::size_t>(target)]);
    if (kind == TargetKind::Self && s.current >= 0) f(s.members[static_cast<std::size_t>(s.current)]);
    if (kind == TargetKind::Party)
      for (const MemberState& m : s.members)
        if (m.alive()) f(m);
  };
  for (const Op& op : ops) {
    switch (op.kind) {
      case OpKind::Heal:
        for_targets([&](const MemberState& m) {
          if (m.hp * 5 <= m.max_hp * 2) v += std::min(op.amount, m.max_hp - m.hp) * 1.5;
        });
        break;
      case OpKind::RestoreTp:
        if (s.tp * 3 < s.max_tp) v += std::min(op.amount, s.max_tp - s.tp) * 0.5;
        break;
      case OpKind::Cure:
        for_targets([&](const MemberState& m) {
          for (const ConditionSlot& cs : m.conditions)
            if (is_harmful(c.conditions[cs.condition].effect)) v += 2.0;
        });
        break;
      case OpKind::Apply:
        for_targets([&](const MemberState& m) {
          const ConditionEffect e = c.conditions[op.condition].effect;
          if (e == ConditionEffect::Shield && m.hp * 2 <= m.max_hp) v += 2.5;
          if (e == ConditionEffect::AttackUp || e == ConditionEffect::GradualHp) v += 0.6;
          if (e == ConditionEffect::Sturdy || e == ConditionEffect::DefenseUp) v += 0.4;
        });
        break;
      case OpKind::Charge:  // a charge on an enemy target charges that enemy: worth nothing to the party
        for_targets([&](const MemberState&) { v += 0.8 * op.amount; });
        break;
      default:
        break;
    }
  }
  return v;
}

}  // namespace

double GreedyPolicy::score(const Battle& battle, const Action& a, std::uint64_t sample) {
  const BattleState& s = battle.state();
  const Catalog& c = battle.catalog();
  const auto who = static_cast<std::size_t>(std::max<std::int8_t>(s.current, 0));
  const ActorRef user = member_actor(who);
  switch (a.kind) {
    case ActionKind::Attack:
      return damage_on_scratch(battle, user, {}, TargetKind::Enemy, Reach::Any, a.target, true,
                               c.members[s.members[who].def].attack, sample);
    case ActionKind::Skill: {
      const SkillDef& skill = c.skills[c.members[s.members[who].def].skills[a.index]];
      const double cost = skill.cost_in_hp ? 1.0 * skill.cost : 0.35 * skill.cost;
      return damage_on_scratch(battle, user, skill.effects, skill.target, skill.reach, a.target, false, 0,
                               sample) +
             support_value(battle, skill.effects, skill.target, a.target) - cost;
    }
    case ActionKind::Item: {
      const ItemDef& item = c.items[s.items[a.index].item];
      return damage_on_scratch(battle, user, item.effects, item.target, Reach::Any, a.target, false, 0,
                               sample) +
             support_value(battle, item.effects, item.target, a.target) - 0.5;
    }
    case ActionKind::CompanionAttack:
      return damage_on_scratch(battle, kCompanionActor, {}, TargetKind::Enemy, Reach::Any, a.target, true,
                               c.companions[*c.parties[c.encounters[s.encounter].party].companion].attack,
                               sample);
    case ActionKind::CompanionSpecial: {
      const CompanionDef& comp = c.companions[*c.parties[c.encounters[s.encounter].party].companion];
      return damage_on_scratch(battle, kCompanionActor, comp.special, TargetKind::Enemy, Reach::Any, a.target,
                               false, 0, sample) -
             0.35 * comp.special_cost;
    }
    case ActionKind::Relay:
      return 0.2;
    case ActionKind::DoNothing:
    case ActionKind::CompanionPass:
      return 0.0;
    default:  // flee, swap, deselect
      return -1.0;
  }
}

std::size_t GreedyPolicy::choose(const Battle& battle, std::span<const Action> options) {
  if (battle.decision_kind() == DecisionKind::Block) return answer_block(battle, options, skill_);
  if (options.size() == 1) return 0;
  // One sample of the rolls for every option, so they compare fairly.
  const std::uint64_t sample = rng_.next();
  std::size_t best = 0;
  double best_score = 0;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const double sc = score(battle, options[i], sample);
    if (i == 0 || sc > best_score) {
      best = i;
      best_score = sc;
    }
  }
  return best;
}

// --- MCTS ---------------------------------------------------------------------------------

void resample_hidden(Battle& battle, std::uint64_t seed) {
  Battle::Access::of(battle).s.rng = RngStreams(seed);
}

namespace {

/// The enemies' HP still standing: the active ones and the reserves still to come.
std::int64_t enemy_hp_left(const Battle& b) {
  std::int64_t hp = 0;
  for (const EnemyState& e : b.state().enemies) hp += std::max(0, e.hp);
  for (EnemyId r : b.state().reserves) hp += std::max(0, b.catalog().enemies[r].hp);
  return hp;
}

}  // namespace

struct MctsTraits : UctTraitsDefaults<Battle, party::Action> {
  using Key = party::Action;  ///< the canonical action: a party option names what it does
  static constexpr std::size_t kMaxPlayers = 1;
  BlockSkill skill;
  std::vector<Action> scratch;
  std::int64_t enemy_hp_at_root = 0;

  /// Block decisions are answered by the block skill, not searched.
  std::optional<std::size_t> answer(const Battle& b, std::span<const Action> options) const {
    if (b.decision_kind() != DecisionKind::Block) return std::nullopt;
    return answer_block(b, options, skill);
  }
  /// The enemies' HP at the root counts every active enemy at full HP and every reserve.
  void at_root(const Battle& b, std::span<const Action>) {
    enemy_hp_at_root = 0;
    for (const EnemyState& e : b.state().enemies) enemy_hp_at_root += std::max(0, e.max_hp);
    for (EnemyId r : b.state().reserves) enemy_hp_at_root += std::max(0, b.catalog().enemies[r].hp);
  }
  void resample(Battle& b, std::uint64_t seed) const { resample_hidden(b, seed); }
  void settle(Battle& b) {
    while (b.status() == Status::AwaitingDecision && b.decision_kind() == DecisionKind::Block) {
      b.legal_actions(scratch);
      submit(b, scratch[answer_block(b, scratch, skill)]);
    }
  }
  /// The options other than fleeing (fleeing scores as a defeat, so it can only be noise).
  void legal(const Battle& b, std::vector<Action>& out) const {
    b.legal_actions(out);
    if (out.size() > 1) std::erase_if(out, [](const Action& a) { return a.kind == ActionKind::Flee; });
  }
  Key key(const Battle&, const Action& a) const { return canonical_action(a); }
  std::size_t player(const Battle&) const { return 0; }
  void rewards(const Battle& b, std::array<double, 1>& out) const {
    std::int64_t hp = 0, max_hp = 0;
    for (const MemberState& m : b.state().members) {
      hp += std::max(0, m.hp);
      max_hp += std::max(0, m.max_hp);
    }
    const double party = max_hp > 0 ? double(hp) / double(max_hp) : 0.0;
    if (b.phase() == Phase::Victory) {
      out[0] = 0.5 + 0.5 * party;
    } else {  // a defeat, or fleeing: the battle is not won either way
      const double removed =
          enemy_hp_at_root > 0 ? double(enemy_hp_at_root - enemy_hp_left(b)) / double(enemy_hp_at_root) : 0.0;
      out[0] = 0.3 * std::clamp(removed, 0.0, 1.0);
    }
  }
};

MctsPolicy::MctsPolicy(BlockSkill skill, UctOptions options) : UctPolicy(options) { traits().skill = skill; }

// --- by name ------------------------------------------------------------------------------

std::vector<std::string_view> policy_names() { return {"random", "greedy", "mcts"}; }

Result<std::unique_ptr<Policy>> make_policy(std::string_view name, BlockSkill skill,
                                            const UctOptions& options) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>(skill));
  if (name == "greedy") return std::unique_ptr<Policy>(std::make_unique<GreedyPolicy>(skill));
  if (name == "mcts") {
    if (auto checked = check_uct_options(options); !checked) return checked.error();
    return std::unique_ptr<Policy>(std::make_unique<MctsPolicy>(skill, options));
  }
  return Error{"unknown policy '" + std::string(name) + "'; the party rule set knows: random, greedy, mcts"};
}

}  // namespace battlecore::party

namespace battlecore {
template class UctPolicy<party::Policy, party::Battle, party::Action, party::MctsTraits>;
}  // namespace battlecore
