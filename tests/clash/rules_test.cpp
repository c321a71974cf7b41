// The clash's plain rules: the five-element matrix (every pair, both orders), duels, the ring.

#include <gtest/gtest.h>

#include "battlecore/clash/rules.hpp"

namespace battlecore::clash {
namespace {

constexpr std::array<Element, 5> kElements = {Element::Air, Element::Earth, Element::Energy, Element::Fire,
                                              Element::Water};

// The game's WINNERS_MATRIX, as its source has it (github.com/Andresit1524/beast_card_clash):
// {element, beats, beats}.
struct Row {
  Element element;
  Element beats1, beats2;
};
constexpr std::array<Row, 5> kMatrix = {{{Element::Air, Element::Earth, Element::Water},
                                         {Element::Earth, Element::Energy, Element::Fire},
                                         {Element::Energy, Element::Air, Element::Water},
                                         {Element::Fire, Element::Air, Element::Energy},
                                         {Element::Water, Element::Earth, Element::Fire}}};

TEST(ClashMatrix, EveryPairOfDifferentElementsHasExactlyOneWinnerAsTheTableSays) {
  for (const Row& row : kMatrix)
    for (Element other : kElements) {
      if (other == row.element) continue;
      SCOPED_TRACE(std::string(element_name(row.element)) + " vs " + std::string(element_name(other)));
      const bool beats = other == row.beats1 || other == row.beats2;
      EXPECT_EQ(element_beats(row.element, other), beats);
      EXPECT_EQ(element_beats(other, row.element), !beats);
      // Both orders of the duel, with values that would say the opposite.
      const Card a{row.element, 1}, b{other, 10};
      EXPECT_EQ(compare_cards(a, b, EqualValues::Tie), beats ? 1 : -1);
      EXPECT_EQ(compare_cards(b, a, EqualValues::Tie), beats ? -1 : 1);
      EXPECT_EQ(compare_cards(a, b, EqualValues::LaterWins), beats ? 1 : -1);
    }
}

TEST(ClashMatrix, EachElementBeatsTwoAndLosesToTwo) {
  for (Element e : kElements) {
    int wins = 0, losses = 0;
    for (Element o : kElements) {
      wins += element_beats(e, o) ? 1 : 0;
      losses += element_beats(o, e) ? 1 : 0;
    }
    EXPECT_EQ(wins, 2) << element_name(e);
    EXPECT_EQ(losses, 2) << element_name(e);
    EXPECT_FALSE(element_beats(e, e));
    EXPECT_FALSE(element_beats(e, Element::None));
    EXPECT_FALSE(element_beats(Element::None, e));
  }
}

TEST(ClashDuel, SameElementHigherValueWinsInBothOrders) {
  for (Element e : kElements) {
    EXPECT_EQ(compare_cards({e, 7}, {e, 3}, EqualValues::Tie), 1);
    EXPECT_EQ(compare_cards({e, 3}, {e, 7}, EqualValues::Tie), -1);
  }
}

TEST(ClashDuel, EqualValuesTieOrTheLaterSeatWins) {
  EXPECT_EQ(compare_cards({Element::Fire, 5}, {Element::Fire, 5}, EqualValues::Tie), 0);
  EXPECT_EQ(compare_cards({Element::Fire, 5}, {Element::Fire, 5}, EqualValues::LaterWins), -1);
}

TEST(ClashDuel, NoCardOnEitherSideIsATie) {
  for (EqualValues eq : {EqualValues::Tie, EqualValues::LaterWins}) {
    EXPECT_EQ(compare_cards({}, {Element::Fire, 9}, eq), 0);
    EXPECT_EQ(compare_cards({Element::Fire, 9}, {}, eq), 0);
    EXPECT_EQ(compare_cards({}, {}, eq), 0);
  }
}

TEST(ClashRing, RockElementIsIndexModSixWithWildcardsAtMultiplesOfSix) {
  EXPECT_EQ(rock_element(0), Element::None);
  EXPECT_EQ(rock_element(1), Element::Air);
  EXPECT_EQ(rock_element(2), Element::Earth);
  EXPECT_EQ(rock_element(3), Element::Energy);
  EXPECT_EQ(rock_element(4), Element::Fire);
  EXPECT_EQ(rock_element(5), Element::Water);
  EXPECT_EQ(rock_element(6), Element::None);
  EXPECT_EQ(rock_element(12), Element::None);
  EXPECT_EQ(rock_element(17), Element::Water);
}

TEST(ClashRing, ARollOffersMinusThenPlusAroundTheRing) {
  EXPECT_EQ(offered_rocks(5, 3, 18), (std::array<std::uint8_t, 2>{2, 8}));
  EXPECT_EQ(offered_rocks(1, 4, 18), (std::array<std::uint8_t, 2>{15, 5}));
  EXPECT_EQ(offered_rocks(16, 6, 18), (std::array<std::uint8_t, 2>{10, 4}));
  EXPECT_EQ(offered_rocks(0, 3, 6), (std::array<std::uint8_t, 2>{3, 3}));
}

TEST(ClashRing, WildcardRocksTakeAnyCardOthersOnlyTheirElement) {
  for (Element e : kElements) {
    EXPECT_TRUE(playable_on({e, 4}, Element::None));
    for (Element rock : kElements) EXPECT_EQ(playable_on({e, 4}, rock), e == rock);
  }
  EXPECT_FALSE(playable_on({}, Element::None));
}

TEST(ClashElements, NamesRoundTrip) {
  for (std::size_t i = 0; i < kElementCount; ++i) {
    const auto e = static_cast<Element>(i);
    EXPECT_EQ(element_from_name(element_name(e)), e);
  }
  EXPECT_FALSE(element_from_name("lava").has_value());
  EXPECT_FALSE(element_from_name("Fire").has_value());
}

}  // namespace
}  // namespace battlecore::clash
