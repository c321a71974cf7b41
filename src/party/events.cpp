#include "battlecore/party/events.hpp"

#include <array>

#include <nlohmann/json.hpp>

#include "battlecore/party/actions.hpp"
#include "battlecore/party/catalog.hpp"
#include "battlecore/party/phases.hpp"

namespace battlecore::party {

std::string_view event_type_name(EventType t) {
  constexpr std::array<std::string_view, 18> names = {"PhaseChanged",
                                                      "MainTurnStarted",
                                                      "MemberSelected",
                                                      "ActionTaken",
                                                      "Damaged",
                                                      "Healed",
                                                      "ConditionApplied",
                                                      "ConditionResisted",
                                                      "ConditionExpired",
                                                      "Relayed",
                                                      "EnemyActed",
                                                      "Blocked",
                                                      "Fled",
                                                      "TurnAdvanced",
                                                      "ActorDown",
                                                      "ReserveJoined",
                                                      "InactionFailsafe",
                                                      "BattleEnded"};
  return names[static_cast<std::size_t>(t)];
}

namespace {
nlohmann::json actor_json(ActorRef a) {
  if (a == kNobody) return nullptr;
  if (a == kCompanionActor) return "companion";
  if (a == kAllyActor) return "ally";
  if (is_member_actor(a)) return "member " + std::to_string(a);
  return "enemy #" + std::to_string(a - 16);
}
}  // namespace

nlohmann::json event_to_json(const Event& e, const Catalog& catalog) {
  nlohmann::json j = {{"type", event_type_name(e.type)}};
  if (e.source != kNobody) j["source"] = actor_json(e.source);
  if (e.target != kNobody) j["target"] = actor_json(e.target);
  auto condition_id = [&](std::uint16_t c) {
    return c < catalog.conditions.size() ? catalog.conditions[c].id : std::to_string(c);
  };
  switch (e.type) {
    case EventType::PhaseChanged:
      j["from"] = phase_name(static_cast<Phase>(e.subject));
      j["to"] = phase_name(static_cast<Phase>(e.value));
      j["trigger"] = trigger_name(static_cast<Trigger>(e.amount));
      break;
    case EventType::MainTurnStarted:
    case EventType::TurnAdvanced:
      j["turn"] = e.amount;
      break;
    case EventType::ActionTaken:
      j["action"] = action_kind_name(static_cast<ActionKind>(e.subject));
      if (e.subject == static_cast<std::uint16_t>(ActionKind::Skill) && e.value < catalog.skills.size())
        j["skill"] = catalog.skills[e.value].id;
      if (e.subject == static_cast<std::uint16_t>(ActionKind::Item) && e.value < catalog.items.size())
        j["item"] = catalog.items[e.value].id;
      break;
    case EventType::Damaged:
      j["amount"] = e.amount;
      j["block"] = block_level_name(static_cast<BlockLevel>(e.extra));
      break;
    case EventType::Healed:
      j["amount"] = e.amount;
      j["what"] = e.extra == 1 ? "tp" : "hp";
      break;
    case EventType::ConditionApplied:
      j["condition"] = condition_id(e.subject);
      j["turns"] = e.amount;
      break;
    case EventType::ConditionResisted:
    case EventType::ConditionExpired:
      j["condition"] = condition_id(e.subject);
      break;
    case EventType::EnemyActed:
      if (e.value < catalog.enemies.size()) {
        j["enemy"] = catalog.enemies[e.value].id;
        const auto& moves = catalog.enemies[e.value].move_list;
        j["move"] =
            e.subject < moves.size() ? nlohmann::json(moves[e.subject].id) : nlohmann::json("none (flipped)");
      }
      break;
    case EventType::Blocked:
      j["level"] = block_level_name(static_cast<BlockLevel>(e.amount));
      break;
    case EventType::Fled:
      j["success"] = e.amount == 1;
      break;
    case EventType::ReserveJoined:
      if (e.value < catalog.enemies.size()) j["enemy"] = catalog.enemies[e.value].id;
      break;
    case EventType::InactionFailsafe:
      j["turns"] = e.amount;
      break;
    case EventType::BattleEnded:
      j["outcome"] = e.amount == 0 ? "victory" : e.amount == 1 ? "defeat" : "fled";
      break;
    default:
      break;
  }
  return j;
}

}  // namespace battlecore::party
