#pragma once
/// The rule sets the monitor serves, each with its bundled content pack.

#include <iosfwd>
#include <memory>
#include <vector>

#include "battlecore/monitor/rule_set_adapter.hpp"

namespace battlecore::monitor {

/// One adapter per rule set, each over its bundled pack, loaded now (never during a request).
/// A pack that cannot be found or loaded is reported on `err` and its rule set left out.
std::vector<std::shared_ptr<const RuleSetAdapter>> builtin_adapters(std::ostream& err);

}  // namespace battlecore::monitor
