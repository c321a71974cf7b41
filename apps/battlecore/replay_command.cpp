// What every rule set shares for `battlecore replay`: reading a replay file by the rule set it
// names, and the answer of a rule set that does not replay yet.

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "battlecore/sim/replay.hpp"
#include "commands.hpp"

namespace battlecore::cli {

int RuleSetCommands::replay(const Options&, Io io, const sim::ReplayFile&) {
  io.err << "battlecore: the " << name() << " rule set does not replay battles yet\n";
  return kUsageError;
}

std::optional<sim::ReplayFile> read_replay(const std::string& path,
                                           const std::vector<std::unique_ptr<RuleSetCommands>>& sets,
                                           std::ostream& err) {
  std::vector<sim::ReplayRuleSet> rule_sets;
  for (const auto& set : sets) rule_sets.push_back({set->name(), set->replay_action_check()});
  auto file = sim::read_replay_file(path, rule_sets);
  if (file) return std::move(file).value();
  err << file.error().to_string();
  // A file that could not be read at all (missing, a directory, not permitted) is not malformed:
  // the line above says why.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || !std::ifstream(path).is_open())
    err << fmt::format("battlecore: could not read replay {}\n", path);
  else
    err << fmt::format("battlecore: malformed replay {}: {} problem(s)\n", path, file.error().size());
  return std::nullopt;
}

}  // namespace battlecore::cli
