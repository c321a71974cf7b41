// libFuzzer target: any bytes as a deckbuilder battle on the bundled starter pack
// (tests/fuzz/fuzz_targets.hpp).

#include "battlecore/sim/deckbuilder_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return battlecore::fuzz::fuzz_bundled_actions<battlecore::sim::DeckbuilderRules>("starter", data, size);
}
