#pragma once
/// Policies: who picks among the legal options when no human does.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
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
  /// The choice itself, callable without a virtual call.
  std::size_t pick(std::size_t n) { return n > 1 ? rng_.below(static_cast<std::uint32_t>(n)) : 0; }

 private:
  Rng rng_;
};

/// The policy named `name` ("random"), or an error listing the known ones.
Result<std::unique_ptr<Policy>> make_policy(std::string_view name);

}  // namespace battlecore::deckbuilder
