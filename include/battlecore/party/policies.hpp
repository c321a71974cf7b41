#pragma once
/// Policies: who picks among the legal options when no human does. Both built-in policies
/// answer a Block decision by a configured success rate, using the roll the battle drew from
/// its own Dice stream when it posed the decision (Battle::block_roll), so the outcome of a
/// bot's block depends only on the battle's seed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
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
/// measured with the engine's own damage pipeline on a scratch copy of the state, and takes
/// the best (the first on ties). Uses no randomness; blocks by the block skill.
class GreedyPolicy final : public Policy {
 public:
  explicit GreedyPolicy(BlockSkill skill = {}) : skill_(skill) {}
  void reset(std::uint64_t) override {}
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;
  /// The score of one option (higher is better).
  static double score(const Battle& battle, const Action& action);

 private:
  BlockSkill skill_;
};

/// The policy named `name` ("random", "greedy"), or an error listing the known ones.
Result<std::unique_ptr<Policy>> make_policy(std::string_view name, BlockSkill skill = {});

}  // namespace battlecore::party
