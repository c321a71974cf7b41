#include "battlecore/deckbuilder/policies.hpp"

namespace battlecore::deckbuilder {

Result<std::unique_ptr<Policy>> make_policy(std::string_view name) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>());
  return Error{"unknown policy '" + std::string(name) + "'; known policies: random"};
}

}  // namespace battlecore::deckbuilder
