#pragma once
/// Policies: who picks among the legal options when no human does.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "battlecore/clash/battle.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"

namespace battlecore::clash {

/// Picks one of the legal options. Implement it to plug your own player in.
class Policy {
 public:
  virtual ~Policy() = default;
  /// Called at the start of each battle with a seed derived from the battle's.
  virtual void reset(std::uint64_t seed) = 0;
  /// The index of the chosen option; `options` is never empty.
  virtual std::size_t choose(const Battle& battle, std::span<const Action> options) = 0;
};

/// The original's bot: a random rock of the two, a random playable card.
class RandomPolicy final : public Policy {
 public:
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle&, std::span<const Action> options) override { return pick(options.size()); }
  std::size_t pick(std::size_t n) { return n > 1 ? rng_.below(static_cast<std::uint32_t>(n)) : 0; }

 private:
  Rng rng_;
};

/// Prefers the rock and card that beat the most remaining opponents' likely elements, then the
/// higher value; deterministic (ties go to the lower option index).
class GreedyPolicy final : public Policy {
 public:
  void reset(std::uint64_t) override {}
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;
};

/// How much `card` is expected to win against the other remaining seats of `battle`, seen from
/// `seat`: a seat that has played counts with its card; one still to play with the elements of
/// the twelve rocks it can reach (a wildcard rock counting each element alike) and value 5.5.
double greedy_card_score(const Battle& battle, SeatRef seat, Card card);

/// The names make_policy knows.
std::vector<std::string_view> policy_names();
/// The policy named `name` ("random", "greedy"), or an error listing the known ones.
Result<std::unique_ptr<Policy>> make_policy(std::string_view name);

}  // namespace battlecore::clash
