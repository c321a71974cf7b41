// extra_turn: the player takes another turn before the enemies act. {"op": "extra_turn"}
#include <algorithm>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op&) {
  if (oc.owner == EffectOwner::Move) return oc.only_in(r, "extra_turn", "card, status and deferred effects");
  return true;
}

void run(OpContext& ctx, const Op&) {
  ctx.x.s.extra_turns = static_cast<std::uint8_t>(std::min(ctx.x.s.extra_turns + 1, int{kMaxExtraTurns}));
  ctx.x.ev.emit_with(EventType::ExtraTurnGranted, [&] {
    return Event{.type = EventType::ExtraTurnGranted, .amount = ctx.x.s.extra_turns};
  });
}

}  // namespace

void register_extra_turn_op(OpRegistry& registry) {
  registry.add({"extra_turn", "the player takes another turn before the enemies act", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
