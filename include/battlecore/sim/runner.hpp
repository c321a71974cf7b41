#pragma once
/// The batch runner, one template for every rule set: it splits the battles of a run (or of one
/// shard of it) by seed over threads, plays each with the rule set's adapter, catches engine
/// errors per battle, and adds the tallies up in a fixed order, so that everything but the
/// timing is the same for any thread count. docs/simulation.md says how a rule set joins.
///
/// A rule set joins with an adapter `A` offering:
///   using Player = ...;   // plays battles one after another on one thread
///   void describe(SimReport& header) const;   // rules, encounter, content_hash, the tables' names
///   Result<std::unique_ptr<Player>> make_player(std::string_view policy) const;
/// and `Player` offering:
///   void play(std::uint64_t battle_seed, BattleRecord& out);  // one battle; may throw InvariantError
///                                                             // (a policy's, through policy_choice)
///   nlohmann::json actions_json();                            // the actions of the last battle
///   void recover();                                           // ready for a new battle after a throw
/// and, optionally,
///   void keep_actions(bool on);  // off: play need not keep the actions as it goes; actions_json()
///                                // then finds them (the battle played again gives the same ones)
/// which the runner turns off when only a failed battle's actions are asked for.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/invariant.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/report.hpp"

namespace battlecore::sim {

/// Called after each battle policy A played, with its actions and its failure: null when it went
/// well; else `actions` end with the action that raised the engine error or, for a failure
/// `while_choosing`, with the last action before the choice that raised it. Called from the
/// thread that played the battle, so it must be thread-safe; battles of one run call it with
/// distinct indices. An error stops the run and is the run's result (`sim --record` writes
/// replays with it).
using AfterBattle = std::function<Result<void>(std::uint64_t index, std::uint64_t battle_seed,
                                               const nlohmann::json& actions, const SimFailure* failure)>;

/// An engine error raised while a policy chose: in its search of copies of the battle (greedy's
/// lookahead, MCTS's iterations), or a pick that is not one of the options. No action submitted
/// to the battle raised it; play_counted records it as a failure `while_choosing`.
class ChoiceError : public InvariantError {
 public:
  using InvariantError::InvariantError;
};

/// `choose()`, the policy's pick among `count` options, with an engine error it raises turned
/// into a ChoiceError.
template <class Choose>
std::size_t policy_choice(std::size_t count, Choose&& choose) {
  try {
    const std::size_t pick = choose();
    BATTLECORE_ENSURE(pick < count, "the policy picked option {} of {}", pick, count);
    return pick;
  } catch (const ChoiceError&) {
    throw;
  } catch (const InvariantError& e) {
    throw ChoiceError(e.what());
  }
}

/// How to run: which battles, which policies, how many threads.
struct RunOptions {
  std::uint64_t battles = 1000;  ///< battles of the whole run (all shards)
  std::uint64_t seed = 1;        ///< battle i uses battle_seed(seed, i)
  std::string policy = "random";
  std::string versus_policy{};  ///< non-empty: play policy B on the same seeds too (paired A/B)
  unsigned threads = 1;
  std::uint32_t shard_index = 1;  ///< run only shard shard_index of shard_count
  std::uint32_t shard_count = 1;
  /// Called from the calling thread about ten times a second while the run goes on, with the
  /// battles played so far (`done`; a chunk counts once it is played, or stopped by after_battle).
  std::function<void(std::uint64_t done, std::uint64_t total, double elapsed_s)> progress{};
  AfterBattle after_battle{};
  /// Called once from the calling thread when the run has passed its checks, before the first
  /// battle; an error is the run's result and no battle is played (`sim --record` makes its
  /// directory here, so that a run refused leaves none behind).
  std::function<Result<void>()> before_run{};
  /// Settings of the run's policies, added to the report's `settings` (e.g. the mcts
  /// iterations), so that shards run with other settings do not merge.
  nlohmann::json policy_settings = nlohmann::json::object();
};

namespace detail {

/// Where a side's card and enemy ids land in the report's tables, when they are not the same
/// rows (side B of a paired run whose pack has cards or enemies side A's has not). Empty: the
/// same rows.
struct SideRows {
  std::vector<std::uint32_t> cards;
  std::vector<std::uint32_t> enemies;
  /// Puts the record's ids in the report's rows (an id outside the side's table stays outside).
  void apply(BattleRecord& record) const {
    const auto row = [](const std::vector<std::uint32_t>& rows, std::uint32_t id) {
      return id < rows.size() ? rows[id] : std::numeric_limits<std::uint32_t>::max();
    };
    if (!cards.empty())
      for (CardPlays& p : record.cards_played) p.card = row(cards, p.card);
    if (!enemies.empty())
      for (std::uint32_t& e : record.enemies) e = row(enemies, e);
  }
};

/// The rows of `side`'s ids in `rows`: the row of the same id, or a new row appended for an id
/// `rows` has not. Empty when every id is in its own row already.
inline std::vector<std::uint32_t> rows_of(std::vector<std::string>& rows,
                                          const std::vector<std::string>& side) {
  std::vector<std::uint32_t> out(side.size());
  bool moved = false;
  for (std::size_t i = 0; i < side.size(); ++i) {
    auto at = std::find(rows.begin(), rows.end(), side[i]);
    if (at == rows.end()) {
      rows.push_back(side[i]);
      at = rows.end() - 1;
    }
    out[i] = static_cast<std::uint32_t>(at - rows.begin());
    moved |= out[i] != i;
  }
  if (!moved) out.clear();
  return out;
}

/// Player::keep_actions(on) for a player that has it.
template <class Player>
void keep_actions(Player& player, bool on) {
  if constexpr (requires { player.keep_actions(on); }) player.keep_actions(on);
}

/// Plays one battle with `player` and adds it to `tally` (its ids put in the report's rows by
/// `rows`, when given); an engine error is recorded as a failure (with the seed and the actions) and the
/// player made ready for the next battle.
template <class Player>
bool play_counted(Player& player, std::uint64_t index, std::uint64_t seed, const std::string& policy,
                  BattleRecord& record, Tally& tally, const SideRows* rows = nullptr) {
  try {
    player.play(seed, record);
    if (rows != nullptr) rows->apply(record);
    tally.add(record);
    return true;
  } catch (const InvariantError& e) {
    ++tally.battles;
    tally.failures.push_back(SimFailure{index, seed, e.what(), policy, player.actions_json(),
                                        dynamic_cast<const ChoiceError*>(&e) != nullptr});
    player.recover();
    return false;
  }
}

}  // namespace detail

/// Runs the battles of `options` with `adapter`. A paired A/B plays side B, on the same seeds,
/// with `versus_policy` (or, when it is empty, `policy` again) and `versus` (or, when it is
/// null, `adapter`): two policies, two settings of one rule set (the deckbuilder's decks), or
/// two content packs. Side B's cards and enemies are matched to side A's by id; the report's
/// tables are side A's rows followed by those only side B has (a card one pack adds is a row
/// side A never plays). The seats and counters must be the same. When `versus`'s content
/// differs, the report's settings hold its `versus_content_hash`. Errors (an unknown policy, a thread
/// count of 0 or above kMaxThreads, a bad shard, more than kMaxBattles battles, a `versus` with
/// other seats or counters) are returned before any battle is played. A thread the system refuses to start
/// is an error too, returned once the threads already started have finished their chunk (their
/// battles may have been recorded by `after_battle`), and so is a sum that passes its range when
/// the threads' tallies are added (Tally::add; no run of kMaxBattles battles comes near it).
template <class Adapter>
Result<SimReport> run_simulation(const Adapter& adapter, const RunOptions& options,
                                 const Adapter* versus = nullptr) {
  using Player = typename Adapter::Player;
  if (options.threads == 0) return Error{"the thread count must be at least 1"};
  if (options.threads > kMaxThreads)
    return Error{fmt::format("a run plays on at most {} threads, not {}", kMaxThreads, options.threads)};
  if (options.shard_count == 0 || options.shard_index == 0 || options.shard_index > options.shard_count)
    return Error{"the shard must be K/N with 1 <= K <= N"};
  if (options.battles > kMaxBattles)
    return Error{fmt::format("a run plays at most {} battles, not {}", kMaxBattles, options.battles)};

  SimReport report;
  adapter.describe(report);
  // A report's JSON keeps the counters in an object, which is read back in name order: a rule
  // set's counters in another order would come out of a merge in another order than one run's.
  if (!std::is_sorted(report.counter_names.begin(), report.counter_names.end()))
    return Error{fmt::format("the rule set's counters must be named in order, not {}",
                             fmt::join(report.counter_names, ", "))};
  const bool paired_run = !options.versus_policy.empty() || versus != nullptr;
  const Adapter& adapter_b = versus != nullptr ? *versus : adapter;
  const std::string& policy_b = options.versus_policy.empty() ? options.policy : options.versus_policy;
  detail::SideRows rows_b;
  if (versus != nullptr) {
    SimReport b;
    versus->describe(b);
    // The first row that differs between the two sides' tables, named in the error.
    const auto first_difference = [](const char* table, const std::vector<std::string>& a,
                                     const std::vector<std::string>& other) -> std::optional<std::string> {
      for (std::size_t i = 0; i < std::max(a.size(), other.size()); ++i)
        if (i >= a.size() || i >= other.size() || a[i] != other[i])
          return fmt::format("their {} differ first at row {}: {} on side A, {} on side B", table, i,
                             i < a.size() ? "'" + a[i] + "'" : "none",
                             i < other.size() ? "'" + other[i] + "'" : "none");
      return std::nullopt;
    };
    for (const auto& [table, a, other] : {std::tuple{"seats", &report.seat_names, &b.seat_names},
                                          std::tuple{"seat kinds", &report.seat_kinds, &b.seat_kinds},
                                          std::tuple{"counters", &report.counter_names, &b.counter_names}})
      if (const auto d = first_difference(table, *a, *other))
        return Error{
            "the two sides of a paired run must have the same seat and counter tables (the same "
            "names, and seat kinds, in the same order); " +
            *d};
    rows_b.cards = detail::rows_of(report.card_ids, b.card_ids);
    rows_b.enemies = detail::rows_of(report.enemy_ids, b.enemy_ids);
    if (b.content_hash != report.content_hash)
      report.settings["versus_content_hash"] = fmt::format("{:016x}", b.content_hash);
  }
  report.policy = options.policy;
  report.versus_policy = paired_run ? policy_b : std::string();
  for (const auto& item : options.policy_settings.items()) report.settings[item.key()] = item.value();
  report.seed = options.seed;
  report.total_battles = options.battles;
  report.shard_index = options.shard_index;
  report.shard_count = options.shard_count;
  const ShardRange range = shard_range(options.battles, options.shard_index, options.shard_count);
  report.first_battle = range.first;

  const unsigned threads = static_cast<unsigned>(std::clamp<std::uint64_t>(range.count, 1, options.threads));
  struct Worker {
    std::unique_ptr<Player> a, b;
    Tally tally_a, tally_b;
    Paired paired;
    BattleRecord record_a, record_b;
  };
  // Refuse unknown policies before any thread starts.
  if (auto made = adapter.make_player(options.policy); !made) return made.error();
  if (paired_run)
    if (auto made = adapter_b.make_player(policy_b); !made) return made.error();
  if (options.before_run)
    if (auto ready = options.before_run(); !ready) return ready.error();
  // Each thread builds its own worker (players, battles, tallies), so that what a thread writes
  // comes from its own allocations and no two threads write to one cache line.
  std::vector<std::unique_ptr<Worker>> workers(threads);
  auto make_worker = [&] {
    auto w = std::make_unique<Worker>();
    auto a = adapter.make_player(options.policy);
    if (!a) throw InvariantError(a.error().message);
    w->a = std::move(a.value());
    // after_battle sees the actions of every battle of side A; otherwise only a failure needs them.
    detail::keep_actions(*w->a, static_cast<bool>(options.after_battle));
    if (paired_run) {
      auto b = adapter_b.make_player(policy_b);
      if (!b) throw InvariantError(b.error().message);
      w->b = std::move(b.value());
      detail::keep_actions(*w->b, false);
    }
    w->tally_a.resize(report.shape());
    w->tally_b.resize(report.shape());
    return w;
  };

  // Battles go out in chunks; which thread plays a chunk changes nothing in the result.
  const std::uint64_t chunk = std::clamp<std::uint64_t>(range.count / (std::uint64_t{threads} * 32), 1, 256);
  const std::uint64_t chunks = range.count / chunk + (range.count % chunk != 0 ? 1 : 0);  // no overflow
  std::atomic<std::uint64_t> next_chunk{0}, done{0};
  std::atomic<unsigned> running{threads};
  std::mutex mutex;
  std::condition_variable finished;
  std::exception_ptr error;
  std::optional<Error> stopped;  // the first error after_battle returned

  auto work = [&](std::unique_ptr<Worker>& slot) {
    try {
      slot = make_worker();
      Worker& w = *slot;
      for (std::uint64_t c = next_chunk.fetch_add(1); c < chunks; c = next_chunk.fetch_add(1)) {
        const std::uint64_t begin = range.first + c * chunk;
        std::uint64_t end = std::min(range.first + range.count, begin + chunk);
        for (std::uint64_t i = begin; i < end; ++i) {
          const std::uint64_t seed = battle_seed(options.seed, i);
          const bool ok_a = detail::play_counted(*w.a, i, seed, options.policy, w.record_a, w.tally_a);
          if (options.after_battle) {
            auto after = options.after_battle(i, seed, w.a->actions_json(),
                                              ok_a ? nullptr : &w.tally_a.failures.back());
            if (!after) {
              const std::lock_guard lock(mutex);
              if (!stopped) stopped = after.error();
              next_chunk.store(chunks);
              end = i + 1;  // the progress counts the battles played, not those of the chunk left
              break;
            }
          }
          if (paired_run) {
            const bool ok_b = detail::play_counted(*w.b, i, seed, policy_b, w.record_b, w.tally_b, &rows_b);
            if (ok_a && ok_b)
              w.paired.add(w.record_a.won, w.record_b.won, w.record_a.hp_left, w.record_b.hp_left);
          }
        }
        done.fetch_add(end - begin, std::memory_order_relaxed);
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
      next_chunk.store(chunks);  // the others stop after their chunk
    }
    {
      const std::lock_guard lock(mutex);
      --running;
    }
    finished.notify_all();
  };

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  pool.reserve(threads);
  // A thread the system refuses to start (std::system_error, or std::bad_alloc for its state):
  // the threads started stop after their chunk and those never started count as finished. The
  // message is made once every thread is joined, so nothing here can throw past a joinable one.
  std::exception_ptr not_started;
  for (auto& slot : workers) {
    try {
      pool.emplace_back(work, std::ref(slot));
    } catch (...) {
      not_started = std::current_exception();
      next_chunk.store(chunks);
      const std::lock_guard lock(mutex);
      running -= static_cast<unsigned>(threads - pool.size());
      break;
    }
  }
  {
    std::unique_lock lock(mutex);
    while (running > 0) {
      finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return running == 0; });
      if (options.progress && running > 0) {
        lock.unlock();
        options.progress(done.load(std::memory_order_relaxed), range.count,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        lock.lock();
      }
    }
  }
  for (std::thread& t : pool) t.join();
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (error) std::rethrow_exception(error);
  if (not_started)
    return Error{fmt::format("could not start thread {} of {}: {}", pool.size() + 1, threads,
                             exception_message(not_started))};
  if (stopped) return *stopped;

  // Fixed order: worker 0 first. Every field is an integer sum, failures are sorted by index.
  static_cast<Tally&>(report).resize(report.shape());
  if (paired_run) report.versus.resize(report.shape());
  for (const auto& w : workers) {
    if (!w) continue;  // only when a thread failed, which rethrew above
    if (auto added = report.Tally::add(w->tally_a); !added) return added.error();
    if (paired_run)
      if (auto added = report.versus.add(w->tally_b, "/versus"); !added) return added.error();
    if (auto added = report.paired.add(w->paired); !added) return added.error();
  }
  report.finish();
  report.versus.finish();
  return report;
}

}  // namespace battlecore::sim
