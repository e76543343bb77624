// Montgomery multiplication on AVX2 in radix 2^28 (see CBigNumSIMD.h for the contract).
//
// AVX2 has no 64×64 or 52-bit vector multiply, only VPMULUDQ (four 32×32→64
// products). With 28-bit digits every product is below 2^56, so a 64-bit lane can
// absorb 2^7 of them before any carry must move: the rows of the operand-scanning
// (CIOS-like) loop add x·y_i + q_i·m into the accumulator at digit offset i with four
// plain 64-bit lane additions per four digits, and carries are only resolved for the
// one digit that leaves each row (in a scalar register) and by a normalizing pass
// every 32 rows. This is the redundant-representation idea of Gueron & Krasnov's AVX2
// modular exponentiation (2014), here with R = 2^(64n) — the scalar kernel's R — so
// all paths agree bit for bit: 64n is rarely a multiple of 28, so the last row
// divides by 2^r, r = 64n − 28(D − 1), with a quotient digit of r bits.
#include "CBigNumSIMD.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#define DIGIT_BITS 28
#define DIGIT_MASK ((UINT64_C(1) << DIGIT_BITS) - 1)
// Rows between normalizing passes: each row adds at most two products below 2^56 to
// a lane, so 32 rows stay below 2^62 with room for the carries.
#define ROWS_PER_NORMALIZATION 32

static size_t significant_digits(size_t n) { return (64 * n + DIGIT_BITS - 1) / DIGIT_BITS; }

size_t rf_bn_avx2_digit_count(size_t n) { return (significant_digits(n) + 3) & ~(size_t)3; }

void rf_bn_avx2_to_digits(uint64_t *digits, const uint64_t *x, size_t n) {
    size_t d = significant_digits(n), p = rf_bn_avx2_digit_count(n);
    for (size_t k = 0; k < p; k++) {
        if (k >= d) { digits[k] = 0; continue; }
        size_t bit = DIGIT_BITS * k, limb = bit / 64, offset = bit % 64;
        uint64_t v = x[limb] >> offset;
        if (offset > 64 - DIGIT_BITS && limb + 1 < n) v |= x[limb + 1] << (64 - offset);
        digits[k] = v & DIGIT_MASK;
    }
}

void rf_bn_avx2_from_digits(uint64_t *x, const uint64_t *digits, size_t n) {
    size_t d = significant_digits(n);
    for (size_t limb = 0; limb < n; limb++) {
        size_t bit = 64 * limb, k = bit / DIGIT_BITS, offset = bit % DIGIT_BITS;
        uint64_t v = digits[k] >> offset;
        for (size_t shift = DIGIT_BITS - offset, j = k + 1; shift < 64 && j < d; shift += DIGIT_BITS, j++) {
            v |= digits[j] << shift;
        }
        x[limb] = v;
    }
}

unsigned rf_bn_cpu_levels(void) {
#if defined(__x86_64__)
    static volatile int cached = -1;
    int levels = cached;
    if (levels >= 0) return (unsigned)levels;
    levels = 0;
    unsigned a, b, c, d;
    // ADX and BMI2 use general registers only: no OS state to check.
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_ADX) && (b & bit_BMI2)) levels |= RF_BN_LEVEL_ADX;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
        unsigned xcr0_lo, xcr0_hi;
        __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
        int ymm = (xcr0_lo & 0x6) == 0x6;            // SSE and AVX state saved by the OS
        int zmm = ymm && (xcr0_lo & 0xE0) == 0xE0;   // opmask, ZMM_Hi256, Hi16_ZMM
        if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
            if (ymm && (b & bit_AVX2)) levels |= RF_BN_LEVEL_AVX2;
            unsigned avx512 = bit_AVX512F | bit_AVX512VL | bit_AVX512BW | bit_AVX512DQ;
            if (zmm && (levels & RF_BN_LEVEL_AVX2) && (b & avx512) == avx512) {
                levels |= RF_BN_LEVEL_AVX512;
                if (b & bit_AVX512IFMA) levels |= RF_BN_LEVEL_IFMA;
            }
        }
    }
    cached = levels;
    return (unsigned)levels;
#else
    return 0;
#endif
}

#if defined(__x86_64__)
/// The end of both kernels: normalizes the accumulator's digits d−1 ... d−1+p, divides
/// by 2^lastBits (the earlier rows' 2^28 divisions are the digit offset d − 1), and
/// subtracts m once if the result (< 2m) reaches it. Writes z (p digits).
static void finish(uint64_t *z, uint64_t *accumulator, const uint64_t *m, size_t d, size_t p, unsigned lastBits) {
    uint64_t *t = accumulator + d - 1;
    for (size_t k = 0; k < p; k++) {
        t[k + 1] += t[k] >> DIGIT_BITS;
        t[k] &= DIGIT_MASK;
    }
    // t < 2m < 2^(64n+1) ≤ 2^(28d+1): d + 1 digits after the shift.
    uint64_t shifted[p + 4], difference[p + 4];
    int64_t borrow = 0;
    for (size_t k = 0; k <= d; k++) {
        shifted[k] = ((t[k] >> lastBits) | (t[k + 1] << (DIGIT_BITS - lastBits))) & DIGIT_MASK;
        int64_t v = (int64_t)shifted[k] - (int64_t)(k < d ? m[k] : 0) - borrow;
        borrow = v < 0;
        difference[k] = (uint64_t)v & DIGIT_MASK;
    }
    const uint64_t *result = borrow ? shifted : difference;  // t − m went negative: keep t
    for (size_t k = 0; k < p; k++) z[k] = k < d ? result[k] : 0;
}

/// Adds a[k + 1] += a[k] >> 28, a[k] &= 2^28 − 1 for k in from ..< to.
static void normalize(uint64_t *a, size_t from, size_t to) {
    for (size_t k = from; k < to; k++) {
        a[k + 1] += a[k] >> DIGIT_BITS;
        a[k] &= DIGIT_MASK;
    }
}

/// The shapes of one kernel call: d significant digits, p = d rounded up to 4 (the
/// length of every digit array), lastBits = 64n − 28(d − 1) ∈ 1...28.
struct shape { size_t d, p; unsigned lastBits; };

static struct shape shape_of(size_t n) {
    struct shape s = {significant_digits(n), rf_bn_avx2_digit_count(n), 0};
    s.lastBits = (unsigned)(64 * n - DIGIT_BITS * (s.d - 1));
    return s;
}

/// Copies p digits of x to xs[1...p] with xs[0] = 0 and zeros up to xs[p + 7]: the
/// shifted copy lets one pass add two rows (digit offsets 0 and 1).
static void shifted_copy(uint64_t *xs, const uint64_t *x, size_t p) {
    xs[0] = 0;
    for (size_t k = 0; k < p; k++) xs[k + 1] = x[k];
    for (size_t k = p + 1; k < p + 8; k++) xs[k] = 0;
}

/// The rows of the product x·y interleaved with the reduction rows, two per pass
/// (the accumulator is loaded and stored once per two rows). Ends with the r-bit
/// row and `finish`. (A separate squaring — half the cross products, then the
/// reduction rows alone — measured slower than this on the AMD EPYC it was written
/// on: twice the accumulator traffic; and four rows per pass spilled registers.)
__attribute__((target("avx2")))
static void montgomery_rows(uint64_t *z, uint64_t *accumulator, const uint64_t *xs, const uint64_t *y, const uint64_t *ms,
                        uint64_t m0inv, struct shape s) {
    const size_t d = s.d, p = s.p;
    const uint64_t k0 = m0inv & DIGIT_MASK, m0 = ms[1], m1 = ms[2];
    const uint64_t x0 = xs[1], x1 = xs[2];
    uint64_t carry = 0;  // the carry out of digit i − 1, not yet added to accumulator[i]
    size_t i = 0;
    // Pairs of rows while both are before the last (r-bit) row.
    for (; i + 2 < d; i += 2) {
        uint64_t *a = accumulator + i;
        const uint64_t y0 = y[i], y1 = y[i + 1];
        const uint64_t t0 = a[0] + carry + x0 * y0;
        const uint64_t q0 = (t0 * k0) & DIGIT_MASK;
        const uint64_t c0 = (t0 + q0 * m0) >> DIGIT_BITS;
        const uint64_t t1 = a[1] + c0 + x1 * y0 + m1 * q0 + x0 * y1;
        const uint64_t q1 = (t1 * k0) & DIGIT_MASK;
        carry = (t1 + q1 * m0) >> DIGIT_BITS;
        const __m256i vq0 = _mm256_set1_epi64x((uint32_t)q0), vq1 = _mm256_set1_epi64x((uint32_t)q1);
        const __m256i vy0 = _mm256_set1_epi64x((uint32_t)y0), vy1 = _mm256_set1_epi64x((uint32_t)y1);
        for (size_t j = 0; j < p + 4; j += 4) {
            __m256i sum = _mm256_loadu_si256((const __m256i *)(a + j));
            __m256i row0 = _mm256_add_epi64(_mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(xs + j + 1)), vy0),
                                            _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(ms + j + 1)), vq0));
            __m256i row1 = _mm256_add_epi64(_mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(xs + j)), vy1),
                                            _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(ms + j)), vq1));
            _mm256_storeu_si256((__m256i *)(a + j), _mm256_add_epi64(sum, _mm256_add_epi64(row0, row1)));
        }
        if ((i + 2) % ROWS_PER_NORMALIZATION == 0) {
            a[2] += carry;
            carry = 0;
            normalize(a, 2, p + 4);
        }
    }
    // The remaining one or two rows, one at a time; the last divides by 2^lastBits.
    for (; i < d; i++) {
        uint64_t *a = accumulator + i;
        const uint64_t yi = y[i];
        const uint64_t t = a[0] + carry + x0 * yi;
        const unsigned bits = i + 1 == d ? s.lastBits : DIGIT_BITS;
        const uint64_t q = (t * k0) & ((UINT64_C(1) << bits) - 1);
        const __m256i vy = _mm256_set1_epi64x((uint32_t)yi), vq = _mm256_set1_epi64x((uint32_t)q);
        for (size_t j = 0; j < p; j += 4) {
            __m256i sum = _mm256_loadu_si256((const __m256i *)(a + j));
            sum = _mm256_add_epi64(sum, _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(xs + j + 1)), vy));
            sum = _mm256_add_epi64(sum, _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(ms + j + 1)), vq));
            _mm256_storeu_si256((__m256i *)(a + j), sum);
        }
        if (i + 1 == d) {
            a[0] += carry;  // ≡ 0 mod 2^lastBits: the division in finish is exact
            break;
        }
        carry = (t + q * m0) >> DIGIT_BITS;  // digit i is ≡ 0 mod 2^28 now
    }
    finish(z, accumulator, ms + 1, d, p, s.lastBits);
}

/// x·y·2^(−64n) mod m: product rows interleaved with the reduction rows.
__attribute__((target("avx2")))
static void mont_mul_digits_avx2(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                 uint64_t m0inv, size_t n) {
    const struct shape s = shape_of(n);
    uint64_t accumulator[2 * s.p + 16], xs[s.p + 8], ms[s.p + 8];
    for (size_t k = 0; k < 2 * s.p + 16; k++) accumulator[k] = 0;
    shifted_copy(xs, x, s.p);
    shifted_copy(ms, m, s.p);
    montgomery_rows(z, accumulator, xs, y, ms, m0inv, s);
}
#endif

int rf_bn_avx2_mont_mul_digits(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                               uint64_t m0inv, size_t n) {
#if defined(__x86_64__)
    if (n == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_AVX2)) return 0;
    mont_mul_digits_avx2(z, x, y, m, m0inv, n);
    return 1;
#else
    (void)z; (void)x; (void)y; (void)m; (void)m0inv; (void)n;
    return 0;
#endif
}

int rf_bn_avx2_mont_mul(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                        uint64_t m0inv, size_t n) {
    if (n == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_AVX2)) return 0;
    const size_t p = rf_bn_avx2_digit_count(n);
    uint64_t xd[p], yd[p], md[p];
    rf_bn_avx2_to_digits(xd, x, n);
    rf_bn_avx2_to_digits(yd, y, n);
    rf_bn_avx2_to_digits(md, m, n);
    rf_bn_avx2_mont_mul_digits(xd, xd, yd, md, m0inv, n);
    rf_bn_avx2_from_digits(z, xd, n);
    return 1;
}
