#include "battlecore/core/portable_math.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include <gtest/gtest.h>

#include "battlecore/core/rng.hpp"

namespace battlecore {
namespace {

// The distance between two finite doubles of one sign in units in the last place.
std::int64_t ulps_apart(double a, double b) {
  const auto ordered = [](double v) {
    const auto i = std::bit_cast<std::int64_t>(v);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  return std::llabs(ordered(a) - ordered(b));
}

// std::log from glibc is within one unit of the exact logarithm, so three units from it bounds
// portable_log's stated error of two.
constexpr std::int64_t kUlpsFromLibm = 3;

TEST(PortableLog, IsZeroAtOneAndAgreesWithTheMathLibraryOnTheCountsASearchTakes) {
  EXPECT_EQ(portable_log(1.0), 0.0);
  double previous = 0.0;
  for (int n = 2; n <= 200'000; ++n) {
    const double got = portable_log(n);
    ASSERT_LE(ulps_apart(got, std::log(double(n))), kUlpsFromLibm) << "n = " << n;
    ASSERT_GE(got, previous) << "not increasing at n = " << n;
    previous = got;
  }
}

TEST(PortableLog, AgreesWithTheMathLibraryOverEveryBinade) {
  Rng rng = Rng::from_seed(20261206);
  for (int i = 0; i < 200'000; ++i) {
    // Any positive finite double, subnormals included: random bits below the largest exponent.
    const double x = std::bit_cast<double>(rng.next() & 0x7FEF'FFFF'FFFF'FFFFull);
    if (x == 0.0) continue;
    ASSERT_LE(ulps_apart(portable_log(x), std::log(x)), kUlpsFromLibm) << std::hexfloat << x;
  }
  for (int i = 0; i < 200'000; ++i) {  // near 1, where the logarithm is small
    const double x = 0.5 + 1.5 * static_cast<double>(rng.next() >> 11) * 0x1p-53;
    ASSERT_LE(ulps_apart(portable_log(x), std::log(x)), kUlpsFromLibm) << std::hexfloat << x;
  }
}

// Golden values: the bits every machine must give. A change here changes what a search picks:
// regenerate them only with a deliberate change to portable_log.
TEST(PortableLog, GivesTheseBitsOnEveryMachine) {
  const struct {
    double x;
    std::uint64_t bits;
  } golden[] = {
      {2.0, 0x3FE62E42FEFA39EFull},
      {10.0, 0x40026BB1BBB55516ull},
      {1000.0, 0x401BA18A998FFFA0ull},
      {123456789.0, 0x4032A1A38BD0540Aull},
      {0.1, 0xC0026BB1BBB55515ull},
      {0x1p-1074, 0xC0874385446D71C3ull},
      {0x1.fffffffffffffp1023, 0x40862E42FEFA39EFull},
  };
  for (const auto& g : golden)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(portable_log(g.x)), g.bits) << std::hexfloat << g.x;
  // And every count from 1 to 100,000, folded into one FNV-1a hash of their bytes.
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (int n = 1; n <= 100'000; ++n) {
    const auto b = std::bit_cast<std::uint64_t>(portable_log(n));
    for (int i = 0; i < 8; ++i) {
      h ^= (b >> (8 * i)) & 0xFF;
      h *= 0x100000001B3ull;
    }
  }
  EXPECT_EQ(h, 0xAAD6ECE0A475D4C4ull);
}

TEST(PortableExp, IsOneAtZeroAndAgreesWithTheMathLibraryOverItsRange) {
  EXPECT_EQ(portable_exp(0.0), 1.0);
  EXPECT_EQ(portable_exp(-709.0), 0.0);
  EXPECT_EQ(portable_exp(710.0), std::numeric_limits<double>::infinity());
  Rng rng = Rng::from_seed(7);
  for (int i = 0; i < 200'000; ++i) {
    const double x = -708 + 1417 * static_cast<double>(rng.next() >> 11) * 0x1p-53;
    ASSERT_LE(ulps_apart(portable_exp(x), std::exp(x)), kUlpsFromLibm) << std::hexfloat << x;
  }
  for (int i = 0; i < 200'000; ++i) {  // near 0, where e^x is near 1
    const double x = -1 + 2 * static_cast<double>(rng.next() >> 11) * 0x1p-53;
    ASSERT_LE(ulps_apart(portable_exp(x), std::exp(x)), kUlpsFromLibm) << std::hexfloat << x;
  }
  EXPECT_EQ(std::bit_cast<std::uint64_t>(portable_exp(1.0)), 0x4005BF0A8B14576Aull);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(portable_exp(-700.5)), 0x00C4FF475C68CA02ull);
}

TEST(PortableErfc, AgreesWithTheMathLibraryWhereverItsValueIsNormal) {
  EXPECT_EQ(portable_erfc(0.0), 1.0);
  EXPECT_EQ(portable_erfc(26.7), 0.0);
  Rng rng = Rng::from_seed(11);
  for (int i = 0; i < 200'000; ++i) {
    // Both branches (the series below 1.5, the continued fraction above) and negative x.
    const double x = -3 + 29.6 * static_cast<double>(rng.next() >> 11) * 0x1p-53;
    const double want = std::erfc(x);
    ASSERT_LE(std::abs(portable_erfc(x) - want), 1e-13 * want) << std::hexfloat << x;
  }
  EXPECT_EQ(portable_erfc(-1.25), 2 - portable_erfc(1.25));
  // The p-value of McNemar's test with chi-square 3.84 (about 0.05), as a report prints it.
  EXPECT_EQ(std::bit_cast<std::uint64_t>(portable_erfc(std::sqrt(3.84 / 2))), 0x3FA99F4DEE479D00ull);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(portable_erfc(5.0)), 0x3D7B0C1A759F7739ull);
}

}  // namespace
}  // namespace battlecore
