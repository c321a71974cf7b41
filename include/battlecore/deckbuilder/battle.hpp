#pragma once
/// A deckbuilder battle: the GCS battle phases (the GCS guide's Battle Phases and Execution Order
/// page) on the core's phase machine and run-to-decision interface.
///
/// Notes on this implementation:
/// - The phase table is Machine in phases.hpp; each phase has one handler in phases.cpp that
///   runs the guide's ordered steps and returns a trigger; advance() is the one driver.
/// - start_battle runs the guide's 12 start steps; the opening hand is drawn there, so turn 1
///   has no draw phase, as the guide says.
/// - Defaults the guide leaves open (documented in docs/deckbuilder.md): an empty draw pile is
///   refilled by shuffling the discard pile; draws beyond the hand limit stay in the draw
///   pile; attack damage = max(0, base + Strength-like bonuses) x dealt percents x taken
///   percents, rounded down once; armor absorbs before HP.
/// - The battle is a value: copying it clones it (listeners are not copied; see EventBus).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "battlecore/core/decision.hpp"
#include "battlecore/core/fixed_vec.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/deckbuilder/actions.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/deckbuilder/events.hpp"
#include "battlecore/deckbuilder/phases.hpp"
#include "battlecore/deckbuilder/piles.hpp"

namespace battlecore::deckbuilder {

namespace detail {
struct BattleIo;  // snapshots and scenarios (src/deckbuilder/snapshot.cpp, scenario.cpp)
}

inline constexpr std::size_t kMaxEnemies = 5;
inline constexpr std::size_t kMaxStatusSlots = 8;      ///< different statuses on one unit
inline constexpr std::int16_t kMaxStatusStacks = 999;  ///< a status on a unit has 1 to this many stacks
inline constexpr std::int32_t kMaxArmor = 999'999;     ///< a unit's armor stops here (gains beyond are lost)
inline constexpr std::size_t kMaxEffectDepth = 16;     ///< nested effect blocks in progress
inline constexpr std::size_t kMaxHooks = 16;
inline constexpr std::size_t kMaxDelayed = 16;
inline constexpr std::size_t kMaxRewardChoices = 5;
inline constexpr std::uint8_t kMaxExtraTurns = 9;         ///< extra turns pending (more granted are lost)
inline constexpr std::uint8_t kMaxSkippedTurns = 99;      ///< turns to skip pending (more are lost)
inline constexpr std::uint8_t kCostRuleForBattle = 0xFF;  ///< a cost rule's "turns" when it lasts the battle
/// BattleState::draw_known_from when the player knows nothing of what lies on top of the draw pile.
inline constexpr std::uint8_t kNothingKnownOnTop = 0xFF;

/// Stacks of one status on a unit.
struct StatusStack {
  StatusId status = 0;
  std::int16_t stacks = 0;
  friend bool operator==(const StatusStack&, const StatusStack&) = default;
};

/// HP, armor and statuses of the player or an enemy.
struct UnitState {
  std::int32_t hp = 0;
  std::int32_t max_hp = 0;
  std::int32_t armor = 0;
  FixedVec<StatusStack, kMaxStatusSlots> statuses;
  /// The union of the traits of `statuses` (status_traits_of): derived, kept by whatever
  /// changes the statuses (refresh_status_traits); snapshots and state_hash leave it out.
  std::uint16_t status_traits = 0;
  bool alive() const { return hp > 0; }
  /// Stacks of `status`, 0 when absent.
  std::int32_t stacks(StatusId status) const;
  friend bool operator==(const UnitState&, const UnitState&) = default;
};

struct EnemyState {
  UnitState unit;
  EnemyId def = 0;
  MoveIndex intent = kNoMove;     ///< the move it will make on its next turn
  MoveIndex last_move = kNoMove;  ///< the move it made last turn
  std::uint8_t streak = 0;        ///< how many turns in a row it made last_move
  std::uint8_t sequence_pos = 0;  ///< Sequence behaviour: next position
  std::uint8_t rules_used = 0;    ///< bit i: conditional rule i (a `once` rule) has fired
  friend bool operator==(const EnemyState&, const EnemyState&) = default;
};

/// One card in this battle (an instance of a card definition).
struct CardInstance {
  CardId def = 0;
  // Cost rules: those for the rest of the battle and those for some turns are kept apart, so
  // one expiring leaves the other; changes of the same kind add up, a new set replaces.
  std::int8_t battle_cost_set = -1;    ///< a fixed cost for the rest of the battle, or -1
  std::int8_t battle_cost_change = 0;  ///< a change to the cost for the rest of the battle
  std::int8_t turn_cost_set = -1;      ///< a fixed cost for `cost_turns` turns, or -1
  std::int8_t turn_cost_change = 0;    ///< a change to the cost for `cost_turns` turns
  std::uint8_t cost_turns = 0;         ///< turns the turn-limited rules last; 0 = none
  /// What listing the options reads of the card (card_listing): whether it is aimed at an enemy
  /// and what it costs now. Derived from the definition and the cost rules, kept by whatever
  /// makes the instance or changes its rules (refresh_listing); snapshots and state_hash leave
  /// it out.
  std::uint8_t listing = 0;
  friend bool operator==(const CardInstance&, const CardInstance&) = default;

  /// True when a cost rule applies: the four rule bytes differ from "no set, no change".
  /// One comparison, as effective_cost asks it for every card in hand at every decision.
  bool has_cost_rule() const {
    std::uint32_t rules;
    std::memcpy(&rules, &battle_cost_set, sizeof rules);
    return rules != kNoCostRule;
  }
  /// The energy the instance costs now, its definition costing `base`: a fixed cost (for some
  /// turns first, else for the battle) replaces `base`, then the changes add up, never below 0.
  std::int32_t cost(std::int32_t base) const {
    if (!has_cost_rule()) return base;
    const std::int32_t fixed = turn_cost_set >= 0     ? turn_cost_set
                               : battle_cost_set >= 0 ? battle_cost_set
                                                      : base;
    return std::max(0, fixed + battle_cost_change + turn_cost_change);
  }
  /// The energy playing the instance takes now, its definition costing `base` and the player
  /// having `energy`: cost(base), or all of it for an X-cost card (kXCost), which no cost rule
  /// changes.
  std::int32_t cost_now(std::int32_t base, std::int32_t energy) const {
    return base == kXCost ? energy : cost(base);
  }

 private:
  static constexpr std::uint32_t kNoCostRule =
      std::bit_cast<std::uint32_t>(std::array<std::int8_t, 4>{-1, 0, -1, 0});
};
static_assert(offsetof(CardInstance, battle_cost_change) == offsetof(CardInstance, battle_cost_set) + 1 &&
                  offsetof(CardInstance, turn_cost_set) == offsetof(CardInstance, battle_cost_set) + 2 &&
                  offsetof(CardInstance, turn_cost_change) == offsetof(CardInstance, battle_cost_set) + 3,
              "has_cost_rule reads the four rule bytes as one word");

/// One effect list in progress: the explicit stack that lets an effect pause on a Choice.
struct EffectFrame {
  enum class Kind : std::uint8_t { Block, Repeat, ForEachEnemy };
  std::uint32_t begin = 0;
  std::uint32_t pc = 0;
  std::uint32_t end = 0;
  Kind kind = Kind::Block;
  UnitRef source = kNoUnit;
  UnitRef target = kNoUnit;
  CardRef card = kNoCard;
  std::uint8_t repeat_left = 0;  ///< Repeat: passes still to run after this one
  StatusId status = kNoStatus;   ///< the status whose timing runs ("stacks" amounts)
  friend bool operator==(const EffectFrame&, const EffectFrame&) = default;
};

/// A paused effect: the player must pick (or skip, where allowed).
struct PendingChoice {
  /// Options: one of the choice op's options. The others: cards of the pile choice_source_pile
  /// names (BattleState::choice_cards), one decision per card, each going to the pile
  /// choice_destination_pile names, or, for the Upgrade kinds (choice_upgrades), upgraded where
  /// it lies.
  enum class Kind : std::uint8_t {
    None,
    Options,
    DiscardFromHand,
    ExhaustFromHand,
    PutOnDrawPileFromHand,
    PutOnDrawPileFromDiscard,
    PutInHandFromDiscard,
    PutInHandFromExhaust,
    DiscardFromDrawTop,
    PutInHandFromDraw,
    UpgradeInHand,
    UpgradeInDraw,
    UpgradeInDiscard
  };
  Kind kind = Kind::None;
  bool skippable = false;
  std::uint8_t picks_left = 0;    ///< choices of cards: cards still to pick
  CardFilter filter = kAnyCard;   ///< choices of cards: the cards of the pile it may take
  std::uint16_t first_block = 0;  ///< Options: the options are blocks first_block ..
  std::uint8_t option_count = 0;  ///< Options: how many
  UnitRef source = kNoUnit;
  UnitRef target = kNoUnit;
  CardRef card = kNoCard;
  friend bool operator==(const PendingChoice&, const PendingChoice&) = default;
};

/// The names of PendingChoice::Kind, in its order: snapshots and ChoiceOffered events use them.
inline constexpr std::array<std::string_view, 13> kChoiceKindNames = {"none",
                                                                      "options",
                                                                      "discard_from_hand",
                                                                      "exhaust_from_hand",
                                                                      "put_on_draw_pile_from_hand",
                                                                      "put_on_draw_pile_from_discard",
                                                                      "put_in_hand_from_discard",
                                                                      "put_in_hand_from_exhaust",
                                                                      "discard_from_draw_top",
                                                                      "put_in_hand_from_draw",
                                                                      "upgrade_in_hand",
                                                                      "upgrade_in_draw",
                                                                      "upgrade_in_discard"};
static_assert(static_cast<std::size_t>(PendingChoice::Kind::UpgradeInDiscard) + 1 == kChoiceKindNames.size(),
              "a name for every kind of choice");
/// For each PendingChoice::Kind, in its order: the pile a choice of cards picks from and the pile a
/// picked card goes to (Pile::None for no choice, a choice of options and the cards an upgrade
/// leaves where they lie).
struct ChoicePiles {
  Pile from = Pile::None;
  Pile to = Pile::None;
};
inline constexpr std::array<ChoicePiles, kChoiceKindNames.size()> kChoicePiles = {
    {{Pile::None, Pile::None},
     {Pile::None, Pile::None},
     {Pile::Hand, Pile::Discard},
     {Pile::Hand, Pile::Exhaust},
     {Pile::Hand, Pile::Draw},
     {Pile::Discard, Pile::Draw},
     {Pile::Discard, Pile::Hand},
     {Pile::Exhaust, Pile::Hand},
     {Pile::Draw, Pile::Discard},
     {Pile::Draw, Pile::Hand},
     {Pile::Hand, Pile::None},
     {Pile::Draw, Pile::None},
     {Pile::Discard, Pile::None}}};
constexpr Pile choice_source_pile(PendingChoice::Kind kind) {
  return kChoicePiles[static_cast<std::size_t>(kind)].from;
}
constexpr Pile choice_destination_pile(PendingChoice::Kind kind) {
  return kChoicePiles[static_cast<std::size_t>(kind)].to;
}
/// Whether a choice of cards of `kind` may be skipped: only the draw pile's top cards offered to
/// discard (scry), of which the player discards any number, none included.
constexpr bool choice_of_cards_skippable(PendingChoice::Kind kind) {
  return kind == PendingChoice::Kind::DiscardFromDrawTop;
}
/// Whether a choice of cards of `kind` upgrades the picked card where it lies (the upgrade op)
/// rather than moving it: it offers only cards that have an upgrade (CardDef::upgrade).
constexpr bool choice_upgrades(PendingChoice::Kind kind) {
  return kind == PendingChoice::Kind::UpgradeInHand || kind == PendingChoice::Kind::UpgradeInDraw ||
         kind == PendingChoice::Kind::UpgradeInDiscard;
}
/// Whether a choice of cards of `kind` offers every card of the draw pile, listed in the order of
/// the instances (BattleState::draw_places_by_card), not in the order they lie in.
constexpr bool choice_of_whole_draw_pile(PendingChoice::Kind kind) {
  return kind == PendingChoice::Kind::PutInHandFromDraw || kind == PendingChoice::Kind::UpgradeInDraw;
}

/// A card whose play has begun and not yet finished (its effect may be paused on a Choice).
struct PlayInProgress {
  CardRef card = kNoCard;
  UnitRef target = kNoUnit;
  friend bool operator==(const PlayInProgress&, const PlayInProgress&) = default;
};

/// A registered hook.
struct ActiveHook {
  std::uint16_t hook = 0;
  UnitRef owner = kPlayerUnit;
  std::uint8_t turns_left = 0;  ///< 0: the rest of the battle
  friend bool operator==(const ActiveHook&, const ActiveHook&) = default;
};

/// When a delayed trigger may fire.
enum class DelayedTiming : std::uint8_t { PlayerTurnStart, PlayerTurnEnd, EnemyPhaseEnd };

/// A scheduled effect.
struct DelayedTrigger {
  std::uint16_t block = 0;
  DelayedTiming timing = DelayedTiming::PlayerTurnStart;
  std::uint8_t occurrences_left = 0;  ///< occurrences of the timing to let pass before it fires
  UnitRef source = kPlayerUnit;
  UnitRef target = kNoUnit;
  friend bool operator==(const DelayedTrigger&, const DelayedTrigger&) = default;
};

using CardPile = FixedVec<CardRef, kMaxCards>;
struct BattleState;
/// The rules of encounter `encounter` (what BattleState::rules holds): the defaults when the
/// catalog has no such encounter (a battle never started in content without encounters).
inline BattleRules rules_of(const Catalog& c, EncounterId encounter) {
  return encounter < c.encounters.size() ? c.encounters[encounter].rules : BattleRules{};
}
/// The alive enemies of `s`, counted from their HP (what BattleState::enemies_alive holds).
std::uint8_t count_alive_enemies(const BattleState& s);
/// BattleState::down's bits.
inline constexpr std::uint8_t kPlayerDown = 1;
inline constexpr std::uint8_t kEnemiesDown = 2;
/// Who is down in `s`, from the player's HP and enemies_alive (what BattleState::down holds).
std::uint8_t down_of(const BattleState& s);
/// The card instances of `s` with turn-limited cost rules (what BattleState::turn_cost_cards holds).
std::uint8_t count_turn_cost_cards(const BattleState& s);
/// The keywords of the card instances of `s` together (what BattleState::card_keywords holds), from
/// the catalog's card index.
std::uint8_t card_keywords_of(const BattleState& s, const Catalog& c);
/// What CardInstance::listing holds for `ci` (whose definition is in the catalog's card index).
inline std::uint8_t listing_of(const CardInstance& ci, const Catalog& c) {
  const CardPlayInfo& info = c.card_play[ci.def];
  if (!ci.has_cost_rule() || info.cost == kXCost) return info.listing;
  return card_listing(info.target, info.keywords, ci.cost(info.cost));
}
/// Sets CardInstance::listing after the instance was made or its cost rules changed.
inline void refresh_listing(CardInstance& ci, const Catalog& c) { ci.listing = listing_of(ci, c); }
/// The span of the listing costs of the card instances of `s` (what BattleState::listing_costs
/// holds), from their listing bytes.
ListingCosts listing_costs_of(const BattleState& s);
/// The first card instance of `s` whose listing byte is not listing_of it, or kNoCard.
CardRef stale_listing(const BattleState& s, const Catalog& c);
/// The traits of the statuses of `u` (what UnitState::status_traits holds): the union of their
/// entries in Catalog::status_traits (an indexed catalog, as every battle's is).
std::uint16_t status_traits_of(const UnitState& u, const Catalog& c);
/// Sets UnitState::status_traits after its statuses changed.
inline void refresh_status_traits(UnitState& u, const Catalog& c) {
  u.status_traits = status_traits_of(u, c);
}

/// The whole rules state of a battle: a plain value, no pointers.
struct BattleState {
  std::uint64_t seed = 0;
  RngStreams rng;
  EncounterId encounter = 0;
  /// The encounter's rules, read at every turn: derived from `encounter` and set with it
  /// (Initialize, snapshots; rules_of); snapshots and state_hash leave it out.
  BattleRules rules;
  std::uint32_t turn = 0;          ///< the guide's TurnNumber: 1 on the first player turn
  std::uint32_t player_turns = 0;  ///< player turns begun (extra turns included)
  bool player_owned = false;
  bool end_turn_requested = false;
  std::uint8_t extra_turns = 0;    ///< extra player turns pending, at most kMaxExtraTurns
  std::uint8_t skipped_turns = 0;  ///< player turns still to skip, at most kMaxSkippedTurns
  std::uint8_t attacks_this_turn = 0;
  /// The lowest and highest cost the card instances' listing bytes give: kept by the rules as
  /// instances are made and their cost rules change, recounted by snapshots and scenarios
  /// (listing_costs_of). With the energy at or above the highest, every card in hand can be
  /// paid for; below the lowest, none can (pick_option). Here, beside the energy it is compared
  /// with, it takes bytes the energy's alignment left unused: the state is no larger.
  ListingCosts listing_costs;
  std::int32_t energy = 0;
  UnitState player;
  FixedVec<EnemyState, kMaxEnemies> enemies;
  /// How many enemies are alive: derived from their HP, kept by the rules (a death counts
  /// down) and recounted by whatever sets HP directly (count_alive_enemies).
  std::uint8_t enemies_alive = 0;
  /// Who is down, what decides the battle: kPlayerDown (the player's HP is 0 or less) and
  /// kEnemiesDown (enemies_alive is 0). Derived like enemies_alive: kept where HP is lost (a
  /// death) and recounted by whatever sets HP directly (down_of), from Initialize on (before, no
  /// rule reads it, and it stays 0); snapshots and state_hash leave it out. outcome() reads this
  /// one byte, where it asked two questions, a hundred times a battle.
  std::uint8_t down = 0;
  FixedVec<CardInstance, kMaxCards> cards;
  /// How many cards have turn-limited cost rules (cost_turns not 0): kept by the rules and
  /// recounted by snapshots (count_turn_cost_cards); at 0 the turn end has nothing to tick.
  std::uint8_t turn_cost_cards = 0;
  /// Every keyword some card instance has (a card keeps its definition): kept by the rules as
  /// instances are made, recounted by snapshots and scenarios (card_keywords_of). The turn end
  /// reads the hand's keywords only when this has Retain or Ethereal.
  std::uint8_t card_keywords = 0;
  Piles piles;  ///< the rules keep every card instance in exactly one pile
  CardPile played_this_turn;
  FixedVec<ActiveHook, kMaxHooks> hooks;
  FixedVec<DelayedTrigger, kMaxDelayed> delayed;
  FixedVec<EffectFrame, kMaxEffectDepth> effects;  ///< effects in progress, innermost last
  PendingChoice choice;
  PlayInProgress playing;
  FixedVec<CardId, kMaxRewardChoices> reward_options;  ///< offered, waiting for a pick
  bool reward_pending = false;
  /// The draw pile index (bottom first) from which up to its top the player knows which cards lie
  /// there: the Innate cards the opening hand left on top (put there in their shuffled order), the
  /// cards put on top from the hand (which join the run, or start it at their place) and those
  /// the player looked at there (scry), or
  /// kNothingKnownOnTop. Draws from the top shrink that run with no update: nothing is known once
  /// the pile holds no more cards than this. Whatever else puts cards into the draw pile forgets
  /// it (forget_draw_pile_top: a reshuffle of the discard pile, a card added at a random place).
  /// resample_hidden keeps these cards on top (known_on_top). Here, beside reward_pending, it
  /// takes bytes reward_taken's alignment left unused: the state is no larger.
  std::uint8_t draw_known_from = kNothingKnownOnTop;
  /// The index from which up to the top the player knows the order of those cards too: the
  /// cards put there, or looked at, above the Innate cards, whose order the player has not seen;
  /// at or above draw_known_from, or kNothingKnownOnTop (always when that is). Kept like it;
  /// resample_hidden leaves these cards as they lie (known_in_order_on_top).
  std::uint8_t draw_ordered_from = kNothingKnownOnTop;
  /// The X of the X-cost card in play (`playing`): the energy it took (AmountCount::X); 0 with
  /// no card in play or another card. Here, not in PlayInProgress, it takes the padding byte
  /// before reward_taken: the state is no larger.
  std::uint8_t playing_x = 0;
  std::int32_t reward_taken = -1;  ///< the card id taken as the reward, or -1
  friend bool operator==(const BattleState&, const BattleState&) = default;

  /// How many cards on top of the draw pile the player knows to be there (draw_known_from).
  std::size_t known_on_top() const { return draw_pile_above(draw_known_from); }
  /// How many of them the player knows the order of (draw_ordered_from): the top ones.
  std::size_t known_in_order_on_top() const { return draw_pile_above(draw_ordered_from); }
  /// Nothing is known of the draw pile's top any more: cards went into it unseen.
  void forget_draw_pile_top() {
    draw_known_from = kNothingKnownOnTop;
    draw_ordered_from = kNothingKnownOnTop;
  }
  /// The player sees the top `n` cards of the draw pile (at most its size) in their order: the
  /// known run and the known order reach down to them, or start there. The Innate cards of the
  /// run below them stay known in an unknown order.
  void see_draw_pile_top(std::size_t n) {
    const auto from = static_cast<std::uint8_t>(piles.size(Pile::Draw) - n);
    draw_known_from = known_on_top() == 0 ? from : std::min(draw_known_from, from);
    draw_ordered_from = known_in_order_on_top() == 0 ? from : std::min(draw_ordered_from, from);
  }
  /// A card from the hand is about to go on top of the draw pile, in the player's sight: the
  /// known run and the known order start at its place, or grow by it.
  void know_card_put_on_top() { see_draw_pile_top(0); }

  /// The draw pile, bottom first: back() is the top, the next card drawn.
  DrawPileView draw_pile() const { return piles.draw(); }
  /// The source pile of a choice of cards of `kind` (choice_source_pile), in pile order; empty for
  /// the other kinds.
  /// For the draw pile: top first; for a scry (DiscardFromDrawTop), only its top
  /// `choice.picks_left` cards, of the choice in progress, each pick discarding one of them.
  std::span<const CardRef> choice_pile(PendingChoice::Kind kind) const {
    switch (choice_source_pile(kind)) {
      case Pile::Hand:
        return hand();
      case Pile::Discard:
        return discard_pile();
      case Pile::Exhaust:
        return exhaust_pile();
      case Pile::Draw: {
        const std::span<const CardRef> top_first = piles.draw_top_first();
        if (kind != PendingChoice::Kind::DiscardFromDrawTop) return top_first;
        return top_first.first(std::min<std::size_t>(top_first.size(), choice.picks_left));
      }
      case Pile::None:
        break;
    }
    return {};
  }
  /// The cards a choice of cards of `kind` offers, as places in its source pile (choice_pile):
  /// the hand's cards but the one being played, in hand order; every card of the discard or
  /// exhaust pile (the card being played is not there yet), bottom first; the draw pile's top
  /// cards a scry looks at, top first; or, for a choice of any draw pile card
  /// (choice_of_whole_draw_pile), every card there in the order of the instances
  /// (draw_places_by_card). Only those `filter` takes (their types read in `c`), and for an
  /// upgrade (choice_upgrades) only those with an upgrade. Their count. None while the choice's
  /// destination is the hand and the hand is full.
  std::size_t choice_cards(PendingChoice::Kind kind, CardFilter filter, const Catalog& c,
                           std::array<std::uint8_t, kMaxCards>& out) const {
    if (choice_destination_pile(kind) == Pile::Hand && hand_full()) return 0;
    std::size_t n = 0;
    if (choice_of_whole_draw_pile(kind)) {
      n = draw_places_by_card(out);
    } else {
      const std::span<const CardRef> pile = choice_pile(kind);
      for (std::size_t i = 0; i < pile.size(); ++i)
        if (pile[i] != playing.card) out[n++] = static_cast<std::uint8_t>(i);
    }
    const bool upgrades = choice_upgrades(kind);
    if (filter == kAnyCard && !upgrades) return n;
    const std::span<const CardRef> pile = choice_pile(kind);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const CardDef& def = c.cards[cards[pile[out[k]]].def];
      if (card_filter_takes(filter, def.type) && (!upgrades || def.upgrade)) out[kept++] = out[k];
    }
    return kept;
  }
  /// The cards the choice of cards waiting now offers (choice_cards of its kind and filter).
  std::size_t choice_cards(const Catalog& c, std::array<std::uint8_t, kMaxCards>& out) const {
    return choice_cards(choice.kind, choice.filter, c, out);
  }
  /// The places of the draw pile's cards (0 its top) in the order of the card instances there
  /// (CardRef), not the order they lie in: what a choice among them lists. The player, who may
  /// know which cards the pile holds but not where each lies, learns nothing of that order from
  /// the options, and an option names the same card in every battle the search imagines with
  /// the pile reshuffled (resample_hidden). Their count.
  std::size_t draw_places_by_card(std::array<std::uint8_t, kMaxCards>& out) const {
    static_assert(kMaxCards <= 64, "one bit a card instance");
    const std::span<const CardRef> top_first = piles.draw_top_first();
    std::array<std::uint8_t, kMaxCards> place_of;  // by card; read only where `held` has a bit
    std::uint64_t held = 0;
    for (std::size_t i = 0; i < top_first.size(); ++i) {
      place_of[top_first[i]] = static_cast<std::uint8_t>(i);
      held |= std::uint64_t{1} << top_first[i];
    }
    std::size_t n = 0;
    for (; held != 0; held &= held - 1) out[n++] = place_of[static_cast<std::size_t>(std::countr_zero(held))];
    return n;
  }
  /// The draw pile's card `from_top` places under its top is about to leave it: a mark of what
  /// the player knows there (draw_known_from, draw_ordered_from) above that card moves down one
  /// place with the cards it marks; a mark at or under it stays (a known card taken shrinks the
  /// known run, as a draw does).
  void take_from_draw_pile(std::size_t from_top) {
    const std::size_t at = piles.size(Pile::Draw) - 1 - from_top;  // bottom first, as the marks
    if (draw_known_from != kNothingKnownOnTop && at < draw_known_from) --draw_known_from;
    if (draw_ordered_from != kNothingKnownOnTop && at < draw_ordered_from) --draw_ordered_from;
  }
  /// How many draw pile cards lie at index `mark` or above.
  std::size_t draw_pile_above(std::uint8_t mark) const {
    const std::size_t n = piles.size(Pile::Draw);
    return n > mark ? n - mark : 0;
  }
  std::span<const CardRef> hand() const { return piles.hand(); }
  /// The most cards the hand holds: the rules' hand_limit, at most kMaxHand.
  std::size_t hand_limit() const { return std::min<std::size_t>(kMaxHand, rules.hand_limit); }
  /// True when the hand holds hand_limit() cards (or more, in a state built by hand).
  bool hand_full() const { return hand().size() >= hand_limit(); }
  /// The discard pile, bottom first.
  std::span<const CardRef> discard_pile() const { return piles.discard(); }
  /// The exhaust pile, bottom first.
  std::span<const CardRef> exhaust_pile() const { return piles.exhaust(); }
};

/// Damage each unit dealt to the other side since its battle started (the player to enemies,
/// an enemy to the player): what DamageDealt events report, summed. Hosts read it instead of
/// listening to every hit, so counting costs no event (the simulator's per-enemy damage).
/// Bookkeeping, not rules state: state_hash leaves it out; snapshots carry it.
struct DamageStats {
  /// [unit] (0 the player, 1 + i enemy i): HP its attacks took.
  std::array<std::int64_t, kMaxEnemies + 1> hp{};
  /// [unit]: armor its attacks broke (damage the armor absorbed).
  std::array<std::int64_t, kMaxEnemies + 1> armor{};
  friend bool operator==(const DamageStats&, const DamageStats&) = default;
};

/// The most options one decision offers: a play of every card in hand at every enemy and End
/// turn, or a Choice of every card of the discard pile, which may hold every card of the battle
/// but the one being played (a Choice of hand cards offers at most a hand, one of options at
/// most 4 and skip, a reward kMaxRewardChoices and skip).
inline constexpr std::size_t kMaxOptions = std::max(kMaxHand * kMaxEnemies + 1, kMaxCards);
static_assert(kMaxOptions >= kMaxHand + 1 && kMaxOptions >= kMaxRewardChoices + 1);
static_assert(kMaxOptions >= kMaxCards, "a choice of discard pile cards offers up to every card but one");
/// A decision's options in a fixed-capacity list.
using Options = FixedVec<Action, kMaxOptions>;

/// The pending decision: who decides and what they may do.
struct Decision {
  Decider who;
  /// Stable indices. PlayerPhase: cards in hand order (each target), then end turn. A Choice:
  /// its options in order, then skip when allowed. A reward: the candidates, then skip.
  std::vector<Action> options;
};

/// Options for a battle's bookkeeping (the rules are the same either way).
struct BattleOptions {
  bool event_log = true;       ///< keep every event in events().log()
  bool record_history = true;  ///< keep the transition history and the action list
};

/// One deckbuilder battle.
class Battle {
 public:
  explicit Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options = {});

  // --- starting -------------------------------------------------------------------------
  /// The guide's StartBattle: a missing encounter is an error and starts nothing, and so is a
  /// battle in play or a won one whose reward waits (taken or skipped, it ends).
  Result<Status> start_battle(std::string_view encounter_id, std::uint64_t seed,
                              std::span<const CardId> master_deck = {});
  Result<Status> start_battle(EncounterId encounter, std::uint64_t seed);
  /// Starts with the run's master deck instead of the player unit's starting deck.
  Result<Status> start_battle(EncounterId encounter, std::uint64_t seed, std::span<const CardId> master_deck);

  // --- run to decision --------------------------------------------------------------------
  /// Runs automatic steps until a decision is needed or the battle is over.
  Status advance();
  /// AwaitingDecision while a battle is waiting for input, else Finished.
  Status status() const {
    return phase() == Phase::PlayerPhase || is_waiting_for_reward() ? Status::AwaitingDecision
                                                                    : Status::Finished;
  }
  /// Who decides now and the legal options.
  Decision decision() const;
  /// The legal options into `out` (cleared first); no allocation once `out` has grown.
  void legal_actions(std::vector<Action>& out) const;
  /// The same into a fixed-capacity list, the simulator's and the search's: nothing to grow.
  void legal_actions(Options& out) const { out.set_size(list_options(out.data())); }
  /// The option at index `pick(n)` of legal_actions, n being the number of options: for a
  /// policy that picks by index alone (the random policy), the action and the calls of `pick`
  /// are those of listing the options and picking from them. Where the options follow from the
  /// hand, they are not listed: in a decision listed by the listing byte, with the energy at or
  /// above every card's cost (BattleState::listing_costs) they are the hand in order and End
  /// turn; below every card's cost, End turn alone. Otherwise they are listed into `scratch`.
  template <class Pick>
  Action pick_option(Options& scratch, Pick&& pick) const {
    const BattleState& s = state_;
    if (listed_by_byte()) {
      if (s.energy >= s.listing_costs.highest) {
        const std::span<const CardRef> hand = s.hand();
        const std::size_t i = pick(hand.size() + 1);
        if (i >= hand.size()) {
          if (i > hand.size()) [[unlikely]]
            bad_pick(i, hand.size() + 1);
          return Action::end_turn();
        }
        const CardRef card = hand[i];
        return Action::play(
            card, (s.cards[card].listing & kListingAimed) != 0 ? only_alive_enemy() : std::int8_t{-1});
      }
      if (s.energy < s.listing_costs.lowest) {
        if (const std::size_t i = pick(std::size_t{1}); i != 0) [[unlikely]]
          bad_pick(i, 1);
        return Action::end_turn();
      }
    }
    legal_actions(scratch);
    const std::size_t i = pick(scratch.size());
    if (i >= scratch.size()) [[unlikely]]
      bad_pick(i, scratch.size());
    return scratch[i];
  }
  /// Applies a legal action and advances; refuses an illegal one, changing nothing.
  Result<Status, Rejection> submit(const Action& action);
  /// submit for an action taken from legal_actions() of the battle as it is now, without checking
  /// it again: the path of the simulator and the search, where every action comes from the
  /// listing just made. The battle it leaves is the one submit leaves. Any other action is not
  /// detected, and what it does is undefined: a host's input goes to submit, which refuses it.
  /// Inline: a listed play or End turn goes straight to its steps (the listing offers them only
  /// in the player phase with no Choice or reward waiting); the rest (a Choice's or a reward's
  /// option, rare) takes the checked path.
  Status submit_listed(const Action& action) {
    if (action.kind == ActionKind::PlayCard) {
      const CardInstance& card = state_.cards[action.card];
      // An X-cost card's kXCost passes through cost(): no cost rule applies to it.
      return perform_play(action, catalog_->cards[card.def], card.cost(catalog_->card_play[card.def].cost),
                          action.target >= 0 ? enemy_unit(static_cast<std::size_t>(action.target)) : kNoUnit);
    }
    if (action.kind == ActionKind::EndTurn) return end_turn(action);
    return submit_checked(action);
  }

  // --- the guide's API --------------------------------------------------------------------
  Phase phase() const { return driver_.current(); }
  bool is_battle_active() const {
    const Phase p = phase();
    return p != Phase::None && p != Phase::BattleWon && p != Phase::BattleLost;
  }
  bool is_battle_over() const { return phase() == Phase::BattleWon || phase() == Phase::BattleLost; }
  bool is_waiting_for_choice() const { return state_.choice.kind != PendingChoice::Kind::None; }
  bool is_waiting_for_reward() const { return state_.reward_pending; }
  /// True in the middle of a card's play with no Choice waiting: only in a battle restored from a
  /// snapshot taken there, from an event listener. The rest of that play was on the caller's
  /// stack, so the battle can be looked at but not continued: submit refuses every action and
  /// decision() offers none.
  bool is_play_interrupted() const { return state_.playing.card != kNoCard && !is_waiting_for_choice(); }
  PlayCheck can_play_card(CardRef card) const;
  /// The energy a card instance costs now, after cost rules.
  std::int32_t effective_cost(CardRef card) const;
  bool requires_target(CardId card) const;
  /// The definition of a card instance, or nullptr.
  const CardDef* active_card(CardRef card) const;
  Result<Status, Rejection> try_play_card(CardRef card, std::int8_t target = -1);
  Result<Status, Rejection> end_player_turn();
  /// Picks option `index` of the pending Choice.
  Result<Status, Rejection> select_choice(std::uint8_t index);
  /// Skips the pending Choice (when it allows skipping).
  Result<Status, Rejection> skip_choice();
  /// Takes reward candidate `index`.
  Result<Status, Rejection> apply_reward(std::uint8_t index);
  Result<Status, Rejection> skip_reward();

  // --- views ------------------------------------------------------------------------------
  const BattleState& state() const { return state_; }
  const Catalog& catalog() const { return *catalog_; }
  const std::shared_ptr<const Catalog>& catalog_ptr() const { return catalog_; }
  std::uint32_t turn() const { return state_.turn; }
  /// Transition history (empty when record_history is off).
  const std::vector<PhaseRecord>& history() const { return driver_.history(); }
  std::uint32_t transitions() const { return driver_.moves(); }
  /// Every submitted action, in order (empty when record_history is off).
  const std::vector<Action>& actions() const { return actions_; }
  bool won() const { return phase() == Phase::BattleWon; }
  EventLog& events() { return events_; }
  const EventLog& events() const { return events_; }
  /// Damage dealt per unit to the other side, since start_battle (or as the snapshot restored had it).
  const DamageStats& damage_stats() const { return damage_stats_; }
  /// A 64-bit hash of the rules state, the phase and the move counter.
  std::uint64_t state_hash() const;

  /// Field-by-field equality: the rules state, the phase, the move counter and history, the
  /// action list, the event log, the damage stats, the bookkeeping options, the master deck and
  /// the queued trigger; the catalogs must have the same content hash. Listeners are not compared.
  bool operator==(const Battle& other) const;

  /// Internal: gives phase handlers and ops access to the state. Not for hosts.
  struct Access;

 private:
  friend struct Access;
  friend struct detail::BattleIo;
  Result<Status, Rejection> play_card(const Action& action);
  /// submit_listed for an action it does not take straight to its steps: submit, which must accept it.
  Status submit_checked(const Action& action);
  /// End turn in the player phase: records it, queues the transition and advances. Inline:
  /// submit_listed then calls advance itself.
  Status end_turn(const Action& action) {
    if (options_.record_history) actions_.push_back(canonical_action(action));
    pending_trigger_ = Trigger::EndTurnRequested;
    has_pending_trigger_ = true;
    return advance();
  }
  /// A play that can be made at `cost` on `target` (a UnitRef, or kNoUnit for the first alive
  /// enemy): records it and runs the play's steps 1 to 5, then 6 to 9 unless it pauses on a Choice.
  /// `cost` is kXCost for an X-cost card, which takes all the energy.
  Status perform_play(const Action& action, const CardDef& def, std::int32_t cost, UnitRef target);
  /// perform_play's steps, for a card of an X cost (whose X is `cost`) or of any other.
  template <bool kXCost>
  Status play_steps(const Action& action, const CardDef& def, std::int32_t cost, UnitRef target);
  /// can_play_card's checks after "the card is in hand" (for a card known to be there); sets
  /// `cost` to the card's effective cost once it is known.
  PlayCheck check_card_in_hand(CardRef card, std::int32_t& cost) const;
  /// The legal options into `out`, which has room for kMaxOptions; their count. Inline, for the
  /// decision of most turns: the player phase with nothing waiting, no hooks, one enemy alive
  /// and at most kMaxListedCost energy. There each card in hand is listed by its listing byte
  /// (CardInstance::listing) in one pass without a branch: every card's play is written, and
  /// the count moves on past it only when its cost is at most the energy. Anything else is
  /// list_other_options.
  std::size_t list_options(Action* __restrict out) const {
    const BattleState& s = state_;
    if (!listed_by_byte()) return list_other_options(out);
    const std::int8_t alive = only_alive_enemy();
    const CardInstance* __restrict cards = s.cards.data();
    const std::span<const CardRef> hand = s.hand();
    std::size_t n = 0;
    for (const CardRef card : hand) {
      const std::uint8_t listing = cards[card].listing;
      out[n] = Action::play(card, (listing & kListingAimed) != 0 ? alive : std::int8_t{-1});
      n += (listing & kListingCost) <= s.energy ? 1 : 0;
    }
    out[n++] = Action::end_turn();
    return n;
  }
  /// True for the decision list_options lists by the listing byte: the player phase with nothing
  /// waiting, no hooks, one enemy alive and at most kMaxListedCost energy. (A reward waits only in
  /// phase BattleWon: the player phase has none to ask about.)
  bool listed_by_byte() const {
    const BattleState& s = state_;
    return phase() == Phase::PlayerPhase && s.choice.kind == PendingChoice::Kind::None &&
           !s.played_this_turn.full() && s.hooks.empty() && s.energy <= kMaxListedCost &&
           s.enemies_alive == 1;
  }
  /// The index of the one enemy alive (while enemies_alive is 1).
  std::int8_t only_alive_enemy() const {
    std::int8_t alive = 0;
    while (!state_.enemies[static_cast<std::size_t>(alive)].unit.alive()) ++alive;
    return alive;
  }
  /// list_options for every other decision.
  std::size_t list_other_options(Action* __restrict out) const;
  /// Reports a policy's pick at or past the number of options (an engine error).
  [[noreturn, gnu::cold]] static void bad_pick(std::size_t pick, std::size_t options);
  /// list_options while a Choice waits.
  std::size_t list_choice_options(Action* out) const;
  /// can_play_card, also giving the effective cost of a card that can be played.
  PlayCheck check_play(CardRef card, std::int32_t& cost) const;
  /// Runs the effect in progress; when it finishes, the play's steps 6 to 9 (finish_play).
  Status continue_play();
  /// The play's steps 6 to 9, once its effect has run to its end; advance() when a transition is queued.
  Status finish_play(Access& x, const CardDef& def);
  Result<Status, Rejection> resolve_choice(const Action& action);
  Result<Status, Rejection> resolve_reward(const Action& action);

  std::shared_ptr<const Catalog> catalog_;
  BattleOptions options_;
  BattleState state_;
  PhaseDriver<Machine> driver_;
  EventLog events_;
  DamageStats damage_stats_;
  std::vector<Action> actions_;
  std::vector<CardId> master_deck_;  ///< empty: the player unit's starting deck
  bool has_pending_trigger_ = false;
  Trigger pending_trigger_ = Trigger::StartRequested;
};

}  // namespace battlecore::deckbuilder
