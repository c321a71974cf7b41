#pragma once
// Clash content for tests: the bundled classic pack, and small packs written in the test.

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "battlecore/clash/load.hpp"

namespace battlecore::test {

/// The bundled classic pack; throws (failing the test) when it does not load.
inline std::shared_ptr<const clash::Catalog> classic() {
  static const std::shared_ptr<const clash::Catalog> catalog = [] {
    clash::CatalogResult r =
        clash::load_catalog(std::filesystem::path(BATTLECORE_DATA_DIR) / "clash" / "classic");
    if (!r.ok()) throw std::runtime_error("the classic pack does not load:\n" + r.error().to_string());
    return r.value();
  }();
  return catalog;
}

/// A pack with one encounter "e": `seats` and `rules` are JSON text.
inline std::shared_ptr<const clash::Catalog> one_encounter(const std::string& seats,
                                                           const std::string& rules = "{}") {
  const std::string text = R"({"pack": {"id": "t", "rules": "clash", "default_encounter": "e"},
    "encounters": [{"id": "e", "seats": )" +
                           seats + R"(, "rules": )" + rules + "}]}";
  clash::CatalogResult r = clash::load_catalog_text("test.json", text);
  if (!r.ok()) throw std::runtime_error("the test pack does not load:\n" + r.error().to_string());
  return r.value();
}

inline const char* const kHumanAnd3Bots =
    R"([{"kind": "human", "name": "H"}, {"kind": "bot", "name": "B1"}, {"kind": "bot", "name": "B2"}, {"kind": "bot", "name": "B3"}])";
inline const char* const kFourBots =
    R"([{"kind": "bot", "name": "A"}, {"kind": "bot", "name": "B"}, {"kind": "bot", "name": "C"}, {"kind": "bot", "name": "D"}])";
inline const char* const kThreeBots =
    R"([{"kind": "bot", "name": "A"}, {"kind": "bot", "name": "B"}, {"kind": "bot", "name": "C"}])";
inline const char* const kTwoBots = R"([{"kind": "bot", "name": "A"}, {"kind": "bot", "name": "B"}])";

}  // namespace battlecore::test
