#include "battlecore/party/view.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace battlecore::party {

namespace {

nlohmann::json conditions_json(const Catalog& c, const Conditions& conds) {
  nlohmann::json out = nlohmann::json::array();
  for (const ConditionSlot& s : conds)
    out.push_back({{"id", c.conditions[s.condition].id}, {"turns", s.turns}});
  return out;
}

std::string conditions_text(const Catalog& c, const Conditions& conds) {
  std::string out;
  for (const ConditionSlot& s : conds)
    out += fmt::format(" [{} {}]", c.conditions[s.condition].name, s.turns);
  return out;
}

std::string enemy_name(const Battle& b, std::int8_t slot) {
  const BattleState& s = b.state();
  if (slot < 0 || static_cast<std::size_t>(slot) >= s.enemies.size()) return fmt::format("enemy {}", slot);
  return fmt::format("{} (enemy {})", b.catalog().enemies[s.enemies[static_cast<std::size_t>(slot)].def].name,
                     slot);
}

std::string member_name(const Battle& b, std::int8_t m) {
  const BattleState& s = b.state();
  if (m < 0 || static_cast<std::size_t>(m) >= s.members.size()) return fmt::format("member {}", m);
  return b.catalog().members[s.members[static_cast<std::size_t>(m)].def].name;
}

std::string target_text(const Battle& b, TargetKind kind, std::int8_t t, Reach reach = Reach::Any) {
  switch (kind) {
    case TargetKind::Enemy:
      return " at " + enemy_name(b, t);
    case TargetKind::Ally:
      return " on " + member_name(b, t);
    case TargetKind::AllEnemies:
      return reach == Reach::Ground ? " on every enemy on the ground" : " on every enemy";
    case TargetKind::Party:
      return " on the party";
    case TargetKind::Self:
      return "";
  }
  return "";
}

/// A member, the companion, the ally or an enemy, by name.
std::string actor_text(const Battle& b, ActorRef a, std::span<const std::string> enemy_names) {
  const Catalog& c = b.catalog();
  const PartyDef& party = c.parties[c.encounters[b.state().encounter].party];
  if (is_member_actor(a)) return member_name(b, a);
  if (a == kCompanionActor && party.companion) return c.companions[*party.companion].name;
  if (a == kAllyActor && party.ally) return c.allies[*party.ally].name;
  if (!is_enemy_actor(a)) return fmt::format("actor {}", a);
  const auto uid = static_cast<std::size_t>(a - enemy_actor(0));
  if (uid < enemy_names.size() && !enemy_names[uid].empty()) return enemy_names[uid];
  return fmt::format("enemy #{}", uid);
}

}  // namespace

void name_enemies(const Battle& battle, std::vector<std::string>& enemy_names) {
  for (const EnemyState& e : battle.state().enemies) {
    if (e.uid >= enemy_names.size()) enemy_names.resize(e.uid + std::size_t{1});
    enemy_names[e.uid] = battle.catalog().enemies[e.def].name;
  }
}

std::optional<std::string> event_text(const Battle& b, const Event& e,
                                      std::span<const std::string> enemy_names) {
  const Catalog& c = b.catalog();
  const auto actor = [&](ActorRef a) { return actor_text(b, a, enemy_names); };
  const auto condition = [&](std::uint16_t id) {
    return id < c.conditions.size() ? c.conditions[id].name : fmt::format("condition {}", id);
  };
  switch (e.type) {
    case EventType::ActionTaken: {
      if (e.source != kAllyActor) return std::nullopt;  // the player's own choices are shown as made
      const auto kind = static_cast<ActionKind>(e.subject);
      std::string what(action_kind_name(kind));
      if (kind == ActionKind::Skill && e.value < c.skills.size()) what = c.skills[e.value].name;
      if (kind == ActionKind::Item && e.value < c.items.size()) what = c.items[e.value].name;
      return fmt::format("{}: {}{}", actor(e.source), what,
                         e.target != kNobody ? " at " + actor(e.target) : "");
    }
    case EventType::EnemyActed: {
      if (e.value >= c.enemies.size()) return std::nullopt;
      const auto& moves = c.enemies[e.value].move_list;
      return e.subject < moves.size() ? fmt::format("{} uses {}", actor(e.source), moves[e.subject].name)
                                      : fmt::format("{} is flipped and cannot act", actor(e.source));
    }
    case EventType::Damaged: {
      const auto block = static_cast<BlockLevel>(e.extra);
      return fmt::format("{} takes {} damage{}{}", actor(e.target), e.amount,
                         e.source != kNobody ? " from " + actor(e.source) : "",
                         block != BlockLevel::None ? fmt::format(" ({})", block_level_name(block)) : "");
    }
    case EventType::Healed:
      return fmt::format("{} recovers {} {}", actor(e.target), e.amount, e.extra == 1 ? "TP" : "HP");
    case EventType::ConditionApplied:
      return fmt::format("{}: {} for {} turn(s)", actor(e.target), condition(e.subject), e.amount);
    case EventType::ConditionResisted:
      return fmt::format("{} resists {}", actor(e.target), condition(e.subject));
    case EventType::ConditionExpired:
      return fmt::format("{}: {} wears off", actor(e.target), condition(e.subject));
    case EventType::Relayed:
      return fmt::format("{} relays to {}", actor(e.source), actor(e.target));
    case EventType::Fled:
      return e.amount == 1 ? std::string("the party runs away") : std::string("the party fails to run away");
    case EventType::ActorDown:
      return fmt::format("{} is down", actor(e.target));
    case EventType::ReserveJoined:
      return fmt::format("{} joins the battle",
                         e.value < c.enemies.size() ? c.enemies[e.value].name : actor(e.target));
    default:
      return std::nullopt;
  }
}

bool cleared_as_holder_went_down(std::span<const Event> log, std::size_t index) {
  if (index >= log.size() || log[index].type != EventType::ConditionExpired) return false;
  const ActorRef holder = log[index].target;
  std::size_t next = index + 1;
  while (next < log.size() && log[next].type == EventType::ConditionExpired && log[next].target == holder)
    ++next;
  return next < log.size() && log[next].type == EventType::ActorDown && log[next].target == holder;
}

std::string action_label(const Battle& b, const Action& a) {
  const BattleState& s = b.state();
  const Catalog& c = b.catalog();
  const std::string who = s.current >= 0 ? member_name(b, s.current) + ": " : "";
  switch (a.kind) {
    case ActionKind::Attack:
      return who + "attack " + enemy_name(b, a.target);
    case ActionKind::Skill: {
      if (s.current < 0) return "skill";
      const auto& skills = c.members[s.members[static_cast<std::size_t>(s.current)].def].skills;
      if (a.index >= skills.size()) return who + "skill ?";
      const SkillDef& sk = c.skills[skills[a.index]];
      return who + fmt::format("{} ({} {})", sk.name, sk.cost, sk.cost_in_hp ? "HP" : "TP") +
             target_text(b, sk.target, a.target, sk.reach);
    }
    case ActionKind::Item: {
      if (a.index >= s.items.size()) return who + "item ?";
      const ItemDef& it = c.items[s.items[a.index].item];
      return who + fmt::format("use {} (x{})", it.name, s.items[a.index].count) +
             target_text(b, it.target, a.target);
    }
    case ActionKind::Relay:
      return who + "relay to " + member_name(b, a.target);
    case ActionKind::DoNothing:
      return who + "do nothing";
    case ActionKind::Flee:
      return who + fmt::format("flee ({}%)", c.encounters[s.encounter].flee_chance);
    case ActionKind::Swap:
      return who + "swap (rotate the formation)";
    case ActionKind::Deselect:
      return who + "back (select the next member)";
    case ActionKind::CompanionAttack:
      return "companion: attack " + enemy_name(b, a.target);
    case ActionKind::CompanionSpecial: {
      const CompanionDef& comp = c.companions[*c.parties[c.encounters[s.encounter].party].companion];
      return fmt::format("companion: {} ({} TP) at ", comp.special_name, comp.special_cost) +
             enemy_name(b, a.target);
    }
    case ActionKind::CompanionPass:
      return "companion: do nothing";
    case ActionKind::Block:
      return std::string("block: ") + (a.index == 0   ? "no block"
                                       : a.index == 1 ? "block (-1 damage)"
                                                      : "super block (-2 damage)");
  }
  return "?";
}

nlohmann::json state_view(const Battle& b) {
  const BattleState& s = b.state();
  const Catalog& c = b.catalog();
  nlohmann::json j;
  j["rules"] = "party";
  j["phase"] = phase_name(b.phase());
  j["status"] = status_name(b.status());
  j["turn"] = s.turn;
  if (!b.started()) return j;
  j["encounter"] = c.encounters[s.encounter].id;
  j["tp"] = s.tp;
  j["max_tp"] = s.max_tp;
  j["selected"] = s.current >= 0
                      ? nlohmann::json(c.members[s.members[static_cast<std::size_t>(s.current)].def].id)
                      : nlohmann::json(nullptr);
  nlohmann::json members = nlohmann::json::array();
  for (std::size_t slot = 0; slot < s.formation.size(); ++slot) {
    const std::size_t i = s.formation[slot];
    const MemberState& m = s.members[i];
    members.push_back({{"index", i},
                       {"slot", slot},
                       {"id", c.members[m.def].id},
                       {"name", c.members[m.def].name},
                       {"hp", m.hp},
                       {"max_hp", m.max_hp},
                       {"counter", m.cantmove},
                       {"exhaustion", m.tired},
                       {"charge", m.charge},
                       {"relayed", m.has_passed},
                       {"conditions", conditions_json(c, m.conditions)}});
  }
  j["members"] = members;
  nlohmann::json enemies = nlohmann::json::array();
  for (std::size_t i = 0; i < s.enemies.size(); ++i) {
    const EnemyState& e = s.enemies[i];
    enemies.push_back({{"slot", i},
                       {"number", e.uid},
                       {"id", c.enemies[e.def].id},
                       {"name", c.enemies[e.def].name},
                       {"hp", e.hp},
                       {"max_hp", e.max_hp},
                       {"counter", e.cantmove},
                       {"position", e.position == Position::Flying ? "flying" : "ground"},
                       {"conditions", conditions_json(c, e.conditions)}});
  }
  j["enemies"] = enemies;
  nlohmann::json reserves = nlohmann::json::array();
  for (EnemyId r : s.reserves) reserves.push_back(c.enemies[r].id);
  j["reserves"] = reserves;
  nlohmann::json items = nlohmann::json::array();
  for (std::size_t i = 0; i < s.items.size(); ++i)
    items.push_back({{"slot", i}, {"id", c.items[s.items[i].item].id}, {"count", s.items[i].count}});
  j["items"] = items;
  const PartyDef& party = c.parties[c.encounters[s.encounter].party];
  if (party.companion)
    j["companion"] = {{"id", c.companions[*party.companion].id},
                      {"acted", s.companion_acted},
                      {"locked", s.companion_locked}};
  if (party.ally) j["ally"] = {{"id", c.allies[*party.ally].id}, {"acted", s.ally_acted}};
  nlohmann::json projectiles = nlohmann::json::array();
  for (const Projectile& p : s.projectiles)
    projectiles.push_back({{"slot", p.slot}, {"damage", p.damage}, {"turns", p.turns}});
  j["projectiles"] = projectiles;
  nlohmann::json cycle = nlohmann::json::array();
  for (std::int8_t m : s.last_turns) cycle.push_back(m);
  j["select_cycle"] = cycle;
  j["decision"] = decision_kind_name(b.decision_kind());
  return j;
}

nlohmann::json decision_view(const Battle& b) {
  const Decision d = b.decision();
  nlohmann::json j;
  j["kind"] = decision_kind_name(d.kind);
  j["who"] = d.who.kind == Decider::Kind::Actor    ? nlohmann::json{{"actor", d.who.index}}
             : d.who.kind == Decider::Kind::Player ? nlohmann::json("player")
                                                   : nlohmann::json(nullptr);
  nlohmann::json options = nlohmann::json::array();
  for (std::size_t i = 0; i < d.options.size(); ++i)
    options.push_back(
        {{"index", i}, {"action", action_to_json(d.options[i])}, {"label", action_label(b, d.options[i])}});
  j["options"] = options;
  return j;
}

std::string render_text(const Battle& b) {
  const BattleState& s = b.state();
  const Catalog& c = b.catalog();
  std::string out =
      fmt::format("-- turn {} | {} | TP {}/{}\n", s.turn, phase_name(b.phase()), s.tp, s.max_tp);
  for (std::size_t slot = 0; slot < s.formation.size(); ++slot) {
    const MemberState& m = s.members[s.formation[slot]];
    out += fmt::format("  {}{} {:<8} HP {:>2}/{:<2} counter {:>2}{}\n", slot == 0 ? "*" : " ",
                       s.current == s.formation[slot] ? ">" : " ", c.members[m.def].name, m.hp, m.max_hp,
                       m.cantmove, conditions_text(c, m.conditions));
  }
  for (std::size_t i = 0; i < s.enemies.size(); ++i) {
    const EnemyState& e = s.enemies[i];
    out +=
        fmt::format("  enemy {} {:<14} HP {:>2}/{:<2} {}{}\n", i, c.enemies[e.def].name, e.hp, e.max_hp,
                    e.position == Position::Flying ? "flying" : "ground", conditions_text(c, e.conditions));
  }
  if (!s.reserves.empty()) out += fmt::format("  reserves: {}\n", s.reserves.size());
  if (b.decision_kind() == DecisionKind::Block) {
    const EnemyActionCursor& cur = s.enemy_action;
    for (const EnemyState& e : s.enemies)
      if (e.uid == cur.enemy_uid)
        out += fmt::format("  {} uses {} on {}: block?\n", c.enemies[e.def].name,
                           c.enemies[e.def].move_list[cur.move].name,
                           member_name(b, cur.targets[cur.target_pos]));
  }
  return out;
}

}  // namespace battlecore::party
