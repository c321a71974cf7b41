// scry: the player looks at the top cards of the draw pile and discards any of them; the others
// stay on top in their order, which the player now knows. {"op": "scry", "amount": 3}
// A skippable Choice of the top `amount` cards (fewer when the pile has fewer), top first, one
// decision per card discarded; skipping keeps the rest. No reshuffle: an empty draw pile offers
// nothing. Card effects only: the player decides.
#include "deckbuilder/ops/hand_cards.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  bool ok = oc.amount(r, "amount", 1, 10, op);
  if (oc.owner != EffectOwner::Card) ok = oc.only_in(r, "scry", "card effects");
  return ok;
}

void run(OpContext& ctx, const Op& op) {
  BattleState& s = ctx.x.s;
  const auto n = static_cast<std::uint8_t>(
      std::min<std::size_t>(s.draw_pile().size(), static_cast<std::size_t>(std::max(op_amount(ctx, op), 0))));
  if (n == 0) return;
  s.see_draw_pile_top(n);
  offer_cards(ctx, PendingChoice::Kind::DiscardFromDrawTop, n, n);
}

}  // namespace

void register_scry_op(OpRegistry& registry) {
  registry.add(
      {"scry", "look at the top cards of the draw pile and discard any of them", compile, run, true});
}

}  // namespace battlecore::deckbuilder::detail
