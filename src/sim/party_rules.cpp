#include "battlecore/sim/party_rules.hpp"

#include <fmt/format.h>

#include "battlecore/party/load.hpp"
#include "battlecore/party/scenario.hpp"
#include "battlecore/party/snapshot.hpp"
#include "battlecore/sim/rules_support.hpp"

namespace battlecore::sim {

using namespace party;

Result<std::shared_ptr<const Catalog>, content::Diagnostics> PartyRules::load(
    const std::filesystem::path& p) {
  return load_catalog(p);
}

Result<std::shared_ptr<const Catalog>, content::Diagnostics> PartyRules::load(
    const std::vector<content::JsonDocument>& documents) {
  return load_catalog(documents);
}

std::vector<std::string> PartyRules::encounters(const Catalog& catalog) { return encounter_ids(catalog); }

Result<Battle> PartyRules::start(const std::shared_ptr<const Catalog>& catalog, const BattleStart& start,
                                 BattleOptions options) {
  return start_battle_or_scenario<Battle>(catalog, start, options, [](auto&&... args) {
    return party::start_scenario(std::forward<decltype(args)>(args)...);
  });
}

Result<Battle, content::Diagnostics> PartyRules::start_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                                const content::JsonDocument& scenario,
                                                                std::uint64_t seed) {
  return party::start_scenario(catalog, scenario, seed);
}

nlohmann::json PartyRules::snapshot(const Battle& battle) { return party::snapshot(battle); }

Result<Battle> PartyRules::restore(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j) {
  return party::restore(catalog, j);
}

std::vector<std::string> PartyRules::invariants(const Battle& before, const Battle& after) {
  std::vector<std::string> broken;
  if (std::string why; !check_invariants(after, &why)) broken.push_back(why);
  const BattleState& s = after.state();
  for (std::size_t i = 0; i < s.enemies.size(); ++i)
    for (std::size_t j = i + 1; j < s.enemies.size(); ++j)
      if (s.enemies[i].uid == s.enemies[j].uid)
        broken.push_back(fmt::format("enemies {} and {} share number {}", i, j, s.enemies[i].uid));
  if (!before.started()) return broken;
  const BattleState& b = before.state();
  if (s.members.size() != b.members.size())
    broken.push_back(fmt::format("the party went from {} to {} members", b.members.size(), s.members.size()));
  if (s.turn < b.turn) broken.push_back(fmt::format("the turn went back from {} to {}", b.turn, s.turn));
  if (s.items.size() != b.items.size())
    broken.push_back(fmt::format("the item slots went from {} to {}", b.items.size(), s.items.size()));
  else
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (s.items[i].item != b.items[i].item || s.items[i].count > b.items[i].count)
        broken.push_back(fmt::format("item slot {} grew or changed item", i));
  return broken;
}

Action PartyRules::action_from_bytes(std::span<const std::uint8_t, 4> b) {
  Action a;
  a.kind = static_cast<ActionKind>(b[0] % kActionKindCount);
  a.index = b[1];
  a.target = static_cast<std::int8_t>(b[2]);
  (void)b[3];
  return a;
}

}  // namespace battlecore::sim
