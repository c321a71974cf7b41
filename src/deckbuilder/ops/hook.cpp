// hook: register a hook of the pack for its source. {"op": "hook", "hook": "steady_guard"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto hook = oc.hook(r, "hook");
  if (!hook) return false;
  op.ref = *hook;
  return true;
}

void run(OpContext& ctx, const Op& op) { register_hook(ctx.x, op.ref, ctx.source); }

}  // namespace

void register_hook_op(OpRegistry& registry) {
  registry.add(
      {"hook", "register a hook (cancel or refuse plays, armor reset, on card played)", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
