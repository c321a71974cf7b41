#pragma once
/// The card piles of a battle (draw pile, hand, discard pile, exhaust pile) as ranges of one
/// array of card instances.
///
/// Each pile has a logical order, the one snapshots, views and hashes show: the draw pile
/// bottom first (its top, the next card drawn, is the back), the hand in hand order, the
/// discard and exhaust piles bottom first. The array holds them in the physical order
///
///     [ exhaust | discard | hand | draw, top first ]
///
/// so that the moves a turn makes most often cost next to nothing: a draw moves one boundary
/// (the draw pile's top sits right after the hand's end), a card leaving the hand for the
/// discard pile shifts only the hand cards before it, and a whole hand discarded in hand order
/// moves one boundary per card. Any other move shifts the cards between the two places, at
/// most kMaxCards bytes.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <utility>

#include "battlecore/core/invariant.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/deckbuilder/actions.hpp"
#include "battlecore/deckbuilder/events.hpp"

namespace battlecore::deckbuilder {

inline constexpr std::size_t kMaxCards = 64;  ///< card instances in one battle
inline constexpr std::size_t kMaxHand = 12;

/// The draw pile in its logical order, bottom first: back() is the top, the next card drawn.
class DrawPileView {
 public:
  using value_type = CardRef;
  using iterator = std::reverse_iterator<const CardRef*>;
  /// `top_first` points at the top card; the pile's n cards follow it, top to bottom.
  DrawPileView(const CardRef* top_first, std::size_t n) : first_(top_first), size_(n) {}
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  CardRef operator[](std::size_t i) const { return first_[size_ - 1 - i]; }
  CardRef front() const { return first_[size_ - 1]; }
  CardRef back() const { return first_[0]; }
  iterator begin() const { return iterator(first_ + size_); }
  iterator end() const { return iterator(first_); }

 private:
  const CardRef* first_;
  std::size_t size_;
};

/// The four piles in one array (see the file comment). A plain value: copying it copies them.
class Piles {
 public:
  std::span<const CardRef> exhaust() const { return range(kExhaust); }
  std::span<const CardRef> discard() const { return range(kDiscard); }
  std::span<const CardRef> hand() const { return range(kHand); }
  DrawPileView draw() const { return DrawPileView(cards_.data() + ends_[kHand], size(Pile::Draw)); }
  /// The draw pile top first (its order in the array): [0] is the next card drawn.
  std::span<const CardRef> draw_top_first() const { return range(kDraw); }
  std::size_t size(Pile p) const {
    const std::size_t r = region(p);
    return ends_[r] - begin(r);
  }
  /// Cards in all piles together.
  std::size_t total() const { return ends_[kDraw]; }

  /// Inserts `card` at logical position `i` of `p` (0 = bottom; size(p) = on top).
  void insert(Pile p, std::size_t i, CardRef card) {
    BATTLECORE_ENSURE(total() < kMaxCards, "the piles hold {} cards, the most a battle has", total());
    BATTLECORE_ENSURE(i <= size(p), "insert at {} into pile {} of {} cards", i, pile_name(p), size(p));
    const std::size_t r = region(p);
    shift_up(r == kDraw ? ends_[r] - i : begin(r) + i, total(), card);
    for (std::size_t k = r; k < kRegions; ++k) ++ends_[k];
  }
  /// Puts `card` on top of `p` (the hand: at its end).
  void push(Pile p, CardRef card) { insert(p, size(p), card); }
  /// Removes the card at logical position `i` of `p` and returns it.
  CardRef erase(Pile p, std::size_t i) {
    BATTLECORE_ENSURE(i < size(p), "erase {} from pile {} of {} cards", i, pile_name(p), size(p));
    const std::size_t r = region(p);
    const CardRef card = shift_down(r == kDraw ? ends_[r] - 1 - i : begin(r) + i, total() - 1, 0);
    for (std::size_t k = r; k < kRegions; ++k) --ends_[k];
    return card;
  }
  /// Replaces the cards of `p` by `cards`, given in logical order (`cards` is not a view of
  /// these piles).
  template <class Range>
  void assign(Pile p, const Range& cards) {
    if (p == Pile::Draw) {  // the array's last region: written in place, top first
      const std::size_t n = std::size(cards);
      BATTLECORE_ENSURE(ends_[kHand] + n <= kMaxCards, "the piles would hold {} cards, more than {}",
                        ends_[kHand] + n, kMaxCards);
      for (std::size_t k = 0; k < n; ++k) cards_[ends_[kHand] + k] = cards[n - 1 - k];
      ends_[kDraw] = static_cast<std::uint8_t>(ends_[kHand] + n);
      return;
    }
    while (size(p) > 0) erase(p, size(p) - 1);
    for (CardRef c : cards) push(p, c);
  }
  /// Puts cards `first` to `first + n - 1` under the draw pile in that order, `first` at the
  /// bottom: what inserting each at the bottom, from the last one, gives.
  void put_under_draw(CardRef first, std::size_t n) {
    BATTLECORE_ENSURE(total() + n <= kMaxCards, "the piles would hold {} cards, more than {}", total() + n,
                      kMaxCards);
    const std::size_t bottom = total();  // the bottom of the draw pile is the array's end
    for (std::size_t j = 0; j < n; ++j) cards_[bottom + j] = static_cast<CardRef>(first + n - 1 - j);
    ends_[kDraw] = static_cast<std::uint8_t>(ends_[kDraw] + n);
  }
  /// Empties every pile.
  void clear() { *this = Piles{}; }

  /// The top of the draw pile goes to the end of the hand; returns it.
  CardRef draw_to_hand() {
    BATTLECORE_ENSURE(ends_[kDraw] > ends_[kHand], "draw from an empty draw pile{}", "");
    return cards_[ends_[kHand]++];
  }
  /// The top `n` cards of the draw pile go to the end of the hand, the top one first: n draws.
  void draw_to_hand(std::size_t n) {
    BATTLECORE_ENSURE(n <= size(Pile::Draw), "draw {} from a draw pile of {}", n, size(Pile::Draw));
    ends_[kHand] = static_cast<std::uint8_t>(ends_[kHand] + n);
  }
  /// The whole hand goes on top of the discard pile in hand order: hand_to(0, Discard) until
  /// the hand is empty, in one step.
  void discard_hand() { ends_[kDiscard] = ends_[kHand]; }
  /// Where `card` is in the hand (0 first), or the hand's size when it is not there.
  std::size_t hand_index(CardRef card) const {
    const std::size_t first = ends_[kDiscard];
    const std::size_t n = ends_[kHand] - first;
    if (fits_one_word(first, n)) return std::min(first_byte_equal(hand_word(first), card), n);
    std::size_t i = 0;
    while (i < n && cards_[first + i] != card) ++i;
    return i;
  }
  /// `card` goes from the hand to the top of the discard pile when it is in the hand: hand_index
  /// and hand_to(i, Discard) in one, the hand read as one word once. Returns whether it was there.
  bool discard_from_hand(CardRef card) {
    const std::size_t first = ends_[kDiscard];
    const std::size_t n = ends_[kHand] - first;
    if (!fits_one_word(first, n)) {
      const std::size_t i = hand_index(card);
      if (i == n) return false;
      hand_to(i, Pile::Discard);
      return true;
    }
    const std::uint64_t w = hand_word(first);
    const std::size_t i = first_byte_equal(w, card);
    if (i >= n) return false;
    move_up_to(first, w, i, card);
    ++ends_[kDiscard];
    return true;
  }
  /// Hand card `i` goes on top of `to` (discard, exhaust or draw pile); the rest of the hand
  /// keeps its order. Returns the card.
  CardRef hand_to(std::size_t i, Pile to) {
    BATTLECORE_ENSURE(i < size(Pile::Hand), "hand card {} of {}", i, size(Pile::Hand));
    const std::size_t at = ends_[kDiscard] + i;
    const CardRef card = cards_[at];
    switch (to) {
      case Pile::Discard:  // the hand cards before it move up one; it ends the discard pile
        if (fits_one_word(ends_[kDiscard], size(Pile::Hand))) {
          const std::size_t first = ends_[kDiscard]++;
          move_up_to(first, hand_word(first), i, card);
          return card;
        }
        shift_up(ends_[kDiscard]++, at, card);
        return card;
      case Pile::Exhaust:  // the discard pile and the hand cards before it move up one
        shift_up(ends_[kExhaust]++, at, card);
        ++ends_[kDiscard];
        return card;
      case Pile::Draw:  // the hand cards after it move down one; it starts the draw pile (its top)
        shift_down(at, --ends_[kHand], card);
        return card;
      case Pile::Hand:
      case Pile::None:
        break;
    }
    BATTLECORE_ENSURE(false, "cannot move card {} from the hand to pile {}", card, pile_name(to));
    return card;
  }
  /// Discard pile card `i` (0 the bottom) goes on top of the draw pile; the discard cards above
  /// it and the hand move down one place. Returns the card.
  CardRef discard_to_draw(std::size_t i) {
    BATTLECORE_ENSURE(i < size(Pile::Discard), "discard pile card {} of {}", i, size(Pile::Discard));
    const std::size_t at = begin(kDiscard) + i;
    const CardRef card = cards_[at];
    shift_down(at, ends_[kHand] - 1u, card);
    --ends_[kDiscard];
    --ends_[kHand];
    return card;
  }
  /// Card `i` (0 the bottom) of the discard or exhaust pile goes to the end of the hand; the
  /// cards above it up to the hand's end move down one place. Returns the card.
  CardRef to_hand(Pile from, std::size_t i) {
    BATTLECORE_ENSURE(from == Pile::Discard || from == Pile::Exhaust,
                      "cannot move a card from pile {} to the hand", pile_name(from));
    BATTLECORE_ENSURE(i < size(from), "{} pile card {} of {}", pile_name(from), i, size(from));
    const std::size_t r = region(from);
    const std::size_t at = begin(r) + i;
    const CardRef card = cards_[at];
    shift_down(at, ends_[kHand] - 1u, card);
    for (std::size_t k = r; k < kHand; ++k) --ends_[k];
    return card;
  }
  /// The draw pile's card `from_top` places under its top (0 the top) goes on top of the discard
  /// or the exhaust pile, or to the end of the hand (`to`); the cards between move up one place
  /// in the array (the draw pile's cards above it, one place nearer its bottom). Returns the card.
  CardRef draw_to(Pile to, std::size_t from_top) {
    BATTLECORE_ENSURE(to != Pile::Draw && to != Pile::None, "cannot move a draw pile card to pile {}",
                      pile_name(to));
    BATTLECORE_ENSURE(from_top < size(Pile::Draw), "draw pile card {} from the top of {}", from_top,
                      size(Pile::Draw));
    const std::size_t at = ends_[kHand] + from_top;
    const std::size_t r = region(to);
    const CardRef card = cards_[at];
    shift_up(ends_[r], at, card);
    for (std::size_t k = r; k <= kHand; ++k) ++ends_[k];
    return card;
  }
  /// Shuffles the discard pile (in its logical order) with `rng`, then puts it under the draw
  /// pile: the draw pile becomes the shuffled discard pile followed by the old draw pile.
  void shuffle_discard_under_draw(Rng& rng) {
    const std::size_t d = size(Pile::Discard);
    const std::size_t first = ends_[kExhaust];
    const std::size_t kept = total() - first - d;  // the hand and the draw pile
    // [discard | hand | draw] becomes [hand | draw | shuffled discard, last card first] (the
    // draw pile is stored top first, so its new bottom cards go last). From a copy of the
    // array (a few words, whatever the piles hold): the hand and the draw pile move down, and
    // the shuffle writes each discarded card to its place as it fixes it, reversed as it goes.
    std::array<CardRef, kMaxCards> before = cards_;
    for (std::size_t k = 0; k < kept; ++k) cards_[first + k] = before[first + d + k];
    rng.shuffle_reversed_into(before.begin() + static_cast<std::ptrdiff_t>(first),
                              before.begin() + static_cast<std::ptrdiff_t>(first + d),
                              cards_.begin() + static_cast<std::ptrdiff_t>(first + kept));
    ends_[kDiscard] = ends_[kExhaust];
    ends_[kHand] = static_cast<std::uint8_t>(ends_[kHand] - d);
  }
  /// Shuffles `p` in its logical order with `rng`.
  void shuffle(Pile p, Rng& rng) {
    const std::size_t r = region(p);
    CardRef* first = cards_.data() + begin(r);
    CardRef* last = cards_.data() + ends_[r];
    if (r == kDraw)
      rng.shuffle(std::reverse_iterator(last), std::reverse_iterator(first));
    else
      rng.shuffle(first, last);
  }

  friend bool operator==(const Piles& a, const Piles& b) {
    return a.ends_ == b.ends_ && std::equal(a.cards_.begin(), a.cards_.begin() + a.total(), b.cards_.begin());
  }

 private:
  // Regions of the array, in physical order.
  static constexpr std::size_t kExhaust = 0, kDiscard = 1, kHand = 2, kDraw = 3, kRegions = 4;
  static std::size_t region(Pile p) {
    BATTLECORE_ENSURE(p != Pile::None, "pile {} is not a pile of cards", pile_name(p));
    return p == Pile::Exhaust ? kExhaust : p == Pile::Discard ? kDiscard : p == Pile::Hand ? kHand : kDraw;
  }
  std::size_t begin(std::size_t r) const { return r == 0 ? 0 : ends_[r - 1]; }
  std::span<const CardRef> range(std::size_t r) const {
    return {cards_.data() + begin(r), ends_[r] - begin(r)};
  }
  // A hand of up to 8 cards read and written as one little-endian word (card 0 the lowest
  // byte), when the word stays inside the array.
  static constexpr std::uint64_t kEveryByte = 0x0101010101010101ull;
  static bool fits_one_word(std::size_t first, std::size_t n) {
    return std::endian::native == std::endian::little && n <= 8 && first + 8 <= kMaxCards;
  }
  std::uint64_t hand_word(std::size_t first) const {
    std::uint64_t w;
    std::memcpy(&w, cards_.data() + first, sizeof w);
    return w;
  }
  void store_word(std::size_t first, std::uint64_t w) { std::memcpy(cards_.data() + first, &w, sizeof w); }
  /// The place of the first byte of `w` equal to `card` (8 when none is), without a loop, whose
  /// exit (where the card is) no branch predictor learns: the bytes of the word that equal
  /// `card` get their top bit set, and the lowest is the first. (A borrow can mark a byte
  /// wrongly, but only above a byte that matched.)
  static std::size_t first_byte_equal(std::uint64_t w, CardRef card) {
    const std::uint64_t x = w ^ (kEveryByte * card);
    const std::uint64_t matched = (x - kEveryByte) & ~x & (kEveryByte << 7);
    return static_cast<std::size_t>(std::countr_zero(matched)) / 8;
  }
  /// Byte i of the word `w` at `first` (a hand that fits one word) goes to byte 0 as `card` and
  /// bytes 0 to i - 1 move up one, the rest staying: without a loop that runs i + 1 times.
  void move_up_to(std::size_t first, std::uint64_t w, std::size_t i, CardRef card) {
    const std::uint64_t moved = (std::uint64_t{2} << (8 * i + 7)) - 1;  // bytes 0 to i
    store_word(first, (((w << 8) | card) & moved) | (w & ~moved));
  }
  // Moving cards one place: a chain of swaps carrying one card, cheaper for the few cards a
  // pile move shifts than a call to memmove.
  /// Puts `in` at `first`, moves cards_[first, last) up one place, returns what was at `last`.
  CardRef shift_up(std::size_t first, std::size_t last, CardRef in) {
    for (std::size_t k = first; k <= last; ++k) std::swap(in, cards_[k]);
    return in;
  }
  /// Puts `in` at `last`, moves cards_(first, last] down one place, returns what was at `first`.
  CardRef shift_down(std::size_t first, std::size_t last, CardRef in) {
    for (std::size_t k = last + 1; k-- > first;) std::swap(in, cards_[k]);
    return in;
  }

  std::array<CardRef, kMaxCards> cards_{};
  std::array<std::uint8_t, kRegions> ends_{};  ///< where each region ends
};

}  // namespace battlecore::deckbuilder
