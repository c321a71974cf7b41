#pragma once
/// What the battle monitor needs from a rule set: one small adapter per rule set.
///
/// The server (server.hpp) knows nothing of any rule set's types. It keeps battles as
/// `MonitorBattle`s, created by the `RuleSetAdapter` of the battle's rule set, and speaks JSON
/// only. A rule set joins the monitor with one adapter (docs/monitor.md, "Adding a rule set").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/result.hpp"

namespace battlecore::monitor {

/// A request the rule set refused: a short machine-readable reason and readable text.
struct Refused {
  Refused() = default;
  Refused(std::string reason_, std::string message_, std::optional<std::size_t> server_move_ = std::nullopt)
      : reason(std::move(reason_)), message(std::move(message_)), server_move(server_move_) {}

  std::string reason;   ///< e.g. "unknown_encounter", "cannot_play_card", "bad_action"
  std::string message;  ///< what was wrong, for a person
  /// Set when the refused action was one of the server's own moves given by a replay
  /// (RuleSetAdapter::start_replay): its index in that list.
  std::optional<std::size_t> server_move;
};

/// The moves a replay gives for the server to make itself (MonitorBattle::server_move: the
/// clash's bots), for RuleSetAdapter::start_replay.
struct ServerMoves {
  nlohmann::json moves = nlohmann::json::array();  ///< the moves, in order
  /// Where each move stands among the replay's other actions, when the replay says: how many of
  /// those come before it (a replay file lists every move in one list, in the order they were
  /// made). Each move is then made at its place and nowhere else, and so is each other action.
  /// Empty: the replay gives no places (the short form's `server_moves`, a list of its own), and
  /// each move is made when one of the server's seats is next to decide.
  std::vector<std::size_t> places;
};

/// One battle of some rule set, behind JSON. Not thread-safe: the server holds a mutex per battle.
class MonitorBattle {
 public:
  virtual ~MonitorBattle() = default;

  /// The state view; it has at least "rules", "phase", "turn", "over" and "won" (null while not over).
  virtual nlohmann::json state() const = 0;
  /// The pending decision: {"status", "who", "options": [{"index", "action", "label"}], ...}
  /// plus whatever the rule set's controls need (the deckbuilder adds "cards" with the play
  /// check of every card in hand).
  virtual nlohmann::json decision() const = 0;
  /// Applies the action given in its JSON form; refuses it (changing nothing) when illegal.
  virtual Result<void, Refused> submit(const nlohmann::json& action) = 0;

  /// Events emitted so far.
  virtual std::size_t event_count() const = 0;
  /// Event `i` in readable JSON (0 <= i < event_count()), with "type".
  virtual nlohmann::json event(std::size_t i) const = 0;
  /// Transitions taken so far.
  virtual std::size_t transition_count() const = 0;
  /// Transition `i`: {"sequence", "turn", "from", "trigger", "to"}.
  virtual nlohmann::json transition(std::size_t i) const = 0;
  /// Every submitted action, in order, in JSON form (the replay's action list).
  virtual nlohmann::json actions() const = 0;
  /// The engine's hash of the rules state, in hex.
  virtual std::string state_hash() const = 0;
  /// The rule set's own snapshot of the battle (`<rules>::snapshot`, docs/determinism.md): what
  /// `restore` turns back into an identical battle.
  virtual nlohmann::json engine_snapshot() const = 0;
  /// The battle as a replay file (`battlecore-replay`, docs/determinism.md#replays): every action
  /// the engine took, the server's own moves included, with the state hash after each; what
  /// `battlecore replay` checks.
  virtual nlohmann::ordered_json replay() const = 0;
  /// True when the server makes `action` itself (a clash bot seat's move), so that loading a
  /// replay file leaves it to the server rather than submitting it.
  virtual bool server_move(const nlohmann::json& /*action*/) const { return false; }
  /// The server moves a replay gave (RuleSetAdapter::start_replay) that the battle has made so
  /// far, in order; nullopt for a battle whose server chooses its moves, or makes none.
  virtual std::optional<nlohmann::json> server_moves_made() const { return std::nullopt; }
  /// Once a replay's every action is applied: the first server move it gave that the battle has
  /// not made, and never will (its decision waits on a seat the server does not play), refused
  /// with its index (Refused::server_move); nullopt when it made them all. (A move given with its
  /// place is made or refused there: none is left.)
  virtual std::optional<Refused> unused_server_move() const { return std::nullopt; }
  /// A named extra view (the deckbuilder's "draw_pile", "discard_pile", "exhaust_pile"), or
  /// nullopt when the rule set has no such view.
  virtual std::optional<nlohmann::json> detail(std::string_view name) const = 0;
};

/// A rule set as the monitor sees it. Shared by all request threads: const and thread-safe.
class RuleSetAdapter {
 public:
  virtual ~RuleSetAdapter() = default;
  /// The rule set's name ("deckbuilder"): the `rules` of requests and of the page's panels.
  virtual std::string_view rules() const = 0;
  /// The phase graph, from the rule set's Machine table.
  virtual PhaseGraph phase_graph() const = 0;
  /// {"pack", "encounters": [{"id", "name"}], "default_encounter"}.
  virtual nlohmann::json describe() const = 0;
  /// Starts a battle; an empty encounter means the pack's default.
  virtual Result<std::unique_ptr<MonitorBattle>, Refused> start(std::string_view encounter,
                                                                std::uint64_t seed) const = 0;
  /// Starts a battle whose server moves (MonitorBattle::server_move: the clash's bots) are those of
  /// `server_moves`, taken in order, rather than chosen by the server: a replay file's, whose bots
  /// may have been played by another policy (`sim --record`). With their places given
  /// (ServerMoves::places), each is made at its place among the actions submitted, as a replay
  /// file lists them: a move listed where another seat is to decide is refused, and so is an
  /// action submitted where the server's seat is to decide and the next move is listed later.
  /// Without places, each is made when the server's seat is to decide. Where the list ends, the
  /// server makes no further move: its decision waits, and refuses any other seat's move. A move
  /// the engine refuses, one left once the battle is over included, is refused with its index
  /// (Refused::server_move); so is one left at the replay's end (MonitorBattle::unused_server_move).
  /// The default, for a rule set whose server makes no moves, is start.
  virtual Result<std::unique_ptr<MonitorBattle>, Refused> start_replay(
      std::string_view encounter, std::uint64_t seed, const ServerMoves& /*server_moves*/) const {
    return start(encounter, seed);
  }
};

/// The JSON form of a phase graph: {"rules", "phases", "initial", "terminal", "edges": [{"from", "trigger",
/// "to"}]}.
nlohmann::json phase_graph_json(const PhaseGraph& graph);

}  // namespace battlecore::monitor
