#pragma once
/// The rules of Beast Card Clash that are plain functions: elements, cards, the five-element
/// matrix, the ring of rocks, and the parameters an encounter sets
/// (as the game's source has them: github.com/Andresit1524/beast_card_clash).

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace battlecore::clash {

/// The original's `Elements` enum: NONE is "no card" on a hand and "wildcard" on a rock.
enum class Element : std::uint8_t { None, Air, Earth, Energy, Fire, Water };
inline constexpr std::size_t kElementCount = 6;

/// "none", "air", "earth", "energy", "fire", "water".
std::string_view element_name(Element e);
/// The element named `name` (lower case, as in content), or nothing.
std::optional<Element> element_from_name(std::string_view name);

inline constexpr std::uint8_t kMinCardValue = 1;
inline constexpr std::uint8_t kMaxCardValue = 10;

/// One card: an element (never None for a real card) and a value 1 to 10. A seat's choice for
/// the round is a Card; {None, 0} means "no card played".
struct Card {
  Element element = Element::None;
  std::uint8_t value = 0;
  constexpr bool empty() const { return element == Element::None; }
  friend bool operator==(const Card&, const Card&) = default;
};

/// The matrix (WINNERS_MATRIX): each element beats two and loses to two.
constexpr bool element_beats(Element a, Element b) {
  switch (a) {
    case Element::Air:
      return b == Element::Earth || b == Element::Water;
    case Element::Earth:
      return b == Element::Energy || b == Element::Fire;
    case Element::Energy:
      return b == Element::Air || b == Element::Water;
    case Element::Fire:
      return b == Element::Air || b == Element::Energy;
    case Element::Water:
      return b == Element::Earth || b == Element::Fire;
    case Element::None:
      return false;
  }
  return false;
}

/// How equal values of the same element are judged (versions of the original disagree).
enum class EqualValues : std::uint8_t {
  Tie,        ///< nobody wins (referee.gd @42d4be7); the default
  LaterWins,  ///< the later seat of the pair wins (referee.gd @1306bb5)
};

/// When a seat is out (versions of the original disagree).
enum class Elimination : std::uint8_t {
  AtZero,     ///< health 0 or below: 5 lost duels from 5 health (player.gd @f6ebf70); the default
  BelowZero,  ///< health below 0: 6 lost duels (player.gd @0b18989, @14504b0)
};

/// Who wins a duel between an earlier seat's card `a` and a later seat's card `b`:
/// 1 the earlier seat, -1 the later seat, 0 a tie (the original's `_compare_players`).
/// No card on either side is a tie; the same element compares values; else the matrix.
constexpr int compare_cards(Card a, Card b, EqualValues equal) {
  if (a.empty() || b.empty()) return 0;
  if (a.element == b.element) {
    if (a.value > b.value) return 1;
    if (a.value < b.value) return -1;
    return equal == EqualValues::LaterWins ? -1 : 0;
  }
  return element_beats(a.element, b.element) ? 1 : -1;
}

/// Rock i has element i mod 6 over the six enum values: rocks 0, 6, 12, ... are wildcards.
constexpr Element rock_element(std::uint32_t rock) { return static_cast<Element>(rock % kElementCount); }

/// Whether `card` may be played on a rock of element `rock`: the rock's element, or any card on
/// a wildcard rock.
constexpr bool playable_on(Card card, Element rock) {
  return !card.empty() && (rock == Element::None || card.element == rock);
}

/// The two rocks a roll of `dice` offers from `rock` on a ring of `rocks`: minus first, then plus.
constexpr std::array<std::uint8_t, 2> offered_rocks(std::uint32_t rock, std::uint32_t dice,
                                                    std::uint32_t rocks) {
  return {static_cast<std::uint8_t>((rock + rocks - dice % rocks) % rocks),
          static_cast<std::uint8_t>((rock + dice) % rocks)};
}

}  // namespace battlecore::clash
