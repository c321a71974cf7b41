// gain_energy: the player gains (or with a negative amount loses) energy. {"op": "gain_energy", "amount": 1}
#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  return oc.amount(r, "amount", -9, 9, op);
}

void run(OpContext& ctx, const Op& op) { gain_energy(ctx.x, op_amount(ctx, op)); }

}  // namespace

void register_gain_energy_op(OpRegistry& registry) {
  registry.add({"gain_energy", "the player gains energy this turn", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
