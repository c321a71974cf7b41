// Clash and party on the generic runner: per-seat and per-rule-set tallies, thread counts,
// shards, paired A/B and bad configurations.

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/party/load.hpp"
#include "battlecore/sim/simulate.hpp"
#include "support/clash_pack.hpp"
#include "support/first_option.hpp"

namespace battlecore::sim {
namespace {

std::shared_ptr<const party::Catalog> meadow() {
  static const auto pack = [] {
    auto r = party::load_catalog(std::filesystem::path(BATTLECORE_DATA_DIR) / "party" / "meadow");
    if (!r.ok()) throw std::runtime_error("the meadow pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return pack;
}

SimConfig config_of(const std::string& encounter, std::uint64_t battles,
                    const std::string& policy = "random") {
  SimConfig c;
  c.encounter = encounter;
  c.battles = battles;
  c.seed = 5;
  c.policy = policy;
  return c;
}

SimReport ok(Result<SimReport> r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : SimReport{};
}

nlohmann::json untimed(const SimReport& r) {
  nlohmann::json j = r.to_json();
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) j.erase(key);
  return j;
}

/// The merge of `n` shards, each through its JSON form as `report merge` reads it.
template <class Run>
SimReport merged_shards(Run run, std::uint32_t n) {
  std::vector<SimReport> shards;
  for (std::uint32_t k = 1; k <= n; ++k) {
    const SimReport shard = run(k, n);
    auto read = SimReport::from_json(nlohmann::json::parse(shard.to_json().dump()));
    EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message);
    shards.push_back(read.value());
  }
  return ok(merge_reports(shards));
}

// --- clash --------------------------------------------------------------------------------

TEST(ClashSim, EverySeatsWinsAndSharedFirstsAddUpToTheBattles) {
  const SimReport r = ok(simulate_clash(test::classic(), config_of("bots4", 300)));
  EXPECT_EQ(r.rules, "clash");
  EXPECT_TRUE(r.failures.empty());
  ASSERT_EQ(r.seats.size(), 4u);
  ASSERT_EQ(r.counter_names, std::vector<std::string>{"shared_first"});
  std::uint64_t total = r.counters[0];
  for (std::size_t i = 0; i < 4; ++i) {
    total += r.seats[i].wins;
    const double mean_place = double(r.seats[i].place_sum) / double(r.battles);
    EXPECT_GE(mean_place, 1.0);
    EXPECT_LE(mean_place, 4.0);
    EXPECT_GT(r.seats[i].wins, 30u) << "four identical bots should each win a fair share";
  }
  EXPECT_EQ(total, 300u);
  EXPECT_EQ(r.wins, r.seats[0].wins) << "the report's wins are seat 0's";
  const nlohmann::json j = r.to_json();
  ASSERT_TRUE(j["seats"].is_array());
  EXPECT_EQ(j["seats"][2]["wins"], r.seats[2].wins);
  EXPECT_EQ(j["wins"]["2"], r.seats[2].wins) << "wins keyed by seat";
  EXPECT_EQ(j["seats"][0]["policy"], "random");
  EXPECT_EQ(j["counters"]["shared_first"], r.counters[0]);
  const std::string text = r.to_text();
  EXPECT_NE(text.find("mean_place"), std::string::npos);
  // The text says whose the side's wins and health are.
  const std::string seat0 = r.seat_names.empty() ? "(seat 0)" : "(seat 0, " + r.seat_names[0] + ")";
  EXPECT_NE(text.find(fmt::format("{:<28}{}  {}\n", "wins", r.wins, seat0)), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("{:<28}{:.4f}  {}\n", "mean_hp_left_on_wins",
                                  double(r.hp_left_on_wins) / double(r.wins), seat0)),
            std::string::npos)
      << text;
}

// A policy the user writes plays a seat by its name; the other seats play theirs.
TEST(ClashSim, AUsersOwnPolicyPlaysASeatByItsName) {
  std::atomic<std::uint64_t> chosen{0};
  SimConfig c = config_of("bots4", 200);
  c.threads = 2;
  c.clash_policies = {
      {"first", [&] {
         return std::make_unique<test::FirstOption<clash::Policy, clash::Battle, clash::Action>>(chosen);
       }}};
  const SimReport r = ok(simulate_clash(test::classic(), c, {"", "", "first"}));
  EXPECT_EQ(r.seat_policies[2], "first");
  EXPECT_GT(chosen.load(), 0u);
  EXPECT_LT(chosen.load(), r.decisions) << "the other seats chose too";
  c.threads = 1;
  EXPECT_EQ(untimed(ok(simulate_clash(test::classic(), c, {"", "", "first"}))), untimed(r));
  const auto unknown = simulate_clash(test::classic(), c, {"", "firsts"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown policy 'firsts'; known policies: random, greedy, mcts; the run's own: first");
}

TEST(ClashSim, AGreedySeatZeroAgainstRandomSeatsWinsMoreThanAFairShare) {
  const SimReport r = ok(simulate_clash(test::classic(), config_of("bots4", 400), {"greedy"}));
  EXPECT_EQ(r.policy, "greedy") << "seat 0's policy is the run's";
  EXPECT_EQ(r.to_json()["seats"][0]["policy"], "greedy");
  EXPECT_EQ(r.to_json()["seats"][1]["policy"], "random");
  EXPECT_GT(r.wins, 400u / 4 + 400u / 20) << "greedy won " << r.wins;
}

TEST(ClashSim, PairedAOrBChangesOnlySeatZerosPolicy) {
  SimConfig c = config_of("bots4", 400, "random");
  c.versus_policy = "random";
  const SimReport r = ok(simulate_clash(test::classic(), c, {"greedy"}));
  EXPECT_EQ(r.paired.n(), 400u);
  EXPECT_GT(r.wins, r.versus.wins);
  EXPECT_GT(paired_test(r.paired).difference, 0.0);
  // The B run is the run where seat 0 plays random too: all four seats alike.
  const SimReport all_random = ok(simulate_clash(test::classic(), config_of("bots4", 400)));
  EXPECT_EQ(r.versus.wins, all_random.wins);
  EXPECT_EQ(r.versus.seats, all_random.seats);
}

TEST(ClashSim, ResultsDoNotDependOnThreadsAndShardsMergeIntoOneRun) {
  SimConfig c = config_of("trio", 240);
  const SimReport one = ok(simulate_clash(test::classic(), c));
  c.threads = 2;
  EXPECT_EQ(untimed(ok(simulate_clash(test::classic(), c))), untimed(one));
  const SimReport merged = merged_shards(
      [&](std::uint32_t k, std::uint32_t n) {
        SimConfig s = config_of("trio", 240);
        s.shard_index = k;
        s.shard_count = n;
        return ok(simulate_clash(test::classic(), s));
      },
      3);
  EXPECT_EQ(untimed(merged), untimed(one));
}

TEST(ClashSim, APairOfPacksPlaysTheSecondPackOnTheSameSeeds) {
  // The same rules as another pack (its own hash): side B reports that pack, and every seat's
  // results are the same.
  auto other = std::make_shared<clash::Catalog>(*test::classic());
  other->content_hash ^= 0x5157;
  const auto r = simulate_clash(test::classic(), config_of("bots4", 200), {}, other);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().settings["versus_content_hash"], fmt::format("{:016x}", other->content_hash));
  EXPECT_EQ(r.value().versus.seats.size(), r.value().seats.size());
  for (std::size_t s = 0; s < r.value().seats.size(); ++s) {
    EXPECT_EQ(r.value().versus.seats[s].wins, r.value().seats[s].wins) << s;
    EXPECT_EQ(r.value().versus.seats[s].place_sum, r.value().seats[s].place_sum) << s;
  }
  EXPECT_EQ(r.value().versus_policy, r.value().policy);
}

TEST(ClashSim, APairOfPacksWithMoreOrFewerSeatsIsRefused) {
  // Side B's encounter of the same id seats one duelist more, then one fewer.
  for (const auto& [a, b] :
       {std::pair{test::kTwoBots, test::kThreeBots}, std::pair{test::kThreeBots, test::kTwoBots}}) {
    const auto refused =
        simulate_clash(test::one_encounter(a), config_of("e", 10), {}, test::one_encounter(b));
    ASSERT_FALSE(refused.ok()) << b;
    EXPECT_NE(refused.error().message.find("their seats differ first at row 2"), std::string::npos)
        << refused.error().message;
  }
}

// A scenario that names no encounter starts the one asked for, not the pack's default.
TEST(ClashSim, AScenarioWithoutAnEncounterStartsTheOneAskedFor) {
  SimConfig c = config_of("duel", 20);
  c.scenario = nlohmann::json::object();
  const SimReport r = ok(simulate_clash(test::classic(), c));
  EXPECT_EQ(r.encounter, "duel");
  EXPECT_EQ(r.seats.size(),
            test::classic()->encounters[*test::classic()->find_encounter("duel")].seats.size());
  EXPECT_EQ(r.seats.size(), 2u);
}

TEST(ClashSim, BadConfigurationsAreErrors) {
  EXPECT_FALSE(simulate_clash(test::classic(), config_of("nope", 1)).ok());
  EXPECT_FALSE(simulate_clash(test::classic(), config_of("", 1, "nope")).ok());
  EXPECT_FALSE(simulate_clash(test::classic(), config_of("duel", 1), {"", "random", "random"}).ok())
      << "a policy for a third seat of a duel";
  EXPECT_FALSE(simulate_clash(test::classic(), config_of("duel", 1), {"", "cleverest"}).ok());
  for (const bool versus : {false, true}) {
    SimConfig with_deck = config_of("duel", 1);
    (versus ? with_deck.versus_deck : with_deck.deck) = {"strike"};
    const auto refused = simulate_clash(test::classic(), with_deck);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "a deck is a deckbuilder setting; the clash rule set has none");
  }
}

// --- party --------------------------------------------------------------------------------

TEST(PartySim, VictoriesDefeatsAndFlightsAddUpAndEnemiesAreTallied) {
  const SimReport r = ok(simulate_party(meadow(), config_of("swamp", 300)));
  EXPECT_EQ(r.rules, "party");
  EXPECT_TRUE(r.failures.empty());
  ASSERT_EQ(r.counter_names, (std::vector<std::string>{"defeats", "fled", "party_hp_left"}));
  EXPECT_EQ(r.wins + r.counters[0] + r.counters[1], 300u);
  EXPECT_GT(r.mean_turns(), 1.0);
  EXPECT_GT(r.counters[2], 0u);
  std::uint64_t damage = 0, fought = 0;
  for (const EnemyTally& e : r.enemies) {
    damage += e.damage_dealt;
    fought += e.battles;
  }
  EXPECT_GE(fought, 300u) << "every battle has at least one enemy";
  EXPECT_GT(damage, 0u);
  EXPECT_EQ(r.to_json()["settings"]["block_percent"], 60);
}

// docs/party.md names each column of the party report's enemies table and each of its counters
// and settings; the party has no armor, so its `armor_removed` column stays 0.
TEST(PartySim, EveryColumnOfThePartyReportIsDocumented) {
  const SimReport r = ok(simulate_party(meadow(), config_of("nest", 20)));
  std::ifstream file(std::filesystem::path(BATTLECORE_DATA_DIR).parent_path() / "docs" / "party.md");
  std::stringstream docs;
  docs << file.rdbuf();
  ASSERT_FALSE(docs.str().empty());
  const nlohmann::json j = r.to_json();
  ASSERT_FALSE(j["enemies"].empty());
  for (const char* table : {"enemies", "counters", "settings"}) {
    const nlohmann::json& row = std::string_view(table) == "enemies" ? j[table][0] : j[table];
    for (const auto& [key, value] : row.items())
      EXPECT_NE(docs.str().find("`" + key + "`"), std::string::npos) << table << ": " << key;
  }
  std::uint64_t damage = 0;
  for (const EnemyTally& e : r.enemies) {
    damage += e.damage_dealt;
    EXPECT_EQ(e.armor_removed, 0u);
  }
  EXPECT_GT(damage, 0u) << "the enemies' hits are counted";
}

// A policy the user writes plays the party by its name, every decision its own.
TEST(PartySim, AUsersOwnPolicyPlaysThePartyByItsName) {
  std::atomic<std::uint64_t> chosen{0};
  SimConfig c = config_of("swamp", 200, "first");
  c.threads = 2;
  c.party_policies = {
      {"first", [&] {
         return std::make_unique<test::FirstOption<party::Policy, party::Battle, party::Action>>(chosen);
       }}};
  const SimReport r = ok(simulate_party(meadow(), c));
  EXPECT_EQ(r.policy, "first");
  EXPECT_EQ(r.battles, 200u);
  EXPECT_TRUE(r.failures.empty());
  EXPECT_EQ(chosen.load(), r.decisions);
  c.threads = 1;
  EXPECT_EQ(untimed(ok(simulate_party(meadow(), c))), untimed(r));
  c.party_policies.push_back({"greedy", c.party_policies[0].make});
  const auto refused = simulate_party(meadow(), c);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "own policy 'greedy': the name is a built-in policy's");
}

// Each enemy's damage in a party report is what the battles' logs show: the HP each Damaged event
// of an enemy took from the party, under the enemy's definition, the reserves that join included.
// The report's listener is told only the two event types it reads; the logs here have them all.
TEST(PartySim, EachEnemysDamageIsWhatTheBattlesLogsShow) {
  std::atomic<std::uint64_t> chosen{0};
  SimConfig c = config_of("nest", 12, "first");
  c.party_policies = {
      {"first", [&] {
         return std::make_unique<test::FirstOption<party::Policy, party::Battle, party::Action>>(chosen);
       }}};
  const SimReport r = ok(simulate_party(meadow(), c));
  std::vector<std::uint64_t> logged(r.enemy_ids.size(), 0);
  std::uint64_t joined = 0;
  for (std::uint64_t i = 0; i < c.battles; ++i) {
    party::Battle b(meadow(), party::BattleOptions{.event_log = true, .record_history = false});
    ASSERT_TRUE(b.start_battle(c.encounter, battle_seed(c.seed, i)).ok());
    std::map<party::ActorRef, party::EnemyId> def_of;
    for (const party::EnemyState& e : b.state().enemies) def_of[party::enemy_actor(e.uid)] = e.def;
    std::vector<party::Action> options;
    while (b.status() == Status::AwaitingDecision) {
      b.legal_actions(options);
      ASSERT_TRUE(b.submit(options[0]).ok());
    }
    for (const party::Event& e : b.events().log()) {
      if (e.type == party::EventType::ReserveJoined) {
        def_of[e.target] = static_cast<party::EnemyId>(e.value);
        ++joined;
      } else if (e.type == party::EventType::Damaged && party::is_enemy_actor(e.source) &&
                 !party::is_enemy_actor(e.target)) {
        ASSERT_TRUE(def_of.contains(e.source));
        logged[def_of[e.source]] += static_cast<std::uint64_t>(std::max(0, e.amount));
      }
    }
  }
  ASSERT_EQ(r.enemies.size(), logged.size());
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < logged.size(); ++k) {
    EXPECT_EQ(r.enemies[k].damage_dealt, logged[k]) << r.enemy_ids[k];
    total += logged[k];
  }
  EXPECT_GT(total, 0u);
  EXPECT_GT(joined, 0u) << "no reserve joined: the encounter no longer tests them";
}

TEST(PartySim, AScenarioWithoutAnEncounterStartsTheOneAskedFor) {
  SimConfig c = config_of("nest", 20);
  c.scenario = nlohmann::json::object();
  const SimReport r = ok(simulate_party(meadow(), c));
  EXPECT_EQ(r.encounter, "nest");
  // The pack's default encounter has no seedling nest.
  const auto nest = std::find(r.enemy_ids.begin(), r.enemy_ids.end(), "seedling_nest");
  ASSERT_NE(nest, r.enemy_ids.end());
  EXPECT_EQ(r.enemies[static_cast<std::size_t>(nest - r.enemy_ids.begin())].battles, 20u);
}

TEST(PartySim, GreedyBeatsRandomAndBetterBlockingLeavesMoreHp) {
  EXPECT_GT(ok(simulate_party(meadow(), config_of("swamp", 300, "greedy"))).win_rate(),
            ok(simulate_party(meadow(), config_of("swamp", 300, "random"))).win_rate());
  const SimReport never = ok(simulate_party(meadow(), config_of("beetle_den", 200, "greedy"), {0, 0}));
  const SimReport always = ok(simulate_party(meadow(), config_of("beetle_den", 200, "greedy"), {100, 100}));
  EXPECT_GT(always.counters[2], never.counters[2]);
}

TEST(PartySim, ResultsDoNotDependOnThreadsAndShardsMergeIntoOneRun) {
  SimConfig c = config_of("ambush", 200);
  c.versus_policy = "greedy";
  const SimReport one = ok(simulate_party(meadow(), c));
  c.threads = 2;
  EXPECT_EQ(untimed(ok(simulate_party(meadow(), c))), untimed(one));
  const SimReport merged = merged_shards(
      [&](std::uint32_t k, std::uint32_t n) {
        SimConfig s = config_of("ambush", 200);
        s.versus_policy = "greedy";
        s.shard_index = k;
        s.shard_count = n;
        return ok(simulate_party(meadow(), s));
      },
      4);
  EXPECT_EQ(untimed(merged), untimed(one));
}

TEST(PartySim, APairOfPacksPlaysTheSecondPackOnTheSameSeeds) {
  auto other = std::make_shared<party::Catalog>(*meadow());
  other->content_hash ^= 0x5157;
  const auto r = simulate_party(meadow(), config_of("", 200), {}, other);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().settings["versus_content_hash"], fmt::format("{:016x}", other->content_hash));
  EXPECT_EQ(r.value().versus.wins, r.value().wins);
  EXPECT_EQ(r.value().versus.counters, r.value().counters);
  EXPECT_EQ(r.value().paired.only_a_won + r.value().paired.only_b_won, 0u);
}

TEST(PartySim, BadConfigurationsAreErrors) {
  EXPECT_FALSE(simulate_party(meadow(), config_of("no_such", 10)).ok());
  EXPECT_FALSE(simulate_party(meadow(), config_of("", 10, "cleverest")).ok());
  EXPECT_FALSE(simulate_party(meadow(), config_of("", 10), {10, 50}).ok());
  SimConfig with_deck = config_of("", 10);
  with_deck.deck = {"strike"};
  const auto refused = simulate_party(meadow(), with_deck);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "a deck is a deckbuilder setting; the party rule set has none");
}

TEST(SimMerge, RefusesShardsWithOtherSeatsOrSettings) {
  SimConfig c = config_of("beetle_den", 20);
  c.shard_count = 2;
  c.shard_index = 1;
  const SimReport a = ok(simulate_party(meadow(), c, {60, 15}));
  c.shard_index = 2;
  const SimReport b = ok(simulate_party(meadow(), c, {50, 15}));
  const auto merged = merge_reports({a, b});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.error().message.find("settings"), std::string::npos) << merged.error().message;
}

TEST(SimMerge, TheMctsSettingsAreRecordedAndShardsWithOtherSettingsDoNotMerge) {
  SimConfig c = config_of("duel", 4, "mcts");
  c.policy_options.iterations = 8;
  c.shard_count = 2;
  c.shard_index = 1;
  const SimReport a = ok(simulate_clash(test::classic(), c));
  EXPECT_EQ(a.settings.value("mcts_iterations", 0u), 8u) << a.settings.dump();
  c.shard_index = 2;
  c.policy_options.iterations = 9;
  const SimReport b = ok(simulate_clash(test::classic(), c));
  const auto merged = merge_reports({a, b});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.error().message.find("settings"), std::string::npos) << merged.error().message;
  // A run without mcts records no mcts settings.
  EXPECT_FALSE(
      ok(simulate_clash(test::classic(), config_of("duel", 2))).settings.contains("mcts_iterations"));
}

}  // namespace
}  // namespace battlecore::sim
