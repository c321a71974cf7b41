#include "battlecore/deckbuilder/events.hpp"

#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/deckbuilder/phases.hpp"

namespace battlecore::deckbuilder {

std::string_view pile_name(Pile p) {
  switch (p) {
    case Pile::Draw:
      return "draw";
    case Pile::Hand:
      return "hand";
    case Pile::Discard:
      return "discard";
    case Pile::Exhaust:
      return "exhaust";
    case Pile::None:
      return "none";
  }
  return "?";
}

std::string_view event_type_name(EventType t) {
  switch (t) {
    case EventType::PhaseChanged:
      return "PhaseChanged";
    case EventType::BattleStarted:
      return "BattleStarted";
    case EventType::TurnStarted:
      return "TurnStarted";
    case EventType::DrawPhase:
      return "DrawPhase";
    case EventType::CardDrawn:
      return "CardDrawn";
    case EventType::PileShuffled:
      return "PileShuffled";
    case EventType::CardPlayed:
      return "CardPlayed";
    case EventType::CardMoved:
      return "CardMoved";
    case EventType::DamageDealt:
      return "DamageDealt";
    case EventType::ArmorGained:
      return "ArmorGained";
    case EventType::StatusApplied:
      return "StatusApplied";
    case EventType::StatusExpired:
      return "StatusExpired";
    case EventType::UnitDied:
      return "UnitDied";
    case EventType::DiscardPhase:
      return "DiscardPhase";
    case EventType::TurnEnded:
      return "TurnEnded";
    case EventType::EnemyTurnStarted:
      return "EnemyTurnStarted";
    case EventType::EnemyIntent:
      return "EnemyIntent";
    case EventType::EnemyActed:
      return "EnemyActed";
    case EventType::BattleEnded:
      return "BattleEnded";
    case EventType::EnergyChanged:
      return "EnergyChanged";
    case EventType::Healed:
      return "Healed";
    case EventType::HpLost:
      return "HpLost";
    case EventType::CardCreated:
      return "CardCreated";
    case EventType::CostChanged:
      return "CostChanged";
    case EventType::CardUpgraded:
      return "CardUpgraded";
    case EventType::HookRegistered:
      return "HookRegistered";
    case EventType::HookExpired:
      return "HookExpired";
    case EventType::DelayedScheduled:
      return "DelayedScheduled";
    case EventType::DelayedFired:
      return "DelayedFired";
    case EventType::ChoiceOffered:
      return "ChoiceOffered";
    case EventType::ChoiceMade:
      return "ChoiceMade";
    case EventType::TurnSkipped:
      return "TurnSkipped";
    case EventType::ExtraTurnGranted:
      return "ExtraTurnGranted";
    case EventType::BattleRewardOffered:
      return "BattleRewardOffered";
    case EventType::BattleRewardSelected:
      return "BattleRewardSelected";
    case EventType::BattleRewardSkipped:
      return "BattleRewardSkipped";
    case EventType::LimitReached:
      return "LimitReached";
  }
  return "?";
}

std::string_view limit_name(Limit l) {
  switch (l) {
    case Limit::CardInstances:
      return "card_instances";
    case Limit::UnitStatuses:
      return "unit_statuses";
    case Limit::Hooks:
      return "hooks";
    case Limit::Delayed:
      return "delayed";
  }
  return "?";
}

namespace {
nlohmann::json unit_json(UnitRef u) {
  if (u == kNoUnit) return nullptr;
  if (u == kPlayerUnit) return "player";
  return "enemy " + std::to_string(u - 1);
}
std::string card_name(const Catalog& c, std::uint16_t def) {
  return def < c.cards.size() ? c.cards[def].id : "?";
}
}  // namespace

nlohmann::json event_to_json(const Event& e, const Catalog& c) {
  nlohmann::json j = {{"type", event_type_name(e.type)}};
  switch (e.type) {
    case EventType::PhaseChanged:
      j["from"] = phase_name(static_cast<Phase>(e.subject));
      j["to"] = phase_name(static_cast<Phase>(e.value));
      j["trigger"] = trigger_name(static_cast<Trigger>(e.amount));
      break;
    case EventType::BattleStarted:
      j["encounter"] = e.subject < c.encounters.size() ? c.encounters[e.subject].id : "?";
      break;
    case EventType::TurnStarted:
    case EventType::DrawPhase:
    case EventType::DiscardPhase:
    case EventType::TurnEnded:
    case EventType::EnemyTurnStarted:
      j["turn"] = e.amount;
      break;
    case EventType::CardDrawn:
      j["card"] = e.subject;
      j["card_id"] = card_name(c, e.value);
      break;
    case EventType::PileShuffled:
      j["cards"] = e.amount;
      break;
    case EventType::CardPlayed:
      j["card"] = e.subject;
      j["card_id"] = card_name(c, e.value);
      j["target"] = unit_json(e.target);
      j["energy"] = e.amount;
      break;
    case EventType::CardMoved:
      j["card"] = e.subject;
      j["card_id"] = card_name(c, e.value);
      j["from"] = pile_name(static_cast<Pile>(e.amount));
      j["to"] = pile_name(static_cast<Pile>(e.extra));
      break;
    case EventType::DamageDealt:
      j["source"] = unit_json(e.source);
      j["target"] = unit_json(e.target);
      j["hp_lost"] = e.amount;
      j["armor_absorbed"] = e.extra;
      break;
    case EventType::ArmorGained:
      j["target"] = unit_json(e.target);
      j["amount"] = e.amount;
      break;
    case EventType::StatusApplied:
      j["source"] = unit_json(e.source);
      j["target"] = unit_json(e.target);
      j["status"] = e.subject < c.statuses.size() ? c.statuses[e.subject].id : "?";
      j["stacks"] = e.amount;
      j["total"] = e.extra;
      break;
    case EventType::StatusExpired:
      j["target"] = unit_json(e.target);
      j["status"] = e.subject < c.statuses.size() ? c.statuses[e.subject].id : "?";
      break;
    case EventType::UnitDied:
      j["target"] = unit_json(e.target);
      break;
    case EventType::EnemyIntent:
    case EventType::EnemyActed:
      j["enemy"] = unit_json(e.source);
      j["move"] = e.value < c.enemies.size() && e.subject < c.enemies[e.value].moves.size()
                      ? c.enemies[e.value].moves[e.subject].id
                      : "?";
      break;
    case EventType::BattleEnded:
      j["won"] = e.amount == 1;
      break;
    case EventType::EnergyChanged:
      j["change"] = e.amount;
      j["energy"] = e.extra;
      break;
    case EventType::Healed:
    case EventType::HpLost:
      j["target"] = unit_json(e.target);
      j["amount"] = e.amount;
      break;
    case EventType::CardCreated:
      j["card"] = e.subject;
      j["card_id"] = card_name(c, e.value);
      j["pile"] = pile_name(static_cast<Pile>(e.amount));
      break;
    case EventType::CostChanged:
      j["card"] = e.subject;
      j["cost"] = e.amount;
      break;
    case EventType::CardUpgraded:
      j["card"] = e.subject;
      j["card_id"] = card_name(c, e.value);
      j["from"] = card_name(c, static_cast<std::uint16_t>(e.amount));
      break;
    case EventType::HookRegistered:
    case EventType::HookExpired:
      j["hook"] = e.subject < c.hooks.size() ? c.hooks[e.subject].id : "?";
      j["owner"] = unit_json(e.target);
      break;
    case EventType::DelayedScheduled:
    case EventType::DelayedFired:
      j["block"] = e.subject;
      j["timing"] = e.amount == 0   ? "player_turn_start"
                    : e.amount == 1 ? "player_turn_end"
                                    : "enemy_phase_end";
      break;
    case EventType::ChoiceOffered:
      j["options"] = e.amount;
      j["kind"] = static_cast<std::size_t>(e.extra) < kChoiceKindNames.size()
                      ? kChoiceKindNames[static_cast<std::size_t>(e.extra)]
                      : "?";
      break;
    case EventType::ChoiceMade:
      j["option"] = e.amount;
      break;
    case EventType::TurnSkipped:
      j["turn"] = e.amount;
      break;
    case EventType::ExtraTurnGranted:
      j["pending"] = e.amount;
      break;
    case EventType::BattleRewardOffered:
      j["candidates"] = e.amount;
      break;
    case EventType::BattleRewardSelected:
      j["card_id"] = card_name(c, e.value);
      break;
    case EventType::BattleRewardSkipped:
      break;
    case EventType::LimitReached:
      j["limit"] = limit_name(static_cast<Limit>(e.amount));
      j["max"] = e.extra;
      switch (static_cast<Limit>(e.amount)) {
        case Limit::CardInstances:
          j["card_id"] = card_name(c, e.subject);
          break;
        case Limit::UnitStatuses:
          j["target"] = unit_json(e.target);
          j["status"] = e.subject < c.statuses.size() ? c.statuses[e.subject].id : "?";
          break;
        case Limit::Hooks:
          j["hook"] = e.subject < c.hooks.size() ? c.hooks[e.subject].id : "?";
          j["owner"] = unit_json(e.target);
          break;
        case Limit::Delayed:
          j["block"] = e.subject;
          break;
      }
      break;
  }
  return j;
}

}  // namespace battlecore::deckbuilder
