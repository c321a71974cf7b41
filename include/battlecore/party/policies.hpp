#pragma once
/// Policies: who picks among the legal options when no human does. Every built-in policy
/// answers a Block decision by a configured success rate, using the roll the battle drew from
/// its own Dice stream when it posed the decision (Battle::block_roll), so the outcome of a
/// bot's block depends only on the battle's seed.
///
/// - `random`: uniformly among the legal options.
/// - `greedy`: one step, each option scored by its immediate effect (docs/party.md#policies).
/// - `mcts`: UCT over copies of the battle (battlecore/core/uct.hpp). Every iteration starts
///   from a copy whose random streams are reseeded (resample_hidden; the party has no hidden
///   hands), so the search never reads the real future (enemy choices, flee rolls, block
///   rolls). The tree is keyed by actions (open loop); Block decisions are not searched but
///   answered by the block skill (answer_block), in the search and in rollouts alike. Rollouts
///   play uniformly at random to the end of the battle. A victory is worth 0.5 + 0.5 x the
///   party's HP fraction, a defeat 0.3 x the fraction of the enemies' HP (active and reserves,
///   as at the root) removed. Fleeing does not win the battle, so it would score as a defeat at
///   best; it is left out of the search and the rollouts (taken only when it is the only
///   option), since with a small budget and more options than iterations its one noisy sample
///   could otherwise pick it. The option visited most at the root is played.

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
#include "battlecore/party/battle.hpp"

namespace battlecore::party {

/// How well a bot blocks: a roll below `super_block_percent` is a super block, below
/// `block_percent` a block, anything else no block.
struct BlockSkill {
  std::uint32_t block_percent = 60;
  std::uint32_t super_block_percent = 15;
};

/// The index of the Block option a bot with `skill` takes for the pending hit.
std::size_t answer_block(const Battle& battle, std::span<const Action> options, const BlockSkill& skill);

/// Picks one of the legal options. Implement it to plug your own player in.
class Policy {
 public:
  virtual ~Policy() = default;
  /// Called at the start of each battle with a seed derived from the battle's.
  virtual void reset(std::uint64_t seed) = 0;
  /// The index of the chosen option; `options` is never empty.
  virtual std::size_t choose(const Battle& battle, std::span<const Action> options) = 0;
};

/// Uniformly random among the legal options (its own generator); blocks by the block skill.
class RandomPolicy final : public Policy {
 public:
  explicit RandomPolicy(BlockSkill skill = {}) : skill_(skill) {}
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;

 private:
  BlockSkill skill_;
  Rng rng_;
};

/// One-step greedy (docs/party.md#policies): scores each option by its immediate effect,
/// measured with the engine's own damage pipeline on a scratch copy of the state whose random
/// streams are reseeded (one sample from its own generator per decision, shared by the options,
/// so the score never reads the battle's rolls to come), and takes the best (the first on
/// ties). Blocks by the block skill.
class GreedyPolicy final : public Policy {
 public:
  explicit GreedyPolicy(BlockSkill skill = {}) : skill_(skill) {}
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;
  /// The score of one option (higher is better); the scratch copy's streams are reseeded from
  /// `sample`.
  static double score(const Battle& battle, const Action& action, std::uint64_t sample);

 private:
  BlockSkill skill_;
  Rng rng_;
};

/// Re-samples what the party cannot know, for search on a copy (never on the battle being
/// played): every random stream is reseeded from `seed`. Everything else (HP, conditions,
/// formation, items, enemies, a pending block roll) is kept.
void resample_hidden(Battle& battle, std::uint64_t seed);

/// What the search needs of a party battle (policies.cpp): the block skill that answers Block
/// decisions, the options keyed by the canonical action, the rewards of the notes at the top.
struct MctsTraits;

/// UCT over re-sampled copies (see the notes at the top); blocks by the block skill. Its
/// members are instantiated in policies.cpp (see the foot of this file).
class MctsPolicy final : public UctPolicy<Policy, Battle, Action, MctsTraits> {
 public:
  explicit MctsPolicy(BlockSkill skill = {}, UctOptions options = {});
};

/// The names make_policy knows, in order.
std::vector<std::string_view> policy_names();
/// The policy named `name` ("random", "greedy", "mcts"), or an error listing the known ones.
/// The mcts settings are checked (check_uct_options) only when `name` is "mcts".
Result<std::unique_ptr<Policy>> make_policy(std::string_view name, BlockSkill skill = {},
                                            const UctOptions& options = {});

}  // namespace battlecore::party

namespace battlecore {
extern template class UctPolicy<party::Policy, party::Battle, party::Action, party::MctsTraits>;
}  // namespace battlecore
