// libFuzzer target: any bytes as a replay file, checked against the bundled pack of the rule set
// it names (tests/fuzz/fuzz_targets.hpp, fuzz_replay).

#include <array>

#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace battlecore;
  static constexpr std::array<std::string_view, 3> kRuleSets = {
      sim::DeckbuilderRules::kName, sim::ClashRules::kName, sim::PartyRules::kName};
  content::Diagnostics diags;
  auto doc = fuzz::fuzz_document(data, size, diags);
  if (!doc) return 0;
  // The rule set is read first, as sim::replay_rules does; a file that names none is read
  // without one, and must be refused.
  content::Diagnostics rules_problem;
  content::ObjectReader reader(*doc, doc->root, "", rules_problem);
  const auto rules = reader.required_enum("rules", kRuleSets);
  if (!rules) {
    auto read = sim::replay_from_document(*doc, {}, kRuleSets);
    if (read) fuzz::fail("a replay that names no rule set is read");
    fuzz::check_refusal(read.error(), "a replay without a rule set");
    return 0;
  }
  switch (*rules) {
    case 0:
      return fuzz::fuzz_replay<sim::DeckbuilderRules>("starter", std::move(*doc), diags, kRuleSets);
    case 1:
      return fuzz::fuzz_replay<sim::ClashRules>("classic", std::move(*doc), diags, kRuleSets);
    default:
      return fuzz::fuzz_replay<sim::PartyRules>("meadow", std::move(*doc), diags, kRuleSets);
  }
}
