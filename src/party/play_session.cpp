#include <array>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/play_input.hpp"
#include "battlecore/party/play_session.hpp"
#include "battlecore/party/view.hpp"

namespace battlecore::party {

namespace {

constexpr std::string_view kHelp =
    "commands:\n"
    "  N         take option number N (a member's action, the companion's, or a block)\n"
    "  state     show the battle again\n"
    "  json      the state as JSON\n"
    "  history   the phase transition history (sequence, turn, from, trigger, to)\n"
    "  log [N]   the last N events (default 20)\n"
    "  help      this text\n"
    "  quit      leave the battle\n";

/// The prompt's commands of the party's own: `json`.
constexpr std::array<std::string_view, 1> kOwnCommands = {"json"};

void show(const Battle& battle, std::ostream& out) {
  out << render_text(battle);
  if (battle.status() != Status::AwaitingDecision) return;  // the end is said after the board
  const Decision d = battle.decision();
  out << fmt::format("  decision: {}\n", decision_kind_name(d.kind));
  for (std::size_t i = 0; i < d.options.size(); ++i)
    out << fmt::format("  {}) {}\n", i, action_label(battle, d.options[i]));
}

}  // namespace

int play(const std::shared_ptr<const Catalog>& catalog, const std::string& encounter_id, std::uint64_t seed,
         PlayInput in, std::ostream& out, std::ostream& err) {
  std::string encounter = encounter_id;
  if (encounter.empty()) {
    if (!catalog->pack.default_encounter) {
      err << "battlecore: the pack names no default encounter; pass --encounter ID\n";
      return 2;
    }
    encounter = catalog->encounters[*catalog->pack.default_encounter].id;
  }
  Battle battle(catalog);
  if (auto started = battle.start_battle(encounter, seed); !started) {
    err << "battlecore: " << started.error().message << "\n";
    return 2;
  }
  out << fmt::format("battle '{}' with seed {} (type 'help' for commands)\n", encounter, seed);
  return play(battle, in, out);
}

int play(Battle& battle, PlayInput in, std::ostream& out) {
  show(battle, out);
  // What happens after each choice (the enemies' moves, the ally's, damage, conditions) is told
  // before the board is shown again; the battle's start (a first strike too) is on the board.
  std::vector<std::string> enemy_names;
  name_enemies(battle, enemy_names);
  const std::vector<Event>& log = battle.events().log();
  std::size_t shown = log.size();
  const auto events = [&] {
    print_new_events(log, shown, out, [&](const Event& e) -> std::optional<std::string> {
      if (cleared_as_holder_went_down(log, shown)) return std::nullopt;  // "X is down" follows
      if (e.type == EventType::ReserveJoined && is_enemy_actor(e.target)) {
        const auto uid = static_cast<std::size_t>(e.target - enemy_actor(0));
        if (uid >= enemy_names.size()) enemy_names.resize(uid + 1);
        if (e.value < battle.catalog().enemies.size())
          enemy_names[uid] = battle.catalog().enemies[e.value].name;
      }
      return event_text(battle, e, enemy_names);
    });
    name_enemies(battle, enemy_names);
  };
  while (battle.status() == Status::AwaitingDecision) {
    const Decision d = battle.decision();
    const PlayCommand command = read_play_command(in, out, {kHelp, "option", d.options.size(), kOwnCommands});
    if (command.leaves()) return 0;
    if (answer_shown(
            command, battle, out, [&] { show(battle, out); }, "turn", 12,
            [&](const Event& e) { return event_to_json(e, battle.catalog()).dump(); }))
      continue;
    if (command.kind == PlayCommand::Kind::Own) {  // `json`, the only one
      out << state_view(battle).dump(2) << "\n";
      continue;
    }
    const std::size_t choice = command.number;
    out << "-> " << action_label(battle, d.options[choice]) << "\n";
    if (auto r = battle.submit(d.options[choice]); !r) {
      out << "refused: " << r.error().message << "\n";
      continue;
    }
    events();
    show(battle, out);
  }
  std::int32_t hp = 0;
  for (const MemberState& m : battle.state().members) hp += m.hp;
  switch (battle.phase()) {
    case Phase::Victory:
      out << fmt::format("victory on turn {} with {} HP left in the party\n", battle.turn(), hp);
      break;
    case Phase::Fled:
      out << fmt::format("the party fled on turn {}\n", battle.turn());
      break;
    default:
      out << fmt::format("defeat on turn {}\n", battle.turn());
      break;
  }
  return 0;
}

}  // namespace battlecore::party
