// Party snapshots: every field of a Battle written to JSON and read back strictly.

#include "battlecore/party/snapshot.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/snapshot_io.hpp"
#include "party/mechanics.hpp"
#include "party/snapshot_io.hpp"

namespace battlecore::party {

using nlohmann::json;

namespace {

using Bad = content::SnapshotError;
using In = content::SnapshotIn;
using content::find_snapshot_id;

constexpr std::array<std::string_view, 2> kPositions = {"ground", "flying"};

json conditions_json(const Conditions& conds, const Catalog& c) {
  json out = json::array();
  for (const ConditionSlot& cs : conds)
    out.push_back({{"condition", c.conditions[cs.condition].id}, {"turns", cs.turns}});
  return out;
}

// The rules keep each condition once on an actor, with at least one turn left (it expires at 0).
Conditions read_conditions(const In& in, const Catalog& c) {
  Conditions out;
  const json& list = in.arr("conditions", kMaxConditions, "conditions");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const In cs = in.entry("conditions", i);
    const auto cond =
        find_snapshot_id<ConditionId>(c.conditions, cs.at("condition"), cs.ptr("condition"), "condition");
    if (std::any_of(out.begin(), out.end(),
                    [&](const ConditionSlot& slot) { return slot.condition == cond; }))
      throw Bad{cs.ptr("condition"), fmt::format("condition '{}' is listed twice", c.conditions[cond].id)};
    out.push_back(ConditionSlot{cond, static_cast<std::int16_t>(cs.num("turns", 1, INT16_MAX))});
  }
  return out;
}

template <class Vec>
json list_json(const Vec& v) {
  json a = json::array();
  for (auto x : v) a.push_back(x);
  return a;
}

template <class Vec>
void read_list(const In& in, std::string_view key, Vec& out, std::int64_t lo, std::int64_t hi) {
  const json& a = in.arr(key, Vec::capacity(), "entries");
  for (std::size_t i = 0; i < a.size(); ++i)
    out.push_back(static_cast<typename Vec::value_type>(
        In::number(a[i], content::child_pointer(in.ptr(key), i), lo, hi)));
}

std::int8_t i8(const In& in, std::string_view key, std::int64_t lo = -128, std::int64_t hi = 127) {
  return static_cast<std::int8_t>(in.num(key, lo, hi));
}
std::uint8_t u8(const In& in, std::string_view key, std::int64_t hi = 255) {
  return static_cast<std::uint8_t>(in.num(key, 0, hi));
}

/// What members and enemies share, within the bounds the rules keep: max HP in [1, kMaxActorHp],
/// HP in [0, max HP], an action counter in [`lowest_counter`, 1] (1 waits; a member banks at most
/// 8 extra actions, an enemy none past its moves), exhaustion in [0, 99] (it starts each turn at 0
/// and grows by one an action; a scenario's bound), charge in [0, kMaxCharge].
template <class Actor>
void read_actor(const In& in, const Catalog& c, Actor& a, std::int8_t lowest_counter) {
  a.max_hp = static_cast<std::int32_t>(in.num("max_hp", 1, kMaxActorHp));
  a.hp = static_cast<std::int32_t>(in.num("hp", 0, a.max_hp));
  a.cantmove = i8(in, "cantmove", lowest_counter, 1);
  a.tired = i8(in, "tired", 0, 99);
  a.charge = i8(in, "charge", 0, kMaxCharge);
  a.conditions = read_conditions(in, c);
}

json state_json(const BattleState& s, const Catalog& c) {
  json members = json::array();
  for (const MemberState& m : s.members)
    members.push_back({{"member", c.members[m.def].id},
                       {"hp", m.hp},
                       {"max_hp", m.max_hp},
                       {"cantmove", m.cantmove},
                       {"tired", m.tired},
                       {"charge", m.charge},
                       {"more_next_turn", m.more_next_turn},
                       {"has_passed", m.has_passed},
                       {"conditions", conditions_json(m.conditions, c)}});
  json enemies = json::array();
  for (const EnemyState& e : s.enemies)
    enemies.push_back({{"enemy", c.enemies[e.def].id},
                       {"uid", e.uid},
                       {"hp", e.hp},
                       {"max_hp", e.max_hp},
                       {"cantmove", e.cantmove},
                       {"tired", e.tired},
                       {"charge", e.charge},
                       {"position", kPositions[static_cast<std::size_t>(e.position)]},
                       {"sequence_pos", e.sequence_pos},
                       {"conditions", conditions_json(e.conditions, c)}});
  json reserves = json::array();
  for (EnemyId r : s.reserves) reserves.push_back(c.enemies[r].id);
  json items = json::array();
  for (const ItemSlot& i : s.items) items.push_back({{"item", c.items[i.item].id}, {"count", i.count}});
  json projectiles = json::array();
  for (const Projectile& p : s.projectiles)
    projectiles.push_back({{"turns", p.turns}, {"slot", p.slot}, {"damage", p.damage}});
  const EnemyActionCursor& cur = s.enemy_action;
  return {
      {"seed", s.seed},
      {"rng", content::rng_to_json(s.rng)},
      {"encounter", s.encounter < c.encounters.size() ? json(c.encounters[s.encounter].id) : json(nullptr)},
      {"turn", s.turn},
      {"main_turns", s.main_turns},
      {"tp", s.tp},
      {"max_tp", s.max_tp},
      {"members", members},
      {"formation", list_json(s.formation)},
      {"enemies", enemies},
      {"reserves", reserves},
      {"next_uid", s.next_uid},
      {"items", items},
      {"last_turns", list_json(s.last_turns)},
      {"current", s.current},
      {"companion_turn", s.companion_turn},
      {"companion_acted", s.companion_acted},
      {"companion_locked", s.companion_locked},
      {"ally_acted", s.ally_acted},
      {"first_strike", s.first_strike},
      {"first_strike_acted", s.first_strike_acted},
      {"acted_this_turn", s.acted_this_turn},
      {"fled", s.fled},
      {"no_action_turns", s.no_action_turns},
      {"deselects", s.deselects},
      {"swaps", s.swaps},
      {"projectiles", projectiles},
      {"enemy_action",
       {{"active", cur.active},
        {"enemy_uid", cur.enemy_uid},
        {"move", cur.move},
        {"targets", list_json(cur.targets)},
        {"targets_enemies", cur.targets_enemies},
        {"target_pos", cur.target_pos},
        {"effect_pos", cur.effect_pos},
        {"hit", cur.hit},
        {"awaiting_block", cur.awaiting_block},
        {"block_roll", cur.block_roll},
        {"keeps_charge", cur.keeps_charge}}}};
}

void read_state(const In& in, const Catalog& c, BattleState& s) {
  s.seed = in.u64("seed");
  content::read_rng(in.obj("rng"), s.rng);
  s.encounter =
      in.at("encounter").is_null()
          ? EncounterId{0}
          : find_snapshot_id<EncounterId>(c.encounters, in.at("encounter"), in.ptr("encounter"), "encounter");
  s.turn = static_cast<std::uint32_t>(in.num("turn", 0, UINT32_MAX));
  s.main_turns = static_cast<std::uint32_t>(in.num("main_turns", 0, UINT32_MAX));
  s.max_tp = static_cast<std::int32_t>(in.num("max_tp", 0, kMaxPartyTp));
  s.tp = static_cast<std::int32_t>(in.num("tp", 0, s.max_tp));
  const json& members = in.arr("members", kMaxMembers, "members");
  for (std::size_t i = 0; i < members.size(); ++i) {
    const In m = in.entry("members", i);
    MemberState ms;
    ms.def = find_snapshot_id<MemberId>(c.members, m.at("member"), m.ptr("member"), "member");
    read_actor(m, c, ms, kMinCounter);
    // Carried into the next turn's counter, which must stay at -8 or above.
    ms.more_next_turn = i8(m, "more_next_turn", 0, std::max(0, ms.cantmove + 7));
    ms.has_passed = m.flag("has_passed");
    s.members.push_back(ms);
  }
  const auto last_member = static_cast<std::int64_t>(s.members.size()) - 1;
  read_list(in, "formation", s.formation, 0, last_member);  // every member once: check_invariants
  const json& enemies = in.arr("enemies", kMaxActiveEnemies, "active enemies");
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const In e = in.entry("enemies", i);
    EnemyState es;
    es.def = find_snapshot_id<EnemyId>(c.enemies, e.at("enemy"), e.ptr("enemy"), "enemy");
    es.uid = u8(e, "uid");
    if (const auto slot = detail::enemy_slot(s, es.uid))  // each enemy gets the next number as it joins
      throw Bad{e.ptr("uid"), fmt::format("enemy number {} is already in slot {}", es.uid, *slot)};
    read_actor(e, c, es, min_enemy_counter(c.enemies[es.def]));
    es.position = static_cast<Position>(e.name("position", kPositions));
    // The next move of a sequence: one of the enemy's (a larger one moved the same, modulo the
    // count, but hashed otherwise).
    es.sequence_pos =
        u8(e, "sequence_pos", static_cast<std::int64_t>(c.enemies[es.def].move_list.size()) - 1);
    s.enemies.push_back(es);
  }
  const json& reserves = in.arr("reserves", kMaxEncounterEnemies, "reserves");
  for (std::size_t i = 0; i < reserves.size(); ++i)
    s.reserves.push_back(find_snapshot_id<EnemyId>(c.enemies, reserves[i],
                                                   content::child_pointer(in.ptr("reserves"), i), "enemy"));
  // Enemies are numbered as they join, the encounter's and its reserves': numbers stay below
  // kMaxEncounterEnemies, and so do the ones the reserves still waiting will take.
  s.next_uid = u8(in, "next_uid", static_cast<std::int64_t>(kMaxEncounterEnemies - s.reserves.size()));
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    if (s.enemies[i].uid >= s.next_uid)
      throw Bad{content::child_pointer(in.ptr("enemies"), i) + "/uid",
                fmt::format("expected a number below next_uid ({}), got {}", s.next_uid, s.enemies[i].uid)};
  const json& items = in.arr("items", kMaxItemSlots, "item slots");
  for (std::size_t i = 0; i < items.size(); ++i) {
    const In it = in.entry("items", i);
    s.items.push_back(
        ItemSlot{find_snapshot_id<ItemId>(c.items, it.at("item"), it.ptr("item"), "item"), u8(it, "count")});
  }
  read_list(in, "last_turns", s.last_turns, -1, last_member);
  s.current = static_cast<std::int8_t>(in.num("current", -1, last_member));
  s.companion_turn = in.flag("companion_turn");
  s.companion_acted = in.flag("companion_acted");
  s.companion_locked = in.flag("companion_locked");
  s.ally_acted = in.flag("ally_acted");
  s.first_strike = in.flag("first_strike");
  s.first_strike_acted = in.flag("first_strike_acted");
  s.acted_this_turn = in.flag("acted_this_turn");
  s.fled = in.flag("fled");
  s.no_action_turns = u8(in, "no_action_turns", kInactionFailsafeTurns - 1);  // the failsafe fires at 5
  s.deselects = u8(in, "deselects", kMaxMembers);
  s.swaps =
      in.has("swaps") ? u8(in, "swaps", kMaxMembers - 1) : std::uint8_t{0};  // absent before it was written
  const json& projectiles = in.arr("projectiles", kMaxProjectiles, "projectiles");
  for (std::size_t i = 0; i < projectiles.size(); ++i) {
    const In p = in.entry("projectiles", i);
    s.projectiles.push_back(Projectile{u8(p, "turns"), static_cast<std::uint8_t>(p.num("slot", 0, 3)),
                                       static_cast<std::int16_t>(p.num("damage", INT16_MIN, INT16_MAX))});
  }
  const In a = in.obj("enemy_action");
  EnemyActionCursor& cur = s.enemy_action;
  cur.active = a.flag("active");
  cur.enemy_uid = u8(a, "enemy_uid");
  cur.move = u8(a, "move");
  read_list(a, "targets", cur.targets, -128, 127);
  cur.targets_enemies = a.flag("targets_enemies");
  cur.target_pos = u8(a, "target_pos");
  cur.effect_pos = u8(a, "effect_pos");
  cur.hit = u8(a, "hit");
  cur.awaiting_block = a.flag("awaiting_block");
  cur.block_roll = static_cast<std::uint8_t>(a.num("block_roll", 0, 99));
  cur.keeps_charge = a.has("keeps_charge") && a.flag("keeps_charge");  // absent before it was written
  // A Block decision is posed by an enemy action in progress, whose cursor is checked below.
  if (cur.awaiting_block && !cur.active)
    throw Bad{a.ptr("awaiting_block"), "a Block decision needs an enemy action in progress (active)"};
  if (cur.active) {  // the cursor must point at an active enemy's move and a listed target
    const auto slot = std::find_if(s.enemies.begin(), s.enemies.end(),
                                   [&](const EnemyState& e) { return e.uid == cur.enemy_uid; });
    if (slot == s.enemies.end())
      throw Bad{a.ptr("enemy_uid"), fmt::format("no active enemy with number {}", cur.enemy_uid)};
    const EnemyDef& def = c.enemies[slot->def];
    if (cur.move >= def.move_list.size())
      throw Bad{a.ptr("move"), fmt::format("enemy '{}' has {} moves", def.id, def.move_list.size())};
    if (cur.effect_pos > def.move_list[cur.move].effects.size())
      throw Bad{a.ptr("effect_pos"), "past the move's effects"};
    if (cur.target_pos > cur.targets.size()) throw Bad{a.ptr("target_pos"), "past the targets"};
    // Every target still to come: a member's index, or an enemy's number (one that has left the
    // battle since is passed over).
    for (std::size_t i = 0; i < cur.targets.size(); ++i)
      if (const std::int64_t hi = cur.targets_enemies ? std::int64_t{s.next_uid} - 1 : last_member;
          cur.targets[i] < 0 || cur.targets[i] > hi)
        throw Bad{
            content::child_pointer(a.ptr("targets"), i),
            fmt::format("expected {} in [0, {}], got {}",
                        cur.targets_enemies ? "an enemy number" : "a member index", hi, cur.targets[i])};
    if (cur.awaiting_block && (cur.targets_enemies || cur.target_pos >= cur.targets.size() ||
                               cur.targets[cur.target_pos] < 0 || cur.targets[cur.target_pos] > last_member ||
                               cur.effect_pos >= def.move_list[cur.move].effects.size()))
      throw Bad{a.ptr("awaiting_block"), "a Block decision needs a member target and an effect to block"};
  }
}

}  // namespace

namespace detail {

json BattleIo::snapshot(const Battle& b) {
  const Catalog& c = *b.catalog_;
  json actions = json::array();
  for (const Action& a : b.actions_) actions.push_back(action_to_json(a));
  json events = json::array();
  for (const Event& e : b.events_.log())
    events.push_back({event_type_name(e.type), e.source, e.target, e.subject, e.value, e.amount, e.extra});
  return {
      {"format", content::kSnapshotFormat},
      {"format_version", kSnapshotFormatVersion},
      {"rules", Machine::kRules},
      {"content_hash", content::hash_to_hex(c.content_hash)},
      {"options", {{"event_log", b.options_.event_log}, {"record_history", b.options_.record_history}}},
      {"started", b.started_},
      {"phase", phase_name(b.driver_.current())},
      {"moves", b.driver_.moves()},
      {"pending_trigger", b.has_pending_trigger_ ? json(trigger_name(b.pending_trigger_)) : json(nullptr)},
      {"state", state_json(b.state_, c)},
      {"history", content::history_to_json<Machine>(b.driver_.history())},
      {"actions", actions},
      {"events", events}};
}

Result<Battle> BattleIo::restore(const std::shared_ptr<const Catalog>& catalog, const json& j) {
  return content::restore_snapshot<Machine, Battle, BattleOptions>(
      catalog, j, kSnapshotFormatVersion,
      [&](const In& root, BattleOptions options) -> Result<Battle> {
        Battle b(catalog, options);
        b.started_ = root.flag("started");
        read_state(root.obj("state"), *catalog, b.state_);
        content::restore_driver<Machine>(root, b.driver_, b.has_pending_trigger_, b.pending_trigger_);
        b.actions_ = content::read_actions<Action>(root, [](const json& a) { return action_from_json(a); });
        auto log = content::read_events<Event>(root, 7, content::kEventRowLayout,
                                               static_cast<std::size_t>(EventType::BattleEnded) + 1,
                                               event_type_name, content::read_event_row<Event>);
        b.events_.restore_log(std::move(log));
        // The state as a whole (the formation, the fallen, the selected member): what the rules
        // keep between two actions, at the value at fault.
        if (std::string why, where; !check_invariants(b, &why, &where)) throw Bad{where, why};
        return b;
      },
      [](const Battle& b) { return snapshot(b); });
}

}  // namespace detail

json snapshot(const Battle& battle) { return detail::BattleIo::snapshot(battle); }

Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const json& snapshot) {
  return detail::BattleIo::restore(catalog, snapshot);
}

}  // namespace battlecore::party
