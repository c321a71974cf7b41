// The monitor's JSON API, over HTTP on loopback: every endpoint, good and bad requests. The
// battle behind the API is checked against the same battle driven directly.

#include "battlecore/monitor/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "support/innate_pack.hpp"
#include "support/monitor_server.hpp"

namespace battlecore::test {
namespace {

using nlohmann::json;
namespace db = battlecore::deckbuilder;

std::string hex(std::uint64_t h) { return fmt::format("{:016x}", h); }

/// The same battle, driven directly.
db::Battle direct_battle(const std::string& encounter, std::uint64_t seed) {
  db::Battle b(starter());
  EXPECT_TRUE(b.start_battle(encounter, seed).ok());
  return b;
}

class MonitorApi : public ::testing::Test {
 protected:
  MonitorServer server_;
  httplib::Client client_ = server_.client();

  std::string create(const std::string& encounter = "w1", std::uint64_t seed = 7) {
    const Reply r = post(client_, "/api/battles",
                         json{{"rules", "deckbuilder"}, {"encounter", encounter}, {"seed", seed}});
    EXPECT_EQ(r.status, 201) << r.body.dump();
    return r.body.value("id", "");
  }
};

void expect_error(const Reply& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body.dump();
  ASSERT_TRUE(r.body.is_object()) << "the error body is not JSON";
  EXPECT_EQ(r.body.value("error", ""), code) << r.body.dump();
  EXPECT_FALSE(r.body.value("message", "").empty());
}

TEST(MonitorHost, LoopbackNamesAreRecognised) {
  EXPECT_TRUE(monitor::is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(monitor::is_loopback_host("127.1.2.3"));
  EXPECT_TRUE(monitor::is_loopback_host("localhost"));
  EXPECT_TRUE(monitor::is_loopback_host("::1"));
  EXPECT_FALSE(monitor::is_loopback_host("0.0.0.0"));
  EXPECT_FALSE(monitor::is_loopback_host("192.168.1.10"));
  EXPECT_FALSE(monitor::is_loopback_host("::"));
}

TEST_F(MonitorApi, ServesTheEmbeddedPage) {
  const auto index = client_.Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_NE(index->get_header_value("Content-Type").find("text/html"), std::string::npos);
  EXPECT_NE(index->body.find("battlecore monitor"), std::string::npos);
  for (const char* file :
       {"/app.js", "/graph.js", "/kit.js", "/deckbuilder.js", "/clash.js", "/party.js", "/style.css"}) {
    const auto r = client_.Get(file);
    ASSERT_TRUE(r) << file;
    EXPECT_EQ(r->status, 200) << file;
    EXPECT_GT(r->body.size(), 500u) << file;
  }
  EXPECT_NE(client_.Get("/app.js")->get_header_value("Content-Type").find("javascript"), std::string::npos);
}

TEST_F(MonitorApi, NoRequestReadsAFile) {
  for (const char* path : {"/index.html/../CMakeLists.txt", "/../../etc/passwd", "/etc/passwd",
                           "/src/monitor/page/app.js", "/%2e%2e/%2e%2e/etc/passwd"})
    expect_error(get(client_, path), 404, "not_found");
}

TEST_F(MonitorApi, PagePathsMatchOnlyThemselves) {
  // A route's dot is a dot, not any character.
  for (const char* path : {"/styleXcss", "/appXjs", "/graph-js", "/index.html"})
    expect_error(get(client_, path), 404, "not_found");
  EXPECT_EQ(get(client_, "/style.css").status, 200);
}

TEST_F(MonitorApi, OtherMethodsAreNotAllowed) {
  const auto put = client_.Put("/api/battles", "{}", "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->get_header_value("Allow"), "GET, HEAD, POST");  // the methods of that path
  expect_error(reply_of(put), 405, "method_not_allowed");
  const auto options = client_.Options("/nowhere");
  ASSERT_TRUE(options);
  EXPECT_EQ(options->get_header_value("Allow"), "GET, HEAD, POST, DELETE");  // every route's
  expect_error(reply_of(client_.Put("/api/battles")), 405, "method_not_allowed");
  expect_error(reply_of(client_.Patch("/api/battles/b1-0000", "{}", "application/json")), 405,
               "method_not_allowed");
  expect_error(reply_of(client_.Patch("/nowhere")), 405, "method_not_allowed");
  expect_error(reply_of(client_.Options("/")), 405, "method_not_allowed");
  // The connection still serves the next request.
  EXPECT_EQ(get(client_, "/api/battles").status, 200);
}

TEST_F(MonitorApi, AMethodAPathDoesNotTakeIsAnsweredWithTheMethodsItTakes) {
  const std::string id = create();
  const struct {
    std::string path;
    std::string allow;
  } cases[] = {{"/api/rules", "GET, HEAD"},
               {"/api/rules/deckbuilder/graph", "GET, HEAD"},
               {"/api/battles", "GET, HEAD, POST"},
               {"/api/battles/" + id, "GET, HEAD, DELETE"},
               {"/api/battles/" + id + "/actions", "GET, HEAD, POST"},
               {"/api/battles/" + id + "/seek", "POST"},
               {"/api/replays", "POST"},
               {"/", "GET, HEAD"},
               {"/style.css", "GET, HEAD"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    for (const std::string method : {"GET", "POST", "DELETE"}) {
      if (c.allow.find(method) != std::string::npos) continue;
      const auto r = method == "GET"    ? client_.Get(c.path.c_str())
                     : method == "POST" ? client_.Post(c.path.c_str(), "{}", "application/json")
                                        : client_.Delete(c.path.c_str());
      ASSERT_TRUE(r) << method;
      EXPECT_EQ(r->get_header_value("Allow"), c.allow) << method;
      expect_error(reply_of(r), 405, "method_not_allowed");
      EXPECT_NE(reply_of(r).body.value("message", "").find(c.path + " takes " + c.allow + ", not " + method),
                std::string::npos)
          << reply_of(r).body.dump();
    }
  }
  // A path no route takes is still 404, whatever the method; the battle is still there.
  expect_error(reply_of(client_.Delete("/api/nothing")), 404, "not_found");
  expect_error(reply_of(client_.Post("/api/battles/" + id + "/nothing", "{}", "application/json")), 404,
               "not_found");
  EXPECT_EQ(get(client_, "/api/battles/" + id).status, 200);
}

// A refused request's body is read all the same: on a kept-alive connection its bytes would
// otherwise be taken for the next request.
TEST_F(MonitorApi, ARefusedMethodsBodyDoesNotSpoilTheNextRequestOnTheConnection) {
  httplib::Client kept = server_.client();
  kept.set_keep_alive(true);
  const std::string body = "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n";
  for (const std::string method : {"PUT", "PATCH"}) {
    SCOPED_TRACE(method);
    const auto refused = method == "PUT" ? kept.Put("/api/battles", body, "text/plain")
                                         : kept.Patch("/api/battles", body, "text/plain");
    ASSERT_TRUE(refused);
    expect_error(reply_of(refused), 405, "method_not_allowed");
    const Reply next = get(kept, "/api/rules");
    EXPECT_EQ(next.status, 200) << next.body.dump();
    EXPECT_TRUE(next.body.contains("rules")) << next.body.dump();
  }
}

TEST_F(MonitorApi, ListsRuleSetsWithTheirEncounters) {
  const Reply r = get(client_, "/api/rules");
  ASSERT_EQ(r.status, 200);
  ASSERT_EQ(r.body["rules"].size(), 1u);
  const json& d = r.body["rules"][0];
  EXPECT_EQ(d["rules"], "deckbuilder");
  EXPECT_EQ(d["default_encounter"], "w1");
  EXPECT_EQ(d["encounters"].size(), starter()->encounters.size());
}

TEST_F(MonitorApi, PhaseGraphComesFromTheMachineTable) {
  const Reply r = get(client_, "/api/rules/deckbuilder/graph");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body["phases"].size(), db::Machine::kPhaseNames.size());
  EXPECT_EQ(r.body["edges"].size(), db::Machine::kTransitions.size());
  EXPECT_EQ(r.body["initial"], "None");
  EXPECT_EQ(r.body["terminal"], (json{"BattleWon", "BattleLost"}));
  EXPECT_EQ(r.body["edges"][0],
            (json{{"from", "None"}, {"trigger", "StartRequested"}, {"to", "Initialize"}}));
  expect_error(get(client_, "/api/rules/chess/graph"), 404, "unknown_rules");
}

TEST_F(MonitorApi, CreatesABattleEqualToTheDirectOne) {
  const Reply r =
      post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"encounter", "w1"}, {"seed", 7}});
  ASSERT_EQ(r.status, 201) << r.body.dump();
  const db::Battle direct = direct_battle("w1", 7);
  EXPECT_EQ(r.body["state_hash"], hex(direct.state_hash()));
  EXPECT_EQ(r.body["rules"], "deckbuilder");
  EXPECT_EQ(r.body["mode"], "live");
  EXPECT_EQ(r.body["state"]["phase"], "PlayerPhase");
  EXPECT_EQ(r.body["state"]["rules"], "deckbuilder");
  EXPECT_EQ(r.body["events"], direct.events().log().size());
  EXPECT_EQ(r.body["transitions"], direct.history().size());
  // Defaults: the pack's default encounter and seed 1.
  const Reply d = post(client_, "/api/battles", json{{"rules", "deckbuilder"}});
  ASSERT_EQ(d.status, 201);
  EXPECT_EQ(d.body["encounter"], "w1");
  EXPECT_EQ(d.body["state_hash"], hex(direct_battle("w1", 1).state_hash()));
  EXPECT_NE(d.body["id"], r.body["id"]);
}

TEST_F(MonitorApi, RefusesBadCreateRequests) {
  expect_error(post(client_, "/api/battles", std::string("{\"rules\": ")), 400, "malformed_json");
  expect_error(post(client_, "/api/battles", std::string("[1, 2]")), 400, "bad_request");
  expect_error(post(client_, "/api/battles", json::object()), 400, "bad_request");
  expect_error(post(client_, "/api/battles", json{{"rules", 3}}), 400, "bad_request");
  expect_error(post(client_, "/api/battles", json{{"rules", "chess"}}), 404, "unknown_rules");
  expect_error(post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"encounter", "nowhere"}}), 422,
               "unknown_encounter");
  expect_error(post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", -4}}), 400,
               "bad_request");
  expect_error(post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", "x"}}), 400,
               "bad_request");
  // An empty encounter id is refused, as `--encounter ''` is (it started the default encounter).
  const Reply empty = post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"encounter", ""}});
  expect_error(empty, 400, "bad_request");
  EXPECT_EQ(empty.body.value("message", ""),
            "\"encounter\" must be an encounter id (left out: the pack's default)");
  // Every seed that is not one gets the same message (a number that is not a whole one had
  // another, shorter one).
  for (const json& seed :
       {json(-4), json(1.0), json(nullptr), json("x"), json("-1"), json("18446744073709551616")}) {
    SCOPED_TRACE(seed.dump());
    const Reply r = post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", seed}});
    expect_error(r, 400, "bad_request");
    EXPECT_EQ(r.body.value("message", ""),
              "\"seed\" must be an integer from 0 to 2^64 - 1, or its decimal digits as a string");
  }
  // A misspelt key was ignored: the battle started with seed 1.
  const Reply misspelt = post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"sead", 7}});
  expect_error(misspelt, 400, "bad_request");
  EXPECT_EQ(misspelt.body.value("message", ""),
            "unknown key 'sead' in the request body; allowed keys: rules, encounter, seed");
  EXPECT_EQ(get(client_, "/api/battles").body["battles"].size(), 0u);
}

TEST_F(MonitorApi, BodiesThatAreNotUtf8AreMalformedJson) {
  // The parser's message quotes the bytes it stopped at; the reply must still be JSON.
  for (const std::string& body :
       {std::string("{\"rules\": \"\xff\"}"), std::string("{\"\xc3\x28\": 1}"), std::string("\xfe\xff")}) {
    const Reply r = post(client_, "/api/battles", body);
    expect_error(r, 400, "malformed_json");
  }
  EXPECT_EQ(get(client_, "/api/battles").body["battles"].size(), 0u);
}

TEST_F(MonitorApi, BodiesAreReadWhateverTheirContentType) {
  // curl -d sends application/x-www-form-urlencoded; such a body is still the request's JSON,
  // at any size up to the limit (httplib alone refuses a form over 8 KiB).
  const std::string big = "{\"rules\": \"deckbuilder\", \"seed\": 5}" + std::string(20'000, ' ');
  for (const char* type : {"application/x-www-form-urlencoded", "text/plain", "application/json"}) {
    const Reply r = reply_of(client_.Post("/api/battles", big, type));
    EXPECT_EQ(r.status, 201) << type << ": " << r.body.dump();
    EXPECT_EQ(r.body["seed"], 5) << type;
  }
  // No route takes a multipart form.
  const httplib::MultipartFormDataItems form = {{"rules", "deckbuilder", "", ""}};
  expect_error(reply_of(client_.Post("/api/battles", form)), 415, "unsupported_media_type");
  EXPECT_EQ(get(client_, "/api/battles").body["battles"].size(), 3u);
}

TEST_F(MonitorApi, SeedsMayBeGivenAsDecimalStrings) {
  const Reply top =
      post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", "18446744073709551615"}});
  ASSERT_EQ(top.status, 201) << top.body.dump();
  EXPECT_EQ(top.body["seed"].get<std::uint64_t>(), 18446744073709551615u);
  EXPECT_EQ(top.body["state_hash"], hex(direct_battle("w1", 18446744073709551615u).state_hash()));
  for (const char* seed : {"18446744073709551616", "-1", " 1", "", "1e3", "0x10"})
    expect_error(post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", seed}}), 400,
                 "bad_request");
}

// A hand card carries its cost now and whether it costs X; an X-cost card's cost is the energy it
// would take.
TEST_F(MonitorApi, HandCardsCarryTheirCostAndWhetherTheyCostX) {
  const db::CardId whirlwind = *starter()->find_card("whirlwind");
  const auto holds_whirlwind = [&](const db::Battle& b) {
    return std::any_of(b.state().hand().begin(), b.state().hand().end(),
                       [&](db::CardRef c) { return b.state().cards[c].def == whirlwind; });
  };
  std::uint64_t seed = 1;
  while (seed < 500 && !holds_whirlwind(direct_battle("imp_swarm", seed))) ++seed;
  ASSERT_LT(seed, 500u) << "no opening hand of the bastion's holds Whirlwind";
  const db::Battle direct = direct_battle("imp_swarm", seed);
  const Reply state = get(client_, "/api/battles/" + create("imp_swarm", seed) + "/state");
  ASSERT_EQ(state.status, 200);
  ASSERT_EQ(state.body["hand"].size(), direct.state().hand().size());
  int x_cards = 0;
  for (const json& card : state.body["hand"]) {
    const auto ref = card["card"].get<db::CardRef>();
    const bool x = starter()->cards[direct.state().cards[ref].def].x_cost();
    EXPECT_EQ(card["x_cost"], x) << card.dump();
    EXPECT_EQ(card["cost"], x ? direct.state().energy : direct.effective_cost(ref)) << card.dump();
    x_cards += x ? 1 : 0;
  }
  EXPECT_EQ(x_cards, 1) << "the bastion's one Whirlwind";
}

TEST_F(MonitorApi, StateAndLegalActionsMatchTheDirectBattle) {
  const std::string id = create("sludge_pair", 3);
  const db::Battle direct = direct_battle("sludge_pair", 3);
  const Reply state = get(client_, "/api/battles/" + id + "/state");
  ASSERT_EQ(state.status, 200);
  json expected = db::state_view(direct);
  EXPECT_EQ(state.body["hand"].size(), expected["hand"].size());
  EXPECT_EQ(state.body["player"], expected["player"]);
  EXPECT_EQ(state.body["draw_pile"], expected["draw_pile"]);
  EXPECT_EQ(state.body["enemies"].size(), 2u);
  EXPECT_TRUE(state.body["enemies"][0]["intent"].contains("name"));

  const Reply actions = get(client_, "/api/battles/" + id + "/actions");
  ASSERT_EQ(actions.status, 200);
  const db::Decision d = direct.decision();
  ASSERT_EQ(actions.body["options"].size(), d.options.size());
  for (std::size_t i = 0; i < d.options.size(); ++i) {
    EXPECT_EQ(actions.body["options"][i]["index"], i);
    EXPECT_EQ(actions.body["options"][i]["label"], db::action_label(direct, d.options[i]));
    EXPECT_EQ(db::action_from_json(actions.body["options"][i]["action"]).value(), d.options[i]);
  }
  // One play check per card in hand, playable exactly when an option plays it.
  ASSERT_EQ(actions.body["cards"].size(), direct.state().hand().size());
  for (const json& c : actions.body["cards"]) {
    const auto ref = c["card"].get<db::CardRef>();
    EXPECT_EQ(c["playable"].get<bool>(), direct.can_play_card(ref) == db::PlayCheck::Ok);
    EXPECT_EQ(c["reason"].get<std::string>().empty(), c["playable"].get<bool>());
  }
}

TEST_F(MonitorApi, SubmitsActionsByIndexAndByValue) {
  const std::string id = create("w1", 11);
  db::Battle direct = direct_battle("w1", 11);

  Reply r = post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  ASSERT_TRUE(direct.submit(direct.decision().options[0]).ok());
  EXPECT_EQ(r.body["state_hash"], hex(direct.state_hash()));

  r = post(client_, "/api/battles/" + id + "/actions", json{{"action", {{"type", "end_turn"}}}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  ASSERT_TRUE(direct.submit(db::Action::end_turn()).ok());
  EXPECT_EQ(r.body["state_hash"], hex(direct.state_hash()));
  EXPECT_EQ(r.body["actions"], 2);
  EXPECT_EQ(r.body["state"]["turn"], 2);
}

TEST_F(MonitorApi, RefusesIllegalActionsAndChangesNothing) {
  const std::string id = create("w1", 5);
  const std::string before = get(client_, "/api/battles/" + id).body["state_hash"];
  const std::string path = "/api/battles/" + id + "/actions";
  // A card instance that is not in the hand.
  const db::Battle direct = direct_battle("w1", 5);
  db::CardRef absent = 0;
  while (std::find(direct.state().hand().begin(), direct.state().hand().end(), absent) !=
         direct.state().hand().end())
    ++absent;
  expect_error(post(client_, path, json{{"action", {{"type", "play_card"}, {"card", absent}}}}), 422,
               "cannot_play_card");
  expect_error(post(client_, path, json{{"action", {{"type", "take_reward"}, {"index", 0}}}}), 422,
               "not_your_decision");
  expect_error(post(client_, path, json{{"action", {{"type", "dance"}}}}), 400, "bad_action");
  expect_error(post(client_, path, json{{"action", 5}}), 400, "bad_action");
  expect_error(post(client_, path, json{{"index", 99}}), 422, "invalid_option");
  expect_error(post(client_, path, json{{"index", -1}}), 400, "bad_request");
  expect_error(post(client_, path, json{{"nothing", 1}}), 400, "bad_request");
  // Both, or a key besides them: the action was taken and the rest ignored.
  const Reply both = post(client_, path, json{{"action", {{"type", "end_turn"}}}, {"index", 0}});
  expect_error(both, 400, "bad_request");
  EXPECT_EQ(both.body.value("message", ""), "give \"action\" or \"index\", not both");
  const Reply extra = post(client_, path, json{{"index", 0}, {"target", 1}});
  expect_error(extra, 400, "bad_request");
  EXPECT_EQ(extra.body.value("message", ""),
            "unknown key 'target' in the request body; allowed keys: action, index");
  expect_error(post(client_, path, std::string("not json")), 400, "malformed_json");
  const Reply bogus = post(client_, path, json{{"action", {{"type", "end_turn"}, {"bogus", 1}}}});
  expect_error(bogus, 400, "bad_action");
  EXPECT_EQ(bogus.body.value("message", ""), "unknown key 'bogus'; allowed keys: type");
  // Nesting past content::kMaxJsonDepth, as a content file may not have it either.
  const Reply deep =
      post(client_, path, "{\"action\": " + std::string(50'000, '[') + std::string(50'000, ']') + "}");
  expect_error(deep, 400, "malformed_json");
  EXPECT_NE(deep.body.value("message", "").find("nesting deeper than 256 levels"), std::string::npos)
      << deep.body.dump();
  const Reply twice = post(client_, path, std::string(R"({"index": 0, "index": 1})"));
  expect_error(twice, 400, "malformed_json");
  EXPECT_NE(twice.body.value("message", "").find("duplicate key 'index'"), std::string::npos)
      << twice.body.dump();
  const Reply after = get(client_, "/api/battles/" + id);
  EXPECT_EQ(after.body["state_hash"], before);
  EXPECT_EQ(after.body["actions"], 0);
}

TEST_F(MonitorApi, EventsAndHistorySinceASequenceNumber) {
  const std::string id = create("w1", 2);
  db::Battle direct = direct_battle("w1", 2);
  ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"action", {{"type", "end_turn"}}}}).status,
            200);
  ASSERT_TRUE(direct.submit(db::Action::end_turn()).ok());

  const Reply all = get(client_, "/api/battles/" + id + "/events?since=0");
  ASSERT_EQ(all.status, 200);
  const auto& log = direct.events().log();
  ASSERT_EQ(all.body["items"].size(), log.size());
  EXPECT_EQ(all.body["next"], log.size());
  for (std::size_t i = 0; i < log.size(); ++i) {
    json e = db::event_to_json(log[i], direct.catalog());
    e["seq"] = i + 1;
    EXPECT_EQ(all.body["items"][i], e) << i;
  }
  const Reply tail = get(client_, "/api/battles/" + id + "/events?since=" + std::to_string(log.size() - 3));
  ASSERT_EQ(tail.body["items"].size(), 3u);
  EXPECT_EQ(tail.body["items"][0]["seq"], log.size() - 2);
  EXPECT_EQ(get(client_, "/api/battles/" + id + "/events?since=100000").body["items"].size(), 0u);

  const Reply history = get(client_, "/api/battles/" + id + "/history?since=2");
  ASSERT_EQ(history.status, 200);
  ASSERT_EQ(history.body["items"].size(), direct.history().size() - 2);
  const db::PhaseRecord& third = direct.history()[2];
  EXPECT_EQ(history.body["items"][0]["sequence"], third.sequence);
  EXPECT_EQ(history.body["items"][0]["from"], db::phase_name(third.from));
  EXPECT_EQ(history.body["items"][0]["trigger"], db::trigger_name(third.trigger));
  EXPECT_EQ(history.body["items"][0]["to"], db::phase_name(third.to));

  // The overview carries both, for the page's polling.
  const Reply o = get(client_, "/api/battles/" + id + "?events_since=5&history_since=1");
  EXPECT_EQ(o.body["event_log"]["items"].size(), log.size() - 5);
  EXPECT_EQ(o.body["history"]["items"].size(), direct.history().size() - 1);
  EXPECT_FALSE(get(client_, "/api/battles/" + id).body.contains("event_log"));

  expect_error(get(client_, "/api/battles/" + id + "/events?since=abc"), 400, "bad_request");
  expect_error(get(client_, "/api/battles/" + id + "/history?since=-1"), 400, "bad_request");
  expect_error(get(client_, "/api/battles/" + id + "?events_since=1x"), 400, "bad_request");
}

TEST_F(MonitorApi, PileContentsOnDemand) {
  const std::string id = create("w1", 4);
  const db::Battle direct = direct_battle("w1", 4);
  const Reply draw = get(client_, "/api/battles/" + id + "/detail/draw_pile");
  ASSERT_EQ(draw.status, 200);
  EXPECT_EQ(draw.body["cards"].size(), direct.state().draw_pile().size());
  // Sorted by name: the draw order stays hidden.
  for (std::size_t i = 1; i < draw.body["cards"].size(); ++i)
    EXPECT_LE(draw.body["cards"][i - 1]["name"].get<std::string>(),
              draw.body["cards"][i]["name"].get<std::string>());
  EXPECT_EQ(get(client_, "/api/battles/" + id + "/detail/discard_pile").body["cards"].size(), 0u);
  expect_error(get(client_, "/api/battles/" + id + "/detail/graveyard"), 404, "unknown_detail");
  // A name in another spelling is an unknown view too (it was a path not served, not_found).
  for (const char* name : {"Draw_pile", "draw-pile", "draw%20pile", "pile.json"}) {
    SCOPED_TRACE(name);
    expect_error(get(client_, "/api/battles/" + id + "/detail/" + name), 404, "unknown_detail");
  }
  expect_error(get(client_, "/api/battles/nobattle/detail/Draw_pile"), 404, "unknown_battle");
}

/// The names of a pile detail's cards, in the order given.
std::vector<std::string> names_of(const json& detail) {
  std::vector<std::string> names;
  for (const json& card : detail["cards"]) names.push_back(card["name"].get<std::string>());
  return names;
}

TEST(MonitorDeckbuilderDetail, DrawPileOrderTellsNothingHidden) {
  // Cards of one name are listed by instance: their order in the pile stays hidden too.
  const auto adapter = monitor::make_deckbuilder_adapter(starter());
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    auto battle = adapter->start("w1", seed);
    ASSERT_TRUE(battle.ok());
    const json draw = *battle.value()->detail("draw_pile");
    ASSERT_TRUE(draw.contains("known_on_top")) << draw.dump();
    EXPECT_EQ(draw["known_on_top"], 0u);
    EXPECT_EQ(draw["known_in_order"], 0u);
    for (std::size_t i = 1; i < draw["cards"].size(); ++i) {
      const json& a = draw["cards"][i - 1];
      const json& b = draw["cards"][i];
      EXPECT_TRUE(a["name"] < b["name"] || (a["name"] == b["name"] && a["card"] < b["card"]))
          << "seed " << seed << ": " << draw.dump();
    }
  }
}

TEST(MonitorDeckbuilderDetail, DrawPileShowsTheInnateCardsKnownOnTopFirst) {
  // Seven Innate runes and an opening hand of five: two runes lie on top of the draw pile, and
  // the player knows it. The detail lists them first, then the rest by name.
  const auto adapter = monitor::make_deckbuilder_adapter(innate_pack());
  auto started = adapter->start("e", 5);
  ASSERT_TRUE(started.ok());
  monitor::MonitorBattle& battle = *started.value();
  const json draw = *battle.detail("draw_pile");
  ASSERT_TRUE(draw.contains("known_on_top")) << draw.dump();
  ASSERT_EQ(draw["known_on_top"], kRunesLeftOnTop) << draw.dump();
  const std::vector<std::string> names = names_of(draw);
  ASSERT_EQ(names.size(), kRunesLeftOnTop + kOrdinaryCards);
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(names[i].rfind("rune_", 0) == 0, i < kRunesLeftOnTop) << i << ": " << draw.dump();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.begin() + kRunesLeftOnTop));
  EXPECT_TRUE(std::is_sorted(names.begin() + kRunesLeftOnTop, names.end()));
  // The discard and exhaust piles say nothing of a known top.
  EXPECT_FALSE(battle.detail("discard_pile")->contains("known_on_top"));

  // The end of the turn draws the two runes and three more: nothing is known on top any more.
  ASSERT_TRUE(battle.submit(json{{"type", "end_turn"}}).ok());
  const json after = *battle.detail("draw_pile");
  EXPECT_EQ(after.value("known_on_top", std::size_t{99}), 0u) << after.dump();
  const std::vector<std::string> rest = names_of(after);
  EXPECT_TRUE(std::is_sorted(rest.begin(), rest.end())) << after.dump();
}

TEST_F(MonitorApi, ReplayFileLoadsBackWithTheSameState) {
  const std::string id = create("w1", 9);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  const std::string hash = get(client_, "/api/battles/" + id).body["state_hash"];
  const std::string text = replay_text(client_, id);
  const json file = json::parse(text);
  EXPECT_EQ(file["format"], "battlecore-replay");
  EXPECT_EQ(file["actions"].size(), 3u);
  EXPECT_EQ(file["seed"], 9);
  EXPECT_EQ(file["final_state_hash"], hash);
  // What `battlecore replay` reads, every hash matching.
  const sim::ReplayCheck check = check_replay_text<sim::DeckbuilderRules>(starter(), text);
  EXPECT_EQ(check.kind, sim::ReplayCheck::Kind::Match) << check.message;

  const Reply replay = post(client_, "/api/replays", text);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  EXPECT_EQ(replay.body["mode"], "replay");
  EXPECT_EQ(replay.body["state_hash"], hash);
  EXPECT_EQ(replay.body["replay"], (json{{"step", 3}, {"steps", 3}}));
  const std::string rid = replay.body["id"];

  // Stepping back rebuilds the battle from its first k actions.
  const Reply back = post(client_, "/api/battles/" + rid + "/seek", json{{"step", 1}});
  ASSERT_EQ(back.status, 200);
  db::Battle direct = direct_battle("w1", 9);
  ASSERT_TRUE(direct.submit(db::action_from_json(file["actions"][0]).value()).ok());
  EXPECT_EQ(back.body["state_hash"], hex(direct.state_hash()));
  EXPECT_EQ(back.body["transitions"], direct.history().size());
  EXPECT_EQ(json::parse(replay_text(client_, rid))["actions"].size(), 1u);
  const Reply start = post(client_, "/api/battles/" + rid + "/seek", json{{"step", 0}});
  EXPECT_EQ(start.body["state_hash"], hex(direct_battle("w1", 9).state_hash()));
  EXPECT_EQ(post(client_, "/api/battles/" + rid + "/seek", json{{"step", 3}}).body["state_hash"], hash);

  expect_error(post(client_, "/api/battles/" + rid + "/seek", json{{"step", 4}}), 400, "bad_request");
  expect_error(post(client_, "/api/battles/" + rid + "/seek", json{{"step", "one"}}), 400, "bad_request");
  expect_error(post(client_, "/api/battles/" + rid + "/seek", json{{"step", 1}, {"steps", 2}}), 400,
               "bad_request");
  expect_error(post(client_, "/api/battles/" + rid + "/actions", json{{"index", 0}}), 409,
               "replay_read_only");
  expect_error(post(client_, "/api/battles/" + id + "/seek", json{{"step", 0}}), 409, "not_a_replay");
  // A replay can also start at a step; the short form {rules, encounter, seed, actions} loads too.
  json at_one = file;
  at_one["step"] = 1;
  EXPECT_EQ(post(client_, "/api/replays", at_one).body["state_hash"], hex(direct.state_hash()));
  const json short_form = {{"rules", "deckbuilder"},
                           {"encounter", "w1"},
                           {"seed", 9},
                           {"actions", file["actions"]},
                           {"state_hash", hash}};
  EXPECT_EQ(post(client_, "/api/replays", short_form).body["state_hash"], hash);
  // An empty encounter id is refused (it started the pack's default encounter, w1 here).
  json no_encounter = short_form;
  no_encounter["encounter"] = "";
  const Reply empty = post(client_, "/api/replays", no_encounter);
  expect_error(empty, 400, "bad_request");
  EXPECT_EQ(empty.body.value("message", ""), "\"encounter\" must be an encounter id");
}

TEST_F(MonitorApi, ReplayOfTheLargestSeedRoundTrips) {
  const Reply o =
      post(client_, "/api/battles", json{{"rules", "deckbuilder"}, {"seed", 18446744073709551615u}});
  ASSERT_EQ(o.status, 201);
  const std::string text = replay_text(client_, o.body["id"]);
  EXPECT_NE(text.find("\"seed\": 18446744073709551615"), std::string::npos) << text;
  const Reply replay = post(client_, "/api/replays", text);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  EXPECT_EQ(replay.body["seed"].get<std::uint64_t>(), 18446744073709551615u);
  EXPECT_EQ(replay.body["state_hash"], o.body["state_hash"]);
}

TEST_F(MonitorApi, SnapshotOfABattleInPlayIsRefused) {
  // The engine's snapshot holds the draw pile in its order and the random streams.
  const std::string id = create("w1", 9);
  ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  const Reply refused = get(client_, "/api/battles/" + id + "/snapshot");
  expect_error(refused, 403, "hidden_information");
  EXPECT_FALSE(refused.body.contains("snapshot"));
  // A replay of the battle in play is no way round it.
  const Reply replay = post(client_, "/api/replays", replay_text(client_, id));
  ASSERT_EQ(replay.status, 201);
  expect_error(get(client_, "/api/battles/" + replay.body["id"].get<std::string>() + "/snapshot"), 403,
               "hidden_information");
  // The replay file holds no state and no pile.
  const json file = json::parse(replay_text(client_, id));
  for (const char* key : {"state", "snapshot", "decision", "draw_pile", "events"})
    EXPECT_FALSE(file.contains(key)) << key;
}

TEST_F(MonitorApi, SnapshotOfAFinishedBattleRestoresIt) {
  const std::string id = create("cultist_rite", 1);
  for (int steps = 0; steps < 500 && !get(client_, "/api/battles/" + id).body["state"]["over"].get<bool>();
       ++steps)
    ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  const Reply snap = get(client_, "/api/battles/" + id + "/snapshot");
  ASSERT_EQ(snap.status, 200) << snap.body.dump();
  const auto restored = db::restore(starter(), snap.body["snapshot"]);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(hex(restored.value().state_hash()), snap.body["state_hash"]);
  // A snapshot is also a replay.
  EXPECT_EQ(post(client_, "/api/replays", snap.body).body["state_hash"], snap.body["state_hash"]);
}

TEST(MonitorReveal, SnapshotOfABattleInPlayWhenTheServerReveals) {
  monitor::ServerOptions options;
  options.reveal = true;
  MonitorServer server(options);
  httplib::Client client = server.client();
  const std::string id =
      post(client, "/api/battles", json{{"rules", "deckbuilder"}, {"encounter", "w1"}, {"seed", 9}})
          .body["id"];
  ASSERT_EQ(post(client, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  const Reply snap = get(client, "/api/battles/" + id + "/snapshot");
  ASSERT_EQ(snap.status, 200) << snap.body.dump();
  EXPECT_EQ(snap.body["actions"].size(), 1u);
  const auto restored = db::restore(starter(), snap.body["snapshot"]);
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(hex(restored.value().state_hash()), snap.body["state_hash"]);
}

TEST_F(MonitorApi, RefusesBadReplays) {
  const json base = {{"rules", "deckbuilder"}, {"encounter", "w1"}, {"seed", 1}, {"actions", json::array()}};
  EXPECT_EQ(post(client_, "/api/replays", base).status, 201);
  json bad = base;
  bad["actions"] = json::array({{{"type", "take_reward"}, {"index", 0}}});
  expect_error(post(client_, "/api/replays", bad), 422, "replay_diverged");
  bad = base;
  bad["state_hash"] = "0000000000000000";
  expect_error(post(client_, "/api/replays", bad), 422, "replay_diverged");
  bad = base;
  bad.erase("actions");
  expect_error(post(client_, "/api/replays", bad), 400, "bad_request");
  bad = base;
  bad["encounter"] = "nowhere";
  expect_error(post(client_, "/api/replays", bad), 422, "unknown_encounter");
  bad = base;
  bad["step"] = 2;
  expect_error(post(client_, "/api/replays", bad), 400, "bad_request");
  bad = base;
  bad["rules"] = "chess";
  expect_error(post(client_, "/api/replays", bad), 404, "unknown_rules");
  expect_error(post(client_, "/api/replays", std::string("{")), 400, "malformed_json");
  bad = base;
  bad["format"] = "battlecore-movie";
  expect_error(post(client_, "/api/replays", bad), 400, "bad_request");
  bad = base;
  bad["scenario"] = json::object();
  expect_error(post(client_, "/api/replays", bad), 400, "bad_request");
}

TEST_F(MonitorApi, ReplaysAreCheckedAgainstTheirHashAtAnyStep) {
  const std::string id = create("w1", 3);
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  json file = json::parse(replay_text(client_, id));
  json short_form = {
      {"rules", "deckbuilder"}, {"encounter", "w1"}, {"seed", 3}, {"actions", file["actions"]}};
  for (json* replay : {&file, &short_form}) {
    const char* key = replay == &file ? "final_state_hash" : "state_hash";
    json bad = *replay;
    bad[key] = "0000000000000000";
    for (int step : {0, 1, 2}) {
      bad["step"] = step;
      expect_error(post(client_, "/api/replays", bad), 422, "replay_diverged");
    }
    for (const json& not_a_hash : {json(12), json(nullptr), json::array(), json{{"hash", "x"}}}) {
      bad[key] = not_a_hash;
      expect_error(post(client_, "/api/replays", bad), 400, "bad_request");
    }
  }
}

// A file recorded with other content, or by an engine of another format or RNG, is refused as
// such, as `battlecore replay` refuses it (it was taken for a battle that diverged, or played).
TEST_F(MonitorApi, AReplayFileOfOtherContentOrAnotherEngineIsRefusedAsSuch) {
  const std::string id = create("w1", 3);
  ASSERT_EQ(post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}}).status, 200);
  const json file = json::parse(replay_text(client_, id));
  ASSERT_EQ(post(client_, "/api/replays", file).status, 201);
  json other = file;
  other["content_hash"] = "0123456789abcdef";
  const Reply refused = post(client_, "/api/replays", other);
  expect_error(refused, 422, "content_mismatch");
  EXPECT_NE(
      refused.body["message"].get<std::string>().find(
          "the replay was recorded with content \"0123456789abcdef\"; this server's deckbuilder pack is " +
          file["content_hash"].dump()),
      std::string::npos)
      << refused.body.dump();
  for (const char* key : {"format_version", "rng_version"}) {
    SCOPED_TRACE(key);
    json newer = file;
    newer[key] = file[key].get<int>() + 1;
    expect_error(post(client_, "/api/replays", newer), 400, "bad_request");
  }
  // A file names all three, as `battlecore replay` requires: one without them is not taken on trust.
  for (const char* key : {"format_version", "rng_version", "content_hash"}) {
    SCOPED_TRACE(key);
    json missing = file;
    missing.erase(key);
    const Reply refused_missing = post(client_, "/api/replays", missing);
    expect_error(refused_missing, 400, "bad_request");
    EXPECT_NE(refused_missing.body["message"].get<std::string>().find(
                  std::string("the replay file has no \"") + key + "\""),
              std::string::npos)
        << refused_missing.body.dump();
  }
}

TEST_F(MonitorApi, UnknownIdsAndPathsAreJsonErrors) {
  for (const std::string suffix :
       {"", "/state", "/actions", "/events", "/history", "/snapshot", "/replay", "/detail/draw_pile"})
    expect_error(get(client_, "/api/battles/b999-ffff" + suffix), 404, "unknown_battle");
  expect_error(post(client_, "/api/battles/b999-ffff/actions", json{{"index", 0}}), 404, "unknown_battle");
  expect_error(post(client_, "/api/battles/b999-ffff/seek", json{{"step", 0}}), 404, "unknown_battle");
  expect_error(reply_of(client_.Delete("/api/battles/b999-ffff")), 404, "unknown_battle");
  expect_error(get(client_, "/api/nothing"), 404, "not_found");
  expect_error(get(client_, "/api/battles/a/b/c/d"), 404, "not_found");
}

TEST_F(MonitorApi, DeletedBattlesAreGone) {
  const std::string id = create();
  EXPECT_EQ(get(client_, "/api/battles").body["battles"].size(), 1u);
  EXPECT_EQ(reply_of(client_.Delete(("/api/battles/" + id).c_str())).status, 200);
  expect_error(get(client_, "/api/battles/" + id), 404, "unknown_battle");
  EXPECT_EQ(get(client_, "/api/battles").body["battles"].size(), 0u);
}

TEST(MonitorLimits, OversizedBodiesAreRefused) {
  monitor::ServerOptions options;
  options.max_body_bytes = 4096;
  MonitorServer server(options);
  httplib::Client client = server.client();
  const std::string big = "{\"rules\": \"deckbuilder\", \"pad\": \"" + std::string(10000, 'x') + "\"}";
  expect_error(post(client, "/api/battles", big), 413, "payload_too_large");
  // The server is still fine.
  EXPECT_EQ(post(client, "/api/battles", json{{"rules", "deckbuilder"}}).status, 201);
}

TEST(MonitorLimits, OversizedFormBodiesAreRefusedAtTheSameLimit) {
  monitor::ServerOptions options;
  options.max_body_bytes = 16384;
  MonitorServer server(options);
  httplib::Client client = server.client();
  const std::string body = "{\"rules\": \"deckbuilder\"}";
  const char* form = "application/x-www-form-urlencoded";
  EXPECT_EQ(reply_of(client.Post("/api/battles", body + std::string(12'000, ' '), form)).status, 201);
  expect_error(reply_of(client.Post("/api/battles", body + std::string(20'000, ' '), form)), 413,
               "payload_too_large");
}

// A chunked body carries no Content-Length for httplib to check: the server counts its bytes.
TEST(MonitorLimits, OversizedChunkedBodiesAreRefusedAtTheSameLimit) {
  monitor::ServerOptions options;
  options.max_body_bytes = 4096;
  MonitorServer server(options);
  const auto chunked_post = [&](const std::string& body) {
    httplib::Client client = server.client();
    // A provider without a length makes httplib send the body chunked.
    return reply_of(client.Post(
        "/api/battles",
        [&body](std::size_t offset, httplib::DataSink& sink) {
          const std::size_t n = std::min<std::size_t>(1000, body.size() - offset);
          sink.write(body.data() + offset, n);
          if (offset + n == body.size()) sink.done();
          return true;
        },
        "application/json"));
  };
  const std::string body = "{\"rules\": \"deckbuilder\"}";
  EXPECT_EQ(chunked_post(body + std::string(3000, ' ')).status, 201);
  // Past the limit the body is read on and dropped, so the reply reaches the client, still sending.
  expect_error(chunked_post(body + std::string(10000, ' ')), 413, "payload_too_large");
  // Past 4 times the limit the connection is closed under the client, which may lose the reply.
  (void)chunked_post(body + std::string(40000, ' '));
  // The server is still fine.
  httplib::Client client = server.client();
  EXPECT_EQ(post(client, "/api/battles", json{{"rules", "deckbuilder"}}).status, 201);
}

/// The reply to `request`, sent as it is on a new connection to `port`: its status line and
/// body (empty when nothing came within two seconds).
std::pair<std::string, std::string> raw_exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  const timeval two_seconds{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof(two_seconds));
  EXPECT_EQ(::send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string reply;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    reply.append(buffer, static_cast<std::size_t>(n));
    const auto head_end = reply.find("\r\n\r\n");
    const auto length_at = reply.find("Content-Length: ");
    if (head_end != std::string::npos && length_at != std::string::npos &&
        reply.size() >= head_end + 4 + std::stoul(reply.substr(length_at + 16)))
      break;
  }
  ::close(fd);
  const auto head_end = reply.find("\r\n\r\n");
  if (head_end == std::string::npos) return {};
  return {reply.substr(0, reply.find("\r\n")), reply.substr(head_end + 4)};
}

// A POST with neither a Content-Length nor a chunked body has an empty body: it is answered at
// once as one, not after httplib has waited for the connection to close (its read timeout,
// five seconds, holding a request thread) and then said the body could not be read.
TEST_F(MonitorApi, APostWithoutABodyIsAnsweredAtOnceAsAnEmptyBody) {
  const auto [status, body] = raw_exchange(server_.port(), "POST /api/battles HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status, "HTTP/1.1 400 Bad Request");
  const json reply = json::parse(body, nullptr, false);
  EXPECT_EQ(reply.value("error", ""), "malformed_json") << body;
  EXPECT_NE(reply.value("message", "").find("unexpected end of input"), std::string::npos) << body;
}

TEST(MonitorBind, ASecondServerOnTheSamePortCannotBind) {
  // Two servers on one port would share its connections, each with its own battles.
  MonitorServer first;
  monitor::ServerOptions options;
  options.port = first.port();
  monitor::Server second({monitor::make_deckbuilder_adapter(starter())}, options);
  const auto bound = second.bind();
  ASSERT_FALSE(bound.ok()) << "a second server bound port " << first.port();
  EXPECT_EQ(bound.error().message, fmt::format("cannot bind to 127.0.0.1:{}", first.port()));
  // The first one still answers, and holds every battle.
  httplib::Client client = first.client();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(post(client, "/api/battles", json{{"rules", "deckbuilder"}}).status, 201);
  EXPECT_EQ(get(client, "/api/battles").body["battles"].size(), 4u);
}

/// The deckbuilder's adapter whose describe() (GET /api/rules) takes a while: a request the test
/// can hold in flight.
class SlowToDescribe final : public monitor::RuleSetAdapter {
 public:
  explicit SlowToDescribe(std::shared_ptr<const monitor::RuleSetAdapter> inner) : inner_(std::move(inner)) {}
  std::string_view rules() const override { return inner_->rules(); }
  PhaseGraph phase_graph() const override { return inner_->phase_graph(); }
  json describe() const override {
    begun = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    json j = inner_->describe();
    answered = true;
    return j;
  }
  Result<std::unique_ptr<monitor::MonitorBattle>, monitor::Refused> start(std::string_view encounter,
                                                                          std::uint64_t seed) const override {
    return inner_->start(encounter, seed);
  }
  mutable std::atomic<bool> begun{false};     ///< describe() was called
  mutable std::atomic<bool> answered{false};  ///< describe() has returned

 private:
  std::shared_ptr<const monitor::RuleSetAdapter> inner_;
};

// The destructor stopped the server and freed it while run() went on on its thread, answering a
// request with the freed server's routes and battles.
TEST(MonitorLifetime, DestroyingTheServerWhileRunIsLiveWaitsForRunToReturn) {
  const auto slow = std::make_shared<SlowToDescribe>(monitor::make_deckbuilder_adapter(starter()));
  monitor::ServerOptions options;
  options.port = 0;
  auto server = std::make_unique<monitor::Server>(
      std::vector<std::shared_ptr<const monitor::RuleSetAdapter>>{slow}, options);
  ASSERT_TRUE(server->bind().ok());
  const int port = server->port();
  std::atomic<bool> returned{false};
  std::thread serving([s = server.get(), &returned] {
    s->run();
    returned = true;
  });
  EXPECT_TRUE(server->wait_until_running());
  Reply reply;
  std::thread asking([port, &reply] {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(30, 0);
    reply = get(client, "/api/rules");
  });
  for (int i = 0; i < 5000 && !slow->begun; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(slow->begun) << "the request did not reach the server";
  server.reset();  // run() is live on `serving`, with the request in flight
  EXPECT_TRUE(slow->answered) << "the server was freed before run() had returned";
  serving.join();
  asking.join();
  EXPECT_TRUE(returned);
  EXPECT_EQ(reply.status, 200) << reply.body.dump();
}

// A stop() made before run() had begun its loop did nothing, and run() then served on.
TEST(MonitorLifetime, AStopMadeBeforeRunIsNotLost) {
  monitor::ServerOptions options;
  options.port = 0;
  monitor::Server server({monitor::make_deckbuilder_adapter(starter())}, options);
  ASSERT_TRUE(server.bind().ok());
  server.stop();
  std::atomic<bool> returned{false};
  std::thread serving([&] {
    server.run();
    returned = true;
  });
  for (int i = 0; i < 5000 && !returned; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(returned) << "run() served after stop()";
  if (!returned && server.wait_until_running()) server.stop();  // let the thread end
  serving.join();
}

TEST(MonitorLimits, TooManyBattlesAreRefused) {
  monitor::ServerOptions options;
  options.max_battles = 2;
  MonitorServer server(options);
  httplib::Client client = server.client();
  const json body = {{"rules", "deckbuilder"}};
  const std::string first = post(client, "/api/battles", body).body["id"];
  EXPECT_EQ(post(client, "/api/battles", body).status, 201);
  expect_error(post(client, "/api/battles", body), 429, "too_many_battles");
  EXPECT_EQ(reply_of(client.Delete(("/api/battles/" + first).c_str())).status, 200);
  EXPECT_EQ(post(client, "/api/battles", body).status, 201);
}

TEST_F(MonitorApi, ABattlePlayedToItsEndThroughTheApi) {
  // cultist_rite offers a reward; take it when it comes.
  const std::string id = create("cultist_rite", 1);
  db::Battle direct = direct_battle("cultist_rite", 1);
  Reply r = get(client_, "/api/battles/" + id);
  int steps = 0;
  while (!r.body["decision"]["options"].empty() && steps < 500) {
    r = post(client_, "/api/battles/" + id + "/actions", json{{"index", 0}});
    ASSERT_EQ(r.status, 200) << r.body.dump();
    ASSERT_TRUE(direct.submit(direct.decision().options[0]).ok());
    ASSERT_EQ(r.body["state_hash"], hex(direct.state_hash())) << "step " << steps;
    ++steps;
  }
  EXPECT_TRUE(r.body["state"]["over"].get<bool>());
  EXPECT_EQ(r.body["state"]["won"].get<bool>(), direct.won());
  expect_error(post(client_, "/api/battles/" + id + "/actions", json{{"action", {{"type", "end_turn"}}}}),
               422, "battle_over");
}

}  // namespace
}  // namespace battlecore::test
