// for_each_enemy: run an effect list once per alive opposing unit, that unit as the chosen
// target. {"op": "for_each_enemy", "effects": [...]}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  // Inside, "chosen" is each enemy in turn: the card itself needs no target for it.
  const auto effects = oc.compile_effects(r, "effects", oc.owner, nullptr, true);
  if (!effects) return false;
  op.block = oc.add_block(*effects, "");
  return true;
}

void run(OpContext& ctx, const Op& op) {
  const OpRange block = ctx.x.c.blocks[op.block];
  if (ctx.source != kPlayerUnit) {  // an enemy's opposing side is the player alone
    push_block(ctx.x, block, EffectFrame::Kind::Block, ctx.source, kPlayerUnit, ctx.card, 0, ctx.status);
    return;
  }
  const UnitRef first = first_alive_enemy(ctx.x.s);
  if (first != kNoUnit)
    push_block(ctx.x, block, EffectFrame::Kind::ForEachEnemy, ctx.source, first, ctx.card, 0, ctx.status);
}

}  // namespace

void register_for_each_enemy_op(OpRegistry& registry) {
  registry.add({"for_each_enemy", "run an effect list against each alive enemy in turn", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
