#include "battlecore/sim/report.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

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

void Tally::resize(const TallyShape& shape) {
  cards.resize(shape.cards);
  enemies.resize(shape.enemies);
  seats.resize(shape.seats);
  counters.resize(shape.counters);
}

namespace {

void bump(std::vector<std::uint64_t>& histogram, std::size_t at, std::uint64_t by = 1) {
  if (histogram.size() <= at) histogram.resize(at + 1, 0);
  histogram[at] += by;
}

}  // namespace

void Tally::add(const BattleRecord& b) {
  ++battles;
  if (b.won) {
    ++wins;
    hp_left_on_wins += b.hp_left;
  }
  turns += b.turns;
  decisions += b.decisions;
  bump(turns_histogram, b.turns);
  bump(hp_left_histogram, b.won ? b.hp_left : 0);
  // Count the battle once per card, at the card's first play. A battle plays few distinct
  // cards: each play is compared with all of them, no early exit, and the earlier plays are
  // searched only once more distinct cards were played than `seen` holds.
  std::array<std::uint32_t, 32> seen{};
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < b.cards_played.size(); ++i) {
    const std::uint32_t card = b.cards_played[i];
    if (card >= cards.size()) continue;
    ++cards[card].plays;
    bool earlier = false;
    for (std::size_t k = 0; k < distinct; ++k) earlier |= seen[k] == card;
    if (!earlier && distinct == seen.size()) {
      const auto from = b.cards_played.begin();
      earlier = std::find(from, from + static_cast<std::ptrdiff_t>(i), card) !=
                from + static_cast<std::ptrdiff_t>(i);
    }
    if (earlier) continue;
    if (distinct < seen.size()) seen[distinct++] = card;
    ++cards[card].battles_played;
    if (b.won) ++cards[card].wins_when_played;
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
  hp_diff_sq_sum += static_cast<std::uint64_t>(d * d);
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

PairedTest paired_test(const Paired& p) {
  PairedTest t;
  const double n = static_cast<double>(p.n());
  if (n == 0) return t;
  // The mean of per-seed differences and its normal 95% interval, from their sum and the sum
  // of their squares.
  const auto mean_and_interval = [n](double sum, double sq_sum, double& mean, double& low, double& high) {
    mean = sum / n;
    const double variance = n > 1 ? (sq_sum - n * mean * mean) / (n - 1) : 0.0;
    const double se = std::sqrt(std::max(0.0, variance) / n);
    low = mean - kZ95 * se;
    high = mean + kZ95 * se;
  };
  const double b = static_cast<double>(p.only_a_won), c = static_cast<double>(p.only_b_won);
  // The per-battle difference d_i = a_i - b_i is +1 (b battles), -1 (c battles) or 0.
  mean_and_interval(b - c, b + c, t.difference, t.ci_low, t.ci_high);
  mean_and_interval(static_cast<double>(p.hp_diff_sum), static_cast<double>(p.hp_diff_sq_sum),
                    t.hp_difference, t.hp_ci_low, t.hp_ci_high);
  if (b + c > 0) {
    const double num = std::max(0.0, std::abs(b - c) - 1.0);
    t.mcnemar_chi2 = num * num / (b + c);
    t.p_value = std::erfc(std::sqrt(t.mcnemar_chi2 / 2.0));  // chi-square(1) upper tail
  }
  return t;
}

Interval wilson_interval(std::uint64_t wins, std::uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double nn = static_cast<double>(n), p = static_cast<double>(wins) / nn, z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = kZ95 * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
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

double ratio(std::uint64_t a, std::uint64_t b) { return b ? double(a) / double(b) : 0.0; }

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
  const Interval ci = wilson_interval(t.wins, t.battles);
  j["wins"] = t.wins;
  j["win_rate"] = t.win_rate();
  j["win_rate_ci95"] = {ci.low, ci.high};
  j["mean_turns"] = t.mean_turns();
  j["decisions"] = t.decisions;
  j["mean_decisions"] = t.mean_decisions();
  j["mean_hp_left_on_wins"] = ratio(t.hp_left_on_wins, t.wins);
  j["errors"] = errors;
  j["turns"] = distribution_json(t.turns_histogram, t.turns, t.battles);
  j["hp_left"] = distribution_json(t.hp_left_histogram, weighted_sum(t.hp_left_histogram), t.battles);
  nlohmann::json cards = nlohmann::json::array();
  for (std::size_t c = 0; c < t.cards.size(); ++c) {
    const CardTally& ct = t.cards[c];
    cards.push_back({{"id", c < card_ids.size() ? card_ids[c] : fmt::format("#{}", c)},
                     {"plays", ct.plays},
                     {"plays_per_battle", ratio(ct.plays, t.battles)},
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
                       {"win_rate", ratio(t.seats[i].wins, t.battles)},
                       {"place_sum", t.seats[i].place_sum},
                       {"mean_place", ratio(t.seats[i].place_sum, t.battles)}});
    j["seats"] = seats;
    // With seats, `wins` and `mean_place` are objects keyed by seat index; `win_rate` is seat 0's.
    nlohmann::json wins = nlohmann::json::object(), places = nlohmann::json::object();
    for (std::size_t i = 0; i < t.seats.size(); ++i) {
      wins[std::to_string(i)] = t.seats[i].wins;
      places[std::to_string(i)] = ratio(t.seats[i].place_sum, t.battles);
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

/// Reads the JSON of one policy's results; the first problem is reported with its key.
class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}
  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }

  const nlohmann::json* field(const nlohmann::json& j, const char* key) {
    if (!ok()) return nullptr;
    if (!j.is_object() || !j.contains(key)) {
      error_ = fmt::format("{}: missing key '{}'", where_, key);
      return nullptr;
    }
    return &j.at(key);
  }
  std::uint64_t u64(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    if (v == nullptr) return 0;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0)) {
      error_ = fmt::format("{}: '{}' must be a non-negative integer", where_, key);
      return 0;
    }
    return v->get<std::uint64_t>();
  }
  std::int64_t i64(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    if (v == nullptr) return 0;
    if (!v->is_number_integer()) {
      error_ = fmt::format("{}: '{}' must be an integer", where_, key);
      return 0;
    }
    return v->get<std::int64_t>();
  }
  std::string str(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    if (v == nullptr) return {};
    if (!v->is_string()) {
      error_ = fmt::format("{}: '{}' must be a string", where_, key);
      return {};
    }
    return v->get<std::string>();
  }
  std::vector<std::uint64_t> histogram(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    std::vector<std::uint64_t> out;
    if (v == nullptr) return out;
    const nlohmann::json* h = field(*v, "histogram");
    if (h == nullptr) return out;
    if (!h->is_array()) {
      error_ = fmt::format("{}: '{}/histogram' must be an array", where_, key);
      return out;
    }
    for (const auto& x : *h) {
      if (!x.is_number_unsigned() && !(x.is_number_integer() && x.get<std::int64_t>() >= 0)) {
        error_ = fmt::format("{}: '{}/histogram' must hold non-negative integers", where_, key);
        return out;
      }
      out.push_back(x.get<std::uint64_t>());
    }
    return out;
  }
  const nlohmann::json* array(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    if (v != nullptr && !v->is_array()) {
      error_ = fmt::format("{}: '{}' must be an array", where_, key);
      return nullptr;
    }
    return v;
  }

  /// Reads one policy's results; `header` (for policy A) also gets the tables' names.
  void tally(const nlohmann::json& j, Tally& t, SimReport* header) {
    std::vector<std::string>* card_ids = header ? &header->card_ids : nullptr;
    std::vector<std::string>* enemy_ids = header ? &header->enemy_ids : nullptr;
    t.battles = u64(j, "battles");
    const bool by_seat = j.is_object() && j.contains("seats");
    if (!by_seat) t.wins = u64(j, "wins");  // with seats: seat 0's, read below
    t.decisions = u64(j, "decisions");
    t.turns_histogram = histogram(j, "turns");
    t.hp_left_histogram = histogram(j, "hp_left");
    if (const nlohmann::json* turns = field(j, "turns")) t.turns = u64(*turns, "total");
    t.hp_left_on_wins = weighted_sum(t.hp_left_histogram);
    if (const nlohmann::json* cards = array(j, "cards"))
      for (const auto& c : *cards) {
        if (card_ids) card_ids->push_back(str(c, "id"));
        t.cards.push_back({u64(c, "plays"), u64(c, "battles_played"), u64(c, "wins_when_played")});
      }
    if (const nlohmann::json* enemies = array(j, "enemies"))
      for (const auto& e : *enemies) {
        if (enemy_ids) enemy_ids->push_back(str(e, "id"));
        t.enemies.push_back({u64(e, "battles"), u64(e, "damage_dealt"), u64(e, "armor_removed")});
      }
    if (j.is_object() && j.contains("seats"))
      if (const nlohmann::json* seats = array(j, "seats"))
        for (const auto& s : *seats) {
          if (header) {
            header->seat_names.push_back(str(s, "name"));
            header->seat_kinds.push_back(str(s, "kind"));
            // seat 0 plays the run's policy, written out but kept empty in the header
            header->seat_policies.push_back(header->seat_names.size() == 1 ? "" : str(s, "policy"));
          }
          t.seats.push_back({u64(s, "wins"), u64(s, "place_sum")});
        }
    if (by_seat) t.wins = t.seats.empty() ? 0 : t.seats[0].wins;
    if (j.is_object() && j.contains("counters")) {
      const nlohmann::json& counters = j.at("counters");
      if (!counters.is_object()) {
        error_ = fmt::format("{}: 'counters' must be an object", where_);
        return;
      }
      for (const auto& item : counters.items()) {
        if (header) header->counter_names.push_back(item.key());
        t.counters.push_back(u64(counters, item.key().c_str()));
      }
    }
    if (const nlohmann::json* errors = array(j, "errors"))
      for (const auto& e : *errors) {
        SimFailure f{u64(e, "index"), u64(e, "battle_seed"), str(e, "message"), str(e, "policy"),
                     nlohmann::json::array()};
        if (const nlohmann::json* actions = array(e, "actions")) f.actions = *actions;
        t.failures.push_back(std::move(f));
      }
  }

 private:
  std::string where_;
  std::string error_;
};

}  // namespace

nlohmann::json SimReport::to_json() const {
  nlohmann::json j = {{"rules", rules}, {"encounter", encounter}, {"battles", battles},
                      {"seed", seed},   {"policy", policy},       {"content_hash", hex64(content_hash)}};
  tally_json(j, *this, *this, policy);
  if (!settings.empty()) j["settings"] = settings;
  if (!enemy_damage_counted) j["enemy_damage_counted"] = false;
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
                   {"hp_left_diff_sq_sum", paired.hp_diff_sq_sum},
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

Result<SimReport> SimReport::from_json(const nlohmann::json& j) {
  SimReport r;
  Reader in("report");
  if (!j.is_object()) return Error{"report: not a JSON object"};
  r.rules = in.str(j, "rules");
  r.encounter = in.str(j, "encounter");
  r.policy = in.str(j, "policy");
  r.seed = in.u64(j, "seed");
  const std::string hash = in.str(j, "content_hash");
  if (in.ok()) {
    const auto [end, ec] = std::from_chars(hash.data(), hash.data() + hash.size(), r.content_hash, 16);
    if (ec != std::errc{} || end != hash.data() + hash.size() || hash.empty())
      return Error{"report: 'content_hash' must be 16 hexadecimal digits"};
  }
  in.tally(j, r, &r);
  if (j.contains("settings")) {
    if (!j.at("settings").is_object()) return Error{"report: 'settings' must be an object"};
    r.settings = j.at("settings");
  }
  r.enemy_damage_counted = !j.contains("enemy_damage_counted") || j.at("enemy_damage_counted") != false;
  r.total_battles = r.battles;
  if (in.ok() && j.contains("shard")) {
    const nlohmann::json& s = j.at("shard");
    r.shard_index = static_cast<std::uint32_t>(in.u64(s, "index"));
    r.shard_count = static_cast<std::uint32_t>(in.u64(s, "count"));
    r.first_battle = in.u64(s, "first_battle");
    r.total_battles = in.u64(s, "total_battles");
  }
  if (in.ok() && j.contains("versus")) {
    const nlohmann::json& v = j.at("versus");
    r.versus_policy = in.str(v, "policy");
    in.tally(v, r.versus, nullptr);
    if (const nlohmann::json* p = in.field(v, "paired"))
      r.paired = {in.u64(*p, "both_won"),  in.u64(*p, "only_a_won"),       in.u64(*p, "only_b_won"),
                  in.u64(*p, "both_lost"), in.i64(*p, "hp_left_diff_sum"), in.u64(*p, "hp_left_diff_sq_sum")};
  }
  if (in.ok() && j.contains("elapsed_s") && j.at("elapsed_s").is_number())
    r.elapsed_s = j.at("elapsed_s").get<double>();
  if (!in.ok()) return Error{in.error()};
  return r;
}

std::string SimReport::to_text() const {
  std::string out;
  auto line = [&](std::string_view key, const std::string& value) {
    out += fmt::format("{:<15} {}\n", key, value);
  };
  line("rules", rules);
  line("encounter", encounter);
  line("policy", policy);
  line("battles", std::to_string(battles));
  line("seed", std::to_string(seed));
  if (shard_count > 1)
    line("shard", fmt::format("{}/{} (battles {}..{} of {})", shard_index, shard_count, first_battle,
                              first_battle + battles, total_battles));
  const Interval ci = wilson_interval(wins, battles);
  line("wins", std::to_string(wins));
  line("win_rate", fmt::format("{:.4f}  (95% CI {:.4f} .. {:.4f})", win_rate(), ci.low, ci.high));
  line("mean_turns",
       fmt::format("{:.4f}  (p10 {}, p50 {}, p90 {})", mean_turns(), percentile(turns_histogram, 10),
                   percentile(turns_histogram, 50), percentile(turns_histogram, 90)));
  line("decisions", std::to_string(decisions));
  line("mean_decisions", fmt::format("{:.4f}", mean_decisions()));
  line("mean_hp_on_wins", fmt::format("{:.4f}", ratio(hp_left_on_wins, wins)));
  for (const auto& item : settings.items()) line(item.key(), item.value().dump());
  for (std::size_t c = 0; c < counters.size() && c < counter_names.size(); ++c)
    line(counter_names[c], fmt::format("{}  ({:.4f} per battle)", counters[c], ratio(counters[c], battles)));
  if (!seats.empty()) {
    out += fmt::format("{:<5} {:<6} {:<8} {:<9} {:<9} {:<11} {}\n", "seat", "kind", "policy", "wins",
                       "win_rate", "mean_place", "name");
    for (std::size_t i = 0; i < seats.size(); ++i)
      out += fmt::format("{:<5} {:<6} {:<8} {:<9} {:<9.4f} {:<11.4f} {}\n", i, at_or_empty(seat_kinds, i),
                         seat_policy(*this, i, policy), seats[i].wins, ratio(seats[i].wins, battles),
                         ratio(seats[i].place_sum, battles), at_or_empty(seat_names, i));
  }
  if (!versus_policy.empty()) {
    const PairedTest t = paired_test(paired);
    const Interval vci = wilson_interval(versus.wins, versus.battles);
    line("versus_policy", versus_policy);
    line("versus_wins", std::to_string(versus.wins));
    line("versus_win_rate",
         fmt::format("{:.4f}  (95% CI {:.4f} .. {:.4f})", versus.win_rate(), vci.low, vci.high));
    line("difference", fmt::format("{:+.4f}  (A - B, paired 95% CI {:+.4f} .. {:+.4f})", t.difference,
                                   t.ci_low, t.ci_high));
    line("mcnemar", fmt::format("chi2 {:.3f}, p {:.4g} (only A won {}, only B won {})", t.mcnemar_chi2,
                                t.p_value, paired.only_a_won, paired.only_b_won));
    line("hp_difference",
         fmt::format("{:+.4f}  (HP left, A - B, 0 when lost, paired 95% CI {:+.4f} .. {:+.4f})",
                     t.hp_difference, t.hp_ci_low, t.hp_ci_high));
  }
  const std::size_t errors = failures.size() + versus.failures.size();
  line("errors", std::to_string(errors));
  for (const Tally* t : {static_cast<const Tally*>(this), &versus})
    for (const SimFailure& f : t->failures)
      out += fmt::format("  battle {} (battle seed {}, policy {}): {}\n", f.index, f.battle_seed, f.policy,
                         f.message);
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
    if (s.empty() || s.size() > 9) return false;
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
  std::vector<const SimReport*> by_index(n, nullptr);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const SimReport& s = shards[i];
    if (std::string d = differs(s, i); !d.empty()) return Error{"cannot merge: " + d};
    if (s.shard_index < 1 || s.shard_index > n)
      return Error{fmt::format("cannot merge: report {} is shard {}/{}", i + 1, s.shard_index, n)};
    if (by_index[s.shard_index - 1] != nullptr)
      return Error{fmt::format("cannot merge: shard {}/{} is given twice", s.shard_index, n)};
    const ShardRange range = shard_range(s.total_battles, s.shard_index, n);
    if (s.first_battle != range.first || s.battles != range.count ||
        (!s.versus_policy.empty() && s.versus.battles != range.count))
      return Error{fmt::format("cannot merge: shard {}/{} covers battles {}..{}, expected {}..{}",
                               s.shard_index, n, s.first_battle, s.first_battle + s.battles, range.first,
                               range.first + range.count)};
    by_index[s.shard_index - 1] = &s;
  }
  std::string missing;
  for (std::uint32_t k = 0; k < n; ++k)
    if (by_index[k] == nullptr) missing += fmt::format("{}{}/{}", missing.empty() ? "" : ", ", k + 1, n);
  if (!missing.empty()) return Error{"cannot merge: missing shard(s) " + missing};

  SimReport merged;
  static_cast<Tally&>(merged) = Tally{};
  merged.rules = first.rules;
  merged.encounter = first.encounter;
  merged.policy = first.policy;
  merged.seed = first.seed;
  merged.content_hash = first.content_hash;
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
