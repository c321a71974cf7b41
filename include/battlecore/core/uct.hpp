#pragma once
/// A generic Upper Confidence bounds applied to Trees (UCT) search over copies of a battle, for
/// any number of players; the rule sets' `mcts` policies are thin layers over it.
///
/// - Every iteration starts from a copy of the battle whose hidden chance the traits re-sample
///   (Traits::resample), so the search never reads the real future.
/// - The tree is keyed by actions (open loop): a node is known by the Key of the action that
///   led to it and by the player who chose it, not by the state reached, so one node gathers
///   every chance outcome of its action. A node's children are scored with UCB1 over the
///   iterations in which they were legal (its `available` count). The logarithm in UCB1 is
///   portable_log, not std::log, whose last bits differ between math libraries: a search with
///   the same seed picks the same option on any machine.
/// - Multi-player (max-n): a node's value sums the rewards of its iterations for the player who
///   chose the move into it; at a node, the deciding player picks the child best for itself.
/// - Untried options are tried first, one per iteration, picked uniformly; then the rollout
///   plays Traits::rollout_pick to the end of the search (Traits::over), and the rewards of
///   every player (Traits::rewards, each in [0, 1]) are backed up along the path.
/// - The option visited most at the root is played (ties: the higher value sum).
/// - After warm-up an iteration allocates nothing when the battle keeps no event log or history
///   (as the simulator's): the copy, the nodes and the scratch vectors are reused (the copy is
///   assigned, not constructed). A battle that keeps them copies them into every sample.
///
/// The Traits object (it may carry state, e.g. what the battle looked like at the root):
///   using Action = ...; using Key = ...;  (Key: equality comparable, trivially copyable)
///   using Options = ...;  (optional: the contiguous list of Action that legal fills; without
///                          it, std::vector<Action>)
///   static constexpr std::size_t kMaxPlayers;
///   void resample(Battle&, std::uint64_t seed);          // hidden chance, for the searcher
///   void settle(Battle&);                                // answers decisions not searched
///   bool over(const Battle&);                            // the search stops here (end or cut-off)
///   void legal(const Battle&, Options&);                 // the options of the decision
///   Key key(const Battle&, const Action&);               // what an option does
///   std::size_t player(const Battle&);                   // who decides now, < kMaxPlayers
///   void submit(Battle&, const Action&);                 // applies a legal option
///   std::size_t rollout_pick(const Battle&, std::span<const Action>, Rng&);
///   void rewards(const Battle&, std::array<double, kMaxPlayers>&);  // each in [0, 1]
/// UctTraitsDefaults gives the usual settle, over, legal, submit and rollout_pick; Traits that
/// derive from it write only what differs. The search calls submit only with an option that
/// `legal` has just listed on the same battle, so Traits may apply it unchecked (the
/// deckbuilder's do, with Battle::submit_listed).

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "battlecore/core/decision.hpp"
#include "battlecore/core/invariant.hpp"
#include "battlecore/core/portable_math.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"

namespace battlecore {

/// The search's settings; also the settings of every rule set's `mcts` policy.
struct UctOptions {
  std::uint32_t iterations = 200;  ///< iterations per decision
  double exploration = 0.7;        ///< UCB1's exploration constant c (rewards are in [0, 1])
};

/// The most iterations one search makes: its tree holds about a node an iteration, so this
/// bounds it to some hundreds of megabytes.
inline constexpr std::uint32_t kMaxUctIterations = 10'000'000;

/// Refuses settings the search cannot run with: no iterations or more than kMaxUctIterations,
/// or a negative (or NaN) exploration constant. The messages name the `mcts` policy, the only
/// user of the settings.
inline Result<void> check_uct_options(const UctOptions& options) {
  if (options.iterations == 0) return Error{"mcts needs at least one iteration per decision"};
  if (options.iterations > kMaxUctIterations)
    return Error{"mcts makes at most " + std::to_string(kMaxUctIterations) +
                 " iterations per decision, not " + std::to_string(options.iterations)};
  if (!(options.exploration >= 0)) return Error{"the mcts exploration constant must be 0 or more"};
  return {};
}

/// The parts of a Traits object most rule sets share: no decision is answered outside the
/// search, the search runs to the battle's end, the options are the battle's legal actions, an
/// option is applied by Battle::submit (a refusal is an engine error) and a rollout picks
/// uniformly. A Traits object derives from it and hides what it does otherwise.
template <class Battle, class ActionT>
struct UctTraitsDefaults {
  using Action = ActionT;
  void settle(Battle&) const {}
  bool over(const Battle& b) const { return b.status() != Status::AwaitingDecision; }
  template <class List>
  void legal(const Battle& b, List& out) const {
    b.legal_actions(out);
  }
  void submit(Battle& b, const Action& a) const {
    BATTLECORE_ENSURE(b.submit(a).ok(), "a legal option was refused in the search{}", "");
  }
  std::size_t rollout_pick(const Battle&, std::span<const Action> options, Rng& rng) const {
    return options.size() > 1 ? rng.below(static_cast<std::uint32_t>(options.size())) : 0;
  }
};

/// Traits::Options when the traits name one, else std::vector of their Action.
template <class Traits>
struct UctOptionList {
  using type = std::vector<typename Traits::Action>;
};
template <class Traits>
requires requires { typename Traits::Options; }
struct UctOptionList<Traits> {
  using type = typename Traits::Options;
};

template <class Battle, class Traits>
class UctSearch {
 public:
  using Action = typename Traits::Action;
  using Key = typename Traits::Key;
  static constexpr std::size_t kMaxPlayers = Traits::kMaxPlayers;
  using Rewards = std::array<double, kMaxPlayers>;

  /// The index in `options` (the root's legal options, never empty) of the option to play.
  std::size_t choose(const Battle& root, std::span<const Action> options, Traits& traits, Rng& rng,
                     const UctOptions& settings) {
    if (options.size() <= 1) return 0;
    nodes_.clear();
    nodes_.push_back(Node{});
    log_.reserve(std::size_t{settings.iterations} + 1);  // no count exceeds the iterations
    const double c = settings.exploration;
    for (std::uint32_t it = 0; it < settings.iterations; ++it) {
      if (scratch_)
        *scratch_ = root;
      else
        scratch_.emplace(root);
      Battle& b = *scratch_;
      traits.resample(b, rng.next());
      traits.settle(b);
      path_.clear();
      path_.push_back(0);
      std::uint32_t node = 0;
      // Selection and expansion.
      while (!traits.over(b)) {
        traits.legal(b, legal_);
        const auto player = static_cast<std::uint8_t>(traits.player(b));
        keys_.clear();
        for (const Action& a : legal_) keys_.push_back(traits.key(b, a));
        legal_children_.clear();
        std::size_t untried = legal_.size();
        std::uint32_t untried_count = 0;
        for (std::size_t i = 0; i < legal_.size(); ++i) {
          bool duplicate = false;
          for (std::size_t j = 0; j < i && !duplicate; ++j) duplicate = keys_[j] == keys_[i];
          if (duplicate) continue;
          std::uint32_t child = nodes_[node].first_child;
          while (child != 0 && !(nodes_[child].player == player && nodes_[child].key == keys_[i]))
            child = nodes_[child].next_sibling;
          if (child == 0) {
            ++untried_count;  // a uniform choice among the untried options (reservoir sampling)
            if (untried_count == 1 || rng.below(untried_count) == 0) untried = i;
          } else {
            legal_children_.push_back(child);
          }
        }
        if (untried < legal_.size()) {
          Node fresh;
          fresh.key = keys_[untried];
          fresh.player = player;
          fresh.next_sibling = nodes_[node].first_child;
          fresh.available = 1;
          nodes_.push_back(fresh);
          const auto child = static_cast<std::uint32_t>(nodes_.size() - 1);
          nodes_[node].first_child = child;
          for (std::uint32_t other : legal_children_) ++nodes_[other].available;
          traits.submit(b, legal_[untried]);
          traits.settle(b);
          path_.push_back(child);
          break;
        }
        std::uint32_t best = legal_children_.front();
        double best_ucb = -std::numeric_limits<double>::infinity();
        for (std::uint32_t child : legal_children_) {
          Node& n = nodes_[child];
          ++n.available;
          const double ucb = n.value / n.visits + c * std::sqrt(log_of(n.available) / n.visits);
          if (ucb > best_ucb) {
            best_ucb = ucb;
            best = child;
          }
        }
        std::size_t chosen = 0;
        while (!(keys_[chosen] == nodes_[best].key)) ++chosen;  // the child came from this list
        traits.submit(b, legal_[chosen]);
        traits.settle(b);
        path_.push_back(best);
        node = best;
      }
      // Rollout.
      while (!traits.over(b)) {
        traits.legal(b, legal_);
        traits.submit(b, legal_[traits.rollout_pick(b, std::span<const Action>(legal_), rng)]);
        traits.settle(b);
      }
      Rewards rewards{};
      traits.rewards(b, rewards);
      for (std::uint32_t n : path_) {
        ++nodes_[n].visits;
        nodes_[n].value += rewards[nodes_[n].player];
      }
    }

    // The most visited option at the root; its key names an option of the real battle.
    std::uint32_t best = 0;
    for (std::uint32_t child = nodes_[0].first_child; child != 0; child = nodes_[child].next_sibling)
      if (best == 0 || nodes_[child].visits > nodes_[best].visits ||
          (nodes_[child].visits == nodes_[best].visits && nodes_[child].value > nodes_[best].value))
        best = child;
    if (best == 0) return 0;
    for (std::size_t i = 0; i < options.size(); ++i)
      if (traits.key(root, options[i]) == nodes_[best].key) return i;
    return 0;
  }

  /// The nodes of the last search (the root included).
  std::size_t tree_size() const { return nodes_.size(); }

 private:
  struct Node {
    Key key{};
    std::uint8_t player = 0;        ///< who chose the move into it (its value is theirs)
    std::uint32_t first_child = 0;  ///< 0: none (node 0 is the root, never a child)
    std::uint32_t next_sibling = 0;
    std::uint32_t visits = 0;
    std::uint32_t available = 0;  ///< iterations in which its action was legal at its parent
    double value = 0;             ///< sum of its player's rewards over the iterations through it
  };

  /// portable_log(k), from a table that grows with the largest count met: one logarithm per
  /// count, where UCB1 asks one per child at every level of every iteration. Its room is made for
  /// the search's iterations when the search starts and kept for the next: a search no larger than
  /// the ones before allocates nothing for it.
  double log_of(std::uint32_t k) {
    while (log_.size() <= k) log_.push_back(portable_log(static_cast<double>(log_.size())));
    return log_[k];
  }

  std::optional<Battle> scratch_;
  std::vector<double> log_;  ///< log_[k] = portable_log(k); log_[0] is never read
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> path_;
  typename UctOptionList<Traits>::type legal_;
  std::vector<Key> keys_;
  std::vector<std::uint32_t> legal_children_;
};

}  // namespace battlecore
