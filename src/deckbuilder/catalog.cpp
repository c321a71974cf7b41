#include "battlecore/deckbuilder/catalog.hpp"

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
  return {d.cost, d.target, d.keywords, !d.in_hand_turn_start.empty()};
}
}  // namespace

void index_card_play(Catalog& catalog) {
  catalog.card_play.clear();
  for (const CardDef& d : catalog.cards) catalog.card_play.push_back(play_info(d));
}

bool card_play_indexed(const Catalog& catalog) {
  if (catalog.card_play.size() != catalog.cards.size()) return false;
  for (std::size_t i = 0; i < catalog.cards.size(); ++i)
    if (!(catalog.card_play[i] == play_info(catalog.cards[i]))) return false;
  return true;
}

std::string_view card_type_name(CardType t) {
  switch (t) {
    case CardType::Attack:
      return "attack";
    case CardType::Skill:
      return "skill";
    case CardType::Power:
      return "power";
    case CardType::Status:
      return "status";
    case CardType::Curse:
      return "curse";
  }
  return "?";
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
