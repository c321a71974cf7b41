// repeat: run an effect list several times. {"op": "repeat", "times": 3, "effects": [...]}; the
// number of passes may be counted as the op runs (0 runs none).
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool times = oc.times(r, "times", 1, 20, std::nullopt, op);
  const auto effects = oc.compile_effects(r, "effects", oc.owner, oc.uses_chosen, true);
  if (!times || !effects) return false;
  op.block = oc.add_block(*effects, "");
  return true;
}

void run(OpContext& ctx, const Op& op) {
  const std::int32_t times = op_times(ctx, op);  // a counted number may be 0: no pass
  if (times <= 0) return;
  push_block(ctx.x, ctx.x.c.blocks[op.block], EffectFrame::Kind::Repeat, ctx.source, ctx.target, ctx.card,
             static_cast<std::uint8_t>(times - 1), ctx.status);
}

}  // namespace

void register_repeat_op(OpRegistry& registry) {
  registry.add({"repeat", "run an effect list several times", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
