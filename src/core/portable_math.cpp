#include "battlecore/core/portable_math.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace battlecore {

namespace {
// ln 2 in two parts: the high part has its last 21 bits zero, so e * kLn2Hi is exact for any
// binary exponent e of a double (|e| < 2^11).
constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
constexpr double kLn2Lo = 1.90821492927058770002e-10;  // 0x3DEA39EF35793C76
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr std::uint64_t kMantissa = (std::uint64_t{1} << 52) - 1;

// 1/3, 1/5, ..., 1/23: the series' coefficients, each the correctly rounded quotient (a
// compiler folds a constant division as the machine would make it).
constexpr std::array<double, 11> kOddReciprocals = [] {
  std::array<double, 11> r{};
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = 1.0 / static_cast<double>(2 * i + 3);
  return r;
}();

// 1/0!, 1/1!, ..., 1/13!: exp's Taylor coefficients, each the double nearest its value.
constexpr std::array<double, 14> kInverseFactorials = [] {
  std::array<double, 14> r{};
  double f = 1;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (i > 0) f *= static_cast<double>(i);  // exact: 13! < 2^53
    r[i] = 1 / f;
  }
  return r;
}();

constexpr double kInverseLn2 = 1.44269504088896338700;
constexpr double kInverseSqrtPi = 0.56418958354775628695;

// 2^n for a normal result, from the bits.
double power_of_two(int n) { return std::bit_cast<double>(static_cast<std::uint64_t>(n + 1023) << 52); }
}  // namespace

double portable_log(double x) {
  // x = m * 2^e with m in [1, 2), read from the bits; a subnormal is scaled to a normal first
  // (multiplying by a power of two is exact).
  int e = 0;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  const auto bits = std::bit_cast<std::uint64_t>(x);
  e += static_cast<int>(bits >> 52) - 1023;
  double m = std::bit_cast<double>((bits & kMantissa) | (std::uint64_t{1023} << 52));
  if (m > 2 * kSqrtHalf) {  // m in [sqrt(1/2), sqrt(2)): the series below converges fastest
    m *= 0.5;
    ++e;
  }
  // ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with s = (m - 1) / (m + 1), |s| < 0.1716:
  // s^2 < 0.0295, so the terms after s^23 are below 2^-60 of the first.
  const double s = (m - 1) / (m + 1);
  const double s2 = s * s;
  double tail = kOddReciprocals.back();
  for (std::size_t i = kOddReciprocals.size() - 1; i-- > 0;) tail = kOddReciprocals[i] + s2 * tail;
  const double ln_m = 2 * s + 2 * s * (s2 * tail);
  const auto de = static_cast<double>(e);
  return de * kLn2Hi + (de * kLn2Lo + ln_m);
}

double portable_exp(double x) {
  if (x < -708) return 0;
  if (x > 709) return std::numeric_limits<double>::infinity();
  // x = n ln 2 + r with |r| <= ln 2 / 2 (a little more where x * (1 / ln 2) rounds): e^x is
  // 2^n e^r, and the terms of e^r's series after r^13 / 13! are below 2^-60 of the sum.
  const double n = std::floor(x * kInverseLn2 + 0.5);  // floor is exact
  const double r = (x - n * kLn2Hi) - n * kLn2Lo;      // n * kLn2Hi is exact
  double sum = kInverseFactorials.back();
  for (std::size_t i = kInverseFactorials.size() - 1; i-- > 0;) sum = kInverseFactorials[i] + r * sum;
  // 2^n in two steps, so that neither factor leaves the normal range at the ends.
  const int k = static_cast<int>(n);
  return sum * power_of_two(k / 2) * power_of_two(k - k / 2);
}

double portable_erfc(double x) {
  if (x < 0) return 2 - portable_erfc(-x);
  const double x2 = x * x;
  const double scale = portable_exp(-x2) * kInverseSqrtPi;
  if (x < 1.5) {
    // erf(x) = 2 / sqrt(pi) e^(-x^2) sum over k of 2^k x^(2k+1) / (1 * 3 * ... * (2k+1)): every
    // term positive, each the one before times 2x^2 / (2k+1), until they no longer count.
    double term = x;
    double sum = x;
    for (int k = 1; term > 0x1p-60 * sum; ++k) {
      term *= 2 * x2 / (2 * k + 1);
      sum += term;
    }
    return 1 - 2 * scale * sum;
  }
  // From 1.5 on (where 1 - erf(x) would lose the digits erf shares with 1), the continued
  // fraction erfc(x) = e^(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))),
  // evaluated from 100 levels down: at x = 1.5 its last digits have settled.
  double tail = x;
  for (int k = 100; k >= 1; --k) tail = x + (0.5 * k) / tail;
  return scale / tail;
}

}  // namespace battlecore
