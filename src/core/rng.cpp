#include "battlecore/core/rng.hpp"

namespace battlecore {

std::string_view stream_name(Stream s) {
  switch (s) {
    case Stream::Setup:
      return "setup";
    case Stream::Shuffle:
      return "shuffle";
    case Stream::Ai:
      return "ai";
    case Stream::Dice:
      return "dice";
    case Stream::Loot:
      return "loot";
    case Stream::Effects:
      return "effects";
  }
  return "unknown";  // only for a value cast from outside the enum
}

}  // namespace battlecore
