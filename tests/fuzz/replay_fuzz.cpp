// libFuzzer target: any bytes as a replay file, checked against the bundled pack of the rule set
// it names (tests/fuzz/fuzz_targets.hpp, fuzz_replay).

#include <array>
#include <string>

#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace battlecore;
  static const std::array<sim::ReplayRuleSet, 3> kRuleSets = {sim::replay_rule_set<sim::DeckbuilderRules>(),
                                                              sim::replay_rule_set<sim::ClashRules>(),
                                                              sim::replay_rule_set<sim::PartyRules>()};
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto file = sim::read_replay_text("fuzz.json", text, kRuleSets);
  fuzz::check_one_pass_reading(text, kRuleSets, file);
  if (!file) {
    fuzz::check_refusal(file.error(), "a replay");
    return 0;
  }
  const std::string& rules = file.value().replay.rules;
  if (rules == sim::DeckbuilderRules::kName)
    return fuzz::fuzz_replay<sim::DeckbuilderRules>("starter", file.value(), kRuleSets);
  if (rules == sim::ClashRules::kName)
    return fuzz::fuzz_replay<sim::ClashRules>("classic", file.value(), kRuleSets);
  return fuzz::fuzz_replay<sim::PartyRules>("meadow", file.value(), kRuleSets);
}
