#pragma once
// The deckbuilder's rules primitives: drawing, moving cards, damage, armor, statuses, intents,
// running effect ops. Phase handlers and ops are written in these words.

#include <optional>

#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

/// What phase handlers and ops may touch: the parts of one battle.
struct Battle::Access {
  BattleState& s;
  const Catalog& c;
  EventLog& ev;
  const Battle& battle;

  static Access of(Battle& b) { return Access{b.state_, *b.catalog_, b.events_, b}; }
};

namespace detail {

using Ctx = Battle::Access;

/// The unit a UnitRef names (0 player, 1 + i enemy i).
UnitState& unit(Ctx& x, UnitRef u);
const UnitState& unit(const BattleState& s, UnitRef u);
bool all_enemies_dead(const BattleState& s);
/// Victory or Defeat when the battle is decided (the player's death first), else nothing.
std::optional<Trigger> outcome(const BattleState& s);
/// The first alive enemy as a UnitRef, or kNoUnit.
UnitRef first_alive_enemy(const BattleState& s);

// --- cards ------------------------------------------------------------------------------
/// Draws up to `count` cards; an empty draw pile is refilled by shuffling the discard pile;
/// a full hand stops the draw.
void draw_cards(Ctx& x, int count);
void shuffle_discard_into_draw(Ctx& x);
/// Moves a card from the hand to another pile, keeping the hand's order.
void move_from_hand(Ctx& x, std::size_t hand_index, Pile to);

// --- units ------------------------------------------------------------------------------
/// The attack damage `source` would deal to `target` from `base`, with every modifier.
std::int32_t attack_damage(const Ctx& x, UnitRef source, UnitRef target, std::int32_t base);
/// Armor absorbs first, then HP; emits DamageDealt and UnitDied.
void take_damage(Ctx& x, UnitRef source, UnitRef target, std::int32_t damage);
void gain_armor(Ctx& x, UnitRef target, std::int32_t amount);
void apply_status(Ctx& x, UnitRef source, UnitRef target, StatusId status, std::int32_t stacks);
/// Armor decay at the start of a unit's turn, per the encounter's ArmorDecayRule.
void decay_armor(Ctx& x, UnitRef u);
/// Statuses that lose a stack at their owner's turn end lose one; expired ones go.
void tick_turn_end_statuses(Ctx& x, UnitRef u);

// --- enemies ----------------------------------------------------------------------------
/// Picks enemy `index`'s next move by its behaviour (AI stream) and emits EnemyIntent.
void resolve_intent(Ctx& x, std::size_t index);
/// Enemy `index` makes its intended move.
void perform_intent(Ctx& x, std::size_t index);

// --- effects ----------------------------------------------------------------------------
/// Runs compiled ops in order for `source` aimed at `target`.
void run_effects(Ctx& x, OpRange ops, UnitRef source, UnitRef target, CardRef card);

/// What an op handler sees.
struct OpContext {
  Ctx& x;
  UnitRef source;
  UnitRef target;  ///< the resolved chosen target (the player for enemy moves)
  CardRef card;    ///< the card being played, or kNoCard
};

/// The units an op's target kind names, alive only, into `out`; returns how many.
std::size_t op_targets(OpContext& ctx, OpTarget kind, std::array<UnitRef, kMaxEnemies + 1>& out);

}  // namespace detail
}  // namespace battlecore::deckbuilder
