#include "battlecore/sim/report.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/portable_math.hpp"

namespace battlecore::sim {

// --- tallies ------------------------------------------------------------------------------

void BattleRecord::clear() {
  won = false;
  turns = 0;
  decisions = 0;
  hp_left = 0;
  cards_played.clear();
  enemies.clear();
  enemy_damage.clear();
  enemy_armor.clear();
  places.clear();
  std::fill(counters.begin(), counters.end(), 0);
}

void BattleRecord::add_play(std::uint32_t card) {
  for (CardPlays& p : cards_played)
    if (p.card == card) {
      ++p.plays;
      return;
    }
  cards_played.push_back(CardPlays{card, 1});
}

void Tally::resize(const TallyShape& shape) {
  cards.resize(shape.cards);
  enemies.resize(shape.enemies);
  seats.resize(shape.seats);
  counters.resize(shape.counters);
}

namespace {

[[gnu::noinline]] void grow(std::vector<std::uint64_t>& histogram, std::size_t at) {
  histogram.resize(at + 1, 0);
}

// Inline, once per battle and histogram: the bar is there after the first battles.
inline void bump(std::vector<std::uint64_t>& histogram, std::size_t at) {
  if (histogram.size() <= at) [[unlikely]]
    grow(histogram, at);
  ++histogram[at];
}

/// `into += more`, or false (`into` unchanged) when the sum passes the range of its type.
template <class T>
bool add_checked(T& into, T more) {
  T sum;
  if (__builtin_add_overflow(into, more, &sum)) return false;
  into = sum;
  return true;
}

}  // namespace

[[gnu::hot]] void Tally::add(const BattleRecord& b) {
  ++battles;
  if (b.won) {
    ++wins;
    hp_left_on_wins += b.hp_left;
  }
  turns += b.turns;
  decisions += b.decisions;
  bump(turns_histogram, b.turns);
  bump(hp_left_histogram, b.won ? b.hp_left : 0);
  // Each card of the record once: its plays, and the battle once (won or not).
  for (const CardPlays& p : b.cards_played) {
    if (p.card >= cards.size()) continue;
    CardTally& c = cards[p.card];
    c.plays += p.plays;
    ++c.battles_played;
    c.wins_when_played += b.won ? 1 : 0;
  }
  for (std::size_t i = 0; i < b.enemies.size(); ++i) {
    const std::uint32_t enemy = b.enemies[i];
    if (enemy >= enemies.size()) continue;
    ++enemies[enemy].battles;
    if (i < b.enemy_damage.size()) enemies[enemy].damage_dealt += b.enemy_damage[i];
    if (i < b.enemy_armor.size()) enemies[enemy].armor_removed += b.enemy_armor[i];
  }
  const std::size_t firsts = static_cast<std::size_t>(std::count(b.places.begin(), b.places.end(), 1));
  for (std::size_t s = 0; s < b.places.size() && s < seats.size(); ++s) {
    seats[s].place_sum += b.places[s];
    if (b.places[s] == 1 && firsts == 1) ++seats[s].wins;
  }
  for (std::size_t c = 0; c < b.counters.size() && c < counters.size(); ++c) counters[c] += b.counters[c];
}

Result<void> Tally::add(const Tally& o, std::string_view at) {
  // A run of kMaxBattles battles keeps every sum far below 2^64; only edited counts pass it, and
  // a wrapped sum would be a wrong report.
  const auto sum = [&](std::uint64_t& into, std::uint64_t more, std::string_view key) -> Result<void> {
    if (add_checked(into, more)) return {};
    return Error{fmt::format("the sum at {}{} passes 2^64", at, key)};
  };
  const auto rows = [&](std::string_view table, std::size_t row, std::string_view key) {
    return fmt::format("/{}/{}/{}", table, row, key);
  };
  for (const auto& [into, more, key] :
       {std::tuple{&battles, o.battles, "/battles"}, std::tuple{&wins, o.wins, "/wins"},
        std::tuple{&turns, o.turns, "/turns/total"}, std::tuple{&decisions, o.decisions, "/decisions"},
        std::tuple{&hp_left_on_wins, o.hp_left_on_wins, "/hp_left/total"}})
    if (auto added = sum(*into, more, key); !added) return added;
  for (const auto& [histogram, more, key] :
       {std::tuple{&turns_histogram, &o.turns_histogram, "turns"},
        std::tuple{&hp_left_histogram, &o.hp_left_histogram, "hp_left"}}) {
    if (histogram->size() < more->size()) histogram->resize(more->size(), 0);
    for (std::size_t v = 0; v < more->size(); ++v)
      if (auto added = sum((*histogram)[v], (*more)[v], fmt::format("/{}/histogram/{}", key, v)); !added)
        return added;
  }
  if (cards.size() < o.cards.size()) cards.resize(o.cards.size());
  for (std::size_t c = 0; c < o.cards.size(); ++c)
    for (const auto& [into, more, key] :
         {std::tuple{&cards[c].plays, o.cards[c].plays, "plays"},
          std::tuple{&cards[c].battles_played, o.cards[c].battles_played, "battles_played"},
          std::tuple{&cards[c].wins_when_played, o.cards[c].wins_when_played, "wins_when_played"}})
      if (auto added = sum(*into, more, rows("cards", c, key)); !added) return added;
  if (enemies.size() < o.enemies.size()) enemies.resize(o.enemies.size());
  for (std::size_t e = 0; e < o.enemies.size(); ++e)
    for (const auto& [into, more, key] :
         {std::tuple{&enemies[e].battles, o.enemies[e].battles, "battles"},
          std::tuple{&enemies[e].damage_dealt, o.enemies[e].damage_dealt, "damage_dealt"},
          std::tuple{&enemies[e].armor_removed, o.enemies[e].armor_removed, "armor_removed"}})
      if (auto added = sum(*into, more, rows("enemies", e, key)); !added) return added;
  if (seats.size() < o.seats.size()) seats.resize(o.seats.size());
  for (std::size_t i = 0; i < o.seats.size(); ++i)
    for (const auto& [into, more, key] : {std::tuple{&seats[i].wins, o.seats[i].wins, "wins"},
                                          std::tuple{&seats[i].place_sum, o.seats[i].place_sum, "place_sum"}})
      if (auto added = sum(*into, more, rows("seats", i, key)); !added) return added;
  if (counters.size() < o.counters.size()) counters.resize(o.counters.size());
  for (std::size_t c = 0; c < o.counters.size(); ++c)
    if (auto added = sum(counters[c], o.counters[c], fmt::format("/counters/{}", c)); !added) return added;
  failures.insert(failures.end(), o.failures.begin(), o.failures.end());
  return {};
}

void Tally::finish() {
  std::stable_sort(failures.begin(), failures.end(), [](const SimFailure& a, const SimFailure& b) {
    return a.index != b.index ? a.index < b.index : a.policy < b.policy;
  });
}

void Paired::add(bool a_won, bool b_won) {
  if (a_won && b_won)
    ++both_won;
  else if (a_won)
    ++only_a_won;
  else if (b_won)
    ++only_b_won;
  else
    ++both_lost;
}

void Paired::add(bool a_won, bool b_won, std::uint32_t a_hp_left, std::uint32_t b_hp_left) {
  add(a_won, b_won);
  const std::int64_t d = std::int64_t{a_hp_left} - std::int64_t{b_hp_left};
  hp_diff_sum += d;
  // |d| < 2^32, so its square fits 64 bits unsigned (not always signed).
  const auto magnitude = static_cast<std::uint64_t>(d < 0 ? -d : d);
  hp_diff_sq_sum += magnitude * magnitude;
}

Result<void> Paired::add(const Paired& o) {
  // As in Tally::add: only edited counts pass the range, and the signed sum must not overflow.
  for (const auto& [into, more, key] :
       {std::tuple{&both_won, o.both_won, "both_won"}, std::tuple{&only_a_won, o.only_a_won, "only_a_won"},
        std::tuple{&only_b_won, o.only_b_won, "only_b_won"},
        std::tuple{&both_lost, o.both_lost, "both_lost"}})
    if (!add_checked(*into, more)) return Error{fmt::format("the sum at /versus/paired/{} passes 2^64", key)};
  if (!add_checked(hp_diff_sum, o.hp_diff_sum))
    return Error{"the sum at /versus/paired/hp_left_diff_sum passes the range of a signed 64-bit integer"};
  if (!add_checked(hp_diff_sq_sum, o.hp_diff_sq_sum))
    return Error{"the sum at /versus/paired/hp_left_diff_sq_sum passes 2^128"};
  return {};
}

// --- statistics ---------------------------------------------------------------------------

namespace {
constexpr double kZ95 = 1.959963984540054;
}

namespace {

/// Newcombe's square-and-add interval for the difference of two paired proportions (Newcombe
/// 1998, "Improved confidence intervals for the difference between binomial proportions based on
/// paired data", method 10): the Wilson intervals of A's and B's win rates, combined with the
/// correlation of the two sides' outcomes over the seeds. Unlike the normal approximation of the
/// per-seed differences, it does not shrink to a point when no seed tells the sides apart.
Interval paired_difference_interval(const Paired& p) {
  const double n = static_cast<double>(p.n());
  const double both = static_cast<double>(p.both_won), only_a = static_cast<double>(p.only_a_won);
  const double only_b = static_cast<double>(p.only_b_won), neither = static_cast<double>(p.both_lost);
  const std::uint64_t a_wins = p.both_won + p.only_a_won, b_wins = p.both_won + p.only_b_won;
  const double p1 = static_cast<double>(a_wins) / n, p2 = static_cast<double>(b_wins) / n;
  const Interval w1 = wilson_interval(a_wins, p.n()), w2 = wilson_interval(b_wins, p.n());
  // The correlation of the two outcomes, 0 when a margin is empty, and with Newcombe's
  // continuity correction of the cross product when it is positive.
  double phi = 0;
  const double margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither);
  if (margins > 0) {
    const double cross = both * neither - only_a * only_b;
    phi = cross > n / 2 ? (cross - n / 2) / std::sqrt(margins) : cross < 0 ? cross / std::sqrt(margins) : 0.0;
  }
  const auto spread = [phi](double below, double above) {
    return std::sqrt(std::max(0.0, below * below + above * above - 2 * phi * below * above));
  };
  const double d = p1 - p2;
  return {std::max(-1.0, d - spread(p1 - w1.low, w2.high - p2)),
          std::min(1.0, d + spread(p2 - w2.low, w1.high - p1))};
}

}  // namespace

PairedTest paired_test(const Paired& p) {
  PairedTest t;
  const double n = static_cast<double>(p.n());
  if (n == 0) {  // no seed finished on both sides: the differences stay 0, with no interval
    t.ci_low = t.ci_high = t.hp_ci_low = t.hp_ci_high = std::numeric_limits<double>::quiet_NaN();
    return t;
  }
  const double b = static_cast<double>(p.only_a_won), c = static_cast<double>(p.only_b_won);
  t.difference = (b - c) / n;
  const Interval diff = paired_difference_interval(p);
  t.ci_low = diff.low;
  t.ci_high = diff.high;
  // The mean HP difference and its normal 95% interval, from the sum of the per-seed differences
  // and the sum of their squares; one seed gives no spread to estimate the standard error from.
  t.hp_difference = static_cast<double>(p.hp_diff_sum) / n;
  if (n < 2) {
    t.hp_ci_low = t.hp_ci_high = std::numeric_limits<double>::quiet_NaN();
  } else {
    const double variance =
        (static_cast<double>(p.hp_diff_sq_sum) - n * t.hp_difference * t.hp_difference) / (n - 1);
    const double se = std::sqrt(std::max(0.0, variance) / n);
    t.hp_ci_low = t.hp_difference - kZ95 * se;
    t.hp_ci_high = t.hp_difference + kZ95 * se;
  }
  if (b + c > 0) {
    const double num = std::max(0.0, std::abs(b - c) - 1.0);
    t.mcnemar_chi2 = num * num / (b + c);
    t.p_value = portable_erfc(std::sqrt(t.mcnemar_chi2 / 2.0));  // chi-square(1) upper tail
  }
  return t;
}

std::string paired_interval_text(double low, double high, std::uint64_t seeds) {
  if (std::isnan(low) || std::isnan(high))
    return seeds == 0 ? "undefined (no seed paired)" : "undefined (fewer than two seeds)";
  return fmt::format("{:+.4f} .. {:+.4f}", low, high);
}

std::string setting_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

Interval wilson_interval(std::uint64_t wins, std::uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double nn = static_cast<double>(n), p = static_cast<double>(wins) / nn, z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = kZ95 * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  // The interval of no win starts at 0 and that of all wins ends at 1 exactly (centre - half and
  // centre + half are those ends only up to rounding).
  return {wins == 0 ? 0.0 : std::max(0.0, centre - half), wins == n ? 1.0 : std::min(1.0, centre + half)};
}

std::uint64_t percentile(const std::vector<std::uint64_t>& histogram, double p) {
  std::uint64_t total = 0;
  for (std::uint64_t c : histogram) total += c;
  if (total == 0) return 0;
  // Nearest rank: the smallest value with at least ceil(p/100 * total) battles at or below it.
  const auto rank =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p / 100.0 * double(total))));
  std::uint64_t seen = 0;
  for (std::size_t v = 0; v < histogram.size(); ++v) {
    seen += histogram[v];
    if (seen >= rank) return v;
  }
  return histogram.size() - 1;
}

// --- JSON ---------------------------------------------------------------------------------

namespace {

constexpr double kPercentiles[] = {10, 25, 50, 75, 90};

std::string hex64(std::uint64_t v) { return fmt::format("{:016x}", v); }

/// A 128-bit count in decimal digits.
std::string uint128_text(Uint128 v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

/// The timing rates a report writes: both sides' battles and decisions per second, 0 when no
/// time was measured. The counts are added as doubles: a report read may hold any two counts.
std::pair<double, double> timing_rates(const SimReport& r) {
  if (!(r.elapsed_s > 0)) return {0.0, 0.0};
  return {(double(r.battles) + double(r.versus.battles)) / r.elapsed_s,
          (double(r.decisions) + double(r.versus.decisions)) / r.elapsed_s};
}

nlohmann::json distribution_json(const std::vector<std::uint64_t>& histogram, std::uint64_t total,
                                 std::uint64_t battles) {
  nlohmann::json j = {{"total", total}, {"mean", ratio(total, battles)}};
  for (double p : kPercentiles) j[fmt::format("p{}", static_cast<int>(p))] = percentile(histogram, p);
  j["max"] = histogram.empty() ? 0 : histogram.size() - 1;
  j["histogram"] = histogram;
  return j;
}

std::uint64_t weighted_sum(const std::vector<std::uint64_t>& histogram) {
  std::uint64_t s = 0;
  for (std::size_t v = 0; v < histogram.size(); ++v) s += v * histogram[v];
  return s;
}

/// The keys one policy's results have, at the top level for A and under "versus" for B.
/// A seat's policy: its own, or `policy` (the policy of the run being reported) for seat 0.
std::string seat_policy(const SimReport& header, std::size_t seat, const std::string& policy) {
  return seat < header.seat_policies.size() && !header.seat_policies[seat].empty()
             ? header.seat_policies[seat]
             : policy;
}

std::string at_or_empty(const std::vector<std::string>& v, std::size_t i) { return i < v.size() ? v[i] : ""; }

void tally_json(nlohmann::json& j, const Tally& t, const SimReport& header, const std::string& policy) {
  const std::vector<std::string>& card_ids = header.card_ids;
  const std::vector<std::string>& enemy_ids = header.enemy_ids;
  nlohmann::json errors = nlohmann::json::array();
  for (const SimFailure& f : t.failures)
    errors.push_back({{"index", f.index},
                      {"battle_seed", f.battle_seed},
                      {"policy", f.policy},
                      {"message", f.message},
                      {"while_choosing", f.while_choosing},
                      {"actions", f.actions}});
  const Interval ci = wilson_interval(t.wins, t.played());
  j["wins"] = t.wins;
  j["win_rate"] = t.win_rate();
  j["win_rate_ci95"] = {ci.low, ci.high};
  j["mean_turns"] = t.mean_turns();
  j["decisions"] = t.decisions;
  j["mean_decisions"] = t.mean_decisions();
  j["mean_hp_left_on_wins"] = ratio(t.hp_left_on_wins, t.wins);
  j["errors"] = errors;
  j["turns"] = distribution_json(t.turns_histogram, t.turns, t.played());
  j["hp_left"] = distribution_json(t.hp_left_histogram, weighted_sum(t.hp_left_histogram), t.played());
  nlohmann::json cards = nlohmann::json::array();
  for (std::size_t c = 0; c < t.cards.size(); ++c) {
    const CardTally& ct = t.cards[c];
    cards.push_back({{"id", c < card_ids.size() ? card_ids[c] : fmt::format("#{}", c)},
                     {"plays", ct.plays},
                     {"plays_per_battle", ratio(ct.plays, t.played())},
                     {"battles_played", ct.battles_played},
                     {"wins_when_played", ct.wins_when_played},
                     {"win_rate_when_played", ratio(ct.wins_when_played, ct.battles_played)}});
  }
  j["cards"] = cards;
  nlohmann::json enemies = nlohmann::json::array();
  for (std::size_t e = 0; e < t.enemies.size(); ++e) {
    const EnemyTally& et = t.enemies[e];
    enemies.push_back({{"id", e < enemy_ids.size() ? enemy_ids[e] : fmt::format("#{}", e)},
                       {"battles", et.battles},
                       {"damage_dealt", et.damage_dealt},
                       {"damage_per_battle", ratio(et.damage_dealt, et.battles)},
                       {"armor_removed", et.armor_removed}});
  }
  j["enemies"] = enemies;
  if (!t.seats.empty()) {
    nlohmann::json seats = nlohmann::json::array();
    for (std::size_t i = 0; i < t.seats.size(); ++i)
      seats.push_back({{"seat", i},
                       {"name", at_or_empty(header.seat_names, i)},
                       {"kind", at_or_empty(header.seat_kinds, i)},
                       {"policy", seat_policy(header, i, policy)},
                       {"wins", t.seats[i].wins},
                       {"win_rate", ratio(t.seats[i].wins, t.played())},
                       {"place_sum", t.seats[i].place_sum},
                       {"mean_place", ratio(t.seats[i].place_sum, t.played())}});
    j["seats"] = seats;
    // With seats, `wins` and `mean_place` are objects keyed by seat index; `win_rate` is seat 0's.
    nlohmann::json wins = nlohmann::json::object(), places = nlohmann::json::object();
    for (std::size_t i = 0; i < t.seats.size(); ++i) {
      wins[std::to_string(i)] = t.seats[i].wins;
      places[std::to_string(i)] = ratio(t.seats[i].place_sum, t.played());
    }
    j["wins"] = wins;
    j["mean_place"] = places;
  }
  if (!t.counters.empty()) {
    nlohmann::json counters = nlohmann::json::object();
    for (std::size_t c = 0; c < t.counters.size(); ++c)
      counters[c < header.counter_names.size() ? header.counter_names[c] : fmt::format("#{}", c)] =
          t.counters[c];
    j["counters"] = counters;
  }
}

/// The keys of one policy's results: at the top level for policy A, under "versus" for B. The
/// derived ones (rates, means, percentiles, intervals) are recomputed from the counts, not read.
constexpr std::string_view kTallyKeys[] = {
    "battles",    "wins",      "win_rate",       "win_rate_ci95",
    "mean_turns", "decisions", "mean_decisions", "mean_hp_left_on_wins",
    "errors",     "turns",     "hp_left",        "cards",
    "enemies",    "seats",     "mean_place",     "counters"};
constexpr std::string_view kHeaderKeys[] = {"rules",         "encounter",      "seed",
                                            "policy",        "content_hash",   "engine_version",
                                            "rng_version",   "settings",       "enemy_damage_counted",
                                            "shard",         "versus",         "elapsed_s",
                                            "battles_per_s", "decisions_per_s"};
constexpr std::string_view kVersusKeys[] = {"policy", "paired"};
constexpr std::string_view kDistributionKeys[] = {"total", "mean", "p10", "p25",      "p50",
                                                  "p75",   "p90",  "max", "histogram"};
constexpr std::string_view kCardKeys[] = {
    "id", "plays", "plays_per_battle", "battles_played", "wins_when_played", "win_rate_when_played"};
constexpr std::string_view kEnemyKeys[] = {"id", "battles", "damage_dealt", "damage_per_battle",
                                           "armor_removed"};
constexpr std::string_view kSeatKeys[] = {"seat", "name",     "kind",      "policy",
                                          "wins", "win_rate", "place_sum", "mean_place"};
constexpr std::string_view kErrorKeys[] = {"index",   "battle_seed",    "policy",
                                           "message", "while_choosing", "actions"};
constexpr std::string_view kShardKeys[] = {"index", "count", "first_battle", "total_battles"};
constexpr std::string_view kPairedKeys[] = {
    "both_won",         "only_a_won",          "only_b_won",         "both_lost",
    "difference",       "difference_ci95",     "mcnemar_chi2",       "p_value",
    "hp_left_diff_sum", "hp_left_diff_sq_sum", "hp_left_difference", "hp_left_difference_ci95"};

/// A JSON value as a message shows it: scalars as written (cut at 40 characters), the rest by
/// their type.
/// A 128-bit count in JSON: a number while it fits 64 bits, else its decimal digits in a string.
nlohmann::json uint128_json(Uint128 v) {
  if (v <= std::numeric_limits<std::uint64_t>::max()) return static_cast<std::uint64_t>(v);
  return uint128_text(v);
}

/// uint128_json's string read back: decimal digits of a value at or past 2^64 and below 2^128.
std::optional<Uint128> parse_uint128(std::string_view digits) {
  if (digits.empty() || digits.size() > 39) return std::nullopt;
  Uint128 v = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(c - '0');
    if (v > (~Uint128{0} - digit) / 10) return std::nullopt;  // 2^128 or more
    v = v * 10 + digit;
  }
  if (v <= std::numeric_limits<std::uint64_t>::max()) return std::nullopt;  // written as a number
  return v;
}

std::string shown(const nlohmann::json& v) {
  if (v.is_object() || v.is_array() || v.is_null()) return content::describe_json_type(v);
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

/// A non-negative integer that fits 64 bits, or nullopt.
std::optional<std::uint64_t> count_of(const nlohmann::json& v) {
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0))
    return v.get<std::uint64_t>();
  return std::nullopt;
}

/// The count `key` of the object `j`, or nullopt when it is missing or not a count.
std::optional<std::uint64_t> count_of(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(std::string(key));
  return it == j.end() ? std::nullopt : count_of(*it);
}

/// a + b, or 2^64 - 1 when the sum passes it: edited counts compared with a battle count (at most
/// kMaxBattles) are then too many, not wrapped round to a plausible value.
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::uint64_t>::max() : sum;
}

/// A saturating_add sum in a message.
std::string sum_text(std::uint64_t sum) {
  return sum == std::numeric_limits<std::uint64_t>::max() ? "2^64 or more" : std::to_string(sum);
}

/// The sum of value times count over a histogram, or nullopt when it passes 2^64.
std::optional<std::uint64_t> checked_weighted_sum(const std::vector<std::uint64_t>& histogram) {
  std::uint64_t s = 0;
  for (std::size_t v = 0; v < histogram.size(); ++v) {
    std::uint64_t term = 0;
    if (__builtin_mul_overflow(std::uint64_t{v}, histogram[v], &term) || __builtin_add_overflow(s, term, &s))
      return std::nullopt;
  }
  return s;
}

/// The largest value a histogram counts (its last index: a run's histogram ends there), 0 when empty.
std::uint64_t largest(const std::vector<std::uint64_t>& histogram) {
  return histogram.empty() ? 0 : histogram.size() - 1;
}

/// A signed 128-bit integer, for the bounds of a sum of HP differences.
__extension__ using Int128 = __int128;

std::string int128_text(Int128 v) {
  const bool negative = v < 0;
  auto magnitude = static_cast<Uint128>(negative ? -v : v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

/// The seat index a key of the top-level `wins` and `mean_place` objects names, if it is one of
/// `seats` seats.
std::optional<std::size_t> seat_key(const std::string& key, std::size_t seats) {
  std::size_t seat = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), seat);
  if (ec != std::errc{} || end != key.data() + key.size() || seat >= seats) return std::nullopt;
  return seat;
}

/// The names of one side's rows as its JSON gives them, one per row (nullopt where the row or its
/// name was not read): side A's name the report's tables, and side B's must be the same.
struct SideNames {
  std::vector<std::optional<std::string>> cards, enemies, seat_names, seat_kinds, seat_policies;
  std::vector<std::string> counters;
};

std::vector<std::string> names_or_empty(const std::vector<std::optional<std::string>>& names) {
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const auto& name : names) out.push_back(name.value_or(""));
  return out;
}

/// Reads a report strictly: every problem is a diagnostic at the JSON pointer of the value (with
/// its line and column when the document has its text), every key the format does not have is
/// refused, and the counts must agree with each other (`check_tally`). Every problem of the
/// document is reported: a check that compares values runs when they were read (`problems`
/// before and after reading them), whatever else is wrong.
class Reader {
 public:
  Reader(const content::JsonDocument& doc, content::Diagnostics& diags) : doc_(doc), diags_(diags) {}

  void error(const std::string& at, std::string message) {
    diags_.add(doc_.diagnostic(at, std::move(message)));
  }
  /// The problems reported so far, unknown keys left out (no check depends on those).
  std::size_t problems() const { return diags_.size() - unknown_keys_; }

  /// Whether `j` (at `at`) is an object; each of its keys not in `allowed` or `more` is reported.
  bool object(const nlohmann::json& j, const std::string& at, std::span<const std::string_view> allowed,
              std::span<const std::string_view> more = {}) {
    if (!j.is_object()) {
      error(at, "expected an object, got " + shown(j));
      return false;
    }
    for (const auto& item : j.items()) {
      const auto known = [&](std::span<const std::string_view> keys) {
        return std::find(keys.begin(), keys.end(), item.key()) != keys.end();
      };
      if (known(allowed) || known(more)) continue;
      std::string list;
      for (auto keys : {allowed, more})
        for (std::string_view k : keys) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
      error(content::child_pointer(at, item.key()),
            fmt::format("unknown key '{}'; allowed keys: {}", item.key(), list));
      ++unknown_keys_;
    }
    return true;
  }
  /// The value of `key` in the object `j`, or null after reporting it missing.
  const nlohmann::json* field(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const auto it = j.find(std::string(key));
    if (it == j.end()) {
      error(at, fmt::format("missing key '{}'", key));
      return nullptr;
    }
    return &*it;
  }
  std::uint64_t u64(const nlohmann::json& v, const std::string& at) {
    if (const auto n = count_of(v)) return *n;
    error(at, "expected a non-negative integer, got " + shown(v));
    return 0;
  }
  std::uint64_t u64(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    return v ? u64(*v, content::child_pointer(at, key)) : 0;
  }
  /// A count that may pass 2^64: a non-negative integer, or its decimal digits in a string
  /// (uint128_json).
  Uint128 u128(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return 0;
    if (!v->is_string()) return u64(*v, content::child_pointer(at, key));
    if (const auto parsed = parse_uint128(v->get<std::string>())) return *parsed;
    error(content::child_pointer(at, key),
          "expected a non-negative integer (in a string of decimal digits past 2^64), got " + shown(*v));
    return 0;
  }
  std::int64_t i64(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return 0;
    if (v->is_number_integer() && (!v->is_number_unsigned() || v->get<std::uint64_t>() <= INT64_MAX))
      return v->get<std::int64_t>();
    error(content::child_pointer(at, key), "expected a 64-bit integer, got " + shown(*v));
    return 0;
  }
  /// The string `key` of `j`, or nullopt after reporting it missing or not a string.
  std::optional<std::string> text(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return std::nullopt;
    if (v->is_string()) return v->get<std::string>();
    error(content::child_pointer(at, key), "expected a string, got " + shown(*v));
    return std::nullopt;
  }
  std::string str(const nlohmann::json& j, const std::string& at, std::string_view key) {
    return text(j, at, key).value_or("");
  }
  const nlohmann::json* array(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr || v->is_array()) return v;
    error(content::child_pointer(at, key), "expected an array, got " + shown(*v));
    return nullptr;
  }

  /// A derived value at `at` (a rate, a mean): a number, or null where `nullable` (an interval
  /// that cannot be estimated is NaN, written null). With `want` (its counts were read and
  /// agree), it must be the value they give, up to rounding: shards of one run may come from
  /// builds that round differently.
  void number(const nlohmann::json& v, const std::string& at, std::optional<double> want,
              bool nullable = false) {
    if (!v.is_number() && !(nullable && v.is_null())) {
      error(at, fmt::format("expected a number{}, got {}", nullable ? " or null" : "", shown(v)));
      return;
    }
    if (!want) return;
    // NaN is written null (a document not parsed from text may still hold it as a number).
    const bool nan = v.is_null() || (v.is_number_float() && std::isnan(v.get<double>()));
    const bool same = std::isnan(*want) ? nan
                                        : !nan && std::abs(v.get<double>() - *want) <=
                                                      1e-9 * std::max(1.0, std::abs(*want));
    if (!same)
      error(at, fmt::format("is {}, but the counts give {}", shown(v),
                            std::isnan(*want) ? "null" : fmt::format("{}", *want)));
  }
  void number(const nlohmann::json& j, const std::string& at, std::string_view key,
              std::optional<double> want, bool nullable = false) {
    if (const nlohmann::json* v = field(j, at, key))
      number(*v, content::child_pointer(at, key), want, nullable);
  }
  /// A derived interval: an array of its two ends (number each).
  void interval(const nlohmann::json& j, const std::string& at, std::string_view key,
                std::optional<Interval> want, bool nullable = false) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return;
    const std::string here = content::child_pointer(at, key);
    if (!v->is_array() || v->size() != 2) {
      error(here, "expected an array of two numbers (an interval), got " + shown(*v));
      return;
    }
    number((*v)[0], content::child_pointer(here, 0), want ? std::optional(want->low) : std::nullopt,
           nullable);
    number((*v)[1], content::child_pointer(here, 1), want ? std::optional(want->high) : std::nullopt,
           nullable);
  }
  /// A derived count (a percentile, the largest value): with `want`, it must be that.
  void derived_count(const nlohmann::json& j, const std::string& at, std::string_view key,
                     std::optional<std::uint64_t> want) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return;
    const std::string here = content::child_pointer(at, key);
    const std::size_t before = problems();
    const std::uint64_t got = u64(*v, here);
    if (want && problems() == before && got != *want)
      error(here, fmt::format("is {}, but the counts give {}", got, *want));
  }

  /// A distribution (`turns`, `hp_left`): its histogram, and its total in `total`.
  std::vector<std::uint64_t> distribution(const nlohmann::json& j, const std::string& at,
                                          std::string_view key, std::uint64_t& total) {
    std::vector<std::uint64_t> out;
    const nlohmann::json* d = field(j, at, key);
    const std::string here = content::child_pointer(at, key);
    if (d == nullptr || !object(*d, here, kDistributionKeys)) return out;
    total = u64(*d, here, "total");
    if (const nlohmann::json* h = array(*d, here, "histogram")) {
      const std::string histogram = content::child_pointer(here, "histogram");
      for (std::size_t i = 0; i < h->size(); ++i)
        out.push_back(u64((*h)[i], content::child_pointer(histogram, i)));
      // A run's histogram ends at the largest value it counted (distribution_json's `max`): a
      // trailing 0 would move the merged `max`.
      if (!out.empty() && out.back() == 0 && count_of(h->back()))
        error(histogram, fmt::format("ends with a count of 0 (at {}): a report's histogram ends at the "
                                     "largest value it counts",
                                     out.size() - 1));
    }
    return out;
  }

  /// Reads table `name` (cards or enemies) at `at`: each row's three `counts` into `rows` and its
  /// id into `ids`, one of each per entry.
  template <class Row>
  void table(const nlohmann::json& j, const std::string& at, std::string_view name,
             std::span<const std::string_view> allowed, const std::array<std::string_view, 3>& counts,
             std::vector<std::optional<std::string>>& ids, std::vector<Row>& rows) {
    const nlohmann::json* entries = array(j, at, name);
    if (entries == nullptr) return;
    for (std::size_t i = 0; i < entries->size(); ++i) {
      const nlohmann::json& row = (*entries)[i];
      const std::string here = content::child_pointer(content::child_pointer(at, name), i);
      ids.emplace_back();
      rows.emplace_back();
      if (!object(row, here, allowed)) continue;
      ids.back() = text(row, here, "id");
      rows.back() = {u64(row, here, counts[0]), u64(row, here, counts[1]), u64(row, here, counts[2])};
    }
  }

  /// Reads one policy's results at `at` ("" or "/versus"), and the names of its rows into `names`.
  /// `hp_total` gets the `hp_left` distribution's total.
  void tally(const nlohmann::json& j, const std::string& at, Tally& t, SideNames& names,
             std::uint64_t& hp_total) {
    using content::child_pointer;
    t.battles = u64(j, at, "battles");
    const bool by_seat = j.contains("seats");
    if (!by_seat) t.wins = u64(j, at, "wins");  // with seats: seat 0's, read below
    t.decisions = u64(j, at, "decisions");
    t.turns_histogram = distribution(j, at, "turns", t.turns);
    t.hp_left_histogram = distribution(j, at, "hp_left", hp_total);
    t.hp_left_on_wins = checked_weighted_sum(t.hp_left_histogram).value_or(0);  // else refused by check_tally
    table(j, at, "cards", kCardKeys, {"plays", "battles_played", "wins_when_played"}, names.cards, t.cards);
    table(j, at, "enemies", kEnemyKeys, {"battles", "damage_dealt", "armor_removed"}, names.enemies,
          t.enemies);
    if (by_seat) seats(j, at, t, names);
    if (j.contains("counters")) {
      const nlohmann::json& counters = j.at("counters");
      const std::string here = child_pointer(at, "counters");
      if (!counters.is_object()) {
        error(here, "expected an object, got " + shown(counters));
      } else {
        for (const auto& item : counters.items()) {
          names.counters.push_back(item.key());
          t.counters.push_back(u64(item.value(), child_pointer(here, item.key())));
        }
      }
    }
    if (const nlohmann::json* errors = array(j, at, "errors"))
      for (std::size_t i = 0; i < errors->size(); ++i) {
        const nlohmann::json& e = (*errors)[i];
        const std::string here = child_pointer(child_pointer(at, "errors"), i);
        if (!object(e, here, kErrorKeys)) continue;
        SimFailure f{u64(e, here, "index"), u64(e, here, "battle_seed"), str(e, here, "message"),
                     str(e, here, "policy"), nlohmann::json::array()};
        if (const nlohmann::json* actions = array(e, here, "actions")) f.actions = *actions;
        if (const nlohmann::json* choosing = field(e, here, "while_choosing")) {
          if (choosing->is_boolean())
            f.while_choosing = choosing->get<bool>();
          else
            error(child_pointer(here, "while_choosing"), "expected true or false, got " + shown(*choosing));
        }
        t.failures.push_back(std::move(f));
      }
  }

  /// The seats of a several-seat rule set, and the top-level `wins` object that repeats their wins.
  void seats(const nlohmann::json& j, const std::string& at, Tally& t, SideNames& names) {
    using content::child_pointer;
    const nlohmann::json* seats = array(j, at, "seats");
    if (seats == nullptr) return;
    const std::size_t before = problems();
    for (std::size_t i = 0; i < seats->size(); ++i) {
      const nlohmann::json& s = (*seats)[i];
      const std::string here = child_pointer(child_pointer(at, "seats"), i);
      names.seat_names.emplace_back();
      names.seat_kinds.emplace_back();
      names.seat_policies.emplace_back();
      t.seats.emplace_back();
      if (!object(s, here, kSeatKeys)) continue;
      names.seat_names.back() = text(s, here, "name");
      names.seat_kinds.back() = text(s, here, "kind");
      names.seat_policies.back() = text(s, here, "policy");
      t.seats.back() = {u64(s, here, "wins"), u64(s, here, "place_sum")};
    }
    const bool seats_read = problems() == before;
    t.wins = t.seats.empty() ? 0 : t.seats[0].wins;
    per_seat(j, at, "wins", t.seats.size(),
             [&](const nlohmann::json& v, const std::string& seat_at, std::size_t seat) {
               const std::size_t before_n = problems();
               const std::uint64_t n = u64(v, seat_at);
               if (seats_read && problems() == before_n && n != t.seats[seat].wins)
                 error(seat_at,
                       fmt::format("is {}, but {}/seats/{}/wins is {}", n, at, seat, t.seats[seat].wins));
             });
  }

  /// An object `key` of `j` keyed by seat index (the top-level `wins` and `mean_place`), one entry
  /// per seat: `each` is called with each entry whose key is a seat's; anything else is reported.
  template <class Each>
  void per_seat(const nlohmann::json& j, const std::string& at, std::string_view key, std::size_t seats,
                Each&& each) {
    const nlohmann::json* object = field(j, at, key);
    const std::string here = content::child_pointer(at, key);
    if (object == nullptr) return;
    if (!object->is_object()) {
      error(here, "expected an object keyed by seat index (the report has seats), got " + shown(*object));
      return;
    }
    for (const auto& item : object->items()) {
      const std::string seat_at = content::child_pointer(here, item.key());
      if (const auto seat = seat_key(item.key(), seats))
        each(item.value(), seat_at, *seat);
      else
        error(seat_at, seats == 0 ? fmt::format("unknown key '{}'; the report lists no seat", item.key())
                                  : fmt::format("unknown key '{}'; the keys are the seat indices 0 to {}",
                                                item.key(), seats - 1));
    }
    if (object->size() != seats)
      error(here, fmt::format("expected one entry per seat ({}), got {}", seats, object->size()));
  }

  /// The counts of one policy's results must agree with each other: every battle is counted once
  /// in each histogram unless it failed, wins are among the battles played, and so on. The
  /// errors must be within the report's battles, from `first_battle` (when the shard was read).
  void check_tally(const Tally& t, const std::string& at, std::uint64_t hp_total,
                   std::optional<std::uint64_t> first_battle) {
    using content::child_pointer;
    if (t.failures.size() > t.battles) {
      error(child_pointer(at, "errors"),
            fmt::format("lists {} failed battles, more than the {} battles of the report", t.failures.size(),
                        t.battles));
      return;
    }
    const std::uint64_t played = t.played();
    const std::string played_text =
        t.failures.empty()
            ? fmt::format("the {} battles", t.battles)
            : fmt::format("the {} battles played ({} less {} errors)", played, t.battles, t.failures.size());
    if (t.seats.empty() && t.wins > played)
      error(child_pointer(at, "wins"), fmt::format("{} wins is more than {}", t.wins, played_text));
    for (const char* key : {"turns", "hp_left"}) {
      const auto& histogram = std::string_view(key) == "turns" ? t.turns_histogram : t.hp_left_histogram;
      const std::uint64_t total = std::string_view(key) == "turns" ? t.turns : hp_total;
      const std::string here = child_pointer(at, key);
      std::uint64_t counted = 0;
      for (std::uint64_t c : histogram) counted = saturating_add(counted, c);
      if (counted != played)
        error(child_pointer(here, "histogram"),
              fmt::format("counts {} battles, expected {}", sum_text(counted), played_text));
      if (const auto sum = checked_weighted_sum(histogram); !sum)
        error(child_pointer(here, "histogram"), "its values times their counts add up to 2^64 or more");
      else if (total != *sum)
        error(child_pointer(here, "total"),
              fmt::format("is {}, but the histogram adds up to {}", total, *sum));
    }
    for (std::size_t c = 0; c < t.cards.size(); ++c) {
      const CardTally& card = t.cards[c];
      const std::string here = child_pointer(child_pointer(at, "cards"), c);
      if (card.battles_played > played)
        error(child_pointer(here, "battles_played"),
              fmt::format("{} is more than {}", card.battles_played, played_text));
      else if (card.battles_played > card.plays)
        error(child_pointer(here, "battles_played"),
              fmt::format("{} is more than the card's {} plays", card.battles_played, card.plays));
      else if (card.battles_played == 0 && card.plays > 0)
        error(child_pointer(here, "battles_played"),
              fmt::format("is 0, but the card has {} plays: each play is in a battle", card.plays));
      if (card.wins_when_played > card.battles_played || card.wins_when_played > t.wins)
        error(child_pointer(here, "wins_when_played"),
              fmt::format("{} is more than the battles the card was played in ({}) or the wins ({})",
                          card.wins_when_played, card.battles_played, t.wins));
    }
    // An enemy's damage is counted in the battles it fights in (a failed battle counts nowhere).
    for (std::size_t e = 0; e < t.enemies.size(); ++e) {
      const EnemyTally& enemy = t.enemies[e];
      const std::string here = child_pointer(child_pointer(at, "enemies"), e);
      if (enemy.battles != 0) continue;
      for (const auto& [key, count] :
           {std::pair{"damage_dealt", enemy.damage_dealt}, std::pair{"armor_removed", enemy.armor_removed}})
        if (count != 0)
          error(child_pointer(here, key),
                fmt::format("is {}, but the enemy fought in no battle (battles is 0)", count));
    }
    std::uint64_t seat_wins = 0;
    for (std::size_t s = 0; s < t.seats.size(); ++s) {
      seat_wins = saturating_add(seat_wins, t.seats[s].wins);
      if (t.seats[s].wins > played)
        error(child_pointer(child_pointer(child_pointer(at, "seats"), s), "wins"),
              fmt::format("{} wins is more than {}", t.seats[s].wins, played_text));
    }
    if (seat_wins > played)
      error(child_pointer(at, "seats"),
            fmt::format("the seats won {} battles in all, more than {} (a battle has at most one winner)",
                        sum_text(seat_wins), played_text));
    // Failures are listed once each, by battle index, within the report's battles.
    for (std::size_t i = 0; i < t.failures.size(); ++i) {
      const std::uint64_t index = t.failures[i].index;
      const std::string here = child_pointer(child_pointer(child_pointer(at, "errors"), i), "index");
      if (first_battle && (index < *first_battle || index - *first_battle >= t.battles))
        error(here, fmt::format("battle {} is not one of the report's battles {}..{}", index, *first_battle,
                                *first_battle + t.battles));
      else if (i > 0 && index <= t.failures[i - 1].index)
        error(here,
              fmt::format("battle {} comes after battle {}: expected each battle once, in increasing order",
                          index, t.failures[i - 1].index));
    }
  }

  /// The errors of one side at `at`, entry by entry: a battle's seed is the one the run gives its
  /// index (battle_seed), and its policy is the one that played the side (`policy`, read at
  /// `policy_at`); each is compared when read.
  void check_errors(const nlohmann::json& j, const std::string& at, const std::optional<std::uint64_t>& seed,
                    const std::optional<std::string>& policy, std::string_view policy_at) {
    using content::child_pointer;
    const auto errors = j.find("errors");
    if (errors == j.end() || !errors->is_array()) return;
    for (std::size_t i = 0; i < errors->size(); ++i) {
      const nlohmann::json& e = (*errors)[i];
      if (!e.is_object()) continue;  // reported when read
      const std::string here = child_pointer(child_pointer(at, "errors"), i);
      const auto index = count_of(e, "index"), given = count_of(e, "battle_seed");
      if (seed && index && given && *given != battle_seed(*seed, *index))
        error(child_pointer(here, "battle_seed"),
              fmt::format("is {}, but battle {} of a run of seed {} has the seed {}", *given, *index, *seed,
                          battle_seed(*seed, *index)));
      const auto played_by = e.find("policy");
      if (policy && played_by != e.end() && played_by->is_string() &&
          played_by->get<std::string>() != *policy)
        error(child_pointer(here, "policy"),
              fmt::format("is '{}', expected '{}' ({}): the policy that played the side's battles",
                          played_by->get<std::string>(), *policy, policy_at));
    }
  }

  /// The derived values of one policy's results at `at` (rates, means, percentiles, intervals):
  /// numbers of the right kind, and, when `agree` (its counts were read and agree), the values
  /// the counts give.
  void derived(const nlohmann::json& j, const std::string& at, const Tally& t, bool agree) {
    using content::child_pointer;
    const std::uint64_t played = t.played();
    const auto want = [&](double v) { return agree ? std::optional<double>(v) : std::nullopt; };
    const auto want_count = [&](std::uint64_t v) {
      return agree ? std::optional<std::uint64_t>(v) : std::nullopt;
    };
    number(j, at, "win_rate", want(t.win_rate()));
    interval(j, at, "win_rate_ci95",
             agree ? std::optional<Interval>(wilson_interval(t.wins, played)) : std::nullopt);
    number(j, at, "mean_turns", want(t.mean_turns()));
    number(j, at, "mean_decisions", want(t.mean_decisions()));
    number(j, at, "mean_hp_left_on_wins", want(ratio(t.hp_left_on_wins, t.wins)));
    for (const auto& [key, histogram, total] :
         {std::tuple{"turns", &t.turns_histogram, t.turns},
          std::tuple{"hp_left", &t.hp_left_histogram, t.hp_left_on_wins}}) {
      const auto d = j.find(key);
      if (d == j.end() || !d->is_object()) continue;  // reported when read
      const std::string here = child_pointer(at, key);
      number(*d, here, "mean", want(ratio(total, played)));
      for (double p : kPercentiles)
        derived_count(*d, here, fmt::format("p{}", static_cast<int>(p)),
                      want_count(percentile(*histogram, p)));
      derived_count(*d, here, "max", want_count(largest(*histogram)));
    }
    // The rows: one per entry of each table (Reader::table, Reader::seats).
    const auto rows = [&](std::string_view name, std::size_t count, auto check) {
      const auto entries = j.find(std::string(name));
      if (entries == j.end() || !entries->is_array()) return;
      for (std::size_t i = 0; i < entries->size() && i < count; ++i)
        if ((*entries)[i].is_object()) check((*entries)[i], child_pointer(child_pointer(at, name), i), i);
    };
    rows("cards", t.cards.size(), [&](const nlohmann::json& row, const std::string& here, std::size_t i) {
      number(row, here, "plays_per_battle", want(ratio(t.cards[i].plays, played)));
      number(row, here, "win_rate_when_played",
             want(ratio(t.cards[i].wins_when_played, t.cards[i].battles_played)));
    });
    rows("enemies", t.enemies.size(), [&](const nlohmann::json& row, const std::string& here, std::size_t i) {
      number(row, here, "damage_per_battle", want(ratio(t.enemies[i].damage_dealt, t.enemies[i].battles)));
    });
    rows("seats", t.seats.size(), [&](const nlohmann::json& row, const std::string& here, std::size_t i) {
      derived_count(row, here, "seat", i);
      number(row, here, "win_rate", want(ratio(t.seats[i].wins, played)));
      number(row, here, "mean_place", want(ratio(t.seats[i].place_sum, played)));
    });
    // With seats, `mean_place` repeats the seats' mean places, keyed by seat index.
    const std::string here = child_pointer(at, "mean_place");
    if (!j.contains("seats")) {
      if (j.contains("mean_place")) error(here, "unknown key 'mean_place': only a report with seats has it");
      return;
    }
    per_seat(j, at, "mean_place", t.seats.size(),
             [&](const nlohmann::json& v, const std::string& seat_at, std::size_t seat) {
               number(v, seat_at, want(ratio(t.seats[seat].place_sum, played)));
             });
  }

 private:
  const content::JsonDocument& doc_;
  content::Diagnostics& diags_;
  std::size_t unknown_keys_ = 0;
};

/// The shard a report covers, checked: a count from 1 to kMaxShardCount, an index from 1 to it,
/// and the range of battles that shard of the run has (the report's `battles` too, when
/// `battles_read`). Whether the shard was read and starts where it should: its first battle
/// is then known.
bool read_shard(Reader& in, const nlohmann::json& j, SimReport& r, bool battles_read) {
  const nlohmann::json* s = in.field(j, "", "shard");
  if (s == nullptr || !in.object(*s, "/shard", kShardKeys)) return false;
  const std::size_t before = in.problems();
  const std::uint64_t index = in.u64(*s, "/shard", "index"), count = in.u64(*s, "/shard", "count");
  r.first_battle = in.u64(*s, "/shard", "first_battle");
  r.total_battles = in.u64(*s, "/shard", "total_battles");
  if (in.problems() != before) return false;
  if (count < 1 || count > kMaxShardCount) {
    in.error("/shard/count",
             fmt::format("expected a shard count from 1 to {}, got {}", kMaxShardCount, count));
    return false;
  }
  if (index < 1 || index > count) {
    in.error("/shard/index",
             fmt::format("expected a shard index from 1 to the count {}, got {}", count, index));
    return false;
  }
  if (r.total_battles > kMaxBattles) {
    in.error("/shard/total_battles",
             fmt::format("expected at most {} battles (the most one run plays), got {}", kMaxBattles,
                         r.total_battles));
    return false;
  }
  r.shard_index = static_cast<std::uint32_t>(index);
  r.shard_count = static_cast<std::uint32_t>(count);
  const ShardRange range = shard_range(r.total_battles, r.shard_index, r.shard_count);
  if (r.first_battle != range.first) {
    in.error("/shard/first_battle", fmt::format("shard {}/{} of {} battles starts at battle {}, not {}",
                                                index, count, r.total_battles, range.first, r.first_battle));
    return false;
  }
  if (battles_read && r.battles != range.count)
    in.error("/battles", fmt::format("shard {}/{} of {} battles has {} battles, not {}", index, count,
                                     r.total_battles, range.count, r.battles));
  return true;
}

/// Side B's rows are side A's (the runner puts side B's cards and enemies in side A's rows, and
/// refuses other seats or counters): its tables must name the same cards, enemies, seats (and
/// their kinds) and counters, row by row, and its seats must have the policies side B gave them.
void check_side_b_tables(Reader& in, const nlohmann::json& j, const nlohmann::json& v, const SideNames& a,
                         const SideNames& b, const std::optional<std::string>& versus_policy) {
  using content::child_pointer;
  for (const char* key : {"cards", "enemies", "seats"}) {
    const auto ours = j.find(key), theirs = v.find(key);
    if (ours != j.end() && theirs != v.end() && ours->is_array() && theirs->is_array() &&
        ours->size() != theirs->size())
      in.error(child_pointer("/versus", key),
               fmt::format("has {} entries, expected {} as at the top level", theirs->size(), ours->size()));
  }
  const auto same = [&](std::string_view table, std::string_view field,
                        const std::vector<std::optional<std::string>>& want,
                        const std::vector<std::optional<std::string>>& got) {
    for (std::size_t i = 0; i < want.size() && i < got.size(); ++i)
      if (want[i] && got[i] && *want[i] != *got[i])
        in.error(fmt::format("/versus/{}/{}/{}", table, i, field),
                 fmt::format("is '{}', expected '{}' as at /{}/{}/{}: side B's rows are side A's", *got[i],
                             *want[i], table, i, field));
  };
  same("cards", "id", a.cards, b.cards);
  same("enemies", "id", a.enemies, b.enemies);
  same("seats", "name", a.seat_names, b.seat_names);
  same("seats", "kind", a.seat_kinds, b.seat_kinds);
  // Side B's seat 0 plays the versus policy, and its other seats what side A's play (the
  // versus policy for a seat of none), as tally_json writes them.
  for (std::size_t i = 0; i < b.seat_policies.size() && i < a.seat_policies.size(); ++i) {
    const bool own = i > 0 && a.seat_policies[i] && !a.seat_policies[i]->empty();
    const std::optional<std::string>& want = own ? a.seat_policies[i] : versus_policy;
    if (want && b.seat_policies[i] && *want != *b.seat_policies[i])
      in.error(
          fmt::format("/versus/seats/{}/policy", i),
          own ? fmt::format("is '{}', expected '{}' as at /seats/{}/policy", *b.seat_policies[i], *want, i)
              : fmt::format("is '{}', expected '{}', the versus policy (/versus/policy)", *b.seat_policies[i],
                            *want));
  }
  // The counters: the same keys.
  const auto ours = j.find("counters"), theirs = v.find("counters");
  const bool our_counters = ours != j.end() && ours->is_object();
  const bool their_counters = theirs != v.end() && theirs->is_object();
  if (our_counters && theirs == v.end()) {
    in.error("/versus", "missing key 'counters' (the top level has counters)");
  } else if (their_counters && ours == j.end()) {
    in.error("/versus/counters", "unknown key 'counters': the top level has no counters");
  } else if (our_counters && their_counters) {
    std::string list;
    for (const std::string& name : a.counters) list += fmt::format("{}{}", list.empty() ? "" : ", ", name);
    for (const std::string& name : b.counters)
      if (std::find(a.counters.begin(), a.counters.end(), name) == a.counters.end())
        in.error(
            child_pointer("/versus/counters", name),
            fmt::format("unknown counter '{}'; the counters are those at the top level: {}", name, list));
    for (const std::string& name : a.counters)
      if (std::find(b.counters.begin(), b.counters.end(), name) == b.counters.end())
        in.error("/versus/counters", fmt::format("missing counter '{}' (as at the top level)", name));
  }
}

/// Whether the sum of the squared HP differences is one the n seeds of the paired table (a count
/// that fits the battles) can have, each problem reported: n differences that add up to s have
/// squares that add up to s^2 / n at least (Cauchy-Schwarz), and to n times the square of the
/// largest difference at most; a difference is at most the largest HP left either side's
/// histogram counts. With no seed both sums are 0. The sum s is compared only when `sum_fits` (it
/// fits both sides' HP left): a wrong sum is reported already. The bounds are exact in 128 bits:
/// s^2 is below 2^126, and a product that passes 2^128 is no bound on a sum of squares held in
/// 128 bits.
bool squares_fit(Reader& in, const SimReport& r, const std::string& at, std::uint64_t n, bool sum_fits) {
  const Paired& p = r.paired;
  const Uint128 squares = p.hp_diff_sq_sum;
  const std::string squares_at = at + "/hp_left_diff_sq_sum";
  if (n == 0) {
    if (p.hp_diff_sum != 0 && sum_fits)
      in.error(at + "/hp_left_diff_sum",
               fmt::format("is {}, expected 0: the table counts no seed", p.hp_diff_sum));
    if (squares != 0)
      in.error(squares_at, fmt::format("is {}, expected 0: the table counts no seed", uint128_text(squares)));
    return p.hp_diff_sum == 0 && squares == 0;
  }
  bool fits = true;
  const Int128 sum = p.hp_diff_sum;
  const auto magnitude = static_cast<Uint128>(sum < 0 ? -sum : sum);
  const Uint128 sum_squared = magnitude * magnitude;
  if (Uint128 times_n = 0;
      sum_fits && !__builtin_mul_overflow(squares, Uint128{n}, &times_n) && times_n < sum_squared) {
    const Uint128 least = sum_squared / n + (sum_squared % n != 0 ? 1 : 0);
    in.error(squares_at, fmt::format("is {}, less than {} seeds whose HP differences add up to {} allow: at "
                                     "least {}, their sum squared over their count",
                                     uint128_text(squares), n, p.hp_diff_sum, uint128_text(least)));
    fits = false;
  }
  const std::uint64_t most_hp = std::max(largest(r.hp_left_histogram), largest(r.versus.hp_left_histogram));
  if (Uint128 most = 0;
      !__builtin_mul_overflow(Uint128{most_hp} * most_hp, Uint128{n}, &most) && squares > most) {
    in.error(squares_at, fmt::format("is {}, more than {} seeds allow whose HP left is at most {} on either "
                                     "side: at most {}, their count times {} squared",
                                     uint128_text(squares), n, most_hp, uint128_text(most), most_hp));
    fits = false;
  }
  return fits;
}

/// Whether the paired table fits both policies' results, each problem reported. The runner adds
/// a seed to the table when neither policy failed on it: the table counts the battles less
/// those either failed; A's wins in it are A's wins less those on the seeds only B failed (as
/// many as A won of them, so at most that many), likewise for B; and the HP differences add up
/// to A's HP left less B's, less the HP A kept on the seeds only B failed and plus that B kept
/// on those only A failed (HP left is 0 in a lost battle). With no failure, all three are exact.
/// The sum of the squared differences must fit the differences (squares_fit), when the table
/// counts the seeds it should.
bool paired_fits(Reader& in, const SimReport& r, const std::string& at) {
  const Paired& p = r.paired;
  // Each side's errors are in increasing order, once each (check_tally): count those both have.
  std::uint64_t both_failed = 0;
  for (std::size_t i = 0, k = 0; i < r.failures.size() && k < r.versus.failures.size();) {
    const std::uint64_t a = r.failures[i].index, b = r.versus.failures[k].index;
    both_failed += a == b ? 1 : 0;
    i += a <= b ? 1 : 0;
    k += b <= a ? 1 : 0;
  }
  const std::uint64_t only_a_failed = r.failures.size() - both_failed;
  const std::uint64_t only_b_failed = r.versus.failures.size() - both_failed;
  const std::uint64_t failed = only_a_failed + only_b_failed + both_failed;
  if (failed > r.battles) return false;  // errors outside the battles: refused by check_tally
  bool fits = true;
  const std::uint64_t seeds = r.battles - failed;
  const std::uint64_t n =
      saturating_add(saturating_add(p.both_won, p.only_a_won), saturating_add(p.only_b_won, p.both_lost));
  if (n != seeds) {
    in.error(at, failed == 0 ? fmt::format("counts {} seeds, expected the {} battles", sum_text(n), seeds)
                             : fmt::format("counts {} seeds, expected {}: the {} battles less the {} that "
                                           "failed on one side or both",
                                           sum_text(n), seeds, r.battles, failed));
    fits = false;
  }
  const auto wins_fit = [&](std::uint64_t paired_wins, std::uint64_t wins, std::uint64_t other_failed,
                            std::string_view key, char side, char other) {
    const std::uint64_t least = wins > other_failed ? wins - other_failed : 0;
    if (paired_wins >= least && paired_wins <= wins) return true;
    in.error(at + "/" + std::string(key),
             least == wins
                 ? fmt::format("both_won + {} is {}, expected policy {}'s {} wins", key,
                               sum_text(paired_wins), side, wins)
                 : fmt::format("both_won + {} is {}, expected {} to {}: policy {}'s {} wins, less those on "
                               "the {} seeds only policy {} failed",
                               key, sum_text(paired_wins), least, wins, side, wins, other_failed, other));
    return false;
  };
  const std::uint64_t a_wins = saturating_add(p.both_won, p.only_a_won);
  const std::uint64_t b_wins = saturating_add(p.both_won, p.only_b_won);
  const bool a_fits = wins_fit(a_wins, r.wins, only_b_failed, "only_a_won", 'A', 'B');
  const bool b_fits = wins_fit(b_wins, r.versus.wins, only_a_failed, "only_b_won", 'B', 'A');
  fits = fits && a_fits && b_fits;
  // A's wins on the seeds only B failed (at most those seeds, when the table's are wrong), and
  // B's on those only A failed; each kept at most the largest HP its side's histogram counts.
  // The bounds stay inside 128 bits: a count below 2^64 times a histogram's length (below 2^61,
  // a vector of 8-byte counts) is below 2^125.
  const std::uint64_t a_unpaired = a_fits ? r.wins - a_wins : std::min(only_b_failed, r.wins);
  const std::uint64_t b_unpaired = b_fits ? r.versus.wins - b_wins : std::min(only_a_failed, r.versus.wins);
  const Int128 base = Int128{r.hp_left_on_wins} - Int128{r.versus.hp_left_on_wins};
  const Int128 low = base - Int128{a_unpaired} * Int128{largest(r.hp_left_histogram)};
  const Int128 high = base + Int128{b_unpaired} * Int128{largest(r.versus.hp_left_histogram)};
  const bool sum_fits = p.hp_diff_sum >= low && p.hp_diff_sum <= high;
  if (!sum_fits) {
    const std::string sides = fmt::format("policy A's hp_left total ({}) less policy B's ({})",
                                          r.hp_left_on_wins, r.versus.hp_left_on_wins);
    in.error(at + "/hp_left_diff_sum",
             low == high
                 ? fmt::format("is {}, expected {}: {}", p.hp_diff_sum, int128_text(base), sides)
                 : fmt::format("is {}, expected {} to {}: {}, less up to {} HP for each of A's {} "
                               "wins on seeds only B failed, plus up to {} for each of B's {} wins on "
                               "seeds only A failed",
                               p.hp_diff_sum, int128_text(low), int128_text(high), sides,
                               largest(r.hp_left_histogram), a_unpaired, largest(r.versus.hp_left_histogram),
                               b_unpaired));
    fits = false;
  }
  if (n == seeds && !squares_fit(in, r, at, n, sum_fits)) fits = false;
  return fits;
}

/// The paired counts of an A/B report; with `agree` (both policies' counts were read and agree,
/// over the same battles), checked against both policies' results (paired_fits), and the
/// derived values against the counts.
void read_paired(Reader& in, const nlohmann::json& v, SimReport& r, bool agree) {
  const nlohmann::json* p = in.field(v, "/versus", "paired");
  const std::string at = "/versus/paired";
  if (p == nullptr || !in.object(*p, at, kPairedKeys)) return;
  const std::size_t before = in.problems();
  r.paired = {in.u64(*p, at, "both_won"),         in.u64(*p, at, "only_a_won"),
              in.u64(*p, at, "only_b_won"),       in.u64(*p, at, "both_lost"),
              in.i64(*p, at, "hp_left_diff_sum"), in.u128(*p, at, "hp_left_diff_sq_sum")};
  const bool fits = agree && in.problems() == before && paired_fits(in, r, at);
  const PairedTest t = paired_test(r.paired);
  const auto want = [&](double x) { return fits ? std::optional<double>(x) : std::nullopt; };
  const auto want_interval = [&](double low, double high) {
    return fits ? std::optional<Interval>(Interval{low, high}) : std::nullopt;
  };
  in.number(*p, at, "difference", want(t.difference));
  in.interval(*p, at, "difference_ci95", want_interval(t.ci_low, t.ci_high), true);
  in.number(*p, at, "mcnemar_chi2", want(t.mcnemar_chi2));
  in.number(*p, at, "p_value", want(t.p_value));
  in.number(*p, at, "hp_left_difference", want(t.hp_difference));
  in.interval(*p, at, "hp_left_difference_ci95", want_interval(t.hp_ci_low, t.hp_ci_high), true);
}

}  // namespace

nlohmann::json SimReport::to_json() const {
  nlohmann::json j = {{"rules", rules},
                      {"encounter", encounter},
                      {"battles", battles},
                      {"seed", seed},
                      {"policy", policy},
                      {"content_hash", hex64(content_hash)},
                      {"engine_version", engine_version},
                      {"rng_version", rng_version}};
  tally_json(j, *this, *this, policy);
  if (!settings.empty()) j["settings"] = settings;
  j["enemy_damage_counted"] = enemy_damage_counted;
  if (shard_count > 1)
    j["shard"] = {{"index", shard_index},
                  {"count", shard_count},
                  {"first_battle", first_battle},
                  {"total_battles", total_battles}};
  if (!versus_policy.empty()) {
    nlohmann::json v = {{"policy", versus_policy}, {"battles", versus.battles}};
    tally_json(v, versus, *this, versus_policy);
    const PairedTest t = paired_test(paired);
    v["paired"] = {{"both_won", paired.both_won},
                   {"only_a_won", paired.only_a_won},
                   {"only_b_won", paired.only_b_won},
                   {"both_lost", paired.both_lost},
                   {"difference", t.difference},
                   {"difference_ci95", {t.ci_low, t.ci_high}},
                   {"mcnemar_chi2", t.mcnemar_chi2},
                   {"p_value", t.p_value},
                   {"hp_left_diff_sum", paired.hp_diff_sum},
                   {"hp_left_diff_sq_sum", uint128_json(paired.hp_diff_sq_sum)},
                   {"hp_left_difference", t.hp_difference},
                   {"hp_left_difference_ci95", {t.hp_ci_low, t.hp_ci_high}}};
    j["versus"] = v;
  }
  const auto [battles_per_s, decisions_per_s] = timing_rates(*this);
  j["elapsed_s"] = elapsed_s;
  j["battles_per_s"] = battles_per_s;
  j["decisions_per_s"] = decisions_per_s;
  return j;
}

Result<SimReport, content::Diagnostics> report_from_document(const content::JsonDocument& doc) {
  content::Diagnostics diags;
  Reader in(doc, diags);
  SimReport r;
  const nlohmann::json& j = doc.root;
  if (!in.object(j, "", kHeaderKeys, kTallyKeys)) return diags;
  // Every problem is reported; a check runs when the values it compares were read (`read`).
  std::size_t mark = 0;
  const auto read = [&] { return in.problems() == mark; };
  r.rules = in.str(j, "", "rules");
  r.encounter = in.str(j, "", "encounter");
  const std::optional<std::string> policy = in.text(j, "", "policy");
  r.policy = policy.value_or("");
  mark = in.problems();
  r.seed = in.u64(j, "", "seed");
  const std::optional<std::uint64_t> seed = read() ? std::optional(r.seed) : std::nullopt;
  if (const nlohmann::json* hash = in.field(j, "", "content_hash"); hash && hash->is_string()) {
    const std::string& text = hash->get_ref<const std::string&>();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r.content_hash, 16);
    if (ec != std::errc{} || end != text.data() + text.size() || text.size() != 16)
      in.error("/content_hash", fmt::format("expected 16 hexadecimal digits, got {}", shown(*hash)));
  } else if (hash) {
    in.error("/content_hash", "expected 16 hexadecimal digits, got " + shown(*hash));
  }
  std::uint64_t hp_total = 0;
  SideNames names;
  mark = in.problems();
  in.tally(j, "", r, names, hp_total);
  const bool a_read = read();
  r.card_ids = names_or_empty(names.cards);
  r.enemy_ids = names_or_empty(names.enemies);
  r.seat_names = names_or_empty(names.seat_names);
  r.seat_kinds = names_or_empty(names.seat_kinds);
  r.seat_policies = names_or_empty(names.seat_policies);
  r.counter_names = names.counters;
  if (!names.seat_policies.empty()) {
    // Seat 0 plays the run's policy: written out, but kept empty in the header.
    r.seat_policies[0].clear();
    if (policy && names.seat_policies[0] && *names.seat_policies[0] != *policy)
      in.error("/seats/0/policy", fmt::format("is '{}', expected '{}', the report's policy (seat 0 plays it)",
                                              *names.seat_policies[0], *policy));
  }
  if (const auto it = j.find("settings"); it != j.end()) {
    if (it->is_object())
      r.settings = *it;
    else
      in.error("/settings", "expected an object, got " + shown(*it));
  }
  r.engine_version = in.str(j, "", "engine_version");
  if (const std::uint64_t version = in.u64(j, "", "rng_version");
      version > std::numeric_limits<std::uint32_t>::max())
    in.error("/rng_version", fmt::format("expected a version below 2^32, got {}", version));
  else
    r.rng_version = static_cast<std::uint32_t>(version);
  if (const nlohmann::json* counted = in.field(j, "", "enemy_damage_counted")) {
    if (counted->is_boolean())
      r.enemy_damage_counted = counted->get<bool>();
    else
      in.error("/enemy_damage_counted", "expected true or false, got " + shown(*counted));
  }
  mark = in.problems();
  if (const auto it = j.find("elapsed_s"); it != j.end()) {
    if (it->is_number() && std::isfinite(it->get<double>()) && it->get<double>() >= 0)
      r.elapsed_s = it->get<double>();
    else
      in.error("/elapsed_s", "expected a number of seconds, 0 or more, got " + shown(*it));
  }
  const bool elapsed_read = read();
  const bool battles_read = count_of(j, "battles").has_value();
  r.total_battles = r.battles;
  bool shard_read = true;  // unsharded: battles from 0
  if (j.contains("shard"))
    shard_read = read_shard(in, j, r, battles_read);
  else if (battles_read && r.battles > kMaxBattles)
    in.error("/battles", fmt::format("expected at most {} battles (the most one run plays), got {}",
                                     kMaxBattles, r.battles));
  mark = in.problems();
  if (a_read) in.check_tally(r, "", hp_total, shard_read ? std::optional(r.first_battle) : std::nullopt);
  const bool a_agrees = a_read && read();
  in.derived(j, "", r, a_agrees);
  in.check_errors(j, "", seed, policy, "/policy");
  bool b_read = true;
  if (const auto it = j.find("versus"); it != j.end()) {
    b_read = false;
    if (in.object(*it, "/versus", kVersusKeys, kTallyKeys)) {
      const nlohmann::json& v = *it;
      const std::optional<std::string> versus_policy = in.text(v, "/versus", "policy");
      r.versus_policy = versus_policy.value_or("");
      std::uint64_t versus_hp_total = 0;
      SideNames versus_names;
      mark = in.problems();
      in.tally(v, "/versus", r.versus, versus_names, versus_hp_total);
      b_read = read();
      const bool same_battles = r.versus.battles == r.battles;
      if (battles_read && count_of(v, "battles") && !same_battles)
        in.error("/versus/battles",
                 fmt::format("policy B played {} battles and policy A {}: expected the same seeds",
                             r.versus.battles, r.battles));
      check_side_b_tables(in, j, v, names, versus_names, versus_policy);
      mark = in.problems();
      if (b_read)
        in.check_tally(r.versus, "/versus", versus_hp_total,
                       shard_read ? std::optional(r.first_battle) : std::nullopt);
      const bool b_agrees = b_read && read();
      in.derived(v, "/versus", r.versus, b_agrees);
      in.check_errors(v, "/versus", seed, versus_policy, "/versus/policy");
      read_paired(in, v, r, a_agrees && b_agrees && same_battles);
    }
  }
  // A run that did not count enemy damage (--no-enemy-damage) has 0 in every damage column.
  if (!r.enemy_damage_counted)
    for (const auto& [side, t] : {std::pair{"", static_cast<const Tally*>(&r)},
                                  std::pair{"/versus", static_cast<const Tally*>(&r.versus)}})
      for (std::size_t e = 0; e < t->enemies.size(); ++e)
        for (const auto& [key, count] : {std::pair{"damage_dealt", t->enemies[e].damage_dealt},
                                         std::pair{"armor_removed", t->enemies[e].armor_removed}})
          if (count != 0)
            in.error(
                fmt::format("{}/enemies/{}/{}", side, e, key),
                fmt::format("is {}, but the run did not count enemy damage (enemy_damage_counted is false)",
                            count));
  // The timing keys: numbers, and what elapsed_s gives with the battles and decisions.
  const bool timed = a_read && b_read && elapsed_read;
  const auto [battles_per_s, decisions_per_s] = timing_rates(r);
  // A time so short that the rates pass the largest number: they would be written null.
  if (timed && !(std::isfinite(battles_per_s) && std::isfinite(decisions_per_s)))
    in.error("/elapsed_s",
             fmt::format("is {}: {} battles and {} decisions in so short a time give rates past the largest "
                         "number",
                         shown(j.at("elapsed_s")), sum_text(saturating_add(r.battles, r.versus.battles)),
                         sum_text(saturating_add(r.decisions, r.versus.decisions))));
  for (const auto& [key, rate] :
       {std::pair{"battles_per_s", battles_per_s}, std::pair{"decisions_per_s", decisions_per_s}})
    if (j.contains(key))
      in.number(j.at(key), content::child_pointer("", key),
                timed ? std::optional<double>(rate) : std::nullopt);
  if (!diags.empty()) return diags;
  return r;
}

Result<SimReport, content::Diagnostics> read_report(const std::filesystem::path& path) {
  content::Diagnostics diags;
  const auto doc = content::parse_json_file(path, diags);
  if (!doc) return diags;
  if (!diags.empty()) return diags;  // a repeated key: the parser kept one of its values
  return report_from_document(*doc);
}

Result<SimReport> SimReport::from_json(const nlohmann::json& j) {
  auto read = report_from_document(content::JsonDocument{"report", "", j});
  if (!read) {
    std::string message = read.error().to_string();
    if (!message.empty() && message.back() == '\n') message.pop_back();
    return Error{message};
  }
  return std::move(read.value());
}

namespace {

/// The rows of a per-definition table that either side used (`used` says so of one tally row).
template <class Shown, class Row, class Used>
std::vector<Shown> shown_rows(const SimReport& r, const std::vector<Row>& a, const std::vector<Row>& b,
                              Used used) {
  static const Row kUnused{};
  const bool paired = !r.versus_policy.empty();
  std::vector<Shown> shown;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Row* other = paired && i < b.size() ? &b[i] : &kUnused;
    if (used(a[i]) || used(*other)) shown.push_back(Shown{i, &a[i], other});
  }
  return shown;
}

}  // namespace

std::vector<ShownCard> shown_cards(const SimReport& r) {
  return shown_rows<ShownCard>(r, r.cards, r.versus.cards, [](const CardTally& t) { return t.plays != 0; });
}

std::vector<ShownEnemy> shown_enemies(const SimReport& r) {
  return shown_rows<ShownEnemy>(r, r.enemies, r.versus.enemies,
                                [](const EnemyTally& t) { return t.battles != 0; });
}

namespace {

/// The id column of the text report's card and enemy tables, at the least: a longer id widens it.
constexpr std::size_t kTableIdWidth = 20;

/// The text report's card table: the cards played, in the pack's order, each with its plays and
/// the win rate of the battles it was played in; a paired run gives both sides per card (a card
/// one pack adds is played on that side only).
void append_card_table(std::string& out, const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  const auto cards = shown_cards(r);
  std::size_t w = kTableIdWidth;
  for (const ShownCard& shown : cards) w = std::max(w, at_or_empty(r.card_ids, shown.row).size());
  std::string rows;
  for (const ShownCard& shown : cards) {
    const CardTally& a = *shown.a;
    const CardTally& b = *shown.b;
    const std::string id = at_or_empty(r.card_ids, shown.row);
    if (paired)
      rows += fmt::format("{:<{}} {:>14.3f} {:>14.4f} {:>14.3f} {:>14.4f}\n", id, w,
                          ratio(a.plays, r.played()), ratio(a.wins_when_played, a.battles_played),
                          ratio(b.plays, r.versus.played()), ratio(b.wins_when_played, b.battles_played));
    else
      rows += fmt::format("{:<{}} {:>10} {:>12.3f} {:>16} {:>12.4f}\n", id, w, a.plays,
                          ratio(a.plays, r.played()), a.battles_played,
                          ratio(a.wins_when_played, a.battles_played));
  }
  if (rows.empty()) return;
  if (paired)
    out += fmt::format("{:<{}} {:>14} {:>14} {:>14} {:>14}\n", "card", w, "A_per_battle", "A_win_played",
                       "B_per_battle", "B_win_played");
  else
    out += fmt::format("{:<{}} {:>10} {:>12} {:>16} {:>12}\n", "card", w, "plays", "per_battle",
                       "battles_played", "win_played");
  out += rows;
}

/// The text report's enemy table: each enemy that fought, with the damage its attacks dealt; a
/// paired run gives both sides per enemy (an enemy one pack adds fights on that side only).
void append_enemy_table(std::string& out, const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  const auto enemies = shown_enemies(r);
  std::size_t w = kTableIdWidth;
  for (const ShownEnemy& shown : enemies) w = std::max(w, at_or_empty(r.enemy_ids, shown.row).size());
  std::string rows;
  for (const ShownEnemy& shown : enemies) {
    const EnemyTally& a = *shown.a;
    const EnemyTally& b = *shown.b;
    const std::string id = at_or_empty(r.enemy_ids, shown.row);
    if (paired)
      rows += fmt::format("{:<{}} {:>10} {:>12.3f} {:>10} {:>10} {:>12.3f} {:>10}\n", id, w, a.battles,
                          ratio(a.damage_dealt, a.battles), a.armor_removed, b.battles,
                          ratio(b.damage_dealt, b.battles), b.armor_removed);
    else
      rows += fmt::format("{:<{}} {:>10} {:>12} {:>12.3f} {:>14}\n", id, w, a.battles, a.damage_dealt,
                          ratio(a.damage_dealt, a.battles), a.armor_removed);
  }
  if (rows.empty()) return;
  if (paired)
    out += fmt::format("{:<{}} {:>10} {:>12} {:>10} {:>10} {:>12} {:>10}\n", "enemy", w, "A_battles",
                       "A_per_battle", "A_armor", "B_battles", "B_per_battle", "B_armor");
  else
    out += fmt::format("{:<{}} {:>10} {:>12} {:>12} {:>14}\n", "enemy", w, "battles", "damage", "per_battle",
                       "armor_removed");
  out += rows;
  if (!r.enemy_damage_counted) out += "(enemy damage not counted: --no-enemy-damage)\n";
}

/// The key column of the text report: the longest key, `versus_mean_hp_left_on_wins`, and a space.
constexpr std::size_t kTextKeyWidth = 28;

void append_line(std::string& out, std::string_view key, const std::string& value) {
  out += fmt::format("{:<{}} {}\n", key, kTextKeyWidth - 1, value);
}

/// One side's results in the text report, its keys prefixed (side B's with "versus_"): wins, the
/// win rate and its interval, turns, decisions, HP left, and the rule set's counters.
void append_side(std::string& out, const SimReport& header, const Tally& t, std::string_view prefix) {
  const auto key = [&](std::string_view k) { return fmt::format("{}{}", prefix, k); };
  const Interval ci = wilson_interval(t.wins, t.played());
  // With seats, the side's figures are seat 0's (clash: ending first alone, its health).
  const std::string seat0 =
      header.seats.empty()
          ? std::string()
          : fmt::format("  (seat 0{})",
                        header.seat_names.empty() ? std::string() : ", " + header.seat_names[0]);
  append_line(out, key("wins"), std::to_string(t.wins) + seat0);
  append_line(out, key("win_rate"),
              fmt::format("{:.4f}  (95% CI {:.4f} .. {:.4f})", t.win_rate(), ci.low, ci.high));
  append_line(
      out, key("mean_turns"),
      fmt::format("{:.4f}  (p10 {}, p50 {}, p90 {})", t.mean_turns(), percentile(t.turns_histogram, 10),
                  percentile(t.turns_histogram, 50), percentile(t.turns_histogram, 90)));
  append_line(out, key("decisions"), std::to_string(t.decisions));
  append_line(out, key("mean_decisions"), fmt::format("{:.4f}", t.mean_decisions()));
  append_line(out, key("mean_hp_left_on_wins"),
              fmt::format("{:.4f}", ratio(t.hp_left_on_wins, t.wins)) + seat0);
  for (std::size_t c = 0; c < t.counters.size() && c < header.counter_names.size(); ++c)
    append_line(out, key(header.counter_names[c]),
                fmt::format("{}  ({:.4f} per battle)", t.counters[c], ratio(t.counters[c], t.played())));
}

/// The seat table (rule sets with seats); a paired run lists side A's seats, then side B's.
void append_seat_table(std::string& out, const SimReport& r) {
  if (r.seats.empty()) return;
  const bool paired = !r.versus_policy.empty();
  out += fmt::format("{}{:<5} {:<6} {:<8} {:<9} {:<9} {:<11} {}\n", paired ? "side " : "", "seat", "kind",
                     "policy", "wins", "win_rate", "mean_place", "name");
  const auto rows = [&](const Tally& t, const std::string& policy, std::string_view side) {
    for (std::size_t i = 0; i < t.seats.size(); ++i)
      out += fmt::format("{}{:<5} {:<6} {:<8} {:<9} {:<9.4f} {:<11.4f} {}\n", side, i,
                         at_or_empty(r.seat_kinds, i), seat_policy(r, i, policy), t.seats[i].wins,
                         ratio(t.seats[i].wins, t.played()), ratio(t.seats[i].place_sum, t.played()),
                         at_or_empty(r.seat_names, i));
  };
  rows(r, r.policy, paired ? "A    " : "");
  if (paired) rows(r.versus, r.versus_policy, "B    ");
}

}  // namespace

std::string SimReport::to_text() const {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) { append_line(out, key, value); };
  const bool is_paired = !versus_policy.empty();
  line("rules", rules);
  line("encounter", encounter);
  line("policy", policy);
  line("battles", std::to_string(battles));
  line("seed", std::to_string(seed));
  if (shard_count > 1)
    line("shard", battles == 0
                      ? fmt::format("{}/{} (no battle of {})", shard_index, shard_count, total_battles)
                      : fmt::format("{}/{} (battles {}..{} of {}, counted from 0)", shard_index, shard_count,
                                    first_battle, first_battle + battles - 1, total_battles));
  for (const auto& item : settings.items()) line(item.key(), setting_text(item.value()));
  append_side(out, *this, *this, "");
  if (is_paired) {
    line("versus_policy", versus_policy);
    append_side(out, *this, versus, "versus_");
  }
  append_seat_table(out, *this);
  append_card_table(out, *this);
  append_enemy_table(out, *this);
  if (is_paired) {
    const PairedTest t = paired_test(paired);
    line("difference", fmt::format("{:+.4f}  (A - B, paired 95% CI {})", t.difference,
                                   paired_interval_text(t.ci_low, t.ci_high, paired.n())));
    line("mcnemar", fmt::format("chi2 {:.3f}, p {:.4g} (only A won {}, only B won {})", t.mcnemar_chi2,
                                t.p_value, paired.only_a_won, paired.only_b_won));
    line("hp_difference",
         fmt::format("{:+.4f}  (HP left, A - B, 0 when lost, paired 95% CI {})", t.hp_difference,
                     paired_interval_text(t.hp_ci_low, t.hp_ci_high, paired.n())));
  }
  const std::size_t errors = failures.size() + versus.failures.size();
  line("errors", std::to_string(errors));
  for (const auto& [side, t] : {std::pair{"A", static_cast<const Tally*>(this)}, std::pair{"B", &versus}})
    for (const SimFailure& f : t->failures) {
      // The actions of an error an action raised end with that action; one raised while the
      // policy chose, or as the battle started, came after all of them.
      const std::size_t count = f.actions.size();
      const std::string actions = !f.while_choosing && count > 0
                                      ? fmt::format("{} action(s), the last one raising it", count)
                                  : count == 0 ? std::string("no action before it")
                                               : fmt::format("{} action(s) before it", count);
      out += fmt::format("  battle {} ({}battle seed {}, policy {}, {}{}): {}\n", f.index,
                         is_paired ? fmt::format("side {}, ", side) : "", f.battle_seed, f.policy, actions,
                         f.while_choosing ? ", raised while the policy chose" : "", f.message);
    }
  line("elapsed_s", fmt::format("{:.3f}", elapsed_s));
  const auto [battles_per_s, decisions_per_s] = timing_rates(*this);
  line("battles_per_s", fmt::format("{:.0f}", battles_per_s));
  line("decisions_per_s", fmt::format("{:.0f}", decisions_per_s));
  return out;
}

// --- shards -------------------------------------------------------------------------------

ShardRange shard_range(std::uint64_t total, std::uint32_t index, std::uint32_t count) {
  // Battle b belongs to shard floor(b * count / total) + 1: contiguous, sizes differ by at most one.
  const auto bound = [&](std::uint64_t k) {
    // floor(total * k / count) without overflow: (total % count) * k < count^2 < 2^64.
    return total / count * k + (total % count) * k / count;
  };
  const std::uint64_t first = bound(index - 1u), end = bound(index);
  return {first, end - first};
}

Result<std::pair<std::uint32_t, std::uint32_t>> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  auto number = [](std::string_view s, std::uint32_t& out) {
    if (s.empty() || s.size() > 9) return false;  // so N <= kMaxShardCount
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && end == s.data() + s.size();
  };
  std::uint32_t k = 0, n = 0;
  if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), k) ||
      !number(std::string_view(text).substr(slash + 1), n))
    return Error{
        fmt::format("shard '{}' is not K/N with whole numbers K and N of at most {}", text, kMaxShardCount)};
  if (n == 0 || k == 0 || k > n)
    return Error{fmt::format("shard '{}': K must be between 1 and N (and N at least 1)", text)};
  return std::pair{k, n};
}

namespace {

/// `items` as a sentence lists them ("a", "a and b", "a, b and c"): the first `most` of them,
/// then how many more there are.
std::string listed(const std::vector<std::string>& items, std::size_t most = 10) {
  std::string out;
  const std::size_t shown = std::min(items.size(), most);
  for (std::size_t i = 0; i < shown; ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  if (items.size() > shown) out += fmt::format(" and {} more", items.size() - shown);
  return out;
}

}  // namespace

Result<SimReport> merge_reports(const std::vector<SimReport>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) return Error{"nothing to merge"};
  const SimReport& first = shards.front();
  const std::uint32_t n = first.shard_count;
  const auto name = [&](std::size_t i) {
    return i < names.size() ? names[i] : fmt::format("report {}", i + 1);
  };
  auto differs = [&](const SimReport& s, std::size_t i) -> std::string {
    auto what = [&](const char* key, const auto& a, const auto& b) {
      return fmt::format("{} has {} '{}' but {} has '{}'", name(i), key, b, name(0), a);
    };
    if (s.rules != first.rules) return what("rules", first.rules, s.rules);
    if (s.content_hash != first.content_hash)
      return what("content_hash", hex64(first.content_hash), hex64(s.content_hash));
    if (s.engine_version != first.engine_version)
      return what("engine_version", first.engine_version, s.engine_version);
    if (s.rng_version != first.rng_version) return what("rng_version", first.rng_version, s.rng_version);
    if (s.encounter != first.encounter) return what("encounter", first.encounter, s.encounter);
    if (s.seed != first.seed) return what("seed", first.seed, s.seed);
    if (s.policy != first.policy) return what("policy", first.policy, s.policy);
    if (s.versus_policy != first.versus_policy)
      return what("versus policy", first.versus_policy, s.versus_policy);
    if (s.total_battles != first.total_battles)
      return what("total battles", first.total_battles, s.total_battles);
    if (s.shard_count != n) return what("shard count", n, s.shard_count);
    if (s.enemy_damage_counted != first.enemy_damage_counted)
      return fmt::format("{} {} enemy damage and {} {}", name(i),
                         s.enemy_damage_counted ? "counted" : "did not count", name(0),
                         first.enemy_damage_counted ? "did" : "did not");
    if (s.card_ids != first.card_ids || s.enemy_ids != first.enemy_ids)
      return fmt::format("{} lists other cards or enemies than {}", name(i), name(0));
    if (s.seat_names != first.seat_names || s.seat_kinds != first.seat_kinds ||
        s.seat_policies != first.seat_policies)
      return fmt::format("{} has other seats than {}", name(i), name(0));
    if (s.counter_names != first.counter_names)
      return fmt::format("{} counts other things than {}", name(i), name(0));
    if (s.settings != first.settings) return what("settings", first.settings.dump(), s.settings.dump());
    return {};
  };
  // The shards' places in `shards` (and `names`), in shard index order, checked without a table
  // sized by the shard count: the count is only bounded by kMaxShardCount, and the files given
  // are few.
  std::vector<std::size_t> by_index;
  by_index.reserve(shards.size());
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const SimReport& s = shards[i];
    if (std::string d = differs(s, i); !d.empty()) return Error{"cannot merge: " + d};
    if (n < 1 || n > kMaxShardCount || s.shard_index < 1 || s.shard_index > n)
      return Error{fmt::format("cannot merge: {} is shard {}/{}", name(i), s.shard_index, n)};
    const ShardRange range = shard_range(s.total_battles, s.shard_index, n);
    if (s.first_battle != range.first || s.battles != range.count ||
        (!s.versus_policy.empty() && s.versus.battles != range.count))
      return Error{fmt::format("cannot merge: {} is shard {}/{} but covers battles {}..{}, expected {}..{}",
                               name(i), s.shard_index, n, s.first_battle, s.first_battle + s.battles,
                               range.first, range.first + range.count)};
    by_index.push_back(i);
  }
  const auto index_of = [&](std::size_t k) { return shards[by_index[k]].shard_index; };
  std::stable_sort(by_index.begin(), by_index.end(), [&](std::size_t a, std::size_t b) {
    return shards[a].shard_index < shards[b].shard_index;
  });
  for (std::size_t k = 1; k < by_index.size(); ++k)
    if (index_of(k) == index_of(k - 1))
      return Error{fmt::format("cannot merge: shard {}/{} is given twice: {} and {}", index_of(k), n,
                               name(by_index[k - 1]), name(by_index[k]))};
  if (by_index.size() != n) {
    // Every index is in 1..n and given once, so n - size shards are missing; name the first few.
    constexpr std::size_t kNamed = 10;
    std::string missing;
    std::size_t named = 0;
    std::uint64_t expected = 1;
    for (std::size_t k = 0; k <= by_index.size() && named < kNamed; ++k) {
      const std::uint64_t upto = k < by_index.size() ? index_of(k) : std::uint64_t{n} + 1;
      for (; expected < upto && named < kNamed; ++expected, ++named)
        missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", expected, n);
      expected = upto + 1;
    }
    const std::size_t count = n - by_index.size();
    if (count > named) missing += fmt::format(" and {} more", count - named);
    std::vector<std::string> given;
    for (const std::size_t i : by_index) given.push_back(name(i));
    return Error{fmt::format("cannot merge: missing shard(s) {} ({} of {} given: {})", missing,
                             by_index.size(), n, listed(given))};
  }

  SimReport merged;
  static_cast<Tally&>(merged) = Tally{};
  merged.rules = first.rules;
  merged.encounter = first.encounter;
  merged.policy = first.policy;
  merged.seed = first.seed;
  merged.content_hash = first.content_hash;
  merged.engine_version = first.engine_version;
  merged.rng_version = first.rng_version;
  merged.total_battles = first.total_battles;
  merged.card_ids = first.card_ids;
  merged.enemy_ids = first.enemy_ids;
  merged.seat_names = first.seat_names;
  merged.seat_kinds = first.seat_kinds;
  merged.seat_policies = first.seat_policies;
  merged.counter_names = first.counter_names;
  merged.settings = first.settings;
  merged.enemy_damage_counted = first.enemy_damage_counted;
  merged.versus_policy = first.versus_policy;
  merged.resize(first.shape());
  if (!merged.versus_policy.empty()) merged.versus.resize(first.shape());
  for (const std::size_t i : by_index) {  // fixed order: shard 1 first
    const SimReport& s = shards[i];
    // A sum past its range: counts no run has, edited; refused rather than wrapped.
    const auto refuse = [&](const Error& e) {
      return Error{fmt::format("cannot merge: adding {} (shard {}/{}), {} (no run has such counts)", name(i),
                               s.shard_index, n, e.message)};
    };
    if (auto added = merged.Tally::add(s); !added) return refuse(added.error());
    if (auto added = merged.versus.add(s.versus, "/versus"); !added) return refuse(added.error());
    if (auto added = merged.paired.add(s.paired); !added) return refuse(added.error());
    merged.elapsed_s += s.elapsed_s;
  }
  // Times edited so that their sum passes the largest double, or is so short that the whole run's
  // rates do: written, they would be null, which the reader refuses.
  const auto [battles_per_s, decisions_per_s] = timing_rates(merged);
  if (!std::isfinite(merged.elapsed_s) || !std::isfinite(battles_per_s) || !std::isfinite(decisions_per_s)) {
    std::vector<std::string> times;
    for (const std::size_t i : by_index)
      times.push_back(fmt::format("{} ({})", name(i), shards[i].elapsed_s));
    if (!std::isfinite(merged.elapsed_s))
      return Error{
          fmt::format("cannot merge: the elapsed_s of {} add up past the largest number (no run has "
                      "such times)",
                      listed(times))};
    return Error{fmt::format(
        "cannot merge: the elapsed_s of {} add up to {} s, in which {} battles and {} "
        "decisions give rates past the largest number (no run has such times)",
        listed(times), merged.elapsed_s, sum_text(saturating_add(merged.battles, merged.versus.battles)),
        sum_text(saturating_add(merged.decisions, merged.versus.decisions)))};
  }
  merged.finish();
  merged.versus.finish();
  return merged;
}

}  // namespace battlecore::sim
