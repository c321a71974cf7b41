#include "battlecore/core/phase_machine.hpp"

#include <algorithm>
#include <array>
#include <deque>

#include <fmt/format.h>

namespace battlecore {

namespace {

bool in_range(const PhaseGraph& graph, std::size_t phase) { return phase < graph.phases.size(); }

bool is_terminal(const PhaseGraph& graph, std::size_t phase) {
  return std::find(graph.terminal.begin(), graph.terminal.end(), phase) != graph.terminal.end();
}

/// The phase's name, or "#index" for an index the graph does not have (check_phase_graph
/// reports those; the exporters still print something rather than read out of bounds).
std::string phase_label(const PhaseGraph& graph, std::size_t phase) {
  return in_range(graph, phase) ? graph.phases[phase] : fmt::format("#{}", phase);
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!letter(s.front())) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || digit(c); });
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string dot_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

/// A DOT ID: bare when it is a plain identifier and not a DOT keyword, quoted otherwise.
std::string dot_id(std::string_view s) {
  static constexpr std::array<std::string_view, 6> kKeywords = {"node",    "edge",     "graph",
                                                                "digraph", "subgraph", "strict"};
  const std::string lower = lowercase(s);
  const bool keyword = std::find(kKeywords.begin(), kKeywords.end(), lower) != kKeywords.end();
  return is_identifier(s) && !keyword ? std::string(s) : dot_quoted(s);
}

/// A Mermaid state id: the name itself when it is a plain identifier, else "s<index>" (declared
/// with its name as label at the top of the diagram).
std::string mermaid_id(const PhaseGraph& graph, std::size_t phase) {
  if (!in_range(graph, phase)) return fmt::format("missing_{}", phase);
  const std::string& name = graph.phases[phase];
  return is_identifier(name) ? name : fmt::format("s{}", phase);
}

}  // namespace

std::string to_dot(const PhaseGraph& graph) {
  std::string out = fmt::format("digraph {} {{\n", dot_id(graph.rules));
  out += "  rankdir=LR;\n";
  // The initial phase is drawn bold and entered from a point, as in UML state diagrams.
  out += "  __start [shape=point];\n";
  for (std::size_t p = 0; p < graph.phases.size(); ++p) {
    std::string attributes;
    if (p == graph.initial) attributes = "style=bold";
    if (is_terminal(graph, p))
      attributes += attributes.empty() ? "shape=doublecircle" : ", shape=doublecircle";
    out += fmt::format("  {}{};\n", dot_id(graph.phases[p]),
                       attributes.empty() ? std::string() : fmt::format(" [{}]", attributes));
  }
  out += fmt::format("  __start -> {};\n", dot_id(phase_label(graph, graph.initial)));
  for (const PhaseGraph::Edge& e : graph.edges)
    out += fmt::format("  {} -> {} [label={}];\n", dot_id(phase_label(graph, e.from)),
                       dot_id(phase_label(graph, e.to)), dot_quoted(e.trigger));
  out += "}\n";
  return out;
}

std::string to_mermaid(const PhaseGraph& graph) {
  std::string out = "stateDiagram-v2\n";
  for (std::size_t p = 0; p < graph.phases.size(); ++p)
    if (!is_identifier(graph.phases[p]))
      out += fmt::format("  state \"{}\" as {}\n", graph.phases[p], mermaid_id(graph, p));
  out += fmt::format("  [*] --> {}\n", mermaid_id(graph, graph.initial));
  // A phase on no edge would otherwise not be drawn at all.
  for (std::size_t p = 0; p < graph.phases.size(); ++p) {
    const bool on_edge = std::any_of(graph.edges.begin(), graph.edges.end(),
                                     [p](const PhaseGraph::Edge& e) { return e.from == p || e.to == p; });
    if (!on_edge && p != graph.initial && !is_terminal(graph, p))
      out += fmt::format("  {}\n", mermaid_id(graph, p));
  }
  for (const PhaseGraph::Edge& e : graph.edges)
    out += fmt::format("  {} --> {} : {}\n", mermaid_id(graph, e.from), mermaid_id(graph, e.to), e.trigger);
  std::vector<std::size_t> drawn;
  for (std::size_t t : graph.terminal) {
    if (std::find(drawn.begin(), drawn.end(), t) != drawn.end()) continue;
    drawn.push_back(t);
    out += fmt::format("  {} --> [*]\n", mermaid_id(graph, t));
  }
  return out;
}

std::vector<std::string> check_phase_graph(const PhaseGraph& graph) {
  std::vector<std::string> problems;
  const auto report = [&](std::string text) { problems.push_back(fmt::format("{}: {}", graph.rules, text)); };
  const std::size_t count = graph.phases.size();
  if (count == 0) {
    report("the graph has no phases");
    return problems;
  }

  // Indices first: the later checks only follow edges whose both ends exist.
  if (!in_range(graph, graph.initial))
    report(fmt::format("initial phase index {} is out of range ({} phases)", graph.initial, count));
  for (std::size_t t : graph.terminal)
    if (!in_range(graph, t))
      report(fmt::format("terminal phase index {} is out of range ({} phases)", t, count));
  const auto edge_text = [&](const PhaseGraph::Edge& e) {
    return fmt::format("{} --{}--> {}", phase_label(graph, e.from), e.trigger, phase_label(graph, e.to));
  };
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    const PhaseGraph::Edge& e = graph.edges[i];
    if (!in_range(graph, e.from))
      report(fmt::format("edge {} ({}): from index {} is out of range ({} phases)", i, edge_text(e), e.from,
                         count));
    if (!in_range(graph, e.to))
      report(
          fmt::format("edge {} ({}): to index {} is out of range ({} phases)", i, edge_text(e), e.to, count));
  }

  // Each (from, trigger) at most once: the lookup table would silently keep the last row.
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    const PhaseGraph::Edge& e = graph.edges[i];
    for (std::size_t earlier = 0; earlier < i; ++earlier) {
      const PhaseGraph::Edge& d = graph.edges[earlier];
      if (d.from == e.from && d.trigger == e.trigger) {
        report(fmt::format("duplicate (from, trigger) ({}, {}): edges {} and {}", phase_label(graph, e.from),
                           e.trigger, earlier, i));
        break;
      }
    }
  }

  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    const PhaseGraph::Edge& e = graph.edges[i];
    if (in_range(graph, e.from) && is_terminal(graph, e.from))
      report(
          fmt::format("terminal phase {} has an exit: edge {} ({})", graph.phases[e.from], i, edge_text(e)));
  }

  for (std::size_t p = 0; p < count; ++p) {
    if (is_terminal(graph, p)) continue;
    const bool has_exit = std::any_of(graph.edges.begin(), graph.edges.end(),
                                      [p](const PhaseGraph::Edge& e) { return e.from == p; });
    if (!has_exit) report(fmt::format("phase {} is not terminal and has no exit", graph.phases[p]));
  }

  if (in_range(graph, graph.initial)) {
    std::vector<bool> reached(count, false);
    std::deque<std::size_t> frontier{graph.initial};
    reached[graph.initial] = true;
    while (!frontier.empty()) {
      const std::size_t p = frontier.front();
      frontier.pop_front();
      for (const PhaseGraph::Edge& e : graph.edges) {
        if (e.from != p || !in_range(graph, e.to) || reached[e.to]) continue;
        reached[e.to] = true;
        frontier.push_back(e.to);
      }
    }
    for (std::size_t p = 0; p < count; ++p)
      if (!reached[p])
        report(fmt::format("phase {} is unreachable from the initial phase {}", graph.phases[p],
                           graph.phases[graph.initial]));
  }
  return problems;
}

}  // namespace battlecore
