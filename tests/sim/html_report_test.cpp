#include "battlecore/sim/html_report.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "battlecore/sim/simulate.hpp"
#include "support/clash_pack.hpp"
#include "support/starter_pack.hpp"
#include "support/temp_dir.hpp"

namespace battlecore::sim {
namespace {

namespace fs = std::filesystem;

SimReport sample_report() {
  SimConfig config{"w1", 300, 8, "random"};
  config.versus_policy = "greedy";
  auto r = simulate_deckbuilder(test::starter(), config);
  EXPECT_TRUE(r.ok());
  return r.ok() ? r.value() : SimReport{};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SimHtmlReport, HasThePlotsAndTablesAndNothingFromTheNetwork) {
  const SimReport r = sample_report();
  const std::string html = render_html(r);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<svg"), 5u);  // win rate; turns and HP left of each side
  EXPECT_NE(html.find("95% Wilson interval"), std::string::npos);
  EXPECT_NE(html.find("<h2>Cards</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Enemies</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td>gnasher</td>"), std::string::npos);
  EXPECT_NE(html.find("greedy"), std::string::npos);
  EXPECT_NE(html.find("McNemar"), std::string::npos);
  // Self-contained: no scripts, links, images or anything with an address.
  for (const char* banned : {"http:", "https:", "<script", "<link", "<img", "<iframe", "@import", "url("})
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  // One bar per non-empty histogram bin of turns, on each side.
  std::size_t bins = 0;
  for (auto c : r.turns_histogram) bins += c > 0;
  for (auto c : r.versus.turns_histogram) bins += c > 0;
  EXPECT_EQ(count(html, "class=\"turns\""), bins);
  // Each side's own figures, named by side.
  EXPECT_NE(html.find(fmt::format("<th>A: decisions</th><td>{} (", r.decisions)), std::string::npos);
  EXPECT_NE(html.find(fmt::format("<th>B: decisions</th><td>{} (", r.versus.decisions)), std::string::npos);
  EXPECT_NE(html.find("<h2>Player turns per battle, side B</h2>"), std::string::npos);
}

// The win rate's bars and whiskers are over the battles played to their end, as everywhere else
// in the report: a failed battle is neither a win nor a loss. The error table names each failed
// battle's side and holds the actions it was replayed from.
TEST(SimHtmlReport, RatesLeaveFailedBattlesOutAndErrorsCarryTheirSideAndActions) {
  SimReport r = sample_report();
  ASSERT_EQ(r.battles, 300u);
  r.battles = r.versus.battles = 301;
  r.failures.push_back(SimFailure{300, 77, "engine <broke>", "random", nlohmann::json::array({"end_turn"})});
  r.versus.failures.push_back(SimFailure{300, 77, "also broke", "greedy", nlohmann::json::array(), true});
  r.battles = r.versus.battles = 302;  // and one that broke as it started, before any action
  r.failures.push_back(SimFailure{301, 78, "no start", "random", nlohmann::json::array()});
  r.versus.failures.push_back(SimFailure{301, 78, "no start", "greedy", nlohmann::json::array()});
  const std::string html = render_html(r);
  const Interval a = wilson_interval(r.wins, 300), b = wilson_interval(r.versus.wins, 300);
  EXPECT_NE(html.find(fmt::format("{:.3f} [{:.3f}, {:.3f}]", double(r.wins) / 300, a.low, a.high)),
            std::string::npos)
      << html;
  EXPECT_NE(html.find(fmt::format("{:.3f} [{:.3f}, {:.3f}]", double(r.versus.wins) / 300, b.low, b.high)),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>A</td><td class=\"num\">300</td><td class=\"num\">77</td><td>random</td>"
                      "<td>by the last action</td><td class=\"long\">engine &lt;broke&gt;</td><td "
                      "class=\"long\"><details>"
                      "<summary>1</summary><pre>[&quot;end_turn&quot;]</pre>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><td>B</td><td class=\"num\">300</td><td class=\"num\">77</td><td>greedy</td>"
                      "<td>while the policy chose</td><td class=\"long\">also broke</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>random</td><td>as the battle started</td><td class=\"long\">no start</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<th>actions</th></tr>"), std::string::npos);
}

// Pack B's W1 meets an enemy pack A does not have: it has a row, with side A's battles at 0.
TEST(SimHtmlReport, APairedEnemyTableShowsAnEnemyOnlyPackBHas) {
  const auto r = simulate_deckbuilder(test::starter(), SimConfig{"w1", 60, 5, "random"},
                                      test::starter_with_gnasher_again());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string html = render_html(r.value());
  // The numbers as the cells hold them, without their class.
  const std::string cells = std::regex_replace(html, std::regex("<td class=\"num\">"), "<td>");
  EXPECT_TRUE(
      std::regex_search(cells, std::regex("<tr><td>gnasher</td><td>60</td><td>[0-9.]+</td><td>[0-9]+</td>"
                                          "<td>0</td><td>0\\.000</td><td>0</td></tr>")))
      << html;
  EXPECT_TRUE(
      std::regex_search(cells, std::regex("<tr><td>gnasher_again</td><td>0</td><td>0\\.000</td><td>0</td>"
                                          "<td>60</td><td>[1-9][0-9.]*</td><td>[0-9]+</td></tr>")))
      << html;
}

// A histogram's peak count is written so that it fits the margin: three digits and a suffix.
TEST(SimHtmlReport, ALargeHistogramPeakIsWrittenShort) {
  SimReport r;
  r.rules = "deckbuilder";
  r.battles = 12'345'678'901;
  r.turns_histogram = {0, 2'345'678'901, 10'000'000'000};
  r.hp_left_histogram = {999'999'999, 999'499'999};
  const std::string html = render_html(r);
  EXPECT_NE(html.find("class=\"tick\">10G</text>"), std::string::npos) << html;
  EXPECT_NE(html.find("class=\"tick\">1G</text>"), std::string::npos) << html;
  EXPECT_EQ(html.find("e+"), std::string::npos);
}

// A paired run's card table has both sides; a card only side B's pack has is a row of its own,
// with side A's plays at 0.
TEST(SimHtmlReport, APairedCardTableShowsBothSidesAndACardOnlyPackBHas) {
  const auto more_cards = test::starter_with_strike_again();
  const auto r = simulate_deckbuilder(test::starter(), SimConfig{"w1", 200, 5, "random"}, more_cards);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string html = render_html(r.value());
  EXPECT_NE(html.find("<th class=\"num\">B: plays per battle</th>"), std::string::npos);
  const std::regex row(
      "<tr><td>strike_again</td><td class=\"num\">0\\.000</td><td class=\"num\">0\\.0000</td>"
      "<td class=\"num\">[1-9][0-9.]*</td>");
  EXPECT_TRUE(std::regex_search(html, row)) << html;
  // Unpaired: the one-side table.
  const auto alone = simulate_deckbuilder(test::starter(), SimConfig{"w1", 50, 5, "random"});
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(render_html(alone.value()).find("B: plays"), std::string::npos);
  EXPECT_NE(render_html(alone.value()).find("<th class=\"num\">battles played</th>"), std::string::npos);
}

TEST(SimHtmlReport, AClashReportShowsEverySeatAndTheCountersAndNoEmptyTables) {
  SimConfig config{"trio", 100, 3, "greedy"};
  auto r = simulate_clash(test::classic(), config);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string html = render_html(r.value());
  EXPECT_NE(html.find("<h2>Seats</h2>"), std::string::npos);
  for (const std::string& name : r.value().seat_names)
    EXPECT_NE(html.find("<td>" + name + "</td>"), std::string::npos) << name;
  EXPECT_NE(html.find("shared_first"), std::string::npos);
  // A bar per seat, each with its interval.
  for (std::size_t seat = 0; seat < r.value().seats.size(); ++seat)
    EXPECT_NE(html.find(fmt::format(">seat {}</text>", seat)), std::string::npos) << seat;
  EXPECT_EQ(html.find("<h2>Cards</h2>"), std::string::npos);
  EXPECT_EQ(html.find("<h2>Enemies</h2>"), std::string::npos);
}

/// The page's SVG charts, in page order: the win rate, then each side's turns and HP left.
std::vector<std::string> svgs(const std::string& html) {
  std::vector<std::string> out;
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
    out.push_back(html.substr(at, html.find("</svg>", at) - at));
  return out;
}

/// The text of every axis label of a chart ("tick" and "xtick"), in order.
std::vector<std::string> axis_labels(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex label("class=\"x?tick\">([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

/// The `<tr>` row of the summary table with the key `key`.
std::string summary_row(const std::string& html, const std::string& key) {
  const auto at = html.find("<tr><th>" + key + "</th>");
  return at == std::string::npos ? "" : html.substr(at, html.find("</tr>", at) - at);
}

/// A report of `rules` with `battles` battles, all played, and the histograms given.
SimReport made_report(std::string rules, std::vector<std::uint64_t> turns, std::vector<std::uint64_t> hp) {
  SimReport r;
  r.rules = std::move(rules);
  r.encounter = "e";
  r.policy = "random";
  r.turns_histogram = std::move(turns);
  r.hp_left_histogram = std::move(hp);
  for (std::uint64_t c : r.hp_left_histogram) r.battles += c;
  return r;
}

// An engine error's message and its actions can be one long line with no space: they wrap in
// their cells (the actions' <pre> too), so the table keeps to the page's width.
TEST(SimHtmlReport, LongErrorContentWrapsInItsCells) {
  SimReport r = made_report("deckbuilder", {0, 1}, {1});
  r.battles = 2;
  r.failures.push_back(
      SimFailure{1, 9, std::string(300, 'm'), "random", nlohmann::json::array({"end_turn", "end_turn"})});
  const std::string html = render_html(r);
  EXPECT_NE(html.find("<table class=\"data errors\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"long\">" + std::string(300, 'm') + "</td><td class=\"long\"><details>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("table.errors td.long { overflow-wrap: anywhere; }"), std::string::npos);
  EXPECT_NE(html.find("table.errors pre { white-space: pre-wrap; overflow-wrap: anywhere;"),
            std::string::npos);
}

// The win rate's axis labels are centred on their gridlines (x = the gridline's x).
TEST(SimHtmlReport, WinRateAxisLabelsAreCentredOnTheirGridlines) {
  const std::vector<std::string> charts = svgs(render_html(made_report("deckbuilder", {0, 1}, {1})));
  ASSERT_EQ(charts.size(), 3u);
  const std::string& win_rate = charts[0];
  EXPECT_EQ(count(win_rate, "class=\"xtick\""), 11u) << win_rate;
  EXPECT_EQ(count(win_rate, "class=\"tick\""), 0u) << win_rate;
  EXPECT_NE(win_rate.find("<text x=\"340.0\" y=\"14\" class=\"xtick\">0.5</text>"), std::string::npos)
      << win_rate;
}

// HP left: the mean is over the battles won ("n/a" without a win), the percentiles over every
// battle played, 0 unless won (the JSON's mean_hp_left_on_wins and hp_left), each named so.
TEST(SimHtmlReport, HpLeftNamesItsTwoPopulationsAndHasNoMeanWithoutAWin) {
  SimReport lost = made_report("deckbuilder", {0, 0, 3}, {3});
  EXPECT_EQ(summary_row(render_html(lost), "HP left"),
            "<tr><th>HP left</th><td>mean on wins n/a (no wins); over all battles played (0 unless won): "
            "p10 0, median 0, p90 0</td>");
  SimReport won = made_report("deckbuilder", {0, 0, 10}, {8, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  won.wins = 2;
  won.hp_left_on_wins = 7 + 12;
  EXPECT_EQ(summary_row(render_html(won), "HP left"),
            "<tr><th>HP left</th><td>mean on wins 9.500; over all battles played (0 unless won): "
            "p10 0, median 0, p90 7</td>");
}

// Each rule set's charts say what its `turns` and `hp_left` count (docs/simulation.md).
TEST(SimHtmlReport, ChartTitlesSayWhatEachRuleSetCounts) {
  const std::string clash = render_html(made_report("clash", {0, 1}, {1}));
  EXPECT_NE(clash.find("<h2>Rounds per battle</h2>"), std::string::npos) << clash;
  EXPECT_NE(clash.find("<h2>Seat 0's health at the end (0 unless seat 0 won)</h2>"), std::string::npos);
  EXPECT_NE(clash.find("class=\"xtick\">rounds</text>"), std::string::npos);
  const std::string party = render_html(made_report("party", {0, 1}, {1}));
  EXPECT_NE(party.find("<h2>Main turns begun per battle</h2>"), std::string::npos) << party;
  EXPECT_NE(party.find("<h2>The party's HP left at the end, summed over its members (0 unless won: lost or "
                       "fled)</h2>"),
            std::string::npos);
  // The summary's rows are named alike.
  EXPECT_NE(clash.find("<tr><th>rounds</th>"), std::string::npos) << clash;
  EXPECT_NE(party.find("<tr><th>main turns</th>"), std::string::npos) << party;
  EXPECT_NE(party.find("<tr><th>party HP left</th>"), std::string::npos) << party;
  for (const std::string* page : {&clash, &party}) {
    EXPECT_EQ(page->find("<tr><th>turns</th>"), std::string::npos);
    EXPECT_EQ(page->find("<tr><th>HP left</th>"), std::string::npos);
    EXPECT_EQ(page->find("Turns per battle"), std::string::npos);
    EXPECT_EQ(page->find("(0: lost)"), std::string::npos);
    EXPECT_EQ(page->find(">HP left</text>"), std::string::npos);
  }
  const std::string deckbuilder = render_html(made_report("deckbuilder", {0, 1}, {1}));
  EXPECT_NE(deckbuilder.find("<h2>Player turns per battle</h2>"), std::string::npos) << deckbuilder;
  EXPECT_NE(deckbuilder.find("<h2>The player's HP left at the end (0: lost)</h2>"), std::string::npos);
  EXPECT_NE(deckbuilder.find("<tr><th>player turns</th>"), std::string::npos);
  EXPECT_NE(deckbuilder.find("<tr><th>HP left</th>"), std::string::npos);
}

// A paired run's two histograms of one figure share their axes: the same bins, the same peak,
// so a bin of equal counts is drawn alike on both sides.
TEST(SimHtmlReport, PairedHistogramsShareTheirAxes) {
  SimReport r = made_report("deckbuilder", {0, 0, 0, 20, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {1, 0, 60});
  r.versus_policy = "greedy";
  static_cast<Tally&>(r.versus) =
      made_report("deckbuilder", {0, 0, 100, 20, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 61});
  r.versus.battles = r.battles;
  const std::vector<std::string> charts = svgs(render_html(r));
  ASSERT_EQ(charts.size(), 5u);  // the win rate; side A's turns and HP left; side B's
  EXPECT_EQ(axis_labels(charts[1]), axis_labels(charts[3]));
  EXPECT_EQ(axis_labels(charts[2]), axis_labels(charts[4]));
  EXPECT_NE(charts[1].find("class=\"tick\">100</text>"), std::string::npos) << charts[1];
  EXPECT_NE(charts[2].find("class=\"xtick\">8</text>"), std::string::npos) << charts[2];
  // Turns 3: 20 battles on each side, the same bar.
  const std::regex bar("<rect ([^>]*) class=\"turns\"><title>player turns 3: 20 battles</title>");
  std::smatch a, b;
  ASSERT_TRUE(std::regex_search(charts[1], a, bar)) << charts[1];
  ASSERT_TRUE(std::regex_search(charts[3], b, bar)) << charts[3];
  EXPECT_EQ(a[1], b[1]);
}

// Text columns are left-aligned: only the numeric cells (class "num") are right-aligned.
TEST(SimHtmlReport, OnlyNumericColumnsAreRightAligned) {
  SimReport r = made_report("clash", {0, 1}, {1});
  r.battles = 2;
  r.seat_names = {"You", "Bear"};
  r.seat_kinds = {"human", "bot"};
  r.seats = {{1, 1}, {0, 2}};
  r.failures.push_back(SimFailure{1, 9, "broke", "random", nlohmann::json::array({"end_turn"})});
  const std::string html = render_html(r);
  EXPECT_EQ(count(html, "text-align: right"), 1u) << html;
  EXPECT_NE(html.find("th.num, td.num { text-align: right; }"), std::string::npos);
  EXPECT_NE(
      html.find("<tr><td class=\"num\">0</td><td>You</td><td>human</td><td>random</td>"
                "<td class=\"num\">1</td><td class=\"num\">1.0000</td><td class=\"num\">1.000</td></tr>"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("<th class=\"num\">seat</th><th>name</th><th>kind</th><th>policy</th>"
                      "<th class=\"num\">wins</th>"),
            std::string::npos);
  EXPECT_NE(
      html.find(
          "<tr><td class=\"num\">1</td><td class=\"num\">9</td><td>random</td><td>by the last action</td>"
          "<td class=\"long\">broke</td>"),
      std::string::npos);
}

// A string setting is shown as it is, not as a JSON string; other values as JSON.
TEST(SimHtmlReport, SettingsShowAStringWithoutItsQuotes) {
  SimReport r = made_report("deckbuilder", {0, 1}, {1});
  r.settings = {{"deck", "defend*10"}, {"block_percent", 60}, {"flag", true}};
  const std::string html = render_html(r);
  EXPECT_NE(html.find("<tr><th>deck</th><td>defend*10</td></tr>"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><th>block_percent</th><td>60</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>flag</th><td>true</td></tr>"), std::string::npos);
  EXPECT_EQ(html.find("&quot;defend*10&quot;"), std::string::npos);
}

// With failed battles, the page says that the rates are over the battles played to their end;
// without, it says nothing of the kind.
TEST(SimHtmlReport, FailedBattlesAreSaidToBeLeftOutOfTheRates) {
  SimReport r = made_report("deckbuilder", {0, 1}, {0, 1});
  r.wins = 1;
  r.hp_left_on_wins = 1;
  EXPECT_EQ(render_html(r).find("played to their end"), std::string::npos);
  r.battles = 2;
  r.failures.push_back(SimFailure{1, 9, "broke", "random", nlohmann::json::array()});
  const std::string html = render_html(r);
  EXPECT_EQ(summary_row(html, "wins"),
            "<tr><th>wins</th><td>1 (1.0000, 95% CI 0.2065 .. 1.0000), over the 1 of 2 battles played to "
            "their end (failed ones left out)</td>");
  EXPECT_NE(html.find("<p>Over the battles played to their end: the 1 battle(s) that failed with an engine "
                      "error are neither wins nor losses, and are left out of every rate, mean and chart"),
            std::string::npos)
      << html;
}

TEST(SimHtmlReport, EscapesNames) {
  SimReport r;
  r.rules = "deckbuilder";
  r.encounter = "<b>&";
  r.policy = "random";
  const std::string html = render_html(r);
  EXPECT_EQ(html.find("<b>&"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;&amp;"), std::string::npos);
}

/// Reads the width and height from a PNG's IHDR chunk; {0, 0} when it is not a PNG.
std::pair<std::uint32_t, std::uint32_t> png_size(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char head[24] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  if (!in || head[1] != 'P' || head[2] != 'N' || head[3] != 'G') return {0, 0};
  auto be32 = [&](int at) {
    return (std::uint32_t(head[at]) << 24) | (std::uint32_t(head[at + 1]) << 16) |
           (std::uint32_t(head[at + 2]) << 8) | std::uint32_t(head[at + 3]);
  };
  return {be32(16), be32(20)};
}

const fs::path kChromium = "/usr/bin/chromium";

/// Runs headless Chromium (offline, with a profile of its own) on `page` with `options`; its
/// standard output goes to `out`, its standard error to `log`. Returns the command on failure,
/// "" on success.
std::string run_chromium(const std::string& options, const fs::path& page, const fs::path& out,
                         const fs::path& log) {
  test::TempDir profile("battlecore-chromium");
  const std::string command = kChromium.string() +
                              " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                              " --disable-background-networking --disable-component-update --disable-sync"
                              " --user-data-dir='" +
                              profile.path().string() + "' " + options + " 'file://" + page.string() +
                              "' >'" + out.string() + "' 2>'" + log.string() + "'";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : command;
}

// Renders the page in headless Chromium (Debian's `chromium`, offline) and keeps the screenshot
// in the test's output folder.
TEST(SimHtmlReport, RendersInHeadlessChromium) {
  if (!fs::exists(kChromium))
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  const fs::path out_dir = BATTLECORE_TEST_OUTPUT_DIR;
  fs::create_directories(out_dir);
  const fs::path page = out_dir / "report.html", shot = out_dir / "report.png";
  fs::remove(shot);
  std::ofstream(page, std::ios::binary) << render_html(sample_report());
  const std::string failed = run_chromium("--screenshot='" + shot.string() + "' --window-size=1200,1600",
                                          page, out_dir / "chromium.log", out_dir / "chromium.log");
  ASSERT_EQ(failed, "");
  ASSERT_TRUE(fs::exists(shot)) << "no screenshot; see " << (out_dir / "chromium.log");
  const auto [w, h] = png_size(shot);
  EXPECT_EQ(w, 1200u);
  EXPECT_EQ(h, 1600u);
  EXPECT_GT(fs::file_size(shot), 20000u) << "the screenshot looks blank";
}

// An engine error with a long message and many actions, the actions unfolded, keeps the page
// within a 1280-pixel window: Chromium lays it out, and a script added to the page for the test
// writes the widths into the DOM it dumps.
TEST(SimHtmlReport, AnErrorWithLongContentFitsTheWindowInHeadlessChromium) {
  if (!fs::exists(kChromium))
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  const fs::path out_dir = BATTLECORE_TEST_OUTPUT_DIR;
  fs::create_directories(out_dir);
  SimReport r = made_report("deckbuilder", {0, 1}, {1});
  r.battles = 2;
  nlohmann::json actions = nlohmann::json::array();
  for (int i = 0; i < 200; ++i) actions.push_back({{"type", "play_card"}, {"card", i % 10}, {"target", 0}});
  r.failures.push_back(SimFailure{1, 9, "invariant:" + std::string(400, 'x'), "random", actions});
  std::string html = render_html(r);
  html = std::regex_replace(html, std::regex("<details>"), "<details open>");
  html.insert(
      html.rfind("</body>"),
      "<script>document.body.setAttribute('data-widths', document.documentElement.scrollWidth + ' ' + "
      "document.documentElement.clientWidth)</script>");
  const fs::path page = out_dir / "long_error.html", dom = out_dir / "long_error.dom";
  std::ofstream(page, std::ios::binary) << html;
  const std::string failed =
      run_chromium("--dump-dom --window-size=1280,1000", page, dom, out_dir / "long_error.log");
  ASSERT_EQ(failed, "");
  std::ifstream in(dom);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::smatch widths;
  ASSERT_TRUE(std::regex_search(text, widths, std::regex("data-widths=\"([0-9]+) ([0-9]+)\""))) << text;
  const int scroll_width = std::stoi(widths[1]), client_width = std::stoi(widths[2]);
  EXPECT_GT(client_width, 1200);
  EXPECT_LE(scroll_width, client_width) << "the page is wider than the window: it scrolls sideways";
}

}  // namespace
}  // namespace battlecore::sim
