// libFuzzer target: any bytes as a deckbuilder battle on the bundled starter pack
// (tests/fuzz/fuzz_targets.hpp).

#include <filesystem>

#include "battlecore/sim/deckbuilder_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using R = battlecore::sim::DeckbuilderRules;
  static const auto catalog = [] {
    auto loaded = R::load(std::filesystem::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter");
    if (!loaded) battlecore::fuzz::fail("the starter pack does not load:\n" + loaded.error().to_string());
    return loaded.value();
  }();
  return battlecore::fuzz::fuzz_actions<R>(catalog, data, size);
}
