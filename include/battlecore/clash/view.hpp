#pragma once
/// Readable views of a clash battle: a JSON state view and a text rendering.

#include <span>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/clash/battle.hpp"

namespace battlecore::clash {

/// The state a front end shows: phase, round, turn order, seats (health, rock, hand, choice,
/// place), the pending decision and the ranking once over.
nlohmann::json state_view(const Battle& battle);
/// One line for an action: "roll the die", "move to rock 5 (fire)", "play fire 7 (slot 2)".
std::string action_label(const Battle& battle, const Action& action);
/// One line for an event, for a terminal. A bot's drawn card is left out, as in the state view.
std::string event_label(const Battle& battle, const Event& event);
/// One line for the cards dealt to one seat in a row (`run`: CardDealt events of one seat, a hand
/// dealt at a setup): "You (seat 0) draws fire 7, water 3", or a bot's "Bear (seat 1) draws 9
/// cards".
std::string dealt_label(const Battle& battle, std::span<const Event> run);
/// The event as JSON for the table (event_to_json), without a bot's drawn card.
nlohmann::json table_event_json(const Battle& battle, const Event& event);
/// A few lines for a terminal: round, seats, whose turn, the hand of the deciding seat.
std::string render_text(const Battle& battle);

}  // namespace battlecore::clash
