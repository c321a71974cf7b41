// cost_rule: change what cards cost. {"op": "cost_rule", "scope": "hand" | "this_card",
// "set": 0 | "change": -1, "turns": 1}. Without "turns" the rule lasts the rest of the battle;
// rules with turns lose one at the player's turn end (the seed's "tick card cost rules").
// Changes add up; a set replaces an earlier set; a turn-limited set wins over a battle-long one
// while it lasts; when both kinds exist, both changes apply. X-cost cards take no rule.
#include <algorithm>
#include <array>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/op_registry.hpp"

namespace battlecore::deckbuilder::detail {
namespace {

constexpr std::array<std::string_view, 2> kScopes = {"hand", "this_card"};

bool compile(const OpCompiler& oc, content::ObjectReader& r, Op& op) {
  const auto scope = r.required_enum("scope", kScopes);
  const auto set = r.optional_int("set", 0, 9);
  const auto change = r.optional_int("change", -9, 9);
  op.times = static_cast<std::int32_t>(r.int_or("turns", kCostRuleForBattle, 1, 99));
  bool ok = scope.has_value() && (set.has_value() || change.has_value());
  // Which of the two is given, not whether its value is good: a bad value is reported on its own.
  if (r.has("set") == r.has("change")) {
    r.error("expected exactly one of 'set' (an integer in [0, 9]) and 'change' (an integer in [-9, 9])");
    ok = false;
  }
  if (oc.owner != EffectOwner::Card) ok = oc.only_in(r, "cost_rule", "card effects");
  if (!ok) return false;
  op.mode = static_cast<std::uint8_t>(*scope);
  if (set) op.flags = static_cast<std::uint8_t>(op.flags | kSetsCost);
  op.amount = static_cast<std::int32_t>(set ? *set : *change);
  return true;
}

void apply_rule(OpContext& ctx, const Op& op, CardRef card) {
  CardInstance& ci = ctx.x.s.cards[card];
  if (ctx.x.c.card_play[ci.def].cost == kXCost) return;  // an X-cost card takes what there is
  const bool set = (op.flags & kSetsCost) != 0;
  const auto amount = static_cast<std::int8_t>(op.amount);
  if (op.times == kCostRuleForBattle) {
    if (set)
      ci.battle_cost_set = amount;
    else
      ci.battle_cost_change = static_cast<std::int8_t>(std::clamp(ci.battle_cost_change + amount, -9, 9));
  } else {
    if (set)
      ci.turn_cost_set = amount;
    else
      ci.turn_cost_change = static_cast<std::int8_t>(std::clamp(ci.turn_cost_change + amount, -9, 9));
    if (ci.cost_turns == 0) ++ctx.x.s.turn_cost_cards;
    ci.cost_turns = std::max(ci.cost_turns, static_cast<std::uint8_t>(op.times));
  }
  refresh_listing(ci, ctx.x.c);
  ctx.x.s.listing_costs = listing_costs_of(ctx.x.s);  // the card's cost may have been the lowest or highest
  ctx.x.ev.emit_with(EventType::CostChanged, [&] {
    return Event{
        .type = EventType::CostChanged, .subject = card, .amount = effective_cost(ctx.x.s, ctx.x.c, card)};
  });
}

void run(OpContext& ctx, const Op& op) {
  if (op.mode == 1) {
    if (ctx.card != kNoCard) apply_rule(ctx, op, ctx.card);
    return;
  }
  for (CardRef card : ctx.x.s.hand())
    if (card != ctx.card) apply_rule(ctx, op, card);
}

}  // namespace

void register_cost_rule_op(OpRegistry& registry) {
  registry.add(
      {"cost_rule", "set or change card costs for some turns or the rest of the battle", compile, run});
}

}  // namespace battlecore::deckbuilder::detail
