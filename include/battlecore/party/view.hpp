#pragma once
/// Readable views of a party battle: a JSON state view and a text rendering for front ends.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/party/battle.hpp"

namespace battlecore::party {

/// The state a front end shows: phase, turn, TP, members in formation order with counters and
/// conditions, enemies by slot, reserves, items, the companion and the ally, the decision.
nlohmann::json state_view(const Battle& battle);
/// The pending decision: who decides, its kind, and each option with its index, JSON and label.
nlohmann::json decision_view(const Battle& battle);
/// One line for an action: "Vi: attack Zombiant (enemy 0)", "block: super block".
std::string action_label(const Battle& battle, const Action& action);
/// A few lines for a terminal.
std::string render_text(const Battle& battle);
/// Records the name of each enemy on the board under its battle-wide number (`EnemyState::uid`),
/// so that event_text can name an enemy after it has fallen and left its slot.
void name_enemies(const Battle& battle, std::vector<std::string>& enemy_names);
/// One line for an event a player cannot read off the board afterwards: an enemy's move, the AI
/// ally's action, damage and blocks, healing, conditions given, resisted and worn off, relays,
/// a flight tried, an actor down, a reserve joining ("Zombiant uses Bite", "Vi takes 2 damage
/// (block)"); nullopt for the rest (phases, selections, the actions the player chooses, which
/// the session shows as they are chosen, the battle's end). Enemies are named from
/// `enemy_names` (name_enemies).
std::optional<std::string> event_text(const Battle& battle, const Event& event,
                                      std::span<const std::string> enemy_names);
/// Whether `log[index]` is a condition cleared as its holder went down: an actor going down loses
/// its conditions, each raising ConditionExpired, right before its ActorDown. None of them wore
/// off, and "X is down" tells what happened, so a front end telling events leaves them out.
bool cleared_as_holder_went_down(std::span<const Event> log, std::size_t index);

}  // namespace battlecore::party
