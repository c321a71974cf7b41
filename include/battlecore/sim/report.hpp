#pragma once
/// What a batch run shows, for any rule set: integer tallies that add up exactly (so threads
/// and shards merge into the very report one run gives), their JSON form, the paired A/B
/// comparison, and the merge of shard reports.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/version.hpp"

namespace battlecore::sim {

/// The most battles one run plays (`sim --battles`): every sum a report keeps (turns, decisions)
/// stays far from 2^64 at that size; the squared HP differences are summed in 128 bits.
inline constexpr std::uint64_t kMaxBattles = 1'000'000'000'000;
/// The most threads one run plays on (`sim --threads`): more than any machine it runs on has
/// cores; a larger count would only ask the system for threads it may not give.
inline constexpr unsigned kMaxThreads = 256;
/// The most shards a run is split into (`sim --shard K/N`: N has at most nine digits).
inline constexpr std::uint32_t kMaxShardCount = 999'999'999;

/// A battle that broke an engine invariant: enough to replay it (its seed and its actions).
struct SimFailure {
  std::uint64_t index = 0;  ///< the battle's index in the run
  std::uint64_t battle_seed = 0;
  std::string message;
  std::string policy;  ///< the policy that was playing it
  /// The actions submitted: the last of them raised the error, unless it was raised while the
  /// policy chose (`while_choosing`) or as the battle started (no action).
  nlohmann::json actions = nlohmann::json::array();
  /// Raised while the policy chose (in its search of copies of the battle, or an option it
  /// picked that is not there), after `actions`, not by the last of them.
  bool while_choosing = false;
  friend bool operator==(const SimFailure&, const SimFailure&) = default;
};

/// Per card definition: how often it was played and how battles went when it was.
struct CardTally {
  std::uint64_t plays = 0;             ///< times played, over all battles
  std::uint64_t battles_played = 0;    ///< battles in which it was played at least once
  std::uint64_t wins_when_played = 0;  ///< of those, the battles won
  friend bool operator==(const CardTally&, const CardTally&) = default;
};

/// Per enemy definition: how often it fought and the damage it dealt to the player's side.
struct EnemyTally {
  std::uint64_t battles = 0;        ///< battles it took part in (once per battle, per copy)
  std::uint64_t damage_dealt = 0;   ///< HP the player's side lost to its attacks
  std::uint64_t armor_removed = 0;  ///< armor its attacks broke through
  friend bool operator==(const EnemyTally&, const EnemyTally&) = default;
};

/// Per seat of a rule set where several seats play against each other (clash).
struct SeatTally {
  std::uint64_t wins = 0;       ///< battles the seat ended first alone
  std::uint64_t place_sum = 0;  ///< the sum of its places (1 = first)
  friend bool operator==(const SeatTally&, const SeatTally&) = default;
};

/// How many rows a tally's tables have (from the report's header).
struct TallyShape {
  std::size_t cards = 0;
  std::size_t enemies = 0;
  std::size_t seats = 0;
  std::size_t counters = 0;
};

/// A card definition played in one battle, and how many times.
struct CardPlays {
  std::uint32_t card = 0;
  std::uint32_t plays = 0;
  friend bool operator==(const CardPlays&, const CardPlays&) = default;
};

/// What one battle showed, filled by a rule set's adapter; reused from battle to battle.
struct BattleRecord {
  bool won = false;
  std::uint32_t turns = 0;
  std::uint64_t decisions = 0;
  std::uint32_t hp_left = 0;  ///< the player's side's HP at the end (0 when lost)
  /// Each card definition played, once, with its plays, in the order of first play. The
  /// adapter counts the plays as the battle goes, so the tally touches each card once per
  /// battle (add_play, or its own count per card).
  std::vector<CardPlays> cards_played;
  std::vector<std::uint32_t> enemies;       ///< enemy definition per enemy in the battle
  std::vector<std::uint64_t> enemy_damage;  ///< per enemy in the battle (same order): damage dealt
  std::vector<std::uint64_t> enemy_armor;   ///< per enemy in the battle: armor broken
  std::vector<std::uint8_t> places;         ///< per seat (several-seat rule sets): 1 = first
  std::vector<std::uint64_t> counters;      ///< the rule set's own counts (SimReport::counter_names)
  void clear();
  /// Counts one play of `card` in cards_played.
  void add_play(std::uint32_t card);
};

/// Sums over battles. Every field is an integer count, so adding tallies in any order gives the
/// same result: the run's report does not depend on the thread count or the sharding.
struct Tally {
  std::uint64_t battles = 0;
  std::uint64_t wins = 0;
  std::uint64_t turns = 0;      ///< player turns begun, summed over battles
  std::uint64_t decisions = 0;  ///< choices made by the policy, forced ones included
  std::uint64_t hp_left_on_wins = 0;
  std::vector<std::uint64_t> turns_histogram;    ///< [t]: battles that lasted t turns
  std::vector<std::uint64_t> hp_left_histogram;  ///< [h]: battles that ended with h HP (0: lost)
  std::vector<CardTally> cards;                  ///< per card definition
  std::vector<EnemyTally> enemies;               ///< per enemy definition
  std::vector<SeatTally> seats;                  ///< per seat (empty for one-sided rule sets)
  std::vector<std::uint64_t> counters;           ///< sums of the rule set's own counts
  std::vector<SimFailure> failures;              ///< in battle-index order after finish()

  /// Sized for the tables of `shape`.
  void resize(const TallyShape& shape);
  /// Adds one finished battle.
  void add(const BattleRecord& battle);
  /// Adds another tally (same card and enemy tables). A sum that would pass 2^64 (no run of
  /// kMaxBattles battles comes near it; edited reports can) is an error that names its JSON
  /// pointer, `at` (the tally's own, "/versus" for side B) first; this tally is then partly added.
  Result<void> add(const Tally& other, std::string_view at = "");
  /// Sorts the failures by battle index.
  void finish();

  /// The battles played to their end: a failed battle counts in `battles` and nowhere else, so
  /// rates and means are over these.
  std::uint64_t played() const { return battles - failures.size(); }
  double win_rate() const { return played() ? double(wins) / double(played()) : 0.0; }
  double mean_turns() const { return played() ? double(turns) / double(played()) : 0.0; }
  double mean_decisions() const { return played() ? double(decisions) / double(played()) : 0.0; }
  friend bool operator==(const Tally&, const Tally&) = default;
};

/// The paired comparison of two policies on the same seeds.
/// An unsigned 128-bit integer (GCC and Clang), for sums that can pass 2^64.
__extension__ using Uint128 = unsigned __int128;

struct Paired {
  std::uint64_t both_won = 0;
  std::uint64_t only_a_won = 0;
  std::uint64_t only_b_won = 0;
  std::uint64_t both_lost = 0;
  /// Sums over seeds of d = HP left by A - HP left by B (HP left is 0 in a lost battle), and of
  /// d squared: integers, so shards add up exactly. The squares take 128 bits: kMaxBattles
  /// squared differences of a few thousand HP pass 2^64.
  std::int64_t hp_diff_sum = 0;
  Uint128 hp_diff_sq_sum = 0;
  void add(bool a_won, bool b_won);
  /// One seed: the outcomes and the HP each side had left.
  void add(bool a_won, bool b_won, std::uint32_t a_hp_left, std::uint32_t b_hp_left);
  /// Adds another table; a sum past its type's range is an error, as in Tally::add.
  Result<void> add(const Paired& other);
  std::uint64_t n() const { return both_won + only_a_won + only_b_won + both_lost; }
  friend bool operator==(const Paired&, const Paired&) = default;
};

/// The statistics of a paired comparison.
struct PairedTest {
  /// Win rate of A minus win rate of B over the seeds both finished (0 when there are none). The
  /// intervals are NaN (null in JSON) where they cannot be estimated: with no seed, and for the
  /// HP difference also with one seed (no spread to take a standard error from).
  double difference = 0;
  double ci_low = 0;  ///< 95% confidence interval of the difference (Newcombe's, paired)
  double ci_high = 0;
  double mcnemar_chi2 = 0;   ///< McNemar's statistic with continuity correction
  double p_value = 1;        ///< its two-sided p-value (chi-square, one degree of freedom)
  double hp_difference = 0;  ///< mean HP left by A minus mean HP left by B (0 HP when lost)
  double hp_ci_low = 0;      ///< its 95% confidence interval (normal approximation, paired)
  double hp_ci_high = 0;
};
PairedTest paired_test(const Paired& p);
/// A paired interval for the text and HTML reports: "+0.0100 .. +0.0300", or, when it is NaN, why
/// with the number of `seeds` the paired table counts: "undefined (no seed paired)" (every seed
/// failed on a side, or there was none), else "undefined (fewer than two seeds)" (the HP
/// difference's interval needs two).
std::string paired_interval_text(double low, double high, std::uint64_t seeds);
/// A setting's value for the text and HTML reports: a string as it is (a deck: `defend*10`), any
/// other value as JSON.
std::string setting_text(const nlohmann::json& value);

/// A 95% Wilson score interval for `wins` out of `n`.
struct Interval {
  double low = 0;
  double high = 0;
};
Interval wilson_interval(std::uint64_t wins, std::uint64_t n);

/// The p-th percentile (0..100, nearest rank) of a histogram; 0 when it is empty.
std::uint64_t percentile(const std::vector<std::uint64_t>& histogram, double p);

/// One run's report, or one shard's. Everything but `elapsed_s` depends only on the content and
/// the options.
struct SimReport : Tally {
  std::string rules;
  std::string encounter;
  std::string policy;
  std::uint64_t seed = 0;
  std::uint64_t content_hash = 0;
  /// The build that played the battles and its random number code: shards of other builds do
  /// not merge, since the same seeds may have given other battles.
  std::string engine_version = std::string(::battlecore::sim::engine_version());
  std::uint32_t rng_version = kRngVersion;
  std::uint64_t total_battles = 0;  ///< battles of the whole run (all shards)
  std::uint32_t shard_index = 1;    ///< this report covers shard shard_index of shard_count
  std::uint32_t shard_count = 1;
  std::uint64_t first_battle = 0;      ///< index of the first battle this report covers
  std::vector<std::string> card_ids;   ///< names of `cards`, in catalog order
  std::vector<std::string> enemy_ids;  ///< names of `enemies`, in catalog order
  /// Several-seat rule sets (clash): the seats' names, kinds ("human", "bot") and policies.
  /// `wins` and `win_rate` are then those of seat 0, whose policy is `policy`.
  std::vector<std::string> seat_names, seat_kinds, seat_policies;
  /// Names of `counters`: what the rule set counts beyond wins (party: "defeats", "fled"), in
  /// name order, the order a report's JSON reads back in (run_simulation refuses another).
  std::vector<std::string> counter_names;
  /// The settings the run's policies were given (an object; party: the block rates).
  nlohmann::json settings = nlohmann::json::object();
  bool enemy_damage_counted = true;  ///< false: the enemies' damage columns were not counted
  std::string versus_policy;         ///< empty: no A/B comparison
  Tally versus;                      ///< policy B on the same seeds
  Paired paired;                     ///< both policies, battle by battle
  double elapsed_s = 0;

  /// The report as one JSON object: the keys rules, encounter, battles, seed, policy, wins,
  /// win_rate, mean_turns, decisions, mean_decisions, mean_hp_left_on_wins, errors, elapsed_s,
  /// battles_per_s, decisions_per_s, then the detail (see docs/simulation.md).
  nlohmann::json to_json() const;
  /// Reads what to_json wrote (see report_from_document); the error lists every problem, one
  /// `report: /pointer: message` line each.
  static Result<SimReport> from_json(const nlohmann::json& j);
  /// The report as aligned `key value` lines.
  std::string to_text() const;
  /// The sizes of the tables, from the header.
  TallyShape shape() const {
    return {card_ids.size(), enemy_ids.size(), seat_names.size(), counter_names.size()};
  }
};

/// A card row of the text and HTML reports: a card played on side A, or on side B of a paired
/// run (a card only one pack has is played on that side only).
struct ShownCard {
  std::size_t row = 0;           ///< in SimReport::cards and card_ids
  const CardTally* a = nullptr;  ///< side A's tally
  const CardTally* b = nullptr;  ///< side B's; a tally of no plays when the run is not paired
};
/// The card rows the reports list, in the pack's order.
std::vector<ShownCard> shown_cards(const SimReport& r);
/// An enemy row of the text and HTML reports: an enemy that fought on side A, or on side B of a
/// paired run (an enemy only one pack has fights on that side only).
struct ShownEnemy {
  std::size_t row = 0;            ///< in SimReport::enemies and enemy_ids
  const EnemyTally* a = nullptr;  ///< side A's tally
  const EnemyTally* b = nullptr;  ///< side B's; a tally of no battles when the run is not paired
};
/// The enemy rows the reports list, in the pack's order.
std::vector<ShownEnemy> shown_enemies(const SimReport& r);
/// a / b, the reports' means and rates; 0 when b is 0.
inline double ratio(std::uint64_t a, std::uint64_t b) { return b != 0 ? double(a) / double(b) : 0.0; }

/// Reads what SimReport::to_json wrote, strictly: each problem of the document is a diagnostic at
/// the JSON pointer of the value (with its line and column): a wrong type, a key the format does
/// not have, a shard that is not K/N of its battles, or counts that disagree (more wins than
/// battles, histograms that do not count every battle once or end with a 0, a paired table that
/// does not fit both sides' wins, failures and HP left, side B's tables other than side A's, an
/// error whose seed or policy is not the run's, a card played in no battle, an enemy's damage in
/// no battle, a sum of squared HP differences the paired seeds cannot have, ...). Derived values
/// (rates, means, percentiles) are recomputed from the counts; those read must be numbers, and the
/// ones the counts give up to rounding (an `elapsed_s` whose rates pass the largest double is
/// refused).
Result<SimReport, content::Diagnostics> report_from_document(const content::JsonDocument& doc);
/// Reads and checks a report file (report_from_document); a syntax error gives its line and column.
Result<SimReport, content::Diagnostics> read_report(const std::filesystem::path& path);

/// The battles [first, first + count) of shard `index` (1-based) of `count` over `total`.
struct ShardRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};
ShardRange shard_range(std::uint64_t total, std::uint32_t index, std::uint32_t count);

/// Parses "K/N" with 1 <= K <= N; an error says what was wrong.
Result<std::pair<std::uint32_t, std::uint32_t>> parse_shard(const std::string& text);

/// Merges shard reports of one run into the report the run would give in one piece. Refuses
/// reports of different rules, content, encounter, seed, battles or policies, a shard count
/// outside 1..kMaxShardCount, shards that do not cover 1..N exactly once (the missing ones
/// are named, the first ten of them), counts whose sum passes its type's range (Tally::add), and
/// times whose sum, or the rates it gives, pass the largest double. A refusal names each report
/// by its entry of `names` (the files' paths), "report K" (1-based) where there is none.
Result<SimReport> merge_reports(const std::vector<SimReport>& shards,
                                const std::vector<std::string>& names = {});

}  // namespace battlecore::sim
