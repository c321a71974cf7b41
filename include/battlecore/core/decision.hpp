#pragma once
/// The run-to-decision interface every rule set follows:
///   advance()          runs automatic steps until a decision is needed or the battle is over;
///   decision()         who decides, and the legal options with stable indices;
///   submit(action)     a legal action is applied and recorded, then the battle advances;
///                      an illegal one is refused with a reason and nothing changes.

#include <cstdint>
#include <string>
#include <string_view>

namespace battlecore {

/// What a battle needs next.
enum class Status : std::uint8_t {
  AwaitingDecision,  ///< someone must choose; see decision()
  Finished,          ///< the battle is over and nothing more can be submitted
};

/// Name of a status ("awaiting_decision", "finished").
std::string_view status_name(Status s);

/// Who makes the pending decision.
struct Decider {
  enum class Kind : std::uint8_t { Nobody, Player, Seat, Actor };
  Kind kind = Kind::Nobody;
  int index = 0;  ///< the seat or actor index; 0 for the single player
  friend bool operator==(const Decider&, const Decider&) = default;
};

/// Why an action was refused: a rule set's reason code plus readable text.
template <class Reason>
struct Refusal {
  Reason reason;
  std::string message;
};

}  // namespace battlecore
