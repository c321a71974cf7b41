#include "battlecore/deckbuilder/actions.hpp"

#include <array>
#include <span>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/piles.hpp"

namespace battlecore::deckbuilder {

namespace {

/// The keys action_to_json writes for an action type (card_id names the card for a reader and
/// is not checked); empty for a type that does not exist.
std::span<const std::string_view> action_keys(std::string_view type) {
  static constexpr std::array<std::string_view, 1> kTypeOnly = {"type"};
  static constexpr std::array<std::string_view, 2> kIndexed = {"type", "index"};
  static constexpr std::array<std::string_view, 4> kPlay = {"type", "card", "card_id", "target"};
  if (type == "play_card") return kPlay;
  if (type == "choose" || type == "take_reward") return kIndexed;
  if (type == "end_turn" || type == "skip_choice" || type == "skip_reward") return kTypeOnly;
  return {};
}

}  // namespace

std::string_view action_kind_name(ActionKind k) {
  switch (k) {
    case ActionKind::PlayCard:
      return "play_card";
    case ActionKind::EndTurn:
      return "end_turn";
    case ActionKind::ChooseOption:
      return "choose";
    case ActionKind::SkipChoice:
      return "skip_choice";
    case ActionKind::TakeReward:
      return "take_reward";
    case ActionKind::SkipReward:
      return "skip_reward";
  }
  return "?";
}

std::string_view play_check_name(PlayCheck c) {
  switch (c) {
    case PlayCheck::Ok:
      return "ok";
    case PlayCheck::WrongPhase:
      return "the phase is not PlayerPhase";
    case PlayCheck::NullCard:
      return "the card is null";
    case PlayCheck::MissingPlayer:
      return "the player unit is missing";
    case PlayCheck::NotInHand:
      return "the card is not in hand";
    case PlayCheck::NoActiveDefinition:
      return "the card has no active card definition";
    case PlayCheck::CannotPayCost:
      return "the player cannot pay the effective energy cost";
    case PlayCheck::CancelledByOnPlayHook:
      return "the on-play hook cancels the play";
    case PlayCheck::Unplayable:
      return "the card has the Unplayable keyword";
    case PlayCheck::RefusedByPlayableHook:
      return "the card playable hook cancels or returns false";
    case PlayCheck::TurnPlayLimit:
      static_assert(kMaxCards == 64, "the message names the limit");
      return "64 cards were played this turn, the most a turn holds";
  }
  return "?";
}

std::string_view refusal_reason_name(RefusalReason r) {
  switch (r) {
    case RefusalReason::NoBattle:
      return "no_battle";
    case RefusalReason::BattleOver:
      return "battle_over";
    case RefusalReason::NotYourDecision:
      return "not_your_decision";
    case RefusalReason::CannotPlayCard:
      return "cannot_play_card";
    case RefusalReason::InvalidTarget:
      return "invalid_target";
    case RefusalReason::WaitingForChoice:
      return "waiting_for_choice";
    case RefusalReason::WaitingForReward:
      return "waiting_for_reward";
    case RefusalReason::InvalidOption:
      return "invalid_option";
  }
  return "?";
}

nlohmann::json action_to_json(const Action& a, const std::string* card_id) {
  nlohmann::json j = {{"type", action_kind_name(a.kind)}};
  if (a.kind == ActionKind::PlayCard) {
    j["card"] = a.card;
    if (card_id != nullptr) j["card_id"] = *card_id;
    if (a.target >= 0) j["target"] = a.target;
  }
  if (a.kind == ActionKind::ChooseOption || a.kind == ActionKind::TakeReward) j["index"] = a.index;
  return j;
}

Result<Action> action_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Error{"an action must be a JSON object"};
  const auto type = j.find("type");
  if (type == j.end() || !type->is_string())
    return Error{
        "an action needs \"type\": play_card, end_turn, choose, skip_choice, take_reward or skip_reward"};
  const auto& t = type->get_ref<const std::string&>();
  const std::span<const std::string_view> allowed = action_keys(t);
  if (allowed.empty())
    return Error{"unknown action type '" + t +
                 "'; expected play_card, end_turn, choose, skip_choice, take_reward or skip_reward"};
  if (auto unknown = content::unknown_key(j, allowed)) return Error{*unknown};
  if (t == "end_turn") return Action::end_turn();
  if (t == "skip_choice") return Action::skip_choice();
  if (t == "skip_reward") return Action::skip_reward();
  if (t == "choose" || t == "take_reward") {
    const auto index = j.find("index");
    if (index == j.end() || !index->is_number_integer() || index->get<std::int64_t>() < 0 ||
        index->get<std::int64_t>() > 255)
      return Error{t + " needs \"index\": an option number in [0, 255]"};
    const auto i = static_cast<std::uint8_t>(index->get<std::int64_t>());
    return t == "choose" ? Action::choose(i) : Action::take_reward(i);
  }
  const auto card = j.find("card");
  if (card == j.end() || !card->is_number_integer() || card->get<std::int64_t>() < 0 ||
      card->get<std::int64_t>() >= kNoCard)
    return Error{"play_card needs \"card\": a card instance number in [0, 254]"};
  std::int64_t target = -1;
  if (const auto tg = j.find("target"); tg != j.end()) {
    if (!tg->is_number_integer() || tg->get<std::int64_t>() < -1 || tg->get<std::int64_t>() > 127)
      return Error{"\"target\" must be an enemy index (or -1 for none)"};
    target = tg->get<std::int64_t>();
  }
  return Action::play(static_cast<CardRef>(card->get<std::int64_t>()), static_cast<std::int8_t>(target));
}

}  // namespace battlecore::deckbuilder
