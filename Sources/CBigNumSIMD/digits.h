// The digit form shared by the wide Montgomery kernels (private to CBigNumSIMD):
// an n-limb number as d digits of `bits` bits (d = ⌈64n/bits⌉), padded with zero
// digits to p, a multiple of the vector's lane count. Radix 2^28 for the AVX2 and
// AVX-512 kernels (VPMULUDQ products stay below 2^56), radix 2^52 for IFMA.
#ifndef RF_CBIGNUMSIMD_DIGITS_H
#define RF_CBIGNUMSIMD_DIGITS_H

#include <stddef.h>
#include <stdint.h>

/// One kernel call's shape: d significant digits of `bits` bits, p = d rounded up to
/// the lane count, lastBits = 64n − bits·(d − 1) ∈ 1...bits (the width of the last
/// row's quotient digit, so that the kernel divides by R = 2^(64n) exactly).
struct rf_bn_shape { size_t d, p; unsigned bits, lastBits; };

struct rf_bn_shape rf_bn_shape_of(size_t n, unsigned bits, size_t lanes);

/// x (n limbs) → s.p digits.
void rf_bn_limbs_to_digits(uint64_t *digits, const uint64_t *x, size_t n, struct rf_bn_shape s);

/// Digits of a value < 2^(64n) → n limbs.
void rf_bn_digits_to_limbs(uint64_t *x, const uint64_t *digits, size_t n, struct rf_bn_shape s);

/// a[k + 1] += a[k] >> bits, a[k] &= 2^bits − 1 for k in from ..< to.
void rf_bn_digits_normalize(uint64_t *a, size_t from, size_t to, unsigned bits);

/// The end of every wide kernel: t holds the Montgomery sum after the last row,
/// already divided by the earlier rows' 2^bits each (unnormalized digits t[0 ... p + 1],
/// zeros after up to t[p + 8]); normalizes them, divides by 2^lastBits (exact: the last
/// row's quotient made the sum ≡ 0 mod 2^lastBits), and subtracts m (digit form) once
/// if the result (< 2m) reaches it. Writes z (s.p digits).
void rf_bn_digits_finish(uint64_t *z, uint64_t *t, const uint64_t *m, struct rf_bn_shape s);

/// xs[0 ..< lead] = 0, xs[lead ..< lead + p] = x, zeros up to xs[p + 15] (xs holds
/// p + 16 digits; lead ≤ 8): the shifted copies let one vector pass add the rows at
/// digit offsets 0 and 1.
void rf_bn_digits_shifted_copy(uint64_t *xs, const uint64_t *x, size_t p, size_t lead);

/// The wide kernels, in digit form for the shape of their level (rf_bn_wide_shape):
/// z = x·y·2^(−64n) mod m with Scalar.montgomeryMultiply's contract; z may alias x
/// and/or y. Callers have checked the CPU level.
void rf_bn_mont_mul_digits_avx2(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                uint64_t m0inv, struct rf_bn_shape s);
void rf_bn_mont_mul_digits_avx512(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                  uint64_t m0inv, struct rf_bn_shape s);
void rf_bn_mont_mul_digits_ifma(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                uint64_t m0inv, struct rf_bn_shape s);

#endif
