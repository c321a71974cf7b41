#pragma once
/// The deckbuilder's content, loaded and frozen: cards, statuses, enemies, player units,
/// encounters. Ids are dense indices; effects are compiled ops in one flat array.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace battlecore::deckbuilder {

using CardId = std::uint16_t;        ///< index into Catalog::cards
using StatusId = std::uint16_t;      ///< index into Catalog::statuses
using EnemyId = std::uint16_t;       ///< index into Catalog::enemies
using PlayerUnitId = std::uint16_t;  ///< index into Catalog::players
using EncounterId = std::uint16_t;   ///< index into Catalog::encounters
using MoveIndex = std::uint8_t;      ///< index into EnemyDef::moves
inline constexpr StatusId kNoStatus = 0xFFFF;
/// No move (yet): an enemy's last move before its first, or no intent.
inline constexpr MoveIndex kNoMove = 0xFF;

enum class CardType : std::uint8_t { Attack, Skill, Power, Status, Curse };
/// The names of CardType, in its order (content, snapshots).
inline constexpr std::array<std::string_view, 5> kCardTypeNames = {"attack", "skill", "power", "status",
                                                                   "curse"};
/// Which cards an op that moves cards of a pile, or a hook, takes (its "card_type"): any
/// (kAnyCard), or those of a set of CardTypes, bit t for type t (card_filter_of). One byte: the
/// op keeps it in Op::times, a Choice of cards in PendingChoice::filter. A set of every type is
/// kAnyCard, so that one filter has one value.
using CardFilter = std::uint8_t;
inline constexpr CardFilter kAnyCard = 0;
inline constexpr CardFilter kEveryCardType = (1u << kCardTypeNames.size()) - 1u;
/// The filter of the types in `set` (bit t for type t; every type, or none, is any).
constexpr CardFilter card_filter_of_set(std::uint32_t set) {
  return set == kEveryCardType ? kAnyCard : static_cast<CardFilter>(set & kEveryCardType);
}
/// The filter of one type.
constexpr CardFilter card_filter_of(CardType t) {
  return card_filter_of_set(1u << static_cast<std::uint8_t>(t));
}
/// Whether a card of type `t` passes `filter`.
constexpr bool card_filter_takes(CardFilter filter, CardType t) {
  return filter == kAnyCard || (filter >> static_cast<std::uint8_t>(t) & 1u) != 0;
}
/// The number a state hash counts for `filter`: 0 for any, t + 1 for the one type t, and
/// 0x20 | the set for several, so that a battle's hash with a filter of one type stays what it
/// was when a filter took one type only.
constexpr std::uint8_t card_filter_hash_code(CardFilter filter) {
  if (std::has_single_bit(filter)) return static_cast<std::uint8_t>(std::countr_zero(filter) + 1);
  return filter == kAnyCard ? 0 : static_cast<std::uint8_t>(0x20u | filter);
}
/// Who a card is aimed at when played.
enum class CardTarget : std::uint8_t {
  None,   ///< no target chosen (self, all enemies, random enemy ops)
  Enemy,  ///< the player picks one alive enemy
};

/// Card keywords, as bits.
enum Keyword : std::uint8_t {
  kInnate = 1u << 0,
  kRetain = 1u << 1,
  kEthereal = 1u << 2,
  kExhaust = 1u << 3,
  kUnplayable = 1u << 4,
};

/// Whom an op affects, relative to its source: for a player's card the enemies are the
/// opposing side; for an enemy's move the player is.
enum class OpTarget : std::uint8_t {
  Chosen,       ///< the card's target (cards), the player (enemy moves)
  Self,         ///< the source itself
  AllEnemies,   ///< every alive unit of the opposing side
  RandomEnemy,  ///< one alive unit of the opposing side, from the effects stream
};

/// Op flags.
enum OpFlag : std::uint8_t {
  kAmountCounted = 1u << 0,  ///< the amount is counted as the op runs: Catalog::counted_amounts[amount]
  kSetsCost = 1u << 1,       ///< cost_rule: sets the cost (without it, changes the cost)
  /// The op may push effect frames or pause on a choice: the loader sets it from the op kind's
  /// OpSpec::nests, and the op's compile function clears it when its parameters rule both out.
  kNests = 1u << 2,
  /// damage: one hit of the literal amount on the one unit the target kind names (set by its
  /// compile function; without it, the op takes its general path, with the same result).
  kOneHit = 1u << 3,
  /// damage, repeat, add_card: the number of hits, passes or cards is counted as the op runs:
  /// Catalog::counted_amounts[times].
  kTimesCounted = 1u << 4,
};

/// What a counted amount counts, as the op runs.
enum class AmountCount : std::uint8_t {
  Stacks,               ///< stacks of CountedAmount::status, or of the status whose timing runs
  Hand,                 ///< cards in the hand, the card being played not counted
  DrawPile,             ///< cards in the draw pile
  DiscardPile,          ///< cards in the discard pile
  ExhaustPile,          ///< cards in the exhaust pile
  Energy,               ///< the player's energy
  Armor,                ///< the unit's armor
  MissingHp,            ///< the unit's max HP less its HP
  CardsPlayedThisTurn,  ///< cards played this turn, the one being played included
  AttacksThisTurn,      ///< attacks played this turn, the one being played included
  X,                    ///< the energy spent on the X-cost card being played; 0 for any other
};
/// The names of AmountCount, in its order (content).
inline constexpr std::array<std::string_view, 11> kAmountCountNames = {
    "stacks", "hand",  "draw_pile",  "discard_pile",           "exhaust_pile",
    "energy", "armor", "missing_hp", "cards_played_this_turn", "attacks_this_turn",
    "x"};
/// Whether a count counts cards, and so may take a CountedAmount::cards filter.
constexpr bool counts_cards(AmountCount count) {
  return count == AmountCount::Hand || count == AmountCount::DrawPile || count == AmountCount::DiscardPile ||
         count == AmountCount::ExhaustPile || count == AmountCount::CardsPlayedThisTurn;
}
/// An amount counted as its op runs (an op with kAmountCounted): plus + per × the count, kept
/// within [min, max], the op's range with 0 let in. Stacks, armor and missing HP are the
/// source's, or with `of_target` the effect's chosen unit's.
struct CountedAmount {
  AmountCount count = AmountCount::Stacks;
  bool of_target = false;
  StatusId status = kNoStatus;  ///< Stacks: the status counted; kNoStatus for the running one
  CardFilter cards = kAnyCard;  ///< a count of cards (counts_cards): only cards of these types
  std::int32_t per = 1;
  std::int32_t plus = 0;
  std::int32_t min = 0;
  std::int32_t max = 0;
};

/// One compiled effect op. `code` indexes Catalog::op_handlers; the meaning of the other
/// fields is the op's own (documented with each op in src/deckbuilder/ops/).
struct Op {
  std::uint8_t code = 0;
  OpTarget target = OpTarget::Chosen;
  std::uint8_t flags = 0;
  std::uint8_t mode = 0;    ///< an op-specific small enum (pile, scope, timing, ...)
  std::uint16_t ref = 0;    ///< a status, card, hook or condition id where the op names one
  std::uint16_t block = 0;  ///< first nested block (index into Catalog::blocks)
  std::int32_t amount = 0;
  std::int32_t times = 1;  ///< repeat count, hit count, or number of nested blocks
};

/// A run of Catalog::ops.
struct OpRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  /// No op of the run pushes effect frames or pauses on a choice (set by the loader): it runs
  /// straight through, without the effect stack.
  bool flat = false;
  bool empty() const { return begin == end; }
};

/// A condition of a conditional op or an enemy behaviour rule.
enum class ConditionKind : std::uint8_t {
  TargetHasStatus,     ///< the chosen target has at least `amount` stacks of `status`
  SelfHpBelowPercent,  ///< the source's HP is below `amount` percent of its max
  HandSizeAtLeast,     ///< the player's hand has at least `amount` cards
  EnergyAtLeast,       ///< the player has at least `amount` energy
  AttackedThisTurn,    ///< the player has played an attack this turn
};

struct Condition {
  ConditionKind kind = ConditionKind::AttackedThisTurn;
  StatusId status = 0;
  std::int32_t amount = 0;
};

/// CardDef::cost of an X-cost card: it takes all the player's energy when played (0 too), and
/// its effects may count what it took (AmountCount::X). Cost rules leave it alone.
inline constexpr std::int8_t kXCost = -1;

struct CardDef {
  std::string id;
  std::string name;
  std::string text;  ///< rules text shown to players; may be empty
  CardType type = CardType::Skill;
  std::int8_t cost = 0;  ///< energy 0 to 9, or kXCost
  CardTarget target = CardTarget::None;
  std::uint8_t keywords = 0;
  OpRange effects;
  OpRange in_hand_turn_start;            ///< runs at the player's turn start while in hand
  std::vector<std::uint16_t> hooks;      ///< hooks registered when the card is played
  std::optional<std::uint16_t> upgrade;  ///< the upgraded version's card id
  bool has(Keyword k) const { return (keywords & k) != 0; }
  bool x_cost() const { return cost == kXCost; }
};

/// What listing and playing a card read of its definition, packed: one entry per CardDef, in
/// Catalog::card_play. The loader fills it; a catalog built or changed in code calls
/// index_catalog after changing `cards` (a battle refuses a catalog whose index does not match).
struct CardPlayInfo {
  std::int8_t cost = 0;  ///< CardDef::cost
  CardTarget target = CardTarget::None;
  std::uint8_t keywords = 0;
  bool in_hand_turn_start = false;  ///< CardDef::in_hand_turn_start is not empty
  /// CardInstance::listing of an instance of the card without cost rules (card_listing).
  std::uint8_t listing = 0;
  bool has(Keyword k) const { return (keywords & k) != 0; }
  friend bool operator==(const CardPlayInfo&, const CardPlayInfo&) = default;
};

/// CardInstance::listing, the byte the listing of options reads for each card in hand: bit 7
/// when the card is aimed at an enemy, bits 0 to 6 the energy it costs now (`cost`, cost rules
/// applied), kListingCostUnknown for a cost above kMaxListedCost, kListingUnplayable for an
/// Unplayable card.
inline constexpr std::uint8_t kListingAimed = 0x80;
inline constexpr std::uint8_t kListingCost = 0x7F;
inline constexpr std::uint8_t kMaxListedCost = 125;
inline constexpr std::uint8_t kListingCostUnknown = 126;
inline constexpr std::uint8_t kListingUnplayable = 127;
constexpr std::uint8_t card_listing(CardTarget target, std::uint8_t keywords, std::int32_t cost) {
  const std::uint8_t aimed = target == CardTarget::Enemy ? kListingAimed : 0;
  if ((keywords & kUnplayable) != 0) return static_cast<std::uint8_t>(aimed | kListingUnplayable);
  // A negative cost (a catalog built in code) is listed as 0, as the energy compares it.
  return static_cast<std::uint8_t>(aimed | (cost > kMaxListedCost ? kListingCostUnknown : std::max(cost, 0)));
}
/// The span of the costs in some listing bytes: a battle's card instances' (BattleState::
/// listing_costs) or a starting deck's (DeckIndex). Unplayable cards count as
/// kListingUnplayable, above any energy listed.
struct ListingCosts {
  std::uint8_t lowest = kListingUnplayable;  ///< with no card instance, above every cost
  std::uint8_t highest = 0;
  /// Counts an instance with listing byte `listing`.
  void add(std::uint8_t listing) {
    const auto cost = static_cast<std::uint8_t>(listing & kListingCost);
    lowest = std::min(lowest, cost);
    highest = std::max(highest, cost);
  }
  /// Counts the instances `other` counted.
  void add(const ListingCosts& other) {
    lowest = std::min(lowest, other.lowest);
    highest = std::max(highest, other.highest);
  }
  friend bool operator==(const ListingCosts&, const ListingCosts&) = default;
};

enum class StatusKind : std::uint8_t { Buff, Debuff };
/// How new stacks combine: Intensity adds to the amount, Duration adds turns.
enum class Stacking : std::uint8_t { Intensity, Duration };
/// When a status loses a stack by itself.
enum class Decay : std::uint8_t {
  None,          ///< never
  OwnerTurnEnd,  ///< one stack at the end of its owner's turn
};

struct StatusDef {
  std::string id;
  std::string name;
  StatusKind kind = StatusKind::Buff;
  Stacking stacking = Stacking::Intensity;
  Decay decay = Decay::None;
  /// Attack damage the owner deals: + per stack (Strength).
  std::int32_t damage_dealt_per_stack = 0;
  /// Attack damage the owner deals, in percent while it has any stack (Weak: 75).
  std::int32_t damage_dealt_percent = 100;
  /// Attack damage the owner takes, in percent while it has any stack (Vulnerable: 150).
  std::int32_t damage_taken_percent = 100;
  /// Armor the owner gains: + per stack (Dexterity).
  std::int32_t armor_gained_per_stack = 0;
  /// Armor the owner gains, in percent while it has any stack (Frail: 75).
  std::int32_t armor_gained_percent = 100;
  /// The owner loses its action while it has stacks (Stun).
  bool skips_turn = false;
  /// Effects run at each timing, the owner as source (see StatusTiming).
  std::array<OpRange, 7> timings{};
};

/// What a status can do, one bit per kind (Catalog::status_traits; a unit's UnitState::status_traits
/// is the union of its statuses'): the turn steps and the damage and armor helpers skip their
/// loops over a unit's statuses when no status has it.
namespace status_trait {
/// Bit t (0 to 6): a status has a behaviour at StatusTiming t.
inline constexpr std::uint16_t kSkipsTurn = 1u << 7;
inline constexpr std::uint16_t kDecaysAtOwnerTurnEnd = 1u << 8;
inline constexpr std::uint16_t kChangesDamageDealt = 1u << 9;
inline constexpr std::uint16_t kChangesDamageTaken = 1u << 10;
inline constexpr std::uint16_t kChangesArmorGained = 1u << 11;
}  // namespace status_trait
/// The status_trait bits of one status definition.
std::uint16_t status_def_traits(const StatusDef& def);

/// When a status's behaviour runs. The order is the index into StatusDef::timings.
enum class StatusTiming : std::uint8_t {
  BattleStart,
  TurnStart,
  DrawPhase,
  DiscardPhase,
  TurnEnd,
  BattleEnd,
  OnAttacked
};

/// What a hook does while it is registered.
enum class HookKind : std::uint8_t {
  CancelPlay,    ///< the seed's on-play hook: cancels matching plays
  RefusePlay,    ///< the seed's playable hook: matching cards cannot be played
  ArmorReset,    ///< the armor reset hook: keep `keep_percent` of armor at turn start
  OnCardPlayed,  ///< runs its effects after a matching card is played
};

struct HookDef {
  std::string id;
  HookKind kind = HookKind::OnCardPlayed;
  CardFilter card_type = kAnyCard;  ///< only cards of these types match
  std::int32_t keep_percent = 0;
  OpRange effects;
  std::uint8_t duration = 0;  ///< turns; 0 = the rest of the battle
};

struct RewardPool {
  std::string id;
  std::vector<std::uint16_t> cards;
  std::uint8_t choices = 3;
};

/// What an enemy shows it will do.
enum class Intent : std::uint8_t {
  Attack,
  AttackDefend,
  Defend,
  Buff,
  BuffDefend,
  Debuff,
  AttackDebuff,
  Unknown
};

struct MoveDef {
  std::string id;
  std::string name;
  Intent intent = Intent::Unknown;
  OpRange effects;
};

/// How an enemy picks its next move.
enum class BehaviorKind : std::uint8_t {
  Random,    ///< weighted among the moves whose repeat limit allows them
  Sequence,  ///< the listed moves in order, looping from `loop_from`
};

/// A conditional behaviour rule: the first rule whose condition holds picks the move.
struct BehaviorRule {
  Condition condition;
  MoveIndex move = 0;
  bool once = false;  ///< the rule applies at most once per battle
};

struct WeightedMove {
  MoveIndex move = 0;
  std::uint16_t weight = 1;
  std::uint8_t max_in_a_row = 0;  ///< 0: no limit
};

/// The repeat limit of a weighted move: it may be picked unless it is the last move and that
/// move has been made `streak` times in a row, its max_in_a_row or more (`last` kNoMove: no
/// move yet, nothing held back).
inline bool allowed_after(const WeightedMove& w, MoveIndex last, std::uint32_t streak) {
  return w.max_in_a_row == 0 || w.move != last || streak < w.max_in_a_row;
}

/// A Random behaviour's pick, compiled by index_catalog (Catalog::enemy_picks, by EnemyId).
/// Which weighted moves are allowed depends only on the enemy's last move and its streak, so
/// each (last move, streak) has a row of Catalog::pick_weights: for each weighted move in list
/// order, the sum of the allowed weights up to and including it (a move not allowed adds 0),
/// all moves counted when none is allowed. The pick draws r below the row's last sum and takes
/// the first move whose sum exceeds r: the number of sums at most r, counted without a branch.
struct WeightedPick {
  /// The first of the enemy's slots in Catalog::pick_slots: one for "no move yet", then one
  /// per move (slot 1 + m after move m).
  std::uint32_t slots = 0;
  /// The weighted moves, the length of a row; 0 when the enemy has no table (not Random, or
  /// more than kMaxTabledWeights weighted moves): resolve_intent walks the list.
  std::uint16_t entries = 0;
  /// A table and no behaviour rules: after the first move, the table alone picks the intent.
  bool alone = false;
  /// The enemy's first move is forced (EnemyDef::first_move).
  bool forced_first = false;
  friend bool operator==(const WeightedPick&, const WeightedPick&) = default;
};
/// A last move's rows: streaks 0 to `cap` each have one, and a longer streak uses row `cap`
/// (the largest max_in_a_row of the weighted entries of that move; 0 when none has one).
struct PickSlot {
  std::uint32_t row = 0;  ///< index in Catalog::pick_weights of the row for streak 0
  std::uint8_t cap = 0;
  friend bool operator==(const PickSlot&, const PickSlot&) = default;
};
/// Weighted lists longer than this keep no table (their rows would grow with the square of the
/// list); no bundled enemy comes near it.
inline constexpr std::size_t kMaxTabledWeights = 32;

struct EnemyDef {
  std::string id;
  std::string name;
  std::int32_t hp_min = 1;
  std::int32_t hp_max = 1;
  std::vector<MoveDef> moves;
  BehaviorKind behavior = BehaviorKind::Random;
  std::optional<MoveIndex> first_move;  ///< forced first intent
  std::vector<WeightedMove> weighted;   ///< Random
  std::vector<MoveIndex> sequence;      ///< Sequence
  std::uint8_t loop_from = 0;           ///< Sequence: where the loop restarts
  std::vector<BehaviorRule> rules;      ///< checked before the behaviour above (at most 8)
  std::vector<std::pair<StatusId, std::int32_t>> statuses;  ///< applied at battle start
};

struct PlayerUnitDef {
  std::string id;
  std::string name;
  std::int32_t max_hp = 1;
  std::int32_t hp = 1;
  std::vector<CardId> deck;  ///< the starting deck, expanded (one entry per card)
};

/// The seed's BattleRules.ArmorDecayRule.
enum class ArmorDecayRule : std::uint8_t {
  ResetOnTurnStart,  ///< armor resets at the start of each of the unit's turns (default)
  Persist,           ///< armor carries over untouched
};

/// Per-encounter rules; the defaults are the usual deckbuilder conventions.
struct BattleRules {
  ArmorDecayRule armor_decay = ArmorDecayRule::ResetOnTurnStart;
  std::uint8_t max_energy = 3;
  std::uint8_t opening_hand = 5;  ///< in content, defaults to the encounter's draw_per_turn
  std::uint8_t draw_per_turn = 5;
  std::uint8_t hand_limit = 10;
  /// A battle still running after this many turns is lost (so stalemates end).
  std::uint16_t turn_limit = 100;
  friend bool operator==(const BattleRules&, const BattleRules&) = default;
};

enum class EncounterKind : std::uint8_t { Normal, Elite, Boss };

struct EncounterDef {
  std::string id;
  std::string name;
  EncounterKind kind = EncounterKind::Normal;
  std::optional<std::uint16_t> reward;  ///< reward pool
  PlayerUnitId player = 0;
  std::vector<EnemyId> enemies;
  BattleRules rules;
};

struct PackInfo {
  std::string id;
  std::string name;
  std::optional<EncounterId> default_encounter;
};

namespace detail {
struct OpContext;
}
/// Runs one compiled op.
using OpHandler = void (*)(detail::OpContext&, const Op&);

/// What a battle's start derives from a starting deck's cards (Catalog::player_decks): their
/// keywords together and the span of their listing costs.
struct DeckIndex {
  std::uint8_t keywords = 0;
  ListingCosts costs;
  friend bool operator==(const DeckIndex&, const DeckIndex&) = default;
};

/// Everything a deckbuilder battle reads, immutable once loaded (shared as shared_ptr<const>).
struct Catalog {
  PackInfo pack;
  std::vector<CardDef> cards;
  std::vector<CardPlayInfo> card_play;  ///< by CardId: the fields of `cards` a play reads
  /// Some card of `card_play` has CardPlayInfo::in_hand_turn_start: without one, the player's
  /// turn start does not look at the hand.
  bool in_hand_turn_start = false;
  std::vector<StatusDef> statuses;
  std::vector<std::uint16_t> status_traits;  ///< by StatusId: status_def_traits of `statuses`
  std::vector<EnemyDef> enemies;
  std::vector<WeightedPick> enemy_picks;    ///< by EnemyId: the compiled Random pick
  std::vector<PickSlot> pick_slots;         ///< WeightedPick::slots
  std::vector<std::uint32_t> pick_weights;  ///< the rows of PickSlot::row
  std::vector<PlayerUnitDef> players;
  std::vector<DeckIndex> player_decks;  ///< by player unit: its starting deck's DeckIndex
  std::vector<EncounterDef> encounters;
  std::vector<HookDef> hooks;
  std::vector<RewardPool> reward_pools;
  std::vector<Condition> conditions;      ///< by Op::ref of conditional ops
  std::vector<OpRange> blocks;            ///< nested effect lists, by Op::block
  std::vector<std::string> block_labels;  ///< a label per block (choice options), else empty
  std::vector<Op> ops;                    ///< every effect of every card and move
  /// By Op::amount of the ops with kAmountCounted, and Op::times of those with kTimesCounted.
  std::vector<CountedAmount> counted_amounts;
  std::vector<OpHandler> op_handlers;  ///< by Op::code
  std::vector<std::string> op_names;   ///< by Op::code
  std::uint64_t content_hash = 0;      ///< content::canonical_content_hash of the files as loaded

  std::optional<CardId> find_card(std::string_view id) const;
  std::optional<StatusId> find_status(std::string_view id) const;
  std::optional<EnemyId> find_enemy(std::string_view id) const;
  std::optional<PlayerUnitId> find_player(std::string_view id) const;
  std::optional<EncounterId> find_encounter(std::string_view id) const;
};

/// Rebuilds the derived tables: Catalog::card_play and Catalog::in_hand_turn_start from
/// Catalog::cards, Catalog::status_traits from Catalog::statuses, Catalog::enemy_picks and its
/// rows from Catalog::enemies, Catalog::player_decks from Catalog::players.
void index_catalog(Catalog& catalog);
/// The DeckIndex of `deck`, from the catalog's card index (ids outside it are left out).
DeckIndex deck_index_of(std::span<const CardId> deck, const Catalog& catalog);
/// True when the derived tables hold exactly what index_catalog would put there.
bool catalog_indexed(const Catalog& catalog);

std::string_view card_type_name(CardType t);
/// The types `filter` takes, for messages: "attack", "skill or power", "skill, power or curse";
/// "any" for kAnyCard.
std::string card_filter_name(CardFilter filter);
std::string_view status_timing_name(StatusTiming t);
std::string_view intent_name(Intent i);
std::string_view armor_decay_rule_name(ArmorDecayRule r);

}  // namespace battlecore::deckbuilder
