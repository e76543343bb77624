// Wide-vector Montgomery kernels for BigNum, in C because Swift compiles for the
// baseline ISA and a library product may not use unsafeFlags: each wide function
// carries its own __attribute__((target(...))) and is only called after
// rf_bn_cpu_levels() reported that the CPU (and the OS, via XGETBV) supports it.
// On targets other than x86-64 every level is reported absent and the kernels are
// not compiled (the functions return 0 = "not run").
#ifndef RF_CBIGNUMSIMD_H
#define RF_CBIGNUMSIMD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bits of rf_bn_cpu_levels().
enum {
    RF_BN_LEVEL_AVX2 = 1,
    RF_BN_LEVEL_AVX512 = 2,  // AVX-512 F + VL + BW + DQ
    RF_BN_LEVEL_IFMA = 4,    // AVX-512 IFMA + VL
    RF_BN_LEVEL_ADX = 8      // ADX + BMI2 (MULX, ADCX, ADOX): scalar 64-bit limbs
};

/// The ISA levels this CPU and OS support (a mask of RF_BN_LEVEL_*). Cached.
unsigned rf_bn_cpu_levels(void);

/// The wide Montgomery kernels: `level` is one of RF_BN_LEVEL_AVX2 (radix 2^28, four
/// lanes), RF_BN_LEVEL_AVX512 (radix 2^28, eight lanes) or RF_BN_LEVEL_IFMA (radix
/// 2^52, eight lanes: VPMADD52LUQ/HUQ). Each keeps operands in a digit form of its own.

/// The length of the digit form of an n-limb operand on `level` (digits of the
/// level's radix, padded for its vectors): the length of every digit array below.
/// 0 for a level that is not a wide one.
size_t rf_bn_wide_digit_count(unsigned level, size_t n);

/// x (n little-endian 64-bit limbs) → digit form of `level`.
void rf_bn_wide_to_digits(unsigned level, uint64_t *digits, const uint64_t *x, size_t n);

/// Digit form of a value < 2^(64n) → n limbs.
void rf_bn_wide_from_digits(unsigned level, uint64_t *x, const uint64_t *digits, size_t n);

/// Montgomery product in digit form: z = x·y·2^(−64n) mod m, with the contract of
/// BigNum's Scalar.montgomeryMultiply (x·y < 2^(64n)·m, result < m), all operands
/// in `level`'s digit form for an n-limb modulus, n ≤ 256; m0inv = −m^(−1) mod 2^64.
/// z may alias x and/or y. Returns 1, or 0 without touching z when the CPU lacks the
/// level (or it is not a wide one).
int rf_bn_wide_mont_mul_digits(unsigned level, uint64_t *z, const uint64_t *x, const uint64_t *y,
                               const uint64_t *m, uint64_t m0inv, size_t n);

/// The same on limbs (converts in and out): Scalar.montgomeryMultiply's contract.
int rf_bn_wide_mont_mul(unsigned level, uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                        uint64_t m0inv, size_t n);

/// Montgomery product on limbs with MULX/ADCX/ADOX (bignum_adx.c): the contract
/// of BigNum's Scalar.montgomeryMultiply (x·y < 2^(64n)·m, result < m; z may alias x
/// and/or y; m0inv = −m^(−1) mod 2^64); about 16n bytes of stack. Returns 1, or 0
/// without touching z when the CPU lacks ADX or BMI2.
int rf_bn_adx_mont_mul(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                       uint64_t m0inv, size_t n);

/// The same for x·x, with a squaring (cross products once, doubled): Scalar.montgomerySquare's contract.
int rf_bn_adx_mont_sqr(uint64_t *z, const uint64_t *x, const uint64_t *m, uint64_t m0inv, size_t n);

/// z = x^e mod m by left-to-right binary exponentiation on these kernels, the chain of
/// BigNum's MontgomeryContext.power for short exponents: x < m (n limbs), rr = R² mod m
/// (R = 2^(64n)), e of ⌈bits/64⌉ limbs with its top bit at bits − 1 (bits ≥ 1); z (n
/// limbs) must not overlap the inputs. Returns 1, or 0 without touching z when the CPU
/// lacks ADX or BMI2.
int rf_bn_adx_mont_power_binary(uint64_t *z, const uint64_t *x, const uint64_t *rr, const uint64_t *m,
                                uint64_t m0inv, size_t n, const uint64_t *e, size_t bits);

/// The exact products of two 2-lane numbers of n 32-bit words (mulshiftadd_wide.c):
/// a and b hold n pairs (word k of lane 0, word k of lane 1), product gets 2n pairs;
/// no aliasing; n ≤ 4096; workspace of rf_bn_wide_mul_pairs_workspace(n) limbs.
/// `level` is RF_BN_LEVEL_AVX2 (four columns per block) or RF_BN_LEVEL_AVX512 (eight;
/// RF_BN_LEVEL_IFMA runs the same). Returns 1, or 0 without touching product when the
/// CPU lacks the level.
int rf_bn_wide_mul_pairs(unsigned level, uint32_t *product, const uint32_t *a, const uint32_t *b, size_t n,
                         uint64_t *workspace);

/// The workspace rf_bn_wide_mul_pairs needs, in 64-bit words, on every level: 4n + 32.
static inline size_t rf_bn_wide_mul_pairs_workspace(size_t n) { return 4 * n + 32; }

#ifdef __cplusplus
}
#endif
#endif
