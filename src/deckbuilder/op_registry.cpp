#include "deckbuilder/op_registry.hpp"

#include <array>

#include "battlecore/core/invariant.hpp"

namespace battlecore::deckbuilder::detail {

namespace {
constexpr std::array<std::string_view, 4> kTargetNames = {"chosen", "self", "all_enemies", "random_enemy"};
}  // namespace

OpTarget OpCompiler::target(content::ObjectReader& r, OpTarget fallback) const {
  const auto index = r.enum_or("target", kTargetNames, static_cast<std::size_t>(fallback));
  return index ? static_cast<OpTarget>(*index) : fallback;
}

std::optional<StatusId> OpCompiler::status(content::ObjectReader& r, std::string_view key) const {
  const std::optional<std::string> id = r.required_string(key);
  if (!id) return std::nullopt;
  const auto it = status_ids.find(*id);
  if (it == status_ids.end()) {
    r.error_at(key, "unknown status '" + *id + "'; expected the id of a status defined in the pack");
    return std::nullopt;
  }
  return it->second;
}

void OpRegistry::add(const OpSpec& spec) {
  BATTLECORE_ENSURE(find(spec.name) == nullptr, "op '{}' registered twice", spec.name);
  BATTLECORE_ENSURE(specs_.size() < 255, "too many ops ({})", specs_.size());
  specs_.push_back(spec);
}

const OpSpec* OpRegistry::find(std::string_view name) const {
  for (const OpSpec& s : specs_)
    if (s.name == name) return &s;
  return nullptr;
}

std::uint8_t OpRegistry::code_of(std::string_view name) const {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].name == name) return static_cast<std::uint8_t>(i);
  BATTLECORE_ENSURE(false, "op '{}' is not registered", name);
  return 0;
}

std::string OpRegistry::names() const {
  std::string out;
  for (const OpSpec& s : specs_) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

void register_builtin_ops(OpRegistry& registry) {
  register_damage_op(registry);
  register_armor_op(registry);
  register_draw_op(registry);
  register_apply_status_op(registry);
}

}  // namespace battlecore::deckbuilder::detail
