#include "battlecore/core/uct_policy.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/core/uct.hpp"

namespace battlecore {
namespace {

/// A one-decision game: the player picks a number from 0 to 3 and scores it / 3. When `forced`
/// is set, the rule set answers the decision itself (option 1) without a search.
struct PickBattle {
  int picked = -1;
  bool forced = false;
};

class PickPolicy {
 public:
  virtual ~PickPolicy() = default;
  virtual void reset(std::uint64_t seed) = 0;
  virtual std::size_t choose(const PickBattle& battle, std::span<const int> options) = 0;
};

struct PickTraits {
  using Action = int;
  using Key = int;
  static constexpr std::size_t kMaxPlayers = 1;
  int roots = 0;  ///< searches started

  std::optional<std::size_t> answer(const PickBattle& b, std::span<const int>) const {
    return b.forced ? std::optional<std::size_t>(1) : std::nullopt;
  }
  void at_root(const PickBattle&, std::span<const int>) { ++roots; }
  void resample(PickBattle&, std::uint64_t) const {}
  void settle(PickBattle&) const {}
  bool over(const PickBattle& b) const { return b.picked >= 0; }
  void legal(const PickBattle&, std::vector<int>& out) const { out = {0, 1, 2, 3}; }
  Key key(const PickBattle&, const int& a) const { return a; }
  std::size_t player(const PickBattle&) const { return 0; }
  void submit(PickBattle& b, const int& a) const { b.picked = a; }
  std::size_t rollout_pick(const PickBattle&, std::span<const int> options, Rng& rng) const {
    return rng.below(static_cast<std::uint32_t>(options.size()));
  }
  void rewards(const PickBattle& b, std::array<double, 1>& out) const { out[0] = b.picked / 3.0; }
};

class CountingPickPolicy final : public UctPolicy<PickPolicy, PickBattle, int, PickTraits> {
 public:
  using UctPolicy::UctPolicy;
  int roots() { return traits().roots; }
};

constexpr std::array<int, 4> kOptions = {0, 1, 2, 3};

TEST(UctOptions, RefusesNoIterationsTooManyAndANegativeExploration) {
  EXPECT_TRUE(check_uct_options(UctOptions{}).ok());
  EXPECT_TRUE(check_uct_options(UctOptions{.iterations = 1, .exploration = 0}).ok());
  const auto none = check_uct_options(UctOptions{.iterations = 0});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "mcts needs at least one iteration per decision");
  EXPECT_TRUE(check_uct_options(UctOptions{.iterations = kMaxUctIterations}).ok());
  const auto many = check_uct_options(UctOptions{.iterations = kMaxUctIterations + 1});
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().message, "mcts makes at most 10000000 iterations per decision, not 10000001");
  const auto negative = check_uct_options(UctOptions{.iterations = 5, .exploration = -0.1});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().message, "the mcts exploration constant must be 0 or more");
  const auto nan = check_uct_options(UctOptions{.iterations = 5, .exploration = std::nan("")});
  ASSERT_FALSE(nan.ok());
  EXPECT_EQ(nan.error().message, "the mcts exploration constant must be 0 or more");
}

TEST(UctPolicy, SearchesToTheBestOption) {
  CountingPickPolicy policy(UctOptions{.iterations = 64});
  policy.reset(7);
  EXPECT_EQ(policy.choose(PickBattle{}, kOptions), 3u);
  EXPECT_EQ(policy.roots(), 1);
  EXPECT_EQ(policy.options().iterations, 64u);
}

TEST(UctPolicy, ADecisionTheTraitsAnswerIsNotSearched) {
  CountingPickPolicy policy(UctOptions{.iterations = 64});
  policy.reset(7);
  EXPECT_EQ(policy.choose(PickBattle{.picked = -1, .forced = true}, kOptions), 1u);
  EXPECT_EQ(policy.roots(), 0);
}

TEST(UctPolicy, ASingleOptionIsPlayedWithoutASearch) {
  CountingPickPolicy policy;
  policy.reset(7);
  EXPECT_EQ(policy.choose(PickBattle{}, std::span<const int>(kOptions).first(1)), 0u);
  EXPECT_EQ(policy.roots(), 0);
}

TEST(UctPolicy, PlaysThroughItsPolicyInterface) {
  std::unique_ptr<PickPolicy> policy = std::make_unique<CountingPickPolicy>(UctOptions{.iterations = 64});
  policy->reset(3);
  EXPECT_EQ(policy->choose(PickBattle{}, kOptions), 3u);
}

}  // namespace
}  // namespace battlecore
