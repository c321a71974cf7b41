// skip_turns: the player skips upcoming turns (turn start jumps to turn end).
// {"op": "skip_turns", "amount": 1}
#include <algorithm>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  return oc.amount(r, "amount", 1, 9, op);
}

void run(OpContext& ctx, const Op& op) {
  ctx.x.s.skipped_turns =
      static_cast<std::uint8_t>(std::min(ctx.x.s.skipped_turns + op_amount(ctx, op), int{kMaxSkippedTurns}));
}

}  // namespace

void register_skip_turns_op(OpRegistry& registry) {
  registry.add({"skip_turns", "the player skips upcoming turns", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
