// libFuzzer target: any bytes as a party battle on the bundled meadow pack
// (tests/fuzz/fuzz_targets.hpp).

#include "battlecore/sim/party_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return battlecore::fuzz::fuzz_bundled_actions<battlecore::sim::PartyRules>("meadow", data, size);
}
