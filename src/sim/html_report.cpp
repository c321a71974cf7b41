#include "battlecore/sim/html_report.hpp"

#include <algorithm>
#include <initializer_list>
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

/// Horizontal bars from 0 to 1 with the 95% Wilson interval as a whisker: one row per side, or
/// per seat and side in a rule set with seats; rates over the battles played to their end.
std::string win_rate_svg(const SimReport& r) {
  struct Row {
    std::string label;
    std::uint64_t wins, played;
    int side;
  };
  // A paired run names its sides: they may play one policy (two decks).
  const bool paired = !r.versus_policy.empty();
  std::vector<Row> rows;
  const auto side_rows = [&](const Tally& t, const std::string& policy, std::string_view side, int index) {
    const std::string prefix = paired ? fmt::format("{}: ", side) : "";
    if (t.seats.empty()) {
      rows.push_back({prefix + policy, t.wins, t.played(), index});
      return;
    }
    for (std::size_t s = 0; s < t.seats.size(); ++s)
      rows.push_back({fmt::format("{}seat {}", prefix, s), t.seats[s].wins, t.played(), index});
  };
  side_rows(r, r.policy, "A", 0);
  if (paired) side_rows(r.versus, r.versus_policy, "B", 1);
  const double left = 110, width = 460, row_h = 28;
  const double height = 30 + row_h * double(rows.size()) + 20;
  std::string svg = fmt::format(
      "<svg width=\"740\" height=\"{:.0f}\" role=\"img\" "
      "aria-label=\"win rate with 95% Wilson interval\">\n",
      height);
  for (int t = 0; t <= 10; ++t) {
    const double x = left + width * t / 10.0;
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"20\" x2=\"{0:.1f}\" y2=\"{1:.0f}\" class=\"grid\"/>", x,
                       height - 20);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"14\" class=\"xtick\">{:.1f}</text>\n", x, t / 10.0);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const double y = 28 + row_h * double(i);
    const double p = ratio(row.wins, row.played);
    const Interval ci = wilson_interval(row.wins, row.played);
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" class=\"label\">{}</text>", left - 8, y + 15,
                       escape(row.label));
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" class=\"bar{}\"/>",
                       left, y, width * p, row.side);
    const double x0 = left + width * ci.low, x1 = left + width * ci.high, ym = y + 10;
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{2:.1f}\" class=\"ci\"/>"
        "<line x1=\"{0:.1f}\" y1=\"{3:.1f}\" x2=\"{0:.1f}\" y2=\"{4:.1f}\" class=\"ci\"/>"
        "<line x1=\"{1:.1f}\" y1=\"{3:.1f}\" x2=\"{1:.1f}\" y2=\"{4:.1f}\" class=\"ci\"/>",
        x0, x1, ym, y + 3, y + 17);
    // The figures in a column of their own, right of the plot, level with the bar.
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"value\">{:.3f} [{:.3f}, {:.3f}]</text>\n",
                       left + width + 12, y + 14, p, ci.low, ci.high);
  }
  return svg + "</svg>\n";
}

/// A count for an axis label: as it is below a million, else in three digits and a suffix
/// (1.23M, 160G), so that it fits the chart's margin.
std::string compact_count(std::uint64_t v) {
  if (v < 1'000'000) return std::to_string(v);
  constexpr std::pair<double, const char*> kScales[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}};
  // A count that rounds up to the next scale is written in it: 999,999,999 is 1G, not 1e+03M.
  for (const auto& [scale, suffix] : kScales)
    if (double(v) >= scale * 0.9995) return fmt::format("{:.3g}{}", double(v) / scale, suffix);
  return std::to_string(v);
}

/// The axes of a histogram chart: its bins (values 0 .. bins - 1) and the count at the top.
struct HistogramAxes {
  std::size_t bins = 1;
  std::uint64_t peak = 1;
};

/// Axes that hold every histogram given: the paired histograms of one figure share them, so
/// that side A's and side B's charts compare by eye.
HistogramAxes axes_for(std::initializer_list<const std::vector<std::uint64_t>*> histograms) {
  HistogramAxes axes;
  for (const std::vector<std::uint64_t>* h : histograms) {
    axes.bins = std::max(axes.bins, h->size());
    for (std::uint64_t c : *h) axes.peak = std::max(axes.peak, c);
  }
  return axes;
}

/// A bar chart of a histogram (value -> battles) on `axes`.
std::string histogram_svg(const std::vector<std::uint64_t>& h, const HistogramAxes& axes,
                          std::string_view what, std::string_view css) {
  const double left = 50, width = 520, top = 10, plot_h = 180;
  const std::uint64_t peak = std::max<std::uint64_t>(axes.peak, 1);
  const std::size_t n = std::max<std::size_t>(axes.bins, 1);
  const double bar_w = width / double(n);
  std::string svg = fmt::format(
      "<svg width=\"600\" height=\"230\" role=\"img\" "
      "aria-label=\"histogram of {}\">\n",
      escape(what));
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"axis\"/>", left, top,
                     top + plot_h);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>\n", left,
                     top + plot_h, left + width);
  svg +=
      fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>", left - 6, top + 8, compact_count(peak));
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

/// What a rule set's `turns` and `hp_left` count (docs/simulation.md, "What a battle counts as,
/// per rule set"): the charts' titles, and the name of the value on their axes.
struct Measures {
  std::string_view turns_title, turns_axis, hp_title, hp_axis;
};

Measures measures(std::string_view rules) {
  // clash: seat 0's health, when it ended first alone (a shared first place is not a win).
  if (rules == "clash")
    return {"Rounds per battle", "rounds", "Seat 0's health at the end (0 unless seat 0 won)",
            "seat 0's health"};
  // party: the members' HP summed, when the party won (a defeat or a flight counts 0).
  if (rules == "party")
    return {"Main turns begun per battle", "main turns",
            "The party's HP left at the end, summed over its members (0 unless won: lost or fled)",
            "party HP left"};
  if (rules == "deckbuilder")
    return {"Player turns per battle", "player turns", "The player's HP left at the end (0: lost)",
            "HP left"};
  return {"Turns per battle", "turns", "HP left at the end (0 unless won)", "HP left"};
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
  for (const auto& item : r.settings.items()) row(item.key(), setting_text(item.value()));
  const bool paired = !r.versus_policy.empty();
  const Measures m = measures(r.rules);
  // One side's rows, named "A: ..." and "B: ..." in a paired run, the turns and HP left by what
  // the rule set counts.
  const auto side_rows = [&](const Tally& s, std::string_view side) {
    const auto key = [&](std::string_view k) {
      return paired ? fmt::format("{}: {}", side, k) : std::string(k);
    };
    const Interval ci = wilson_interval(s.wins, s.played());
    // The rate is over the battles played to their end: say so when some failed.
    const std::string over =
        s.failures.empty()
            ? ""
            : fmt::format(", over the {} of {} battles played to their end (failed ones left out)",
                          s.played(), s.battles);
    row(key("wins"),
        fmt::format("{} ({:.4f}, 95% CI {:.4f} .. {:.4f}){}", s.wins, s.win_rate(), ci.low, ci.high, over));
    row(key(m.turns_axis), fmt::format("mean {:.3f}, p10 {}, median {}, p90 {}", s.mean_turns(),
                                       percentile(s.turns_histogram, 10), percentile(s.turns_histogram, 50),
                                       percentile(s.turns_histogram, 90)));
    // Two populations: the mean is over the battles won (mean_hp_left_on_wins), the percentiles
    // over every battle played, a battle not won counting 0 (the hp_left distribution).
    row(key(m.hp_axis),
        fmt::format("mean on wins {}; over all battles played (0 unless won): p10 {}, median {}, p90 {}",
                    s.wins ? fmt::format("{:.3f}", ratio(s.hp_left_on_wins, s.wins)) : "n/a (no wins)",
                    percentile(s.hp_left_histogram, 10), percentile(s.hp_left_histogram, 50),
                    percentile(s.hp_left_histogram, 90)));
    row(key("decisions"), fmt::format("{} ({:.3f} per battle)", s.decisions, s.mean_decisions()));
    for (std::size_t c = 0; c < s.counters.size(); ++c)
      row(key(c < r.counter_names.size() ? r.counter_names[c] : "?"),
          fmt::format("{} ({:.3f} per battle)", s.counters[c], ratio(s.counters[c], s.played())));
  };
  side_rows(r, "A");
  if (paired) side_rows(r.versus, "B");
  if (paired) {
    const PairedTest p = paired_test(r.paired);
    row("difference A - B", fmt::format("{:+.4f}, paired 95% CI {}", p.difference,
                                        paired_interval_text(p.ci_low, p.ci_high, r.paired.n())));
    row("McNemar", fmt::format("chi2 {:.3f}, p = {:.4g} (only A won {}, only B won {})", p.mcnemar_chi2,
                               p.p_value, r.paired.only_a_won, r.paired.only_b_won));
    row("HP left A - B", fmt::format("{:+.4f} (0 when lost), paired 95% CI {}", p.hp_difference,
                                     paired_interval_text(p.hp_ci_low, p.hp_ci_high, r.paired.n())));
  }
  row("errors", std::to_string(r.failures.size() + r.versus.failures.size()));
  return t + "</table>\n";
}

std::string card_table(const SimReport& r) {
  // A paired run shows both sides per card (a card one pack adds has plays on side B only).
  const bool paired = !r.versus_policy.empty();
  std::string t = "<table class=\"data\"><thead><tr><th>card</th>";
  t += paired ? "<th class=\"num\">A: plays per battle</th><th class=\"num\">A: win rate when played</th>"
                "<th class=\"num\">B: plays per battle</th><th class=\"num\">B: win rate when played</th>"
              : "<th class=\"num\">plays</th><th class=\"num\">plays per battle</th>"
                "<th class=\"num\">battles played</th><th class=\"num\">win rate when played</th>";
  t += "</tr></thead><tbody>\n";
  for (const ShownCard& shown : shown_cards(r)) {
    const CardTally& a = *shown.a;
    const CardTally& b = *shown.b;
    const std::string id = escape(shown.row < r.card_ids.size() ? r.card_ids[shown.row] : "?");
    if (paired)
      t += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{:.4f}</td>"
          "<td class=\"num\">{:.3f}</td><td class=\"num\">{:.4f}</td></tr>\n",
          id, ratio(a.plays, r.played()), ratio(a.wins_when_played, a.battles_played),
          ratio(b.plays, r.versus.played()), ratio(b.wins_when_played, b.battles_played));
    else
      t += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{:.4f}</td></tr>\n",
          id, a.plays, ratio(a.plays, r.played()), a.battles_played,
          ratio(a.wins_when_played, a.battles_played));
  }
  return t + "</tbody></table>\n";
}

std::string seat_table(const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  std::string t = fmt::format(
      "<table class=\"data\"><thead><tr>{}<th class=\"num\">seat</th><th>name</th><th>kind</th>"
      "<th>policy</th><th class=\"num\">wins</th><th class=\"num\">win rate</th>"
      "<th class=\"num\">mean place</th></tr></thead><tbody>\n",
      paired ? "<th>side</th>" : "");
  auto at = [](const std::vector<std::string>& v, std::size_t i) { return i < v.size() ? v[i] : ""; };
  const auto rows = [&](const Tally& side, const std::string& run_policy, std::string_view name) {
    for (std::size_t s = 0; s < side.seats.size(); ++s) {
      const std::string policy = at(r.seat_policies, s).empty() ? run_policy : at(r.seat_policies, s);
      t += fmt::format(
          "<tr>{}<td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{:.4f}</td><td class=\"num\">{:.3f}</td></tr>\n",
          paired ? fmt::format("<td>{}</td>", name) : "", s, escape(at(r.seat_names, s)),
          escape(at(r.seat_kinds, s)), escape(policy), side.seats[s].wins,
          ratio(side.seats[s].wins, side.played()), ratio(side.seats[s].place_sum, side.played()));
    }
  };
  rows(r, r.policy, "A");
  if (paired) rows(r.versus, r.versus_policy, "B");
  return t + "</tbody></table>\n";
}

std::string enemy_table(const SimReport& r) {
  // A paired run shows both sides per enemy (an enemy one pack adds fights on side B only).
  const bool paired = !r.versus_policy.empty();
  std::string t = "<table class=\"data\"><thead><tr><th>enemy</th>";
  t += paired ? "<th class=\"num\">A: battles</th><th class=\"num\">A: damage per battle</th>"
                "<th class=\"num\">A: armor broken</th><th class=\"num\">B: battles</th>"
                "<th class=\"num\">B: damage per battle</th><th class=\"num\">B: armor broken</th>"
              : "<th class=\"num\">battles</th><th class=\"num\">damage dealt</th>"
                "<th class=\"num\">damage per battle</th><th class=\"num\">armor broken</th>";
  t += "</tr></thead><tbody>\n";
  for (const ShownEnemy& shown : shown_enemies(r)) {
    const EnemyTally& a = *shown.a;
    const EnemyTally& b = *shown.b;
    const std::string id = escape(shown.row < r.enemy_ids.size() ? r.enemy_ids[shown.row] : "?");
    if (paired)
      t += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{}</td><td class=\"num\">{:.3f}</td><td class=\"num\">{}</td></tr>\n",
          id, a.battles, ratio(a.damage_dealt, a.battles), a.armor_removed, b.battles,
          ratio(b.damage_dealt, b.battles), b.armor_removed);
    else
      t += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3f}</td>"
          "<td class=\"num\">{}</td></tr>\n",
          id, a.battles, a.damage_dealt, ratio(a.damage_dealt, a.battles), a.armor_removed);
  }
  t += "</tbody></table>\n";
  if (!r.enemy_damage_counted) t += "<p>Enemy damage was not counted in this run (--no-enemy-damage).</p>\n";
  return t;
}

/// The battles that hit an engine error: each with its seed, where it was raised (by the last
/// action, while the policy chose after it, or as the battle started, before any action) and
/// the actions submitted (the rule set's action JSON), from which it can be replayed.
std::string error_table(const SimReport& r) {
  const bool paired = !r.versus_policy.empty();
  std::string t = fmt::format(
      "<table class=\"data errors\"><thead><tr>{}<th class=\"num\">battle</th>"
      "<th class=\"num\">battle seed</th><th>policy</th><th>raised</th><th>message</th>"
      "<th>actions</th></tr></thead><tbody>\n",
      paired ? "<th>side</th>" : "");
  for (const auto& [side, tally] : {std::pair{"A", static_cast<const Tally*>(&r)}, std::pair{"B", &r.versus}})
    for (const SimFailure& f : tally->failures)
      t += fmt::format(
          "<tr>{}<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>"
          "<td class=\"long\">{}</td><td "
          "class=\"long\"><details><summary>{}</summary><pre>{}</pre></details></td></tr>\n",
          paired ? fmt::format("<td>{}</td>", side) : "", f.index, f.battle_seed, escape(f.policy),
          f.while_choosing    ? "while the policy chose"
          : f.actions.empty() ? "as the battle started"
                              : "by the last action",
          escape(f.message), f.actions.size(), escape(f.actions.dump()));
  return t + "</tbody></table>\n";
}

constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1100px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-size: 13px; }
th.num, td.num { text-align: right; }
table.errors td { vertical-align: top; } table.errors td.long { overflow-wrap: anywhere; }
table.errors pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
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
  page += "<h2>Win rate (bar) with its 95% Wilson interval (whiskers)</h2>\n";
  const std::size_t failed = r.failures.size() + r.versus.failures.size();
  if (failed != 0)
    page += fmt::format(
        "<p>Over the battles played to their end: the {} battle(s) that failed with an engine error are "
        "neither wins nor losses, and are left out of every rate, mean and chart (see Engine errors).</p>\n",
        failed);
  page += win_rate_svg(r);
  // The histograms of each side; a paired run draws side B's after side A's, on the same axes.
  const bool paired = !r.versus_policy.empty();
  const Measures m = measures(r.rules);
  const HistogramAxes turns_axes =
      paired ? axes_for({&r.turns_histogram, &r.versus.turns_histogram}) : axes_for({&r.turns_histogram});
  const HistogramAxes hp_axes = paired ? axes_for({&r.hp_left_histogram, &r.versus.hp_left_histogram})
                                       : axes_for({&r.hp_left_histogram});
  const auto histograms = [&](const Tally& side, std::string_view name) {
    const std::string suffix = paired ? fmt::format(", side {}", name) : "";
    page += fmt::format("<div><h2>{}{}</h2>\n", escape(m.turns_title), suffix) +
            histogram_svg(side.turns_histogram, turns_axes, m.turns_axis, "turns") + "</div>\n";
    page += fmt::format("<div><h2>{}{}</h2>\n", escape(m.hp_title), suffix) +
            histogram_svg(side.hp_left_histogram, hp_axes, m.hp_axis, "hp") + "</div>\n";
  };
  page += "<div class=\"charts\">\n";
  histograms(r, "A");
  if (paired) histograms(r.versus, "B");
  page += "</div>\n";
  if (!r.seats.empty()) page += "<h2>Seats</h2>\n" + seat_table(r);
  if (!r.cards.empty()) page += "<h2>Cards</h2>\n" + card_table(r);
  if (!r.enemies.empty()) page += "<h2>Enemies</h2>\n" + enemy_table(r);
  if (!r.failures.empty() || !r.versus.failures.empty()) page += "<h2>Engine errors</h2>\n" + error_table(r);
  return page + "</body></html>\n";
}

}  // namespace battlecore::sim
