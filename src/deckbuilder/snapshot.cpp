// Deckbuilder snapshots: every field of a Battle written to JSON and read back strictly.

#include "battlecore/deckbuilder/snapshot.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/content/snapshot_io.hpp"
#include "deckbuilder/snapshot_io.hpp"

namespace battlecore::deckbuilder {

using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 3> kFrameKinds = {"block", "repeat", "for_each_enemy"};
constexpr std::array<std::string_view, 3> kDelayedTimings = {"player_turn_start", "player_turn_end",
                                                             "enemy_phase_end"};

using Bad = content::SnapshotError;
using In = content::SnapshotIn;

// The bounds the rules and the content keep, which restore holds a snapshot to.
constexpr std::int64_t kMaxUnitHp = 9999;      // max HP: the loader's and the scenarios' 1 to 9999
constexpr std::int64_t kMaxEnergy = 999;       // a scenario's bound; the rules keep gains within 0 to 99
constexpr std::int64_t kMaxHookTurns = 99;     // a hook's duration
constexpr std::int64_t kMaxDelayedTurns = 20;  // the delayed op's after_turns
constexpr std::int64_t kMaxRepeatLeft = 19;    // the repeat op runs 1 to 20 times
constexpr std::int64_t kMaxHandPicks = 10;     // discard and exhaust take 1 to 10 cards
constexpr std::int64_t kMinChoiceOptions = 2;  // the choice op offers 2 to 4 options
constexpr std::int64_t kMaxChoiceOptions = 4;

template <class Defs>
std::uint16_t find_id(const Defs& defs, const json& v, const std::string& pointer, std::string_view what) {
  if (!v.is_string())
    throw Bad{pointer, fmt::format("expected a {} id, got {}", what, content::describe_json_type(v))};
  const auto& id = v.get_ref<const std::string&>();
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (defs[i].id == id) return static_cast<std::uint16_t>(i);
  throw Bad{pointer, fmt::format("no {} '{}' in the content", what, id)};
}

json unit_json(const UnitState& u, const Catalog& c) {
  json statuses = json::array();
  for (const StatusStack& st : u.statuses)
    statuses.push_back({{"status", c.statuses[st.status].id}, {"stacks", st.stacks}});
  return {{"hp", u.hp}, {"max_hp", u.max_hp}, {"armor", u.armor}, {"statuses", statuses}};
}

/// A unit: max HP in [`min_max_hp`, 9999] (it never changes in battle; 0 only for a player not
/// built yet), HP in [0, max HP] (damage stops at 0, healing at the max), armor in [0, kMaxArmor].
UnitState read_unit(const In& in, const Catalog& c, std::int64_t min_max_hp) {
  UnitState u;
  u.max_hp = static_cast<std::int32_t>(in.num("max_hp", min_max_hp, kMaxUnitHp));
  u.hp = static_cast<std::int32_t>(in.num("hp", 0, u.max_hp));
  u.armor = static_cast<std::int32_t>(in.num("armor", 0, kMaxArmor));
  const json& sts = in.arr("statuses");
  if (sts.size() > kMaxStatusSlots)
    throw Bad{in.ptr("statuses"), fmt::format("more than {} statuses", kMaxStatusSlots)};
  // The rules keep each status once on a unit, with 1 to kMaxStatusStacks stacks.
  for (std::size_t i = 0; i < sts.size(); ++i) {
    const In s(sts[i], content::child_pointer(in.ptr("statuses"), i));
    const StatusId status = find_id(c.statuses, s.at("status"), s.ptr("status"), "status");
    if (u.stacks(status) != 0)
      throw Bad{s.ptr("status"), fmt::format("status '{}' is listed twice", c.statuses[status].id)};
    u.statuses.push_back(
        StatusStack{status, static_cast<std::int16_t>(s.num("stacks", 1, kMaxStatusStacks))});
  }
  refresh_status_traits(u, c);
  return u;
}

template <class Vec>
json refs_json(const Vec& v) {
  json a = json::array();
  for (auto x : v) a.push_back(x);
  return a;
}

template <class Vec>
void read_refs(const In& in, std::string_view key, Vec& out, std::int64_t lo, std::int64_t hi) {
  const json& a = in.arr(key);
  if (a.size() > Vec::capacity())
    throw Bad{in.ptr(key), fmt::format("more than {} entries", Vec::capacity())};
  for (std::size_t i = 0; i < a.size(); ++i)
    out.push_back(static_cast<typename Vec::value_type>(
        In::number(a[i], content::child_pointer(in.ptr(key), i), lo, hi)));
}

/// `key` in [lo, hi]; a refusal says `why` the range is what it is.
std::int64_t num_because(const In& in, std::string_view key, std::int64_t lo, std::int64_t hi,
                         std::string_view why) {
  try {
    return in.num(key, lo, hi);
  } catch (Bad& bad) {
    bad.message = fmt::format("{}: {}", why, bad.message);
    throw;
  }
}

/// A move of enemy `def`, or null for none.
MoveIndex move_or_none(const In& in, std::string_view key, const EnemyDef& def) {
  const json& v = in.at(key);
  if (v.is_null()) return kNoMove;
  return static_cast<MoveIndex>(
      In::number(v, in.ptr(key), 0, static_cast<std::int64_t>(def.moves.size()) - 1));
}

json move_json(MoveIndex m) { return m == kNoMove ? json(nullptr) : json(m); }

/// What the player knows of the draw pile's top (BattleState::draw_known_from and
/// draw_ordered_from), once the cards and the piles are read. Each mark is null for nothing, or a
/// draw pile index below the number of card instances (the start sets the first within the draw
/// pile, below its Innate cards, and a card put on top from the hand sets either at its own
/// place, below the card instances in the hand; until they are cleared the pile only shrinks
/// under them or grows by cards put on top, and no card instance leaves the battle). The cards
/// known in order are among those known to be there: draw_ordered_from is null when
/// draw_known_from is, else at or above it. A snapshot without a key (written before it was
/// kept) knows nothing by it. The cards known to be there in an unknown order, under those known
/// in order, are Innate: no other card is put there without its place being seen.
void read_known_on_top(const In& in, const Catalog& c, BattleState& s) {
  const auto mark = [&](std::string_view key) {
    if (!in.has(key) || in.at(key).is_null()) return kNothingKnownOnTop;
    if (s.cards.empty())
      throw Bad{in.ptr(key), "expected null: the battle has no card instances, so none is known"};
    return static_cast<std::uint8_t>(
        num_because(in, key, 0, static_cast<std::int64_t>(s.cards.size()) - 1,
                    fmt::format("a draw pile index below the battle's {}",
                                content::counted(s.cards.size(), "card instances"))));
  };
  s.draw_known_from = mark("draw_known_from");
  s.draw_ordered_from = mark("draw_ordered_from");
  if (s.draw_ordered_from != kNothingKnownOnTop && s.draw_known_from == kNothingKnownOnTop)
    throw Bad{in.ptr("draw_ordered_from"),
              fmt::format("expected null: draw_known_from is null, so no card is known in order, got {}",
                          s.draw_ordered_from)};
  if (s.draw_ordered_from < s.draw_known_from)
    throw Bad{in.ptr("draw_ordered_from"),
              fmt::format("the cards known in order are among those known to be on top: expected an index at "
                          "or above draw_known_from ({}), got {}",
                          s.draw_known_from, s.draw_ordered_from)};
  const DrawPileView draw = s.draw_pile();
  for (std::size_t i = s.draw_known_from; i < std::min<std::size_t>(s.draw_ordered_from, draw.size()); ++i)
    if (!c.card_play[s.cards[draw[i]].def].has(kInnate))
      throw Bad{
          in.ptr("draw_known_from"),
          fmt::format(
              "card {} at draw pile index {} is not Innate: only the Innate cards the opening hand "
              "left are known to be on top in an unknown order (draw_ordered_from: {})",
              draw[i], i,
              s.draw_ordered_from == kNothingKnownOnTop ? "null" : std::to_string(s.draw_ordered_from))};
}

json mark_json(std::uint8_t mark) { return mark == kNothingKnownOnTop ? json(nullptr) : json(mark); }

/// A choice's card filter: null for any, a type's name for one, the names in type order for
/// several.
json card_filter_json(CardFilter filter) {
  if (filter == kAnyCard) return nullptr;
  json names = json::array();
  for (std::size_t t = 0; t < kCardTypeNames.size(); ++t)
    if (card_filter_takes(filter, static_cast<CardType>(t))) names.push_back(kCardTypeNames[t]);
  return names.size() == 1 ? json(names[0]) : names;
}

/// The card filter at `card_type` (not null): a type's name, or a non-empty array of distinct
/// ones in any order.
CardFilter read_card_filter(const In& ch) {
  const json& v = ch.at("card_type");
  if (!v.is_array()) return card_filter_of(static_cast<CardType>(ch.name("card_type", kCardTypeNames)));
  if (v.empty())
    throw Bad{ch.ptr("card_type"), "expected a type's name or a non-empty array of them, got []"};
  std::uint32_t set = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string p = content::child_pointer(ch.ptr("card_type"), i);
    const std::size_t t = In::name_of(v[i], p, kCardTypeNames);
    if ((set >> t & 1u) != 0) throw Bad{p, fmt::format("'{}' is listed twice", kCardTypeNames[t])};
    set |= 1u << t;
  }
  return card_filter_of_set(set);
}

}  // namespace

namespace detail {

json BattleIo::snapshot(const Battle& b) {
  const Catalog& c = *b.catalog_;
  const BattleState& s = b.state_;
  json enemies = json::array();
  for (const EnemyState& e : s.enemies) {
    json u = unit_json(e.unit, c);
    u["enemy"] = c.enemies[e.def].id;
    u["intent"] = move_json(e.intent);
    u["last_move"] = move_json(e.last_move);
    u["streak"] = e.streak;
    u["sequence_pos"] = e.sequence_pos;
    u["rules_used"] = e.rules_used;
    enemies.push_back(std::move(u));
  }
  json cards = json::array();
  for (const CardInstance& ci : s.cards)
    cards.push_back({{"card", c.cards[ci.def].id},
                     {"battle_cost_set", ci.battle_cost_set},
                     {"battle_cost_change", ci.battle_cost_change},
                     {"turn_cost_set", ci.turn_cost_set},
                     {"turn_cost_change", ci.turn_cost_change},
                     {"cost_turns", ci.cost_turns}});
  json hooks = json::array();
  for (const ActiveHook& h : s.hooks)
    hooks.push_back({{"hook", c.hooks[h.hook].id}, {"owner", h.owner}, {"turns_left", h.turns_left}});
  json delayed = json::array();
  for (const DelayedTrigger& d : s.delayed)
    delayed.push_back({{"block", d.block},
                       {"timing", kDelayedTimings[static_cast<std::size_t>(d.timing)]},
                       {"occurrences_left", d.occurrences_left},
                       {"source", d.source},
                       {"target", d.target}});
  json effects = json::array();
  for (const EffectFrame& f : s.effects)
    effects.push_back({{"begin", f.begin},
                       {"pc", f.pc},
                       {"end", f.end},
                       {"kind", kFrameKinds[static_cast<std::size_t>(f.kind)]},
                       {"source", f.source},
                       {"target", f.target},
                       {"card", f.card == kNoCard ? json(nullptr) : json(f.card)},
                       {"repeat_left", f.repeat_left},
                       {"status", f.status == kNoStatus ? json(nullptr) : json(c.statuses[f.status].id)}});
  const PendingChoice& ch = s.choice;
  json choice = {{"kind", kChoiceKindNames[static_cast<std::size_t>(ch.kind)]},
                 {"skippable", ch.skippable},
                 {"picks_left", ch.picks_left},
                 {"card_type", card_filter_json(ch.filter)},
                 {"first_block", ch.first_block},
                 {"option_count", ch.option_count},
                 {"source", ch.source},
                 {"target", ch.target},
                 {"card", ch.card == kNoCard ? json(nullptr) : json(ch.card)}};
  json rewards = json::array();
  for (CardId r : s.reward_options) rewards.push_back(c.cards[r].id);
  json state = {
      {"seed", s.seed},
      {"rng", content::rng_to_json(s.rng)},
      {"encounter", s.encounter < c.encounters.size() ? json(c.encounters[s.encounter].id) : json(nullptr)},
      {"turn", s.turn},
      {"player_turns", s.player_turns},
      {"player_owned", s.player_owned},
      {"end_turn_requested", s.end_turn_requested},
      {"extra_turns", s.extra_turns},
      {"skipped_turns", s.skipped_turns},
      {"attacks_this_turn", s.attacks_this_turn},
      {"energy", s.energy},
      {"player", unit_json(s.player, c)},
      {"enemies", enemies},
      {"cards", cards},
      {"draw_pile", refs_json(s.draw_pile())},
      {"draw_known_from", mark_json(s.draw_known_from)},
      {"draw_ordered_from", mark_json(s.draw_ordered_from)},
      {"hand", refs_json(s.hand())},
      {"discard_pile", refs_json(s.discard_pile())},
      {"exhaust_pile", refs_json(s.exhaust_pile())},
      {"played_this_turn", refs_json(s.played_this_turn)},
      {"hooks", hooks},
      {"delayed", delayed},
      {"effects", effects},
      {"choice", choice},
      {"playing",
       {{"card", s.playing.card == kNoCard ? json(nullptr) : json(s.playing.card)},
        {"target", s.playing.target},
        {"x", s.playing_x}}},
      {"reward_options", rewards},
      {"reward_pending", s.reward_pending},
      {"reward_taken",
       s.reward_taken < 0 ? json(nullptr) : json(c.cards[static_cast<std::size_t>(s.reward_taken)].id)}};
  json actions = json::array();
  for (const Action& a : b.actions_) actions.push_back(action_to_json(a));
  json events = json::array();
  for (const Event& e : b.events_.log())
    events.push_back({event_type_name(e.type), e.source, e.target, e.subject, e.value, e.amount, e.extra});
  json master = json::array();
  for (CardId id : b.master_deck_) master.push_back(c.cards[id].id);
  json damage_hp = json::array(), damage_armor = json::array();
  for (std::size_t u = 0; u <= s.enemies.size(); ++u) {
    damage_hp.push_back(b.damage_stats_.hp[u]);
    damage_armor.push_back(b.damage_stats_.armor[u]);
  }
  json out = content::snapshot_header(kSnapshotFormatVersion, Machine::kRules, c.content_hash);
  out.update(json{
      {"options", {{"event_log", b.options_.event_log}, {"record_history", b.options_.record_history}}},
      {"phase", phase_name(b.driver_.current())},
      {"moves", b.driver_.moves()},
      {"pending_trigger", b.has_pending_trigger_ ? json(trigger_name(b.pending_trigger_)) : json(nullptr)},
      {"state", state},
      {"master_deck", master},
      {"damage_stats", {{"hp", damage_hp}, {"armor", damage_armor}}},
      {"history", content::history_to_json<Machine>(b.driver_.history())},
      {"actions", actions},
      {"events", events}});
  return out;
}

namespace {

/// A card instance of this battle (an index into `s.cards`), or null for none.
CardRef card_ref_or_none(const In& in, std::string_view key, const BattleState& s) {
  const json& v = in.at(key);
  if (v.is_null()) return kNoCard;
  return static_cast<CardRef>(In::number(v, in.ptr(key), 0, static_cast<std::int64_t>(s.cards.size()) - 1));
}

/// A unit of this battle (0 the player, 1 + i enemy i); -1 too when `none_legal`.
UnitRef unit_ref(const In& in, std::string_view key, const BattleState& s, bool none_legal) {
  return static_cast<UnitRef>(in.num(key, none_legal ? -1 : 0, static_cast<std::int64_t>(s.enemies.size())));
}

/// An enemy's intent, last move, streak, sequence position and used rules, as its definition and
/// the rules allow them.
void read_enemy_ai(const In& e, const Catalog& c, Phase phase, EnemyState& es) {
  const EnemyDef& def = c.enemies[es.def];
  es.intent = move_or_none(e, "intent", def);
  // Every enemy picks an intent in Initialize (step 10) and an alive one a new intent after each
  // enemy phase: only a battle still being built has an alive enemy without one.
  if (es.intent == kNoMove && es.unit.alive() && phase != Phase::None && phase != Phase::Initialize)
    throw Bad{e.ptr("intent"), fmt::format("enemy '{}' is alive in phase {}: expected a move, got null",
                                           def.id, phase_name(phase))};
  es.last_move = move_or_none(e, "last_move", def);
  // The streak counts the turns in a row the enemy made last_move: 0 before its first move.
  const bool moved = es.last_move != kNoMove;
  es.streak = static_cast<std::uint8_t>(moved ? e.num("streak", 1, 255)
                                              : num_because(e, "streak", 0, 0, "no last move yet"));
  const std::size_t positions = def.sequence.empty() ? 1 : def.sequence.size();
  es.sequence_pos =
      static_cast<std::uint8_t>(e.num("sequence_pos", 0, static_cast<std::int64_t>(positions) - 1));
  es.rules_used = static_cast<std::uint8_t>(e.num("rules_used", 0, 255));
  for (std::size_t r = 0; r < 8; ++r)  // bit r: the `once` rule r has fired
    if ((es.rules_used & (1u << r)) != 0 && (r >= def.rules.size() || !def.rules[r].once))
      throw Bad{e.ptr("rules_used"), fmt::format("bit {} names no once rule of enemy '{}'", r, def.id)};
}

/// The op named `name` whose (first) block is `block`, or null: what scheduled a delayed trigger
/// or posed a choice.
const Op* op_of_block(const Catalog& c, std::string_view name, std::uint16_t block) {
  for (const Op& op : c.ops)
    if (op.block == block && c.op_names[op.code] == name) return &op;
  return nullptr;
}

/// A delayed trigger is what a `delayed` op scheduled: that op's block (deferred effects, which
/// never pause on a choice), at its timing, with at most its after_turns occurrences still to
/// pass.
void check_delayed(const In& d, const Catalog& c, const DelayedTrigger& t) {
  const Op* op = op_of_block(c, "delayed", t.block);
  if (op == nullptr) throw Bad{d.ptr("block"), fmt::format("block {} is no delayed op's effects", t.block)};
  if (static_cast<DelayedTiming>(op->mode) != t.timing)
    throw Bad{d.ptr("timing"),
              fmt::format("the delayed op of block {} fires at {}, got {}", t.block,
                          kDelayedTimings[op->mode], kDelayedTimings[static_cast<std::size_t>(t.timing)])};
  if (t.occurrences_left > op->amount)
    throw Bad{d.ptr("occurrences_left"),
              fmt::format("the delayed op of block {} waits {} occurrence(s): expected at most {}, got {}",
                          t.block, op->amount, op->amount, t.occurrences_left)};
}

/// A choice of options is what a `choice` op posed: its blocks, its count of them and whether it
/// may be skipped.
void check_choice(const In& ch, const Catalog& c, const PendingChoice& choice) {
  const Op* op = op_of_block(c, "choice", choice.first_block);
  if (op == nullptr)
    throw Bad{ch.ptr("first_block"),
              fmt::format("block {} is no choice op's first option", choice.first_block)};
  if (op->times != choice.option_count)
    throw Bad{ch.ptr("option_count"), fmt::format("the choice op of block {} has {} options, got {}",
                                                  choice.first_block, op->times, choice.option_count)};
  if ((op->mode == 1) != choice.skippable)
    throw Bad{ch.ptr("skippable"), fmt::format("the choice op of block {} is {}skippable", choice.first_block,
                                               op->mode == 1 ? "" : "not ")};
}

void read_state(const In& in, const Catalog& c, Phase phase, BattleState& s) {
  s.seed = in.u64("seed");
  content::read_rng(in.obj("rng"), s.rng);
  // null: a battle never started in content without encounters
  if (in.at("encounter").is_null() && (phase != Phase::None || !c.encounters.empty()))
    throw Bad{in.ptr("encounter"),
              phase != Phase::None
                  ? fmt::format("a battle in phase {} has an encounter: expected its id", phase_name(phase))
                  : std::string("the content has encounters: expected an encounter id")};
  s.encounter = in.at("encounter").is_null()
                    ? EncounterId{0}
                    : find_id(c.encounters, in.at("encounter"), in.ptr("encounter"), "encounter");
  s.rules = rules_of(c, s.encounter);
  // Initialize sets turn 1 (step 1) and the enemy phase counts it up, ending the battle (a
  // stalemate lost) as it passes turn_limit: from then on the turn is 1 to turn_limit, one more
  // once the battle is over. The first player turn start counts the first player turn, and
  // the player phase, the turn end and the enemy phase come after it. (Before Initialize's first
  // step, and in phase None, the counters may still be the last battle's.)
  const bool turns_counted = phase != Phase::None && phase != Phase::Initialize;
  const bool over = phase == Phase::BattleWon || phase == Phase::BattleLost;
  const std::int64_t last_turn = std::int64_t{s.rules.turn_limit} + (over ? 1 : 0);
  s.turn = static_cast<std::uint32_t>(
      turns_counted
          ? num_because(in, "turn", 1, last_turn,
                        fmt::format("encounter '{}' has a turn_limit of {}{}", c.encounters[s.encounter].id,
                                    s.rules.turn_limit, over ? " and the battle is over" : ""))
          : in.num("turn", 0, UINT32_MAX));
  const bool player_turn_begun =
      phase == Phase::PlayerPhase || phase == Phase::PlayerTurnEnd || phase == Phase::EnemyPhase;
  s.player_turns = static_cast<std::uint32_t>(
      player_turn_begun
          ? num_because(in, "player_turns", 1, UINT32_MAX,
                        fmt::format("phase {} comes after a player turn start", phase_name(phase)))
          : in.num("player_turns", 0, UINT32_MAX));
  s.player_owned = in.flag("player_owned");
  s.end_turn_requested = in.flag("end_turn_requested");
  s.extra_turns = static_cast<std::uint8_t>(in.num("extra_turns", 0, kMaxExtraTurns));
  s.skipped_turns = static_cast<std::uint8_t>(in.num("skipped_turns", 0, kMaxSkippedTurns));
  s.attacks_this_turn = static_cast<std::uint8_t>(in.num("attacks_this_turn", 0, 255));
  s.energy = static_cast<std::int32_t>(in.num("energy", 0, kMaxEnergy));
  // Initialize builds the player (step 2): until then it may have no max HP.
  const bool built = phase != Phase::None && phase != Phase::Initialize;
  s.player = read_unit(in.obj("player"), c, built ? 1 : 0);
  const json& enemies = in.arr("enemies");
  if (enemies.size() > kMaxEnemies)
    throw Bad{in.ptr("enemies"), fmt::format("more than {} enemies", kMaxEnemies)};
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const In e(enemies[i], content::child_pointer(in.ptr("enemies"), i));
    EnemyState es;
    es.unit = read_unit(e, c, 1);
    es.def = find_id(c.enemies, e.at("enemy"), e.ptr("enemy"), "enemy");
    read_enemy_ai(e, c, phase, es);
    s.enemies.push_back(es);
  }
  // From Initialize's third step on the enemies are the encounter's, in its order: no rule adds
  // or removes one. Before it (a snapshot from a listener at the start) they may be the last
  // battle's.
  if (built) {
    const EncounterDef& encounter = c.encounters[s.encounter];
    if (s.enemies.size() != encounter.enemies.size())
      throw Bad{in.ptr("enemies"),
                fmt::format("encounter '{}' has {}, got {}", encounter.id,
                            content::counted(encounter.enemies.size(), "enemies"), s.enemies.size())};
    for (std::size_t i = 0; i < s.enemies.size(); ++i)
      if (s.enemies[i].def != encounter.enemies[i])
        throw Bad{content::child_pointer(in.ptr("enemies"), i) + "/enemy",
                  fmt::format("encounter '{}' has enemy '{}' here, got '{}'", encounter.id,
                              c.enemies[encounter.enemies[i]].id, c.enemies[s.enemies[i].def].id)};
  }
  s.enemies_alive = count_alive_enemies(s);
  s.down = built ? down_of(s) : 0;  // the rules read it once Initialize has built the units
  const json& cards = in.arr("cards");
  if (cards.size() > kMaxCards) throw Bad{in.ptr("cards"), fmt::format("more than {} cards", kMaxCards)};
  for (std::size_t i = 0; i < cards.size(); ++i) {
    const In ci(cards[i], content::child_pointer(in.ptr("cards"), i));
    CardInstance inst;
    inst.def = find_id(c.cards, ci.at("card"), ci.ptr("card"), "card");
    inst.battle_cost_set = static_cast<std::int8_t>(ci.num("battle_cost_set", -128, 127));
    inst.battle_cost_change = static_cast<std::int8_t>(ci.num("battle_cost_change", -128, 127));
    inst.turn_cost_set = static_cast<std::int8_t>(ci.num("turn_cost_set", -128, 127));
    inst.turn_cost_change = static_cast<std::int8_t>(ci.num("turn_cost_change", -128, 127));
    inst.cost_turns = static_cast<std::uint8_t>(ci.num("cost_turns", 0, 255));
    if (c.cards[inst.def].x_cost() && (inst.has_cost_rule() || inst.cost_turns != 0))
      throw Bad{ci.ptr("card"), fmt::format("card '{}' costs X, which no cost rule changes: expected no cost "
                                            "rule (sets -1, changes 0, cost_turns 0)",
                                            c.cards[inst.def].id)};
    refresh_listing(inst, c);
    s.cards.push_back(inst);
  }
  s.turn_cost_cards = count_turn_cost_cards(s);
  s.card_keywords = card_keywords_of(s, c);
  s.listing_costs = listing_costs_of(s);
  const std::int64_t last_card = static_cast<std::int64_t>(s.cards.size()) - 1;
  // The piles share one array of kMaxCards places; the hand holds at most kMaxHand; every card
  // is in exactly one pile, once.
  std::array<const char*, kMaxCards> pile_of{};
  for (const auto& [key, pile] :
       {std::pair{"draw_pile", Pile::Draw}, std::pair{"hand", Pile::Hand},
        std::pair{"discard_pile", Pile::Discard}, std::pair{"exhaust_pile", Pile::Exhaust}}) {
    CardPile refs;
    read_refs(in, key, refs, 0, last_card);
    if (pile == Pile::Hand && refs.size() > kMaxHand)
      throw Bad{in.ptr(key), fmt::format("more than {} entries", kMaxHand)};
    if (s.piles.total() + refs.size() > kMaxCards)
      throw Bad{in.ptr(key), fmt::format("the piles hold more than {} cards together", kMaxCards)};
    for (std::size_t i = 0; i < refs.size(); ++i) {
      if (pile_of[refs[i]] != nullptr)
        throw Bad{content::child_pointer(in.ptr(key), i),
                  fmt::format("card {} is already in {}", refs[i], pile_of[refs[i]])};
      pile_of[refs[i]] = key;
    }
    s.piles.assign(pile, refs);
  }
  for (std::size_t card = 0; card < s.cards.size(); ++card)
    if (pile_of[card] == nullptr)
      throw Bad{content::child_pointer(in.ptr("cards"), card), fmt::format("card {} is in no pile", card)};
  read_known_on_top(in, c, s);
  read_refs(in, "played_this_turn", s.played_this_turn, 0, last_card);
  const json& hooks = in.arr("hooks");
  if (hooks.size() > kMaxHooks) throw Bad{in.ptr("hooks"), fmt::format("more than {} hooks", kMaxHooks)};
  for (std::size_t i = 0; i < hooks.size(); ++i) {
    const In h(hooks[i], content::child_pointer(in.ptr("hooks"), i));
    s.hooks.push_back(ActiveHook{find_id(c.hooks, h.at("hook"), h.ptr("hook"), "hook"),
                                 unit_ref(h, "owner", s, false),
                                 static_cast<std::uint8_t>(h.num("turns_left", 0, kMaxHookTurns))});
    // A hook starts with its duration and leaves as its count reaches 0; one of duration 0 lasts
    // the battle (0 turns left, never counted down).
    const HookDef& def = c.hooks[s.hooks.back().hook];
    if (def.duration == 0 ? s.hooks.back().turns_left != 0
                          : s.hooks.back().turns_left == 0 || s.hooks.back().turns_left > def.duration)
      throw Bad{h.ptr("turns_left"),
                def.duration == 0
                    ? fmt::format("hook '{}' lasts the battle: expected 0, got {}", def.id,
                                  s.hooks.back().turns_left)
                    : fmt::format("hook '{}' lasts {} turn(s): expected 1 to {}, got {}", def.id,
                                  def.duration, def.duration, s.hooks.back().turns_left)};
  }
  const auto max_block = static_cast<std::int64_t>(c.blocks.size()) - 1;
  const json& delayed = in.arr("delayed");
  if (delayed.size() > kMaxDelayed)
    throw Bad{in.ptr("delayed"), fmt::format("more than {} delayed triggers", kMaxDelayed)};
  for (std::size_t i = 0; i < delayed.size(); ++i) {
    const In d(delayed[i], content::child_pointer(in.ptr("delayed"), i));
    s.delayed.push_back(
        DelayedTrigger{static_cast<std::uint16_t>(d.num("block", 0, max_block)),
                       static_cast<DelayedTiming>(d.name("timing", kDelayedTimings)),
                       static_cast<std::uint8_t>(d.num("occurrences_left", 0, kMaxDelayedTurns)),
                       unit_ref(d, "source", s, false), unit_ref(d, "target", s, true)});
    check_delayed(d, c, s.delayed.back());
  }
  const auto op_count = static_cast<std::int64_t>(c.ops.size());
  const json& effects = in.arr("effects");
  if (effects.size() > kMaxEffectDepth)
    throw Bad{in.ptr("effects"), fmt::format("more than {} effect frames", kMaxEffectDepth)};
  for (std::size_t i = 0; i < effects.size(); ++i) {
    const In f(effects[i], content::child_pointer(in.ptr("effects"), i));
    EffectFrame fr;
    fr.begin = static_cast<std::uint32_t>(f.num("begin", 0, op_count));
    fr.end = static_cast<std::uint32_t>(f.num("end", fr.begin, op_count));
    fr.pc = static_cast<std::uint32_t>(f.num("pc", fr.begin, fr.end));
    fr.kind = static_cast<EffectFrame::Kind>(f.name("kind", kFrameKinds));
    fr.source = unit_ref(f, "source", s, false);  // an effect always has a source unit
    fr.target = unit_ref(f, "target", s, true);
    fr.card = card_ref_or_none(f, "card", s);
    fr.repeat_left = static_cast<std::uint8_t>(f.num("repeat_left", 0, kMaxRepeatLeft));
    fr.status =
        f.at("status").is_null() ? kNoStatus : find_id(c.statuses, f.at("status"), f.ptr("status"), "status");
    s.effects.push_back(fr);
  }
  const In ch = in.obj("choice");
  s.choice.kind = static_cast<PendingChoice::Kind>(ch.name("kind", kChoiceKindNames));
  s.choice.skippable = ch.flag("skippable");
  // A choice of cards has cards left to pick, a choice of options 2 to 4 options; a choice
  // made or skipped is cleared whole.
  const bool waiting = s.choice.kind != PendingChoice::Kind::None;
  const bool card_choice = waiting && s.choice.kind != PendingChoice::Kind::Options;
  s.choice.picks_left = static_cast<std::uint8_t>(
      card_choice ? num_because(ch, "picks_left", 1, kMaxHandPicks, "a choice of cards waits")
                  : num_because(ch, "picks_left", 0, 0, "no choice of cards waits"));
  // The type of the cards a choice of cards may take (an op's card_type), or null for any: only a
  // choice of cards that the player picks from a pile, not a scry. A snapshot without the key
  // (written before it was kept) takes any.
  if (ch.has("card_type") && !ch.at("card_type").is_null()) {
    if (!card_choice || s.choice.kind == PendingChoice::Kind::DiscardFromDrawTop)
      throw Bad{ch.ptr("card_type"),
                fmt::format("expected null: a choice {} takes cards of any type",
                            card_choice ? "of the draw pile's top cards (scry)" : "of no cards")};
    s.choice.filter = read_card_filter(ch);
  }
  s.choice.first_block = static_cast<std::uint16_t>(ch.num("first_block", 0, 65535));
  s.choice.option_count = static_cast<std::uint8_t>(
      s.choice.kind == PendingChoice::Kind::Options
          ? num_because(ch, "option_count", kMinChoiceOptions, kMaxChoiceOptions, "a choice of options waits")
          : num_because(ch, "option_count", 0, 0, "no choice of options waits"));
  if (s.choice.kind == PendingChoice::Kind::Options &&
      std::int64_t{s.choice.first_block} + s.choice.option_count > max_block + 1)
    throw Bad{ch.ptr("option_count"), "the options run past the catalog's blocks"};
  if (s.choice.kind == PendingChoice::Kind::Options) check_choice(ch, c, s.choice);
  // A choice op's options are skipped as the op says (check_choice); a choice of cards only when
  // it offers the draw pile's top cards (scry); a choice made or skipped is cleared whole.
  if (s.choice.kind != PendingChoice::Kind::Options &&
      s.choice.skippable != (card_choice && choice_of_cards_skippable(s.choice.kind)))
    throw Bad{ch.ptr("skippable"),
              !card_choice ? std::string("no choice waits: expected false, got true")
              : s.choice.skippable
                  ? fmt::format("a choice of cards ({}) cannot be skipped: expected false, got true",
                                kChoiceKindNames[static_cast<std::size_t>(s.choice.kind)])
                  : fmt::format("a choice of cards ({}) can be skipped: expected true, got false",
                                kChoiceKindNames[static_cast<std::size_t>(s.choice.kind)])};
  s.choice.source = unit_ref(ch, "source", s, !waiting);
  s.choice.target = unit_ref(ch, "target", s, true);
  s.choice.card = card_ref_or_none(ch, "card", s);
  const In pl = in.obj("playing");
  s.playing.card = card_ref_or_none(pl, "card", s);
  // A card's play targets the chosen enemy or, without one, the first alive enemy.
  s.playing.target = unit_ref(pl, "target", s, s.playing.card == kNoCard);
  if (waiting && s.playing.card == kNoCard)  // only a card's effect pauses on a choice
    throw Bad{pl.ptr("card"), "a choice waits in a card's play: expected the card being played, got null"};
  // The energy an X-cost card took: none for any other card, nor with no card in play. A
  // snapshot written before X costs has no key: 0.
  s.playing_x = static_cast<std::uint8_t>(pl.has("x") ? pl.num("x", 0, 99) : 0);
  if (s.playing_x != 0 && (s.playing.card == kNoCard || !c.cards[s.cards[s.playing.card].def].x_cost()))
    throw Bad{pl.ptr("x"),
              fmt::format("only an X-cost card in play has an X: expected 0, got {}", s.playing_x)};
  // A choice of cards waits only with a card to pick: the rules offer none when its pile holds no
  // card (the hand none besides the one being played), and end one when the last is picked.
  // One whose cards go to the hand waits only while the hand has room.
  if (std::array<std::uint8_t, kMaxCards> picks{}; card_choice && s.choice_cards(c, picks) == 0)
    throw Bad{ch.ptr("kind"),
              choice_destination_pile(s.choice.kind) == Pile::Hand && s.hand_full()
                  ? fmt::format("a choice of cards ({}) waits, but the hand they go to is full ({} cards): "
                                "expected \"none\"",
                                kChoiceKindNames[static_cast<std::size_t>(s.choice.kind)], s.hand().size())
                  : fmt::format(
                        "a choice of cards ({}) waits, but its pile ({}) holds no {}card{} to pick: "
                        "expected \"none\"",
                        kChoiceKindNames[static_cast<std::size_t>(s.choice.kind)],
                        pile_name(choice_source_pile(s.choice.kind)),
                        s.choice.filter == kAnyCard ? std::string() : card_filter_name(s.choice.filter) + " ",
                        choice_upgrades(s.choice.kind) ? " with an upgrade" : "")};
  // A scry offers the draw pile's top picks_left cards, which the draw pile holds (each pick
  // discards one of them), and which the player has seen there, in order.
  if (s.choice.kind == PendingChoice::Kind::DiscardFromDrawTop) {
    if (s.choice.picks_left > s.draw_pile().size())
      throw Bad{
          ch.ptr("picks_left"),
          fmt::format("a choice of the draw pile's top cards offers as many as are left to pick, but the "
                      "draw pile holds {}: expected at most {}, got {}",
                      s.draw_pile().size(), s.draw_pile().size(), s.choice.picks_left)};
    if (s.known_in_order_on_top() < s.choice.picks_left)
      throw Bad{
          ch.ptr("kind"),
          fmt::format("a choice of the draw pile's top {} cards waits, but the player knows the order of "
                      "only {} there (draw_ordered_from): expected the cards offered to be known",
                      s.choice.picks_left, s.known_in_order_on_top())};
  }
  if (s.playing.card != kNoCard && phase != Phase::PlayerPhase)  // a card is played only there
    throw Bad{pl.ptr("card"), fmt::format("no card is played in phase {}: expected null, got {}",
                                          phase_name(phase), s.playing.card)};
  // The player decides in phase PlayerPhase, between plays, only while the battle is undecided:
  // a play ends by firing Victory or Defeat once a side is down, before the next decision.
  if (phase == Phase::PlayerPhase && s.playing.card == kNoCard && (s.down & kPlayerDown) != 0)
    throw Bad{in.ptr("player") + "/hp",
              "the player is down in phase PlayerPhase with no card in play: expected HP above 0"};
  if (phase == Phase::PlayerPhase && s.playing.card == kNoCard && (s.down & kEnemiesDown) != 0)
    throw Bad{in.ptr("enemies"),
              "no enemy is alive in phase PlayerPhase with no card in play: expected at least one"};
  const json& rewards = in.arr("reward_options");
  if (rewards.size() > kMaxRewardChoices)
    throw Bad{in.ptr("reward_options"), fmt::format("more than {} reward options", kMaxRewardChoices)};
  for (std::size_t i = 0; i < rewards.size(); ++i)
    s.reward_options.push_back(
        find_id(c.cards, rewards[i], content::child_pointer(in.ptr("reward_options"), i), "card"));
  s.reward_pending = in.flag("reward_pending");
  const json& taken = in.at("reward_taken");
  s.reward_taken = taken.is_null() ? -1 : find_id(c.cards, taken, in.ptr("reward_taken"), "card");
  // Rewards are offered once the battle is won (phase BattleWon); one waits only while options
  // are offered, and the card taken is one of them. (A listener of BattleRewardSelected sees the
  // card taken while the reward still waits; one of the next battle's Initialize, before its
  // first step, the last battle's options and card taken.)
  if (!s.reward_options.empty() && phase != Phase::BattleWon && phase != Phase::Initialize)
    throw Bad{in.ptr("reward_options"),
              fmt::format("a battle in phase {} offers no reward: expected [], got {} option(s)",
                          phase_name(phase), s.reward_options.size())};
  if (s.reward_pending && s.reward_options.empty())
    throw Bad{in.ptr("reward_pending"), "no reward options are offered: expected false, got true"};
  if (s.reward_taken >= 0 &&
      std::ranges::find(s.reward_options, static_cast<CardId>(s.reward_taken)) == s.reward_options.end())
    throw Bad{in.ptr("reward_taken"), fmt::format("expected one of the reward options, got '{}'",
                                                  c.cards[static_cast<std::size_t>(s.reward_taken)].id)};
}

// One entry per unit, the player first; a snapshot without the key (written before the stats
// were kept) restores them as zeros.
void read_damage_stats(const In& in, const BattleState& s, DamageStats& out) {
  const std::size_t units = s.enemies.size() + 1;
  for (const std::string_view key : {"hp", "armor"}) {
    const json& values = in.arr(key);
    if (values.size() != units)
      throw Bad{in.ptr(key), fmt::format("expected {} entries (the player and {} enemies), got {}", units,
                                         s.enemies.size(), values.size())};
    auto& counts = key == "hp" ? out.hp : out.armor;
    for (std::size_t u = 0; u < units; ++u)
      counts[u] = In::number(values[u], content::child_pointer(in.ptr(key), u), 0,
                             std::numeric_limits<std::int64_t>::max());
  }
}

}  // namespace

Result<Battle> BattleIo::restore(const std::shared_ptr<const Catalog>& catalog, const json& j) {
  return content::restore_snapshot<Machine, Battle, BattleOptions>(
      catalog, j, kSnapshotFormatVersion,
      [&](const In& root, BattleOptions options) -> Result<Battle> {
        Battle b(catalog, options);
        const Phase phase = content::snapshot_phase<Machine>(root.at("phase"), root.ptr("phase"));
        read_state(root.obj("state"), *catalog, phase, b.state_);
        content::restore_driver<Machine>(root, b.driver_, b.has_pending_trigger_, b.pending_trigger_);
        // advance() fires each transition as a phase or an action asks for it; it queues one only
        // while a Choice or a reward waits, and none is asked for then (a Choice waits in a card's
        // play, a reward in the terminal BattleWon). A queued one would fire at the next action.
        if (b.has_pending_trigger_)
          throw Bad{root.ptr("pending_trigger"),
                    fmt::format("the rules fire a transition as it is asked for: expected null, got '{}'",
                                trigger_name(b.pending_trigger_))};
        b.actions_ = content::read_actions<Action>(root, [](const json& a) { return action_from_json(a); });
        const json& master = root.arr("master_deck");
        for (std::size_t i = 0; i < master.size(); ++i)
          b.master_deck_.push_back(
              find_id(catalog->cards, master[i], content::child_pointer("/master_deck", i), "card"));
        auto log = content::read_events<Event>(root, 7, content::kEventRowLayout, kEventTypeCount,
                                               event_type_name, content::read_event_row<Event>);
        b.events_.restore_log(std::move(log));
        if (root.has("damage_stats")) read_damage_stats(root.obj("damage_stats"), b.state_, b.damage_stats_);
        return b;
      },
      [](const Battle& b) { return snapshot(b); });
}

}  // namespace detail

json snapshot(const Battle& battle) { return detail::BattleIo::snapshot(battle); }

Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const json& snapshot) {
  return detail::BattleIo::restore(catalog, snapshot);
}

}  // namespace battlecore::deckbuilder
