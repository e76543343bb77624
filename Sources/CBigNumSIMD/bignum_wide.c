// The wide Montgomery kernels' entry points (CBigNumSIMD.h): each level's digit
// form and kernel, called only after rf_bn_cpu_levels() reported the level.
#include "CBigNumSIMD.h"
#include "digits.h"

/// The digit form of `level` (one RF_BN_LEVEL_* of a wide kernel) for n limbs;
/// false for a level that is not a wide one.
static int wide_shape(unsigned level, size_t n, struct rf_bn_shape *s) {
    switch (level) {
    case RF_BN_LEVEL_AVX2: *s = rf_bn_shape_of(n, 28, 4); return 1;
    case RF_BN_LEVEL_AVX512: *s = rf_bn_shape_of(n, 28, 8); return 1;
    case RF_BN_LEVEL_IFMA: *s = rf_bn_shape_of(n, 52, 8); return 1;
    default: return 0;
    }
}

/// Whether the kernel of `level` can run here on n limbs (1 ≤ n ≤ 256: the kernels
/// keep their digits on the stack, and IFMA's lanes are bounded for 316 digits), with
/// its shape in *s when it can.
static int runnable(unsigned level, size_t n, struct rf_bn_shape *s) {
    return n > 0 && n <= 256 && (rf_bn_cpu_levels() & level) == level && wide_shape(level, n, s);
}

size_t rf_bn_wide_digit_count(unsigned level, size_t n) {
    struct rf_bn_shape s;
    return wide_shape(level, n, &s) ? s.p : 0;
}

void rf_bn_wide_to_digits(unsigned level, uint64_t *digits, const uint64_t *x, size_t n) {
    struct rf_bn_shape s;
    if (wide_shape(level, n, &s)) rf_bn_limbs_to_digits(digits, x, n, s);
}

void rf_bn_wide_from_digits(unsigned level, uint64_t *x, const uint64_t *digits, size_t n) {
    struct rf_bn_shape s;
    if (wide_shape(level, n, &s)) rf_bn_digits_to_limbs(x, digits, n, s);
}

/// The kernel of `level` (which `runnable` accepted, with shape s).
static void mont_mul_digits(unsigned level, uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                            uint64_t m0inv, struct rf_bn_shape s) {
#if defined(__x86_64__)
    switch (level) {
    case RF_BN_LEVEL_AVX2: rf_bn_mont_mul_digits_avx2(z, x, y, m, m0inv, s); break;
    case RF_BN_LEVEL_AVX512: rf_bn_mont_mul_digits_avx512(z, x, y, m, m0inv, s); break;
    case RF_BN_LEVEL_IFMA: rf_bn_mont_mul_digits_ifma(z, x, y, m, m0inv, s); break;
    }
#else
    (void)level; (void)z; (void)x; (void)y; (void)m; (void)m0inv; (void)s;  // no level is runnable here
#endif
}

int rf_bn_wide_mont_mul_digits(unsigned level, uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                               uint64_t m0inv, size_t n) {
    struct rf_bn_shape s;
    if (!runnable(level, n, &s)) return 0;
    mont_mul_digits(level, z, x, y, m, m0inv, s);
    return 1;
}

int rf_bn_wide_mont_mul(unsigned level, uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                        uint64_t m0inv, size_t n) {
    struct rf_bn_shape s;
    if (!runnable(level, n, &s)) return 0;
    uint64_t xd[s.p], yd[s.p], md[s.p];
    rf_bn_limbs_to_digits(xd, x, n, s);
    rf_bn_limbs_to_digits(yd, y, n, s);
    rf_bn_limbs_to_digits(md, m, n, s);
    mont_mul_digits(level, xd, xd, yd, md, m0inv, s);
    rf_bn_digits_to_limbs(z, xd, n, s);
    return 1;
}
