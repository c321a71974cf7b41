#pragma once
// A benchmark's battle that does not start is an error of the run, not a battle over at once
// (which would read as an absurd rate).

#include <benchmark/benchmark.h>

#include <string>

namespace battlecore::bench {

/// Whether `start` (a start_battle result) started the battle; if not, the benchmark is marked
/// failed with the refusal's message, and the caller leaves its loop.
template <class Started>
bool started(benchmark::State& st, const Started& start) {
  if (start) return true;
  st.SkipWithError(("the battle does not start: " + start.error().message).c_str());
  return false;
}

}  // namespace battlecore::bench
