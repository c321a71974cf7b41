#include "battlecore/party/actions.hpp"

#include <array>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"

namespace battlecore::party {

namespace {
constexpr std::array<std::string_view, kActionKindCount> kKindNames = {"attack",
                                                                       "skill",
                                                                       "item",
                                                                       "relay",
                                                                       "do_nothing",
                                                                       "flee",
                                                                       "swap",
                                                                       "deselect",
                                                                       "companion_attack",
                                                                       "companion_special",
                                                                       "companion_pass",
                                                                       "block"};

bool uses_index(ActionKind k) {
  return k == ActionKind::Skill || k == ActionKind::Item || k == ActionKind::Block;
}
bool uses_target(ActionKind k) {
  return k == ActionKind::Attack || k == ActionKind::Skill || k == ActionKind::Item ||
         k == ActionKind::Relay || k == ActionKind::CompanionAttack || k == ActionKind::CompanionSpecial;
}
}  // namespace

std::string_view action_kind_name(ActionKind k) { return kKindNames[static_cast<std::size_t>(k)]; }

std::string_view block_level_name(BlockLevel b) {
  switch (b) {
    case BlockLevel::None:
      return "none";
    case BlockLevel::Block:
      return "block";
    case BlockLevel::SuperBlock:
      return "super_block";
  }
  return "?";
}

std::string_view refusal_reason_name(RefusalReason r) {
  constexpr std::array<std::string_view, 13> names = {
      "no_battle",        "battle_over",          "not_your_decision", "invalid_option", "invalid_target",
      "skills_banned",    "items_banned",         "cannot_pay",        "no_items_left",  "relay_not_allowed",
      "swap_not_allowed", "deselect_not_allowed", "flee_not_allowed"};
  return names[static_cast<std::size_t>(r)];
}

Action canonical_action(const Action& a) {
  return Action{a.kind, uses_index(a.kind) ? a.index : std::uint8_t{0},
                uses_target(a.kind) ? a.target : std::int8_t{-1}};
}

nlohmann::json action_to_json(const Action& a) {
  nlohmann::json j = {{"type", action_kind_name(a.kind)}};
  if (uses_index(a.kind)) j["index"] = a.index;
  if (uses_target(a.kind)) j["target"] = a.target;
  return j;
}

Result<Action> action_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Error{"an action must be a JSON object"};
  const auto type = j.find("type");
  std::string known;
  for (std::string_view n : kKindNames) known += (known.empty() ? "" : ", ") + std::string(n);
  if (type == j.end() || !type->is_string()) return Error{"an action needs \"type\": one of " + known};
  const auto& t = type->get_ref<const std::string&>();
  std::optional<ActionKind> kind;
  for (std::size_t i = 0; i < kKindNames.size(); ++i)
    if (kKindNames[i] == t) kind = static_cast<ActionKind>(i);
  if (!kind) return Error{"unknown action type '" + t + "'; expected one of " + known};
  std::vector<std::string_view> allowed = {"type"};
  if (uses_index(*kind)) allowed.emplace_back("index");
  if (uses_target(*kind)) allowed.emplace_back("target");
  if (auto unknown = content::unknown_key(j, allowed)) return Error{*unknown};
  Action a{*kind, 0, -1};
  if (uses_index(*kind)) {
    const auto index = j.find("index");
    if (index == j.end() || !index->is_number_integer() || index->get<std::int64_t>() < 0 ||
        index->get<std::int64_t>() > 255)
      return Error{t + " needs \"index\": a number in [0, 255]"};
    a.index = static_cast<std::uint8_t>(index->get<std::int64_t>());
  }
  if (uses_target(*kind)) {
    const auto target = j.find("target");
    if (target == j.end() || !target->is_number_integer() || target->get<std::int64_t>() < -1 ||
        target->get<std::int64_t>() > 127)
      return Error{t + " needs \"target\": an enemy slot or member index, or -1 for none"};
    a.target = static_cast<std::int8_t>(target->get<std::int64_t>());
  }
  return a;
}

}  // namespace battlecore::party
