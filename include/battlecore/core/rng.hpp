#pragma once
/// Seeded randomness: SplitMix64 for seeding, xoshiro256** for play, our own range reduction
/// and shuffle. Nothing here touches `std::` distributions, whose output differs between
/// standard libraries; golden vectors in tests/core/rng_test.cpp pin every number.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>

namespace battlecore {

/// Version of the random number code; written into every replay. Bump it when any output changes.
inline constexpr std::uint32_t kRngVersion = 1;

/// The golden-ratio increment of SplitMix64.
inline constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

/// SplitMix64's output function (Steele, Lea and Flood, 2014).
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// SplitMix64: used only to seed generators and to derive per-battle seeds.
struct SplitMix64 {
  std::uint64_t state = 0;
  constexpr std::uint64_t next() {
    state += kGolden;
    return splitmix64_mix(state);
  }
};

/// The seed of battle `index` of a run seeded with `run_seed` (the index-th SplitMix64 output).
constexpr std::uint64_t battle_seed(std::uint64_t run_seed, std::uint64_t index) {
  return splitmix64_mix(run_seed + (index + 1) * kGolden);
}

/// The seed a policy is reset with for the battle seeded `battle_seed` (every rule set's
/// simulations and bots), apart from the battle's own streams.
constexpr std::uint64_t policy_seed(std::uint64_t battle_seed) {
  return splitmix64_mix(battle_seed ^ 0x706f6c6963790000ull);
}

/// xoshiro256** 1.0 (Blackman and Vigna, 2018).
class Rng {
 public:
  constexpr Rng() = default;
  /// Seeds the four words from four SplitMix64 outputs.
  constexpr explicit Rng(SplitMix64& seeder) { seed_from(seeder); }
  /// Seeds from a single 64-bit value through SplitMix64.
  static constexpr Rng from_seed(std::uint64_t seed) {
    SplitMix64 sm{seed};
    return Rng(sm);
  }

  constexpr void seed_from(SplitMix64& seeder) {
    for (std::uint64_t& w : s_) w = seeder.next();
  }

  /// The next 64 random bits.
  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Unbiased integer in [0, range), range >= 1: Lemire's multiply-and-reject method on the
  /// top 32 bits of one output (one output per call except on a rare rejection). Always inlined:
  /// a policy's pick made a call of it where the compiler weighed the caller too large.
  [[gnu::always_inline]] constexpr std::uint32_t below(std::uint32_t range) {
    std::uint64_t m = (next() >> 32) * std::uint64_t{range};
    auto low = static_cast<std::uint32_t>(m);
    if (low < range) [[unlikely]] {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-range) % range;
      while (low < threshold) {
        m = (next() >> 32) * std::uint64_t{range};
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  /// Uniform integer in [lo, hi] (inclusive); lo <= hi.
  constexpr std::int32_t between(std::int32_t lo, std::int32_t hi) {
    // Unsigned arithmetic: hi - lo can exceed INT32_MAX, and [INT32_MIN, INT32_MAX] has 2^32
    // values, which below() cannot take. Every other range draws exactly below(hi - lo + 1).
    const std::uint32_t span = static_cast<std::uint32_t>(hi) - static_cast<std::uint32_t>(lo);
    const std::uint32_t offset = span == std::numeric_limits<std::uint32_t>::max()
                                     ? static_cast<std::uint32_t>(next() >> 32)
                                     : below(span + 1u);
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(lo) + offset);
  }

  /// Fisher-Yates shuffle, one below() per swap, from the back.
  template <class T>
  constexpr void shuffle(std::span<T> items) {
    shuffle(items.begin(), items.end());
  }
  /// The same shuffle of [first, last), random-access iterators.
  template <class It>
  constexpr void shuffle(It first, It last) {
    // Drawn from a local copy of the state, stored back once: a swap of one-byte items may
    // alias the state, which would otherwise go back to memory at every swap.
    Rng rng = *this;
    for (auto i = static_cast<std::size_t>(last - first); i > 1; --i) {
      const std::size_t j = rng.below(static_cast<std::uint32_t>(i));
      std::swap(first[static_cast<std::ptrdiff_t>(i - 1)], first[static_cast<std::ptrdiff_t>(j)]);
    }
    *this = rng;
  }
  /// The same draws as shuffle(first, last), each item written through `out` as the shuffle
  /// fixes its place, the last place first: out[0 .. n) is the shuffled range reversed, and
  /// [first, last) is left in an unspecified order. For a shuffle whose result is stored
  /// reversed, without a pass to reverse it.
  template <class It, class Out>
  constexpr void shuffle_reversed_into(It first, It last, Out out) {
    Rng rng = *this;  // as in shuffle
    const auto n = static_cast<std::size_t>(last - first);
    std::size_t k = 0;
    for (std::size_t i = n; i > 1; --i, ++k) {
      const std::size_t j = rng.below(static_cast<std::uint32_t>(i));
      out[static_cast<std::ptrdiff_t>(k)] = first[static_cast<std::ptrdiff_t>(j)];
      first[static_cast<std::ptrdiff_t>(j)] = first[static_cast<std::ptrdiff_t>(i - 1)];
    }
    if (n > 0) out[static_cast<std::ptrdiff_t>(k)] = first[0];
    *this = rng;
  }

  /// The raw state, for snapshots and hashing.
  constexpr const std::array<std::uint64_t, 4>& state() const { return s_; }
  constexpr void set_state(const std::array<std::uint64_t, 4>& s) { s_ = s; }

  friend constexpr bool operator==(const Rng&, const Rng&) = default;

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

/// The named streams of one battle: a new random call in one place cannot shift another.
enum class Stream : std::uint8_t { Setup, Shuffle, Ai, Dice, Loot, Effects };
inline constexpr std::size_t kStreamCount = 6;

/// Name of a stream, for snapshots and diagnostics.
std::string_view stream_name(Stream s);

/// One generator per stream, all derived from the battle's seed: stream k takes SplitMix64
/// outputs 4k .. 4k+3, so appending a stream never changes the existing ones.
///
/// A stream is seeded when it is first drawn from, not when the seed is given: a battle seeds
/// only the streams its rules use. Nothing can tell the difference: reading a stream not yet
/// seeded (the const operator[], equality) gives the generator it would have been seeded with.
class RngStreams {
 public:
  /// Every stream's state zero.
  constexpr RngStreams() = default;
  constexpr explicit RngStreams(std::uint64_t seed) { reseed(seed); }
  /// The streams of `seed`, as RngStreams(seed) has them, without building a new value.
  constexpr void reseed(std::uint64_t seed) {
    seed_ = seed;
    seeded_ = 0;
  }
  /// Stream `s`, to draw from.
  constexpr Rng& operator[](Stream s) {
    const auto k = static_cast<std::size_t>(s);
    if ((seeded_ & (1u << k)) == 0) [[unlikely]] {
      streams_[k] = seeded(k);
      seeded_ = static_cast<std::uint8_t>(seeded_ | (1u << k));
    }
    return streams_[k];
  }
  /// Stream `s` as it is now.
  constexpr Rng operator[](Stream s) const {
    const auto k = static_cast<std::size_t>(s);
    return (seeded_ & (1u << k)) != 0 ? streams_[k] : seeded(k);
  }
  /// The four state words of stream `s` as it is now (a value, so a range-for may read it).
  constexpr std::array<std::uint64_t, 4> words(Stream s) const { return (*this)[s].state(); }
  friend constexpr bool operator==(const RngStreams& a, const RngStreams& b) {
    for (std::size_t k = 0; k < kStreamCount; ++k)
      if (a[static_cast<Stream>(k)] != b[static_cast<Stream>(k)]) return false;
    return true;
  }

 private:
  static constexpr std::uint8_t kEverySeeded = (1u << kStreamCount) - 1;
  /// Stream k as the seed starts it: SplitMix64 outputs 4k .. 4k+3, whose state before the first
  /// of them is the seed plus 4k increments.
  constexpr Rng seeded(std::size_t k) const {
    SplitMix64 sm{seed_ + 4 * k * kGolden};
    return Rng(sm);
  }

  std::array<Rng, kStreamCount> streams_{};
  std::uint64_t seed_ = 0;
  std::uint8_t seeded_ = kEverySeeded;  ///< bit k: streams_[k] is stream k's state
};

}  // namespace battlecore
