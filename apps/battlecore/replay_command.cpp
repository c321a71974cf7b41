// What every rule set shares for `battlecore replay`: finding the rule set of a replay file, and
// the answer of a rule set that does not replay yet.

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "battlecore/sim/replay.hpp"
#include "commands.hpp"

namespace battlecore::cli {

int RuleSetCommands::replay(const Options&, Io io) {
  io.err << "battlecore: the " << name() << " rule set does not replay battles yet\n";
  return kUsageError;
}

std::optional<std::string> replay_rule_set(const std::string& path,
                                           const std::vector<std::string>& rule_names, std::ostream& err) {
  const std::vector<std::string_view> names(rule_names.begin(), rule_names.end());
  auto rules = sim::replay_rules(path, names);
  if (rules) return rules.value();
  err << rules.error().to_string();
  // A file that could not be read at all (missing, a directory, not permitted) is not malformed:
  // the line above says why.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || !std::ifstream(path).is_open())
    err << fmt::format("battlecore: could not read replay {}\n", path);
  else
    err << fmt::format("battlecore: malformed replay {}: {} problem(s)\n", path, rules.error().size());
  return std::nullopt;
}

}  // namespace battlecore::cli
