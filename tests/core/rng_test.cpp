#include "battlecore/core/rng.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include <gtest/gtest.h>

// Golden vectors. Every number below was produced by the reference algorithms (SplitMix64 of
// Steele, Lea and Flood; xoshiro256** 1.0 of Blackman and Vigna; Lemire's multiply-and-reject
// range reduction; Fisher-Yates from the back) as written in the W1 yardstick's w1_limit.cpp,
// compiled on their own in a throwaway program, not with this library. A change to any of them
// changes replays: bump kRngVersion and regenerate them together.

namespace battlecore {
namespace {

TEST(RngVersion, IsOneWhileTheGoldenVectorsBelowHold) { EXPECT_EQ(kRngVersion, 1u); }

TEST(SplitMix64, SeedZeroStartsWithTheWellKnownOutput) {
  SplitMix64 sm{0};
  EXPECT_EQ(sm.next(), 0xE220A8397B1DCDAFull);
}

TEST(SplitMix64, SeedZeroMatchesReference) {
  SplitMix64 sm{0};
  const std::array<std::uint64_t, 4> expected = {0xE220A8397B1DCDAFull, 0x6E789E6AA1B965F4ull,
                                                 0x06C45D188009454Full, 0xF88BB8A8724C81ECull};
  for (std::uint64_t want : expected) EXPECT_EQ(sm.next(), want);
}

TEST(SplitMix64, Seed1234567MatchesReference) {
  SplitMix64 sm{1234567};
  const std::array<std::uint64_t, 4> expected = {0x599ED017FB08FC85ull, 0x2C73F08458540FA5ull,
                                                 0x883EBCE5A3F27C77ull, 0x3FBEF740E9177B3Full};
  for (std::uint64_t want : expected) EXPECT_EQ(sm.next(), want);
}

TEST(Rng, FromSeedFillsStateWithFourSplitMixOutputs) {
  const Rng rng = Rng::from_seed(1);
  const std::array<std::uint64_t, 4> expected = {0x910A2DEC89025CC1ull, 0xBEEB8DA1658EEC67ull,
                                                 0xF893A2EEFB32555Eull, 0x71C18690EE42C90Bull};
  EXPECT_EQ(rng.state(), expected);
}

TEST(Rng, FirstEightOutputsOfSeedOneMatchReference) {
  Rng rng = Rng::from_seed(1);
  const std::array<std::uint64_t, 8> expected = {
      0xB3F2AF6D0FC710C5ull, 0x853B559647364CEAull, 0x92F89756082A4514ull, 0x642E1C7BC266A3A7ull,
      0xB27A48E29A233673ull, 0x24C123126FFDA722ull, 0x123004EF8DF510E6ull, 0x61954DCC47B1E89Dull};
  for (std::uint64_t want : expected) EXPECT_EQ(rng.next(), want);
}

TEST(Rng, WorksAtCompileTime) {
  constexpr std::uint64_t first = [] {
    Rng rng = Rng::from_seed(1);
    return rng.next();
  }();
  static_assert(first == 0xB3F2AF6D0FC710C5ull);
  EXPECT_EQ(first, 0xB3F2AF6D0FC710C5ull);
}

// One generator, calls interleaved, so the number of outputs each call consumes is pinned too:
// below(0x80000001) rejects about half its draws (10 rejections here), and the final next()
// only matches when exactly 36 outputs were consumed before it.
TEST(Rng, BelowMatchesReferenceIncludingRejections) {
  Rng rng = Rng::from_seed(42);
  const std::array<std::uint32_t, 10> dice = {0, 2, 4, 5, 5, 4, 4, 5, 4, 3};
  for (std::uint32_t want : dice) EXPECT_EQ(rng.below(6), want);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rng.below(1), 0u);
  const std::array<std::uint32_t, 5> large = {964234905u, 2133449847u, 1850284638u, 2122621417u, 278580188u};
  for (std::uint32_t want : large) EXPECT_EQ(rng.below(3000000019u), want);
  const std::array<std::uint32_t, 8> rejecting = {1292816682u, 674286022u, 856828343u,  1694626432u,
                                                  496787131u,  889640000u, 2028854687u, 1604169737u};
  for (std::uint32_t want : rejecting) EXPECT_EQ(rng.below(0x80000001u), want);
  EXPECT_EQ(rng.next(), 0xC8DAC160A4CF65B7ull);
}

TEST(Rng, ShuffleOfTenMatchesReference) {
  Rng rng = Rng::from_seed(7);
  std::array<int, 10> items{};
  std::iota(items.begin(), items.end(), 0);
  rng.shuffle(std::span<int>(items));
  const std::array<int, 10> expected = {1, 8, 3, 0, 4, 5, 9, 6, 2, 7};
  EXPECT_EQ(items, expected);
  EXPECT_EQ(rng.next(), 0x26DD6BA0018E0163ull);  // pins how many outputs the shuffle drew
}

// The piles shuffle the discard pile straight into its reversed place: the same draws as
// shuffle, the result reversed, for every length (nothing and one card draw nothing).
TEST(Rng, ShuffleReversedIntoDrawsAsShuffleAndWritesItsResultReversed) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (std::size_t n = 0; n <= 64; ++n) {
      std::vector<int> shuffled(n), items(n), out(n, -1);
      std::iota(shuffled.begin(), shuffled.end(), 0);
      std::iota(items.begin(), items.end(), 0);
      Rng a = Rng::from_seed(seed), b = a;
      a.shuffle(std::span<int>(shuffled));
      b.shuffle_reversed_into(items.begin(), items.end(), out.begin());
      std::reverse(shuffled.begin(), shuffled.end());
      EXPECT_EQ(out, shuffled) << "seed " << seed << ", " << n << " items";
      EXPECT_EQ(b, a) << "seed " << seed << ", " << n << " items";
    }
}

TEST(Rng, ShuffleOfNothingOrOneDrawsNothing) {
  Rng rng = Rng::from_seed(7);
  const Rng before = rng;
  std::array<int, 1> one = {5};
  rng.shuffle(std::span<int>(one));
  rng.shuffle(std::span<int>());
  EXPECT_EQ(one[0], 5);
  EXPECT_EQ(rng, before);
}

TEST(Rng, BetweenMatchesReference) {
  Rng rng = Rng::from_seed(3);
  const std::array<std::int32_t, 10> expected = {1, 1, -2, 0, -1, -1, -2, 2, 3, -2};
  for (std::int32_t want : expected) EXPECT_EQ(rng.between(-3, 3), want);
}

TEST(Rng, BetweenStaysInRangeAndHitsBothEnds) {
  Rng rng = Rng::from_seed(2024);
  bool hit_lo = false;
  bool hit_hi = false;
  for (int i = 0; i < 10000; ++i) {
    const std::int32_t v = rng.between(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    hit_lo = hit_lo || v == -3;
    hit_hi = hit_hi || v == 3;
  }
  EXPECT_TRUE(hit_lo);
  EXPECT_TRUE(hit_hi);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(rng.between(5, 5), 5);
}

TEST(Rng, BetweenHandlesTheWidestRanges) {
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  Rng rng = Rng::from_seed(11);
  bool negative = false;
  bool positive = false;
  for (int i = 0; i < 64; ++i) {
    const std::int32_t v = rng.between(kMin, kMax);  // 2^32 values: must not reach below(0)
    negative = negative || v < 0;
    positive = positive || v > 0;
    EXPECT_GE(rng.between(kMin, -1), kMin);
    EXPECT_LE(rng.between(kMin, -1), -1);
    EXPECT_GE(rng.between(0, kMax), 0);
  }
  EXPECT_TRUE(negative);
  EXPECT_TRUE(positive);
}

TEST(Rng, BelowSixIsRoughlyUniform) {
  Rng rng = Rng::from_seed(5);
  std::array<int, 6> faces{};
  for (int i = 0; i < 60000; ++i) {
    const std::uint32_t face = rng.below(6);
    ASSERT_LT(face, 6u);
    ++faces[face];
  }
  for (std::size_t f = 0; f < faces.size(); ++f) {
    EXPECT_GE(faces[f], 9000) << "face " << f;
    EXPECT_LE(faces[f], 11000) << "face " << f;
  }
}

TEST(Rng, CopiesContinueIdentically) {
  Rng a = Rng::from_seed(77);
  a.next();
  Rng b = a;
  EXPECT_EQ(a, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(a.next(), b.next());
  b.next();
  EXPECT_NE(a, b);
}

TEST(Rng, SetStateRestoresTheSequence) {
  Rng a = Rng::from_seed(9);
  const auto saved = a.state();
  const std::uint64_t first = a.next();
  Rng b;
  b.set_state(saved);
  EXPECT_EQ(b.next(), first);
  EXPECT_EQ(a, b);
}

TEST(BattleSeed, MatchesTheW1LimitSeeding) {
  EXPECT_EQ(battle_seed(1, 0), 0x910A2DEC89025CC1ull);
  EXPECT_EQ(battle_seed(1, 5), 0xC34D0BFF90150280ull);
}

TEST(BattleSeed, IsTheIndexthSplitMixOutputOfTheRunSeed) {
  SplitMix64 sm{1};
  for (std::uint64_t index = 0; index < 8; ++index) EXPECT_EQ(battle_seed(1, index), sm.next()) << index;
}

TEST(RngStreams, StreamKIsSeededFromSplitMixOutputs4KTo4KPlus3) {
  const RngStreams streams(99);
  for (std::size_t k = 0; k < kStreamCount; ++k) {
    SplitMix64 sm{99};
    for (std::size_t skip = 0; skip < 4 * k; ++skip) sm.next();
    const Rng expected(sm);
    EXPECT_EQ(streams[static_cast<Stream>(k)], expected) << "stream " << k;
  }
}

TEST(RngStreams, FirstOutputOfEachStreamMatchesReference) {
  RngStreams streams(99);
  const std::array<std::uint64_t, kStreamCount> expected = {0x5944A7EB55C8EAB4ull, 0xAB0E8DDDE5C11C46ull,
                                                            0x9554A85384AD4569ull, 0x99EA9FCE9E71B5FCull,
                                                            0x1EE0D1987AD2129Full, 0x59751DCDC279C44Dull};
  for (std::size_t k = 0; k < kStreamCount; ++k)
    EXPECT_EQ(streams[static_cast<Stream>(k)].next(), expected[k]) << stream_name(static_cast<Stream>(k));
}

TEST(RngStreams, StreamsDifferFromEachOther) {
  const RngStreams streams(1);
  for (std::size_t a = 0; a < kStreamCount; ++a)
    for (std::size_t b = a + 1; b < kStreamCount; ++b)
      EXPECT_NE(streams[static_cast<Stream>(a)], streams[static_cast<Stream>(b)]) << a << " vs " << b;
}

TEST(RngStreams, DrawingFromOneStreamLeavesTheOthersAlone) {
  RngStreams streams(1);
  const RngStreams untouched(1);
  EXPECT_EQ(streams, untouched);
  streams[Stream::Dice].below(6);
  EXPECT_NE(streams, untouched);
  for (std::size_t k = 0; k < kStreamCount; ++k) {
    const auto s = static_cast<Stream>(k);
    if (s == Stream::Dice) continue;
    EXPECT_EQ(streams[s], untouched[s]) << stream_name(s);
  }
}

TEST(RngStreams, CopyIsEqualAndIndependent) {
  RngStreams original(31);
  RngStreams copy = original;
  EXPECT_EQ(copy, original);
  EXPECT_EQ(copy[Stream::Loot].next(), original[Stream::Loot].next());
  EXPECT_EQ(copy, original);
  copy[Stream::Ai].next();
  EXPECT_NE(copy, original);
  EXPECT_NE(RngStreams(31), RngStreams(32));
}

TEST(RngStreams, AStreamSeededWhenFirstDrawnIsTheOneSeededAtOnce) {
  // Stream k is seeded from SplitMix64 outputs 4k .. 4k+3 when it is first drawn from; drawing
  // the streams in any order gives what seeding them all in order gives.
  for (std::uint64_t seed : {0ull, 1ull, 99ull, ~0ull}) {
    SplitMix64 sm{seed};
    std::array<Rng, kStreamCount> at_once;
    for (Rng& r : at_once) r.seed_from(sm);
    RngStreams lazy(seed);
    for (std::size_t k = kStreamCount; k-- > 0;) {  // the last stream first
      const auto s = static_cast<Stream>(k);
      Rng expected = at_once[k];
      EXPECT_EQ(lazy[s].next(), expected.next()) << seed << " stream " << k;
    }
  }
}

TEST(RngStreams, EqualityAndReadingIgnoreWhichStreamsWereSeededYet) {
  RngStreams drawn(7);
  const RngStreams untouched(7);
  for (std::size_t k = 0; k < kStreamCount; ++k) drawn[static_cast<Stream>(k)];  // seeds it, draws nothing
  EXPECT_EQ(drawn, untouched);
  for (std::size_t k = 0; k < kStreamCount; ++k)
    EXPECT_EQ(drawn.words(static_cast<Stream>(k)), untouched.words(static_cast<Stream>(k))) << k;
  RngStreams reseeded(3);
  reseeded[Stream::Ai].next();
  reseeded.reseed(7);
  EXPECT_EQ(reseeded, untouched);
  EXPECT_EQ(reseeded[Stream::Ai].next(), RngStreams(7)[Stream::Ai].next());
  EXPECT_NE(RngStreams{}, untouched);
  EXPECT_EQ(RngStreams{}.words(Stream::Setup), (std::array<std::uint64_t, 4>{}));  // all zero
}

TEST(RngStreams, NamesFollowTheEnum) {
  EXPECT_EQ(stream_name(Stream::Setup), "setup");
  EXPECT_EQ(stream_name(Stream::Shuffle), "shuffle");
  EXPECT_EQ(stream_name(Stream::Ai), "ai");
  EXPECT_EQ(stream_name(Stream::Dice), "dice");
  EXPECT_EQ(stream_name(Stream::Loot), "loot");
  EXPECT_EQ(stream_name(Stream::Effects), "effects");
  EXPECT_EQ(static_cast<std::size_t>(Stream::Effects) + 1, kStreamCount);
}

}  // namespace
}  // namespace battlecore
