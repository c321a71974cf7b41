// Reading content: a pack with a problem in each of many cards, listed in full as `validate` lists
// it. Each diagnostic locates its value in the file's text (line and column). Run with
// `make bench`; figures go to docs/performance.md.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/load.hpp"

namespace {

using namespace battlecore;

// A cards file of `n` cards, each with one unknown key: n diagnostics, one per card.
content::JsonDocument cards_with_a_typo_each(std::size_t n) {
  std::string text = "{ \"cards\": [\n";
  for (std::size_t i = 0; i < n; ++i)
    text += fmt::format(
        "  {{ \"id\": \"card_{}\", \"type\": \"attack\", \"cost\": 1, \"target\": \"enemy\", \"colour\": "
        "\"red\",\n"
        "    \"effects\": [{{ \"op\": \"damage\", \"amount\": 6 }}] }}{}\n",
        i, i + 1 < n ? "," : "");
  text += "] }\n";
  content::Diagnostics diags;
  auto doc = content::parse_json_text("cards.json", std::move(text), diags);
  if (!doc || !diags.empty()) throw std::runtime_error("the benchmark's cards file does not parse");
  return std::move(*doc);
}

void BM_LoadPackWithAProblemPerCard(benchmark::State& st) {
  const std::size_t n = static_cast<std::size_t>(st.range(0));
  const content::JsonDocument doc = cards_with_a_typo_each(n);
  std::vector<content::JsonDocument> docs;
  // Only the load is timed: the copy it reads is made, and freed with the problems it gives, while
  // the timing is paused (at 4,000 cards, the freeing was a sixth of the time measured).
  for (auto _ : st) {
    st.PauseTiming();
    docs.clear();
    docs.push_back(doc);  // a copy locates from scratch, as a load does
    st.ResumeTiming();
    {
      auto loaded = deckbuilder::load_catalog(docs);
      st.PauseTiming();
      if (loaded || loaded.error().size() != n) st.SkipWithError("expected one problem per card");
      benchmark::DoNotOptimize(loaded);
    }
    st.ResumeTiming();
  }
  st.counters["problems_per_s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LoadPackWithAProblemPerCard)->Arg(400)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace
