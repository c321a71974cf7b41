// Scenarios: start the encounter, then apply the overrides, each checked against the content
// and the battle (docs/determinism.md#scenarios).

#include "battlecore/deckbuilder/scenario.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "battlecore/content/scenario_io.hpp"
#include "deckbuilder/snapshot_io.hpp"

namespace battlecore::deckbuilder {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

namespace {

/// The keys the overrides read, in the order they read them.
constexpr std::array<std::string_view, 9> kOverrideKeys = {
    "turn", "energy", "player", "enemies", "counters", "draw_pile", "hand", "discard_pile", "exhaust_pile"};

constexpr std::array<std::string_view, 4> kPiles = {"draw_pile", "hand", "discard_pile", "exhaust_pile"};
constexpr std::array<Pile, 4> kPileOf = {Pile::Draw, Pile::Hand, Pile::Discard, Pile::Exhaust};

/// Reads a list of card ids; unknown ids are reported at their pointer.
std::vector<CardId> read_cards(ObjectReader& r, std::string_view key, const Catalog& c, bool& ok) {
  std::vector<CardId> cards;
  const json* list = r.optional_array(key);
  if (list == nullptr) return cards;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    const std::string p = content::child_pointer(r.pointer_of(key), i);
    if (!v.is_string()) {
      r.diagnostics().add(
          r.document().diagnostic(p, "expected a card id, got " + content::describe_json_type(v)));
      ok = false;
      continue;
    }
    const auto id = c.find_card(v.get<std::string>());
    if (!id) {
      r.diagnostics().add(r.document().diagnostic(
          p, fmt::format("no card '{}' in pack '{}'", v.get<std::string>(), c.pack.id)));
      ok = false;
      continue;
    }
    cards.push_back(*id);
  }
  return cards;
}

/// Reads a unit's overrides into `u`: hp, max_hp, armor, statuses.
void read_unit(ObjectReader& r, const Catalog& c, UnitState& u, bool is_player, bool& ok) {
  const std::size_t before = r.diagnostics().size();
  if (const auto max_hp = r.optional_int("max_hp", 1, 9999)) u.max_hp = static_cast<std::int32_t>(*max_hp);
  if (const json* hp = r.optional_value("hp")) {
    const std::int64_t lo = is_player ? 1 : 0;
    if (!hp->is_number_integer() || hp->get<std::int64_t>() < lo || hp->get<std::int64_t>() > u.max_hp)
      r.error_at(
          "hp", fmt::format("expected HP in [{}, {}] (the unit's max HP), got {}", lo, u.max_hp, hp->dump()));
    else
      u.hp = static_cast<std::int32_t>(hp->get<std::int64_t>());
  } else if (u.hp > u.max_hp) {
    r.error_at("max_hp", fmt::format("max HP {} is below the unit's HP {}; give \"hp\" too", u.max_hp, u.hp));
  }
  if (const auto armor = r.optional_int("armor", 0, 999)) u.armor = static_cast<std::int32_t>(*armor);
  if (const json* sts = r.optional_array("statuses")) {
    u.statuses.clear();
    for (std::size_t i = 0; i < sts->size(); ++i) {
      ObjectReader s(r.document(), (*sts)[i], content::child_pointer(r.pointer_of("statuses"), i),
                     r.diagnostics());
      const auto id = s.required_string("status");
      const auto stacks = s.required_int("stacks", 1, kMaxStatusStacks);
      s.finish();
      if (!id || !stacks) continue;
      const auto status = c.find_status(*id);
      if (!status) {
        s.error_at("status", fmt::format("no status '{}' in pack '{}'", *id, c.pack.id));
        continue;
      }
      if (u.stacks(*status) != 0) {
        s.error_at("status", fmt::format("status '{}' is listed twice", *id));
        continue;
      }
      if (u.statuses.full()) {
        s.error(fmt::format("a unit holds at most {} statuses", kMaxStatusSlots));
        continue;
      }
      u.statuses.push_back(StatusStack{*status, static_cast<std::int16_t>(*stacks)});
    }
    refresh_status_traits(u, c);
  }
  r.finish();
  if (r.diagnostics().size() != before) ok = false;
}

}  // namespace

Result<Battle, Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog, const JsonDocument& doc,
                                           std::optional<std::uint64_t> seed, BattleOptions options) {
  const Catalog& c = *catalog;
  const auto start = [&](Battle& battle, EncounterId encounter, std::uint64_t battle_seed, ObjectReader& r) {
    if (auto started = battle.start_battle(encounter, battle_seed); !started) {
      r.error(started.error().message);
      return false;
    }
    if (battle.phase() != Phase::PlayerPhase || battle.is_waiting_for_choice()) {
      r.error(fmt::format("encounter '{}' does not reach the player's first decision (phase {})",
                          c.encounters[encounter].id, phase_name(battle.phase())));
      return false;
    }
    return true;
  };
  const auto overrides = [&](ObjectReader& r, Battle& battle) {
    Diagnostics& diags = r.diagnostics();
    const EncounterId encounter = battle.state().encounter;
    BattleState s = battle.state();
    const BattleRules& rules = c.encounters[encounter].rules;
    bool ok = true;

    if (const auto turn = r.optional_int("turn", 1, rules.turn_limit))
      s.turn = static_cast<std::uint32_t>(*turn);
    if (const auto energy = r.optional_int("energy", 0, 999)) s.energy = static_cast<std::int32_t>(*energy);
    if (const json* p = r.optional_object("player")) {
      ObjectReader pr(doc, *p, r.pointer_of("player"), diags);
      read_unit(pr, c, s.player, true, ok);
    }
    if (content::read_entries(
            r, "enemies", s.enemies.size(), fmt::format("encounter '{}'", c.encounters[encounter].id),
            "enemies",
            [&](ObjectReader& er, std::size_t i) { read_unit(er, c, s.enemies[i].unit, false, ok); })) {
      if (std::none_of(s.enemies.begin(), s.enemies.end(),
                       [](const EnemyState& e) { return e.unit.alive(); }))
        r.error_at("enemies", "at least one enemy must be alive");
    }
    if (const json* counters = r.optional_object("counters")) {
      ObjectReader cr(doc, *counters, r.pointer_of("counters"), diags);
      if (const auto v = cr.optional_int("player_turns", 1, 1'000'000))
        s.player_turns = static_cast<std::uint32_t>(*v);
      if (const auto v = cr.optional_int("attacks_this_turn", 0, 255))
        s.attacks_this_turn = static_cast<std::uint8_t>(*v);
      if (const auto v = cr.optional_int("extra_turns", 0, 255))
        s.extra_turns = static_cast<std::uint8_t>(*v);
      if (const auto v = cr.optional_int("skipped_turns", 0, 255))
        s.skipped_turns = static_cast<std::uint8_t>(*v);
      cr.finish();
    }
    bool any_pile = false;
    std::array<std::vector<CardId>, 4> piles;
    for (std::size_t k = 0; k < kPiles.size(); ++k) {
      any_pile |= r.has(kPiles[k]);
      piles[k] = read_cards(r, kPiles[k], c, ok);
    }
    if (any_pile) {
      const std::size_t hand_limit = std::min<std::size_t>(kMaxHand, rules.hand_limit);
      std::size_t total = 0;
      for (const auto& p : piles) total += p.size();
      if (piles[1].size() > hand_limit)
        r.error_at("hand",
                   fmt::format("{} cards in hand; the hand holds at most {}", piles[1].size(), hand_limit));
      else if (total > kMaxCards)
        r.error(fmt::format("{} cards in the piles; a battle holds at most {}", total, kMaxCards));
      else {
        s.cards.clear();
        s.piles.clear();
        s.played_this_turn.clear();
        for (std::size_t k = 0; k < piles.size(); ++k)
          for (CardId id : piles[k]) {
            const auto ref = static_cast<CardRef>(s.cards.size());
            s.cards.push_back(CardInstance{.def = id, .listing = c.card_play[id].listing});
            s.piles.push(kPileOf[k], ref);
          }
      }
    }
    r.finish();
    if (!diags.empty() || !ok) return false;
    s.enemies_alive = count_alive_enemies(s);
    s.card_keywords = card_keywords_of(s, c);
    detail::BattleIo::state(battle) = s;
    return true;
  };
  return content::start_scenario_frame(c, doc, Machine::kRules, kScenarioFormatVersion, kOverrideKeys, seed,
                                       Battle(catalog, options), start, overrides);
}

}  // namespace battlecore::deckbuilder
