// Clash replays through the generic machinery (ClashRules): recording, checking, the first
// diverging action named, other content refused, and the golden clash replay whose final hash
// is pinned.

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/policies.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/replay.hpp"
#include "support/clash_pack.hpp"

namespace battlecore::sim {
namespace {

using R = ClashRules;
using nlohmann::json;
using test::classic;

/// A bots4 battle played to the end by the random policy: its start and actions.
std::vector<clash::Action> played(const BattleStart& start) {
  auto b = R::start(classic(), start);
  EXPECT_TRUE(b.ok());
  clash::RandomPolicy policy;
  policy.reset(3);
  std::vector<clash::Action> options;
  while (b.value().status() == Status::AwaitingDecision) {
    b.value().legal_actions(options);
    EXPECT_TRUE(b.value().submit(options[policy.pick(options.size())]).ok());
  }
  return b.value().actions();
}

TEST(ClashReplay, ARecordedBattleChecksAndAnEditedActionIsNamed) {
  const BattleStart start{"bots4", 21, {}};
  const auto actions = played(start);
  ASSERT_GT(actions.size(), 10u);
  auto replay = record_replay<R>(classic(), start, actions);
  ASSERT_TRUE(replay.ok()) << replay.error().message;
  EXPECT_EQ(replay.value().rules, "clash");
  EXPECT_EQ(replay.value().state_hashes.size(), actions.size());
  EXPECT_EQ(check_replay<R>(classic(), replay.value()).exit_code(), 0);
  // Through the file format too.
  const auto doc = replay_to_json(replay.value());
  content::JsonDocument text{"r.json", doc.dump(), json::parse(doc.dump())};
  auto back = replay_from_document(text);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(check_replay<R>(classic(), back.value()).exit_code(), 0);
  // A deck is a deckbuilder start: a clash replay with one does not start.
  Replay with_deck = replay.value();
  with_deck.start.deck = {"strike"};
  const ReplayCheck no_deck = check_replay<R>(classic(), with_deck);
  EXPECT_EQ(no_deck.exit_code(), 2);
  EXPECT_NE(no_deck.message.find("has no deck to start from"), std::string::npos) << no_deck.message;
  // A hash edited at action 5: that action is named.
  Replay edited = replay.value();
  edited.state_hashes[5] ^= 1;
  const ReplayCheck diverged = check_replay<R>(classic(), edited);
  EXPECT_EQ(diverged.exit_code(), 1);
  EXPECT_EQ(diverged.action, std::optional<std::size_t>(5));
  EXPECT_NE(diverged.message.find("action 5 "), std::string::npos) << diverged.message;
  // An action for another seat: refused, named.
  Replay wrong = replay.value();
  json first = wrong.actions[0];
  first["seat"] = (first["seat"].get<int>() + 1) % 4;
  wrong.actions.set(0, first);
  const ReplayCheck refused = check_replay<R>(classic(), wrong);
  EXPECT_EQ(refused.exit_code(), 1);
  EXPECT_NE(refused.message.find("action 0 "), std::string::npos);
  EXPECT_NE(refused.message.find("is refused"), std::string::npos) << refused.message;
  // Other content: exit 2.
  Replay other = replay.value();
  other.content_hash ^= 1;
  EXPECT_EQ(check_replay<R>(classic(), other).kind, ReplayCheck::Kind::ContentMismatch);
}

TEST(ClashReplay, ABattleFromAScenarioReplaysWithItsScenario) {
  const BattleStart start{"trio", 5,
                          json::parse(R"({"encounter": "trio", "round": 3, "seats": [{"health": 1}]})")};
  auto replay = record_replay<R>(classic(), start, played(start));
  ASSERT_TRUE(replay.ok()) << replay.error().message;
  EXPECT_EQ(check_replay<R>(classic(), replay.value()).exit_code(), 0);
}

// The golden clash replay, recorded once and checked in: its final hash must come out the same
// in Debug, Release and sanitizer builds, on any machine. Recorded from a `battlecore sim --rules
// clash --encounter classic --battles 1 --seed 12 --record DIR` battle (73 actions: rolls, rocks
// and cards of the human seat and three bots) by an earlier simulator, which seeded the seats'
// policies otherwise; the simulator now seeds each seat's policy on its own, so the command plays
// another battle. Its actions are fixed: when a rule changes on purpose, its hashes are recorded again
// by replaying them (record_replay).
TEST(ClashReplay, TheGoldenClashReplayReproducesItsPinnedFinalHash) {
  const auto path = std::filesystem::path(BATTLECORE_GOLDEN_DIR) / "clash_classic_seed12_battle0.replay.json";
  auto replay = read_replay(path);
  ASSERT_TRUE(replay.ok()) << replay.error().to_string();
  constexpr std::uint64_t kPinned = 0x0c0becb76e97210eull;
  EXPECT_EQ(replay.value().final_state_hash, kPinned);
  EXPECT_EQ(replay.value().actions.size(), 73u);
  const ReplayCheck check = check_replay<R>(classic(), replay.value());
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << check.message;
  std::vector<clash::Action> actions;
  for (const json& a : replay.value().actions) actions.push_back(R::action_from_json(a).value());
  auto again = record_replay<R>(classic(), replay.value().start, actions);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().final_state_hash, kPinned);
}

}  // namespace
}  // namespace battlecore::sim
