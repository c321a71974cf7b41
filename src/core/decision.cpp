#include "battlecore/core/decision.hpp"

namespace battlecore {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::AwaitingDecision:
      return "awaiting_decision";
    case Status::Finished:
      return "finished";
  }
  return "unknown";  // only for a value cast from outside the enum
}

}  // namespace battlecore
