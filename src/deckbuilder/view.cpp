#include "battlecore/deckbuilder/view.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace battlecore::deckbuilder {

namespace {

nlohmann::json statuses_json(const Catalog& c, const UnitState& u) {
  nlohmann::json arr = nlohmann::json::array();
  for (const StatusStack& st : u.statuses)
    arr.push_back({{"status", c.statuses[st.status].id}, {"stacks", st.stacks}});
  return arr;
}

nlohmann::json pile_json(const Battle& b, std::span<const CardRef> pile) {
  nlohmann::json arr = nlohmann::json::array();
  for (CardRef r : pile)
    arr.push_back({{"card", r}, {"card_id", b.catalog().cards[b.state().cards[r].def].id}});
  return arr;
}

/// A card's cost now, for people: "2", or for an X-cost card "X = 3" (the energy it would take).
std::string cost_text(const CardDef& def, std::int32_t cost) {
  return def.x_cost() ? fmt::format("X = {}", cost) : std::to_string(cost);
}

std::string statuses_text(const Catalog& c, const UnitState& u) {
  std::string out;
  for (const StatusStack& st : u.statuses)
    out += fmt::format(" {} {}", c.statuses[st.status].name, st.stacks);
  return out;
}

}  // namespace

nlohmann::json describe_action(const Battle& battle, const Action& action) {
  if (action.kind == ActionKind::PlayCard && action.card < battle.state().cards.size())
    return action_to_json(action, &battle.catalog().cards[battle.state().cards[action.card].def].id);
  return action_to_json(action);
}

nlohmann::json state_view(const Battle& battle) {
  const Catalog& c = battle.catalog();
  const BattleState& s = battle.state();
  nlohmann::json j;
  j["phase"] = phase_name(battle.phase());
  j["turn"] = s.turn;
  j["active"] = battle.is_battle_active();
  j["over"] = battle.is_battle_over();
  if (battle.phase() == Phase::None) return j;
  j["encounter"] = c.encounters[s.encounter].id;
  j["seed"] = s.seed;
  j["energy"] = s.energy;
  j["player"] = {{"hp", s.player.hp},
                 {"max_hp", s.player.max_hp},
                 {"armor", s.player.armor},
                 {"statuses", statuses_json(c, s.player)}};
  nlohmann::json enemies = nlohmann::json::array();
  for (std::size_t i = 0; i < s.enemies.size(); ++i) {
    const EnemyState& e = s.enemies[i];
    const EnemyDef& def = c.enemies[e.def];
    nlohmann::json ej = {{"index", i},
                         {"id", def.id},
                         {"name", def.name},
                         {"hp", e.unit.hp},
                         {"max_hp", e.unit.max_hp},
                         {"armor", e.unit.armor},
                         {"alive", e.unit.alive()},
                         {"statuses", statuses_json(c, e.unit)}};
    if (e.intent != kNoMove)
      ej["intent"] = {{"move", def.moves[e.intent].id}, {"intent", intent_name(def.moves[e.intent].intent)}};
    enemies.push_back(ej);
  }
  j["enemies"] = enemies;
  j["hand"] = pile_json(battle, s.hand());
  j["draw_pile"] = s.draw_pile().size();
  j["discard_pile"] = s.discard_pile().size();
  j["exhaust_pile"] = s.exhaust_pile().size();
  j["waiting_for_choice"] = battle.is_waiting_for_choice();
  j["waiting_for_reward"] = battle.is_waiting_for_reward();
  nlohmann::json hooks = nlohmann::json::array();
  for (const ActiveHook& h : s.hooks)
    hooks.push_back({{"hook", c.hooks[h.hook].id}, {"turns_left", h.turns_left}});
  j["hooks"] = hooks;
  j["delayed_triggers"] = s.delayed.size();
  if (battle.is_waiting_for_reward()) {
    nlohmann::json rewards = nlohmann::json::array();
    for (CardId r : s.reward_options) rewards.push_back(c.cards[r].id);
    j["reward_options"] = rewards;
  }
  if (s.reward_taken >= 0) j["reward_taken"] = c.cards[static_cast<std::size_t>(s.reward_taken)].id;
  return j;
}

nlohmann::json decision_view(const Battle& battle) {
  const Decision d = battle.decision();
  nlohmann::json options = nlohmann::json::array();
  for (std::size_t i = 0; i < d.options.size(); ++i) {
    nlohmann::json o = describe_action(battle, d.options[i]);
    o["index"] = i;
    options.push_back(o);
  }
  return {{"status", status_name(battle.status())},
          {"who", d.who.kind == Decider::Kind::Player ? "player" : "nobody"},
          {"options", options}};
}

namespace {
/// What option `index` of the pending Choice is, in words.
std::string choice_option_label(const Battle& battle, std::uint8_t index) {
  const Catalog& c = battle.catalog();
  const PendingChoice& pc = battle.state().choice;
  if (pc.kind == PendingChoice::Kind::Options) {
    const std::size_t block = pc.first_block + std::size_t{index};
    return block < c.block_labels.size() ? c.block_labels[block] : fmt::format("option {}", index);
  }
  const BattleState& s = battle.state();
  std::array<std::uint8_t, kMaxCards> eligible{};
  const std::size_t n = s.choice_cards(c, eligible);
  if (index >= n) return fmt::format("card {}", index);
  const CardRef card = s.choice_pile(pc.kind)[eligible[index]];
  const Pile to = choice_destination_pile(pc.kind);
  const std::string_view verb = choice_upgrades(pc.kind) ? "upgrade"
                                : to == Pile::Discard    ? "discard"
                                : to == Pile::Exhaust    ? "exhaust"
                                : to == Pile::Hand       ? "put in hand"
                                                         : "put on the draw pile";
  return fmt::format("{} {}", verb, c.cards[s.cards[card].def].name);
}
}  // namespace

std::string action_label(const Battle& battle, const Action& action) {
  const Catalog& c = battle.catalog();
  switch (action.kind) {
    case ActionKind::EndTurn:
      return "end turn";
    case ActionKind::ChooseOption:
      return "choose: " + choice_option_label(battle, action.index);
    case ActionKind::SkipChoice:
      return "skip the choice";
    case ActionKind::TakeReward:
      return action.index < battle.state().reward_options.size()
                 ? "take reward: " + c.cards[battle.state().reward_options[action.index]].name
                 : fmt::format("take reward {}", action.index);
    case ActionKind::SkipReward:
      return "skip the reward";
    case ActionKind::PlayCard:
      break;
  }
  const CardDef* def = battle.active_card(action.card);
  std::string out =
      def ? fmt::format("play {} (cost {})", def->name, cost_text(*def, battle.effective_cost(action.card)))
          : fmt::format("play #{}", action.card);
  if (action.target >= 0 && static_cast<std::size_t>(action.target) < battle.state().enemies.size())
    out += fmt::format(" at {} [{}]",
                       c.enemies[battle.state().enemies[static_cast<std::size_t>(action.target)].def].name,
                       action.target);
  return out;
}

namespace {
/// "you", or an enemy's name and index as the board shows them.
std::string unit_text(const Battle& battle, UnitRef u) {
  if (u == kPlayerUnit) return "you";
  const auto i = static_cast<std::size_t>(u - 1);
  if (u < 1 || i >= battle.state().enemies.size()) return fmt::format("unit {}", u);
  return fmt::format("{} [{}]", battle.catalog().enemies[battle.state().enemies[i].def].name, i);
}

std::string status_text(const Catalog& c, std::uint16_t status) {
  return status < c.statuses.size() ? c.statuses[status].name : fmt::format("status {}", status);
}

std::string hook_text(const Catalog& c, std::uint16_t hook) {
  return hook < c.hooks.size() ? c.hooks[hook].id : fmt::format("hook {}", hook);
}

/// When a delayed effect fires, by its timing (an event's amount).
std::string_view timing_text(std::int32_t timing) {
  switch (static_cast<DelayedTiming>(timing)) {
    case DelayedTiming::PlayerTurnStart:
      return "at the start of a player turn";
    case DelayedTiming::PlayerTurnEnd:
      return "at the end of a player turn";
    case DelayedTiming::EnemyPhaseEnd:
      break;
  }
  return "at the end of an enemy phase";
}
}  // namespace

std::optional<std::string> event_text(const Battle& battle, const Event& e) {
  const Catalog& c = battle.catalog();
  switch (e.type) {
    case EventType::EnemyActed: {
      const auto i = static_cast<std::size_t>(e.source - 1);
      if (e.source < 1 || i >= battle.state().enemies.size()) return std::nullopt;
      const EnemyDef& def = c.enemies[battle.state().enemies[i].def];
      return fmt::format("{} uses {}", unit_text(battle, e.source),
                         e.subject < def.moves.size() ? def.moves[e.subject].name : "a move");
    }
    case EventType::DamageDealt: {
      const std::string absorbed = e.extra > 0 ? fmt::format(", {} absorbed by armor", e.extra) : "";
      if (e.source == kNoUnit)
        return fmt::format("{}: {} damage{}", unit_text(battle, e.target), e.amount, absorbed);
      return fmt::format("{} -> {}: {} damage{}", unit_text(battle, e.source), unit_text(battle, e.target),
                         e.amount, absorbed);
    }
    case EventType::ArmorGained:
      return fmt::format("{}: +{} armor", unit_text(battle, e.target), e.amount);
    case EventType::StatusApplied:
      return fmt::format("{}: {} {:+} (now {})", unit_text(battle, e.target), status_text(c, e.subject),
                         e.amount, e.extra);
    case EventType::StatusExpired:
      return fmt::format("{}: {} wears off", unit_text(battle, e.target), status_text(c, e.subject));
    case EventType::Healed:
      return fmt::format("{}: +{} HP", unit_text(battle, e.target), e.amount);
    case EventType::HpLost:
      return fmt::format("{}: -{} HP", unit_text(battle, e.target), e.amount);
    case EventType::UnitDied:
      return fmt::format("{}: down", unit_text(battle, e.target));
    case EventType::PileShuffled:
      return fmt::format("the discard pile is shuffled into the draw pile ({} cards)", e.amount);
    case EventType::TurnSkipped:
      return fmt::format("turn {} is skipped", e.amount);
    case EventType::CardCreated: {
      const std::string card = e.value < c.cards.size() ? c.cards[e.value].name : "a card";
      if (static_cast<Pile>(e.amount) == Pile::Hand) return fmt::format("{} is added to your hand", card);
      return fmt::format("{} is added to the {} pile", card, pile_name(static_cast<Pile>(e.amount)));
    }
    case EventType::CardUpgraded:
      return fmt::format("{} is upgraded to {}",
                         static_cast<std::size_t>(e.amount) < c.cards.size()
                             ? c.cards[static_cast<std::size_t>(e.amount)].name
                             : "a card",
                         e.value < c.cards.size() ? c.cards[e.value].name : "a card");
    case EventType::ExtraTurnGranted:
      return e.amount > 1 ? fmt::format("you will take an extra turn ({} pending)", e.amount)
                          : std::string("you will take an extra turn");
    case EventType::HookRegistered: {
      const std::uint8_t turns = e.subject < c.hooks.size() ? c.hooks[e.subject].duration : 0;
      return fmt::format("{}: {} in effect {}", unit_text(battle, e.target), hook_text(c, e.subject),
                         turns == 0   ? std::string("for the rest of the battle")
                         : turns == 1 ? std::string("for 1 turn")
                                      : fmt::format("for {} turns", turns));
    }
    case EventType::HookExpired:
      return fmt::format("{}: {} ends", unit_text(battle, e.target), hook_text(c, e.subject));
    case EventType::DelayedScheduled:
      return fmt::format("a delayed effect is set to fire {}", timing_text(e.amount));
    case EventType::DelayedFired:
      return fmt::format("a delayed effect fires {}", timing_text(e.amount));
    case EventType::LimitReached:
      switch (static_cast<Limit>(e.amount)) {
        case Limit::CardInstances:
          return fmt::format("{} is not created: the battle holds {} cards, the most it can",
                             e.subject < c.cards.size() ? c.cards[e.subject].name : "a card", e.extra);
        case Limit::UnitStatuses:
          return fmt::format("{}: {} is not applied: {} statuses held, the most a unit can",
                             unit_text(battle, e.target), status_text(c, e.subject), e.extra);
        case Limit::Hooks:
          return fmt::format("{}: {} is not put in effect: {} hooks are, the most at once",
                             unit_text(battle, e.target), hook_text(c, e.subject), e.extra);
        case Limit::Delayed:
          return fmt::format("a delayed effect is not set: {} are, the most at once", e.extra);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

namespace {
/// What the player knows of the draw pile's top, for the text view: "" when nothing, else " (on
/// top: A, B)" for the cards put there from the hand, top first, and the Innate cards under them
/// sorted by name, their order unseen.
std::string known_on_top_text(const Battle& battle) {
  const Catalog& c = battle.catalog();
  const BattleState& s = battle.state();
  const std::size_t known = s.known_on_top();
  if (known == 0) return "";
  const std::size_t in_order = s.known_in_order_on_top();
  const DrawPileView draw = s.draw_pile();
  const auto name = [&](std::size_t from_top) {
    return std::string(c.cards[s.cards[draw[draw.size() - 1 - from_top]].def].name);
  };
  std::vector<std::string> ordered, unordered;
  for (std::size_t k = 0; k < in_order; ++k) ordered.push_back(name(k));
  for (std::size_t k = in_order; k < known; ++k) unordered.push_back(name(k));
  std::sort(unordered.begin(), unordered.end());
  if (unordered.empty()) return fmt::format(" (on top: {})", fmt::join(ordered, ", "));
  if (ordered.empty()) return fmt::format(" (on top, in an unknown order: {})", fmt::join(unordered, ", "));
  return fmt::format(" (on top: {}; under them, in an unknown order: {})", fmt::join(ordered, ", "),
                     fmt::join(unordered, ", "));
}
}  // namespace

std::string render_text(const Battle& battle) {
  const Catalog& c = battle.catalog();
  const BattleState& s = battle.state();
  if (battle.phase() == Phase::None) return "no battle\n";
  std::string out = fmt::format("turn {} | phase {} | energy {}/{}\n", s.turn, phase_name(battle.phase()),
                                s.energy, c.encounters[s.encounter].rules.max_energy);
  out += fmt::format("you: {}/{} HP, {} armor{}\n", s.player.hp, s.player.max_hp, s.player.armor,
                     statuses_text(c, s.player));
  for (std::size_t i = 0; i < s.enemies.size(); ++i) {
    const EnemyState& e = s.enemies[i];
    const EnemyDef& def = c.enemies[e.def];
    if (!e.unit.alive()) {
      out += fmt::format("[{}] {}: dead\n", i, def.name);
      continue;
    }
    std::string intent;
    if (e.intent != kNoMove)
      intent = fmt::format(" | intends {} ({})", def.moves[e.intent].name,
                           intent_name(def.moves[e.intent].intent));
    out += fmt::format("[{}] {}: {}/{} HP, {} armor{}{}\n", i, def.name, e.unit.hp, e.unit.max_hp,
                       e.unit.armor, statuses_text(c, e.unit), intent);
  }
  out += "hand:";
  for (CardRef r : s.hand())
    out += fmt::format(" {}({})", c.cards[s.cards[r].def].name,
                       cost_text(c.cards[s.cards[r].def], battle.effective_cost(r)));
  out += fmt::format("\ndraw {}{} | discard {} | exhaust {}\n", s.draw_pile().size(),
                     known_on_top_text(battle), s.discard_pile().size(), s.exhaust_pile().size());
  if (battle.is_waiting_for_choice()) out += "a choice is waiting:\n";
  if (battle.is_waiting_for_reward()) out += "victory! choose a card reward:\n";
  return out;
}

}  // namespace battlecore::deckbuilder
