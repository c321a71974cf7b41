#pragma once
/// Policies: who picks among the legal options when no human does.
///
/// - `random`: uniformly among the legal options.
/// - `greedy`: one step of lookahead. Each option is applied to a copy of the battle whose
///   hidden chance has been re-sampled (resample_hidden; a Choice it opens takes its first
///   option) and the state right after it is scored: player HP + armor / 2 - the enemies' HP,
///   a win 1000 + HP, a loss -1000. Ending the turn scores the current state, so the turn ends
///   when no card improves the score. Ties go to the lowest index (cards before ending the turn).
/// - `mcts`: UCT over copies of the battle. Every iteration starts from a copy whose hidden
///   chance is re-sampled, so the search never reads the real future (the draw pile order, the
///   enemies' next intents, random effects) and still uses what the player knows of it (the
///   Innate cards left on top of the draw pile, the cards put there from the hand). The tree is keyed by
///   actions (open loop); a node's children are scored with UCB1 over the iterations in which they were
///   legal. Rollouts play to the end of the battle uniformly at random among the legal options other than
///   ending the turn (ending it only when nothing else is legal); a win is worth 0.5 + 0.5 x the player's HP
///   fraction, a loss 0.3 x the fraction of enemy HP removed. The option visited most at the root is played.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/core/uct.hpp"
#include "battlecore/core/uct_policy.hpp"
#include "battlecore/deckbuilder/battle.hpp"

namespace battlecore::deckbuilder {

/// Picks one of the legal options. Implement it to plug your own player in.
class Policy {
 public:
  virtual ~Policy() = default;
  /// Called at the start of each battle with a seed derived from the battle's.
  virtual void reset(std::uint64_t seed) = 0;
  /// The index of the chosen option; `options` is never empty.
  virtual std::size_t choose(const Battle& battle, std::span<const Action> options) = 0;
};

/// Uniformly random among the legal options; a single option uses no randomness.
class RandomPolicy final : public Policy {
 public:
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle&, std::span<const Action> options) override { return pick(options.size()); }
  /// The choice itself, callable without a virtual call. Always inlined: the decision loop made
  /// a call of it where the compiler weighed the loop too large.
  [[gnu::always_inline]] std::size_t pick(std::size_t n) {
    return n > 1 ? rng_.below(static_cast<std::uint32_t>(n)) : 0;
  }

 private:
  Rng rng_;
};

/// Re-samples what the player cannot know: every random stream of the battle is reseeded from
/// `seed` and the draw pile is reshuffled, but for the cards the player knows to be on top
/// (BattleState::known_on_top: the Innate cards the opening hand left there and the cards put
/// there from the hand, until the first reshuffle), which stay on top: the cards put there from
/// the hand as they lie (known_in_order_on_top), the Innate cards under them with their order
/// among themselves re-sampled, as the player has not seen it. The hand, the
/// piles' contents, HP, statuses and the enemies' shown intents are kept. For search on a copy,
/// never on the battle being played.
void resample_hidden(Battle& battle, std::uint64_t seed);

/// One step of lookahead on re-sampled copies (see the notes at the top).
class GreedyPolicy final : public Policy {
 public:
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;

 private:
  Rng rng_;
  std::vector<Action> scratch_;
};

/// What the search needs of a deckbuilder battle (policies.cpp): one player, the options keyed
/// by what they do, the rewards of the notes at the top.
struct MctsTraits;

/// Upper Confidence bounds applied to Trees over re-sampled copies (see the notes at the top),
/// on the generic search of battlecore/core/uct.hpp. Its members are instantiated in
/// policies.cpp (see the foot of this file).
using MctsPolicy = UctPolicy<Policy, Battle, Action, MctsTraits>;

/// The names make_policy knows, in order.
std::span<const std::string_view> policy_names();

/// The policy named `name` ("random", "greedy", "mcts"), or an error listing the known ones.
/// The mcts settings are checked (check_uct_options) only when `name` is "mcts".
Result<std::unique_ptr<Policy>> make_policy(std::string_view name, const UctOptions& options = {});

}  // namespace battlecore::deckbuilder

namespace battlecore {
extern template class UctPolicy<deckbuilder::Policy, deckbuilder::Battle, deckbuilder::Action,
                                deckbuilder::MctsTraits>;
}  // namespace battlecore
