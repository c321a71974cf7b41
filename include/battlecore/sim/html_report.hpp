#pragma once
/// A run's report as one self-contained HTML page: inline CSS and SVG, no script, nothing
/// fetched from anywhere, so it opens in any browser without a network.

#include <string>

#include "battlecore/sim/report.hpp"

namespace battlecore::sim {

/// The page: the run's settings, the win rate with its 95% Wilson interval (and policy B's and
/// the paired difference when there is one), histograms of turns and of HP left, and the card
/// and enemy tables.
std::string render_html(const SimReport& report);

}  // namespace battlecore::sim
