#include "battlecore/sim/html_report.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace battlecore::sim {
namespace {

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// Horizontal bars from 0 to 1 with the 95% Wilson interval as a whisker, one row per policy.
std::string win_rate_svg(const SimReport& r) {
  struct Row {
    std::string label;
    std::uint64_t wins, battles;
  };
  // A paired run names its sides: they may play one policy (two decks).
  const bool paired = !r.versus_policy.empty();
  std::vector<Row> rows{{paired ? "A: " + r.policy : r.policy, r.wins, r.battles}};
  if (paired) rows.push_back({"B: " + r.versus_policy, r.versus.wins, r.versus.battles});
  const double left = 110, width = 460, row_h = 34;
  const double height = 30 + row_h * double(rows.size()) + 20;
  std::string svg = fmt::format(
      "<svg width=\"600\" height=\"{:.0f}\" role=\"img\" "
      "aria-label=\"win rate with 95% Wilson interval\">\n",
      height);
  for (int t = 0; t <= 10; ++t) {
    const double x = left + width * t / 10.0;
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"20\" x2=\"{0:.1f}\" y2=\"{1:.0f}\" class=\"grid\"/>", x,
                       height - 20);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"14\" class=\"tick\">{:.1f}</text>\n", x, t / 10.0);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const double y = 28 + row_h * double(i);
    const double p = ratio(row.wins, row.battles);
    const Interval ci = wilson_interval(row.wins, row.battles);
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" class=\"label\">{}</text>", left - 8, y + 15,
                       escape(row.label));
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" class=\"bar{}\"/>",
                       left, y, width * p, i);
    const double x0 = left + width * ci.low, x1 = left + width * ci.high, ym = y + 10;
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{2:.1f}\" class=\"ci\"/>"
        "<line x1=\"{0:.1f}\" y1=\"{3:.1f}\" x2=\"{0:.1f}\" y2=\"{4:.1f}\" class=\"ci\"/>"
        "<line x1=\"{1:.1f}\" y1=\"{3:.1f}\" x2=\"{1:.1f}\" y2=\"{4:.1f}\" class=\"ci\"/>",
        x0, x1, ym, y + 3, y + 17);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"value\">{:.3f} [{:.3f}, {:.3f}]</text>\n",
                       std::min(left + width * p + 6, left + width - 150), y + 34 - 1, p, ci.low, ci.high);
  }
  return svg + "</svg>\n";
}

/// A bar chart of a histogram (value -> battles).
std::string histogram_svg(const std::vector<std::uint64_t>& h, std::string_view what, std::string_view css) {
  const double left = 50, width = 520, top = 10, plot_h = 180;
  std::uint64_t peak = 1;
  for (std::uint64_t c : h) peak = std::max(peak, c);
  const std::size_t n = std::max<std::size_t>(h.size(), 1);
  const double bar_w = width / double(n);
  std::string svg = fmt::format(
      "<svg width=\"600\" height=\"230\" role=\"img\" "
      "aria-label=\"histogram of {}\">\n",
      escape(what));
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"axis\"/>", left, top,
                     top + plot_h);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>\n", left,
                     top + plot_h, left + width);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>", left - 6, top + 8, peak);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\">0</text>\n", left - 6, top + plot_h);
  for (std::size_t v = 0; v < h.size(); ++v) {
    if (h[v] == 0) continue;
    const double bh = plot_h * double(h[v]) / double(peak);
    svg += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" class=\"{}\"><title>{} {}: {} "
        "battles</title></rect>\n",
        left + bar_w * double(v), top + plot_h - bh, std::max(bar_w - 1.0, 0.5), bh, css, escape(what), v,
        h[v]);
  }
  const std::size_t step = std::max<std::size_t>(1, n / 10);
  for (std::size_t v = 0; v < n; v += step)
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"xtick\">{}</text>",
                       left + bar_w * (double(v) + 0.5), top + plot_h + 16, v);
  svg +=
      fmt::format("\n<text x=\"{}\" y=\"228\" class=\"xtick\">{}</text>\n", left + width / 2, escape(what));
  return svg + "</svg>\n";
}

std::string summary_table(const SimReport& r) {
  std::string t = "<table class=\"summary\">\n";
  auto row = [&](std::string_view k, const std::string& v) {
    t += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(k), escape(v));
  };
  row("rules", r.rules);
  row("encounter", r.encounter);
  row("policy", r.policy);
  if (!r.versus_policy.empty()) row("versus policy", r.versus_policy);
  row("battles", std::to_string(r.battles));
  row("seed", std::to_string(r.seed));
  row("content hash", fmt::format("{:016x}", r.content_hash));
  if (r.shard_count > 1) row("shard", fmt::format("{}/{}", r.shard_index, r.shard_count));
  const Interval ci = wilson_interval(r.wins, r.played());
  row("wins", fmt::format("{} ({:.4f}, 95% CI {:.4f} .. {:.4f})", r.wins, r.win_rate(), ci.low, ci.high));
  row("turns",
      fmt::format("mean {:.3f}, p10 {}, median {}, p90 {}", r.mean_turns(), percentile(r.turns_histogram, 10),
                  percentile(r.turns_histogram, 50), percentile(r.turns_histogram, 90)));
  row("HP left", fmt::format("mean on wins {:.3f}, p10 {}, median {}, p90 {}",
                             ratio(r.hp_left_on_wins, r.wins), percentile(r.hp_left_histogram, 10),
                             percentile(r.hp_left_histogram, 50), percentile(r.hp_left_histogram, 90)));
  row("decisions", fmt::format("{} ({:.3f} per battle)", r.decisions, r.mean_decisions()));
  for (const auto& item : r.settings.items()) row(item.key(), item.value().dump());
  for (std::size_t c = 0; c < r.counters.size(); ++c)
    row(c < r.counter_names.size() ? r.counter_names[c] : "?",
        fmt::format("{} ({:.3f} per battle)", r.counters[c], ratio(r.counters[c], r.played())));
  if (!r.versus_policy.empty()) {
    const PairedTest p = paired_test(r.paired);
    row("difference A - B",
        fmt::format("{:+.4f}, paired 95% CI {}", p.difference, paired_interval_text(p.ci_low, p.ci_high)));
    row("McNemar", fmt::format("chi2 {:.3f}, p = {:.4g} (only A won {}, only B won {})", p.mcnemar_chi2,
                               p.p_value, r.paired.only_a_won, r.paired.only_b_won));
    row("HP left A - B", fmt::format("{:+.4f} (0 when lost), paired 95% CI {}", p.hp_difference,
                                     paired_interval_text(p.hp_ci_low, p.hp_ci_high)));
  }
  row("errors", std::to_string(r.failures.size() + r.versus.failures.size()));
  return t + "</table>\n";
}

std::string card_table(const SimReport& r) {
  // A paired run shows both sides per card (a card one pack adds has plays on side B only).
  const bool paired = !r.versus_policy.empty();
  std::string t = "<table class=\"data\"><thead><tr><th>card</th>";
  t += paired ? "<th>A: plays per battle</th><th>A: win rate when played</th><th>B: plays per battle</th>"
                "<th>B: win rate when played</th>"
              : "<th>plays</th><th>plays per battle</th><th>battles played</th><th>win rate when played</th>";
  t += "</tr></thead><tbody>\n";
  for (const ShownCard& shown : shown_cards(r)) {
    const CardTally& a = *shown.a;
    const CardTally& b = *shown.b;
    const std::string id = escape(shown.row < r.card_ids.size() ? r.card_ids[shown.row] : "?");
    if (paired)
      t += fmt::format("<tr><td>{}</td><td>{:.3f}</td><td>{:.4f}</td><td>{:.3f}</td><td>{:.4f}</td></tr>\n",
                       id, ratio(a.plays, r.played()), ratio(a.wins_when_played, a.battles_played),
                       ratio(b.plays, r.versus.played()), ratio(b.wins_when_played, b.battles_played));
    else
      t += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.3f}</td><td>{}</td><td>{:.4f}</td></tr>\n", id,
                       a.plays, ratio(a.plays, r.played()), a.battles_played,
                       ratio(a.wins_when_played, a.battles_played));
  }
  return t + "</tbody></table>\n";
}

std::string seat_table(const SimReport& r) {
  std::string t =
      "<table class=\"data\"><thead><tr><th>seat</th><th>name</th><th>kind</th><th>policy</th>"
      "<th>wins</th><th>win rate</th><th>mean place</th></tr></thead><tbody>\n";
  auto at = [](const std::vector<std::string>& v, std::size_t i) { return i < v.size() ? v[i] : ""; };
  for (std::size_t s = 0; s < r.seats.size(); ++s) {
    const std::string policy = at(r.seat_policies, s).empty() ? r.policy : at(r.seat_policies, s);
    t += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.4f}</td><td>{:.3f}</td></tr>\n", s,
        escape(at(r.seat_names, s)), escape(at(r.seat_kinds, s)), escape(policy), r.seats[s].wins,
        ratio(r.seats[s].wins, r.played()), ratio(r.seats[s].place_sum, r.played()));
  }
  return t + "</tbody></table>\n";
}

std::string enemy_table(const SimReport& r) {
  std::string t =
      "<table class=\"data\"><thead><tr><th>enemy</th><th>battles</th><th>damage dealt</th>"
      "<th>damage per battle</th><th>armor broken</th></tr></thead><tbody>\n";
  for (std::size_t e = 0; e < r.enemies.size(); ++e) {
    const EnemyTally& et = r.enemies[e];
    if (et.battles == 0) continue;
    t += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>{}</td></tr>\n",
                     escape(e < r.enemy_ids.size() ? r.enemy_ids[e] : "?"), et.battles, et.damage_dealt,
                     ratio(et.damage_dealt, et.battles), et.armor_removed);
  }
  t += "</tbody></table>\n";
  if (!r.enemy_damage_counted) t += "<p>Enemy damage was not counted in this run (--no-enemy-damage).</p>\n";
  return t;
}

constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1100px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-size: 13px; }
table.data td:not(:first-child) { text-align: right; }
.grid { stroke: #eee; } .axis { stroke: #444; }
.tick { font-size: 10px; text-anchor: end; fill: #555; } .xtick { font-size: 10px; text-anchor: middle; fill: #555; }
.label { font-size: 13px; text-anchor: end; } .value { font-size: 11px; fill: #222; }
.bar0 { fill: #4c78a8; } .bar1 { fill: #f58518; } .ci { stroke: #000; stroke-width: 1.5; }
.turns { fill: #54a24b; } .hp { fill: #e45756; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
)";

}  // namespace

std::string render_html(const SimReport& r) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  page += fmt::format("<title>battlecore report: {} {}</title>\n<style>{}</style></head><body>\n",
                      escape(r.rules), escape(r.encounter), kStyle);
  page += fmt::format("<h1>battlecore: {} on {}, policy {}</h1>\n", escape(r.rules), escape(r.encounter),
                      escape(r.policy));
  page += summary_table(r);
  page += "<h2>Win rate (bar) with its 95% Wilson interval (whiskers)</h2>\n" + win_rate_svg(r);
  page += "<div class=\"charts\"><div><h2>Turns per battle</h2>\n" +
          histogram_svg(r.turns_histogram, "turns", "turns") + "</div>\n";
  page += "<div><h2>HP left at the end (0: lost)</h2>\n" +
          histogram_svg(r.hp_left_histogram, "HP left", "hp") + "</div></div>\n";
  if (!r.seats.empty()) page += "<h2>Seats</h2>\n" + seat_table(r);
  if (!r.cards.empty()) page += "<h2>Cards</h2>\n" + card_table(r);
  if (!r.enemies.empty()) page += "<h2>Enemies</h2>\n" + enemy_table(r);
  if (!r.failures.empty() || !r.versus.failures.empty()) {
    page +=
        "<h2>Engine errors</h2>\n<table "
        "class=\"data\"><tr><th>battle</th><th>seed</th><th>policy</th><th>message</th></tr>\n";
    for (const Tally* t : {static_cast<const Tally*>(&r), &r.versus})
      for (const SimFailure& f : t->failures)
        page += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", f.index, f.battle_seed,
                            escape(f.policy), escape(f.message));
    page += "</table>\n";
  }
  return page + "</body></html>\n";
}

}  // namespace battlecore::sim
