#pragma once
// What discard, exhaust, put_on_draw_pile, put_in_hand and upgrade share: N cards of the hand (or,
// for put_on_draw_pile, of the discard pile; for put_in_hand, of the discard, exhaust or draw pile;
// for upgrade, of the hand, draw or discard pile) leave for a pile, or for upgrade are upgraded
// where they lie, chosen by the player (a Choice of cards, one decision per card) or at random
// (effects stream), or all of them in the order a Choice lists them; only cards of the types
// the op names in "card_type", when it names any (and for upgrade, only cards with an upgrade).
// The card being played is never among them. Cards going to the hand stop when it is full.

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {

/// The op's modes, in Op::mode.
enum HandCardMode : std::uint8_t { kModeChoose = 0, kModeRandom = 1, kModeAll = 2 };
inline constexpr std::array<std::string_view, 3> kHandCardModes = {"choose", "random", "all"};

/// {"amount": N, "mode": "choose" | "random", "card_type": T or [T, ...] (optional)}, or
/// {"mode": "all", "card_type": ...} with no amount; choose only in card effects, never in moves.
/// The CardFilter of "card_type" goes into Op::times.
inline bool compile_hand_cards(const OpCompiler& oc, content::ObjectReader& r, Op& op,
                               std::string_view name) {
  // A bad mode is reported, and the other keys are read all the same.
  const auto mode = r.required_enum("mode", kHandCardModes);
  bool ok = true;
  if (mode != std::optional<std::size_t>(kModeAll)) {
    ok = oc.amount(r, "amount", 1, 10, op);
  } else if (r.optional_value("amount") != nullptr) {  // a key of the op, wrong with this mode
    r.error_at("amount", "mode all takes every card it may: expected no amount");
    ok = false;
  }
  // Any type when absent; a bad one is reported.
  const auto types = r.enum_set_or("card_type", kCardTypeNames, kAnyCard);
  op.times = card_filter_of_set(types.value_or(kAnyCard));
  if (!types) ok = false;
  if (!mode) return false;
  op.mode = static_cast<std::uint8_t>(*mode);
  if (op.mode != kModeChoose) op.flags = static_cast<std::uint8_t>(op.flags & ~kNests);  // never pauses
  if (oc.owner == EffectOwner::Move)
    return oc.only_in(r, name, "card, status and deferred effects: enemies have no hand");
  if (op.mode == kModeChoose && oc.owner != EffectOwner::Card)
    return oc.only_in(r, std::string(name) + " with mode choose", "card effects");
  return ok;
}

/// Pauses the effect on a choice of cards of kind `choice` among those `filter` takes, `picks`
/// decisions of the `offered` cards it lists first (skippable when choice_of_cards_skippable
/// says).
inline void offer_cards(OpContext& ctx, PendingChoice::Kind choice, std::uint8_t picks, std::size_t offered,
                        CardFilter filter = kAnyCard) {
  ctx.x.s.choice = PendingChoice{.kind = choice,
                                 .skippable = choice_of_cards_skippable(choice),
                                 .picks_left = picks,
                                 .filter = filter,
                                 .source = ctx.source,
                                 .target = ctx.target,
                                 .card = ctx.card};
  ctx.x.ev.emit_with([&] {
    return Event{.type = EventType::ChoiceOffered,
                 .amount = static_cast<std::int32_t>(offered),
                 .extra = static_cast<std::int32_t>(choice)};
  });
}

/// The cards of `choice`'s source pile that the op's filter takes go to its destination
/// (choice_source_pile, choice_destination_pile), or are upgraded (choice_upgrades:
/// take_picked_card). Mode all takes as many cards as it finds when it begins, each time the
/// first one a Choice would list them in.
inline void chosen_cards_to_pile(OpContext& ctx, const Op& op, PendingChoice::Kind choice) {
  BattleState& s = ctx.x.s;
  const auto filter = static_cast<CardFilter>(op.times);
  std::array<std::uint8_t, kMaxCards> eligible{};
  const std::size_t n = s.choice_cards(choice, filter, ctx.x.c, eligible);
  const auto count = static_cast<std::uint8_t>(
      op.mode == kModeAll ? n : std::min<std::size_t>(n, static_cast<std::size_t>(op_amount(ctx, op))));
  if (count == 0) return;
  if (op.mode == kModeChoose) return offer_cards(ctx, choice, count, n, filter);
  for (std::uint8_t k = 0; k < count; ++k) {
    const std::size_t left = s.choice_cards(choice, filter, ctx.x.c, eligible);
    if (left == 0) return;  // the hand they go to is full
    const std::uint8_t pick = eligible[op.mode == kModeRandom && left > 1
                                           ? s.rng[Stream::Effects].below(static_cast<std::uint32_t>(left))
                                           : 0];
    take_picked_card(ctx.x, choice, pick);
  }
}

/// An op of cards taken from one of several piles, named by "from" (the first by default):
/// `Pick` gives the op's name (kName), the pile names (kFrom) and, for each, the choice of cards
/// that moves them (kChoices). compile reads "from" into Op::ref; run moves the cards.
template <class Pick>
bool compile_cards_from(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto from = r.enum_or("from", Pick::kFrom, 0);
  const bool ok = compile_hand_cards(oc, r, op, Pick::kName);
  if (!from) return false;
  op.ref = static_cast<std::uint16_t>(*from);  // the pile the cards come from
  return ok;
}
template <class Pick>
void run_cards_from(OpContext& ctx, const Op& op) {
  chosen_cards_to_pile(ctx, op, Pick::kChoices[op.ref]);
}

}  // namespace battlecore::deckbuilder::detail
