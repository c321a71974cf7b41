#pragma once
// The bundled deckbuilder starter pack, loaded once per test program.

#include <filesystem>
#include <memory>
#include <stdexcept>

#include "battlecore/deckbuilder/load.hpp"

namespace battlecore::test {

/// The starter pack's catalog; throws (failing the test) when it does not load.
inline std::shared_ptr<const deckbuilder::Catalog> starter() {
  static const std::shared_ptr<const deckbuilder::Catalog> catalog = [] {
    deckbuilder::CatalogResult r =
        deckbuilder::load_catalog(std::filesystem::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter");
    if (!r.ok()) throw std::runtime_error("the starter pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return catalog;
}

}  // namespace battlecore::test
