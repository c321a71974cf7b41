#include "battlecore/sim/play_session.hpp"

#include <istream>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/play_input.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/encounter.hpp"
#include "battlecore/sim/replay.hpp"
#include "battlecore/sim/session_replay.hpp"

namespace battlecore::sim {

namespace {

using namespace deckbuilder;

constexpr std::string_view kHelp =
    "commands:\n"
    "  N         take legal action number N\n"
    "  state     show the battle again\n"
    "  history   the phase transition history (sequence, turn, from, trigger, to)\n"
    "  log [N]   the last N events (default 20)\n"
    "  help      this text\n"
    "  quit      leave the battle\n";

void show(const Battle& battle, std::ostream& out) {
  out << render_text(battle);
  const Decision d = battle.decision();
  for (std::size_t i = 0; i < d.options.size(); ++i)
    out << fmt::format("  {}) {}\n", i, action_label(battle, d.options[i]));
}

/// The session's read-act loop, to the end of the battle or of the input: the exit code.
int play_turns(Battle& battle, PlayInput in, std::ostream& out) {
  show(battle, out);
  // What happens after each action (the enemies' moves, damage, statuses) is told before the
  // board is shown again; the battle's start is on the board already.
  std::size_t shown = battle.events().log().size();
  const auto events = [&] {
    print_new_events(battle.events().log(), shown, out,
                     [&](const Event& e) { return event_text(battle, e); });
  };
  while (battle.status() == Status::AwaitingDecision) {
    const Decision d = battle.decision();
    const PlayCommand command = read_play_command(in, out, {kHelp, "action", d.options.size(), {}});
    if (command.leaves()) return 0;
    if (answer_shown(
            command, battle, out, [&] { show(battle, out); }, "turn", 16,
            [&](const Event& e) { return event_to_json(e, battle.catalog()).dump(); }))
      continue;
    if (command.kind != PlayCommand::Kind::Option) continue;  // the deckbuilder has no commands of its own
    const std::size_t choice = command.number;
    out << "-> " << action_label(battle, d.options[choice]) << "\n";
    if (auto r = battle.submit(d.options[choice]); !r) {
      out << "refused: " << r.error().message << "\n";
      continue;
    }
    events();
    show(battle, out);
  }
  out << (battle.won()
              ? fmt::format("victory on turn {} with {} HP left\n", battle.turn(), battle.state().player.hp)
              : fmt::format("defeat on turn {}\n", battle.turn()));
  return 0;
}

}  // namespace

int play_deckbuilder(const std::shared_ptr<const Catalog>& catalog, const PlayConfig& config, PlayInput in,
                     std::ostream& out, std::ostream& err, const PlayRecording& recording) {
  auto found = resolve_encounter_id(*catalog, config.encounter, recording.scenario);
  if (!found) {
    err << "battlecore: " << found.error().message << "\n";
    return 2;
  }
  const std::string& encounter = found.value();
  const BattleStart start{encounter, config.seed, recording.scenario};
  auto started = DeckbuilderRules::start(catalog, start);
  if (!started) {
    err << "battlecore: " << started.error().message << "\n";
    return 2;
  }
  Battle& battle = started.value();
  out << fmt::format("battle '{}' with seed {}{} (type 'help' for commands)\n", encounter, config.seed,
                     recording.scenario_file.empty() ? "" : " from scenario " + recording.scenario_file);
  // Every way out of the session, an engine error included, writes the replay when one was asked for.
  return run_recorded_session<DeckbuilderRules>(catalog, start, battle, recording.record, out, err,
                                                [&] { return play_turns(battle, in, out); });
}

int play_clash(const std::shared_ptr<const clash::Catalog>& catalog, const clash::PlayConfig& config,
               PlayInput in, std::ostream& out, std::ostream& err, const PlayRecording& recording) {
  auto encounter = resolve_encounter_id(*catalog, config.encounter, recording.scenario);
  if (!encounter) {
    err << "battlecore: " << encounter.error().message << "\n";
    return 2;
  }
  const BattleStart start{encounter.value(), config.seed, recording.scenario};
  auto started = ClashRules::start(catalog, start);
  if (!started) {
    err << "battlecore: " << started.error().message << "\n";
    return 2;
  }
  clash::PlayConfig named = config;
  named.scenario_file = recording.scenario_file;
  return run_recorded_session<ClashRules>(catalog, start, started.value(), recording.record, out, err, [&] {
    return clash::play_battle(started.value(), named, in, out, err);
  });
}

}  // namespace battlecore::sim
