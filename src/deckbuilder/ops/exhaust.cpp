// exhaust: cards leave the player's hand for the exhaust pile.
// {"op": "exhaust", "amount": 1, "mode": "choose" | "random"}. "choose" pauses the effect on a
// Choice of hand cards (one decision per card); the card being played is never among them.
#include <array>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

constexpr std::array<std::string_view, 2> kModes = {"choose", "random"};

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const bool ok = oc.amount(r, "amount", 1, 10, op);
  const auto mode = r.required_enum("mode", kModes);
  if (!mode) return false;
  op.mode = static_cast<std::uint8_t>(*mode);
  if (oc.owner == EffectOwner::Move) return oc.only_in(r, "exhaust", "card, status and deferred effects: enemies have no hand");
  if (op.mode == 0 && oc.owner != EffectOwner::Card) return oc.only_in(r, "exhaust with mode choose", "card effects");
  return ok;
}

void run(OpContext& ctx, const Op& op) {
  BattleState& s = ctx.x.s;
  std::array<std::uint8_t, kMaxHand> eligible{};
  const std::size_t n = eligible_hand_cards(s, eligible);
  const auto count = static_cast<std::uint8_t>(std::min<std::size_t>(n, static_cast<std::size_t>(op_amount(ctx, op))));
  if (count == 0) return;
  if (op.mode == 0) {
    s.choice = PendingChoice{.kind = PendingChoice::Kind::ExhaustFromHand, .picks_left = count, .source = ctx.source,
                             .target = ctx.target, .card = ctx.card};
    ctx.x.ev.emit_with([&] {
      return Event{.type = EventType::ChoiceOffered, .amount = static_cast<std::int32_t>(n),
                   .extra = static_cast<std::int32_t>(s.choice.kind)};
    });
    return;
  }
  for (std::uint8_t k = 0; k < count; ++k) {
    const std::size_t left = eligible_hand_cards(s, eligible);
    const std::uint8_t pick = eligible[left > 1 ? s.rng[Stream::Effects].below(static_cast<std::uint32_t>(left)) : 0];
    move_from_hand(ctx.x, pick, Pile::Exhaust);
  }
}

}  // namespace

void register_exhaust_op(OpRegistry& registry) {
  registry.add({"exhaust", "hand cards to the exhaust pile, chosen by the player or at random", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
