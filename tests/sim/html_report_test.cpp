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
  EXPECT_NE(html.find("<h2>Turns per battle, side B</h2>"), std::string::npos);
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
  const std::string html = render_html(r);
  const Interval a = wilson_interval(r.wins, 300), b = wilson_interval(r.versus.wins, 300);
  EXPECT_NE(html.find(fmt::format("{:.3f} [{:.3f}, {:.3f}]", double(r.wins) / 300, a.low, a.high)),
            std::string::npos)
      << html;
  EXPECT_NE(html.find(fmt::format("{:.3f} [{:.3f}, {:.3f}]", double(r.versus.wins) / 300, b.low, b.high)),
            std::string::npos);
  EXPECT_NE(
      html.find(
          "<tr><td>A</td><td>300</td><td>77</td><td>random</td><td>by an action</td>"
          "<td>engine &lt;broke&gt;</td><td><details><summary>1</summary><pre>[&quot;end_turn&quot;]</pre>"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><td>B</td><td>300</td><td>77</td><td>greedy</td><td>while the policy chose</td>"
                      "<td>also broke</td>"),
            std::string::npos);
}

// Pack B's W1 meets an enemy pack A does not have: it has a row, with side A's battles at 0.
TEST(SimHtmlReport, APairedEnemyTableShowsAnEnemyOnlyPackBHas) {
  const auto r = simulate_deckbuilder(test::starter(), SimConfig{"w1", 60, 5, "random"},
                                      test::starter_with_gnasher_again());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string html = render_html(r.value());
  EXPECT_TRUE(
      std::regex_search(html, std::regex("<tr><td>gnasher</td><td>60</td><td>[0-9.]+</td><td>[0-9]+</td>"
                                         "<td>0</td><td>0\\.000</td><td>0</td></tr>")))
      << html;
  EXPECT_TRUE(
      std::regex_search(html, std::regex("<tr><td>gnasher_again</td><td>0</td><td>0\\.000</td><td>0</td>"
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
  EXPECT_NE(html.find("<th>B: plays per battle</th>"), std::string::npos);
  const std::regex row("<tr><td>strike_again</td><td>0\\.000</td><td>0\\.0000</td><td>[1-9][0-9.]*</td>");
  EXPECT_TRUE(std::regex_search(html, row)) << html;
  // Unpaired: the one-side table.
  const auto alone = simulate_deckbuilder(test::starter(), SimConfig{"w1", 50, 5, "random"});
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(render_html(alone.value()).find("B: plays"), std::string::npos);
  EXPECT_NE(render_html(alone.value()).find("<th>battles played</th>"), std::string::npos);
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

// Renders the page in headless Chromium (Debian's `chromium`, offline) and keeps the screenshot
// in the test's output folder.
TEST(SimHtmlReport, RendersInHeadlessChromium) {
  const fs::path chromium = "/usr/bin/chromium";
  if (!fs::exists(chromium))
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  const fs::path out_dir = BATTLECORE_TEST_OUTPUT_DIR;
  fs::create_directories(out_dir);
  const fs::path page = out_dir / "report.html", shot = out_dir / "report.png";
  fs::remove(shot);
  std::ofstream(page, std::ios::binary) << render_html(sample_report());
  test::TempDir profile("battlecore-chromium");
  const std::string command = chromium.string() +
                              " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                              " --disable-background-networking --disable-component-update --disable-sync"
                              " --user-data-dir='" +
                              profile.path().string() + "' --screenshot='" + shot.string() +
                              "' --window-size=1200,1600 'file://" + page.string() + "' >'" +
                              (out_dir / "chromium.log").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
  ASSERT_TRUE(fs::exists(shot)) << "no screenshot; see " << (out_dir / "chromium.log");
  const auto [w, h] = png_size(shot);
  EXPECT_EQ(w, 1200u);
  EXPECT_EQ(h, 1600u);
  EXPECT_GT(fs::file_size(shot), 20000u) << "the screenshot looks blank";
}

}  // namespace
}  // namespace battlecore::sim
