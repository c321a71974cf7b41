// repeat: run an effect list several times. {"op": "repeat", "times": 3, "effects": [...]}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto times = r.required_int("times", 1, 20);
  const auto effects = oc.compile_effects(r, "effects", oc.owner, oc.uses_chosen, true);
  if (!times || !effects) return false;
  op.times = static_cast<std::int32_t>(*times);
  op.block = oc.add_block(*effects, "");
  return true;
}

void run(OpContext& ctx, const Op& op) {
  push_block(ctx.x, ctx.x.c.blocks[op.block], EffectFrame::Kind::Repeat, ctx.source, ctx.target, ctx.card,
             static_cast<std::uint8_t>(op.times - 1), ctx.status);
}

}  // namespace

void register_repeat_op(OpRegistry& registry) {
  registry.add({"repeat", "run an effect list several times", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
