// Clash snapshots: a battle paused on each kind of decision (roll, rock, card) restores equal,
// with the same hash and snapshot, and continues identically; bad snapshots are refused with
// their pointer.

#include "battlecore/clash/snapshot.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/policies.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::clash {
namespace {

using nlohmann::json;
using test::classic;

/// A classic battle (seed 5) played by the first option until the deciding step is `step`.
Battle battle_at(TurnStep step, std::string_view encounter = "classic") {
  Battle b(classic());
  EXPECT_TRUE(b.start_battle(encounter, 5).ok());
  std::vector<Action> options;
  for (int i = 0; i < 400 && b.status() == Status::AwaitingDecision && b.state().step != step; ++i) {
    b.legal_actions(options);
    EXPECT_TRUE(b.submit(options[static_cast<std::size_t>(i) % options.size()]).ok());
  }
  EXPECT_EQ(b.state().step, step);
  return b;
}

/// Plays both battles on with the same options, comparing them after every action.
void expect_same_continuation(Battle& a, Battle& b) {
  std::vector<Action> options;
  RandomPolicy policy;
  policy.reset(77);
  for (int i = 0; i < 2000 && a.status() == Status::AwaitingDecision; ++i) {
    a.legal_actions(options);
    const Action pick = options[policy.pick(options.size())];
    ASSERT_TRUE(a.submit(pick).ok());
    ASSERT_TRUE(b.submit(pick).ok());
    ASSERT_EQ(a.state_hash(), b.state_hash()) << "after action " << i;
  }
  EXPECT_TRUE(a.is_battle_over());
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.events().log(), b.events().log());
}

class ClashSnapshotAt : public ::testing::TestWithParam<TurnStep> {};

TEST_P(ClashSnapshotAt, RestoresAnEqualBattleThatContinuesIdentically) {
  Battle original = battle_at(GetParam());
  const json snap = snapshot(original);
  EXPECT_EQ(snap["format"], "battlecore-snapshot");
  EXPECT_EQ(snap["format_version"], kSnapshotFormatVersion);
  EXPECT_EQ(snap["rules"], "clash");
  auto restored = restore(classic(), snap);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  Battle copy = std::move(restored).value();
  EXPECT_TRUE(copy == original);
  EXPECT_EQ(copy.state_hash(), original.state_hash());
  EXPECT_EQ(snapshot(copy), snap);
  EXPECT_EQ(copy.decision().options, original.decision().options);
  // Through text too: what a file holds.
  auto reread = restore(classic(), json::parse(snap.dump()));
  ASSERT_TRUE(reread.ok()) << reread.error().message;
  EXPECT_TRUE(reread.value() == original);
  expect_same_continuation(original, copy);
}

INSTANTIATE_TEST_SUITE_P(EveryDecisionKind, ClashSnapshotAt,
                         ::testing::Values(TurnStep::Roll, TurnStep::Rock, TurnStep::Card));

TEST(ClashSnapshot, OfAFinishedBattleAndOfAListedDeckBattle) {
  for (const char* encounter : {"duel", "listed_deck"}) {
    Battle b = battle_at(TurnStep::None, encounter);
    ASSERT_TRUE(b.is_battle_over()) << encounter;
    auto restored = restore(classic(), snapshot(b));
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    EXPECT_TRUE(restored.value() == b) << encounter;
    EXPECT_EQ(restored.value().state_hash(), b.state_hash());
  }
}

TEST(ClashSnapshot, ARollWithAStrayValueIsRecordedInItsCanonicalFormAndRestoresEqual) {
  Battle b = battle_at(TurnStep::Roll);
  const SeatRef seat = b.state().current;
  ASSERT_TRUE(b.submit(Action{ActionKind::Roll, seat, 9}).ok());
  ASSERT_FALSE(b.actions().empty());
  EXPECT_EQ(b.actions().back(), Action::roll(seat));
  auto restored = restore(classic(), snapshot(b));
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_TRUE(restored.value() == b);
}

TEST(ClashSnapshot, AClonePlaysOnWithoutTouchingTheOriginal) {
  Battle original = battle_at(TurnStep::Rock);
  const std::uint64_t hash = original.state_hash();
  Battle clone = original;
  std::vector<Action> options;
  clone.legal_actions(options);
  ASSERT_TRUE(clone.submit(options[0]).ok());
  EXPECT_NE(clone.state_hash(), hash);
  EXPECT_EQ(original.state_hash(), hash);
  EXPECT_FALSE(clone == original);
}

std::string refusal(json snap) {
  auto r = restore(classic(), snap);
  return r.ok() ? "accepted" : r.error().message;
}

TEST(ClashSnapshot, RefusesAnotherVersionFormatRuleSetOrContentAndBadFields) {
  const json snap = snapshot(battle_at(TurnStep::Card));
  json v2 = snap;
  v2["format_version"] = 2;
  EXPECT_EQ(refusal(v2),
            "snapshot refused: /format_version: snapshot format version 2 is not supported; this engine "
            "reads version 1");
  json other = snap;
  other["format"] = "battlecore-replay";
  EXPECT_NE(refusal(other).find("/format: expected \"battlecore-snapshot\""), std::string::npos);
  json rules = snap;
  rules["rules"] = "deckbuilder";
  EXPECT_NE(refusal(rules).find("/rules: the snapshot is of rule set 'deckbuilder', not 'clash'"),
            std::string::npos);
  json content = snap;
  content["content_hash"] = "0000000000000000";
  EXPECT_NE(refusal(content).find("/content_hash:"), std::string::npos);
  json card = snap;
  card["state"]["seats"][1]["hand"][0] = json::array({"plasma", 3});
  EXPECT_EQ(refusal(card), "snapshot refused: /state/seats/1/hand/0/0: unknown value 'plasma'");
  json value = snap;
  value["state"]["seats"][0]["hand"][0][1] = 11;
  EXPECT_EQ(refusal(value),
            "snapshot refused: /state/seats/0/hand/0/1: expected an integer in [1, 10], got 11");
  json seats = snap;
  seats["state"]["seats"].erase(0);
  EXPECT_NE(refusal(seats).find("/state/seats: expected 4 seats"), std::string::npos);
  json missing = snap;
  missing["state"].erase("round");
  EXPECT_EQ(refusal(missing), "snapshot refused: /state: missing key 'round'");
  json rock = snap;
  rock["state"]["seats"][2]["rock"] = 18;
  EXPECT_EQ(refusal(rock), "snapshot refused: /state/seats/2/rock: expected an integer in [0, 17], got 18");
  json event = snap;
  event["events"][0][0] = "Exploded";
  EXPECT_EQ(refusal(event), "snapshot refused: /events/0/0: unknown event type");
}

}  // namespace
}  // namespace battlecore::clash
