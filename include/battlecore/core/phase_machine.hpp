#pragma once
/// The phase machine shared by every rule set.
///
/// A rule set describes its graph with a traits type:
///
///   struct MyMachine {
///     using Phase = ...;    // enum class, enumerators 0..N-1
///     using Trigger = ...;  // enum class, enumerators 0..M-1
///     static constexpr std::string_view kRules = "name";
///     static constexpr std::array<std::string_view, N> kPhaseNames = {...};
///     static constexpr std::array<std::string_view, M> kTriggerNames = {...};
///     static constexpr Phase kInitial = ...;
///     static constexpr std::array kTerminal = {Phase::..., ...};
///     static constexpr std::array kTransitions = {Transition<Phase, Trigger>{from, trigger, to}, ...};
///   };
///
/// A phase handler does its steps and returns a trigger; PhaseDriver looks the edge up in the
/// table and moves. Phases never assign the current phase themselves. An undeclared edge throws
/// UndeclaredTransition naming the phase and the trigger. Every move is kept in the history.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "battlecore/core/invariant.hpp"

namespace battlecore {

/// One row of a transition table: in phase `from`, `trigger` moves to `to`.
template <class Phase, class Trigger>
struct Transition {
  Phase from;
  Trigger trigger;
  Phase to;
};

/// One move the machine made: the "Phase tab" of a monitor.
template <class Phase, class Trigger>
struct TransitionRecord {
  std::uint32_t sequence;  ///< 1 for the first move of the battle
  std::uint32_t turn;      ///< the rule set's turn number when the move happened
  Phase from;
  Trigger trigger;
  Phase to;
  friend bool operator==(const TransitionRecord&, const TransitionRecord&) = default;
};

/// Thrown when a handler asks for an edge the table does not declare.
class UndeclaredTransition : public InvariantError {
 public:
  using InvariantError::InvariantError;
};

/// Compile-time view of a rule set's table, with O(1) lookup.
template <class Traits>
struct PhaseMachine {
  using Phase = typename Traits::Phase;
  using Trigger = typename Traits::Trigger;
  static constexpr std::size_t kPhaseCount = Traits::kPhaseNames.size();
  static constexpr std::size_t kTriggerCount = Traits::kTriggerNames.size();
  static constexpr std::uint8_t kNoEdge = 0xFF;
  static_assert(kPhaseCount < kNoEdge, "too many phases for the lookup table");

  /// lookup[from][trigger] = to, or kNoEdge.
  static constexpr auto kLookup = [] {
    std::array<std::array<std::uint8_t, kTriggerCount>, kPhaseCount> table{};
    for (auto& row : table)
      for (auto& cell : row) cell = kNoEdge;
    for (const auto& t : Traits::kTransitions)
      table[static_cast<std::size_t>(t.from)][static_cast<std::size_t>(t.trigger)] =
          static_cast<std::uint8_t>(t.to);
    return table;
  }();

  /// True when no (from, trigger) pair appears twice in the table.
  static constexpr bool kRowsUnique = [] {
    const auto& rows = Traits::kTransitions;
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = i + 1; j < rows.size(); ++j)
        if (rows[i].from == rows[j].from && rows[i].trigger == rows[j].trigger) return false;
    return true;
  }();
  static_assert(kRowsUnique, "the transition table has two rows with the same (from, trigger)");

  static constexpr std::optional<Phase> target(Phase from, Trigger trigger) {
    const std::uint8_t to = kLookup[static_cast<std::size_t>(from)][static_cast<std::size_t>(trigger)];
    if (to == kNoEdge) return std::nullopt;
    return static_cast<Phase>(to);
  }

  static constexpr std::string_view phase_name(Phase p) {
    return Traits::kPhaseNames[static_cast<std::size_t>(p)];
  }
  static constexpr std::string_view trigger_name(Trigger t) {
    return Traits::kTriggerNames[static_cast<std::size_t>(t)];
  }
  static constexpr bool is_terminal(Phase p) {
    for (Phase t : Traits::kTerminal)
      if (t == p) return true;
    return false;
  }
};

/// The one driver: current phase, the move counter, and the transition history.
template <class Traits>
class PhaseDriver {
 public:
  using Machine = PhaseMachine<Traits>;
  using Phase = typename Traits::Phase;
  using Trigger = typename Traits::Trigger;
  using Record = TransitionRecord<Phase, Trigger>;

  Phase current() const { return current_; }
  std::uint32_t moves() const { return sequence_; }
  const std::vector<Record>& history() const { return history_; }
  /// Turning the history off (batch simulation) keeps only the move counter.
  void set_record_history(bool on) { record_history_ = on; }
  bool record_history() const { return record_history_; }

  /// Follows the edge (current, trigger); throws UndeclaredTransition when there is none.
  Phase fire(Trigger trigger, std::uint32_t turn) {
    // The table's byte itself, not target()'s optional: one compare on every transition.
    const std::uint8_t edge =
        Machine::kLookup[static_cast<std::size_t>(current_)][static_cast<std::size_t>(trigger)];
    if (edge == Machine::kNoEdge) [[unlikely]]
      undeclared(trigger);
    const auto to = static_cast<Phase>(edge);
    ++sequence_;
    if (record_history_) history_.push_back(Record{sequence_, turn, current_, trigger, to});
    current_ = to;
    return to;
  }

  /// Puts the driver back to the initial phase with an empty history.
  void reset() {
    current_ = Traits::kInitial;
    sequence_ = 0;
    history_.clear();
  }

  /// Restores a saved position (snapshots): no edge is followed.
  void restore(Phase current, std::uint32_t sequence, std::vector<Record> history) {
    current_ = current;
    sequence_ = sequence;
    history_ = std::move(history);
  }

  friend bool operator==(const PhaseDriver&, const PhaseDriver&) = default;

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void undeclared(Trigger trigger) const {
    throw UndeclaredTransition(std::string(Traits::kRules) + ": no transition from phase " +
                               std::string(Machine::phase_name(current_)) + " on trigger " +
                               std::string(Machine::trigger_name(trigger)));
  }

  Phase current_ = Traits::kInitial;
  std::uint32_t sequence_ = 0;
  bool record_history_ = true;
  std::vector<Record> history_;
};

/// A rule set's graph as plain strings, for export and checks (never on a hot path).
struct PhaseGraph {
  struct Edge {
    std::size_t from;
    std::string trigger;
    std::size_t to;
  };
  std::string rules;
  std::vector<std::string> phases;
  std::size_t initial = 0;
  std::vector<std::size_t> terminal;
  std::vector<Edge> edges;
};

/// Builds the string form of a rule set's table.
template <class Traits>
PhaseGraph make_phase_graph() {
  PhaseGraph g;
  g.rules = std::string(Traits::kRules);
  for (std::string_view p : Traits::kPhaseNames) g.phases.emplace_back(p);
  g.initial = static_cast<std::size_t>(Traits::kInitial);
  for (auto p : Traits::kTerminal) g.terminal.push_back(static_cast<std::size_t>(p));
  for (const auto& t : Traits::kTransitions)
    g.edges.push_back({static_cast<std::size_t>(t.from),
                       std::string(Traits::kTriggerNames[static_cast<std::size_t>(t.trigger)]),
                       static_cast<std::size_t>(t.to)});
  return g;
}

/// Graphviz DOT text of the graph (initial phase bold, terminal phases double-circled).
std::string to_dot(const PhaseGraph& graph);
/// Mermaid `stateDiagram-v2` text of the graph.
std::string to_mermaid(const PhaseGraph& graph);
/// Structural problems: unreachable phases, exits from terminal phases, duplicate
/// (from, trigger) rows, non-terminal phases with no exit. Empty when the graph is sound.
std::vector<std::string> check_phase_graph(const PhaseGraph& graph);

}  // namespace battlecore
