// The party rule set in the monitor's JSON API: starting battles, the three kinds of decision
// (a member's turn, the companion, a block) with their controls' data, refused and malformed
// actions (nothing changes), the end of a battle, and replays.

#include "battlecore/monitor/party_adapter.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "party/party_support.hpp"
#include "support/monitor_api.hpp"

namespace battlecore::test {
namespace {

using nlohmann::json;
namespace pt = battlecore::party;

class MonitorParty : public MonitorRuleSetApi {
 protected:
  MonitorParty() : MonitorRuleSetApi(monitor::make_party_adapter(pt::test::meadow_pack())) {}
};

std::string hex(std::uint64_t h) { return fmt::format("{:016x}", h); }

TEST_F(MonitorParty, StartsABattleEqualToTheDirectOne) {
  const json o = create({{"rules", "party"}, {"seed", 5}});
  EXPECT_EQ(o["encounter"], "meadow_walk");
  const pt::Battle direct = pt::test::start("meadow_walk", 5, pt::test::meadow_pack());
  EXPECT_EQ(o["state_hash"], hex(direct.state_hash()));
  EXPECT_EQ(o["events"], direct.events().log().size());
  const json& s = o["state"];
  EXPECT_EQ(s["rules"], "party");
  EXPECT_EQ(s["over"], false);
  EXPECT_TRUE(s["won"].is_null());
  EXPECT_TRUE(s["result"].is_null());
  EXPECT_EQ(s["tp"], direct.state().tp);
  ASSERT_EQ(s["members"].size(), direct.state().members.size());
  EXPECT_EQ(s["enemies"].size(), direct.state().enemies.size());
  EXPECT_EQ(s["companion"]["name"], "Chompy");
  EXPECT_EQ(s["ally"]["name"], "Ant Scout");
  for (const json& it : s["items"]) EXPECT_FALSE(it["name"].get<std::string>().empty());
  // The decision: the selected member's turn, its skills and the items with their checks.
  const json& d = o["decision"];
  EXPECT_EQ(d["kind"], "member_turn");
  EXPECT_EQ(d["member"], direct.state().current);
  std::size_t selected = 0;
  for (const json& m : s["members"]) selected += m["selected"].get<bool>() ? 1 : 0;
  EXPECT_EQ(selected, 1u);
  EXPECT_FALSE(d["skills"].empty());
  for (const json& sk : d["skills"]) {
    const bool offered = std::any_of(d["options"].begin(), d["options"].end(), [&](const json& opt) {
      return opt["action"]["type"] == "skill" && opt["action"]["index"] == sk["index"];
    });
    EXPECT_EQ(sk["offered"], offered);
    EXPECT_EQ(sk["reason"].get<std::string>().empty(), offered);
  }
  EXPECT_EQ(d["items"].size(), s["items"].size());
  EXPECT_EQ(d["options"].size(), direct.decision().options.size());
  for (const json& opt : d["options"]) EXPECT_FALSE(opt["label"].get<std::string>().empty());
  // Every event has its type.
  const Reply events = get(client_, "/api/battles/" + o["id"].get<std::string>() + "/events?since=0");
  ASSERT_EQ(events.status, 200);
  for (const json& e : events.body["items"]) EXPECT_TRUE(e.contains("type")) << e.dump();
}

TEST_F(MonitorParty, PlaysMemberTurnsTheCompanionAndBlocksLikeTheDirectBattle) {
  const json o = create({{"rules", "party"}, {"encounter", "meadow_walk"}, {"seed", 3}});
  const std::string id = o["id"];
  pt::Battle direct = pt::test::start("meadow_walk", 3, pt::test::meadow_pack());
  std::set<std::string> kinds;
  for (int i = 0; i < 60; ++i) {
    const json now = overview(id);
    if (now["state"]["over"].get<bool>()) break;
    const json& d = now["decision"];
    kinds.insert(d["kind"].get<std::string>());
    if (d["kind"] == "block") {
      ASSERT_TRUE(d.contains("block"));
      EXPECT_FALSE(d["block"]["enemy"].get<std::string>().empty());
      EXPECT_EQ(d["options"].size(), 3u);
    }
    if (d["kind"] != "member_turn") {
      EXPECT_TRUE(d["skills"].empty());
      EXPECT_TRUE(d["member"].is_null());
    }
    // The first option: an attack on the first enemy, the companion's attack, no block.
    const Reply r = act(id, {{"index", 0}});
    ASSERT_EQ(r.status, 200) << r.body.dump();
    ASSERT_TRUE(direct.submit(direct.decision().options[0]).ok());
    ASSERT_EQ(r.body["state_hash"], hex(direct.state_hash())) << "step " << i;
  }
  EXPECT_TRUE(kinds.count("member_turn"));
  EXPECT_TRUE(kinds.count("companion"));
  EXPECT_TRUE(kinds.count("block"));
  const json end = overview(id);
  ASSERT_TRUE(end["state"]["over"].get<bool>()) << "the meadow walk ends within 60 decisions";
  EXPECT_EQ(end["state"]["won"], direct.won());
  EXPECT_EQ(end["state"]["result"], direct.won() ? "victory" : "defeat");
  const Reply events = get(client_, "/api/battles/" + id + "/events?since=0");
  EXPECT_EQ(events.body["items"].back()["type"], "BattleEnded");
}

TEST_F(MonitorParty, RefusesIllegalActionsAndChangesNothing) {
  const json o = create({{"rules", "party"}, {"encounter", "beetle_den"}, {"seed", 2}});
  const std::string id = o["id"];
  expect_refused(act(id, {{"action", {{"type", "flee"}}}}), 422, "flee_not_allowed");
  expect_refused(act(id, {{"action", {{"type", "block"}, {"index", 1}}}}), 422, "not_your_decision");
  expect_refused(act(id, {{"action", {{"type", "companion_pass"}}}}), 422, "not_your_decision");
  expect_refused(act(id, {{"action", {{"type", "attack"}, {"target", 9}}}}), 422, "invalid_target");
  expect_refused(act(id, {{"action", {{"type", "skill"}, {"index", 40}, {"target", 0}}}}), 422,
                 "invalid_option");
  expect_refused(act(id, {{"action", {{"type", "item"}, {"index", 40}, {"target", 0}}}}), 422,
                 "invalid_option");
  expect_refused(act(id, {{"index", 999}}), 422, "invalid_option");
  expect_unchanged(o);
  expect_refused(act(id, {{"action", {{"type", "attack"}}}}), 400, "bad_action");
  expect_refused(act(id, {{"action", {{"type", "skill"}, {"target", 0}}}}), 400, "bad_action");
  expect_refused(act(id, {{"action", {{"type", "teleport"}}}}), 400, "bad_action");
  expect_refused(act(id, {{"action", 7}}), 400, "bad_action");
  expect_refused(act(id, {{"index", -1}}), 400, "bad_request");
  expect_refused(post(client_, "/api/battles/" + id + "/actions", std::string("[]")), 400, "bad_request");
  expect_unchanged(o);
  expect_refused(post(client_, "/api/battles", json{{"rules", "party"}, {"encounter", "volcano"}}), 422,
                 "unknown_encounter");
  expect_refused(post(client_, "/api/battles", json{{"rules", "party"}, {"seed", -1}}), 400, "bad_request");
}

TEST_F(MonitorParty, FleeingEndsTheBattleAsFled) {
  const json o = create({{"rules", "party"}, {"encounter", "swamp"}, {"seed", 4}});
  const std::string id = o["id"];
  json now = o;
  for (int i = 0; i < 40 && !now["state"]["over"].get<bool>(); ++i) {
    const json& d = now["decision"];
    json action = d["options"][0]["action"];
    for (const json& opt : d["options"])
      if (opt["action"]["type"] == "flee" || opt["action"]["type"] == "companion_pass")
        action = opt["action"];
    const Reply r = act(id, {{"action", action}});
    ASSERT_EQ(r.status, 200) << r.body.dump();
    now = r.body;
  }
  ASSERT_TRUE(now["state"]["over"].get<bool>());
  EXPECT_EQ(now["state"]["result"], "fled");
  EXPECT_EQ(now["state"]["phase"], "Fled");
  EXPECT_EQ(now["state"]["won"], false);
  expect_refused(act(id, {{"action", {{"type", "do_nothing"}}}}), 422, "battle_over");
  // The replay of the battle ends in the same state.
  const Reply snap = get(client_, "/api/battles/" + id + "/snapshot");
  const Reply replay = post(client_, "/api/replays", snap.body);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  EXPECT_EQ(replay.body["state_hash"], now["state_hash"]);
  const Reply members = get(client_, "/api/battles/" + id + "/detail/members");
  ASSERT_EQ(members.status, 200);
  EXPECT_EQ(members.body["members"].size(), now["state"]["members"].size());
}

}  // namespace
}  // namespace battlecore::test
