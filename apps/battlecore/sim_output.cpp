// What every rule set's `sim` shares: the progress bar, printing the report, the HTML file,
// and `report merge`.

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/sim/html_report.hpp"
#include "battlecore/sim/report.hpp"
#include "battlecore/sim/simulate.hpp"
#include "commands.hpp"

namespace battlecore::cli {

std::function<void(std::uint64_t, std::uint64_t, double)> terminal_progress(std::ostream& err) {
  if (&err != &std::cerr || ::isatty(STDERR_FILENO) == 0) return {};
  return [&err](std::uint64_t done, std::uint64_t total, double elapsed) {
    if (elapsed < 1.0 || total == 0) return;
    constexpr int kWidth = 40;
    const double f = double(done) / double(total);
    const int filled = static_cast<int>(f * kWidth);
    const double eta = done > 0 ? elapsed * (1.0 - f) / f : 0.0;
    err << fmt::format("\r[{}{}] {:5.1f}% {}/{} battles, {:.0f} s left ",
                       std::string(std::size_t(filled), '#'), std::string(std::size_t(kWidth - filled), ' '),
                       100.0 * f, done, total, eta)
        << std::flush;
    if (done >= total) err << "\n";
  };
}

namespace {

/// Ends the progress line (when one may have been drawn: the run took a second or more, or it
/// stopped with an error at a time not known) so that what follows starts on its own line.
void end_progress_line(Io io, double elapsed) {
  if (&io.err == &std::cerr && ::isatty(STDERR_FILENO) != 0 && elapsed >= 1.0)
    io.err << "\r\033[K" << std::flush;
}

}  // namespace

sim::SimConfig sim_config(const Options& options, Io io) {
  sim::SimConfig config{options.encounter, options.battles, options.seed, options.policy};
  config.versus_policy = options.versus_policy;
  config.deck = options.deck;
  config.versus_deck = options.versus_deck;
  config.threads = options.threads;
  std::tie(config.shard_index, config.shard_count) = options.shard;
  config.policy_options = {options.mcts_iterations, options.mcts_exploration};
  config.policy_options_given = options.mcts_options_given;
  config.count_enemy_damage = !options.no_enemy_damage;
  config.progress = terminal_progress(io.err);
  return config;
}

bool output_file_ok(std::string_view option, const std::string& path, Io io) {
  if (path.empty()) return true;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file(path);
  const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::string problem;
  if (fs::is_directory(file, ec))
    problem = "it is a directory";
  else if (!fs::exists(dir, ec))
    problem = fmt::format("there is no directory '{}'", dir.string());
  else if (!fs::is_directory(dir, ec))
    problem = fmt::format("'{}' is not a directory", dir.string());
  else if (::access(fs::exists(file, ec) ? file.c_str() : dir.c_str(), W_OK) != 0)
    problem = std::strerror(errno);
  if (problem.empty()) return true;
  io.err << fmt::format("battlecore: cannot write {} '{}': {}\n", option, path, problem);
  return false;
}

bool output_dir_ok(std::string_view option, const std::string& path, Io io) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec);
  std::string problem;
  if (ec) {
    problem = ec.message();
  } else {
    // The directory, or the nearest ancestor that exists: the one a file or a directory goes in.
    while (!fs::exists(dir, ec) && dir.has_relative_path()) dir = dir.parent_path();
    if (!fs::is_directory(dir, ec))
      problem = fmt::format("'{}' is not a directory", dir.string());
    else if (::access(dir.c_str(), W_OK | X_OK) != 0)
      problem = fmt::format("'{}': {}", dir.string(), std::strerror(errno));
  }
  if (problem.empty()) return true;
  io.err << fmt::format("battlecore: cannot write {} '{}': {}\n", option, path, problem);
  return false;
}

int finish_sim(const Options& options, const Result<sim::SimReport>& report, Io io, int stopped_status) {
  if (!report) {
    end_progress_line(io, std::numeric_limits<double>::infinity());
    io.err << "battlecore: " << report.error().message << "\n";
    return stopped_status;
  }
  return finish_sim(options, report.value(), io);
}

int finish_sim(const Options& options, const sim::SimReport& report, Io io) {
  end_progress_line(io, report.elapsed_s);
  if (options.json)
    io.out << report.to_json().dump() << "\n";
  else
    io.out << report.to_text();
  if (!options.report.empty()) {
    std::ofstream html(options.report, std::ios::binary);
    html << sim::render_html(report);
    html.flush();
    if (!html.good()) {
      io.err << "battlecore: could not write the HTML report to " << options.report << "\n";
      return kWriteError;
    }
  }
  return report.failures.empty() && report.versus.failures.empty() ? kOk : kFailure;
}

int report_merge(const Options& options, Io io) {
  std::vector<sim::SimReport> shards;
  for (const std::string& file : options.files) {
    auto report = sim::read_report(file);
    if (!report) {
      io.err << report.error().to_string();
      io.err << fmt::format("battlecore: {} problem(s) in {} (a sim --json report); nothing was merged\n",
                            report.error().size(), file);
      return kUsageError;
    }
    shards.push_back(std::move(report.value()));
  }
  auto merged = sim::merge_reports(shards, options.files);
  if (!merged) {
    io.err << "battlecore: " << merged.error().message << "\n";
    return kUsageError;
  }
  return finish_sim(options, merged.value(), io);
}

}  // namespace battlecore::cli
