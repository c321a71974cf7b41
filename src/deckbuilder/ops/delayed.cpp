// delayed: schedule effects for later. {"op": "delayed", "timing": "player_turn_start" |
// "player_turn_end" | "enemy_phase_end", "after_turns": 0, "effects": [...]}. It fires at the
// first occurrence of the timing after `after_turns` occurrences have passed, with the same
// source and target (a dead target falls back to the first alive enemy, or the player).
#include <array>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

constexpr std::array<std::string_view, 3> kTimings = {"player_turn_start", "player_turn_end",
                                                      "enemy_phase_end"};

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto timing = r.required_enum("timing", kTimings);
  op.amount = static_cast<std::int32_t>(r.int_or("after_turns", 0, 0, 20));
  const auto effects = oc.compile_effects(r, "effects", EffectOwner::Deferred, oc.uses_chosen, true);
  if (!timing || !effects) return false;
  op.mode = static_cast<std::uint8_t>(*timing);
  op.block = oc.add_block(*effects, "");
  return true;
}

void run(OpContext& ctx, const Op& op) {
  BattleState& s = ctx.x.s;
  if (s.delayed.full()) return limit_reached(ctx.x, Limit::Delayed, kMaxDelayed, op.block);
  s.delayed.push_back(DelayedTrigger{op.block, static_cast<DelayedTiming>(op.mode),
                                     static_cast<std::uint8_t>(op.amount), ctx.source, ctx.target});
  ctx.x.ev.emit_with(EventType::DelayedScheduled, [&] {
    return Event{.type = EventType::DelayedScheduled, .subject = op.block, .amount = op.mode};
  });
}

}  // namespace

void register_delayed_op(OpRegistry& registry) {
  registry.add(
      {"delayed", "schedule effects for a later turn start, turn end or enemy phase end", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
