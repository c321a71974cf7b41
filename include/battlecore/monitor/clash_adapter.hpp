#pragma once
/// The clash's monitor adapter: battles of a loaded catalog, behind JSON; the server plays the
/// bot seats up to the next human decision (docs/monitor.md, "Clash").

#include <memory>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/monitor/rule_set_adapter.hpp"

namespace battlecore::monitor {

/// An adapter serving battles of `catalog` (loaded once, before the server starts).
std::shared_ptr<const RuleSetAdapter> make_clash_adapter(std::shared_ptr<const clash::Catalog> catalog);

}  // namespace battlecore::monitor
