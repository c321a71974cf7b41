#pragma once
/// Clash content: a pack names encounters; an encounter names its seats and its rule
/// parameters. Immutable once loaded (shared as shared_ptr<const Catalog>).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "battlecore/clash/rules.hpp"

namespace battlecore::clash {

using EncounterId = std::uint16_t;

inline constexpr std::size_t kMinSeats = 2;
inline constexpr std::size_t kMaxSeats = 4;
inline constexpr std::size_t kMaxHandSize = 12;
inline constexpr std::size_t kMaxDeckSize = 60;
inline constexpr std::uint32_t kMaxRocks = 96;

enum class SeatKind : std::uint8_t { Human, Bot };
std::string_view seat_kind_name(SeatKind k);

struct SeatDef {
  SeatKind kind = SeatKind::Bot;
  std::string name;
};

/// Where hands come from.
enum class DeckSource : std::uint8_t {
  Random,  ///< every card a random element and a random value 1 to 10 (the original)
  Listed,  ///< each seat draws from its own shuffled copy of the encounter's list
};

/// The rule parameters, each with its documented default (docs/clash.md#rule-parameters).
struct RuleParams {
  std::int32_t health = 5;  ///< MAX_HEALTH
  Elimination elimination = Elimination::AtZero;
  EqualValues equal_values = EqualValues::Tie;
  std::uint8_t hand_size = 9;  ///< INITIAL_CARDS (7 in older versions)
  bool refill = true;          ///< a new card after each play
  DeckSource deck = DeckSource::Random;
  std::vector<Card> listed_deck;             ///< DeckSource::Listed: the list
  std::uint32_t rocks = 18;                  ///< ROCK_COUNT, a multiple of 6
  std::vector<std::uint8_t> starting_rocks;  ///< one per seat; empty: spread evenly
  bool end_when_human_out = false;           ///< referee.gd @1306bb5
  bool resetup_between_rounds = false;       ///< Referee -> Start between rounds
  std::uint32_t round_limit = 200;           ///< then the ranking is completed by health
  std::uint32_t sudden_death_rounds = 0;     ///< SuddenDeath rounds a battle may have; 0: off
};

struct EncounterDef {
  std::string id;
  std::string name;
  std::vector<SeatDef> seats;
  RuleParams rules;
};

struct PackInfo {
  std::string id;
  std::string name;
  std::optional<EncounterId> default_encounter;
};

/// Everything a clash battle reads.
struct Catalog {
  PackInfo pack;
  std::vector<EncounterDef> encounters;
  std::uint64_t content_hash = 0;  ///< FNV-1a over the content files' text, in load order
  /// The encounter named `id`, if any.
  std::optional<EncounterId> find_encounter(std::string_view id) const;
};

}  // namespace battlecore::clash
