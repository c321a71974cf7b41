// Scenarios: start the encounter, then apply the overrides, each checked against the content
// and the battle (docs/determinism.md#scenarios).

#include "battlecore/deckbuilder/scenario.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
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

/// A unit's overrides as read (the JSON keys of `player` and of an entry of `enemies`).
struct UnitOverride {
  std::optional<std::int32_t> max_hp;
  bool hp_given = false;
  std::optional<std::int32_t> hp;  ///< given, and an integer from 0 to 9999
  std::string hp_text;             ///< what was given for hp, as JSON (for the message)
  std::optional<std::int32_t> armor;
  std::optional<FixedVec<StatusStack, kMaxStatusSlots>> statuses;
};

/// What the overrides do to a unit's HP that depends on the battle's start (an enemy's max HP
/// may be rolled): the key and the problem, or an empty problem. `u` is the unit as started.
std::pair<std::string_view, std::string> hp_problem(const UnitOverride& o, const UnitState& u,
                                                    bool is_player) {
  const std::int32_t max_hp = o.max_hp.value_or(u.max_hp);
  const std::int32_t lo = is_player ? 1 : 0;
  if (o.hp_given) {
    if (!o.hp || *o.hp < lo || *o.hp > max_hp)
      return {"hp",
              fmt::format("expected HP in [{}, {}] (the unit's max HP), got {}", lo, max_hp, o.hp_text)};
  } else if (u.hp > max_hp) {
    return {"max_hp", fmt::format("max HP {} is below the unit's HP {}; give \"hp\" too", max_hp, u.hp)};
  }
  return {};
}

/// Applies a unit's overrides; false, the unit unchanged, when hp_problem finds a problem.
bool apply_unit(const UnitOverride& o, UnitState& u, bool is_player, const Catalog& c) {
  if (!hp_problem(o, u, is_player).second.empty()) return false;
  if (o.max_hp) u.max_hp = *o.max_hp;
  if (o.hp) u.hp = *o.hp;
  if (o.armor) u.armor = *o.armor;
  if (o.statuses) {
    u.statuses = *o.statuses;
    refresh_status_traits(u, c);
  }
  return true;
}

/// Reads a unit's overrides (hp, max_hp, armor, statuses); `u` is the unit as started, against
/// which the HP is checked. Every problem is reported in `r`.
UnitOverride read_unit(ObjectReader& r, const Catalog& c, const UnitState& u, bool is_player) {
  UnitOverride o;
  if (const auto max_hp = r.optional_int("max_hp", 1, 9999)) o.max_hp = static_cast<std::int32_t>(*max_hp);
  if (const json* hp = r.optional_value("hp")) {
    o.hp_given = true;
    o.hp_text = hp->dump();
    if (hp->is_number_integer() && hp->get<std::int64_t>() >= 0 && hp->get<std::int64_t>() <= 9999)
      o.hp = static_cast<std::int32_t>(hp->get<std::int64_t>());
  }
  if (auto [key, problem] = hp_problem(o, u, is_player); !problem.empty()) r.error_at(key, problem);
  if (const auto armor = r.optional_int("armor", 0, 999)) o.armor = static_cast<std::int32_t>(*armor);
  if (const json* sts = r.optional_array("statuses")) {
    auto& statuses = o.statuses.emplace();
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
      if (std::any_of(statuses.begin(), statuses.end(),
                      [&](const StatusStack& st) { return st.status == *status; })) {
        s.error_at("status", fmt::format("status '{}' is listed twice", *id));
        continue;
      }
      if (statuses.full()) {
        s.error(fmt::format("a unit holds at most {} statuses", kMaxStatusSlots));
        continue;
      }
      statuses.push_back(StatusStack{*status, static_cast<std::int16_t>(*stacks)});
    }
  }
  r.finish();
  return o;
}

}  // namespace

/// Everything a scenario replaces, read and checked once.
struct ScenarioStart::Overrides {
  std::optional<std::uint32_t> turn;
  std::optional<std::int32_t> energy;
  std::optional<UnitOverride> player;
  std::vector<std::optional<UnitOverride>> enemies;  ///< by position
  std::optional<std::uint32_t> player_turns;
  std::optional<std::uint8_t> attacks_this_turn, extra_turns, skipped_turns;
  bool piles_given = false;
  std::array<std::vector<CardId>, 4> piles;  ///< in kPiles order

  /// Reads the overrides of the scenario `r` reads, checking them against the battle `s` started
  /// for it; every problem is reported in `r`.
  void read(ObjectReader& r, const Catalog& c, const BattleState& s) {
    const JsonDocument& doc = r.document();
    Diagnostics& diags = r.diagnostics();
    const EncounterId encounter = s.encounter;
    const BattleRules& rules = c.encounters[encounter].rules;
    if (const auto t = r.optional_int("turn", 1, rules.turn_limit)) turn = static_cast<std::uint32_t>(*t);
    if (const auto e = r.optional_int("energy", 0, 999)) energy = static_cast<std::int32_t>(*e);
    if (const json* p = r.optional_object("player")) {
      ObjectReader pr(doc, *p, r.pointer_of("player"), diags);
      player = read_unit(pr, c, s.player, true);
    }
    if (content::read_entries(r, "enemies", s.enemies.size(),
                              fmt::format("encounter '{}'", c.encounters[encounter].id), "enemies",
                              [&](ObjectReader& er, std::size_t i) {
                                enemies.resize(i + 1);
                                enemies[i] = read_unit(er, c, s.enemies[i].unit, false);
                              })) {
      bool any_alive = false;
      for (std::size_t i = 0; i < s.enemies.size(); ++i) {
        const UnitOverride* o = i < enemies.size() && enemies[i] ? &*enemies[i] : nullptr;
        any_alive |= o != nullptr && o->hp ? *o->hp > 0 : s.enemies[i].unit.alive();
      }
      if (!any_alive) r.error_at("enemies", "at least one enemy must be alive");
    }
    if (const json* counters = r.optional_object("counters")) {
      ObjectReader cr(doc, *counters, r.pointer_of("counters"), diags);
      if (const auto v = cr.optional_int("player_turns", 1, 1'000'000))
        player_turns = static_cast<std::uint32_t>(*v);
      if (const auto v = cr.optional_int("attacks_this_turn", 0, 255))
        attacks_this_turn = static_cast<std::uint8_t>(*v);
      if (const auto v = cr.optional_int("extra_turns", 0, kMaxExtraTurns))
        extra_turns = static_cast<std::uint8_t>(*v);
      if (const auto v = cr.optional_int("skipped_turns", 0, kMaxSkippedTurns))
        skipped_turns = static_cast<std::uint8_t>(*v);
      cr.finish();
    }
    bool ok = true;
    for (std::size_t k = 0; k < kPiles.size(); ++k) {
      piles_given |= r.has(kPiles[k]);
      piles[k] = read_cards(r, kPiles[k], c, ok);
    }
    if (piles_given) {
      const std::size_t hand_limit = std::min<std::size_t>(kMaxHand, rules.hand_limit);
      std::size_t total = 0;
      for (const auto& p : piles) total += p.size();
      if (piles[1].size() > hand_limit)
        r.error_at("hand",
                   fmt::format("{} cards in hand; the hand holds at most {}", piles[1].size(), hand_limit));
      else if (total > kMaxCards)
        r.error(fmt::format("{} cards in the piles; a battle holds at most {}", total, kMaxCards));
    }
    r.finish();
  }

  /// Applies the overrides to `s`, a battle started for the scenario; false when what depends on
  /// the start does not fit (hp_problem, or no enemy left alive), `s` then partly changed.
  bool apply(BattleState& s, const Catalog& c) const {
    if (turn) s.turn = *turn;
    if (energy) s.energy = *energy;
    if (player && !apply_unit(*player, s.player, true, c)) return false;
    for (std::size_t i = 0; i < enemies.size(); ++i)
      if (enemies[i] && !apply_unit(*enemies[i], s.enemies[i].unit, false, c)) return false;
    if (player_turns) s.player_turns = *player_turns;
    if (attacks_this_turn) s.attacks_this_turn = *attacks_this_turn;
    if (extra_turns) s.extra_turns = *extra_turns;
    if (skipped_turns) s.skipped_turns = *skipped_turns;
    if (piles_given) {
      s.cards.clear();
      s.piles.clear();
      s.played_this_turn.clear();
      // The listed draw pile is a position in the middle of a battle: its order, Innate cards
      // on top or not, is as hidden from the player as a shuffled one.
      s.forget_draw_pile_top();
      for (std::size_t k = 0; k < piles.size(); ++k)
        for (CardId id : piles[k]) {
          const auto ref = static_cast<CardRef>(s.cards.size());
          s.cards.push_back(CardInstance{.def = id, .listing = c.card_play[id].listing});
          s.piles.push(kPileOf[k], ref);
        }
    }
    s.enemies_alive = count_alive_enemies(s);
    s.down = down_of(s);
    s.card_keywords = card_keywords_of(s, c);
    s.listing_costs = listing_costs_of(s);
    return s.enemies_alive > 0;
  }
};

namespace {

/// Whether `battle`, just started, is where a scenario begins: the player's first decision.
bool at_first_decision(const Battle& battle) {
  return battle.phase() == Phase::PlayerPhase && !battle.is_waiting_for_choice();
}

}  // namespace

ScenarioStart::ScenarioStart(std::shared_ptr<const Catalog> catalog, EncounterId encounter,
                             std::uint64_t seed, std::shared_ptr<const Overrides> overrides)
    : catalog_(std::move(catalog)), encounter_(encounter), seed_(seed), overrides_(std::move(overrides)) {}

ScenarioStart::~ScenarioStart() = default;
ScenarioStart::ScenarioStart(const ScenarioStart&) = default;
ScenarioStart& ScenarioStart::operator=(const ScenarioStart&) = default;

Result<ScenarioStart, Diagnostics> ScenarioStart::read(std::shared_ptr<const Catalog> catalog,
                                                       const JsonDocument& doc,
                                                       std::optional<std::uint64_t> seed) {
  Battle battle(catalog, BattleOptions{.event_log = false, .record_history = false});
  return read_into(std::move(catalog), doc, seed, battle);
}

Result<ScenarioStart, Diagnostics> ScenarioStart::read_into(std::shared_ptr<const Catalog> catalog,
                                                            const JsonDocument& doc,
                                                            std::optional<std::uint64_t> seed,
                                                            Battle& battle) {
  const Catalog& c = *catalog;
  auto overrides = std::make_shared<Overrides>();
  const auto start = [&](Battle& b, EncounterId encounter, std::uint64_t battle_seed, ObjectReader& r) {
    if (auto begun = b.start_battle(encounter, battle_seed); !begun) {
      r.error(begun.error().message);
      return false;
    }
    if (!at_first_decision(b)) {
      r.error(fmt::format("encounter '{}' does not reach the player's first decision (phase {})",
                          c.encounters[encounter].id, phase_name(b.phase())));
      return false;
    }
    return true;
  };
  const auto read_overrides = [&](ObjectReader& r, Battle& b) {
    overrides->read(r, c, b.state());
    if (!r.diagnostics().empty()) return false;
    // Checked above against this very start: the overrides fit it.
    BATTLECORE_ENSURE(
        overrides->apply(detail::BattleIo::state(b), c),
        "a scenario's overrides read without a problem do not fit the battle they were read for");
    return true;
  };
  auto started = content::start_scenario_frame(c, doc, Machine::kRules, kScenarioFormatVersion, kOverrideKeys,
                                               seed, std::move(battle), start, read_overrides);
  if (!started) return started.error();
  battle = std::move(started).value();
  const BattleState& s = battle.state();
  return ScenarioStart(std::move(catalog), s.encounter, s.seed, std::move(overrides));
}

bool ScenarioStart::start(Battle& battle, std::uint64_t seed) const {
  BATTLECORE_ENSURE(
      battle.catalog_ptr() == catalog_ || battle.catalog().content_hash == catalog_->content_hash,
      "a scenario starts battles of the content it was read with");
  if (!battle.start_battle(encounter_, seed).ok()) return false;  // a battle in progress
  if (at_first_decision(battle) && overrides_->apply(detail::BattleIo::state(battle), *catalog_)) return true;
  detail::BattleIo::stop(battle);
  return false;
}

std::string ScenarioStart::fits_only_some_seeds() const {
  const std::vector<EnemyId>& enemies = catalog_->encounters[encounter_].enemies;
  for (std::size_t i = 0; i < overrides_->enemies.size() && i < enemies.size(); ++i) {
    if (!overrides_->enemies[i]) continue;
    const UnitOverride& o = *overrides_->enemies[i];
    const EnemyDef& def = catalog_->enemies[enemies[i]];
    if (o.max_hp) {
      // A given max HP is the same for every seed; without an HP, the HP starts at the one rolled.
      if (!o.hp_given && *o.max_hp < def.hp_max)
        return fmt::format(
            "/enemies/{}/max_hp: enemy '{}' starts at the max HP it rolls, {} to {}, above {} for some "
            "seeds; "
            "give \"hp\" too",
            i, def.id, def.hp_min, def.hp_max, *o.max_hp);
    } else if (o.hp && *o.hp > def.hp_min) {
      return fmt::format(
          "/enemies/{}/hp: enemy '{}' rolls a max HP of {} to {}, so an HP of {} fits some seeds only; give "
          "\"max_hp\" too, or an HP of at most {}",
          i, def.id, def.hp_min, def.hp_max, *o.hp, def.hp_min);
    }
  }
  return {};
}

Result<Battle, Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog, const JsonDocument& doc,
                                           std::optional<std::uint64_t> seed, BattleOptions options) {
  Battle battle(catalog, options);
  if (auto read = ScenarioStart::read_into(std::move(catalog), doc, seed, battle); !read) return read.error();
  return battle;
}

}  // namespace battlecore::deckbuilder
