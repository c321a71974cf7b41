#pragma once
/// The party rule set's phases, triggers and its one transition table, after
/// BF: Battle flow/Main turn life cycle and the pages it points at. "BF: X" names page X of the
/// Battle system section of aldelaro5's Bug Fables internal docs,
/// https://aldelaro5.github.io/Bug-Fables-Internal-Docs/ (see docs/party.md).

#include <array>
#include <cstdint>
#include <string_view>

#include "battlecore/core/phase_machine.hpp"

namespace battlecore::party {

/// The phases of a party battle: the main turn life cycle plus its start and its ends.
enum class Phase : std::uint8_t {
  BattleStart,  ///< the party, the enemies and the advantage are set up
  FirstStrike,  ///< the enemies' half turn before turn 0 (only the first enemy acts)
  PlayerPhase,  ///< member selection, the companion, the AI ally, end of the player phase
  EnemyPhase,   ///< each free enemy acts, one at a time
  TurnEnd,      ///< the turn advance: projectiles, condition ticks, counters, select cycle
  Victory,      ///< no enemy remains
  Defeat,       ///< no member stands
  Fled,         ///< the party ran away
};

/// What a phase handler (or an action) asks the machine to do next.
enum class Trigger : std::uint8_t {
  EnemyAdvantage,   ///< the encounter gives the enemies the first strike
  BattleReady,      ///< set up, no first strike: the first main turn begins
  FirstStrikeOver,  ///< the first enemy acted: the turn end follows (without counter advance)
  PlayerPhaseOver,  ///< nobody is left to act on the party's side
  EnemiesDefeated,  ///< the last enemy fell during the player phase
  FleeSucceeded,    ///< the flee roll succeeded
  EnemiesDone,      ///< no free enemy is left
  PartyDefeated,    ///< no member stands
  NextTurn,         ///< the turn advanced: the next main turn begins
  AllEnemiesGone,   ///< the turn end found no enemy left
  TurnLimit,        ///< the encounter's turn limit passed
};

/// The party rule set's phase machine: names and the one transition table.
struct Machine {
  using Phase = party::Phase;
  using Trigger = party::Trigger;
  static constexpr std::string_view kRules = "party";
  static constexpr std::array<std::string_view, 8> kPhaseNames = {
      "BattleStart", "FirstStrike", "PlayerPhase", "EnemyPhase", "TurnEnd", "Victory", "Defeat", "Fled"};
  static constexpr std::array<std::string_view, 11> kTriggerNames = {
      "EnemyAdvantage",  "BattleReady",    "FirstStrikeOver", "PlayerPhaseOver",
      "EnemiesDefeated", "FleeSucceeded",  "EnemiesDone",     "PartyDefeated",
      "NextTurn",        "AllEnemiesGone", "TurnLimit"};
  static constexpr Phase kInitial = Phase::BattleStart;
  static constexpr std::array kTerminal = {Phase::Victory, Phase::Defeat, Phase::Fled};

  using T = Transition<Phase, Trigger>;
  static constexpr std::array kTransitions = {
      //  from                trigger                    to
      // battle start: first strike or straight to the first main turn
      T{Phase::BattleStart, Trigger::EnemyAdvantage, Phase::FirstStrike},
      T{Phase::BattleStart, Trigger::BattleReady, Phase::PlayerPhase},
      // first strike: the enemy half turn, then the turn end without counter advance
      T{Phase::FirstStrike, Trigger::FirstStrikeOver, Phase::TurnEnd},
      T{Phase::FirstStrike, Trigger::PartyDefeated, Phase::Defeat},
      // player phase
      T{Phase::PlayerPhase, Trigger::PlayerPhaseOver, Phase::EnemyPhase},
      T{Phase::PlayerPhase, Trigger::EnemiesDefeated, Phase::TurnEnd},
      T{Phase::PlayerPhase, Trigger::FleeSucceeded, Phase::Fled},
      // enemy phase
      T{Phase::EnemyPhase, Trigger::EnemiesDone, Phase::TurnEnd},
      T{Phase::EnemyPhase, Trigger::PartyDefeated, Phase::Defeat},
      // turn end
      T{Phase::TurnEnd, Trigger::NextTurn, Phase::PlayerPhase},
      T{Phase::TurnEnd, Trigger::AllEnemiesGone, Phase::Victory},
      T{Phase::TurnEnd, Trigger::PartyDefeated, Phase::Defeat},
      T{Phase::TurnEnd, Trigger::TurnLimit, Phase::Defeat},
  };
};

using PhaseRecord = TransitionRecord<Phase, Trigger>;

/// The name of a phase ("PlayerPhase").
constexpr std::string_view phase_name(Phase p) { return PhaseMachine<Machine>::phase_name(p); }
/// The name of a trigger ("PlayerPhaseOver").
constexpr std::string_view trigger_name(Trigger t) { return PhaseMachine<Machine>::trigger_name(t); }

}  // namespace battlecore::party
