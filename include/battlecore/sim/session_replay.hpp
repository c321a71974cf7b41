#pragma once
/// `battlecore play --record FILE` for any rule set (docs/determinism.md#recording), generic over
/// a rule-set adapter R (battlecore/sim/deckbuilder_rules.hpp, clash_rules.hpp).

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/invariant.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::sim {

/// Writes the replay of a terminal session's battle to `path` when one is asked for
/// (`play --record FILE`): `code`; 3 when the file cannot be written (output lost, as for
/// standard output or `sim --report`), 2 when the battle's actions do not record.
template <class R>
int write_session_replay(const std::shared_ptr<const typename R::Catalog>& catalog, const BattleStart& start,
                         const typename R::Battle& battle, const std::string& path, int code,
                         std::ostream& out, std::ostream& err) {
  if (path.empty()) return code;
  auto replay = record_replay<R>(catalog, start, battle.actions());
  if (!replay) {
    err << "battlecore: " << replay.error().message << "\n";
    return 2;
  }
  if (auto written = write_replay(path, replay.value()); !written) {
    err << "battlecore: " << written.error().message << "\n";
    return 3;
  }
  out << fmt::format("replay written to {}\n", path);
  return code;
}

/// How a command that cannot go on reports an engine error: after what it printed so far.
inline void report_engine_error(std::ostream& out, std::ostream& err, const InvariantError& e) {
  out.flush();
  err << "\nbattlecore: engine error, the battle cannot go on: " << e.what() << "\n";
}

/// Runs a terminal session, `play()` giving its exit code, then writes its replay as
/// write_session_replay does. An engine error ends the session with its message on `err` and
/// code 1; the replay then ends with the action that raised it, and names the error
/// (`engine_error`), so that `battlecore replay` reproduces it.
template <class R, class Play>
int run_recorded_session(const std::shared_ptr<const typename R::Catalog>& catalog, const BattleStart& start,
                         const typename R::Battle& battle, const std::string& path, std::ostream& out,
                         std::ostream& err, Play play) {
  int code = 0;
  try {
    code = play();
  } catch (const InvariantError& e) {
    report_engine_error(out, err, e);
    code = 1;
  }
  return write_session_replay<R>(catalog, start, battle, path, code, out, err);
}

}  // namespace battlecore::sim
