// libFuzzer target: any bytes as a clash battle on the bundled classic pack
// (tests/fuzz/fuzz_targets.hpp).

#include "battlecore/sim/clash_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return battlecore::fuzz::fuzz_bundled_actions<battlecore::sim::ClashRules>("classic", data, size);
}
