#include "battlecore/deckbuilder/catalog.hpp"

#include <algorithm>

namespace battlecore::deckbuilder {

namespace {
template <class Defs>
std::optional<std::uint16_t> find_id(const Defs& defs, std::string_view id) {
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (defs[i].id == id) return static_cast<std::uint16_t>(i);
  return std::nullopt;
}
}  // namespace

std::optional<CardId> Catalog::find_card(std::string_view id) const { return find_id(cards, id); }
std::optional<StatusId> Catalog::find_status(std::string_view id) const { return find_id(statuses, id); }
std::optional<EnemyId> Catalog::find_enemy(std::string_view id) const { return find_id(enemies, id); }
std::optional<PlayerUnitId> Catalog::find_player(std::string_view id) const { return find_id(players, id); }
std::optional<EncounterId> Catalog::find_encounter(std::string_view id) const {
  return find_id(encounters, id);
}

namespace {
CardPlayInfo play_info(const CardDef& d) {
  return {d.cost, d.target, d.keywords, !d.in_hand_turn_start.empty(),
          card_listing(d.target, d.keywords, d.cost)};
}
}  // namespace

std::uint16_t status_def_traits(const StatusDef& def) {
  static_assert(std::tuple_size_v<decltype(StatusDef::timings)> <= 7,
                "the timings take bits 0 to 6 of the traits; status_trait::kSkipsTurn is bit 7");
  std::uint16_t traits = 0;
  for (std::size_t t = 0; t < def.timings.size(); ++t)
    if (!def.timings[t].empty()) traits |= static_cast<std::uint16_t>(1u << t);
  if (def.skips_turn) traits |= status_trait::kSkipsTurn;
  if (def.decay == Decay::OwnerTurnEnd) traits |= status_trait::kDecaysAtOwnerTurnEnd;
  if (def.damage_dealt_per_stack != 0 || def.damage_dealt_percent != 100)
    traits |= status_trait::kChangesDamageDealt;
  if (def.damage_taken_percent != 100) traits |= status_trait::kChangesDamageTaken;
  if (def.armor_gained_per_stack != 0 || def.armor_gained_percent != 100)
    traits |= status_trait::kChangesArmorGained;
  return traits;
}

namespace {
/// The derived pick tables of `enemies` (WeightedPick).
struct PickTables {
  std::vector<WeightedPick> picks;
  std::vector<PickSlot> slots;
  std::vector<std::uint32_t> weights;
};

PickTables pick_tables(const std::vector<EnemyDef>& enemies) {
  PickTables t;
  for (const EnemyDef& d : enemies) {
    WeightedPick pick;
    const std::size_t n = d.weighted.size();
    if (d.behavior == BehaviorKind::Random && n > 0 && n <= kMaxTabledWeights) {
      pick.slots = static_cast<std::uint32_t>(t.slots.size());
      pick.entries = static_cast<std::uint16_t>(n);
      for (std::size_t slot = 0; slot <= d.moves.size(); ++slot) {
        const auto last = slot == 0 ? kNoMove : static_cast<MoveIndex>(slot - 1);  // slot 0: no move yet
        std::uint8_t cap = 0;
        for (const WeightedMove& w : d.weighted)
          if (w.move == last) cap = std::max(cap, w.max_in_a_row);
        t.slots.push_back(PickSlot{static_cast<std::uint32_t>(t.weights.size()), cap});
        for (std::uint32_t streak = 0; streak <= cap; ++streak) {
          bool any = false;
          for (const WeightedMove& w : d.weighted) any = any || allowed_after(w, last, streak);
          std::uint32_t sum = 0;
          for (const WeightedMove& w : d.weighted) {
            if (!any || allowed_after(w, last, streak)) sum += w.weight;
            t.weights.push_back(sum);
          }
        }
      }
    }
    pick.alone = pick.entries != 0 && d.rules.empty();
    pick.forced_first = d.first_move.has_value();
    t.picks.push_back(pick);
  }
  return t;
}
bool any_in_hand_turn_start(const std::vector<CardPlayInfo>& cards) {
  return std::any_of(cards.begin(), cards.end(), [](const CardPlayInfo& c) { return c.in_hand_turn_start; });
}
std::vector<DeckIndex> deck_indexes(const Catalog& catalog) {
  std::vector<DeckIndex> decks;
  for (const PlayerUnitDef& p : catalog.players) decks.push_back(deck_index_of(p.deck, catalog));
  return decks;
}
}  // namespace

DeckIndex deck_index_of(std::span<const CardId> deck, const Catalog& catalog) {
  DeckIndex index;
  for (const CardId card : deck) {
    if (card >= catalog.card_play.size()) continue;  // not a card of the pack: no battle starts with it
    const CardPlayInfo& info = catalog.card_play[card];
    index.keywords = static_cast<std::uint8_t>(index.keywords | info.keywords);
    index.costs.add(info.listing);
  }
  return index;
}

void index_catalog(Catalog& catalog) {
  catalog.card_play.clear();
  for (const CardDef& d : catalog.cards) catalog.card_play.push_back(play_info(d));
  catalog.in_hand_turn_start = any_in_hand_turn_start(catalog.card_play);
  catalog.status_traits.clear();
  for (const StatusDef& d : catalog.statuses) catalog.status_traits.push_back(status_def_traits(d));
  PickTables picks = pick_tables(catalog.enemies);
  catalog.enemy_picks = std::move(picks.picks);
  catalog.pick_slots = std::move(picks.slots);
  catalog.pick_weights = std::move(picks.weights);
  catalog.player_decks = deck_indexes(catalog);  // after card_play, which it reads
}

bool catalog_indexed(const Catalog& catalog) {
  if (catalog.card_play.size() != catalog.cards.size()) return false;
  for (std::size_t i = 0; i < catalog.cards.size(); ++i)
    if (!(catalog.card_play[i] == play_info(catalog.cards[i]))) return false;
  if (catalog.in_hand_turn_start != any_in_hand_turn_start(catalog.card_play)) return false;
  if (catalog.status_traits.size() != catalog.statuses.size()) return false;
  for (std::size_t i = 0; i < catalog.statuses.size(); ++i)
    if (catalog.status_traits[i] != status_def_traits(catalog.statuses[i])) return false;
  if (catalog.player_decks != deck_indexes(catalog)) return false;  // card_play is checked above
  const PickTables picks = pick_tables(catalog.enemies);
  return catalog.enemy_picks == picks.picks && catalog.pick_slots == picks.slots &&
         catalog.pick_weights == picks.weights;
}

std::string_view card_type_name(CardType t) {
  const auto i = static_cast<std::size_t>(t);
  return i < kCardTypeNames.size() ? kCardTypeNames[i] : "?";
}

std::string card_filter_name(CardFilter filter) {
  if (filter == kAnyCard) return "any";
  std::vector<std::string_view> types;
  for (std::size_t t = 0; t < kCardTypeNames.size(); ++t)
    if ((filter >> t & 1u) != 0) types.push_back(kCardTypeNames[t]);
  std::string out(types.front());
  for (std::size_t i = 1; i < types.size(); ++i) {
    out += i + 1 == types.size() ? " or " : ", ";
    out += types[i];
  }
  return out;
}

std::string_view status_timing_name(StatusTiming t) {
  switch (t) {
    case StatusTiming::BattleStart:
      return "battle_start";
    case StatusTiming::TurnStart:
      return "turn_start";
    case StatusTiming::DrawPhase:
      return "draw_phase";
    case StatusTiming::DiscardPhase:
      return "discard_phase";
    case StatusTiming::TurnEnd:
      return "turn_end";
    case StatusTiming::BattleEnd:
      return "battle_end";
    case StatusTiming::OnAttacked:
      return "on_attacked";
  }
  return "?";
}

std::string_view intent_name(Intent i) {
  switch (i) {
    case Intent::Attack:
      return "attack";
    case Intent::AttackDefend:
      return "attack_defend";
    case Intent::Defend:
      return "defend";
    case Intent::Buff:
      return "buff";
    case Intent::BuffDefend:
      return "buff_defend";
    case Intent::Debuff:
      return "debuff";
    case Intent::AttackDebuff:
      return "attack_debuff";
    case Intent::Unknown:
      return "unknown";
  }
  return "?";
}

std::string_view armor_decay_rule_name(ArmorDecayRule r) {
  return r == ArmorDecayRule::ResetOnTurnStart ? "reset_on_turn_start" : "persist";
}

}  // namespace battlecore::deckbuilder
