#pragma once
// A policy of a user's own for the simulator's tests: always the first option, counting its
// choices (from any thread) in a counter the test reads.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace battlecore::test {

/// For `Base`, a rule set's Policy, whose battles are `Battle` and options `Action`.
template <class Base, class Battle, class Action>
class FirstOption final : public Base {
 public:
  explicit FirstOption(std::atomic<std::uint64_t>& chosen) : chosen_(chosen) {}
  void reset(std::uint64_t) override {}
  std::size_t choose(const Battle&, std::span<const Action>) override {
    ++chosen_;
    return 0;
  }

 private:
  std::atomic<std::uint64_t>& chosen_;
};

}  // namespace battlecore::test
