#include "battlecore/monitor/adapters.hpp"

#include <ostream>

#include "battlecore/clash/load.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/monitor/clash_adapter.hpp"
#include "battlecore/monitor/deckbuilder_adapter.hpp"
#include "battlecore/monitor/party_adapter.hpp"
#include "battlecore/party/load.hpp"
#include "battlecore/sim/content_path.hpp"

namespace battlecore::monitor {

namespace {

/// The adapter of rule set `rules` over its bundled pack `pack`, or nullptr (said on `err`).
template <class LoadCatalog, class MakeAdapter>
std::shared_ptr<const RuleSetAdapter> bundled(std::string_view rules, std::string_view pack_name,
                                              LoadCatalog load_catalog, MakeAdapter make_adapter,
                                              std::ostream& err) {
  const auto pack = sim::find_bundled_pack(rules, pack_name);
  if (!pack) {
    err << "battlecore serve: the bundled " << rules << " pack '" << pack_name << "' was not found\n";
    return nullptr;
  }
  auto catalog = load_catalog(*pack);
  if (!catalog) {
    err << catalog.error().to_string();
    return nullptr;
  }
  return make_adapter(catalog.value());
}

}  // namespace

std::vector<std::shared_ptr<const RuleSetAdapter>> builtin_adapters(std::ostream& err) {
  std::vector<std::shared_ptr<const RuleSetAdapter>> adapters;
  // One line per rule set.
  const auto add = [&](std::shared_ptr<const RuleSetAdapter> a) {
    if (a) adapters.push_back(std::move(a));
  };
  add(bundled(
      "deckbuilder", "starter", [](const auto& p) { return deckbuilder::load_catalog(p); },
      make_deckbuilder_adapter, err));
  add(bundled(
      "clash", "classic", [](const auto& p) { return clash::load_catalog(p); }, make_clash_adapter, err));
  add(bundled(
      "party", "meadow", [](const auto& p) { return party::load_catalog(p); }, make_party_adapter, err));
  return adapters;
}

nlohmann::json phase_graph_json(const PhaseGraph& graph) {
  nlohmann::json edges = nlohmann::json::array();
  for (const auto& e : graph.edges)
    edges.push_back({{"from", graph.phases[e.from]}, {"trigger", e.trigger}, {"to", graph.phases[e.to]}});
  nlohmann::json terminal = nlohmann::json::array();
  for (std::size_t t : graph.terminal) terminal.push_back(graph.phases[t]);
  return {{"rules", graph.rules},
          {"phases", graph.phases},
          {"initial", graph.phases[graph.initial]},
          {"terminal", terminal},
          {"edges", edges}};
}

}  // namespace battlecore::monitor
