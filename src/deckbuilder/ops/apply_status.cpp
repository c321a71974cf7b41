// apply_status: add stacks of a status (a negative amount removes them).
// {"op": "apply_status", "status": "vulnerable", "amount": 2, "target": "chosen"}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto status = oc.status(r, "status");
  bool ok = oc.amount(r, "amount", -999, 999, op);
  op.target = oc.target(r, OpTarget::Chosen);
  if (ok && (op.flags & kAmountCounted) == 0 && op.amount == 0) {
    r.error_at("amount", "expected a non-zero number of stacks, got 0");
    ok = false;
  }
  if (!status) return false;
  op.ref = *status;
  return ok;
}

[[gnu::hot]] void run(OpContext& ctx, const Op& op) {
  for_each_op_target(ctx, op, [&](Ctx& x, UnitRef target, UnitState&, std::int32_t amount) {
    apply_status(x, ctx.source, target, op.ref, amount);
  });
}

}  // namespace

void register_apply_status_op(OpRegistry& registry) {
  registry.add({"apply_status", "add (or with a negative amount remove) stacks of a status", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
