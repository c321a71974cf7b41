#pragma once
/// The clash phases, triggers and its one transition table (Beast Card Clash's battle state machine
/// page, https://www.mintlify.com/Andresit1524/beast_card_clash/dev/battle-state-machine: "The five
/// states", "How BattleManager drives transitions", "Adding a new state").

#include <array>
#include <cstdint>
#include <string_view>

#include "battlecore/core/phase_machine.hpp"

namespace battlecore::clash {

/// The state machine page's battle states, with its names.
enum class Phase : std::uint8_t {
  BattleStart,    ///< setup (and re-setup between rounds when the encounter asks for it)
  BattleLoop,     ///< a bot seat's turn; hands over at once when a human seat is next
  BattleTurn,     ///< a human seat's turn: roll, rock, card
  BattleReferee,  ///< every pair of remaining seats compared, damage, eliminations
  BattleEnd,      ///< the final ranking; terminal
  SuddenDeath,    ///< the sixth state: everyone went out together; maybe one more round
};

/// What a state asks the manager for.
enum class Trigger : std::uint8_t {
  BotNext,           ///< the next seat in turn order is a bot
  HumanNext,         ///< the next seat in turn order is a human
  RoundOver,         ///< the next seat would be the first of the order: the round is over
  NextRound,         ///< two or more seats remain: a new round
  Resetup,           ///< two or more remain and the encounter re-runs the setup between rounds
  OneLeft,           ///< one seat remains
  AllEliminated,     ///< the remaining seats all went out in the same round
  HumanOut,          ///< the encounter ends the battle when no human seat remains
  RoundLimit,        ///< the encounter's round limit is reached
  SuddenDeathRound,  ///< sudden death brings the seats back for one more round
  NoSuddenDeath,     ///< no sudden-death round is left: the battle ends
};

/// The clash phase machine: names and the one transition table.
struct Machine {
  using Phase = clash::Phase;
  using Trigger = clash::Trigger;
  static constexpr std::string_view kRules = "clash";
  static constexpr std::array<std::string_view, 6> kPhaseNames = {
      "BattleStart", "BattleLoop", "BattleTurn", "BattleReferee", "BattleEnd", "SuddenDeath"};
  static constexpr std::array<std::string_view, 11> kTriggerNames = {
      "BotNext",       "HumanNext", "RoundOver",  "NextRound",        "Resetup",      "OneLeft",
      "AllEliminated", "HumanOut",  "RoundLimit", "SuddenDeathRound", "NoSuddenDeath"};
  static constexpr Phase kInitial = Phase::BattleStart;
  static constexpr std::array kTerminal = {Phase::BattleEnd};

  using T = Transition<Phase, Trigger>;
  static constexpr std::array kTransitions = {
      //  from                  trigger                    to
      // BattleStart: human first -> BattleTurn; bot first -> BattleLoop
      T{Phase::BattleStart, Trigger::HumanNext, Phase::BattleTurn},
      T{Phase::BattleStart, Trigger::BotNext, Phase::BattleLoop},
      // BattleLoop: next is a bot -> stays; next is the human -> BattleTurn; round over -> referee
      T{Phase::BattleLoop, Trigger::BotNext, Phase::BattleLoop},
      T{Phase::BattleLoop, Trigger::HumanNext, Phase::BattleTurn},
      T{Phase::BattleLoop, Trigger::RoundOver, Phase::BattleReferee},
      // BattleTurn: the same handover rule as BattleLoop
      T{Phase::BattleTurn, Trigger::BotNext, Phase::BattleLoop},
      T{Phase::BattleTurn, Trigger::HumanNext, Phase::BattleTurn},
      T{Phase::BattleTurn, Trigger::RoundOver, Phase::BattleReferee},
      // BattleReferee: a new round, a re-setup, or the end
      T{Phase::BattleReferee, Trigger::NextRound, Phase::BattleLoop},
      T{Phase::BattleReferee, Trigger::Resetup, Phase::BattleStart},
      T{Phase::BattleReferee, Trigger::OneLeft, Phase::BattleEnd},
      T{Phase::BattleReferee, Trigger::AllEliminated, Phase::SuddenDeath},
      T{Phase::BattleReferee, Trigger::HumanOut, Phase::BattleEnd},
      T{Phase::BattleReferee, Trigger::RoundLimit, Phase::BattleEnd},
      // SuddenDeath (the sixth state): one more round, or the end with a shared place
      T{Phase::SuddenDeath, Trigger::SuddenDeathRound, Phase::BattleLoop},
      T{Phase::SuddenDeath, Trigger::NoSuddenDeath, Phase::BattleEnd},
  };
};

using PhaseRecord = TransitionRecord<Phase, Trigger>;

/// The state machine page's name of a phase ("BattleReferee").
constexpr std::string_view phase_name(Phase p) { return PhaseMachine<Machine>::phase_name(p); }
/// The name of a trigger ("RoundOver").
constexpr std::string_view trigger_name(Trigger t) { return PhaseMachine<Machine>::trigger_name(t); }

}  // namespace battlecore::clash
