#include "deckbuilder/op_registry.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "battlecore/core/invariant.hpp"

namespace battlecore::deckbuilder::detail {

namespace {
constexpr std::array<std::string_view, 4> kTargetNames = {"chosen", "self", "all_enemies", "random_enemy"};

std::optional<std::uint16_t> lookup(content::ObjectReader& r, std::string_view key, const IdMap& ids,
                                    std::string_view kind, bool all_read) {
  const std::optional<std::string> id = r.required_string(key);
  if (!id) return std::nullopt;
  const auto it = ids.find(*id);
  if (it == ids.end()) {
    if (!all_read) return std::nullopt;
    r.error_at(key, "unknown " + std::string(kind) + " '" + *id + "'; expected the id of " +
                        content::with_article(kind) + " defined in the pack");
    return std::nullopt;
  }
  return it->second;
}
}  // namespace

OpTarget OpCompiler::target(content::ObjectReader& r, OpTarget fallback) const {
  const auto index = r.enum_or("target", kTargetNames, static_cast<std::size_t>(fallback));
  const OpTarget t = index ? static_cast<OpTarget>(*index) : fallback;
  if (t == OpTarget::Chosen && uses_chosen != nullptr) *uses_chosen = true;
  return t;
}

std::optional<std::uint16_t> OpCompiler::status(content::ObjectReader& r, std::string_view key) const {
  return lookup(r, key, status_ids, "status", all_read);
}
std::optional<std::uint16_t> OpCompiler::card(content::ObjectReader& r, std::string_view key) const {
  return lookup(r, key, card_ids, "card", all_read);
}
std::optional<std::uint16_t> OpCompiler::hook(content::ObjectReader& r, std::string_view key) const {
  return lookup(r, key, hook_ids, "hook", all_read);
}

namespace {
/// The units a counted amount may count ("of"), in CountedAmount::of_target's order.
constexpr std::array<std::string_view, 2> kCountedUnits = {"self", "target"};
}  // namespace

bool OpCompiler::amount(content::ObjectReader& r, std::string_view key, std::int64_t min, std::int64_t max,
                        Op& op) const {
  bool counted = false;
  const bool ok = read_amount(r, key, min, max, std::nullopt, op.amount, counted);
  if (counted) op.flags = static_cast<std::uint8_t>(op.flags | kAmountCounted);
  return ok;
}

bool OpCompiler::times(content::ObjectReader& r, std::string_view key, std::int64_t min, std::int64_t max,
                       std::optional<std::int64_t> fallback, Op& op) const {
  bool counted = false;
  const bool ok = read_amount(r, key, min, max, fallback, op.times, counted);
  if (counted) op.flags = static_cast<std::uint8_t>(op.flags | kTimesCounted);
  return ok;
}

bool OpCompiler::read_amount(content::ObjectReader& r, std::string_view key, std::int64_t min,
                             std::int64_t max, std::optional<std::int64_t> fallback, std::int32_t& field,
                             bool& counted_out) const {
  CountedAmount counted{.min = static_cast<std::int32_t>(std::min<std::int64_t>(min, 0)),
                        .max = static_cast<std::int32_t>(max)};
  const nlohmann::json* v = r.optional_value(key);
  if (v != nullptr && v->is_string() && owner == EffectOwner::Status) {
    if (v->get_ref<const std::string&>() != "stacks") {
      r.error_at(key, "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                          "], \"stacks\" or a count object, got '" + v->get<std::string>() + "'");
      return false;
    }
    counted.count = AmountCount::Stacks;
  } else if (v != nullptr && v->is_object()) {
    content::ObjectReader c(r.document(), *v, r.pointer_of(key), r.diagnostics());
    const auto count = c.required_enum("count", kAmountCountNames);
    const auto per = c.optional_int("per", -99, 99);
    counted.per = static_cast<std::int32_t>(per.value_or(1));
    counted.plus = static_cast<std::int32_t>(c.int_or("plus", 0, -999, 999));
    const auto of = c.enum_or("of", kCountedUnits, 0);
    counted.of_target = of == std::optional<std::size_t>(1);
    const auto types = c.enum_set_or("card_type", kCardTypeNames, kAnyCard);
    counted.cards = card_filter_of_set(types.value_or(kAnyCard));
    const bool named = c.optional_value("status") != nullptr;  // read below, with the count
    bool ok = count.has_value() && of.has_value() && types.has_value() && (per || !c.has("per"));
    if (per == 0) {
      c.error_at("per", "expected a non-zero integer in [-99, 99], got 0");
      ok = false;
    }
    const auto kind = static_cast<AmountCount>(count.value_or(0));
    const bool stacks = count && kind == AmountCount::Stacks;
    if (named || (stacks && owner != EffectOwner::Status)) {
      // A named status may be counted anywhere; the running one only in its own timings.
      if (!stacks) {
        c.error_at("status", "only a count of stacks names a status");
        ok = false;
      } else if (!named) {
        c.error_at("count",
                   "outside a status's timings, a count of stacks names its status: expected a "
                   "'status' key");
        ok = false;
      } else if (const auto status = this->status(c, "status")) {
        counted.status = *status;
      } else {
        ok = false;
      }
    }
    const bool of_a_unit = stacks || kind == AmountCount::Armor || kind == AmountCount::MissingHp;
    if (count && !of_a_unit && c.has("of")) {
      c.error_at("of", fmt::format("count {} is of no unit: expected no 'of'", kAmountCountNames[*count]));
      ok = false;
    }
    if (count && !counts_cards(kind) && c.has("card_type")) {
      c.error_at("card_type",
                 fmt::format("count {} counts no cards: expected no 'card_type'", kAmountCountNames[*count]));
      ok = false;
    }
    if (count && kind == AmountCount::X && owner != EffectOwner::Card) {
      c.error_at("count", "count x is the energy an X-cost card took: it is only counted in card effects");
      ok = false;
    }
    c.finish();
    if (!ok) return false;
    counted.count = kind;
  } else {
    const auto value = v == nullptr && fallback ? fallback : r.required_int(key, min, max);
    if (!value) return false;
    field = static_cast<std::int32_t>(*value);
    return true;
  }
  field = add_counted_amount(counted);
  counted_out = true;
  return true;
}

bool OpCompiler::only_in(content::ObjectReader& r, std::string_view op, std::string_view where) const {
  r.error("op '" + std::string(op) + "' is only allowed in " + std::string(where));
  return false;
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
  register_discard_op(registry);
  register_exhaust_op(registry);
  register_gain_energy_op(registry);
  register_heal_op(registry);
  register_lose_hp_op(registry);
  register_apply_status_op(registry);
  register_add_card_op(registry);
  register_cost_rule_op(registry);
  register_delayed_op(registry);
  register_hook_op(registry);
  register_choice_op(registry);
  register_conditional_op(registry);
  register_repeat_op(registry);
  register_for_each_enemy_op(registry);
  register_end_turn_op(registry);
  register_extra_turn_op(registry);
  register_skip_turns_op(registry);
  register_put_on_draw_pile_op(registry);
  register_put_in_hand_op(registry);
  register_scry_op(registry);
  register_upgrade_op(registry);
}

}  // namespace battlecore::deckbuilder::detail
