#pragma once
/// The party rule set's monitor adapter: battles of a loaded catalog, behind JSON.

#include <memory>

#include "battlecore/monitor/rule_set_adapter.hpp"
#include "battlecore/party/catalog.hpp"

namespace battlecore::monitor {

/// An adapter serving battles of `catalog` (loaded once, before the server starts).
std::shared_ptr<const RuleSetAdapter> make_party_adapter(std::shared_ptr<const party::Catalog> catalog);

}  // namespace battlecore::monitor
