#pragma once
// Scenarios that start every battle or none: the property `sim --scenario` rests on for the rule
// sets that check a scenario once, with the first battle's seed (docs/determinism.md#scenarios).

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "battlecore/core/rng.hpp"

namespace battlecore::test {

/// Draws 150 scenarios with `make(rng)` (a JSON text) and starts each with seeds 1 to 20 through
/// `starts(text, seed)` (true when the scenario is accepted): each must be accepted for every seed
/// or refused for every seed, and both kinds must come up more than 30 times.
template <class Make, class Starts>
void expect_scenarios_start_every_seed_or_none(std::uint64_t rng_seed, Make make, Starts starts) {
  Rng rng = Rng::from_seed(rng_seed);
  int accepted = 0, refused = 0;
  for (int k = 0; k < 150; ++k) {
    const std::string scenario = make(rng);
    const bool first = starts(scenario, 1);
    (first ? accepted : refused) += 1;
    for (std::uint64_t seed = 2; seed <= 20; ++seed)
      ASSERT_EQ(starts(scenario, seed), first) << "seed " << seed << ": " << scenario;
  }
  EXPECT_GT(accepted, 30);
  EXPECT_GT(refused, 30);
}

}  // namespace battlecore::test
