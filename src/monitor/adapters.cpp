#include "battlecore/monitor/adapters.hpp"

#include <ostream>

#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/monitor/deckbuilder_adapter.hpp"
#include "battlecore/sim/content_path.hpp"

namespace battlecore::monitor {

namespace {

std::shared_ptr<const RuleSetAdapter> deckbuilder_adapter(std::ostream& err) {
  const auto pack = sim::find_bundled_pack("deckbuilder");
  if (!pack) {
    err << "battlecore serve: the bundled deckbuilder pack was not found\n";
    return nullptr;
  }
  auto catalog = deckbuilder::load_catalog(*pack);
  if (!catalog) {
    err << catalog.error().to_string();
    return nullptr;
  }
  return make_deckbuilder_adapter(catalog.value());
}

}  // namespace

std::vector<std::shared_ptr<const RuleSetAdapter>> builtin_adapters(std::ostream& err) {
  std::vector<std::shared_ptr<const RuleSetAdapter>> adapters;
  // One line per rule set.
  if (auto a = deckbuilder_adapter(err)) adapters.push_back(std::move(a));
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
