#pragma once
/// A Beast Card Clash battle: the five battle states of the game's battle state machine page
/// (https://www.mintlify.com/Andresit1524/beast_card_clash/dev/battle-state-machine) on the core's
/// phase machine and run-to-decision interface.
///
/// Notes on this implementation:
/// - The table is Machine in phases.hpp; each state has one handler file in src/clash/states/
///   that runs that page's ordered steps and returns a trigger; advance() is the manager, the one
///   driver that follows the table. States never set the phase.
/// - Every seat's choice is a decision (Decider::Kind::Seat with the seat index): a human seat
///   rolls explicitly, then picks a rock and a card; a bot seat's die is rolled on entering
///   BattleLoop, then it picks a rock and a card through the same decisions, answered by a
///   policy (sim) or by the host. A seat with no playable card passes without a decision.
/// - The handover rule (the round is over when the next seat would be the first remaining seat of
///   the shuffled order) is one function, hand_over(), used by BattleLoop and BattleTurn.
/// - Where versions of the original disagree, the rule is a parameter of the encounter
///   (RuleParams; defaults in docs/clash.md).
/// - The battle is a value: copying it clones it (listeners are not copied; see EventBus).

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "battlecore/clash/actions.hpp"
#include "battlecore/clash/catalog.hpp"
#include "battlecore/clash/events.hpp"
#include "battlecore/clash/phases.hpp"
#include "battlecore/clash/rules.hpp"
#include "battlecore/core/decision.hpp"
#include "battlecore/core/fixed_vec.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"

namespace battlecore::clash {

namespace detail {
struct BattleIo;
}

/// One seat: its health, hand, rock and its choice for the round.
struct SeatState {
  SeatKind kind = SeatKind::Bot;
  std::int32_t health = 0;
  std::uint8_t rock = 0;
  bool out = false;             ///< eliminated
  std::uint8_t place = 0;       ///< final place once known (1 = first), else 0
  std::uint32_t out_round = 0;  ///< the round it went out in, 0 while in
  FixedVec<Card, kMaxHandSize> hand;
  FixedVec<Card, kMaxDeckSize> pile;  ///< listed deck: cards still to draw, top is the back
  Card choice;                        ///< the card played this round, {None, 0} for none
  bool acted = false;                 ///< has taken its turn this round
  friend bool operator==(const SeatState&, const SeatState&) = default;
};

/// Which step of a turn the deciding seat is at.
enum class TurnStep : std::uint8_t { None, Roll, Rock, Card };

/// The whole rules state of a battle: a plain value, no pointers.
struct BattleState {
  std::uint64_t seed = 0;
  RngStreams rng;
  EncounterId encounter = 0;
  std::uint32_t round = 0;  ///< 1 in the first round
  FixedVec<SeatState, kMaxSeats> seats;
  FixedVec<std::uint8_t, kMaxSeats> order;  ///< the shuffled turn order (seat indices, all seats)
  SeatRef current = kNoSeat;                ///< the seat whose turn it is
  TurnStep step = TurnStep::None;
  std::uint8_t dice = 0;                  ///< the current roll, 0 before rolling
  std::array<std::uint8_t, 2> offered{};  ///< the rocks the roll offers
  std::uint8_t offered_count = 0;         ///< 2, or 1 when both directions reach one rock
  std::uint32_t sudden_deaths = 0;        ///< sudden-death rounds played
  friend bool operator==(const BattleState&, const BattleState&) = default;
};

/// The pending decision: who decides and what they may do.
struct Decision {
  Decider who;
  /// Stable indices. Roll: the one roll. Rock: the minus rock, then the plus rock (one when they
  /// are the same rock). Card: the playable cards in hand order.
  std::vector<Action> options;
};

/// Options for a battle's bookkeeping (the rules are the same either way).
struct BattleOptions {
  bool event_log = true;       ///< keep every event in events().log()
  bool record_history = true;  ///< keep the transition history and the action list
};

/// One clash battle.
class Battle {
 public:
  explicit Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options = {});

  /// Starts an encounter: a missing encounter is an error and starts nothing.
  Result<Status> start_battle(std::string_view encounter_id, std::uint64_t seed);
  Result<Status> start_battle(EncounterId encounter, std::uint64_t seed);

  /// Runs automatic steps until a decision is needed or the battle is over.
  Status advance();
  /// AwaitingDecision while a seat must choose, else Finished.
  Status status() const;
  /// Who decides now and the legal options.
  Decision decision() const;
  /// The legal options into `out` (cleared first); no allocation once `out` has grown.
  void legal_actions(std::vector<Action>& out) const;
  /// Applies a legal action and advances; refuses an illegal one, changing nothing.
  Result<Status, Rejection> submit(const Action& action);

  Phase phase() const { return driver_.current(); }
  bool is_battle_active() const { return started_ && !is_battle_over(); }
  bool is_battle_over() const { return started_ && phase() == Phase::BattleEnd; }

  const BattleState& state() const { return state_; }
  const Catalog& catalog() const { return *catalog_; }
  const EncounterDef& encounter() const { return catalog_->encounters[state_.encounter]; }
  std::uint32_t round() const { return state_.round; }
  /// Transition history (empty when record_history is off).
  const std::vector<PhaseRecord>& history() const { return driver_.history(); }
  std::uint32_t transitions() const { return driver_.moves(); }
  /// Every submitted action, in order (empty when record_history is off).
  const std::vector<Action>& actions() const { return actions_; }
  EventLog& events() { return events_; }
  const EventLog& events() const { return events_; }
  /// A 64-bit hash of the rules state, the phase and the move counter.
  std::uint64_t state_hash() const;
  /// The seats still in, in turn order.
  std::vector<SeatRef> remaining_in_order() const;

  /// Equal field by field: rules state, phase, move counter, history, actions, event log,
  /// options and the queued trigger (the catalogs by content hash). Listeners are not compared.
  bool operator==(const Battle& other) const;

  /// Internal: gives state handlers access. Not for hosts.
  struct Access;

 private:
  friend struct Access;
  friend struct detail::BattleIo;
  /// start_battle up to the first move: BattleStart has run and its trigger is queued.
  void set_up(EncounterId encounter, std::uint64_t seed);
  Result<Status, Rejection> refuse(RefusalReason reason, const Action& a, std::string why) const;

  std::shared_ptr<const Catalog> catalog_;
  BattleOptions options_;
  BattleState state_;
  PhaseDriver<Machine> driver_;
  EventLog events_;
  std::vector<Action> actions_;
  bool started_ = false;
  bool has_pending_trigger_ = false;
  Trigger pending_trigger_ = Trigger::BotNext;
};

/// Checks what must hold in every state between two actions: seat count, order, round, hands,
/// health, rocks, places, the end, the pending turn (there is one until the end), the roll and the
/// rocks it offers (only at the steps that have them). Returns false on the first broken one and
/// says why (when `why` is given) and where: the JSON pointer of the value at fault in the
/// battle's snapshot (when `where` is given), which `restore` reports.
bool check_invariants(const Battle& battle, std::string* why = nullptr, std::string* where = nullptr);

}  // namespace battlecore::clash
