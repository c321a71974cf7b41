#pragma once
/// The deckbuilder's phases, triggers and its one transition table
/// (the GCS guide's Battle Phases and Execution Order page: "Phase list", "Battle start flow" ...
/// "Battle end").

#include <array>
#include <cstdint>
#include <string_view>

#include "battlecore/core/phase_machine.hpp"

namespace battlecore::deckbuilder {

/// The guide's BattlePhase, with its names.
enum class Phase : std::uint8_t {
  None,             ///< no active battle
  Initialize,       ///< the battle state is being built
  PlayerTurnStart,  ///< armor decay, energy, draw phase, turn-start timings
  PlayerPhase,      ///< the player plays cards and ends the turn
  PlayerTurnEnd,    ///< discard phase, turn-end timings, ticking
  EnemyPhase,       ///< each alive enemy acts
  BattleWon,        ///< won; a reward may be offered
  BattleLost,       ///< lost
};

/// What a phase handler (or an action) asks the machine to do next.
enum class Trigger : std::uint8_t {
  StartRequested,    ///< start_battle with an encounter
  Initialized,       ///< the 12 start steps are done
  TurnBegan,         ///< turn start done: the player acts
  TurnSkipped,       ///< a pending skipped turn jumps to turn end
  EndTurnRequested,  ///< the player (or an effect) ends the turn
  ExtraTurn,         ///< an extra turn is pending: another player turn
  TurnOver,          ///< the player's turn is over: the enemies act
  EnemiesDone,       ///< every enemy acted: next player turn
  Victory,           ///< no enemy alive
  Defeat,            ///< the player is dead
};

/// The deckbuilder's phase machine: names and the one transition table.
struct Machine {
  using Phase = deckbuilder::Phase;
  using Trigger = deckbuilder::Trigger;
  static constexpr std::string_view kRules = "deckbuilder";
  static constexpr std::array<std::string_view, 8> kPhaseNames = {
      "None",          "Initialize", "PlayerTurnStart", "PlayerPhase",
      "PlayerTurnEnd", "EnemyPhase", "BattleWon",       "BattleLost"};
  static constexpr std::array<std::string_view, 10> kTriggerNames = {
      "StartRequested", "Initialized", "TurnBegan",   "TurnSkipped", "EndTurnRequested",
      "ExtraTurn",      "TurnOver",    "EnemiesDone", "Victory",     "Defeat"};
  static constexpr Phase kInitial = Phase::None;
  static constexpr std::array kTerminal = {Phase::BattleWon, Phase::BattleLost};

  using T = Transition<Phase, Trigger>;
  static constexpr std::array kTransitions = {
      //  from                     trigger                    to
      // battle start flow
      T{Phase::None, Trigger::StartRequested, Phase::Initialize},
      T{Phase::Initialize, Trigger::Initialized, Phase::PlayerTurnStart},
      T{Phase::Initialize, Trigger::Victory, Phase::BattleWon},
      T{Phase::Initialize, Trigger::Defeat, Phase::BattleLost},
      // player turn start
      T{Phase::PlayerTurnStart, Trigger::TurnBegan, Phase::PlayerPhase},
      T{Phase::PlayerTurnStart, Trigger::TurnSkipped, Phase::PlayerTurnEnd},
      T{Phase::PlayerTurnStart, Trigger::Victory, Phase::BattleWon},
      T{Phase::PlayerTurnStart, Trigger::Defeat, Phase::BattleLost},
      // player action phase
      T{Phase::PlayerPhase, Trigger::EndTurnRequested, Phase::PlayerTurnEnd},
      T{Phase::PlayerPhase, Trigger::Victory, Phase::BattleWon},
      T{Phase::PlayerPhase, Trigger::Defeat, Phase::BattleLost},
      // player turn end
      T{Phase::PlayerTurnEnd, Trigger::ExtraTurn, Phase::PlayerTurnStart},
      T{Phase::PlayerTurnEnd, Trigger::TurnOver, Phase::EnemyPhase},
      T{Phase::PlayerTurnEnd, Trigger::Victory, Phase::BattleWon},
      T{Phase::PlayerTurnEnd, Trigger::Defeat, Phase::BattleLost},
      // enemy phase
      T{Phase::EnemyPhase, Trigger::EnemiesDone, Phase::PlayerTurnStart},
      T{Phase::EnemyPhase, Trigger::Victory, Phase::BattleWon},
      T{Phase::EnemyPhase, Trigger::Defeat, Phase::BattleLost},
  };
};

using PhaseRecord = TransitionRecord<Phase, Trigger>;

/// The guide's name of a phase ("PlayerTurnStart").
constexpr std::string_view phase_name(Phase p) { return PhaseMachine<Machine>::phase_name(p); }
/// The name of a trigger ("EndTurnRequested").
constexpr std::string_view trigger_name(Trigger t) { return PhaseMachine<Machine>::trigger_name(t); }

}  // namespace battlecore::deckbuilder
