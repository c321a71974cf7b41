#pragma once
/// The command line's view of a rule set: each rule set implements these commands in its own
/// file (`<rules>_commands.cpp`) and main.cpp lists it once in `rule_sets()`.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace battlecore::cli {

/// Exit codes shared by every command.
inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;     ///< a run that found a failure (engine error, divergence)
inline constexpr int kUsageError = 2;  ///< bad arguments or bad content

/// Everything the subcommands parse; a command reads the fields it needs.
struct Options {
  std::string rules;
  std::string format = "dot";  ///< graph: dot or mermaid
  std::string content;         ///< pack directory or file; empty: the bundled pack
  std::string encounter;       ///< empty: the pack's default
  std::string policy = "random";
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  bool json = false;
};

/// The streams a command writes to (and reads from, for play).
struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

/// One rule set's commands. Each returns an exit code.
class RuleSetCommands {
 public:
  virtual ~RuleSetCommands() = default;
  virtual std::string_view name() const = 0;
  /// The policy names `sim --policy` accepts.
  virtual std::vector<std::string> policies() const = 0;
  virtual int graph(const Options& options, Io io) = 0;
  virtual int validate(const Options& options, Io io) = 0;
  virtual int list(const Options& options, Io io) = 0;
  virtual int sim(const Options& options, Io io) = 0;
  virtual int play(const Options& options, Io io) = 0;
};

std::unique_ptr<RuleSetCommands> make_deckbuilder_commands();
std::unique_ptr<RuleSetCommands> make_clash_commands();

}  // namespace battlecore::cli
