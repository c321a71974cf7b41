// Snapshots and clones of a party battle: round trips in every phase and at every kind of
// decision (a member's turn, the companion's, a Block in the enemy phase and in the first
// strike), identical continuation, refusal of other versions and other content and of states
// the rules never reach; and the Deselect bound that keeps random play from looping.

#include "battlecore/party/snapshot.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/rng.hpp"
#include "battlecore/party/scenario.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

using nlohmann::json;
using test::meadow_pack;

Battle round_trip(const Battle& b) {
  auto r = restore(meadow_pack(), snapshot(b));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

/// Plays both battles with the same seeded random choices to the end, checking they stay equal.
void play_both_to_the_end(Battle& a, Battle& b, std::uint64_t seed) {
  Rng rng = Rng::from_seed(seed);
  std::vector<Action> options;
  int steps = 0;
  while (a.status() == Status::AwaitingDecision && steps++ < 2000) {
    a.legal_actions(options);
    const Action pick = options[rng.below(static_cast<std::uint32_t>(options.size()))];
    ASSERT_TRUE(a.submit(pick).ok());
    ASSERT_TRUE(b.submit(pick).ok());
    ASSERT_TRUE(a == b);
    ASSERT_EQ(a.state_hash(), b.state_hash());
  }
  EXPECT_TRUE(a.is_battle_over());
  EXPECT_EQ(a.events().log(), b.events().log());
}

void expect_round_trip(const Battle& b) {
  Battle r = round_trip(b);
  EXPECT_TRUE(r == b);
  EXPECT_EQ(r.state_hash(), b.state_hash());
  EXPECT_EQ(r.decision_kind(), b.decision_kind());
  EXPECT_EQ(snapshot(r), snapshot(b));
}

TEST(PartySnapshot, EveryPhaseAndEveryDecisionKindRoundTripsAndContinuesIdentically) {
  std::set<DecisionKind> kinds;
  std::set<std::pair<Phase, DecisionKind>> seen;
  std::set<Phase> ends;
  for (const EncounterDef& enc : meadow_pack()->encounters)
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Battle b = test::start(enc.id, seed, meadow_pack());
      Rng rng = Rng::from_seed(seed * 77);
      std::vector<Action> options;
      int steps = 0;
      while (b.status() == Status::AwaitingDecision && steps++ < 2000) {
        if (seen.insert({b.phase(), b.decision_kind()}).second) {
          SCOPED_TRACE(enc.id + " " + std::string(phase_name(b.phase())) + " " +
                       std::string(decision_kind_name(b.decision_kind())));
          expect_round_trip(b);
          Battle copy = round_trip(b);
          Battle original = b;
          play_both_to_the_end(original, copy, seed + 5);
        }
        kinds.insert(b.decision_kind());
        b.legal_actions(options);
        ASSERT_TRUE(b.submit(options[rng.below(static_cast<std::uint32_t>(options.size()))]).ok());
      }
      ASSERT_TRUE(b.is_battle_over());
      ends.insert(b.phase());
      expect_round_trip(b);
    }
  EXPECT_TRUE(kinds.count(DecisionKind::MemberTurn));
  EXPECT_TRUE(kinds.count(DecisionKind::Companion));
  EXPECT_TRUE(kinds.count(DecisionKind::Block));
  EXPECT_TRUE(seen.count({Phase::PlayerPhase, DecisionKind::MemberTurn}));
  EXPECT_TRUE(seen.count({Phase::PlayerPhase, DecisionKind::Companion}));
  EXPECT_TRUE(seen.count({Phase::EnemyPhase, DecisionKind::Block}));
  EXPECT_TRUE(seen.count({Phase::FirstStrike, DecisionKind::Block}));
  EXPECT_GE(ends.size(), 2u);
}

TEST(PartySnapshot, APendingBlockKeepsItsRollAndCursor) {
  Battle b = test::start("ambush", 3, meadow_pack());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  ASSERT_EQ(b.phase(), Phase::FirstStrike);
  const json snap = snapshot(b);
  EXPECT_TRUE(snap["state"]["enemy_action"]["awaiting_block"].get<bool>());
  EXPECT_EQ(snap["state"]["enemy_action"]["block_roll"], b.block_roll());
  Battle r = round_trip(b);
  EXPECT_EQ(r.block_roll(), b.block_roll());
  EXPECT_EQ(r.decision().who, b.decision().who);
  ASSERT_TRUE(r.submit(Action::block(BlockLevel::SuperBlock)).ok());
  ASSERT_TRUE(b.submit(Action::block(BlockLevel::SuperBlock)).ok());
  EXPECT_TRUE(r == b);
}

// The cursor's keeps_charge came after format version 1's first snapshots: without it a cursor
// keeps no charge.
TEST(PartySnapshot, TheCursorsChargeFlagRoundTripsAndMayBeLeftOut) {
  const Battle b = test::start("ambush", 3, meadow_pack());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  json snap = snapshot(b);
  EXPECT_EQ(snap["state"]["enemy_action"]["keeps_charge"], false);
  snap["state"]["enemy_action"]["keeps_charge"] = true;
  auto flagged = restore(meadow_pack(), snap);
  ASSERT_TRUE(flagged.ok()) << flagged.error().message;
  EXPECT_TRUE(flagged.value().state().enemy_action.keeps_charge);
  EXPECT_NE(flagged.value().state_hash(), b.state_hash());
  EXPECT_EQ(snapshot(flagged.value()), snap);
  snap["state"]["enemy_action"].erase("keeps_charge");
  auto old = restore(meadow_pack(), snap);
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_TRUE(old.value() == b);
  EXPECT_EQ(old.value().state_hash(), b.state_hash());
}

TEST(PartySnapshot, TheSwapCountRoundTripsAndMayBeLeftOut) {
  Battle b = test::start("meadow_walk", 1, meadow_pack());
  const json before = snapshot(b);
  EXPECT_EQ(before["state"]["swaps"], 0);
  ASSERT_TRUE(b.submit(Action::swap()).ok());
  const json snap = snapshot(b);
  EXPECT_EQ(snap["state"]["swaps"], 1);
  auto back = restore(meadow_pack(), snap);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back.value().state().swaps, 1u);
  EXPECT_EQ(back.value().state_hash(), b.state_hash());
  json old = before;
  old["state"].erase("swaps");
  auto read = restore(meadow_pack(), old);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read.value().state().swaps, 0u);
  EXPECT_EQ(snapshot(read.value()), before);
  json many = snap;
  many["state"]["swaps"] = 9;
  EXPECT_FALSE(restore(meadow_pack(), many).ok());
}

TEST(PartySnapshot, TheFormatIsVersionedAndNamed) {
  const Battle b = test::start("meadow_walk", 1, meadow_pack());
  const json snap = snapshot(b);
  EXPECT_EQ(snap["format"], "battlecore-snapshot");
  EXPECT_EQ(snap["format_version"], kSnapshotFormatVersion);
  EXPECT_EQ(snap["rules"], "party");
  EXPECT_EQ(snap["state"]["members"][0]["member"], "vi");
  EXPECT_EQ(snap["state"]["items"][0]["item"], "honey_drop");
  EXPECT_EQ(snap["phase"], "PlayerPhase");
  EXPECT_TRUE(snap["history"].is_array());
  EXPECT_EQ(snap["history"].size(), b.history().size());
}

TEST(PartySnapshot, OtherVersionsRulesAndContentAreRefusedClearly) {
  const Battle b = test::start("meadow_walk", 1, meadow_pack());
  json snap = snapshot(b);
  snap["format_version"] = 2;
  auto r = restore(meadow_pack(), snap);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "snapshot refused: /format_version: snapshot format version 2 is not supported; this engine "
            "reads version 1");
  snap = snapshot(b);
  snap["rules"] = "deckbuilder";
  r = restore(meadow_pack(), snap);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/rules"), std::string::npos);
  snap = snapshot(b);
  snap["content_hash"] = "0000000000000000";
  r = restore(meadow_pack(), snap);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/content_hash"), std::string::npos);
}

TEST(PartySnapshot, BadFieldsAreRefusedWithTheirPointer) {
  const Battle b = test::start("meadow_walk", 1, meadow_pack());
  auto refused = [&](auto edit) {
    json snap = snapshot(b);
    edit(snap);
    auto r = restore(meadow_pack(), snap);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(refused([](json& s) { s["state"]["members"][1]["member"] = "nobody"; }),
            "snapshot refused: /state/members/1/member: no member 'nobody' in the content");
  EXPECT_EQ(refused([](json& s) { s["state"].erase("tp"); }), "snapshot refused: /state: missing key 'tp'");
  EXPECT_EQ(refused([](json& s) { s["state"]["formation"][0] = 7; }),
            "snapshot refused: /state/formation/0: expected an integer in [0, 2], got 7");
  EXPECT_EQ(refused([](json& s) {
              s["state"]["enemy_action"]["active"] = true;
              s["state"]["enemy_action"]["enemy_uid"] = 200;
            }),
            "snapshot refused: /state/enemy_action/enemy_uid: no active enemy with number 200");
  EXPECT_EQ(refused([](json& s) { s["phase"] = "Lunch"; }),
            "snapshot refused: /phase: expected a phase name");
}

TEST(PartySnapshot, AClonedBattleIsIndependent) {
  Battle a = test::start("meadow_walk", 4, meadow_pack());
  Battle b = a;
  ASSERT_TRUE(a == b);
  std::vector<Action> options;
  a.legal_actions(options);
  ASSERT_TRUE(a.submit(options.front()).ok());
  EXPECT_FALSE(a == b);
  EXPECT_EQ(b.actions().size(), 0u);
}

TEST(PartySnapshot, ABattleRecordsActionsInTheFormTheyAreWrittenIn) {
  // Found by the actions fuzz target: an action with fields its kind does not read was
  // recorded as submitted, so the snapshot (which writes only the fields read) restored a
  // battle with a different action list.
  Battle b = test::start("meadow_walk", 1, meadow_pack());
  ASSERT_TRUE(b.submit(Action{ActionKind::Deselect, 7, 3}).ok());
  ASSERT_EQ(b.actions().size(), 1u);
  EXPECT_EQ(b.actions()[0], Action::deselect());
  EXPECT_EQ(canonical_action(Action{ActionKind::Skill, 2, 1}), Action::skill(2, 1));
  EXPECT_EQ(canonical_action(Action{ActionKind::Attack, 9, 1}), Action::attack(1));
  EXPECT_TRUE(round_trip(b) == b);
}

// --- states the rules never reach -----------------------------------------------------------

/// meadow_walk at the party's first decision, every member and the first enemy with a condition.
json snapshot_in_progress() {
  const json condition = {{{"condition", "attack_up"}, {"turns", 2}}};
  const json scenario = {
      {"encounter", "meadow_walk"},
      {"seed", 3},
      {"members", {{{"conditions", condition}}, {{"conditions", condition}}, {{"conditions", condition}}}},
      {"enemies", {{{"conditions", {{{"condition", "poison"}, {"turns", 2}}}}}}}};
  content::Diagnostics diags;
  auto doc = content::parse_json_text("scenario.json", scenario.dump(), diags);
  EXPECT_TRUE(doc.has_value());
  auto b = start_scenario(meadow_pack(), *doc);
  if (!b) ADD_FAILURE() << b.error().to_string();
  EXPECT_EQ(b.value().decision_kind(), DecisionKind::MemberTurn);
  return snapshot(b.value());
}

/// Refused, naming exactly `pointer`, with `what` in the reason.
void expect_refused(const json& snap, const std::string& pointer, std::string_view what) {
  const auto r = restore(meadow_pack(), snap);
  ASSERT_FALSE(r.ok()) << pointer << " was accepted";
  EXPECT_EQ(r.error().message.rfind("snapshot refused: " + pointer + ": ", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
}

void expect_accepted(const json& snap) {
  const auto r = restore(meadow_pack(), snap);
  EXPECT_TRUE(r.ok()) << r.error().message;
}

/// The snapshot with the value at `pointer` replaced.
json with(json snap, const std::string& pointer, json value) {
  snap[json::json_pointer(pointer)] = std::move(value);
  return snap;
}

/// A member other than the selected one (whose turn it is).
std::string other_member(const json& snap) {
  const auto current = snap["state"]["current"].get<int>();
  EXPECT_GE(current, 0);
  return "/state/members/" + std::to_string((current + 1) % 3);
}

TEST(PartySnapshot, AConditionTheRulesNeverKeepIsRefused) {
  const json s = snapshot_in_progress();
  expect_accepted(s);
  const std::string m = other_member(s);
  // A condition expires when its turns reach 0.
  for (const int turns : {0, -1})
    expect_refused(with(s, m + "/conditions/0/turns", turns), m + "/conditions/0/turns",
                   "expected an integer in [1, 32767]");
  expect_accepted(with(s, m + "/conditions/0/turns", 1));
  expect_refused(with(s, "/state/enemies/0/conditions/0/turns", 0), "/state/enemies/0/conditions/0/turns",
                 "expected an integer in [1, 32767]");
  expect_accepted(with(s, "/state/enemies/0/conditions/0/turns", 1));
  // A condition applied again amends the one there.
  json twice = s;
  twice[json::json_pointer(m + "/conditions")].push_back({{"condition", "attack_up"}, {"turns", 1}});
  expect_refused(twice, m + "/conditions/1/condition", "condition 'attack_up' is listed twice");
  // A member going down loses its conditions.
  const json down = with(s, m + "/hp", 0);
  expect_refused(down, m + "/conditions", "is down: expected no conditions");
  expect_accepted(with(down, m + "/conditions", json::array()));
}

TEST(PartySnapshot, CountersOutsideTheRulesBoundsAreRefused) {
  const json s = snapshot_in_progress();
  const std::string member = other_member(s);
  // A member's action counter: 0 one action, each step below one more (8 at most), 1 waits. An
  // enemy's has its own bounds (AnEnemysCounterStaysWithinItsMoves).
  for (const int cantmove : {-9, 2})
    expect_refused(with(s, member + "/cantmove", cantmove), member + "/cantmove",
                   "expected an integer in [-8, 1]");
  for (const int cantmove : {-8, 1}) expect_accepted(with(s, member + "/cantmove", cantmove));
  for (const std::string& a : {member, std::string("/state/enemies/0")}) {
    SCOPED_TRACE(a);
    const int max_hp = s[json::json_pointer(a + "/max_hp")].get<int>();
    for (const int hp : {-1, max_hp + 1})
      expect_refused(with(s, a + "/hp", hp), a + "/hp",
                     fmt::format("expected an integer in [0, {}]", max_hp));
    expect_accepted(with(s, a + "/hp", max_hp));
    expect_refused(with(s, a + "/max_hp", 0), a + "/max_hp", "expected an integer in [1, ");
    // Exhaustion grows by one an action from 0 at each turn: 127 wrapped to -128 at the next.
    for (const int tired : {-1, 100, 127})
      expect_refused(with(s, a + "/tired", tired), a + "/tired", "expected an integer in [0, 99]");
    for (const int tired : {0, 99}) expect_accepted(with(s, a + "/tired", tired));
    for (const int charge : {-1, kMaxCharge + 1})
      expect_refused(with(s, a + "/charge", charge), a + "/charge", "expected an integer in [0, 3]");
    for (const int charge : {0, kMaxCharge}) expect_accepted(with(s, a + "/charge", charge));
  }
  const int max_tp = s["state"]["max_tp"].get<int>();
  for (const int tp : {-1, max_tp + 1})
    expect_refused(with(s, "/state/tp", tp), "/state/tp",
                   fmt::format("expected an integer in [0, {}]", max_tp));
  for (const int tp : {0, max_tp}) expect_accepted(with(s, "/state/tp", tp));
  // The inaction failsafe fires on the 5th turn without an action; Deselect goes round once.
  expect_refused(with(s, "/state/no_action_turns", kInactionFailsafeTurns), "/state/no_action_turns",
                 "expected an integer in [0, 4]");
  expect_accepted(with(s, "/state/no_action_turns", kInactionFailsafeTurns - 1));
  expect_refused(with(s, "/state/deselects", kMaxMembers + 1), "/state/deselects",
                 "expected an integer in [0, 4]");
  expect_accepted(with(s, "/state/deselects", kMaxMembers));
  // Actions carried into the next turn keep its counter at -8 or above: with a counter of c, at
  // most c + 7 (10 once gave a member -10, 127 about 128 actions in one turn).
  const std::string carried = member + "/more_next_turn";
  const json at_zero = with(s, member + "/cantmove", 0);
  for (const int more : {-1, 8, 127})
    expect_refused(with(at_zero, carried, more), carried, "expected an integer in [0, 7]");
  for (const int more : {0, 7}) expect_accepted(with(at_zero, carried, more));
  expect_refused(with(with(s, member + "/cantmove", -8), carried, 1), carried,
                 "expected an integer in [0, 0]");
}

/// The moves a turn of the enemy at `enemy` (its JSON pointer) in `snap`.
int moves_of(const json& snap, const std::string& enemy) {
  const auto id = snap[json::json_pointer(enemy + "/enemy")].get<std::string>();
  for (const EnemyDef& e : meadow_pack()->enemies)
    if (e.id == id) return e.moves;
  ADD_FAILURE() << "no enemy '" << id << "' in the meadow pack";
  return 1;
}

// An enemy acts `moves` times a turn: the turn advance (and its joining, and the first strike's
// end) sets its counter to 1 - moves, an action adds 1, a stop or a landing sets 1 and a thaw
// at most 0. Below 1 - moves it would act more times than its moves (-8: nine actions).
TEST(PartySnapshot, AnEnemysCounterStaysWithinItsMoves) {
  const json s = snapshot(test::start("swamp", 1, meadow_pack()));  // Venus Bud: 2 moves, the others 1
  std::set<int> moves;
  for (std::size_t i = 0; i < s["state"]["enemies"].size(); ++i) {
    const std::string counter = "/state/enemies/" + std::to_string(i) + "/cantmove";
    SCOPED_TRACE(counter);
    const int lowest = 1 - moves_of(s, "/state/enemies/" + std::to_string(i));
    moves.insert(1 - lowest);
    for (const int cantmove : {lowest - 1, int{kMinCounter}, 2})
      if (cantmove != lowest)
        expect_refused(with(s, counter, cantmove), counter,
                       fmt::format("expected an integer in [{}, 1], got {}", lowest, cantmove));
    for (const int cantmove : {lowest, 1}) expect_accepted(with(s, counter, cantmove));
  }
  EXPECT_EQ(moves, (std::set<int>{1, 2}));
}

TEST(PartySnapshot, AMaxHpPastTheContentsBoundIsRefused) {
  // No rule changes a max HP: the content gives it and a scenario sets at most 9999. The rules'
  // arithmetic on it (a fire tick takes ceil(max HP * 2 / 15) - 1) holds within that bound.
  const json s = snapshot_in_progress();
  const std::string member = other_member(s);
  for (const std::string& a : {member, std::string("/state/enemies/0")}) {
    SCOPED_TRACE(a);
    for (const int max_hp : {10000, INT32_MAX})
      expect_refused(with(with(s, a + "/max_hp", max_hp), a + "/hp", max_hp), a + "/max_hp",
                     "expected an integer in [1, 9999]");
    expect_accepted(with(with(s, a + "/max_hp", 9999), a + "/hp", 9999));
  }
  // At the bound, burning actors play on to the end of the battle.
  json burning = s;
  const json fire = {{{"condition", "fire"}, {"turns", 2}}};
  for (const std::string& a : {member, std::string("/state/enemies/0")})
    burning = with(with(with(burning, a + "/max_hp", 9999), a + "/hp", 9999), a + "/conditions", fire);
  auto r = restore(meadow_pack(), burning);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Battle b = std::move(r).value();
  Rng rng = Rng::from_seed(5);
  std::vector<Action> options;
  for (int steps = 0; b.status() == Status::AwaitingDecision && steps < 2000; ++steps) {
    b.legal_actions(options);
    ASSERT_TRUE(b.submit(options[rng.below(static_cast<std::uint32_t>(options.size()))]).ok());
  }
  EXPECT_TRUE(b.is_battle_over());
}

TEST(PartySnapshot, AMaxTpOrASequencePositionPastItsBoundIsRefused) {
  // The max TP comes from the content (at most 99) or a scenario (at most 999); a sequence's
  // next move is one of the enemy's (a larger position moved the same, modulo the count, but
  // hashed otherwise).
  const json s = snapshot_in_progress();
  expect_refused(with(s, "/state/max_tp", 1000), "/state/max_tp", "expected an integer in [0, 999]");
  expect_accepted(with(s, "/state/max_tp", 999));
  const std::string id = s["state"]["enemies"][0]["enemy"];
  const auto& enemies = meadow_pack()->enemies;
  const auto def = std::find_if(enemies.begin(), enemies.end(), [&](const auto& e) { return e.id == id; });
  ASSERT_NE(def, enemies.end());
  const std::size_t moves = def->move_list.size();
  expect_refused(with(s, "/state/enemies/0/sequence_pos", moves), "/state/enemies/0/sequence_pos",
                 fmt::format("expected an integer in [0, {}]", moves - 1));
  expect_accepted(with(s, "/state/enemies/0/sequence_pos", moves - 1));
}

TEST(PartySnapshot, AFormationOrEnemyNumbersTheRulesNeverDealAreRefused) {
  const json s = snapshot_in_progress();
  const json& formation = s["state"]["formation"];
  ASSERT_EQ(formation.size(), 3u);
  expect_refused(with(s, "/state/formation/1", formation[0]), "/state/formation/1",
                 "member " + formation[0].dump() + " is already in the formation");
  json short_formation = s;
  short_formation["state"]["formation"].erase(2);
  expect_refused(short_formation, "/state/formation", "expected each of the 3 members once, got 2 entries");
  expect_accepted(with(s, "/state/formation", {formation[2], formation[0], formation[1]}));

  const json& enemies = s["state"]["enemies"];
  ASSERT_EQ(enemies.size(), 2u);
  expect_refused(with(s, "/state/enemies/1/uid", enemies[0]["uid"]), "/state/enemies/1/uid",
                 "enemy number " + enemies[0]["uid"].dump() + " is already in slot 0");
  const int next_uid = s["state"]["next_uid"].get<int>();
  const json numbered = with(s, "/state/enemies/0/uid", next_uid);
  expect_refused(numbered, "/state/enemies/0/uid",
                 fmt::format("expected a number below next_uid ({}), got {}", next_uid, next_uid));
  expect_accepted(with(numbered, "/state/next_uid", next_uid + 1));
  // Numbers stay below kMaxEncounterEnemies (12), the waiting reserves' included: 112 once
  // named an event actor past a signed byte and crashed the next turn.
  const std::size_t waiting = s["state"]["reserves"].size();
  const auto most = static_cast<int>(kMaxEncounterEnemies - waiting);
  expect_refused(with(with(s, "/state/enemies/0/uid", 112), "/state/next_uid", 113), "/state/next_uid",
                 fmt::format("expected an integer in [0, {}], got 113", most));
  expect_refused(with(s, "/state/next_uid", 255), "/state/next_uid",
                 fmt::format("expected an integer in [0, {}], got 255", most));
  expect_accepted(with(with(s, "/state/enemies/0/uid", most - 1), "/state/next_uid", most));
}

// Every target an enemy's move has still to reach is a member or an enemy of the battle, not
// only the one being hit: a second target of 100 once crashed the move's next step.
TEST(PartySnapshot, EveryTargetOfAnEnemysMoveIsInRange) {
  const Battle b = test::start("ambush", 3, meadow_pack());
  ASSERT_EQ(b.decision_kind(), DecisionKind::Block);
  const json s = snapshot(b);
  const json& cursor = s["state"]["enemy_action"];
  ASSERT_FALSE(cursor["targets_enemies"].get<bool>());
  const int last_member = static_cast<int>(s["state"]["members"].size()) - 1;
  json targets = cursor["targets"];
  const std::size_t next = targets.size();
  targets.push_back(100);
  expect_refused(with(s, "/state/enemy_action/targets", targets),
                 fmt::format("/state/enemy_action/targets/{}", next),
                 fmt::format("expected a member index in [0, {}], got 100", last_member));
  targets[next] = last_member;
  expect_accepted(with(s, "/state/enemy_action/targets", targets));
}

// A key the format does not have is refused at its pointer: a misspelt optional key would
// restore as its default.
TEST(PartySnapshot, AnUnknownKeyIsRefused) {
  const Battle b = test::start("ambush", 3, meadow_pack());
  json s = snapshot(b);
  s["state"]["enemy_action"]["keep_charge"] = true;
  const auto refused = restore(meadow_pack(), s);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(
                "/state/enemy_action/keep_charge: unknown key 'keep_charge'; allowed keys: "),
            std::string::npos)
      << refused.error().message;
  json root = snapshot(b);
  root["bogus"] = 1;
  ASSERT_FALSE(restore(meadow_pack(), root).ok());
  EXPECT_NE(restore(meadow_pack(), root).error().message.find("/bogus: unknown key 'bogus'"),
            std::string::npos);
}

TEST(PartySnapshot, ADecisionTheRulesNeverPoseIsRefused) {
  const json s = snapshot_in_progress();
  // The fallen leave their slots before a decision.
  expect_refused(with(s, "/state/enemies/0/hp", 0), "/state/enemies/0/hp",
                 "is down in a slot while a decision is pending: expected HP above 0");
  expect_accepted(with(s, "/state/enemies/0/hp", 1));
  // A cleared field ends the battle before any decision.
  expect_refused(with(s, "/state/enemies", json::array()), "/state/enemies",
                 "no active enemy while a decision is pending: expected at least one");
  json one_enemy = s;
  one_enemy["state"]["enemies"].erase(1);
  expect_accepted(one_enemy);
  // The selected member can act: up, not waiting, not asleep.
  const std::string selected = "/state/members/" + s["state"]["current"].dump();
  expect_refused(with(s, selected + "/cantmove", 1), "/state/current", "expected a member who can act");
  expect_accepted(with(s, selected + "/cantmove", 0));
  expect_refused(with(with(s, selected + "/hp", 0), selected + "/conditions", json::array()),
                 "/state/current", "expected a member who can act");
  expect_refused(with(s, selected + "/conditions", {{{"condition", "sleep"}, {"turns", 2}}}),
                 "/state/current", "expected a member who can act");
  expect_accepted(with(s, selected + "/conditions", {{{"condition", "poison"}, {"turns", 2}}}));
}

// A pending decision is one the rules pose: a Block by an enemy action in progress (a Block
// with the cursor inactive was restored unchecked, and answering it crashed), the companion's
// turn for a companion the party has, and always one while the battle is not over (a battle
// waiting on nothing was restored, reported finished and refused every action).
TEST(PartySnapshot, APendingDecisionIsOneTheRulesPose) {
  const Battle block = test::start("ambush", 3, meadow_pack());
  ASSERT_EQ(block.decision_kind(), DecisionKind::Block);
  const json b = snapshot(block);
  json inactive = with(b, "/state/enemy_action/active", false);
  expect_refused(inactive, "/state/enemy_action/awaiting_block", "needs an enemy action in progress");
  inactive["state"]["enemy_action"]["enemy_uid"] = 200;
  inactive["state"]["enemy_action"]["targets"] = json::array();
  expect_refused(inactive, "/state/enemy_action/awaiting_block", "needs an enemy action in progress");
  expect_refused(with(b, "/state/enemy_action/awaiting_block", false), "/state/enemy_action/active",
                 "expected it to wait on a Block");
  json idle = with(b, "/state/enemy_action/awaiting_block", false);
  idle["state"]["enemy_action"] =
      snapshot(test::start("meadow_walk", 1, meadow_pack()))["state"]["enemy_action"];
  expect_refused(idle, "/state/enemy_action/awaiting_block",
                 "the battle is not over and no decision is pending in phase FirstStrike");

  const json s = snapshot_in_progress();
  expect_refused(with(s, "/state/current", -1), "/state/current",
                 "the battle is not over and no decision is pending in phase PlayerPhase");
  // The cursor of the Block above, in the player phase: the enemy phase would go on with it.
  json cursor = s;
  cursor["state"]["enemy_action"] = b["state"]["enemy_action"];
  expect_refused(cursor, "/state/enemy_action/active", "expected it to wait on a Block");
  const json companion = with(with(s, "/state/current", -1), "/state/companion_turn", true);
  expect_accepted(companion);
  for (const auto& [key, value] : {std::pair<std::string, json>{"/state/companion_acted", true},
                                   {"/state/companion_locked", true},
                                   {"/state/current", 0}})
    expect_refused(with(companion, key, value), "/state/companion_turn", "the companion's turn is pending");
  // The first strike's flag belongs to its phase; a party that fled is in phase Fled.
  expect_refused(with(s, "/state/first_strike", true), "/state/first_strike",
                 "expected false in phase PlayerPhase");
  expect_refused(with(b, "/state/first_strike", false), "/state/first_strike",
                 "expected true in phase FirstStrike");
  expect_refused(with(s, "/state/fled", true), "/state/fled", "expected phase Fled, got PlayerPhase");
  // A battle still going past its turn limit has been lost at the turn end.
  expect_refused(with(s, "/state/turn", 100), "/state/turn",
                 "turn 100 is past the encounter's turn limit 99");
  expect_accepted(with(s, "/state/turn", 99));
  // The rules pack's trio has no companion.
  json trio = snapshot(test::start("trio"));
  trio["state"]["current"] = -1;
  trio["state"]["companion_turn"] = true;
  const auto refused = restore(test::rules_pack(), trio);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message.rfind("snapshot refused: /state/companion_turn: ", 0), 0u)
      << refused.error().message;
}

/// The active slot of the enemy whose action is in progress in `snap`.
std::string acting_enemy(const json& snap) {
  const json& enemies = snap["state"]["enemies"];
  const json& uid = snap["state"]["enemy_action"]["enemy_uid"];
  for (std::size_t i = 0; i < enemies.size(); ++i)
    if (enemies[i]["uid"] == uid) return "/state/enemies/" + std::to_string(i);
  ADD_FAILURE() << "no active enemy with number " << uid.dump();
  return "/state/enemies/0";
}

// An enemy acts only with an action left (counter 0 or below): the enemy phase picks such an
// enemy, the first strike's acting enemy has just joined (counter 1 - moves, moves 1 to 4), and
// nothing raises the acting enemy's counter before EndEnemyTurn ends the action. An action
// restored at counter 1 left the enemy at counter 2, past the bound, once answered: the next
// Block's snapshot was then refused.
TEST(PartySnapshot, AnEnemyActionInProgressIsOneWithAnActionLeft) {
  std::vector<json> blocks;  // a Block in the first strike, then one in the enemy phase
  const Battle ambush = test::start("ambush", 3, meadow_pack());
  ASSERT_EQ(ambush.phase(), Phase::FirstStrike);
  ASSERT_EQ(ambush.decision_kind(), DecisionKind::Block);
  blocks.push_back(snapshot(ambush));
  Battle walk = test::start("meadow_walk", 1, meadow_pack());
  Rng rng = Rng::from_seed(11);
  std::vector<Action> options;
  for (int steps = 0; walk.status() == Status::AwaitingDecision && steps < 2000; ++steps) {
    if (walk.phase() == Phase::EnemyPhase && walk.decision_kind() == DecisionKind::Block) break;
    walk.legal_actions(options);
    ASSERT_TRUE(walk.submit(options[rng.below(static_cast<std::uint32_t>(options.size()))]).ok());
  }
  ASSERT_EQ(walk.phase(), Phase::EnemyPhase);
  ASSERT_EQ(walk.decision_kind(), DecisionKind::Block);
  blocks.push_back(snapshot(walk));
  for (const json& s : blocks) {
    SCOPED_TRACE(s["phase"].dump());
    const std::string counter = acting_enemy(s) + "/cantmove";
    ASSERT_LE(s[json::json_pointer(counter)].get<int>(), 0);
    expect_accepted(s);
    expect_refused(with(s, counter, 1), counter,
                   "is acting (enemy_action.active) with counter 1: expected 0 or below");
    expect_accepted(with(s, counter, 0));
    const int lowest = 1 - moves_of(s, acting_enemy(s));
    expect_accepted(with(s, counter, lowest));
    expect_refused(with(s, counter, lowest - 1), counter,
                   fmt::format("expected an integer in [{}, 1]", lowest));
  }
}

// --- Deselect -----------------------------------------------------------------------------

TEST(PartyDeselect, GoesOnceRoundTheFreeMembersThenAnActionMustBeChosen) {
  Battle b = test::start("meadow_walk", 1, meadow_pack());
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  const std::size_t free = detail::free_member_count(b.state(), b.catalog());
  ASSERT_EQ(free, 3u);
  const std::int8_t first = b.state().current;
  std::set<std::int8_t> offered{first};
  std::size_t deselects = 0;
  while (b.submit(Action::deselect()).ok()) {
    ++deselects;
    offered.insert(b.state().current);
    ASSERT_LE(deselects, 10u) << "Deselect loops";
  }
  EXPECT_EQ(deselects, free) << "the seed's cycle: once round, back to the first member";
  EXPECT_EQ(offered.size(), free) << "every free member was offered";
  EXPECT_EQ(b.state().current, first);
  const auto refused = b.submit(Action::deselect());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().reason, RefusalReason::DeselectNotAllowed);
  std::vector<Action> options;
  b.legal_actions(options);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::deselect()), 0);
  // Acting resets the bound: the next member may deselect again.
  ASSERT_TRUE(b.submit(Action::do_nothing()).ok());
  ASSERT_EQ(b.decision_kind(), DecisionKind::MemberTurn);
  EXPECT_EQ(b.state().deselects, 0);
  b.legal_actions(options);
  EXPECT_EQ(std::count(options.begin(), options.end(), Action::deselect()), 1);
}

TEST(PartyDeselect, RandomPlayThatAlwaysPrefersDeselectStillEnds) {
  Battle b = test::start("meadow_walk", 2, meadow_pack());
  std::vector<Action> options;
  int steps = 0;
  while (b.status() == Status::AwaitingDecision) {
    ASSERT_LT(steps++, 2000) << "the battle did not end";
    b.legal_actions(options);
    const auto deselect = std::find(options.begin(), options.end(), Action::deselect());
    ASSERT_TRUE(b.submit(deselect != options.end() ? *deselect : options.front()).ok());
  }
  EXPECT_TRUE(b.is_battle_over());
}

}  // namespace
}  // namespace battlecore::party
