// The generic runner on a toy rule set: a "battle" is a few coin flips from the battle's seed,
// and some seeds break an invariant, so threads, shards and failures can be checked exactly.

#include "battlecore/sim/runner.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

namespace battlecore::sim {
namespace {

struct CoinAdapter {
  std::uint64_t failing_modulus = 0;      ///< battles whose seed % this == 0 throw (0: none)
  bool lucky_coin = false;                ///< every policy plays as "lucky" (a setting of the toy rules)
  bool three_sided = false;               ///< a third card, "edge", which each battle's first "tails" becomes
  bool mirrored = false;                  ///< the cards in the other order: "tails", "heads"
  std::vector<std::string> counters{};    ///< counters of its own ("flips"), each the battle's turns
  std::vector<std::string> seat_kinds{};  ///< when not empty: seats "north" and "south" of these kinds
  bool only_lucky_fails = false;          ///< only the lucky policy's battles fail (one side of a pair)

  class Player {
   public:
    explicit Player(const CoinAdapter& a, bool lucky) : adapter_(a), lucky_(lucky) {}
    void play(std::uint64_t seed, BattleRecord& out) {
      out.clear();
      actions_.clear();
      Rng rng = Rng::from_seed(seed);
      out.turns = 1 + rng.below(6);
      bool edge_left = adapter_.three_sided;
      for (std::uint32_t t = 0; t < out.turns; ++t) {
        actions_.push_back(t);
        std::uint32_t face = rng.below(2);  // 0 heads, 1 tails
        if (face == 1 && edge_left) {
          face = 2;
          edge_left = false;
        }
        out.add_play(adapter_.mirrored && face < 2 ? 1 - face : face);
        ++out.decisions;
      }
      out.counters.assign(adapter_.counters.size(), out.turns);
      out.won = rng.below(lucky_ ? 4 : 2) != 0;
      out.hp_left = out.won ? rng.below(10) : 0;
      out.enemies = {0};
      out.enemy_damage = {rng.below(20)};
      out.enemy_armor = {0};
      BATTLECORE_ENSURE(adapter_.failing_modulus == 0 || (adapter_.only_lucky_fails && !lucky_) ||
                            seed % adapter_.failing_modulus != 0,
                        "toy failure at seed {}", seed);
    }
    nlohmann::json actions_json() const { return actions_; }
    void recover() { ++recovered; }
    int recovered = 0;

   private:
    const CoinAdapter& adapter_;
    bool lucky_;
    std::vector<std::uint32_t> actions_;
  };

  void describe(SimReport& r) const {
    r.rules = "coin";
    r.encounter = "flip";
    r.card_ids =
        mirrored ? std::vector<std::string>{"tails", "heads"} : std::vector<std::string>{"heads", "tails"};
    if (three_sided) r.card_ids.push_back("edge");
    r.enemy_ids = {"coin"};
    r.counter_names = counters;
    if (!seat_kinds.empty()) {
      r.seat_names = {"north", "south"};
      r.seat_kinds = seat_kinds;
    }
  }
  Result<std::unique_ptr<Player>> make_player(std::string_view policy) const {
    if (policy != "plain" && policy != "lucky") return Error{"unknown policy"};
    return std::make_unique<Player>(*this, policy == "lucky" || lucky_coin);
  }
};

nlohmann::json untimed(const SimReport& r) {
  nlohmann::json j = r.to_json();
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) j.erase(key);
  return j;
}

SimReport run(const CoinAdapter& a, RunOptions o) {
  auto r = run_simulation(a, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : SimReport{};
}

TEST(SimRunner, ResultsDoNotDependOnTheThreadCount) {
  const CoinAdapter coin{13};
  RunOptions o{.battles = 5000, .seed = 3, .policy = "plain", .versus_policy = "lucky"};
  const SimReport one = run(coin, o);
  EXPECT_EQ(one.battles, 5000u);
  EXPECT_FALSE(one.failures.empty());
  for (unsigned t : {2u, 3u, 8u}) {
    o.threads = t;
    EXPECT_EQ(untimed(run(coin, o)), untimed(one)) << t << " threads";
  }
}

TEST(SimRunner, APairedRunPlaysSideBWithTheVersusAdapterAndTheSamePolicyWhenNoneIsGiven) {
  const CoinAdapter coin{}, lucky{.lucky_coin = true};
  const RunOptions plain{.battles = 3000, .seed = 5, .policy = "plain"};
  RunOptions by_policy = plain;
  by_policy.versus_policy = "lucky";
  for (unsigned threads : {1u, 2u}) {
    RunOptions o = plain;
    o.threads = threads;
    auto by_adapter = run_simulation(coin, o, &lucky);
    ASSERT_TRUE(by_adapter.ok()) << by_adapter.error().message;
    // The lucky coin with policy "plain" plays as the lucky policy does: the same battles.
    EXPECT_EQ(by_adapter.value().versus_policy, "plain");
    nlohmann::json j = untimed(by_adapter.value());
    j["versus"]["policy"] = "lucky";
    EXPECT_EQ(j, untimed(run(coin, by_policy))) << threads << " threads";
    EXPECT_GT(by_adapter.value().versus.wins, by_adapter.value().wins);
  }
}

// Side B's cards are matched to side A's by id: in another order they land in side A's rows, and
// a card only side B has gets a row of its own after side A's, which side A never plays.
TEST(SimRunner, APairedRunPutsSideBsCardsInSideAsRowsByIdAndAddsTheRowsOnlySideBHas) {
  const CoinAdapter coin{}, mirrored{.mirrored = true}, edged{.three_sided = true};
  const RunOptions plain{.battles = 2000, .seed = 8, .policy = "plain"};
  for (unsigned threads : {1u, 2u}) {
    RunOptions o = plain;
    o.threads = threads;
    const auto m = run_simulation(coin, o, &mirrored);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(m.value().card_ids, (std::vector<std::string>{"heads", "tails"}));
    EXPECT_EQ(m.value().versus.cards, m.value().cards) << "the same flips, counted in the same rows";
    EXPECT_GT(m.value().cards[1].plays, 0u);

    const auto e = run_simulation(coin, o, &edged);
    ASSERT_TRUE(e.ok()) << e.error().message;
    const SimReport& r = e.value();
    EXPECT_EQ(r.card_ids, (std::vector<std::string>{"heads", "tails", "edge"}));
    ASSERT_EQ(r.cards.size(), 3u);
    ASSERT_EQ(r.versus.cards.size(), 3u);
    EXPECT_EQ(r.cards[2], CardTally{}) << "side A has no edge";
    EXPECT_EQ(r.versus.cards[0], r.cards[0]);
    EXPECT_EQ(r.versus.cards[1].plays + r.versus.cards[2].plays, r.cards[1].plays);
    EXPECT_EQ(r.versus.cards[2].battles_played, r.cards[1].battles_played) << "each first tails is an edge";
    // Read back from its JSON with the three rows; and two shards merge into the whole run.
    const auto back = SimReport::from_json(r.to_json());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(untimed(back.value()), untimed(r));
    std::vector<SimReport> shards;
    for (std::uint32_t k = 1; k <= 2; ++k) {
      RunOptions shard = o;
      shard.shard_index = k;
      shard.shard_count = 2;
      const auto part = run_simulation(coin, shard, &edged);
      ASSERT_TRUE(part.ok()) << part.error().message;
      shards.push_back(part.value());
    }
    const auto merged = merge_reports(shards);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(untimed(merged.value()), untimed(r));
  }
}

TEST(SimRunner, APairedRunRefusesSidesWithOtherSeatsOrCounters) {
  const CoinAdapter coin{}, counted{.counters = {"flips"}};
  const auto refused = run_simulation(coin, RunOptions{.battles = 10, .policy = "plain"}, &counted);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("same seat and counter tables"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(
      refused.error().message.find("their counters differ first at row 0: none on side A, 'flips' on side B"),
      std::string::npos)
      << refused.error().message;
}

TEST(SimRunner, APairedRunRefusesSeatsOfOtherKinds) {
  // Two packs whose seats had the same names but other kinds were compared as if alike.
  const CoinAdapter bots{.seat_kinds = {"bot", "bot"}}, mixed{.seat_kinds = {"bot", "human"}};
  const auto refused = run_simulation(bots, RunOptions{.battles = 10, .policy = "plain"}, &mixed);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(
                "their seat kinds differ first at row 1: 'bot' on side A, 'human' on side B"),
            std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(run_simulation(bots, RunOptions{.battles = 10, .policy = "plain"}, &bots).ok());
}

TEST(SimRunner, BattleIUsesTheBattleSeedOfI) {
  const CoinAdapter coin{0};
  // A run of 1 battle starting at index i (shard i+1 of N with N = battles) plays battle_seed(s, i).
  const SimReport whole = run(coin, {.battles = 10, .seed = 99, .policy = "plain"});
  std::uint64_t wins = 0;
  for (std::uint32_t k = 1; k <= 10; ++k) {
    const SimReport one =
        run(coin, {.battles = 10, .seed = 99, .policy = "plain", .shard_index = k, .shard_count = 10});
    ASSERT_EQ(one.battles, 1u);
    EXPECT_EQ(one.first_battle, k - 1);
    BattleRecord expected;
    CoinAdapter::Player p(coin, false);
    p.play(battle_seed(99, k - 1), expected);
    EXPECT_EQ(one.wins, expected.won ? 1u : 0u);
    EXPECT_EQ(one.turns, expected.turns);
    wins += one.wins;
  }
  EXPECT_EQ(wins, whole.wins);
}

TEST(SimRunner, FailedBattlesAreCountedWithSeedAndActionsAndTheRunGoesOn) {
  const CoinAdapter coin{7};
  const SimReport r = run(coin, {.battles = 2000, .seed = 1, .policy = "plain", .threads = 2});
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.battles, 2000u);
  std::uint64_t histogram_battles = 0;
  for (auto c : r.turns_histogram) histogram_battles += c;
  EXPECT_EQ(histogram_battles + r.failures.size(), r.battles);
  // Rates and means are over the battles played to their end: a failed one is no loss.
  const std::uint64_t played = r.battles - r.failures.size();
  EXPECT_EQ(r.played(), played);
  EXPECT_DOUBLE_EQ(r.win_rate(), double(r.wins) / double(played));
  EXPECT_DOUBLE_EQ(r.mean_turns(), double(r.turns) / double(played));
  EXPECT_DOUBLE_EQ(r.mean_decisions(), double(r.decisions) / double(played));
  const nlohmann::json j = r.to_json();
  EXPECT_DOUBLE_EQ(j["win_rate"].get<double>(), double(r.wins) / double(played));
  EXPECT_DOUBLE_EQ(j["turns"]["mean"].get<double>(), double(r.turns) / double(played));
  EXPECT_DOUBLE_EQ(j["cards"][0]["plays_per_battle"].get<double>(),
                   double(r.cards[0].plays) / double(played));
  const Interval ci = wilson_interval(r.wins, played);
  EXPECT_DOUBLE_EQ(j["win_rate_ci95"][0].get<double>(), ci.low);
  EXPECT_DOUBLE_EQ(j["win_rate_ci95"][1].get<double>(), ci.high);
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const SimFailure& f = r.failures[i];
    EXPECT_EQ(f.battle_seed, battle_seed(1, f.index));
    EXPECT_EQ(f.battle_seed % 7, 0u);
    EXPECT_EQ(f.policy, "plain");
    EXPECT_NE(f.message.find("toy failure"), std::string::npos);
    EXPECT_FALSE(f.actions.empty());
    if (i > 0) {
      EXPECT_LT(r.failures[i - 1].index, f.index);
    }
  }
}

TEST(SimRunner, ReportsWithFailedBattlesAndAPairedRunPassTheReadersChecksAndMerge) {
  // The reader checks that the counts agree (a failed battle is in `battles` and nowhere else,
  // the paired table leaves out the seeds a policy failed on, and with them the wins and HP
  // either side had there): real reports must pass, whether both sides fail on a seed or one.
  for (const CoinAdapter& coin :
       {CoinAdapter{7}, CoinAdapter{.failing_modulus = 7, .only_lucky_fails = true}}) {
    RunOptions options{.battles = 1500, .seed = 3, .policy = "plain", .versus_policy = "lucky", .threads = 2};
    const SimReport whole = run(coin, options);
    ASSERT_FALSE(whole.versus.failures.empty());
    EXPECT_EQ(whole.failures.empty(), coin.only_lucky_fails);
    std::vector<SimReport> shards;
    for (std::uint32_t k = 1; k <= 3; ++k) {
      options.shard_index = k;
      options.shard_count = 3;
      auto back = SimReport::from_json(run(coin, options).to_json());
      ASSERT_TRUE(back.ok()) << back.error().message;
      shards.push_back(std::move(back.value()));
    }
    auto whole_back = SimReport::from_json(whole.to_json());
    ASSERT_TRUE(whole_back.ok()) << whole_back.error().message;
    const auto merged = merge_reports(shards);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    EXPECT_EQ(untimed(merged.value()), untimed(whole));
  }
}

// A report's JSON holds the counters in an object, read back in name order, so a merge would
// list counters named out of order otherwise than one run does: such a rule set is refused.
TEST(SimRunner, CountersNamedOutOfOrderAreRefused) {
  const CoinAdapter unordered{.counters = {"tosses", "flips"}};
  const auto refused = run_simulation(unordered, RunOptions{.battles = 10, .policy = "plain"});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "the rule set's counters must be named in order, not tosses, flips");
  const CoinAdapter ordered{.counters = {"flips", "tosses"}};
  const auto played = run_simulation(ordered, RunOptions{.battles = 10, .policy = "plain"});
  ASSERT_TRUE(played.ok()) << played.error().message;
  EXPECT_EQ(played.value().counter_names, ordered.counters);
  EXPECT_EQ(played.value().counters.size(), 2u);
}

TEST(SimRunner, AfterBattleSeesEveryBattleOnceAndAnErrorStopsTheRun) {
  const CoinAdapter coin{7};
  std::mutex mutex;
  std::vector<int> seen(600, 0);
  std::uint64_t failed = 0;
  RunOptions options{.battles = 600, .seed = 1, .policy = "plain", .threads = 2};
  options.after_battle = [&](std::uint64_t index, std::uint64_t seed, const nlohmann::json& actions,
                             const SimFailure* failure) -> Result<void> {
    const std::lock_guard lock(mutex);
    EXPECT_EQ(seed, battle_seed(1, index));
    EXPECT_FALSE(actions.empty());
    ++seen[index];
    if (failure != nullptr) {
      ++failed;
      EXPECT_EQ(failure->index, index);
      EXPECT_EQ(failure->actions, actions);
    }
    return {};
  };
  auto r = run_simulation(coin, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 600);
  EXPECT_EQ(failed, r.value().failures.size());

  options.after_battle = [](std::uint64_t index, std::uint64_t, const nlohmann::json&,
                            const SimFailure*) -> Result<void> {
    if (index == 42) return Error{"disk full at battle 42"};
    return {};
  };
  auto stopped = run_simulation(coin, options);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().message, "disk full at battle 42");
}

// The progress of a run that after_battle stopped counted the whole chunk of the battle that
// stopped it, the battles never played included.
TEST(SimRunner, TheProgressOfAStoppedRunCountsTheBattlesPlayed) {
  const CoinAdapter coin{0};
  // 512 battles on 2 threads go out in chunks of 8. Battle 3 stops chunk 0 once the other thread
  // has begun another chunk, whose first battle then waits until the progress shows the stop.
  std::mutex mutex;
  std::condition_variable changed;
  bool other_chunk_begun = false, stop_shown = false;
  std::vector<std::uint64_t> shown;
  constexpr auto kPatience = std::chrono::seconds(10);
  RunOptions o{.battles = 512, .policy = "plain", .threads = 2};
  o.after_battle = [&](std::uint64_t index, std::uint64_t, const nlohmann::json&,
                       const SimFailure*) -> Result<void> {
    std::unique_lock lock(mutex);
    if (index == 3) {
      changed.wait_for(lock, kPatience, [&] { return other_chunk_begun; });
      return Error{"stopped at battle 3"};
    }
    if (index >= 8 && !other_chunk_begun) {
      other_chunk_begun = true;
      changed.notify_all();
      changed.wait_for(lock, kPatience, [&] { return stop_shown; });
    }
    return {};
  };
  o.progress = [&](std::uint64_t done, std::uint64_t, double) {
    const std::lock_guard lock(mutex);
    shown.push_back(done);
    stop_shown |= done > 0;
    changed.notify_all();
  };
  const auto r = run_simulation(coin, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "stopped at battle 3");
  ASSERT_TRUE(other_chunk_begun);
  ASSERT_TRUE(stop_shown) << "the progress never showed the stop";
  // While the other chunk waits, only the stopped one has ended: battles 0 to 3 were played.
  const auto first = std::find_if(shown.begin(), shown.end(), [](std::uint64_t d) { return d > 0; });
  EXPECT_EQ(*first, 4u) << fmt::format("progress: {}", fmt::join(shown, ", "));
}

TEST(SimRunner, PairedCountsAddUpToTheBattlesBothFinished) {
  const CoinAdapter coin{0};
  const SimReport r =
      run(coin, {.battles = 3000, .seed = 5, .policy = "plain", .versus_policy = "lucky", .threads = 2});
  EXPECT_EQ(r.paired.n(), 3000u);
  EXPECT_EQ(r.paired.both_won + r.paired.only_a_won, r.wins);
  EXPECT_EQ(r.paired.both_won + r.paired.only_b_won, r.versus.wins);
  // lucky wins 3/4, plain 1/2: B is clearly better.
  const PairedTest t = paired_test(r.paired);
  EXPECT_LT(t.ci_high, 0.0);
  EXPECT_LT(t.p_value, 1e-6);
}

TEST(SimRunner, RefusesZeroOrTooManyThreadsBadShardsAndUnknownPolicies) {
  const CoinAdapter coin{0};
  EXPECT_FALSE(run_simulation(coin, {.battles = 10, .policy = "plain", .threads = 0}).ok());
  const auto too_many = run_simulation(coin, {.battles = 10, .policy = "plain", .threads = kMaxThreads + 1});
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().message, "a run plays on at most 256 threads, not 257");
  EXPECT_TRUE(run_simulation(coin, {.battles = 10, .policy = "plain", .threads = kMaxThreads}).ok());
  EXPECT_FALSE(
      run_simulation(coin, {.battles = 10, .policy = "plain", .shard_index = 3, .shard_count = 2}).ok());
  EXPECT_FALSE(run_simulation(coin, {.battles = 10, .policy = "nope"}).ok());
  EXPECT_FALSE(run_simulation(coin, {.battles = 10, .policy = "plain", .versus_policy = "nope"}).ok());
}

TEST(SimRunner, RefusesMoreBattlesThanARunPlaysAndPlaysAShardOfTheLargestRun) {
  const CoinAdapter coin{0};
  // 2^64 - 1 battles once overflowed the chunk count and gave a report of 0 battles.
  const auto too_many = run_simulation(coin, {.battles = ~std::uint64_t{0}, .policy = "plain"});
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.error().message.find("at most 1000000000000 battles"), std::string::npos)
      << too_many.error().message;
  EXPECT_FALSE(run_simulation(coin, {.battles = kMaxBattles + 1, .policy = "plain"}).ok());
  const RunOptions last{.battles = kMaxBattles,
                        .policy = "plain",
                        .shard_index = kMaxShardCount,
                        .shard_count = kMaxShardCount};
  const SimReport r = run(coin, last);
  const ShardRange range = shard_range(kMaxBattles, kMaxShardCount, kMaxShardCount);
  EXPECT_EQ(r.battles, range.count);
  EXPECT_EQ(r.first_battle, range.first);
  EXPECT_EQ(range.first + range.count, kMaxBattles);
}

TEST(SimRunner, ProgressIsReportedFromTheCallingThread) {
  struct SlowAdapter : CoinAdapter {
    class Player : public CoinAdapter::Player {
     public:
      using CoinAdapter::Player::Player;
      void play(std::uint64_t seed, BattleRecord& out) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        CoinAdapter::Player::play(seed, out);
      }
    };
    Result<std::unique_ptr<Player>> make_player(std::string_view) const {
      return std::make_unique<Player>(*this, false);
    }
  };
  const SlowAdapter slow{};
  const auto caller = std::this_thread::get_id();
  int calls = 0;
  std::uint64_t last_done = 0;
  bool monotone = true, same_thread = true;
  RunOptions o{.battles = 150, .policy = "plain", .threads = 2};
  o.progress = [&](std::uint64_t done, std::uint64_t total, double) {
    ++calls;
    same_thread &= std::this_thread::get_id() == caller;
    monotone &= done >= last_done && total == 150;
    last_done = done;
  };
  ASSERT_TRUE(run_simulation(slow, o).ok());
  EXPECT_GE(calls, 1);  // 150 battles of 2 ms on 2 threads take about 150 ms
  EXPECT_TRUE(monotone);
  EXPECT_TRUE(same_thread);
}

}  // namespace
}  // namespace battlecore::sim
