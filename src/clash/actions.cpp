#include "battlecore/clash/actions.hpp"

#include <array>
#include <span>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"

namespace battlecore::clash {

namespace {

/// The keys action_to_json writes for an action type; empty for a type that does not exist.
std::span<const std::string_view> action_keys(std::string_view type) {
  static constexpr std::array<std::string_view, 2> kRoll = {"type", "seat"};
  static constexpr std::array<std::string_view, 3> kChooseRock = {"type", "seat", "rock"};
  static constexpr std::array<std::string_view, 3> kPlay = {"type", "seat", "slot"};
  if (type == "roll") return kRoll;
  if (type == "choose_rock") return kChooseRock;
  if (type == "play_card") return kPlay;
  return {};
}

}  // namespace

std::string_view action_kind_name(ActionKind k) {
  switch (k) {
    case ActionKind::Roll:
      return "roll";
    case ActionKind::ChooseRock:
      return "choose_rock";
    case ActionKind::PlayCard:
      return "play_card";
  }
  return "?";
}

std::string_view refusal_reason_name(RefusalReason r) {
  switch (r) {
    case RefusalReason::NoBattle:
      return "no_battle";
    case RefusalReason::BattleOver:
      return "battle_over";
    case RefusalReason::NotYourTurn:
      return "not_your_turn";
    case RefusalReason::WrongStep:
      return "wrong_step";
    case RefusalReason::RockNotOffered:
      return "rock_not_offered";
    case RefusalReason::NoSuchCard:
      return "no_such_card";
    case RefusalReason::CardDoesNotMatch:
      return "card_does_not_match";
  }
  return "?";
}

nlohmann::json action_to_json(const Action& a) {
  nlohmann::json j = {{"type", action_kind_name(a.kind)}, {"seat", a.seat}};
  if (a.kind == ActionKind::ChooseRock) j["rock"] = a.value;
  if (a.kind == ActionKind::PlayCard) j["slot"] = a.value;
  return j;
}

Result<Action> action_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Error{"an action must be a JSON object"};
  const auto type = j.find("type");
  if (type == j.end() || !type->is_string())
    return Error{"an action needs \"type\": roll, choose_rock or play_card"};
  const auto& t = type->get_ref<const std::string&>();
  const std::span<const std::string_view> allowed = action_keys(t);
  if (allowed.empty())
    return Error{"unknown action type '" + t + "'; expected roll, choose_rock or play_card"};
  if (auto unknown = content::unknown_key(j, allowed)) return Error{*unknown};
  const auto seat = j.find("seat");
  if (seat == j.end() || !seat->is_number_integer() || seat->get<std::int64_t>() < 0 ||
      seat->get<std::int64_t>() > 3)
    return Error{"an action needs \"seat\": a seat index in [0, 3]"};
  const auto s = static_cast<SeatRef>(seat->get<std::int64_t>());
  const auto number = [&](const char* key, std::int64_t max) -> std::optional<std::uint8_t> {
    const auto v = j.find(key);
    if (v == j.end() || !v->is_number_integer() || v->get<std::int64_t>() < 0 || v->get<std::int64_t>() > max)
      return std::nullopt;
    return static_cast<std::uint8_t>(v->get<std::int64_t>());
  };
  if (t == "roll") return Action::roll(s);
  if (t == "choose_rock") {
    const auto rock = number("rock", 255);
    if (!rock) return Error{"choose_rock needs \"rock\": a rock index in [0, 255]"};
    return Action::choose_rock(s, *rock);
  }
  const auto slot = number("slot", 255);  // play_card
  if (!slot) return Error{"play_card needs \"slot\": a hand slot in [0, 255]"};
  return Action::play(s, *slot);
}

}  // namespace battlecore::clash
