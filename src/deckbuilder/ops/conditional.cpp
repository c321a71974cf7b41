// conditional: {"op": "conditional", "if": {"kind": "target_has_status", "status": "poison",
// "at_least": 1}, "then": [...], "else": [...]}; "self" is the effect's source.
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto condition = oc.compile_condition(r, "if");
  const auto then_ops = oc.compile_effects(r, "then", oc.owner, oc.uses_chosen, true);
  const auto else_ops = oc.compile_effects(r, "else", oc.owner, oc.uses_chosen, false);
  if (!condition || !then_ops) return false;
  op.ref = *condition;
  op.block = oc.add_block(*then_ops, "");
  op.times = 1;
  if (else_ops) {
    oc.add_block(*else_ops, "");
    op.times = 2;
  }
  return true;
}

void run(OpContext& ctx, const Op& op) {
  const bool yes = holds(ctx.x, ctx.x.c.conditions[op.ref], ctx.source, ctx.target);
  if (!yes && op.times < 2) return;
  const OpRange block = ctx.x.c.blocks[yes ? op.block : op.block + 1u];
  push_block(ctx.x, block, EffectFrame::Kind::Block, ctx.source, ctx.target, ctx.card, 0, ctx.status);
}

}  // namespace

void register_conditional_op(OpRegistry& registry) {
  registry.add({"conditional", "run one effect list or another by a condition", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
