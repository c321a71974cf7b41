// Party replays through the generic machinery (battlecore/sim/replay.hpp with sim::PartyRules):
// recording and checking, a divergence named at its action, and the golden replay whose final
// hash is pinned.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/rng.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "battlecore/sim/replay.hpp"
#include "party_support.hpp"

namespace battlecore::sim {
namespace {

using nlohmann::json;
using R = PartyRules;
using party::test::meadow_pack;

/// A random battle played to its end and its replay.
Replay played(const BattleStart& start) {
  auto started = R::start(meadow_pack(), start);
  EXPECT_TRUE(started.ok());
  party::Battle& b = started.value();
  Rng rng = Rng::from_seed(start.seed);
  std::vector<party::Action> options;
  while (b.status() == Status::AwaitingDecision) {
    b.legal_actions(options);
    EXPECT_TRUE(b.submit(options[rng.below(static_cast<std::uint32_t>(options.size()))]).ok());
  }
  auto replay = record_replay<R>(meadow_pack(), start, b.actions());
  EXPECT_TRUE(replay.ok());
  EXPECT_EQ(replay.value().final_state_hash, b.state_hash());
  EXPECT_EQ(replay.value().rules, "party");
  return replay.value();
}

TEST(PartyReplay, EveryEncounterReplaysAndMatches) {
  for (const std::string& encounter : R::encounters(*meadow_pack())) {
    const Replay r = played({encounter, 17, {}});
    EXPECT_FALSE(r.actions.empty());
    const ReplayCheck check = check_replay<R>(meadow_pack(), r);
    EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << encounter << ": " << check.message;
  }
}

TEST(PartyReplay, AScenarioBattleReplaysFromItsScenario) {
  const json scenario = {{"encounter", "swamp"}, {"tp", 1}, {"members", {{{"hp", 3}}}}};
  const Replay r = played({"swamp", 5, scenario});
  EXPECT_EQ(check_replay<R>(meadow_pack(), r).kind, ReplayCheck::Kind::Match);
  Replay other = r;
  other.start.scenario["tp"] = 2;
  EXPECT_EQ(check_replay<R>(meadow_pack(), other).kind, ReplayCheck::Kind::Diverged);
}

TEST(PartyReplay, AChangedActionIsNamedAsTheDivergence) {
  Replay r = played({"meadow_walk", 3, {}});
  ASSERT_GE(r.actions.size(), 3u);
  // Replace action 2 by another legal one: play the first two, then pick a different option.
  auto started = R::start(meadow_pack(), r.start);
  ASSERT_TRUE(started.ok());
  party::Battle& b = started.value();
  for (std::size_t i = 0; i < 2; ++i) ASSERT_TRUE(b.submit(R::action_from_json(r.actions[i]).value()).ok());
  std::vector<party::Action> options;
  b.legal_actions(options);
  const party::Action recorded = R::action_from_json(r.actions[2]).value();
  const auto other =
      std::find_if(options.begin(), options.end(), [&](const auto& o) { return !(o == recorded); });
  ASSERT_NE(other, options.end());
  r.actions.set(2, R::action_to_json(b, *other));
  const ReplayCheck check = check_replay<R>(meadow_pack(), r);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Diverged) << check.message;
  ASSERT_TRUE(check.action.has_value());
  EXPECT_EQ(*check.action, 2u);
  EXPECT_EQ(check.exit_code(), 1);
}

// The golden party replay: a random battle in the seedling nest (reserves join) with every kind
// of action, recorded by `battlecore sim --rules party --encounter nest --battles 30 --seed 9
// --record DIR` (battle 12). Its final hash is pinned: a change of rules, content or random code
// that alters it must re-record it on purpose.
TEST(PartyReplay, TheGoldenReplayMatchesWithItsPinnedFinalHash) {
  const auto path = std::filesystem::path(BATTLECORE_GOLDEN_DIR) / "party_nest_seed9_battle12.replay.json";
  auto replay = read_replay(path);
  ASSERT_TRUE(replay.ok()) << replay.error().to_string();
  const Replay& r = replay.value();
  EXPECT_EQ(r.rules, "party");
  EXPECT_EQ(r.start.encounter, "nest");
  EXPECT_EQ(r.actions.size(), 49u);
  std::set<std::string> kinds;
  for (const json& a : r.actions) kinds.insert(a["type"].get<std::string>());
  EXPECT_EQ(kinds.size(), party::kActionKindCount) << "the golden replay uses every kind of action";
  EXPECT_EQ(content::hash_to_hex(r.final_state_hash), "89334ce937b6a784");
  const ReplayCheck check = check_replay<R>(meadow_pack(), r);
  EXPECT_EQ(check.kind, ReplayCheck::Kind::Match) << check.message;
  auto started = R::start(meadow_pack(), r.start);
  ASSERT_TRUE(started.ok());
  party::Battle& b = started.value();
  for (const json& a : r.actions) ASSERT_TRUE(b.submit(R::action_from_json(a).value()).ok());
  EXPECT_TRUE(b.is_battle_over());
  EXPECT_EQ(content::hash_to_hex(b.state_hash()), "89334ce937b6a784");
}

}  // namespace
}  // namespace battlecore::sim
