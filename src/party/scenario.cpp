// Party scenarios: start the encounter, apply the overrides, each checked against the content
// and the battle, then run the member selection again (docs/party.md#scenarios).

#include "battlecore/party/scenario.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "battlecore/content/scenario_io.hpp"
#include "party/mechanics.hpp"
#include "party/snapshot_io.hpp"

namespace battlecore::party {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

namespace {

/// The keys the overrides read, in the order they read them.
constexpr std::array<std::string_view, 8> kOverrideKeys = {"turn",      "max_tp",  "tp",    "members",
                                                           "formation", "enemies", "items", "counters"};

/// Replaces `conds` with the list under "conditions" ([{"condition": id, "turns": 1..99}]).
void read_conditions(ObjectReader& r, const Catalog& c, Conditions& conds) {
  const json* list = r.optional_array("conditions");
  if (list == nullptr) return;
  conds.clear();
  for (std::size_t i = 0; i < list->size(); ++i) {
    ObjectReader cr(r.document(), (*list)[i], content::child_pointer(r.pointer_of("conditions"), i),
                    r.diagnostics());
    const auto id = cr.required_string("condition");
    const auto turns = cr.required_int("turns", 1, 99);
    cr.finish();
    if (!id || !turns) continue;
    const auto cond = c.find_condition(*id);
    if (!cond) {
      cr.error_at("condition", fmt::format("no condition '{}' in pack '{}'", *id, c.pack.id));
      continue;
    }
    if (std::any_of(conds.begin(), conds.end(),
                    [&](const ConditionSlot& s) { return s.condition == *cond; })) {
      cr.error_at("condition", fmt::format("condition '{}' is listed twice", *id));
      continue;
    }
    if (conds.full()) {
      cr.error(fmt::format("an actor holds at most {} conditions", kMaxConditions));
      continue;
    }
    conds.push_back(ConditionSlot{*cond, static_cast<std::int16_t>(*turns)});
  }
}

/// `max_hp` (1 to kMaxActorHp), then `hp` in [lo, max HP].
void read_hp(ObjectReader& r, std::int32_t& hp, std::int32_t& max_hp, std::int64_t lo) {
  if (const auto v = r.optional_int("max_hp", 1, kMaxActorHp)) max_hp = static_cast<std::int32_t>(*v);
  if (const json* v = r.optional_value("hp")) {
    if (!v->is_number_integer() || v->get<std::int64_t>() < lo || v->get<std::int64_t>() > max_hp)
      r.error_at("hp", fmt::format("expected HP in [{}, {}] (the max HP), got {}", lo, max_hp, v->dump()));
    else
      hp = static_cast<std::int32_t>(v->get<std::int64_t>());
  } else if (hp > max_hp) {
    r.error_at("max_hp", fmt::format("max HP {} is below the HP {}; give \"hp\" too", max_hp, hp));
  }
}

void read_member(ObjectReader& r, const Catalog& c, MemberState& m) {
  read_hp(r, m.hp, m.max_hp, 0);
  const auto cantmove = r.optional_int("cantmove", kMinCounter, 1);
  const auto tired = r.optional_int("tired", 0, 99);
  const auto charge = r.optional_int("charge", 0, kMaxCharge);
  if (cantmove) m.cantmove = static_cast<std::int8_t>(*cantmove);
  if (tired) m.tired = static_cast<std::int8_t>(*tired);
  if (charge) m.charge = static_cast<std::int8_t>(*charge);
  read_conditions(r, c, m.conditions);
  if (!m.alive()) {  // down, as CheckDead leaves a member: no conditions, counter, exhaustion or charge
    if (!m.conditions.empty()) r.error_at("conditions", "a member that is down holds no conditions");
    if (cantmove && *cantmove != 0) r.error_at("cantmove", "a member that is down has counter 0");
    if (tired && *tired != 0) r.error_at("tired", "a member that is down has exhaustion 0");
    if (charge && *charge != 0) r.error_at("charge", "a member that is down has charge 0");
    m.cantmove = m.tired = m.charge = 0;
  }
  r.finish();
}

void read_enemy(ObjectReader& r, const Catalog& c, EnemyState& e) {
  read_hp(r, e.hp, e.max_hp, 1);
  if (const auto v = r.optional_int("cantmove", min_enemy_counter(c.enemies[e.def]), 1))
    e.cantmove = static_cast<std::int8_t>(*v);
  read_conditions(r, c, e.conditions);
  r.finish();
}

/// The party's items, replaced: [{"item": id, "count": 0..99}], at most one slot per item.
void read_items(ObjectReader& r, const Catalog& c, BattleState& s) {
  const json* list = r.optional_array("items");
  if (list == nullptr) return;
  s.items.clear();
  for (std::size_t i = 0; i < list->size(); ++i) {
    ObjectReader ir(r.document(), (*list)[i], content::child_pointer(r.pointer_of("items"), i),
                    r.diagnostics());
    const auto id = ir.required_string("item");
    const auto count = ir.required_int("count", 0, 99);
    ir.finish();
    if (!id || !count) continue;
    const auto def =
        std::find_if(c.items.begin(), c.items.end(), [&](const ItemDef& d) { return d.id == *id; });
    if (def == c.items.end()) {
      ir.error_at("item", fmt::format("no item '{}' in pack '{}'", *id, c.pack.id));
      continue;
    }
    const auto item = static_cast<ItemId>(def - c.items.begin());
    if (const auto slot = std::find_if(s.items.begin(), s.items.end(),
                                       [&](const ItemSlot& held) { return held.item == item; });
        slot != s.items.end()) {
      ir.error_at("item",
                  fmt::format("item '{}' is listed twice (slot {} holds it)", *id, slot - s.items.begin()));
      continue;
    }
    if (s.items.full()) {
      ir.error(fmt::format("the party holds at most {} item slots", kMaxItemSlots));
      continue;
    }
    s.items.push_back(ItemSlot{item, static_cast<std::uint8_t>(*count)});
  }
}

/// The formation, front first, as member ids: every member of the party exactly once.
void read_formation(ObjectReader& r, const Catalog& c, BattleState& s) {
  const json* list = r.optional_array("formation");
  if (list == nullptr) return;
  FixedVec<std::uint8_t, kMaxMembers> formation;
  bool ok = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string p = content::child_pointer(r.pointer_of("formation"), i);
    const json& v = (*list)[i];
    const auto slot = std::find_if(s.members.begin(), s.members.end(), [&](const MemberState& m) {
      return v.is_string() && c.members[m.def].id == v.get<std::string>();
    });
    if (slot == s.members.end()) {
      r.diagnostics().add(r.document().diagnostic(
          p, fmt::format("expected the id of a member of the party, got {}", v.dump())));
      ok = false;
      continue;
    }
    const auto index = static_cast<std::uint8_t>(slot - s.members.begin());
    if (std::find(formation.begin(), formation.end(), index) != formation.end()) {
      r.diagnostics().add(r.document().diagnostic(p, fmt::format("member {} is listed twice", v.dump())));
      ok = false;
      continue;
    }
    if (formation.full()) break;
    formation.push_back(index);
  }
  if (ok && formation.size() != s.members.size())
    r.error_at("formation", fmt::format("the formation lists {} members; the party has {}", formation.size(),
                                        s.members.size()));
  else if (ok)
    s.formation = formation;
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
    if (battle.phase() != Phase::PlayerPhase) {
      r.error(
          fmt::format("encounter '{}' does not reach the party's first turn (phase {}): a scenario starts "
                      "at the player phase",
                      c.encounters[encounter].id, phase_name(battle.phase())));
      return false;
    }
    return true;
  };
  const auto overrides = [&](ObjectReader& r, Battle& battle) {
    Diagnostics& diags = r.diagnostics();
    BattleState s = battle.state();
    const EncounterDef& enc = c.encounters[s.encounter];

    if (const auto turn = r.optional_int("turn", 0, enc.turn_limit))
      s.turn = static_cast<std::uint32_t>(*turn);
    if (const auto v = r.optional_int("max_tp", 0, kMaxPartyTp)) s.max_tp = static_cast<std::int32_t>(*v);
    if (const json* tp = r.optional_value("tp")) {
      if (!tp->is_number_integer() || tp->get<std::int64_t>() < 0 || tp->get<std::int64_t>() > s.max_tp)
        r.error_at("tp",
                   fmt::format("expected TP in [0, {}] (the party's max TP), got {}", s.max_tp, tp->dump()));
      else
        s.tp = static_cast<std::int32_t>(tp->get<std::int64_t>());
    } else if (s.tp > s.max_tp) {
      r.error_at("max_tp", fmt::format("max TP {} is below the TP {}; give \"tp\" too", s.max_tp, s.tp));
    }
    if (content::read_entries(r, "members", s.members.size(),
                              fmt::format("the party of encounter '{}'", enc.id), "members",
                              [&](ObjectReader& mr, std::size_t i) { read_member(mr, c, s.members[i]); })) {
      if (std::none_of(s.members.begin(), s.members.end(), [](const MemberState& m) { return m.alive(); }))
        r.error_at("members", "at least one member must stand");
    }
    read_formation(r, c, s);
    content::read_entries(r, "enemies", s.enemies.size(), fmt::format("encounter '{}'", enc.id),
                          "active enemies",
                          [&](ObjectReader& er, std::size_t i) { read_enemy(er, c, s.enemies[i]); });
    read_items(r, c, s);
    if (const json* counters = r.optional_object("counters")) {
      ObjectReader cr(doc, *counters, r.pointer_of("counters"), diags);
      if (const auto v = cr.optional_int("main_turns", 1, 1'000'000))
        s.main_turns = static_cast<std::uint32_t>(*v);
      if (const auto v = cr.optional_int("no_action_turns", 0, kInactionFailsafeTurns - 1))
        s.no_action_turns = static_cast<std::uint8_t>(*v);
      cr.finish();
    }
    r.finish();
    if (!diags.empty()) return false;

    // The selection runs again on the new position: nobody selected, a fresh select cycle.
    s.current = -1;
    s.companion_turn = false;
    s.deselects = 0;
    s.swaps = 0;
    detail::BattleIo::state(battle) = s;
    Battle::Access x = Battle::Access::of(battle);
    detail::reset_select_cycle(x);
    battle.advance();
    if (battle.status() != Status::AwaitingDecision) {
      r.error(fmt::format("the battle is over (phase {}) before the party's first decision",
                          phase_name(battle.phase())));
      return false;
    }
    if (std::string why; !check_invariants(battle, &why)) {
      r.error("the position breaks an engine invariant: " + why);
      return false;
    }
    return true;
  };
  return content::start_scenario_frame(c, doc, Machine::kRules, kScenarioFormatVersion, kOverrideKeys, seed,
                                       Battle(catalog, options), start, overrides);
}

}  // namespace battlecore::party
