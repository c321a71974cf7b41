// add_card: create new cards in the player's piles (an enemy's move can add a Wound to them).
// {"op": "add_card", "card": "wound", "count": 1, "pile": "hand" | "draw" | "discard"}
// A card added to a full hand goes to the discard pile; one added to the draw pile takes a
// random place in it (effects stream). The count may be counted as the op runs (0 adds none).
#include <array>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

constexpr std::array<std::string_view, 3> kPiles = {"hand", "draw", "discard"};
constexpr std::array<Pile, 3> kPileOf = {Pile::Hand, Pile::Draw, Pile::Discard};

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto card = oc.card(r, "card");
  const bool count = oc.times(r, "count", 1, 10, 1, op);
  const auto pile = r.required_enum("pile", kPiles);
  if (!card || !pile || !count) return false;
  op.ref = *card;
  op.mode = static_cast<std::uint8_t>(*pile);
  return true;
}

void run(OpContext& ctx, const Op& op) {
  const std::int32_t count = op_times(ctx, op);
  for (std::int32_t i = 0; i < count; ++i) add_card(ctx.x, op.ref, kPileOf[op.mode]);
}

}  // namespace

void register_add_card_op(OpRegistry& registry) {
  registry.add({"add_card", "create cards in the hand, the draw pile or the discard pile", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
