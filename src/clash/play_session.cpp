#include "battlecore/clash/play_session.hpp"

#include <algorithm>
#include <istream>
#include <optional>
#include <ostream>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/view.hpp"
#include "battlecore/core/play_input.hpp"

namespace battlecore::clash {

namespace {

constexpr std::string_view kHelp =
    "commands:\n"
    "  N         take option number N (roll, a rock, a card)\n"
    "  state     show the battle again\n"
    "  history   the phase transition history (sequence, round, from, trigger, to)\n"
    "  log [N]   the last N events as JSON (default 20)\n"
    "  help      this text\n"
    "  quit      leave the battle\n";

/// Prints the events since `shown` (phase changes left out) and moves `shown` on. The cards dealt
/// to one seat in a row (a hand, at a setup) are one line, told with the last of them.
void show_events(const Battle& battle, std::size_t& shown, std::ostream& out) {
  const auto& log = battle.events().log();
  const std::size_t from = shown;
  const auto dealt_with = [&](std::size_t i, std::size_t j) {
    return log[j].type == EventType::CardDealt && log[j].seat == log[i].seat;
  };
  print_new_events(log, shown, out, [&](const Event& e) -> std::optional<std::string> {
    if (e.type == EventType::PhaseChanged) return std::nullopt;
    if (e.type != EventType::CardDealt) return event_label(battle, e);
    if (shown + 1 < log.size() && dealt_with(shown, shown + 1)) return std::nullopt;
    std::size_t first = shown;
    while (first > from && dealt_with(shown, first - 1)) --first;
    return dealt_label(battle, std::span<const Event>(log).subspan(first, shown + 1 - first));
  });
}

void show(const Battle& battle, std::ostream& out) {
  out << render_text(battle);
  const Decision d = battle.decision();
  for (std::size_t i = 0; i < d.options.size(); ++i)
    out << fmt::format("  {}) {}\n", i, action_label(battle, d.options[i]));
}

}  // namespace

int play(const std::shared_ptr<const Catalog>& catalog, const PlayConfig& config, PlayInput in,
         std::ostream& out, std::ostream& err) {
  std::string encounter = config.encounter;
  if (encounter.empty()) {
    if (!catalog->pack.default_encounter) {
      err << "battlecore: the pack names no default encounter; pass --encounter ID\n";
      return 2;
    }
    encounter = catalog->encounters[*catalog->pack.default_encounter].id;
  }
  Battle battle(catalog);
  if (auto started = battle.start_battle(encounter, config.seed); !started) {
    err << "battlecore: " << started.error().message << "\n";
    return 2;
  }
  return play_battle(battle, config, in, out, err);
}

int play_battle(Battle& battle, const PlayConfig& config, PlayInput in, std::ostream& out,
                std::ostream& err) {
  auto bot = make_policy(config.bot_policy);
  if (!bot) {
    err << "battlecore: " << bot.error().message << "\n";
    return 2;
  }
  bot.value()->reset(policy_seed(config.seed));
  const std::string& encounter = battle.encounter().id;
  out << fmt::format("battle '{}' with seed {}{} (type 'help' for commands)\n", encounter, config.seed,
                     config.scenario_file.empty() ? "" : " from scenario " + config.scenario_file);
  std::size_t shown = 0;
  std::vector<Action> options;
  bool prompt_shown = false;
  while (battle.status() == Status::AwaitingDecision) {
    const SeatRef seat = battle.state().current;
    if (battle.state().seats[static_cast<std::size_t>(seat)].kind == SeatKind::Bot) {
      battle.legal_actions(options);
      const auto r = battle.submit(options[bot.value()->choose(battle, options)]);
      if (!r) {  // cannot happen for a legal option; say so rather than loop
        err << "battlecore: a legal option was refused: " << r.error().message << "\n";
        return 1;
      }
      prompt_shown = false;
      continue;
    }
    show_events(battle, shown, out);
    if (!prompt_shown) {
      show(battle, out);
      prompt_shown = true;
    }
    const Decision d = battle.decision();
    const PlayCommand command = read_play_command(in, out, {kHelp, "option", d.options.size(), {}});
    if (command.leaves()) return 0;
    if (answer_shown(
            command, battle, out, [&] { show(battle, out); }, "round", 14,
            [&](const Event& e) { return table_event_json(battle, e).dump(); }))
      continue;
    if (command.kind != PlayCommand::Kind::Option) continue;  // the clash has no commands of its own
    const std::size_t choice = command.number;
    out << "-> " << action_label(battle, d.options[choice]) << "\n";
    if (auto r = battle.submit(d.options[choice]); !r) {
      out << "refused: " << r.error().message << "\n";
      continue;
    }
    prompt_shown = false;
  }
  show_events(battle, shown, out);
  // The standings, first place first (seats that share a place in seat order).
  const auto& seats = battle.state().seats;
  std::vector<std::size_t> order(seats.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return seats[a].place < seats[b].place; });
  for (const std::size_t i : order)
    out << fmt::format("place {}: {} ({})\n", seats[i].place, battle.encounter().seats[i].name,
                       seat_kind_name(seats[i].kind));
  return 0;
}

}  // namespace battlecore::clash
