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

#include <fmt/format.h>

#include "battlecore/content/json_reader.hpp"

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
inline void bump(std::vector<std::uint64_t>& histogram, std::size_t at, std::uint64_t by = 1) {
  if (histogram.size() <= at) [[unlikely]]
    grow(histogram, at);
  histogram[at] += by;
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

void Tally::add(const Tally& o) {
  battles += o.battles;
  wins += o.wins;
  turns += o.turns;
  decisions += o.decisions;
  hp_left_on_wins += o.hp_left_on_wins;
  for (std::size_t t = 0; t < o.turns_histogram.size(); ++t) bump(turns_histogram, t, o.turns_histogram[t]);
  for (std::size_t h = 0; h < o.hp_left_histogram.size(); ++h)
    bump(hp_left_histogram, h, o.hp_left_histogram[h]);
  if (cards.size() < o.cards.size()) cards.resize(o.cards.size());
  for (std::size_t c = 0; c < o.cards.size(); ++c) {
    cards[c].plays += o.cards[c].plays;
    cards[c].battles_played += o.cards[c].battles_played;
    cards[c].wins_when_played += o.cards[c].wins_when_played;
  }
  if (enemies.size() < o.enemies.size()) enemies.resize(o.enemies.size());
  for (std::size_t e = 0; e < o.enemies.size(); ++e) {
    enemies[e].battles += o.enemies[e].battles;
    enemies[e].damage_dealt += o.enemies[e].damage_dealt;
    enemies[e].armor_removed += o.enemies[e].armor_removed;
  }
  if (seats.size() < o.seats.size()) seats.resize(o.seats.size());
  for (std::size_t i = 0; i < o.seats.size(); ++i) {
    seats[i].wins += o.seats[i].wins;
    seats[i].place_sum += o.seats[i].place_sum;
  }
  if (counters.size() < o.counters.size()) counters.resize(o.counters.size());
  for (std::size_t c = 0; c < o.counters.size(); ++c) counters[c] += o.counters[c];
  failures.insert(failures.end(), o.failures.begin(), o.failures.end());
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

void Paired::add(const Paired& o) {
  both_won += o.both_won;
  only_a_won += o.only_a_won;
  only_b_won += o.only_b_won;
  both_lost += o.both_lost;
  hp_diff_sum += o.hp_diff_sum;
  hp_diff_sq_sum += o.hp_diff_sq_sum;
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
    t.p_value = std::erfc(std::sqrt(t.mcnemar_chi2 / 2.0));  // chi-square(1) upper tail
  }
  return t;
}

std::string paired_interval_text(double low, double high) {
  if (std::isnan(low) || std::isnan(high)) return "undefined (fewer than two seeds)";
  return fmt::format("{:+.4f} .. {:+.4f}", low, high);
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
constexpr std::string_view kErrorKeys[] = {"index", "battle_seed", "policy", "message", "actions"};
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
  std::string digits;
  for (; v != 0; v /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return digits;
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

/// Reads a report strictly: every problem is a diagnostic at the JSON pointer of the value (with
/// its line and column when the document has its text), every key the format does not have is
/// refused, and the counts must agree with each other (`check_tally`).
class Reader {
 public:
  Reader(const content::JsonDocument& doc, content::Diagnostics& diags) : doc_(doc), diags_(diags) {}

  void error(const std::string& at, std::string message) {
    diags_.add(doc_.diagnostic(at, std::move(message)));
  }

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
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0))
      return v.get<std::uint64_t>();
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
  std::string str(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr) return {};
    if (v->is_string()) return v->get<std::string>();
    error(content::child_pointer(at, key), "expected a string, got " + shown(*v));
    return {};
  }
  const nlohmann::json* array(const nlohmann::json& j, const std::string& at, std::string_view key) {
    const nlohmann::json* v = field(j, at, key);
    if (v == nullptr || v->is_array()) return v;
    error(content::child_pointer(at, key), "expected an array, got " + shown(*v));
    return nullptr;
  }

  /// A distribution (`turns`, `hp_left`): its histogram, and its total in `total`.
  std::vector<std::uint64_t> distribution(const nlohmann::json& j, const std::string& at,
                                          std::string_view key, std::uint64_t& total) {
    std::vector<std::uint64_t> out;
    const nlohmann::json* d = field(j, at, key);
    const std::string here = content::child_pointer(at, key);
    if (d == nullptr || !object(*d, here, kDistributionKeys)) return out;
    total = u64(*d, here, "total");
    if (const nlohmann::json* h = array(*d, here, "histogram"))
      for (std::size_t i = 0; i < h->size(); ++i)
        out.push_back(u64((*h)[i], content::child_pointer(content::child_pointer(here, "histogram"), i)));
    return out;
  }

  /// Reads table `name` (cards or enemies) at `at`: each row's three `counts` into `rows`, and its
  /// id into `ids` when given.
  template <class Row>
  void table(const nlohmann::json& j, const std::string& at, std::string_view name,
             std::span<const std::string_view> allowed, const std::array<std::string_view, 3>& counts,
             std::vector<std::string>* ids, std::vector<Row>& rows) {
    const nlohmann::json* entries = array(j, at, name);
    if (entries == nullptr) return;
    for (std::size_t i = 0; i < entries->size(); ++i) {
      const nlohmann::json& row = (*entries)[i];
      const std::string here = content::child_pointer(content::child_pointer(at, name), i);
      if (!object(row, here, allowed)) continue;
      if (ids) ids->push_back(str(row, here, "id"));
      rows.push_back({u64(row, here, counts[0]), u64(row, here, counts[1]), u64(row, here, counts[2])});
    }
  }

  /// Reads one policy's results at `at` ("" or "/versus"); `header` (policy A's) also gets the
  /// tables' names. `hp_total` gets the `hp_left` distribution's total.
  void tally(const nlohmann::json& j, const std::string& at, Tally& t, SimReport* header,
             std::uint64_t& hp_total) {
    using content::child_pointer;
    t.battles = u64(j, at, "battles");
    const bool by_seat = j.contains("seats");
    if (!by_seat) t.wins = u64(j, at, "wins");  // with seats: seat 0's, read below
    t.decisions = u64(j, at, "decisions");
    t.turns_histogram = distribution(j, at, "turns", t.turns);
    t.hp_left_histogram = distribution(j, at, "hp_left", hp_total);
    t.hp_left_on_wins = weighted_sum(t.hp_left_histogram);
    table(j, at, "cards", kCardKeys, {"plays", "battles_played", "wins_when_played"},
          header ? &header->card_ids : nullptr, t.cards);
    table(j, at, "enemies", kEnemyKeys, {"battles", "damage_dealt", "armor_removed"},
          header ? &header->enemy_ids : nullptr, t.enemies);
    if (by_seat) seats(j, at, t, header);
    if (j.contains("counters")) {
      const nlohmann::json& counters = j.at("counters");
      const std::string here = child_pointer(at, "counters");
      if (!counters.is_object()) {
        error(here, "expected an object, got " + shown(counters));
      } else {
        for (const auto& item : counters.items()) {
          if (header) header->counter_names.push_back(item.key());
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
        t.failures.push_back(std::move(f));
      }
  }

  /// The seats of a several-seat rule set, and the top-level `wins` object that repeats their wins.
  void seats(const nlohmann::json& j, const std::string& at, Tally& t, SimReport* header) {
    using content::child_pointer;
    const nlohmann::json* seats = array(j, at, "seats");
    if (seats == nullptr) return;
    for (std::size_t i = 0; i < seats->size(); ++i) {
      const nlohmann::json& s = (*seats)[i];
      const std::string here = child_pointer(child_pointer(at, "seats"), i);
      if (!object(s, here, kSeatKeys)) continue;
      if (header) {
        header->seat_names.push_back(str(s, here, "name"));
        header->seat_kinds.push_back(str(s, here, "kind"));
        // seat 0 plays the run's policy, written out but kept empty in the header
        header->seat_policies.push_back(header->seat_names.size() == 1 ? "" : str(s, here, "policy"));
      }
      t.seats.push_back({u64(s, here, "wins"), u64(s, here, "place_sum")});
    }
    t.wins = t.seats.empty() ? 0 : t.seats[0].wins;
    const nlohmann::json* wins = field(j, at, "wins");
    const std::string here = child_pointer(at, "wins");
    if (wins == nullptr) return;
    if (!wins->is_object()) {
      error(here, "expected an object keyed by seat index (the report has seats), got " + shown(*wins));
      return;
    }
    for (const auto& item : wins->items()) {
      const std::string seat_at = child_pointer(here, item.key());
      std::size_t seat = 0;
      const auto [end, ec] = std::from_chars(item.key().data(), item.key().data() + item.key().size(), seat);
      if (ec != std::errc{} || end != item.key().data() + item.key().size() || seat >= t.seats.size()) {
        error(seat_at, fmt::format("unknown key '{}'; the keys are the seat indices 0 to {}", item.key(),
                                   t.seats.size() - 1));
        continue;
      }
      const std::uint64_t n = u64(item.value(), seat_at);
      if (ok() && n != t.seats[seat].wins)
        error(seat_at, fmt::format("is {}, but {}/seats/{}/wins is {}", n, at, seat, t.seats[seat].wins));
    }
    if (wins->size() != t.seats.size())
      error(here, fmt::format("expected one entry per seat ({}), got {}", t.seats.size(), wins->size()));
  }

  /// The counts of one policy's results must agree with each other: every battle is counted once
  /// in each histogram unless it failed, wins are among the battles played, and so on.
  void check_tally(const Tally& t, const std::string& at, std::uint64_t hp_total,
                   std::uint64_t first_battle) {
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
      for (std::uint64_t c : histogram) counted += c;
      if (counted != played)
        error(child_pointer(here, "histogram"),
              fmt::format("counts {} battles, expected {}", counted, played_text));
      if (total != weighted_sum(histogram))
        error(child_pointer(here, "total"),
              fmt::format("is {}, but the histogram adds up to {}", total, weighted_sum(histogram)));
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
      if (card.wins_when_played > card.battles_played || card.wins_when_played > t.wins)
        error(child_pointer(here, "wins_when_played"),
              fmt::format("{} is more than the battles the card was played in ({}) or the wins ({})",
                          card.wins_when_played, card.battles_played, t.wins));
    }
    std::uint64_t seat_wins = 0;
    for (std::size_t s = 0; s < t.seats.size(); ++s) {
      seat_wins += t.seats[s].wins;
      if (t.seats[s].wins > played)
        error(child_pointer(child_pointer(child_pointer(at, "seats"), s), "wins"),
              fmt::format("{} wins is more than {}", t.seats[s].wins, played_text));
    }
    if (seat_wins > played)
      error(child_pointer(at, "seats"),
            fmt::format("the seats won {} battles in all, more than {} (a battle has at most one winner)",
                        seat_wins, played_text));
    // Failures are listed once each, by battle index, within the report's battles.
    for (std::size_t i = 0; i < t.failures.size(); ++i) {
      const std::uint64_t index = t.failures[i].index;
      const std::string here = child_pointer(child_pointer(child_pointer(at, "errors"), i), "index");
      if (index < first_battle || index - first_battle >= t.battles)
        error(here, fmt::format("battle {} is not one of the report's battles {}..{}", index, first_battle,
                                first_battle + t.battles));
      else if (i > 0 && index <= t.failures[i - 1].index)
        error(here,
              fmt::format("battle {} comes after battle {}: expected each battle once, in increasing order",
                          index, t.failures[i - 1].index));
    }
  }

  bool ok() const { return diags_.empty(); }

 private:
  const content::JsonDocument& doc_;
  content::Diagnostics& diags_;
};

/// The shard a report covers, checked: a count from 1 to kMaxShardCount, an index from 1 to it,
/// and the range of battles that shard of the run has.
void read_shard(Reader& in, const nlohmann::json& j, SimReport& r) {
  const nlohmann::json* s = in.field(j, "", "shard");
  if (s == nullptr || !in.object(*s, "/shard", kShardKeys)) return;
  const std::uint64_t index = in.u64(*s, "/shard", "index"), count = in.u64(*s, "/shard", "count");
  r.first_battle = in.u64(*s, "/shard", "first_battle");
  r.total_battles = in.u64(*s, "/shard", "total_battles");
  if (!in.ok()) return;
  if (count < 1 || count > kMaxShardCount) {
    in.error("/shard/count",
             fmt::format("expected a shard count from 1 to {}, got {}", kMaxShardCount, count));
    return;
  }
  if (index < 1 || index > count) {
    in.error("/shard/index",
             fmt::format("expected a shard index from 1 to the count {}, got {}", count, index));
    return;
  }
  if (r.total_battles > kMaxBattles) {
    in.error("/shard/total_battles",
             fmt::format("expected at most {} battles (the most one run plays), got {}", kMaxBattles,
                         r.total_battles));
    return;
  }
  r.shard_index = static_cast<std::uint32_t>(index);
  r.shard_count = static_cast<std::uint32_t>(count);
  const ShardRange range = shard_range(r.total_battles, r.shard_index, r.shard_count);
  if (r.first_battle != range.first)
    in.error("/shard/first_battle", fmt::format("shard {}/{} of {} battles starts at battle {}, not {}",
                                                index, count, r.total_battles, range.first, r.first_battle));
  else if (r.battles != range.count)
    in.error("/battles", fmt::format("shard {}/{} of {} battles has {} battles, not {}", index, count,
                                     r.total_battles, range.count, r.battles));
}

/// The paired counts of an A/B report, checked against both policies' results.
void read_paired(Reader& in, const nlohmann::json& v, SimReport& r) {
  const nlohmann::json* p = in.field(v, "/versus", "paired");
  if (p == nullptr || !in.object(*p, "/versus/paired", kPairedKeys)) return;
  const std::string at = "/versus/paired";
  r.paired = {in.u64(*p, at, "both_won"),         in.u64(*p, at, "only_a_won"),
              in.u64(*p, at, "only_b_won"),       in.u64(*p, at, "both_lost"),
              in.i64(*p, at, "hp_left_diff_sum"), in.u128(*p, at, "hp_left_diff_sq_sum")};
  if (!in.ok()) return;
  // A seed counts in the paired table when neither policy failed on it.
  const std::uint64_t fails = r.failures.size() + r.versus.failures.size();
  const std::uint64_t most = r.battles - std::max(r.failures.size(), r.versus.failures.size());
  const std::uint64_t least = r.battles > fails ? r.battles - fails : 0;
  const std::uint64_t n = r.paired.both_won + r.paired.only_a_won + r.paired.only_b_won + r.paired.both_lost;
  if (n < least || n > most)
    in.error(at, least == most ? fmt::format("counts {} seeds, expected {}", n, most)
                               : fmt::format("counts {} seeds, expected {} to {}", n, least, most));
  else if (r.paired.both_won + r.paired.only_a_won > r.wins)
    in.error(at + "/only_a_won", fmt::format("both_won + only_a_won is {}, more than policy A's {} wins",
                                             r.paired.both_won + r.paired.only_a_won, r.wins));
  else if (r.paired.both_won + r.paired.only_b_won > r.versus.wins)
    in.error(at + "/only_b_won", fmt::format("both_won + only_b_won is {}, more than policy B's {} wins",
                                             r.paired.both_won + r.paired.only_b_won, r.versus.wins));
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
  const std::uint64_t all_decisions = decisions + versus.decisions;
  j["elapsed_s"] = elapsed_s;
  j["battles_per_s"] = elapsed_s > 0 ? double(battles + versus.battles) / elapsed_s : 0.0;
  j["decisions_per_s"] = elapsed_s > 0 ? double(all_decisions) / elapsed_s : 0.0;
  return j;
}

Result<SimReport, content::Diagnostics> report_from_document(const content::JsonDocument& doc) {
  content::Diagnostics diags;
  Reader in(doc, diags);
  SimReport r;
  const nlohmann::json& j = doc.root;
  if (!in.object(j, "", kHeaderKeys, kTallyKeys)) return diags;
  r.rules = in.str(j, "", "rules");
  r.encounter = in.str(j, "", "encounter");
  r.policy = in.str(j, "", "policy");
  r.seed = in.u64(j, "", "seed");
  if (const nlohmann::json* hash = in.field(j, "", "content_hash"); hash && hash->is_string()) {
    const std::string& text = hash->get_ref<const std::string&>();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r.content_hash, 16);
    if (ec != std::errc{} || end != text.data() + text.size() || text.size() != 16)
      in.error("/content_hash", fmt::format("expected 16 hexadecimal digits, got {}", shown(*hash)));
  } else if (hash) {
    in.error("/content_hash", "expected 16 hexadecimal digits, got " + shown(*hash));
  }
  std::uint64_t hp_total = 0;
  in.tally(j, "", r, &r, hp_total);
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
  if (const auto it = j.find("elapsed_s"); it != j.end()) {
    if (it->is_number() && std::isfinite(it->get<double>()) && it->get<double>() >= 0)
      r.elapsed_s = it->get<double>();
    else
      in.error("/elapsed_s", "expected a number of seconds, 0 or more, got " + shown(*it));
  }
  r.total_battles = r.battles;
  if (in.ok() && j.contains("shard"))
    read_shard(in, j, r);
  else if (in.ok() && r.battles > kMaxBattles)
    in.error("/battles", fmt::format("expected at most {} battles (the most one run plays), got {}",
                                     kMaxBattles, r.battles));
  if (in.ok()) in.check_tally(r, "", hp_total, r.first_battle);
  if (const auto it = j.find("versus"); it != j.end() && in.object(*it, "/versus", kVersusKeys, kTallyKeys)) {
    const nlohmann::json& v = *it;
    r.versus_policy = in.str(v, "/versus", "policy");
    std::uint64_t versus_hp_total = 0;
    in.tally(v, "/versus", r.versus, nullptr, versus_hp_total);
    if (in.ok() && r.versus.battles != r.battles)
      in.error("/versus/battles",
               fmt::format("policy B played {} battles and policy A {}: expected the same seeds",
                           r.versus.battles, r.battles));
    // Policy B's tables are those of policy A's header.
    const std::pair<const char*, std::pair<std::size_t, std::size_t>> tables[] = {
        {"cards", {r.versus.cards.size(), r.cards.size()}},
        {"enemies", {r.versus.enemies.size(), r.enemies.size()}},
        {"seats", {r.versus.seats.size(), r.seats.size()}},
        {"counters", {r.versus.counters.size(), r.counters.size()}}};
    for (const auto& [key, sizes] : tables)
      if (in.ok() && sizes.first != sizes.second)
        in.error(content::child_pointer("/versus", key),
                 fmt::format("has {} entries, expected {} as at the top level", sizes.first, sizes.second));
    if (in.ok()) in.check_tally(r.versus, "/versus", versus_hp_total, r.first_battle);
    if (in.ok()) read_paired(in, v, r);
  }
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

/// The text report's card table: the cards played, in the pack's order, each with its plays and
/// the win rate of the battles it was played in; a paired run gives both sides per card (a card
/// one pack adds is played on that side only).
void append_card_table(std::string& out, const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  std::string rows;
  for (const ShownCard& shown : shown_cards(r)) {
    const CardTally& a = *shown.a;
    const CardTally& b = *shown.b;
    const std::string id = at_or_empty(r.card_ids, shown.row);
    if (paired)
      rows += fmt::format("{:<20} {:>14.3f} {:>14.4f} {:>14.3f} {:>14.4f}\n", id, ratio(a.plays, r.played()),
                          ratio(a.wins_when_played, a.battles_played), ratio(b.plays, r.versus.played()),
                          ratio(b.wins_when_played, b.battles_played));
    else
      rows +=
          fmt::format("{:<20} {:>10} {:>12.3f} {:>16} {:>12.4f}\n", id, a.plays, ratio(a.plays, r.played()),
                      a.battles_played, ratio(a.wins_when_played, a.battles_played));
  }
  if (rows.empty()) return;
  if (paired)
    out += fmt::format("{:<20} {:>14} {:>14} {:>14} {:>14}\n", "card", "A_per_battle", "A_win_played",
                       "B_per_battle", "B_win_played");
  else
    out += fmt::format("{:<20} {:>10} {:>12} {:>16} {:>12}\n", "card", "plays", "per_battle",
                       "battles_played", "win_played");
  out += rows;
}

/// The text report's enemy table: each enemy that fought, with the damage its attacks dealt; a
/// paired run gives both sides per enemy (an enemy one pack adds fights on that side only).
void append_enemy_table(std::string& out, const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  std::string rows;
  for (const ShownEnemy& shown : shown_enemies(r)) {
    const EnemyTally& a = *shown.a;
    const EnemyTally& b = *shown.b;
    const std::string id = at_or_empty(r.enemy_ids, shown.row);
    if (paired)
      rows += fmt::format("{:<20} {:>10} {:>12.3f} {:>10} {:>10} {:>12.3f} {:>10}\n", id, a.battles,
                          ratio(a.damage_dealt, a.battles), a.armor_removed, b.battles,
                          ratio(b.damage_dealt, b.battles), b.armor_removed);
    else
      rows += fmt::format("{:<20} {:>10} {:>12} {:>12.3f} {:>14}\n", id, a.battles, a.damage_dealt,
                          ratio(a.damage_dealt, a.battles), a.armor_removed);
  }
  if (rows.empty()) return;
  if (paired)
    out += fmt::format("{:<20} {:>10} {:>12} {:>10} {:>10} {:>12} {:>10}\n", "enemy", "A_battles",
                       "A_per_battle", "A_armor", "B_battles", "B_per_battle", "B_armor");
  else
    out += fmt::format("{:<20} {:>10} {:>12} {:>12} {:>14}\n", "enemy", "battles", "damage", "per_battle",
                       "armor_broken");
  out += rows;
  if (!r.enemy_damage_counted) out += "(enemy damage not counted: --no-enemy-damage)\n";
}

void append_line(std::string& out, std::string_view key, const std::string& value) {
  out += fmt::format("{:<22} {}\n", key, value);
}

/// One side's results in the text report, its keys prefixed (side B's with "versus_"): wins, the
/// win rate and its interval, turns, decisions, HP left, and the rule set's counters.
void append_side(std::string& out, const SimReport& header, const Tally& t, std::string_view prefix) {
  const auto key = [&](std::string_view k) { return fmt::format("{}{}", prefix, k); };
  const Interval ci = wilson_interval(t.wins, t.played());
  append_line(out, key("wins"), std::to_string(t.wins));
  append_line(out, key("win_rate"),
              fmt::format("{:.4f}  (95% CI {:.4f} .. {:.4f})", t.win_rate(), ci.low, ci.high));
  append_line(
      out, key("mean_turns"),
      fmt::format("{:.4f}  (p10 {}, p50 {}, p90 {})", t.mean_turns(), percentile(t.turns_histogram, 10),
                  percentile(t.turns_histogram, 50), percentile(t.turns_histogram, 90)));
  append_line(out, key("decisions"), std::to_string(t.decisions));
  append_line(out, key("mean_decisions"), fmt::format("{:.4f}", t.mean_decisions()));
  append_line(out, key("mean_hp_on_wins"), fmt::format("{:.4f}", ratio(t.hp_left_on_wins, t.wins)));
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
  for (const auto& item : settings.items()) line(item.key(), item.value().dump());
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
                                   paired_interval_text(t.ci_low, t.ci_high)));
    line("mcnemar", fmt::format("chi2 {:.3f}, p {:.4g} (only A won {}, only B won {})", t.mcnemar_chi2,
                                t.p_value, paired.only_a_won, paired.only_b_won));
    line("hp_difference", fmt::format("{:+.4f}  (HP left, A - B, 0 when lost, paired 95% CI {})",
                                      t.hp_difference, paired_interval_text(t.hp_ci_low, t.hp_ci_high)));
  }
  const std::size_t errors = failures.size() + versus.failures.size();
  line("errors", std::to_string(errors));
  for (const auto& [side, t] : {std::pair{"A", static_cast<const Tally*>(this)}, std::pair{"B", &versus}})
    for (const SimFailure& f : t->failures)
      out += fmt::format("  battle {} ({}battle seed {}, policy {}, {} action(s) before it): {}\n", f.index,
                         is_paired ? fmt::format("side {}, ", side) : "", f.battle_seed, f.policy,
                         f.actions.size(), f.message);
  line("elapsed_s", fmt::format("{:.3f}", elapsed_s));
  const double all = double(battles + versus.battles), all_decisions = double(decisions + versus.decisions);
  line("battles_per_s", fmt::format("{:.0f}", elapsed_s > 0 ? all / elapsed_s : 0.0));
  line("decisions_per_s", fmt::format("{:.0f}", elapsed_s > 0 ? all_decisions / elapsed_s : 0.0));
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
    return Error{fmt::format("shard '{}' is not K/N with whole numbers K and N", text)};
  if (n == 0 || k == 0 || k > n)
    return Error{fmt::format("shard '{}': K must be between 1 and N (and N at least 1)", text)};
  return std::pair{k, n};
}

Result<SimReport> merge_reports(const std::vector<SimReport>& shards) {
  if (shards.empty()) return Error{"nothing to merge"};
  const SimReport& first = shards.front();
  const std::uint32_t n = first.shard_count;
  auto differs = [&](const SimReport& s, std::size_t i) -> std::string {
    auto what = [&](const char* key, const auto& a, const auto& b) {
      return fmt::format("report {} has {} '{}' but report 1 has '{}'", i + 1, key, b, a);
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
      return fmt::format("report {} {} enemy damage and report 1 {}", i + 1,
                         s.enemy_damage_counted ? "counted" : "did not count",
                         first.enemy_damage_counted ? "did" : "did not");
    if (s.card_ids != first.card_ids || s.enemy_ids != first.enemy_ids)
      return fmt::format("report {} lists other cards or enemies than report 1", i + 1);
    if (s.seat_names != first.seat_names || s.seat_kinds != first.seat_kinds ||
        s.seat_policies != first.seat_policies)
      return fmt::format("report {} has other seats than report 1", i + 1);
    if (s.counter_names != first.counter_names)
      return fmt::format("report {} counts other things than report 1", i + 1);
    if (s.settings != first.settings) return what("settings", first.settings.dump(), s.settings.dump());
    return {};
  };
  // The shards in index order, checked without a table sized by the shard count: the count is
  // only bounded by kMaxShardCount, and the files given are few.
  std::vector<const SimReport*> by_index;
  by_index.reserve(shards.size());
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const SimReport& s = shards[i];
    if (std::string d = differs(s, i); !d.empty()) return Error{"cannot merge: " + d};
    if (n < 1 || n > kMaxShardCount || s.shard_index < 1 || s.shard_index > n)
      return Error{fmt::format("cannot merge: report {} is shard {}/{}", i + 1, s.shard_index, n)};
    const ShardRange range = shard_range(s.total_battles, s.shard_index, n);
    if (s.first_battle != range.first || s.battles != range.count ||
        (!s.versus_policy.empty() && s.versus.battles != range.count))
      return Error{fmt::format("cannot merge: shard {}/{} covers battles {}..{}, expected {}..{}",
                               s.shard_index, n, s.first_battle, s.first_battle + s.battles, range.first,
                               range.first + range.count)};
    by_index.push_back(&s);
  }
  std::stable_sort(by_index.begin(), by_index.end(),
                   [](const SimReport* a, const SimReport* b) { return a->shard_index < b->shard_index; });
  for (std::size_t k = 1; k < by_index.size(); ++k)
    if (by_index[k]->shard_index == by_index[k - 1]->shard_index)
      return Error{fmt::format("cannot merge: shard {}/{} is given twice", by_index[k]->shard_index, n)};
  if (by_index.size() != n) {
    // Every index is in 1..n and given once, so n - size shards are missing; name the first few.
    constexpr std::size_t kNamed = 10;
    std::string missing;
    std::size_t named = 0;
    std::uint64_t expected = 1;
    for (std::size_t k = 0; k <= by_index.size() && named < kNamed; ++k) {
      const std::uint64_t upto = k < by_index.size() ? by_index[k]->shard_index : std::uint64_t{n} + 1;
      for (; expected < upto && named < kNamed; ++expected, ++named)
        missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", expected, n);
      expected = upto + 1;
    }
    const std::size_t count = n - by_index.size();
    if (count > named) missing += fmt::format(" and {} more", count - named);
    return Error{
        fmt::format("cannot merge: missing shard(s) {} ({} of {} given)", missing, by_index.size(), n)};
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
  for (const SimReport* s : by_index) {  // fixed order: shard 1 first
    merged.Tally::add(*s);
    merged.versus.add(s->versus);
    merged.paired.add(s->paired);
    merged.elapsed_s += s->elapsed_s;
  }
  merged.finish();
  merged.versus.finish();
  return merged;
}

}  // namespace battlecore::sim
