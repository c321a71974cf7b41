// The card piles as ranges of one array: every move keeps each pile's logical order exactly as
// four separate lists would, checked against such lists over long random sequences of moves.

#include "battlecore/deckbuilder/piles.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/core/invariant.hpp"

namespace battlecore::deckbuilder {
namespace {

constexpr std::array<Pile, 4> kAll = {Pile::Draw, Pile::Hand, Pile::Discard, Pile::Exhaust};

/// The piles as four plain lists, each in logical order (bottom first; the hand in hand order).
struct Model {
  std::array<std::vector<CardRef>, 4> piles;
  std::vector<CardRef>& operator[](Pile p) { return piles[static_cast<std::size_t>(p)]; }
  std::size_t total() const {
    std::size_t n = 0;
    for (const auto& p : piles) n += p.size();
    return n;
  }
};

template <class Range>
std::vector<CardRef> list(const Range& r) {
  return {r.begin(), r.end()};
}

std::vector<CardRef> logical(const Piles& p, Pile which) {
  switch (which) {
    case Pile::Draw:
      return list(p.draw());
    case Pile::Hand:
      return list(p.hand());
    case Pile::Discard:
      return list(p.discard());
    default:
      return list(p.exhaust());
  }
}

void expect_same(const Piles& p, Model& m, const std::string& step) {
  SCOPED_TRACE(step);
  for (Pile which : kAll) {
    EXPECT_EQ(logical(p, which), m[which]) << pile_name(which);
    EXPECT_EQ(p.size(which), m[which].size()) << pile_name(which);
  }
  EXPECT_EQ(p.total(), m.total());
}

TEST(Piles, TheDrawPileViewReadsBottomFirstWithItsTopAtTheBack) {
  Piles p;
  p.push(Pile::Draw, 1);
  p.push(Pile::Draw, 2);
  p.push(Pile::Draw, 3);
  const DrawPileView d = p.draw();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0], 1);
  EXPECT_EQ(d.front(), 1);
  EXPECT_EQ(d.back(), 3);
  EXPECT_EQ(list(d), (std::vector<CardRef>{1, 2, 3}));
  EXPECT_EQ(p.draw_to_hand(), 3);  // the top
  EXPECT_EQ(list(p.hand()), (std::vector<CardRef>{3}));
  EXPECT_EQ(list(p.draw()), (std::vector<CardRef>{1, 2}));
}

TEST(Piles, AHandCardLeavesForTheTopOfEachPileAndTheHandKeepsItsOrder) {
  for (Pile to : {Pile::Discard, Pile::Exhaust, Pile::Draw}) {
    SCOPED_TRACE(std::string(pile_name(to)));
    Piles p;
    Model m;
    for (CardRef c = 0; c < 3; ++c) {
      p.push(Pile::Discard, c);
      m[Pile::Discard].push_back(c);
      p.push(Pile::Exhaust, static_cast<CardRef>(10 + c));
      m[Pile::Exhaust].push_back(static_cast<CardRef>(10 + c));
      p.push(Pile::Draw, static_cast<CardRef>(20 + c));
      m[Pile::Draw].push_back(static_cast<CardRef>(20 + c));
    }
    for (CardRef c = 30; c < 35; ++c) {
      p.push(Pile::Hand, c);
      m[Pile::Hand].push_back(c);
    }
    EXPECT_EQ(p.hand_to(2, to), 32);
    m[Pile::Hand].erase(m[Pile::Hand].begin() + 2);
    m[to].push_back(32);
    expect_same(p, m, "after the move");
  }
}

/// Piles with `below` cards in the discard pile (the exhaust pile empty), a hand of `hand`
/// cards and the rest of the battle's capacity, up to `draw` cards, in the draw pile; the model
/// with the same piles. The cards are numbered 0, 1, 2, ... in that order, so a card's
/// neighbours in the array are one above and one below it.
Piles filled(std::size_t below, std::size_t hand, std::size_t draw, Model& m) {
  Piles p;
  CardRef c = 0;
  const auto add = [&](Pile pile, std::size_t n) {
    for (std::size_t k = 0; k < n && p.total() < kMaxCards; ++k, ++c) {
      p.push(pile, c);
      m[pile].push_back(c);
    }
  };
  add(Pile::Discard, below);
  add(Pile::Hand, hand);
  add(Pile::Draw, draw);
  return p;
}

// The hand is read as one word when it fits in 8 bytes inside the array, else card by card;
// both at every offset the hand can start at, for every hand size and every place in it.
TEST(Piles, HandIndexFindsEachCardAndGivesTheHandSizeForOneNotThere) {
  for (std::size_t hand = 0; hand <= kMaxHand; ++hand)
    for (std::size_t below = 0; below + hand <= kMaxCards; ++below) {
      SCOPED_TRACE("hand " + std::to_string(hand) + " after " + std::to_string(below));
      Model m;
      const Piles p = filled(below, hand, 8, m);
      for (std::size_t i = 0; i < hand; ++i) EXPECT_EQ(p.hand_index(m[Pile::Hand][i]), i);
      for (CardRef absent : m[Pile::Discard]) EXPECT_EQ(p.hand_index(absent), hand);
      for (CardRef absent : m[Pile::Draw]) EXPECT_EQ(p.hand_index(absent), hand);  // right after the hand
      EXPECT_EQ(p.hand_index(255), hand);
    }
}

TEST(Piles, AHandCardToTheDiscardPileMatchesTheListsFromEveryPlaceAndOffset) {
  for (std::size_t hand = 1; hand <= kMaxHand; ++hand)
    for (std::size_t below = 0; below + hand <= kMaxCards; ++below)
      for (std::size_t i = 0; i < hand; ++i) {
        Model m;
        Piles p = filled(below, hand, 8, m);
        const CardRef card = m[Pile::Hand][i];
        EXPECT_EQ(p.hand_to(i, Pile::Discard), card);
        m[Pile::Hand].erase(m[Pile::Hand].begin() + static_cast<std::ptrdiff_t>(i));
        m[Pile::Discard].push_back(card);
        expect_same(
            p, m,
            "card " + std::to_string(i) + " of " + std::to_string(hand) + " after " + std::to_string(below));
        if (::testing::Test::HasFailure()) return;
      }
}

// put_on_draw_pile from the discard pile: any discard pile card, over an exhaust pile and under
// hands of every size.
TEST(Piles, ADiscardPileCardGoesOnTopOfTheDrawPileFromEveryPlace) {
  for (const std::size_t hand : {std::size_t{0}, std::size_t{1}, std::size_t{5}, kMaxHand})
    for (std::size_t below = 1; below <= 12; ++below)
      for (std::size_t i = 0; i < below; ++i) {
        Model m;
        Piles p = filled(below, hand, 8, m);
        p.push(Pile::Exhaust, 200);
        m[Pile::Exhaust].push_back(200);
        const CardRef card = m[Pile::Discard][i];
        EXPECT_EQ(p.discard_to_draw(i), card);
        m[Pile::Discard].erase(m[Pile::Discard].begin() + static_cast<std::ptrdiff_t>(i));
        m[Pile::Draw].push_back(card);
        expect_same(
            p, m,
            "card " + std::to_string(i) + " of " + std::to_string(below) + ", hand " + std::to_string(hand));
        EXPECT_EQ(p.draw().back(), card);
        if (::testing::Test::HasFailure()) return;
      }
}

// put_in_hand: any card of the discard or the exhaust pile, each pile over or under the other's
// cards, goes to the end of hands of every size; no other pile gives a card this way.
TEST(Piles, ADiscardOrExhaustPileCardGoesToTheEndOfTheHandFromEveryPlace) {
  for (const Pile from : {Pile::Discard, Pile::Exhaust})
    for (const std::size_t hand : {std::size_t{0}, std::size_t{1}, std::size_t{5}, kMaxHand - 1})
      for (std::size_t below = 1; below <= 12; ++below)
        for (std::size_t i = 0; i < below; ++i) {
          Model m;
          Piles p = filled(below, hand, 8, m);
          for (CardRef c : {CardRef{200}, CardRef{201}, CardRef{202}}) {  // an exhaust pile under them
            p.push(Pile::Exhaust, c);
            m[Pile::Exhaust].push_back(c);
          }
          if (from == Pile::Exhaust)  // the discard pile's cards, exhausted, above those three
            while (!m[Pile::Discard].empty()) {
              p.push(Pile::Exhaust, p.erase(Pile::Discard, 0));
              m[Pile::Exhaust].push_back(m[Pile::Discard].front());
              m[Pile::Discard].erase(m[Pile::Discard].begin());
            }
          std::vector<CardRef>& pile = m[from];
          const std::size_t at = pile.size() - below + i;
          const CardRef card = pile[at];
          EXPECT_EQ(p.to_hand(from, at), card);
          pile.erase(pile.begin() + static_cast<std::ptrdiff_t>(at));
          m[Pile::Hand].push_back(card);
          expect_same(p, m,
                      std::string(pile_name(from)) + " card " + std::to_string(at) + ", hand " +
                          std::to_string(hand));
          if (::testing::Test::HasFailure()) return;
        }
  Model m;
  Piles p = filled(2, 2, 2, m);
  EXPECT_THROW(p.to_hand(Pile::Draw, 0), InvariantError);
  EXPECT_THROW(p.to_hand(Pile::Hand, 0), InvariantError);
  EXPECT_THROW(p.to_hand(Pile::Discard, 2), InvariantError);
  EXPECT_THROW(p.to_hand(Pile::Exhaust, 0), InvariantError);
  expect_same(p, m, "after the refused moves");
}

// scry and put_in_hand: any draw pile card, counted from the top, goes on top of the discard
// pile (or the exhaust pile) or to the end of the hand, under hands of every size and over an
// exhaust pile.
TEST(Piles, ADrawPileCardGoesToAnotherPileFromEveryPlace) {
  for (const Pile to : {Pile::Discard, Pile::Hand, Pile::Exhaust})
    for (const std::size_t hand : {std::size_t{0}, std::size_t{1}, std::size_t{5}, kMaxHand - 1})
      for (std::size_t below = 0; below <= 3; ++below)
        for (std::size_t draw = 1; draw <= 10; ++draw)
          for (std::size_t from_top = 0; from_top < draw; ++from_top) {
            Model m;
            Piles p = filled(below, hand, draw, m);
            p.push(Pile::Exhaust, 200);
            m[Pile::Exhaust].push_back(200);
            std::vector<CardRef>& pile = m[Pile::Draw];
            const std::size_t at = pile.size() - 1 - from_top;  // bottom first
            const CardRef card = pile[at];
            EXPECT_EQ(p.draw_top_first()[from_top], card);
            EXPECT_EQ(p.draw_to(to, from_top), card);
            pile.erase(pile.begin() + static_cast<std::ptrdiff_t>(at));
            m[to].push_back(card);
            expect_same(p, m,
                        "card " + std::to_string(from_top) + " from the top of " + std::to_string(draw) +
                            " to pile " + std::string(pile_name(to)) + ", hand " + std::to_string(hand));
            if (::testing::Test::HasFailure()) return;
          }
  Model m;
  Piles p = filled(1, 1, 2, m);
  EXPECT_THROW(p.draw_to(Pile::Discard, 2), InvariantError);
  EXPECT_THROW(p.draw_to(Pile::Draw, 0), InvariantError);
  EXPECT_THROW(p.draw_to(Pile::None, 0), InvariantError);
  expect_same(p, m, "after the refused moves");
}

TEST(Piles, DiscardFromHandMovesTheCardWhereverItIsAndLeavesThePilesWhenItIsNotThere) {
  for (std::size_t hand = 0; hand <= kMaxHand; ++hand)
    for (std::size_t below = 0; below + hand <= kMaxCards; ++below) {
      const std::string where = std::to_string(hand) + " after " + std::to_string(below);
      for (std::size_t i = 0; i < hand; ++i) {  // as hand_to(i, Discard)
        Model m;
        Piles p = filled(below, hand, 8, m);
        const CardRef card = m[Pile::Hand][i];
        EXPECT_TRUE(p.discard_from_hand(card));
        m[Pile::Hand].erase(m[Pile::Hand].begin() + static_cast<std::ptrdiff_t>(i));
        m[Pile::Discard].push_back(card);
        expect_same(p, m, "card " + std::to_string(i) + " of " + where);
      }
      Model m;
      Piles p = filled(below, hand, 8, m);
      const Piles before = p;
      for (CardRef absent : m[Pile::Draw]) EXPECT_FALSE(p.discard_from_hand(absent)) << where;
      for (CardRef absent : m[Pile::Discard]) EXPECT_FALSE(p.discard_from_hand(absent)) << where;
      EXPECT_FALSE(p.discard_from_hand(255)) << where;
      EXPECT_TRUE(p == before) << where;
      if (::testing::Test::HasFailure()) return;
    }
}

TEST(Piles, TheDiscardPileShuffledGoesUnderTheDrawPile) {
  Piles p;
  Model m;
  for (CardRef c = 0; c < 7; ++c) {
    p.push(Pile::Discard, c);
    m[Pile::Discard].push_back(c);
  }
  p.push(Pile::Draw, 40);
  m[Pile::Draw].push_back(40);
  p.push(Pile::Hand, 50);
  m[Pile::Hand].push_back(50);
  p.push(Pile::Exhaust, 60);
  m[Pile::Exhaust].push_back(60);
  Rng a = Rng::from_seed(9);
  Rng b = Rng::from_seed(9);
  p.shuffle_discard_under_draw(a);
  std::vector<CardRef> shuffled = m[Pile::Discard];
  b.shuffle(std::span<CardRef>(shuffled));
  shuffled.push_back(40);
  m[Pile::Draw] = shuffled;
  m[Pile::Discard].clear();
  expect_same(p, m, "after the shuffle");
  EXPECT_EQ(a, b);                 // one draw per swap, as a plain shuffle of the discard pile
  EXPECT_EQ(p.draw().back(), 40);  // the old draw pile stays on top
}

TEST(Piles, CardsPutUnderTheDrawPileLieAsInsertsAtTheBottomFromTheLastLeaveThem) {
  for (std::size_t below = 0; below < 4; ++below) {  // cards already in the draw pile
    for (std::size_t n = 0; n <= 12; ++n) {
      Piles put, inserted;
      for (Piles* p : {&put, &inserted}) {
        p->push(Pile::Hand, 60);
        p->push(Pile::Discard, 61);
        for (std::size_t k = 0; k < below; ++k) p->push(Pile::Draw, static_cast<CardRef>(50 + k));
      }
      const auto first = static_cast<CardRef>(3);
      put.put_under_draw(first, n);
      for (std::size_t ref = first + n; ref-- > first;)
        inserted.insert(Pile::Draw, 0, static_cast<CardRef>(ref));
      SCOPED_TRACE(testing::Message() << below << " cards in the draw pile, " << n << " put under");
      EXPECT_EQ(list(put.draw()), list(inserted.draw()));
      EXPECT_TRUE(put == inserted);
      if (n > 0) {
        EXPECT_EQ(put.draw().front(), first);  // the first card at the bottom
      }
    }
  }
  Piles full;
  full.put_under_draw(0, kMaxCards);
  EXPECT_THROW(full.put_under_draw(0, 1), InvariantError);
}

TEST(Piles, EqualityIgnoresPlacesNoPileUses) {
  Piles a;
  Piles b;
  a.push(Pile::Hand, 5);
  a.push(Pile::Hand, 6);
  a.erase(Pile::Hand, 1);
  b.push(Pile::Hand, 5);
  EXPECT_TRUE(a == b);
  b.push(Pile::Discard, 6);
  EXPECT_FALSE(a == b);
}

TEST(Piles, MovesOutsideThePilesAreInvariantFailures) {
  Piles p;
  EXPECT_THROW(p.draw_to_hand(), InvariantError);
  EXPECT_THROW(p.erase(Pile::Discard, 0), InvariantError);
  p.push(Pile::Hand, 1);
  EXPECT_THROW(p.hand_to(0, Pile::Hand), InvariantError);
  EXPECT_THROW(p.hand_to(1, Pile::Discard), InvariantError);
  EXPECT_THROW(p.push(Pile::None, 2), InvariantError);
  for (CardRef c = 1; c < kMaxCards; ++c) p.push(Pile::Discard, c);
  EXPECT_EQ(p.total(), kMaxCards);
  EXPECT_THROW(p.push(Pile::Draw, 0), InvariantError);
}

// Random moves of every kind, against the four lists, with the battle's capacity filled and
// emptied again many times.
TEST(Piles, LongRandomSequencesOfMovesMatchFourSeparateLists) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Piles p;
    Model m;
    Rng rng = Rng::from_seed(seed);
    CardRef next = 0;
    for (int step = 0; step < 2000; ++step) {
      const std::uint32_t kind = rng.below(10);
      const Pile pile = kAll[rng.below(4)];
      std::vector<CardRef>& list_of = m[pile];
      std::string what;
      if (kind <= 1 && m.total() < kMaxCards) {  // insert anywhere
        const std::size_t at = rng.below(static_cast<std::uint32_t>(list_of.size() + 1));
        const CardRef c = next++;
        p.insert(pile, at, c);
        list_of.insert(list_of.begin() + static_cast<std::ptrdiff_t>(at), c);
        what = "insert";
      } else if (kind == 2 && !list_of.empty()) {  // erase anywhere
        const std::size_t at = rng.below(static_cast<std::uint32_t>(list_of.size()));
        EXPECT_EQ(p.erase(pile, at), list_of[at]);
        list_of.erase(list_of.begin() + static_cast<std::ptrdiff_t>(at));
        what = "erase";
      } else if (kind == 3 && !m[Pile::Draw].empty()) {
        EXPECT_EQ(p.draw_to_hand(), m[Pile::Draw].back());
        m[Pile::Hand].push_back(m[Pile::Draw].back());
        m[Pile::Draw].pop_back();
        what = "draw";
      } else if (kind == 4 && !m[Pile::Hand].empty() && pile != Pile::Hand) {
        const std::size_t at = rng.below(static_cast<std::uint32_t>(m[Pile::Hand].size()));
        const CardRef c = m[Pile::Hand][at];
        EXPECT_EQ(p.hand_to(at, pile), c);
        m[Pile::Hand].erase(m[Pile::Hand].begin() + static_cast<std::ptrdiff_t>(at));
        list_of.push_back(c);
        what = "hand to " + std::string(pile_name(pile));
      } else if (kind == 5) {
        Rng copy = rng;
        p.shuffle_discard_under_draw(rng);
        std::vector<CardRef> moved = m[Pile::Discard];
        copy.shuffle(std::span<CardRef>(moved));
        moved.insert(moved.end(), m[Pile::Draw].begin(), m[Pile::Draw].end());
        m[Pile::Draw] = moved;
        m[Pile::Discard].clear();
        EXPECT_EQ(rng, copy);
        what = "shuffle the discard pile under the draw pile";
      } else if (kind == 6) {
        Rng copy = rng;
        p.shuffle(pile, rng);
        copy.shuffle(std::span<CardRef>(list_of));
        EXPECT_EQ(rng, copy);
        what = "shuffle " + std::string(pile_name(pile));
      } else if (kind == 7) {
        std::vector<CardRef> cards = list_of;
        std::reverse(cards.begin(), cards.end());
        p.assign(pile, cards);
        list_of = cards;
        what = "assign";
      } else if (kind == 8 && (pile == Pile::Discard || pile == Pile::Exhaust) && !list_of.empty()) {
        const std::size_t at = rng.below(static_cast<std::uint32_t>(list_of.size()));
        const CardRef c = list_of[at];
        EXPECT_EQ(p.to_hand(pile, at), c);
        list_of.erase(list_of.begin() + static_cast<std::ptrdiff_t>(at));
        m[Pile::Hand].push_back(c);
        what = std::string(pile_name(pile)) + " to the hand";
      } else if (kind == 9 && !m[Pile::Draw].empty()) {
        const std::size_t from_top = rng.below(static_cast<std::uint32_t>(m[Pile::Draw].size()));
        const std::size_t at = m[Pile::Draw].size() - 1 - from_top;
        const CardRef c = m[Pile::Draw][at];
        const Pile to = pile == Pile::Draw ? Pile::Discard : pile;  // the hand, too
        EXPECT_EQ(p.draw_to(to, from_top), c);
        m[Pile::Draw].erase(m[Pile::Draw].begin() + static_cast<std::ptrdiff_t>(at));
        m[to].push_back(c);
        what = "draw pile to pile " + std::string(pile_name(to));
      }
      if (!what.empty())
        expect_same(p, m, "seed " + std::to_string(seed) + " step " + std::to_string(step) + ": " + what);
      if (::testing::Test::HasFailure()) return;
      if (m.total() == 0) next = 0;
      if (next >= 250) next = 0;
    }
  }
}

}  // namespace
}  // namespace battlecore::deckbuilder
