#include "battlecore/sim/report.hpp"

#include <cmath>
#include <utility>

#include <gtest/gtest.h>

#include <fmt/format.h>

namespace battlecore::sim {
namespace {

TEST(SimReport, PercentileIsTheNearestRank) {
  // values 1 x1, 2 x2, 5 x7: ten battles
  const std::vector<std::uint64_t> h = {0, 1, 2, 0, 0, 7};
  EXPECT_EQ(percentile(h, 10), 1u);
  EXPECT_EQ(percentile(h, 20), 2u);
  EXPECT_EQ(percentile(h, 30), 2u);
  EXPECT_EQ(percentile(h, 31), 5u);
  EXPECT_EQ(percentile(h, 100), 5u);
  EXPECT_EQ(percentile({}, 50), 0u);
}

TEST(SimTally, ABattleCountsOncePerCardPlayedEvenWithManyDistinctCards) {
  Tally t;
  t.resize(TallyShape{.cards = 200});
  BattleRecord b;
  b.won = true;
  // 40 distinct cards, 60 to 99, each played twice, interleaved; then 63 and 70 again and 199
  // once; card 300 is outside the table and ignored.
  for (std::uint32_t round = 0; round < 2; ++round)
    for (std::uint32_t c = 60; c < 100; ++c) b.add_play(c);
  b.add_play(63);
  b.add_play(70);
  b.add_play(199);
  b.add_play(300);
  ASSERT_EQ(b.cards_played.size(), 42u);  // each card once
  t.add(b);
  b.won = false;
  t.add(b);
  for (std::uint32_t c = 60; c < 100; ++c) {
    EXPECT_EQ(t.cards[c].plays, c == 63 || c == 70 ? 6u : 4u) << c;
    EXPECT_EQ(t.cards[c].battles_played, 2u) << c;
    EXPECT_EQ(t.cards[c].wins_when_played, 1u) << c;
  }
  EXPECT_EQ(t.cards[199].plays, 2u);
  EXPECT_EQ(t.cards[199].battles_played, 2u);
  EXPECT_EQ(t.cards[59].battles_played, 0u);
  EXPECT_EQ(t.cards[100].battles_played, 0u);
}

TEST(SimTally, AddPlayKeepsEachCardOnceInTheOrderOfItsFirstPlay) {
  BattleRecord b;
  for (std::uint32_t c : {0u, 5u, 0u, 63u, 5u, 64u, 63u, 0u}) b.add_play(c);
  EXPECT_EQ(b.cards_played, (std::vector<CardPlays>{{0, 3}, {5, 2}, {63, 2}, {64, 1}}));
  Tally t;
  t.resize(TallyShape{.cards = 70});
  b.won = true;
  t.add(b);
  EXPECT_EQ(t.cards[0].plays, 3u);
  EXPECT_EQ(t.cards[0].battles_played, 1u);
  EXPECT_EQ(t.cards[5].plays, 2u);
  EXPECT_EQ(t.cards[5].battles_played, 1u);
  EXPECT_EQ(t.cards[63].battles_played, 1u);
  EXPECT_EQ(t.cards[64].battles_played, 1u);
  EXPECT_EQ(t.cards[64].wins_when_played, 1u);
  EXPECT_EQ(t.cards[1].battles_played, 0u);
  b.clear();
  EXPECT_TRUE(b.cards_played.empty());
}

TEST(SimReport, WilsonIntervalMatchesTheFormula) {
  // 80 of 100: the textbook interval is 0.7112 .. 0.8666.
  const Interval ci = wilson_interval(80, 100);
  EXPECT_NEAR(ci.low, 0.7112, 5e-4);
  EXPECT_NEAR(ci.high, 0.8666, 5e-4);
  const Interval all = wilson_interval(10, 10);
  EXPECT_LT(all.low, 1.0);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  // No win: the interval starts at 0 exactly (the formula gives 0 only up to rounding).
  for (std::uint64_t n : {1u, 7u, 50u, 1000u}) {
    EXPECT_EQ(wilson_interval(0, n).low, 0.0) << n;
    EXPECT_GT(wilson_interval(0, n).high, 0.0) << n;
    EXPECT_EQ(wilson_interval(n, n).high, 1.0) << n;
  }
}

TEST(SimReport, PairedTestUsesOnlyTheDiscordantBattles) {
  Paired p;
  for (int i = 0; i < 60; ++i) p.add(true, true);
  for (int i = 0; i < 25; ++i) p.add(true, false);
  for (int i = 0; i < 5; ++i) p.add(false, true);
  for (int i = 0; i < 10; ++i) p.add(false, false);
  ASSERT_EQ(p.n(), 100u);
  const PairedTest t = paired_test(p);
  EXPECT_DOUBLE_EQ(t.difference, 0.20);
  // McNemar with continuity correction: (|25 - 5| - 1)^2 / 30 = 12.033, p ~ 0.00052.
  EXPECT_NEAR(t.mcnemar_chi2, 361.0 / 30.0, 1e-9);
  EXPECT_NEAR(t.p_value, 0.000523, 2e-5);
  // Newcombe's interval: A wins 85 of 100 (Wilson 0.7672 .. 0.9068), B 65 (0.5525 .. 0.7364);
  // the cross product 60 * 10 - 25 * 5 = 475 exceeds n / 2, so phi = (475 - 50) / sqrt(85 * 15 *
  // 65 * 35) = 0.0787, and the interval is 0.20 - 0.1037 .. 0.20 + 0.0999.
  EXPECT_NEAR(t.ci_low, 0.09632, 1e-4);
  EXPECT_NEAR(t.ci_high, 0.29985, 1e-4);
  // Seeds that never tell the sides apart still leave an interval around 0: both Wilson
  // intervals of 10 of 10 reach down to 0.7225, and a margin is empty, so phi = 0.
  Paired same;
  for (int i = 0; i < 10; ++i) same.add(true, true);
  EXPECT_DOUBLE_EQ(paired_test(same).difference, 0.0);
  EXPECT_DOUBLE_EQ(paired_test(same).p_value, 1.0);
  EXPECT_NEAR(paired_test(same).ci_low, -0.27753, 1e-4);
  EXPECT_NEAR(paired_test(same).ci_high, 0.27753, 1e-4);
}

// The paired 2x2 table of Bentur et al. (both 1, only A 1, only B 7, neither 12), an example
// of Fagerland, Lydersen and Laake's book on contingency tables: Newcombe's interval, worked by
// hand from the formula, is -0.507 .. -0.026.
TEST(SimReport, PairedIntervalMatchesAWorkedExample) {
  Paired p;
  p.both_won = 1;
  p.only_a_won = 1;
  p.only_b_won = 7;
  p.both_lost = 12;
  const PairedTest t = paired_test(p);
  EXPECT_NEAR(t.difference, -6.0 / 21.0, 1e-12);
  EXPECT_NEAR(t.ci_low, -0.507, 5e-4);
  EXPECT_NEAR(t.ci_high, -0.026, 5e-4);
  // A negative cross product enters phi without correction: the interval widens.
  Paired q;
  q.only_a_won = 10;
  q.only_b_won = 10;
  q.both_won = 1;
  q.both_lost = 1;
  const PairedTest u = paired_test(q);
  EXPECT_DOUBLE_EQ(u.difference, 0.0);
  EXPECT_LT(u.ci_low, -0.25);
  EXPECT_GT(u.ci_high, 0.25);
  EXPECT_GE(u.ci_low, -1.0);
  EXPECT_LE(u.ci_high, 1.0);
}

TEST(SimReport, PairedTestComparesHpLeftSeedBySeed) {
  Paired p;
  // Per-seed differences A - B: +10, +10, +4, -4 (mean 5), lost battles count as 0 HP.
  p.add(true, true, 50, 40);
  p.add(true, false, 10, 0);
  p.add(true, true, 30, 26);
  p.add(false, true, 0, 4);
  ASSERT_EQ(p.n(), 4u);
  EXPECT_EQ(p.hp_diff_sum, 20);
  EXPECT_TRUE(p.hp_diff_sq_sum == 232u);
  const PairedTest t = paired_test(p);
  EXPECT_DOUBLE_EQ(t.hp_difference, 5.0);
  // sd of d: sqrt((232 - 4 * 25) / 3) = 6.633; se = 3.317; half width 6.501.
  EXPECT_NEAR(t.hp_ci_low, 5.0 - 6.501, 1e-3);
  EXPECT_NEAR(t.hp_ci_high, 5.0 + 6.501, 1e-3);
  // Shards add up to the same sums.
  Paired first, second;
  first.add(true, true, 50, 40);
  first.add(true, false, 10, 0);
  second.add(true, true, 30, 26);
  second.add(false, true, 0, 4);
  ASSERT_TRUE(first.add(second).ok());
  EXPECT_EQ(first, p);
}

// A report's JSON writes each number to its last bit, so the statistics must come out the same
// in every build. These are the tables of `sim --rules deckbuilder --policy random
// --versus-policy greedy --battles 37` with seeds 1 and 2: with a * b + c fused into one
// rounding (a build for a target with FMA, when the compiler may contract), an end of each HP
// interval is one unit in the last place away.
TEST(SimReport, PairedTestGivesTheSameBitsInEveryBuild) {
  // Seeds where both won or only B won, and the sums of the HP differences and their squares.
  const auto hp_interval = [](std::uint64_t both_won, std::uint64_t only_b_won, std::int64_t sum,
                              std::uint64_t sq_sum) {
    Paired p;
    p.both_won = both_won;
    p.only_b_won = only_b_won;
    p.hp_diff_sum = sum;
    p.hp_diff_sq_sum = sq_sum;
    const PairedTest t = paired_test(p);
    return std::pair{t.hp_ci_low, t.hp_ci_high};
  };
  EXPECT_EQ(hp_interval(33, 4, -1095, 48197), std::pair(-36.34297693706752, -22.84621225212167));
  EXPECT_EQ(hp_interval(35, 2, -1007, 43695), std::pair(-34.07004832988278, -20.362384102549655));
}

TEST(SimReport, PairedIntervalsNeedASeedAndTheHpIntervalTwo) {
  // With no seed (an empty shard, or every seed failed on a side) there is no interval either.
  const PairedTest none = paired_test(Paired{});
  EXPECT_DOUBLE_EQ(none.difference, 0.0);
  EXPECT_DOUBLE_EQ(none.p_value, 1.0);
  EXPECT_TRUE(std::isnan(none.ci_low) && std::isnan(none.ci_high));
  EXPECT_TRUE(std::isnan(none.hp_ci_low) && std::isnan(none.hp_ci_high));
  EXPECT_EQ(paired_interval_text(none.ci_low, none.ci_high, 0), "undefined (no seed paired)");
  EXPECT_EQ(paired_interval_text(none.hp_ci_low, none.hp_ci_high, 0), "undefined (no seed paired)");
  // With one seed the win rates' interval is Newcombe's, wide; the HP difference has no spread
  // to estimate a standard error from.
  Paired one;
  one.add(true, false, 39, 0);
  const PairedTest t = paired_test(one);
  EXPECT_DOUBLE_EQ(t.difference, 1.0);
  EXPECT_DOUBLE_EQ(t.hp_difference, 39.0);
  EXPECT_LT(t.ci_low, 0.0);
  EXPECT_DOUBLE_EQ(t.ci_high, 1.0);
  EXPECT_TRUE(std::isnan(t.hp_ci_low) && std::isnan(t.hp_ci_high));
  EXPECT_EQ(paired_interval_text(t.ci_low, t.ci_high, 1).find("undefined"), std::string::npos);
  EXPECT_EQ(paired_interval_text(t.hp_ci_low, t.hp_ci_high, 1), "undefined (fewer than two seeds)");
  one.add(false, false, 0, 0);
  EXPECT_FALSE(std::isnan(paired_test(one).hp_ci_low));
  EXPECT_EQ(paired_interval_text(-0.5, 0.25, 2), "-0.5000 .. +0.2500");
}

TEST(SimReport, ShardsCoverEveryBattleOnce) {
  for (std::uint64_t total : {0ull, 1ull, 7ull, 1000ull, 1001ull}) {
    for (std::uint32_t n : {1u, 2u, 3u, 4u, 9u}) {
      std::uint64_t next = 0;
      for (std::uint32_t k = 1; k <= n; ++k) {
        const ShardRange r = shard_range(total, k, n);
        EXPECT_EQ(r.first, next) << total << " " << k << "/" << n;
        EXPECT_LE(r.count, total / n + 1);
        next = r.first + r.count;
      }
      EXPECT_EQ(next, total);
    }
  }
}

TEST(SimReport, ParseShardRefusesMalformedAndOutOfRange) {
  const auto ok = parse_shard("3/4");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value().first, 3u);
  EXPECT_EQ(ok.value().second, 4u);
  for (const char* bad : {"3/2", "0/2", "1/0", "", "/", "3", "a/b", "1/2/3", "-1/2", "1 /2", "1/2x"})
    EXPECT_FALSE(parse_shard(bad).ok()) << bad;
  EXPECT_NE(parse_shard("3/2").error().message.find("between 1 and N"), std::string::npos);
  // A count past kMaxShardCount is named as what is wrong with it.
  EXPECT_TRUE(parse_shard("1/999999999").ok());
  EXPECT_NE(parse_shard("1/1000000000").error().message.find("of at most 999999999"), std::string::npos)
      << parse_shard("1/1000000000").error().message;
}

/// Shard k of n of a W1 run of `total` battles with `policy`, seed 7, and no battle yet.
SimReport empty_shard(std::uint32_t k, std::uint32_t n, std::uint64_t total, const char* policy) {
  SimReport r;
  r.rules = "deckbuilder";
  r.encounter = "w1";
  r.policy = policy;
  r.seed = 7;
  r.content_hash = 0xabcdef0123456789ull;
  r.total_battles = total;
  r.shard_index = k;
  r.shard_count = n;
  r.first_battle = shard_range(total, k, n).first;
  return r;
}

SimReport sample_shard(std::uint32_t k, std::uint32_t n, std::uint64_t total) {
  SimReport r = empty_shard(k, n, total, "random");
  r.card_ids = {"strike", "defend"};
  r.enemy_ids = {"jaw"};
  r.resize(r.shape());
  const ShardRange range = shard_range(total, k, n);
  BattleRecord b;
  for (std::uint64_t i = range.first; i < range.first + range.count; ++i) {
    b.clear();
    b.won = i % 3 != 0;
    b.turns = static_cast<std::uint32_t>(3 + i % 5);
    b.decisions = 10 + i % 4;
    b.hp_left = b.won ? static_cast<std::uint32_t>(20 + i % 7) : 0;
    b.cards_played = {{0, 2}, {1, 1}};
    b.enemies = {0};
    b.enemy_damage = {i % 11};
    b.enemy_armor = {1};
    r.add(b);
  }
  return r;
}

TEST(SimReport, JsonRoundTrips) {
  const SimReport r = sample_shard(2, 3, 30);
  const auto back = SimReport::from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back.value().to_json(), r.to_json());
  EXPECT_EQ(static_cast<const Tally&>(back.value()), static_cast<const Tally&>(r));
}

TEST(SimReport, FromJsonNamesAMissingKey) {
  // A count, the build, and whether the enemies' damage was counted (a report without it would
  // otherwise pass for one that counted it).
  for (const char* key : {"wins", "engine_version", "rng_version", "enemy_damage_counted"}) {
    nlohmann::json j = sample_shard(1, 1, 10).to_json();
    ASSERT_TRUE(j.contains(key)) << key;
    j.erase(key);
    const auto back = SimReport::from_json(j);
    ASSERT_FALSE(back.ok()) << key;
    EXPECT_NE(back.error().message.find(fmt::format("missing key '{}'", key)), std::string::npos)
        << back.error().message;
  }
  SimReport without_damage = sample_shard(1, 1, 10);  // as a run with --no-enemy-damage has it
  for (EnemyTally& e : without_damage.enemies) e.damage_dealt = e.armor_removed = 0;
  nlohmann::json uncounted = without_damage.to_json();
  uncounted["enemy_damage_counted"] = false;
  const auto back = SimReport::from_json(uncounted);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back.value().enemy_damage_counted);
}

/// The error of reading `j`, or "" when it is read.
std::string read_error(const nlohmann::json& j) {
  const auto back = SimReport::from_json(j);
  return back.ok() ? "" : back.error().message;
}

TEST(SimReport, FromJsonNamesTheValueThatIsNotACount) {
  nlohmann::json j = sample_shard(1, 1, 10).to_json();
  j["battles"] = -1;
  EXPECT_EQ(read_error(j), "report: /battles: expected a non-negative integer, got -1");
  j = sample_shard(1, 1, 10).to_json();
  j["cards"][1]["plays"] = "many";
  EXPECT_EQ(read_error(j), "report: /cards/1/plays: expected a non-negative integer, got \"many\"");
}

TEST(SimReport, FromJsonRefusesUnknownKeysAtTheirPointer) {
  nlohmann::json j = sample_shard(1, 1, 10).to_json();
  j["winz"] = 3;
  EXPECT_NE(read_error(j).find("report: /winz: unknown key 'winz'; allowed keys: rules,"), std::string::npos)
      << read_error(j);
  j = sample_shard(1, 1, 10).to_json();
  j["turns"]["p99"] = 7;
  EXPECT_NE(read_error(j).find("/turns/p99: unknown key 'p99'"), std::string::npos) << read_error(j);
  j = sample_shard(2, 3, 30).to_json();
  j["shard"]["of"] = 3;
  EXPECT_NE(read_error(j).find("/shard/of: unknown key 'of'"), std::string::npos) << read_error(j);
}

TEST(SimReport, FromJsonRefusesCountsThatDisagree) {
  const nlohmann::json good = sample_shard(1, 1, 30).to_json();
  ASSERT_EQ(read_error(good), "");
  auto with = [&](auto change) {
    nlohmann::json j = good;
    change(j);
    return read_error(j);
  };
  // More wins than battles once merged into a win rate of 33333.9.
  EXPECT_NE(
      with([](nlohmann::json& j) { j["wins"] = 1000000; }).find("/wins: 1000000 wins is more than the 30"),
      std::string::npos);
  EXPECT_NE(
      with([](nlohmann::json& j) { j["turns"]["histogram"][4] = 100; }).find("/turns/histogram: counts"),
      std::string::npos);
  EXPECT_NE(
      with([](nlohmann::json& j) { j["hp_left"]["histogram"][0] = 0; }).find("/hp_left/histogram: counts"),
      std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) { j["turns"]["total"] = 1; }).find("/turns/total: is 1"),
            std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) {
              j["cards"][0]["wins_when_played"] = 29;
            }).find("/cards/0/wins_when_played"),
            std::string::npos);
  EXPECT_NE(
      with([](nlohmann::json& j) { j["cards"][0]["battles_played"] = 31; }).find("/cards/0/battles_played"),
      std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) { j["battles"] = 31; }).find("/turns/histogram"), std::string::npos);
}

TEST(SimReport, FromJsonRefusesShardsNoRunHas) {
  nlohmann::json j = sample_shard(2, 3, 30).to_json();
  ASSERT_EQ(read_error(j), "");
  // 2^32 + 3 shards once read as 3.
  j["shard"]["count"] = 4294967299ull;
  j["shard"]["index"] = 4294967298ull;
  EXPECT_NE(read_error(j).find("/shard/count: expected a shard count from 1 to 999999999, got 4294967299"),
            std::string::npos)
      << read_error(j);
  j["shard"]["count"] = 3;
  j["shard"]["index"] = 4;
  EXPECT_NE(read_error(j).find("/shard/index: expected a shard index from 1 to the count 3, got 4"),
            std::string::npos)
      << read_error(j);
  j["shard"]["index"] = 2;
  j["shard"]["first_battle"] = 11;
  EXPECT_NE(read_error(j).find("/shard/first_battle: shard 2/3 of 30 battles starts at battle 10, not 11"),
            std::string::npos)
      << read_error(j);
}

TEST(SimReport, MergeOfShardsEqualsTheWholeRun) {
  const SimReport whole = sample_shard(1, 1, 101);
  std::vector<SimReport> parts;
  for (std::uint32_t k : {3u, 1u, 4u, 2u}) parts.push_back(sample_shard(k, 4, 101));  // any order
  const auto merged = merge_reports(parts);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged.value().to_json().dump(), whole.to_json().dump());
}

/// sample_shard as one side of a paired run whose other side had the same results, with `sq_sum`
/// as its sum of squared HP differences.
SimReport paired_shard(std::uint32_t k, std::uint32_t n, std::uint64_t total, Uint128 sq_sum) {
  SimReport r = sample_shard(k, n, total);
  r.versus_policy = "greedy";
  r.versus = static_cast<const Tally&>(r);
  r.paired.both_won = r.wins;
  r.paired.both_lost = r.battles - r.wins;
  r.paired.hp_diff_sq_sum = sq_sum;
  return r;
}

/// A paired shard played battle by battle as the runner plays one: side A as sample_shard, side
/// B ("greedy") with other outcomes, and a seed in the paired table when neither side failed on
/// it. Battle i fails on side A when i % a_fails == 0, on side B when i % b_fails == 0 (0: never).
SimReport played_pair(std::uint32_t k, std::uint32_t n, std::uint64_t total, std::uint64_t a_fails,
                      std::uint64_t b_fails) {
  SimReport r = sample_shard(k, n, total);
  static_cast<Tally&>(r) = Tally{};
  r.versus_policy = "greedy";
  r.resize(r.shape());
  r.versus.resize(r.shape());
  const ShardRange range = shard_range(total, k, n);
  BattleRecord a, b;
  for (std::uint64_t i = range.first; i < range.first + range.count; ++i) {
    a.clear();
    a.won = i % 3 != 0;
    a.turns = static_cast<std::uint32_t>(3 + i % 5);
    a.decisions = 10 + i % 4;
    a.hp_left = a.won ? static_cast<std::uint32_t>(20 + i % 7) : 0;
    a.cards_played = {{0, 2}, {1, 1}};
    a.enemies = {0};
    a.enemy_damage = {i % 11};
    a.enemy_armor = {1};
    b = a;
    b.won = i % 4 != 1;
    b.turns = static_cast<std::uint32_t>(2 + i % 3);
    b.hp_left = b.won ? static_cast<std::uint32_t>(5 + i % 13) : 0;
    b.cards_played = {{0, 1}};
    const bool a_ok = a_fails == 0 || i % a_fails != 0, b_ok = b_fails == 0 || i % b_fails != 0;
    for (const auto& [ok, record, tally, policy] : {std::tuple{a_ok, &a, static_cast<Tally*>(&r), "random"},
                                                    std::tuple{b_ok, &b, &r.versus, "greedy"}}) {
      if (ok) {
        tally->add(*record);
      } else {
        ++tally->battles;
        tally->failures.push_back(SimFailure{i, battle_seed(r.seed, i), "broke", policy, {"end_turn"}});
      }
    }
    if (a_ok && b_ok) r.paired.add(a.won, b.won, a.hp_left, b.hp_left);
  }
  return r;
}

/// A paired report of a rule set with seats (and a counter): seat 1 plays "greedy" on both sides,
/// seat 0 the run's policies.
SimReport seated_pair() {
  SimReport r;
  r.rules = "clash";
  r.encounter = "duel";
  r.policy = "random";
  r.versus_policy = "mcts";
  r.seed = 7;
  r.total_battles = 20;
  r.seat_names = {"north", "south"};
  r.seat_kinds = {"bot", "bot"};
  r.seat_policies = {"", "greedy"};
  r.counter_names = {"shared_first"};
  r.resize(r.shape());
  r.versus.resize(r.shape());
  BattleRecord a, b;
  for (std::uint64_t i = 0; i < 20; ++i) {
    a.clear();
    a.counters.assign(1, 0);
    a.turns = 4;
    a.decisions = 9;
    b = a;
    a.places = {static_cast<std::uint8_t>(i % 2 ? 1 : 2), static_cast<std::uint8_t>(i % 2 ? 2 : 1)};
    b.places = {static_cast<std::uint8_t>(i % 3 ? 1 : 2), static_cast<std::uint8_t>(i % 3 ? 2 : 1)};
    for (BattleRecord* rec : {&a, &b}) {
      rec->won = rec->places[0] == 1;
      rec->hp_left = rec->won ? 12 : 0;
    }
    r.add(a);
    r.versus.add(b);
    r.paired.add(a.won, b.won, a.hp_left, b.hp_left);
  }
  return r;
}

/// Shard k of n of a paired run of `total` battles in which side A won every battle with `hp` HP
/// left and side B lost every one: each seed's HP difference is `hp`. Built from its counts, so
/// that it can stand for a run of up to kMaxBattles battles.
SimReport one_sided_pair(std::uint32_t k, std::uint32_t n, std::uint64_t total, std::uint32_t hp) {
  SimReport r = empty_shard(k, n, total, "greedy");
  r.versus_policy = "random";
  const ShardRange range = shard_range(total, k, n);
  for (Tally* t : {static_cast<Tally*>(&r), &r.versus}) {
    t->battles = range.count;
    t->turns = 3 * range.count;
    t->turns_histogram = {0, 0, 0, range.count};
    t->decisions = 10 * range.count;
  }
  r.wins = range.count;
  r.hp_left_on_wins = range.count * hp;
  r.hp_left_histogram.assign(std::size_t{hp} + 1, 0);
  r.hp_left_histogram.back() = range.count;
  r.versus.hp_left_histogram = {range.count};
  r.paired.only_a_won = range.count;
  r.paired.hp_diff_sum = static_cast<std::int64_t>(range.count * hp);
  r.paired.hp_diff_sq_sum = Uint128{range.count} * hp * hp;
  return r;
}

TEST(SimReport, ASumOfSquaredHpDifferencesPast2To64IsKeptExactly) {
  // 10^12 battles with HP differences of a few thousand pass 2^64 (it once wrapped around): here
  // each half of the run's squares add up to 5 * 10^11 * 8000^2.
  const SimReport shard = one_sided_pair(1, 2, kMaxBattles, 8000);
  const nlohmann::json j = shard.to_json();
  EXPECT_EQ(j["versus"]["paired"]["hp_left_diff_sq_sum"], "32000000000000000000");
  const auto back = SimReport::from_json(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back.value().paired.hp_diff_sq_sum == shard.paired.hp_diff_sq_sum);
  EXPECT_EQ(back.value().to_json(), j);
  // Below 2^64 it stays a number; two shards merge to the exact sum.
  EXPECT_EQ(one_sided_pair(1, 2, 40, 12).to_json()["versus"]["paired"]["hp_left_diff_sq_sum"], 2880);
  const auto merged = merge_reports({back.value(), one_sided_pair(2, 2, kMaxBattles, 8000)});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged.value().to_json()["versus"]["paired"]["hp_left_diff_sq_sum"], "64000000000000000000");
  EXPECT_EQ(read_error(merged.value().to_json()), "");
  // Anything else in a string is refused at its pointer.
  for (const char* bad : {"12", "x", "-1", "340282366920938463463374607431768211456", ""}) {
    nlohmann::json edited = j;
    edited["versus"]["paired"]["hp_left_diff_sq_sum"] = bad;
    const std::string error = read_error(edited);
    EXPECT_NE(error.find("/versus/paired/hp_left_diff_sq_sum"), std::string::npos) << bad << ": " << error;
  }
}

TEST(SimReport, MergeRefusesMissingDuplicateAndForeignShards) {
  std::vector<SimReport> parts = {sample_shard(1, 3, 90), sample_shard(2, 3, 90)};
  auto missing = merge_reports(parts);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing shard(s) 3/3"), std::string::npos)
      << missing.error().message;

  parts.push_back(sample_shard(2, 3, 90));
  auto twice = merge_reports(parts);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos) << twice.error().message;

  parts.back() = sample_shard(3, 3, 90);
  ASSERT_TRUE(merge_reports(parts).ok());

  auto with = [&](auto change) {
    auto copy = parts;
    change(copy[2]);
    return merge_reports(copy);
  };
  EXPECT_FALSE(with([](SimReport& r) { r.seed = 8; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.content_hash ^= 1; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.encounter = "other"; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.policy = "greedy"; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.versus_policy = "mcts"; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.shard_count = 4; }).ok());
  EXPECT_FALSE(with([](SimReport& r) { r.battles -= 1; }).ok());
  const auto seed = with([](SimReport& r) { r.seed = 8; });
  EXPECT_NE(seed.error().message.find("seed"), std::string::npos) << seed.error().message;
  // Shards of another build: the same seeds may have played other battles.
  const auto build = with([](SimReport& r) { r.engine_version = "0.0.9"; });
  ASSERT_FALSE(build.ok());
  EXPECT_NE(build.error().message.find("report 3 has engine_version '0.0.9' but report 1 has '" +
                                       std::string(engine_version()) + "'"),
            std::string::npos)
      << build.error().message;
  const auto rng = with([](SimReport& r) { r.rng_version = kRngVersion + 1; });
  ASSERT_FALSE(rng.ok());
  EXPECT_NE(rng.error().message.find("rng_version"), std::string::npos) << rng.error().message;
}

TEST(SimReport, MergeRefusesAShardCountNoRunHasWithoutATableOfThatSize) {
  // 4,000,000,000 shards: a table of one pointer per shard once aborted with bad_alloc.
  std::vector<SimReport> huge = {sample_shard(1, 4'000'000'000u, 1)};
  const auto refused = merge_reports(huge);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("is shard 1/4000000000"), std::string::npos)
      << refused.error().message;
  // The most shards a run has, one of them given: the first missing ones are named, not all.
  std::vector<SimReport> one = {sample_shard(3, kMaxShardCount, 5)};
  const auto missing = merge_reports(one);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "cannot merge: missing shard(s) 1/999999999, 2/999999999, 4/999999999, 5/999999999, 6/999999999, "
            "7/999999999, 8/999999999, 9/999999999, 10/999999999, 11/999999999 and 999999988 more (1 of "
            "999999999 given: report 1)");
}

TEST(SimReport, ReportsWithFailuresOnEitherSideReadBackAndMergeIntoTheWholeRun) {
  // The paired table leaves out the seeds either side failed on: real reports must pass.
  for (const auto& [a_fails, b_fails] :
       {std::pair{0ull, 0ull}, std::pair{7ull, 0ull}, std::pair{0ull, 5ull}, std::pair{7ull, 5ull},
        std::pair{1ull, 0ull}, std::pair{0ull, 1ull}}) {
    const SimReport whole = played_pair(1, 1, 60, a_fails, b_fails);
    EXPECT_EQ(read_error(whole.to_json()), "") << a_fails << " " << b_fails;
    std::vector<SimReport> parts;
    for (std::uint32_t k = 1; k <= 3; ++k) {
      const auto back = SimReport::from_json(played_pair(k, 3, 60, a_fails, b_fails).to_json());
      ASSERT_TRUE(back.ok()) << a_fails << " " << b_fails << ": " << back.error().message;
      parts.push_back(back.value());
    }
    const auto merged = merge_reports(parts);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(merged.value().to_json().dump(), whole.to_json().dump());
  }
}

TEST(SimReport, FromJsonRefusesAPairedTableThatDoesNotFitBothSides) {
  const auto with = [](std::uint64_t a_fails, std::uint64_t b_fails, auto change) {
    nlohmann::json j = played_pair(2, 3, 90, a_fails, b_fails).to_json();
    EXPECT_EQ(read_error(j), "");
    change(j["versus"]["paired"]);
    return read_error(j);
  };
  // A seed moved from both_won to both_lost: the same seeds, fewer wins than either side had.
  const std::string moved = with(0, 0, [](nlohmann::json& p) {
    p["both_won"] = p["both_won"].get<std::uint64_t>() - 1;
    p["both_lost"] = p["both_lost"].get<std::uint64_t>() + 1;
  });
  EXPECT_NE(moved.find("/versus/paired/only_a_won: both_won + only_a_won is 19, expected policy A's 20 wins"),
            std::string::npos)
      << moved;
  EXPECT_NE(moved.find("/versus/paired/only_b_won: both_won + only_b_won is"), std::string::npos) << moved;
  // With no failure the HP differences add up to A's HP left less B's exactly.
  const std::string hp = with(0, 0, [](nlohmann::json& p) {
    p["hp_left_diff_sum"] = p["hp_left_diff_sum"].get<std::int64_t>() + 500;
  });
  EXPECT_NE(hp.find("/versus/paired/hp_left_diff_sum: is "), std::string::npos) << hp;
  EXPECT_NE(hp.find(": policy A's hp_left total ("), std::string::npos) << hp;
  // With failures on both sides (of battles 30..59, A fails 4, B 6, 1 of them both), the seeds
  // are exactly the battles less the 9 either failed; one more was once within bounds.
  const std::string seeds =
      with(7, 5, [](nlohmann::json& p) { p["both_lost"] = p["both_lost"].get<std::uint64_t>() + 1; });
  EXPECT_NE(
      seeds.find("/versus/paired: counts 22 seeds, expected 21: the 30 battles less the 9 that failed on "
                 "one side or both"),
      std::string::npos)
      << seeds;
  // B's 6 failures leave out A's wins on those seeds, at most 6 of them (here 4; and 4 seeds only
  // A won are moved to both_lost); the HP sum within bounds.
  const std::string wins = with(0, 5, [](nlohmann::json& p) {
    p["both_lost"] = p["both_lost"].get<std::uint64_t>() + p["only_a_won"].get<std::uint64_t>();
    p["only_a_won"] = 0;
  });
  EXPECT_NE(
      wins.find("/versus/paired/only_a_won: both_won + only_a_won is 12, expected 14 to 20: policy A's 20 "
                "wins, less those on the 6 seeds only policy B failed"),
      std::string::npos)
      << wins;
  const std::string far = with(0, 5, [](nlohmann::json& p) { p["hp_left_diff_sum"] = 1000000; });
  EXPECT_NE(far.find("/versus/paired/hp_left_diff_sum: is 1000000, expected "), std::string::npos) << far;
  EXPECT_NE(far.find("wins on seeds only B failed"), std::string::npos) << far;
}

TEST(SimReport, FromJsonRefusesSideBTablesOtherThanSideAs) {
  const auto refused = [](const nlohmann::json& good, auto change, const std::string& expected) {
    ASSERT_EQ(read_error(good), "");
    nlohmann::json j = good;
    change(j);
    EXPECT_NE(read_error(j).find(expected), std::string::npos) << read_error(j);
  };
  const nlohmann::json pair = paired_shard(1, 2, 40, 0).to_json();
  refused(
      pair, [](nlohmann::json& j) { j["versus"]["cards"][1]["id"] = "bash"; },
      "/versus/cards/1/id: is 'bash', expected 'defend' as at /cards/1/id");
  refused(
      pair, [](nlohmann::json& j) { j["versus"]["enemies"][0]["id"] = "gnasher"; },
      "/versus/enemies/0/id: is 'gnasher', expected 'jaw' as at /enemies/0/id");
  const nlohmann::json seated = seated_pair().to_json();
  refused(
      seated, [](nlohmann::json& j) { j["versus"]["seats"][1]["name"] = "east"; },
      "/versus/seats/1/name: is 'east', expected 'south' as at /seats/1/name");
  refused(
      seated, [](nlohmann::json& j) { j["versus"]["seats"][1]["kind"] = "human"; },
      "/versus/seats/1/kind: is 'human', expected 'bot'");
  refused(
      seated, [](nlohmann::json& j) { j["versus"]["seats"][1]["policy"] = "mcts"; },
      "/versus/seats/1/policy: is 'mcts', expected 'greedy' as at /seats/1/policy");
  refused(
      seated, [](nlohmann::json& j) { j["versus"]["seats"][0]["policy"] = "random"; },
      "/versus/seats/0/policy: is 'random', expected 'mcts', the versus policy");
  refused(
      seated, [](nlohmann::json& j) { j["seats"][0]["policy"] = "mcts"; },
      "/seats/0/policy: is 'mcts', expected 'random', the report's policy");
  refused(
      seated,
      [](nlohmann::json& j) {
        j["versus"]["counters"].erase("shared_first");
        j["versus"]["counters"]["bogus"] = 0;
      },
      "/versus/counters/bogus: unknown counter 'bogus'; the counters are those at the top level: "
      "shared_first");
}

TEST(SimReport, MergeRefusesSumsPastTheirRangeInsteadOfWrappingThem) {
  const auto merged = [](auto change) {
    std::vector<SimReport> parts = {paired_shard(1, 2, 40, 0), paired_shard(2, 2, 40, 0)};
    change(parts[0], parts[1]);
    const auto m = merge_reports(parts);
    return m.ok() ? std::string() : m.error().message;
  };
  constexpr std::uint64_t most = ~std::uint64_t{0};
  EXPECT_EQ(merged([](SimReport&, SimReport& b) { b.decisions = most - 1; }),
            "cannot merge: adding report 2 (shard 2/2), the sum at /decisions passes 2^64 (no run has such "
            "counts)");
  EXPECT_NE(merged([](SimReport&, SimReport& b) {
              b.turns_histogram[3] = most;
            }).find("the sum at /turns/histogram/3 passes 2^64"),
            std::string::npos);
  EXPECT_NE(merged([](SimReport&, SimReport& b) {
              b.versus.cards[1].plays = most;
            }).find("the sum at /versus/cards/1/plays passes 2^64"),
            std::string::npos);
  EXPECT_NE(merged([](SimReport&, SimReport& b) {
              b.paired.both_lost = most;
            }).find("the sum at /versus/paired/both_lost passes 2^64"),
            std::string::npos);
  // A signed sum: overflow would be undefined behaviour, either way.
  for (const std::int64_t end : {INT64_MAX, INT64_MIN})
    EXPECT_NE(
        merged([end](SimReport& a, SimReport& b) {
          a.paired.hp_diff_sum = end;
          b.paired.hp_diff_sum = end > 0 ? 1 : -1;
        }).find("the sum at /versus/paired/hp_left_diff_sum passes the range of a signed 64-bit integer"),
        std::string::npos)
        << end;
  EXPECT_NE(merged([](SimReport& a, SimReport& b) {
              a.paired.hp_diff_sq_sum = b.paired.hp_diff_sq_sum = Uint128{1} << 127;
            }).find("the sum at /versus/paired/hp_left_diff_sq_sum passes 2^128"),
            std::string::npos);
  EXPECT_EQ(merged([](SimReport&, SimReport&) {}), "");
}

TEST(SimReport, FromJsonRefusesAHistogramEndingWithZeros) {
  // A run's histogram ends at the largest value it counted: trailing zeros once moved the
  // merged `max` (and the same counts and total passed every other check).
  nlohmann::json j = sample_shard(1, 2, 30).to_json();
  j["hp_left"]["histogram"].push_back(0);
  EXPECT_NE(read_error(j).find("report: /hp_left/histogram: ends with a count of 0 (at 27): a report's "
                               "histogram ends at the largest value it counts"),
            std::string::npos)
      << read_error(j);
  j = sample_shard(1, 2, 30).to_json();
  j["turns"]["histogram"] = {0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(read_error(j).find("/turns/histogram: ends with a count of 0 (at 7)"), std::string::npos)
      << read_error(j);
}

TEST(SimReport, FromJsonReportsEveryProblemOfTheFile) {
  nlohmann::json j = played_pair(2, 3, 60, 0, 0).to_json();
  j["foo"] = 1;
  j["shard"]["bar"] = 1;
  j["versus"]["paired"]["baz"] = 1;
  j["wins"] = "many";
  j["win_rate"] = "abc";
  j["turns"]["p50"] = "x";
  j["versus"]["mean_turns"] = nullptr;
  j["versus"]["turns"]["mean"] = "2";
  j["cards"][0]["plays_per_battle"] = true;
  j["versus"]["paired"]["difference_ci95"] = 0.5;
  j["battles_per_s"] = "fast";
  const std::string error = read_error(j);
  for (const char* expected :
       {"/foo: unknown key 'foo'", "/shard/bar: unknown key 'bar'", "/versus/paired/baz: unknown key 'baz'",
        "/wins: expected a non-negative integer, got \"many\"", "/win_rate: expected a number, got \"abc\"",
        "/turns/p50: expected a non-negative integer, got \"x\"",
        "/versus/mean_turns: expected a number, got null", "/versus/turns/mean: expected a number, got \"2\"",
        "/cards/0/plays_per_battle: expected a number, got true",
        "/versus/paired/difference_ci95: expected an array of two numbers (an interval), got 0.5",
        "/battles_per_s: expected a number, got \"fast\""})
    EXPECT_NE(error.find(expected), std::string::npos) << expected << "\n" << error;
  // A count read wrong leaves out only the checks that compare it.
  EXPECT_EQ(error.find("/turns/histogram"), std::string::npos) << error;
}

TEST(SimReport, FromJsonRefusesDerivedValuesTheCountsDoNotGive) {
  const nlohmann::json good = played_pair(1, 1, 60, 7, 5).to_json();
  ASSERT_EQ(read_error(good), "");
  const auto with = [&](auto change) {
    nlohmann::json j = good;
    change(j);
    return read_error(j);
  };
  EXPECT_NE(
      with([](nlohmann::json& j) { j["win_rate"] = 0.5; }).find("/win_rate: is 0.5, but the counts give "),
      std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) {
              j["versus"]["turns"]["max"] = 9;
            }).find("/versus/turns/max: is 9, but the counts give 4"),
            std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) {
              j["cards"][1]["win_rate_when_played"] = 0.25;
            }).find("/cards/1/win_rate_when_played: is 0.25, but the counts give"),
            std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) {
              j["versus"]["paired"]["p_value"] = 0.5;
            }).find("/versus/paired/p_value: is 0.5, but the counts give"),
            std::string::npos);
  EXPECT_NE(with([](nlohmann::json& j) {
              j["versus"]["paired"]["hp_left_difference_ci95"] = {nullptr, nullptr};
            }).find("/versus/paired/hp_left_difference_ci95/0: is null, but the counts give"),
            std::string::npos);
  // An interval that cannot be estimated is null: with no seed both sides finished.
  EXPECT_EQ(read_error(played_pair(1, 1, 3, 1, 0).to_json()), "");
  EXPECT_EQ(read_error(seated_pair().to_json()), "");
}

TEST(SimReport, FromJsonRefusesAnErrorOfAnotherSeedOrPolicy) {
  const nlohmann::json good = played_pair(1, 1, 30, 7, 5).to_json();
  ASSERT_EQ(read_error(good), "");
  nlohmann::json j = good;
  j["errors"][1]["battle_seed"] = 12345;
  j["versus"]["errors"][0]["policy"] = "random";
  const std::string error = read_error(j);
  EXPECT_NE(error.find(fmt::format("/errors/1/battle_seed: is 12345, but battle 7 of a run of seed 7 has the "
                                   "seed {}",
                                   battle_seed(7, 7))),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("/versus/errors/0/policy: is 'random', expected 'greedy' (/versus/policy)"),
            std::string::npos)
      << error;
}

// Counts no run has, the derived values made to fit them (to_json writes those the counts give):
// each once merged without a word.
TEST(SimReport, FromJsonRefusesACardPlayedInNoBattleAndAnEnemyDealingDamageInNone) {
  const SimReport good = sample_shard(1, 1, 30);
  ASSERT_EQ(read_error(good.to_json()), "");
  const auto with = [&](auto change) {
    SimReport r = good;
    change(r);
    return read_error(r.to_json());
  };
  EXPECT_EQ(with([](SimReport& r) { r.cards[0].battles_played = r.cards[0].wins_when_played = 0; }),
            "report: /cards/0/battles_played: is 0, but the card has 60 plays: each play is in a battle");
  // The other way round (battles without a play) was refused already.
  EXPECT_EQ(with([](SimReport& r) { r.cards[1].plays = 0; }),
            "report: /cards/1/battles_played: 30 is more than the card's 0 plays");
  EXPECT_EQ(with([](SimReport& r) { r.enemies[0].battles = 0; }),
            "report: /enemies/0/damage_dealt: is 138, but the enemy fought in no battle (battles is 0)\n"
            "report: /enemies/0/armor_removed: is 30, but the enemy fought in no battle (battles is 0)");
  EXPECT_EQ(with([](SimReport& r) { r.enemies[0].battles = r.enemies[0].armor_removed = 0; }),
            "report: /enemies/0/damage_dealt: is 138, but the enemy fought in no battle (battles is 0)");
  // Side B's tables too; an enemy that fought in no battle and dealt nothing reads.
  SimReport pair = played_pair(1, 1, 30, 0, 0);
  pair.versus.enemies[0] = EnemyTally{0, 0, 4};
  EXPECT_EQ(
      read_error(pair.to_json()),
      "report: /versus/enemies/0/armor_removed: is 4, but the enemy fought in no battle (battles is 0)");
  EXPECT_EQ(with([](SimReport& r) { r.enemies[0] = EnemyTally{}; }), "");
}

// A run with --no-enemy-damage writes 0 in every damage column: a report that says it did not
// count enemy damage and has some is refused, on either side.
TEST(SimReport, FromJsonRefusesEnemyDamageInARunThatDidNotCountIt) {
  SimReport r = sample_shard(1, 1, 30);
  r.enemy_damage_counted = false;
  EXPECT_EQ(read_error(r.to_json()),
            "report: /enemies/0/damage_dealt: is 138, but the run did not count enemy damage "
            "(enemy_damage_counted is false)\n"
            "report: /enemies/0/armor_removed: is 30, but the run did not count enemy damage "
            "(enemy_damage_counted is false)");
  for (EnemyTally& e : r.enemies) e.damage_dealt = e.armor_removed = 0;
  EXPECT_EQ(read_error(r.to_json()), "");
  SimReport pair = played_pair(1, 1, 30, 0, 0);
  pair.enemy_damage_counted = false;
  for (Tally* side : {static_cast<Tally*>(&pair), &pair.versus})
    for (EnemyTally& e : side->enemies) e.damage_dealt = e.armor_removed = 0;
  ASSERT_EQ(read_error(pair.to_json()), "");
  pair.versus.enemies[0].damage_dealt = 5;
  EXPECT_EQ(read_error(pair.to_json()),
            "report: /versus/enemies/0/damage_dealt: is 5, but the run did not count enemy damage "
            "(enemy_damage_counted is false)");
}

TEST(SimReport, FromJsonRefusesASumOfSquaredHpDifferencesTheSeedsCannotHave) {
  const SimReport good = played_pair(2, 3, 90, 0, 0);
  ASSERT_EQ(read_error(good.to_json()), "");
  const auto with_squares = [&](Uint128 squares) {
    SimReport r = good;
    r.paired.hp_diff_sq_sum = squares;
    return read_error(r.to_json());  // the HP difference's interval as those squares give it
  };
  // n differences adding up to s have squares adding up to s^2 / n at least (Cauchy-Schwarz).
  const std::uint64_t n = good.paired.n();
  const std::int64_t sum = good.paired.hp_diff_sum;
  const auto magnitude = static_cast<Uint128>(sum < 0 ? -sum : sum);
  const Uint128 least = (magnitude * magnitude + n - 1) / n;
  ASSERT_TRUE(least > 0 && least <= good.paired.hp_diff_sq_sum);
  EXPECT_EQ(with_squares(least), "");
  EXPECT_EQ(with_squares(least - 1),
            fmt::format("report: /versus/paired/hp_left_diff_sq_sum: is {}, less than {} seeds whose HP "
                        "differences add up to {} allow: at least {}, their sum squared over their count",
                        static_cast<std::uint64_t>(least - 1), n, sum, static_cast<std::uint64_t>(least)));
  // Each difference is at most the largest HP either side's histogram counts (26, side A's).
  ASSERT_EQ(good.hp_left_histogram.size(), 27u);
  ASSERT_LT(good.versus.hp_left_histogram.size(), 27u);
  const Uint128 most = Uint128{n} * 26 * 26;
  EXPECT_EQ(with_squares(most), "");
  EXPECT_EQ(
      with_squares(most + 1),
      fmt::format("report: /versus/paired/hp_left_diff_sq_sum: is {}, more than {} seeds allow whose HP "
                  "left is at most 26 on either side: at most {}, their count times 26 squared",
                  static_cast<std::uint64_t>(most + 1), n, static_cast<std::uint64_t>(most)));
  // No seed paired (side A failed every battle): both sums are 0.
  SimReport none = played_pair(2, 3, 90, 1, 0);
  ASSERT_EQ(none.paired.n(), 0u);
  ASSERT_EQ(read_error(none.to_json()), "");
  none.paired.hp_diff_sq_sum = 9;
  EXPECT_EQ(read_error(none.to_json()),
            "report: /versus/paired/hp_left_diff_sq_sum: is 9, expected 0: the table counts no seed");
  none.paired.hp_diff_sum = -3;
  EXPECT_EQ(read_error(none.to_json()),
            "report: /versus/paired/hp_left_diff_sum: is -3, expected 0: the table counts no seed\n"
            "report: /versus/paired/hp_left_diff_sq_sum: is 9, expected 0: the table counts no seed");
}

TEST(SimReport, MergeRefusesElapsedTimesWhoseSumOrRatesPassTheLargestNumber) {
  const std::vector<std::string> names = {"a.json", "b.json"};
  std::vector<SimReport> parts = {sample_shard(1, 2, 40), sample_shard(2, 2, 40)};
  const auto merged = [&] {
    const auto m = merge_reports(parts, names);
    return m.ok() ? read_error(m.value().to_json()) : m.error().message;
  };
  // Each shard's time reads, but their sum once overflowed to infinity: the merge wrote
  // "elapsed_s": null, which its own reader refuses.
  parts[0].elapsed_s = parts[1].elapsed_s = 1e308;
  for (const SimReport& p : parts) ASSERT_EQ(read_error(p.to_json()), "");
  EXPECT_EQ(merged(),
            "cannot merge: the elapsed_s of a.json (1e+308) and b.json (1e+308) add up past the largest "
            "number (no run has such times)");
  parts[1].elapsed_s = 5e307;
  EXPECT_EQ(merged(), "");
  // A time in which the 40 battles' 460 decisions give a rate past the largest number, although
  // each shard's rates are numbers (shard 1's time is 0: no rate).
  parts[0].elapsed_s = 0;
  parts[1].elapsed_s = 2e-306;
  for (const SimReport& p : parts) ASSERT_EQ(read_error(p.to_json()), "");
  EXPECT_EQ(merged(),
            "cannot merge: the elapsed_s of a.json (0) and b.json (2e-306) add up to 2e-306 s, in which 40 "
            "battles and 460 decisions give rates past the largest number (no run has such times)");
  // One report whose rates pass the largest number was read, and written back with null rates.
  nlohmann::json j = sample_shard(1, 2, 40).to_json();
  j["elapsed_s"] = 5e-324;
  j["battles_per_s"] = j["decisions_per_s"] = 1.7e308;
  EXPECT_EQ(read_error(j),
            "report: /elapsed_s: is 5e-324: 20 battles and 230 decisions in so short a time give rates past "
            "the largest number");
}

TEST(SimReport, MergeRefusalsNameTheFilesGiven) {
  const std::vector<std::string> names = {"s/a.1.json", "s/a.2.json", "s/b.3.json"};
  const std::vector<SimReport> parts = {sample_shard(1, 3, 90), sample_shard(2, 3, 90),
                                        sample_shard(3, 3, 90)};
  ASSERT_TRUE(merge_reports(parts, names).ok());
  const auto refusal = [&](auto change) {
    std::vector<SimReport> copy = parts;
    change(copy);
    const auto m = merge_reports(copy, names);
    return m.ok() ? std::string() : m.error().message;
  };
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].content_hash = 0x1234; }),
            "cannot merge: s/b.3.json has content_hash '0000000000001234' but s/a.1.json has "
            "'abcdef0123456789'");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[1].seed = 8; }),
            "cannot merge: s/a.2.json has seed '8' but s/a.1.json has '7'");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].policy = "greedy"; }),
            "cannot merge: s/b.3.json has policy 'greedy' but s/a.1.json has 'random'");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) {
              p[2].settings = {{"deck", "x"}};
            }),
            "cannot merge: s/b.3.json has settings '{\"deck\":\"x\"}' but s/a.1.json has '{}'");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].shard_count = 4; }),
            "cannot merge: s/b.3.json has shard count '4' but s/a.1.json has '3'");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].enemy_damage_counted = false; }),
            "cannot merge: s/b.3.json did not count enemy damage and s/a.1.json did");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].card_ids[1] = "bash"; }),
            "cannot merge: s/b.3.json lists other cards or enemies than s/a.1.json");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].seat_names = {"north"}; }),
            "cannot merge: s/b.3.json has other seats than s/a.1.json");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].counter_names = {"fled"}; }),
            "cannot merge: s/b.3.json counts other things than s/a.1.json");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2].battles -= 1; }),
            "cannot merge: s/b.3.json is shard 3/3 but covers battles 60..89, expected 60..90");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[2] = sample_shard(2, 3, 90); }),
            "cannot merge: shard 2/3 is given twice: s/a.2.json and s/b.3.json");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p.pop_back(); }),
            "cannot merge: missing shard(s) 3/3 (2 of 3 given: s/a.1.json and s/a.2.json)");
  EXPECT_EQ(refusal([](std::vector<SimReport>& p) { p[1].decisions = ~std::uint64_t{0}; }),
            "cannot merge: adding s/a.2.json (shard 2/3), the sum at /decisions passes 2^64 (no run has such "
            "counts)");
  const auto huge = merge_reports({sample_shard(1, 4'000'000'000u, 1)}, {"huge.json"});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message, "cannot merge: huge.json is shard 1/4000000000");
}

TEST(SimReport, ToTextSaysWhyAPairedIntervalIsUndefined) {
  // No seed paired (side A failed on every seed): neither interval; the text once said "fewer
  // than two seeds" for both.
  const std::string none = played_pair(1, 1, 30, 1, 0).to_text();
  EXPECT_NE(none.find("(A - B, paired 95% CI undefined (no seed paired))\n"), std::string::npos) << none;
  EXPECT_NE(none.find("(HP left, A - B, 0 when lost, paired 95% CI undefined (no seed paired))\n"),
            std::string::npos)
      << none;
  // One seed: the win rates' interval, but no spread of HP differences.
  const std::string one = played_pair(1, 1, 1, 0, 0).to_text();
  EXPECT_NE(one.find("(A - B, paired 95% CI -"), std::string::npos) << one;
  EXPECT_NE(one.find("(HP left, A - B, 0 when lost, paired 95% CI undefined (fewer than two seeds))\n"),
            std::string::npos)
      << one;
  EXPECT_EQ(one.find("no seed paired"), std::string::npos) << one;
}

TEST(SimReport, ToTextSaysWhichActionRaisedAnError) {
  SimReport r = sample_shard(1, 1, 30);
  r.battles += 4;
  const nlohmann::json two = nlohmann::json::array({"end_turn", "end_turn"});
  r.failures = {SimFailure{30, 1, "broke", "random", two}, SimFailure{31, 2, "broke", "random", two, true},
                SimFailure{32, 3, "did not start", "random", nlohmann::json::array()},
                SimFailure{33, 4, "broke", "random", nlohmann::json::array(), true}};
  const std::string text = r.to_text();
  // The actions of an error raised by an action end with it (as the JSON and the replay have them).
  for (const char* line :
       {"  battle 30 (battle seed 1, policy random, 2 action(s), the last one raising it): broke\n",
        "  battle 31 (battle seed 2, policy random, 2 action(s) before it, raised while the policy chose): "
        "broke\n",
        "  battle 32 (battle seed 3, policy random, no action before it): did not start\n",
        "  battle 33 (battle seed 4, policy random, no action before it, raised while the policy chose): "
        "broke\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}

}  // namespace
}  // namespace battlecore::sim
