// The clash in the monitor's JSON API: starting battles (the bots played up to the human's
// decision, as a direct battle with the same policy plays them), the turn's three steps, refused
// and malformed actions (nothing changes), replays rebuilt from the human actions alone, and replay
// files played exactly as they are: their bot moves, no other and none left over, in the file's
// order.

#include "battlecore/monitor/clash_adapter.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include <fmt/format.h>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/replay.hpp"
#include "support/clash_pack.hpp"
#include "support/monitor_api.hpp"

namespace battlecore::test {
namespace {

using nlohmann::json;
namespace cl = battlecore::clash;

/// The same battle driven directly: bots answered by the random policy seeded as the server does.
class DirectClash {
 public:
  DirectClash(const std::string& encounter, std::uint64_t seed) : battle_(classic()) {
    bots_ = std::move(cl::make_policy("random")).value();
    bots_->reset(policy_seed(seed));
    EXPECT_TRUE(battle_.start_battle(encounter, seed).ok());
    play_bots();
  }
  void submit(const cl::Action& a) {
    ASSERT_TRUE(battle_.submit(a).ok());
    play_bots();
  }
  std::string hash() const { return fmt::format("{:016x}", battle_.state_hash()); }
  const cl::Battle& battle() const { return battle_; }

 private:
  void play_bots() {
    std::vector<cl::Action> options;
    while (battle_.status() == Status::AwaitingDecision &&
           battle_.state().seats[static_cast<std::size_t>(battle_.state().current)].kind ==
               cl::SeatKind::Bot) {
      battle_.legal_actions(options);
      ASSERT_TRUE(battle_.submit(options[bots_->choose(battle_, options)]).ok());
    }
  }
  cl::Battle battle_;
  std::unique_ptr<cl::Policy> bots_;
};

class MonitorClash : public MonitorRuleSetApi {
 protected:
  MonitorClash() : MonitorRuleSetApi(monitor::make_clash_adapter(classic())) {}
};

/// The replay file of a battle of `encounter` (in `catalog`, the classic pack by default) played
/// to its end, every seat by a random policy seeded with `policy`, as `sim --record` records one:
/// its bot moves are not those the server would choose (null when it cannot be recorded, which
/// fails the test).
json recorded_file(const std::string& encounter, std::uint64_t seed, std::uint64_t policy,
                   const std::shared_ptr<const cl::Catalog>& catalog = classic()) {
  cl::Battle battle(catalog);
  EXPECT_TRUE(battle.start_battle(encounter, seed).ok());
  auto chooser = std::move(cl::make_policy("random")).value();
  chooser->reset(policy);
  std::vector<cl::Action> actions, options;
  while (battle.status() == Status::AwaitingDecision) {
    battle.legal_actions(options);
    actions.push_back(options[chooser->choose(battle, options)]);
    if (!battle.submit(actions.back()).ok()) return nullptr;
  }
  const auto recorded = sim::record_replay<sim::ClashRules>(catalog, {encounter, seed, nullptr}, actions);
  EXPECT_TRUE(recorded.ok()) << recorded.error().message;
  if (!recorded) return nullptr;
  return sim::replay_to_json(recorded.value());
}

/// `file` with its actions and their hashes cut to those at the indices `keep` lists, in order.
json with_actions(const json& file, const std::vector<std::size_t>& keep) {
  json cut = file;
  cut["actions"] = json::array();
  cut["state_hashes"] = json::array();
  for (std::size_t i : keep) {
    cut["actions"].push_back(file["actions"][i]);
    cut["state_hashes"].push_back(file["state_hashes"][i]);
  }
  return cut;
}

/// The first seed from 1 at which a bot of `encounter` makes the battle's first move.
std::uint64_t seed_where_a_bot_moves_first(const std::string& encounter) {
  for (std::uint64_t seed = 1;; ++seed) {
    cl::Battle battle(classic());
    EXPECT_TRUE(battle.start_battle(encounter, seed).ok());
    if (battle.state().seats[static_cast<std::size_t>(battle.state().current)].kind == cl::SeatKind::Bot)
      return seed;
  }
}

TEST_F(MonitorClash, DescribesThePackAndTheGraph) {
  const Reply r = get(client_, "/api/rules");
  ASSERT_EQ(r.status, 200);
  ASSERT_EQ(r.body["rules"].size(), 1u);
  EXPECT_EQ(r.body["rules"][0]["rules"], "clash");
  EXPECT_EQ(r.body["rules"][0]["pack"], "classic");
  EXPECT_EQ(r.body["rules"][0]["default_encounter"], "classic");
  EXPECT_EQ(r.body["rules"][0]["encounters"].size(), classic()->encounters.size());
  const Reply g = get(client_, "/api/rules/clash/graph");
  ASSERT_EQ(g.status, 200);
  EXPECT_EQ(g.body["edges"].size(), cl::Machine::kTransitions.size());
  EXPECT_EQ(g.body["terminal"], json{"BattleEnd"});
}

TEST_F(MonitorClash, StartsWithTheHumanToRollAfterTheBotsBeforeIt) {
  for (std::uint64_t seed : {1u, 2u, 3u, 9u}) {
    const json o = create({{"rules", "clash"}, {"seed", seed}});
    EXPECT_EQ(o["encounter"], "classic");
    const DirectClash direct("classic", seed);
    EXPECT_EQ(o["state_hash"], direct.hash()) << "seed " << seed;
    const json& d = o["decision"];
    EXPECT_EQ(d["who"], "seat");
    EXPECT_EQ(d["seat"], 0) << "the default encounter's one human seat";
    EXPECT_EQ(d["step"], "roll");
    ASSERT_EQ(d["options"].size(), 1u);
    EXPECT_EQ(d["options"][0]["action"], (json{{"type", "roll"}, {"seat", 0}}));
    EXPECT_EQ(d["options"][0]["label"], "roll the die");
    const json& s = o["state"];
    EXPECT_EQ(s["rules"], "clash");
    EXPECT_EQ(s["over"], false);
    EXPECT_TRUE(s["won"].is_null());
    EXPECT_EQ(s["ring"].size(), 18u);
    EXPECT_EQ(s["ring"][0], "none");
    EXPECT_EQ(s["ring"][4], "fire");
    // The human's hand is shown, the bots' hands only as counts.
    EXPECT_EQ(s["seats"][0]["hand"].size(), 9u);
    for (std::size_t i = 1; i < 4; ++i) {
      EXPECT_FALSE(s["seats"][i].contains("hand"));
      EXPECT_EQ(s["seats"][i]["hand_count"], direct.battle().state().seats[i].hand.size());
    }
    // The bots that came before the human in the turn order have played.
    std::size_t played = 0;
    for (const json& seat : s["seats"]) played += seat["acted"].get<bool>() ? 1 : 0;
    std::size_t before = 0;
    while (s["order"][before] != 0) ++before;
    EXPECT_EQ(played, before);
    EXPECT_EQ(o["actions"], 0u) << "the bots' moves are not the battle's actions";
  }
}

TEST_F(MonitorClash, PlaysTheThreeStepsOfATurnAndTheRound) {
  const json o = create({{"rules", "clash"}, {"seed", 4}});
  const std::string id = o["id"];
  DirectClash direct("classic", 4);
  // Roll.
  Reply r = act(id, {{"index", 0}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  direct.submit(cl::Action::roll(0));
  EXPECT_EQ(r.body["state_hash"], direct.hash());
  json d = r.body["decision"];
  EXPECT_EQ(d["step"], "rock");
  EXPECT_GE(d["dice"].get<int>(), 1);
  EXPECT_LE(d["dice"].get<int>(), 6);
  ASSERT_GE(d["options"].size(), 1u);
  ASSERT_LE(d["options"].size(), 2u);
  for (const json& opt : d["options"]) EXPECT_EQ(opt["action"]["type"], "choose_rock");
  // A rock, given as the action itself.
  const json rock = d["options"].back()["action"];
  r = act(id, {{"action", rock}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  direct.submit(cl::Action::choose_rock(0, rock["rock"].get<std::uint8_t>()));
  EXPECT_EQ(r.body["state_hash"], direct.hash());
  d = r.body["decision"];
  EXPECT_EQ(d["step"], "card");
  ASSERT_EQ(d["cards"].size(), 9u);
  std::size_t playable = 0;
  for (const json& c : d["cards"]) {
    playable += c["playable"].get<bool>() ? 1 : 0;
    EXPECT_EQ(c["reason"].get<std::string>().empty(), c["playable"].get<bool>());
  }
  EXPECT_EQ(playable, d["options"].size());
  // A card: the round ends (the bots after the human play too) and the referee's duels show.
  const json card = d["options"][0]["action"];
  r = act(id, {{"action", card}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  direct.submit(cl::Action::play(0, card["slot"].get<std::uint8_t>()));
  EXPECT_EQ(r.body["state_hash"], direct.hash());
  EXPECT_EQ(r.body["actions"], 3u);
  const json& duels = r.body["state"]["duels"];
  EXPECT_EQ(duels["round"], 1);
  EXPECT_EQ(duels["duels"].size(), 6u) << "every pair of four seats";
  for (const json& duel : duels["duels"])
    EXPECT_TRUE(duel["winner"].is_null() || duel["winner"] == duel["seat"] ||
                duel["winner"] == duel["other"]);
  const Reply detail = get(client_, "/api/battles/" + id + "/detail/duels");
  ASSERT_EQ(detail.status, 200);
  EXPECT_EQ(detail.body["rounds"][0], duels);
  const Reply moves = get(client_, "/api/battles/" + id + "/detail/moves");
  ASSERT_EQ(moves.status, 200);
  EXPECT_EQ(moves.body["moves"].size(), direct.battle().actions().size());
  expect_refused(get(client_, "/api/battles/" + id + "/detail/draw_pile"), 404, "unknown_detail");
}

TEST_F(MonitorClash, TheEventLogLeavesTheBotsDrawsHidden) {
  const json o = create({{"rules", "clash"}, {"seed", 4}});
  const std::string id = o["id"];
  for (int i = 0; i < 9 && !overview(id)["state"]["over"].get<bool>(); ++i)
    ASSERT_EQ(act(id, {{"index", 0}}).status, 200);
  const DirectClash direct("classic", 4);
  const Reply events = get(client_, "/api/battles/" + id + "/events?since=0");
  ASSERT_EQ(events.status, 200);
  std::size_t human = 0, bots = 0;
  for (const json& e : events.body["items"]) {
    if (e["type"] != "CardDealt") continue;
    const auto seat = e["seat"].get<std::size_t>();
    if (direct.battle().state().seats[seat].kind == cl::SeatKind::Bot) {
      ++bots;
      EXPECT_FALSE(e.contains("card")) << e.dump();
      EXPECT_TRUE(e["text"].get<std::string>().ends_with(" draws a card")) << e.dump();
    } else {
      ++human;
      EXPECT_TRUE(e.contains("card")) << e.dump();
      EXPECT_FALSE(e["text"].get<std::string>().ends_with(" draws a card")) << e.dump();
    }
  }
  EXPECT_GE(human, 1u) << "the human's refills after its plays";
  EXPECT_GE(bots, 3u) << "the bots' refills";
}

TEST_F(MonitorClash, RefusesIllegalActionsAndChangesNothing) {
  const json o = create({{"rules", "clash"}, {"encounter", "duel"}, {"seed", 2}});
  const std::string id = o["id"];
  expect_refused(act(id, {{"action", {{"type", "choose_rock"}, {"seat", 0}, {"rock", 1}}}}), 422,
                 "wrong_step");
  expect_unchanged(o);
  expect_refused(act(id, {{"action", {{"type", "play_card"}, {"seat", 0}, {"slot", 0}}}}), 422, "wrong_step");
  expect_refused(act(id, {{"action", {{"type", "roll"}, {"seat", 1}}}}), 422, "not_your_turn");
  expect_refused(act(id, {{"index", 1}}), 422, "invalid_option");
  expect_refused(act(id, {{"action", {{"type", "dance"}, {"seat", 0}}}}), 400, "bad_action");
  expect_refused(act(id, {{"action", {{"type", "roll"}}}}), 400, "bad_action");
  expect_refused(act(id, {{"action", "roll"}}), 400, "bad_action");
  expect_refused(act(id, json::object()), 400, "bad_request");
  expect_refused(post(client_, "/api/battles/" + id + "/actions", std::string("{roll")), 400,
                 "malformed_json");
  expect_unchanged(o);
  // After the roll: a rock the die does not offer, then a card that does not match the rock.
  ASSERT_EQ(act(id, {{"index", 0}}).status, 200);
  json now = overview(id);
  std::uint8_t far = 0;
  while (std::any_of(now["decision"]["options"].begin(), now["decision"]["options"].end(),
                     [&](const json& opt) { return opt["action"]["rock"] == far; }))
    ++far;
  expect_refused(act(id, {{"action", {{"type", "choose_rock"}, {"seat", 0}, {"rock", far}}}}), 422,
                 "rock_not_offered");
  EXPECT_EQ(overview(id)["state_hash"], now["state_hash"]);
  ASSERT_EQ(act(id, {{"index", 0}}).status, 200);
  now = overview(id);
  expect_refused(act(id, {{"action", {{"type", "play_card"}, {"seat", 0}, {"slot", 40}}}}), 422,
                 "no_such_card");
  for (const json& c : now["decision"]["cards"])
    if (!c["playable"].get<bool>())
      expect_refused(act(id, {{"action", {{"type", "play_card"}, {"seat", 0}, {"slot", c["slot"]}}}}), 422,
                     "card_does_not_match");
  EXPECT_EQ(overview(id)["state_hash"], now["state_hash"]);
  EXPECT_EQ(overview(id)["actions"], 2u);
}

TEST_F(MonitorClash, RefusesBadStartRequests) {
  expect_refused(post(client_, "/api/battles", json{{"rules", "clash"}, {"encounter", "nowhere"}}), 422,
                 "unknown_encounter");
  expect_refused(post(client_, "/api/battles", json{{"rules", "clash"}, {"encounter", 4}}), 400,
                 "bad_request");
  expect_refused(post(client_, "/api/battles", json{{"rules", "clash"}, {"seed", "x"}}), 400, "bad_request");
  expect_refused(post(client_, "/api/battles", json{{"rules", "deckbuilder"}}), 404, "unknown_rules");
}

TEST_F(MonitorClash, ABattleOfBotsAloneIsPlayedToItsEnd) {
  const json o = create({{"rules", "clash"}, {"encounter", "bots4"}, {"seed", 3}});
  EXPECT_EQ(o["state"]["over"], true);
  EXPECT_EQ(o["state"]["won"], false) << "no human seat won";
  EXPECT_EQ(o["decision"]["who"], "nobody");
  EXPECT_EQ(o["decision"]["options"].size(), 0u);
  ASSERT_EQ(o["state"]["ranking"].size(), 4u);
  EXPECT_EQ(o["state"]["ranking"][0]["place"], 1);
  expect_refused(act(o["id"], {{"action", {{"type", "roll"}, {"seat", 0}}}}), 422, "battle_over");
}

TEST_F(MonitorClash, AReplayFilePlaysTheSameBotsAgain) {
  const json o = create({{"rules", "clash"}, {"encounter", "trio"}, {"seed", 6}});
  const std::string id = o["id"];
  for (int i = 0; i < 12 && !overview(id)["state"]["over"].get<bool>(); ++i)
    ASSERT_EQ(act(id, {{"index", 0}}).status, 200);
  const json now = overview(id);
  // The file lists every move, the bots' too, as `battlecore replay` needs them.
  const std::string text = replay_text(client_, id);
  const json file = json::parse(text);
  EXPECT_EQ(file["final_state_hash"], now["state_hash"]);
  json human = json::array();
  for (const json& a : file["actions"])
    if (a["seat"] == 0) human.push_back(a);
  EXPECT_EQ(human.size(), now["actions"]) << "the human's moves are the battle's actions";
  EXPECT_GT(file["actions"].size(), human.size()) << "the bots' moves are in the file";
  const sim::ReplayCheck check = check_replay_text<sim::ClashRules>(classic(), text);
  EXPECT_EQ(check.kind, sim::ReplayCheck::Kind::Match) << check.message;

  // Loaded, the bots' moves are the server's again: the replay steps through the human's.
  const Reply replay = post(client_, "/api/replays", text);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  EXPECT_EQ(replay.body["state_hash"], now["state_hash"]);
  EXPECT_EQ(replay.body["replay"]["steps"], human.size());
  const Reply first =
      post(client_, "/api/battles/" + replay.body["id"].get<std::string>() + "/seek", json{{"step", 0}});
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.body["state_hash"], o["state_hash"]);
  // The short form holds the human's moves alone.
  const json short_form = {{"rules", "clash"},
                           {"encounter", "trio"},
                           {"seed", 6},
                           {"actions", human},
                           {"state_hash", now["state_hash"]}};
  EXPECT_EQ(post(client_, "/api/replays", short_form).body["state_hash"], now["state_hash"]);
}

TEST_F(MonitorClash, AReplayFileKeepsItsBotsMovesWhoeverChoseThem) {
  // Every seat of a classic battle played by a random policy seeded unlike the server's bots.
  json file = recorded_file("classic", 9, 777);
  ASSERT_TRUE(file.is_object());
  const std::string hash = file["final_state_hash"];
  std::size_t human = 0;
  for (const json& a : file["actions"]) human += a["seat"] == 0 ? 1 : 0;
  ASSERT_GT(file["actions"].size(), human);

  // Loaded, the battle is the file's: its end, and every step through the human's moves.
  const Reply replay = post(client_, "/api/replays", file);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  EXPECT_EQ(replay.body["state_hash"], hash);
  EXPECT_EQ(replay.body["replay"]["steps"], human);
  const std::string id = replay.body["id"];
  const json& hashes = file["state_hashes"];
  for (std::size_t step = 0; step <= human; ++step) {
    const Reply at = post(client_, "/api/battles/" + id + "/seek", json{{"step", step}});
    ASSERT_EQ(at.status, 200) << at.body.dump();
    // After `step` moves of the human, the bots have moved up to the human's next decision (or
    // the end): the file's hash before the human's next move, at index i.
    std::size_t i = 0;
    for (std::size_t h = 0; i < file["actions"].size(); ++i)
      if (file["actions"][i]["seat"] == 0 && h++ == step) break;
    const json expected = i == 0 ? file["start_state_hash"] : hashes[i - 1];
    EXPECT_EQ(at.body["state_hash"], expected) << "step " << step;
  }
  // Its snapshot, at the end, loads again as the same battle.
  const Reply snap = get(client_, "/api/battles/" + id + "/snapshot");
  ASSERT_EQ(snap.status, 200) << snap.body.dump();
  ASSERT_TRUE(snap.body.contains("server_moves"));
  const Reply again = post(client_, "/api/replays", snap.body);
  ASSERT_EQ(again.status, 201) << again.body.dump();
  EXPECT_EQ(again.body["state_hash"], hash);

  // A bot's move the battle refuses is named by its place in the file.
  std::size_t bot = 0;
  while (file["actions"][bot]["seat"] == 0 || file["actions"][bot]["type"] != "play_card") ++bot;
  json trailing = file;
  file["actions"][bot]["slot"] = 99;
  const Reply bad = post(client_, "/api/replays", file);
  expect_refused(bad, 422, "replay_diverged");
  EXPECT_NE(bad.body["message"].get<std::string>().find(fmt::format("action {} of the replay", bot)),
            std::string::npos)
      << bad.body.dump();
  // So is one the file has after the battle's end, as a human's move there is: the whole list is
  // played, whatever its end hash says.
  const std::size_t end = trailing["actions"].size();
  trailing["actions"].push_back(trailing["actions"][bot]);
  const Reply after_end = post(client_, "/api/replays", trailing);
  expect_refused(after_end, 422, "replay_diverged");
  EXPECT_NE(after_end.body["message"].get<std::string>().find(fmt::format("action {} of the replay", end)),
            std::string::npos)
      << after_end.body.dump();
}

TEST_F(MonitorClash, ABotMoveLeftWhenTheHumanMovesEndIsRefusedWithOrWithoutAFinalHash) {
  const json full = recorded_file("classic", 9, 777);
  ASSERT_TRUE(full.is_object());
  const json& actions = full["actions"];
  // A human move followed by a bot's: the file keeps what came before it and the bot moves after
  // it, up to the human's next one, so that those wait on a human move the file no longer has.
  std::size_t human = 1;
  while (human + 1 < actions.size() && (actions[human]["seat"] != 0 || actions[human + 1]["seat"] == 0))
    ++human;
  ASSERT_LT(human + 1, actions.size());
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < human; ++i) keep.push_back(i);
  for (std::size_t i = human + 1; i < actions.size() && actions[i]["seat"] != 0; ++i) keep.push_back(i);
  const json file = with_actions(full, keep);
  // `battlecore replay` refuses the first of those bot moves, now at index `human`.
  const sim::ReplayCheck check = check_replay_text<sim::ClashRules>(classic(), file.dump());
  EXPECT_EQ(check.kind, sim::ReplayCheck::Kind::Diverged) << check.message;
  EXPECT_EQ(check.action, human) << check.message;

  const std::string named = fmt::format("action {} of the replay was refused: unused_bot_move", human);
  json no_hash = file;
  no_hash.erase("final_state_hash");
  const Reply without = post(client_, "/api/replays", no_hash);
  expect_refused(without, 422, "replay_diverged");
  EXPECT_NE(without.body["message"].get<std::string>().find(named), std::string::npos) << without.body.dump();
  // A final hash of the battle where it waits, the bot moves left aside, does not pass it either.
  json waiting_hash = file;
  waiting_hash["final_state_hash"] = full["state_hashes"][human - 1];
  const Reply with = post(client_, "/api/replays", waiting_hash);
  expect_refused(with, 422, "replay_diverged");
  EXPECT_NE(with.body["message"].get<std::string>().find(named), std::string::npos) << with.body.dump();

  // Without those bot moves, the file loads, and steps back and forth to its end.
  keep.resize(human);
  json prefix = with_actions(full, keep);
  prefix["final_state_hash"] = full["state_hashes"][human - 1];
  const Reply loaded = post(client_, "/api/replays", prefix);
  ASSERT_EQ(loaded.status, 201) << loaded.body.dump();
  const std::string id = loaded.body["id"];
  const std::size_t steps = loaded.body["replay"]["steps"];
  ASSERT_GT(steps, 0u);
  for (const std::size_t step : {std::size_t{0}, steps, steps - 1, steps}) {
    const Reply at = post(client_, "/api/battles/" + id + "/seek", json{{"step", step}});
    ASSERT_EQ(at.status, 200) << at.body.dump();
    if (step == steps) {
      EXPECT_EQ(at.body["state_hash"], prefix["final_state_hash"]);
    }
  }
}

TEST_F(MonitorClash, AReplayFileWithoutTheBotMovesItNeedsIsRefusedAsBattlecoreReplayRefusesIt) {
  const json full = recorded_file("classic", 9, 777);
  ASSERT_TRUE(full.is_object());
  std::vector<std::size_t> humans;
  for (std::size_t i = 0; i < full["actions"].size(); ++i)
    if (full["actions"][i]["seat"] == 0) humans.push_back(i);
  const json file = with_actions(full, humans);
  // `battlecore replay` makes no move of its own: the first human move that comes when a bot is
  // to move is refused.
  const sim::ReplayCheck check = check_replay_text<sim::ClashRules>(classic(), file.dump());
  ASSERT_EQ(check.kind, sim::ReplayCheck::Kind::Diverged) << check.message;
  ASSERT_TRUE(check.action.has_value()) << check.message;
  // So does the monitor: its server does not play the bots of a file in their place.
  const Reply r = post(client_, "/api/replays", file);
  expect_refused(r, 422, "replay_diverged");
  const std::string message = r.body["message"];
  EXPECT_NE(message.find(fmt::format("action {} of the replay was refused: missing_bot_move", *check.action)),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("the replay lists no bot move"), std::string::npos) << message;
}

TEST_F(MonitorClash, AReplayWithNoBotMoveDueMakesNoneOfItsOwn) {
  // A file that ends before the first bot's move needs no bot move: it loads, as `battlecore
  // replay` checks it, with the battle waiting on that bot.
  const std::uint64_t seed = seed_where_a_bot_moves_first("classic");
  cl::Battle battle(classic());
  ASSERT_TRUE(battle.start_battle("classic", seed).ok());
  const auto recorded = sim::record_replay<sim::ClashRules>(classic(), {"classic", seed, nullptr}, {});
  ASSERT_TRUE(recorded.ok()) << recorded.error().message;
  const std::string text = sim::replay_to_json(recorded.value()).dump();
  const sim::ReplayCheck check = check_replay_text<sim::ClashRules>(classic(), text);
  EXPECT_EQ(check.kind, sim::ReplayCheck::Kind::Match) << check.message;
  const std::string start_hash = fmt::format("{:016x}", battle.state_hash());
  const Reply loaded = post(client_, "/api/replays", text);
  ASSERT_EQ(loaded.status, 201) << loaded.body.dump();
  EXPECT_EQ(loaded.body["state_hash"], start_hash);
  EXPECT_EQ(loaded.body["decision"]["seat"], static_cast<int>(battle.state().current))
      << "the bot's move waits";

  // The short form tells an empty list of server moves from none given: the server plays its own
  // bots only when the key is left out.
  const json short_form = {
      {"rules", "clash"}, {"encounter", "classic"}, {"seed", seed}, {"actions", json::array()}};
  json empty = short_form;
  empty["server_moves"] = json::array();
  const Reply given = post(client_, "/api/replays", empty);
  ASSERT_EQ(given.status, 201) << given.body.dump();
  EXPECT_EQ(given.body["state_hash"], start_hash);
  const Reply left_out = post(client_, "/api/replays", short_form);
  ASSERT_EQ(left_out.status, 201) << left_out.body.dump();
  EXPECT_EQ(left_out.body["decision"]["seat"], 0) << "the server's bots have moved up to the human";
  EXPECT_NE(left_out.body["state_hash"], start_hash);
}

/// Expects every file made from `file` by swapping two neighbouring moves of different seats to
/// be refused by the server of `client` at the action where `battlecore replay` (checking it
/// against `catalog`) refuses it, with its reason: `missing_bot_move` for a human seat's move
/// moved up where a bot is to move, `unused_bot_move` for a bot's moved up where a human seat is,
/// and the engine's `not_your_turn` for a seat's moved up where another of its kind is. Returns
/// how many swaps crossed a human seat's move and a bot's. Nothing is added to the server.
std::size_t expect_every_swap_refused_where_replay_refuses_it(
    httplib::Client& client, const std::shared_ptr<const cl::Catalog>& catalog, const json& file) {
  const auto& seats =
      catalog->encounters[*catalog->find_encounter(file["encounter"].get<std::string>())].seats;
  const auto human = [&](const json& action) {
    return seats[action["seat"].get<std::size_t>()].kind == cl::SeatKind::Human;
  };
  const json& actions = file["actions"];
  const std::size_t battles = get(client, "/api/battles").body["battles"].size();
  std::size_t crossings = 0;
  for (std::size_t i = 0; i + 1 < actions.size(); ++i) {
    if (actions[i]["seat"] == actions[i + 1]["seat"]) continue;
    json swapped = file;
    std::swap(swapped["actions"][i], swapped["actions"][i + 1]);
    std::swap(swapped["state_hashes"][i], swapped["state_hashes"][i + 1]);
    const sim::ReplayCheck check = check_replay_text<sim::ClashRules>(catalog, swapped.dump());
    EXPECT_EQ(check.kind, sim::ReplayCheck::Kind::Diverged) << check.message;
    EXPECT_EQ(check.action, i) << check.message;
    const bool moved_human = human(actions[i + 1]);
    const bool due_human = human(actions[i]);
    crossings += moved_human != due_human ? 1 : 0;
    const std::string reason = moved_human == due_human ? "not_your_turn"
                               : moved_human            ? "missing_bot_move"
                                                        : "unused_bot_move";
    const Reply r = post(client, "/api/replays", swapped);
    expect_refused(r, 422, "replay_diverged");
    EXPECT_NE(
        r.body.value("message", "").find(fmt::format("action {} of the replay was refused: {}", i, reason)),
        std::string::npos)
        << "swap " << i << ": " << r.body.dump();
  }
  EXPECT_EQ(get(client, "/api/battles").body["battles"].size(), battles) << "a refused replay adds no battle";
  return crossings;
}

TEST_F(MonitorClash, AReplayFileIsPlayedInItsOrderAsBattlecoreReplayPlaysIt) {
  const json file = recorded_file("classic", 9, 777);
  ASSERT_TRUE(file.is_object());
  ASSERT_EQ(post(client_, "/api/replays", file).status, 201);
  EXPECT_GT(expect_every_swap_refused_where_replay_refuses_it(client_, classic(), file), 10u);
}

TEST(MonitorClashSeats, AReplayFileOfTwoHumanSeatsIsPlayedInItsOrder) {
  const auto pack = one_encounter(
      R"([{"kind": "human", "name": "H1"}, {"kind": "bot", "name": "B1"}, {"kind": "human", "name": "H2"},
          {"kind": "bot", "name": "B2"}])");
  MonitorServer server({monitor::make_clash_adapter(pack)});
  httplib::Client client = server.client();
  const json file = recorded_file("e", 5, 31, pack);
  ASSERT_TRUE(file.is_object());
  ASSERT_EQ(post(client, "/api/replays", file).status, 201);
  EXPECT_GT(expect_every_swap_refused_where_replay_refuses_it(client, pack, file), 10u);
}

TEST_F(MonitorClash, AMisplacedMoveIsRefusedWithWhoIsToMove) {
  const json full = recorded_file("classic", 9, 777);
  ASSERT_TRUE(full.is_object());
  const json& actions = full["actions"];
  // The first bot move that comes right after a human move.
  std::size_t bot = 1;
  while (bot < actions.size() && (actions[bot]["seat"] == 0 || actions[bot - 1]["seat"] != 0)) ++bot;
  ASSERT_LT(bot, actions.size());
  // The human move before it moved down past the bot moves that follow it, up to the human's next
  // move: the first of those bot moves comes where the human seat is to move, and `battlecore
  // replay` refuses it.
  std::size_t next_human = bot;
  while (next_human < actions.size() && actions[next_human]["seat"] != 0) ++next_human;
  ASSERT_LT(next_human, actions.size());
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < actions.size(); ++i)
    if (i != bot - 1) order.push_back(i);
  order.insert(order.begin() + static_cast<std::ptrdiff_t>(next_human - 1), bot - 1);
  const json late_human = with_actions(full, order);
  ASSERT_EQ(late_human["actions"][next_human - 1], actions[bot - 1]);
  const sim::ReplayCheck late_check = check_replay_text<sim::ClashRules>(classic(), late_human.dump());
  EXPECT_EQ(late_check.action, bot - 1) << late_check.message;
  const Reply late = post(client_, "/api/replays", late_human);
  expect_refused(late, 422, "replay_diverged");
  const std::string late_message = late.body.value("message", "");
  EXPECT_NE(late_message.find(fmt::format("action {} of the replay was refused: unused_bot_move", bot - 1)),
            std::string::npos)
      << late_message;
  EXPECT_NE(late_message.find("it waits on seat 0 (You, a human seat), and the replay lists no move of "
                              "theirs before it"),
            std::string::npos)
      << late_message;

  // The bot moves moved down past the human's next move: that one comes where a bot is to move.
  const auto bot_seat = actions[bot]["seat"].get<std::size_t>();
  order.clear();
  for (std::size_t i = 0; i < bot; ++i) order.push_back(i);
  order.push_back(next_human);
  for (std::size_t i = bot; i < actions.size(); ++i)
    if (i != next_human) order.push_back(i);
  const json late_bots = with_actions(full, order);
  const sim::ReplayCheck bots_check = check_replay_text<sim::ClashRules>(classic(), late_bots.dump());
  EXPECT_EQ(bots_check.action, bot) << bots_check.message;
  const Reply early = post(client_, "/api/replays", late_bots);
  expect_refused(early, 422, "replay_diverged");
  const std::string early_message = early.body.value("message", "");
  EXPECT_NE(early_message.find(fmt::format("action {} of the replay was refused: missing_bot_move", bot)),
            std::string::npos)
      << early_message;
  EXPECT_NE(early_message.find(fmt::format("seat {} ({}, a bot) decides before this move, and the replay "
                                           "lists the next bot move after this one",
                                           bot_seat, classic()->encounters[0].seats[bot_seat].name)),
            std::string::npos)
      << early_message;
}

TEST(MonitorClashAdapter, TheBotMovesPlacesAreOnePerMoveInOrder) {
  const auto adapter = monitor::make_clash_adapter(classic());
  const json moves = {{{"type", "roll"}, {"seat", 1}}, {{"type", "roll"}, {"seat", 2}}};
  for (const std::vector<std::size_t>& places : {std::vector<std::size_t>{0}, {2, 1}, {0, 1, 2}}) {
    const auto started = adapter->start_replay("classic", 9, {moves, places});
    ASSERT_FALSE(started.ok());
    EXPECT_EQ(started.error().reason, "bad_request");
  }
  EXPECT_TRUE(adapter->start_replay("classic", 9, {json::array(), {}}).ok());
}

TEST(MonitorClashReveal, ASnapshotOfAReplayStepCarriesTheBotMovesMadeUpToIt) {
  monitor::ServerOptions options;
  options.reveal = true;
  MonitorServer server({monitor::make_clash_adapter(classic())}, options);
  httplib::Client client = server.client();
  const json file = recorded_file("classic", 9, 777);
  ASSERT_TRUE(file.is_object());
  const Reply loaded = post(client, "/api/replays", file);
  ASSERT_EQ(loaded.status, 201) << loaded.body.dump();
  const std::string id = loaded.body["id"];
  // At step 4, the bots have made their moves up to the human's fifth.
  std::size_t human = 0, made = 0;
  for (const json& a : file["actions"]) {
    if (a["seat"] == 0 && human++ == 4) break;
    made += a["seat"] != 0 ? 1 : 0;
  }
  const Reply at = post(client, "/api/battles/" + id + "/seek", json{{"step", 4}});
  ASSERT_EQ(at.status, 200) << at.body.dump();
  const Reply snap = get(client, "/api/battles/" + id + "/snapshot");
  ASSERT_EQ(snap.status, 200) << snap.body.dump();
  ASSERT_EQ(snap.body["server_moves"].size(), made);
  const Reply again = post(client, "/api/replays", snap.body);
  ASSERT_EQ(again.status, 201) << again.body.dump();
  EXPECT_EQ(again.body["state_hash"], at.body["state_hash"]);
}

/// Every key anywhere in `j`.
void collect_keys(const json& j, std::set<std::string>& keys) {
  if (j.is_object())
    for (const auto& item : j.items()) {
      keys.insert(item.key());
      collect_keys(item.value(), keys);
    }
  else if (j.is_array())
    for (const json& x : j) collect_keys(x, keys);
}

TEST_F(MonitorClash, ABattleInPlayGivesNoBotCard) {
  const json o = create({{"rules", "clash"}, {"encounter", "classic"}, {"seed", 3}});
  const std::string id = o["id"];
  for (int i = 0; i < 6; ++i) ASSERT_EQ(act(id, {{"index", 0}}).status, 200);
  ASSERT_FALSE(overview(id)["state"]["over"].get<bool>());
  expect_refused(get(client_, "/api/battles/" + id + "/snapshot"), 403, "hidden_information");
  // The replay file: the start, the moves and hashes; no hand, no card, no event, no stream.
  const json file = json::parse(replay_text(client_, id));
  std::set<std::string> keys;
  collect_keys(file, keys);
  const std::set<std::string> expected = {"format",      "format_version", "engine_version",
                                          "rng_version", "rules",          "content_hash",
                                          "seed",        "encounter",      "start_state_hash",
                                          "actions",     "state_hashes",   "final_state_hash",
                                          "type",        "seat",           "rock",
                                          "slot"};
  EXPECT_EQ(keys, expected) << file.dump();
  // Neither has the replay of it.
  const Reply replay = post(client_, "/api/replays", file);
  ASSERT_EQ(replay.status, 201) << replay.body.dump();
  expect_refused(get(client_, "/api/battles/" + replay.body["id"].get<std::string>() + "/snapshot"), 403,
                 "hidden_information");
}

TEST_F(MonitorClash, AFinishedBattleGivesItsSnapshot) {
  const json o = create({{"rules", "clash"}, {"encounter", "bots4"}, {"seed", 3}});
  ASSERT_TRUE(o["state"]["over"].get<bool>());
  const Reply snap = get(client_, "/api/battles/" + o["id"].get<std::string>() + "/snapshot");
  ASSERT_EQ(snap.status, 200) << snap.body.dump();
  EXPECT_EQ(snap.body["state_hash"], o["state_hash"]);
  EXPECT_TRUE(snap.body["snapshot"].is_object());
}

}  // namespace
}  // namespace battlecore::test
