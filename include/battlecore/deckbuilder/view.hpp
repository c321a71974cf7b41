#pragma once
/// Readable views of a deckbuilder battle: a JSON state view and a text rendering.

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

/// The state a front end shows: phase, turn, player, enemies with intents, piles.
nlohmann::json state_view(const Battle& battle);
/// The legal options with their indices and JSON forms.
nlohmann::json decision_view(const Battle& battle);
/// The JSON form of an action, with the card's id filled in from the battle.
nlohmann::json describe_action(const Battle& battle, const Action& action);
/// One line for an action: "play Strike (#3) at Gnasher (enemy 0)" or "end turn".
std::string action_label(const Battle& battle, const Action& action);
/// A few lines for a terminal: HP, armor, energy, statuses, intents, hand, pile sizes.
std::string render_text(const Battle& battle);
/// One line for an event a player cannot read off the board afterwards: an enemy's move, damage,
/// armor, statuses, healing, HP lost, a death, a reshuffle, a skipped turn, a card created, an
/// extra turn, a hook taking effect or ending, a delayed effect set or firing ("Gnasher [0] uses
/// Bite", "Gnasher [0] -> you: 6 damage, 2 absorbed by armor", "Dazed is added to the discard
/// pile"); nullopt for the rest (phases, draws, the cards played, which the session shows as they
/// are chosen).
std::optional<std::string> event_text(const Battle& battle, const Event& event);

}  // namespace battlecore::deckbuilder
