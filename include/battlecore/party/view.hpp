#pragma once
/// Readable views of a party battle: a JSON state view and a text rendering for front ends.

#include <string>

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

}  // namespace battlecore::party
