// What every rule set shares for `battlecore replay`: finding the rule set of a replay file, and
// the answer of a rule set that does not replay yet.

#include <ostream>

#include "battlecore/sim/replay.hpp"
#include "commands.hpp"

namespace battlecore::cli {

int RuleSetCommands::replay(const Options&, Io io) {
  io.err << "battlecore: the " << name() << " rule set does not replay battles yet\n";
  return kUsageError;
}

std::string replay_rules_or_error(const std::string& path, bool& ok) {
  auto rules = sim::replay_rules(path);
  ok = rules.ok();
  return ok ? rules.value() : rules.error().message;
}

}  // namespace battlecore::cli
