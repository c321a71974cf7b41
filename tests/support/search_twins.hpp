#pragma once
// What every rule set's MCTS must show on a battle and its twin (the same battle with only what
// the deciding player cannot know changed): the same choice on both, searches that drew alike,
// and the battle searched left as it was.

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace battlecore::test {

/// `a` and `b`, two policies made alike, reset with `step`: `a` chooses on `battle`, `b` on
/// `twin`, and the choices must agree; so must their next three choices on `battle` (a search
/// that went otherwise on the twin drew otherwise); and `battle` must be unchanged. `where` names
/// the point in the failure messages.
template <class Policy, class Battle, class Options>
void expect_blind_to_the_twin(Policy& a, Policy& b, Battle& battle, Battle& twin, const Options& options,
                              std::uint64_t step, const std::string& where) {
  const Battle before = battle;
  a.reset(step);
  b.reset(step);
  EXPECT_EQ(a.choose(battle, options), b.choose(twin, options)) << where;
  for (int next = 0; next < 3; ++next)
    EXPECT_EQ(a.choose(battle, options), b.choose(battle, options))
        << where << ": the searches went otherwise";
  EXPECT_TRUE(battle == before) << where;
}

}  // namespace battlecore::test
