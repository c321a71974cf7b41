#pragma once
/// Floating-point functions that give the same bits on every machine. The C++ standard leaves
/// the last bits of std::log and its kin to each math library (glibc, musl, Apple's and
/// Microsoft's differ, and glibc has changed between releases), so a search that compares
/// scores built from them could choose differently on another machine. These are built from
/// IEEE 754's basic operations only (+, -, *, /, each correctly rounded) and compiled with
/// contraction off, so their results depend on nothing but the input.

namespace battlecore {

/// The natural logarithm of x, within 2 units in the last place of the exact value, for a
/// positive finite x (subnormal included). 0 for x = 1. The result of an x <= 0, an infinity or
/// a NaN is not specified.
double portable_log(double x);

/// e to the power x, within 2 units in the last place, for x in [-708, 709] (where the result
/// is a normal double); below that range 0, above it infinity. 1 for x = 0.
double portable_exp(double x);

/// The complementary error function, 1 - erf(x), for a finite x: within 1e-13 of the exact value,
/// relative to it, while that is a normal double; 0 from x = 26.61 on (the exact value there is
/// below 1e-308).
double portable_erfc(double x);

}  // namespace battlecore
