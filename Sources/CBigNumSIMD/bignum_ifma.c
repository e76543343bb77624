// Montgomery multiplication on AVX-512 IFMA in radix 2^52 (see CBigNumSIMD.h for
// the contract and digits.h for the digit form).
//
// VPMADD52LUQ and VPMADD52HUQ add the low and the high 52 bits of eight 52×52-bit
// products to eight 64-bit lanes: the multiply-accumulate of the published AVX-512
// IFMA RSA work (Drucker & Gueron, "Fast modular squaring with AVX512IFMA", 2019;
// OpenSSL's rsaz-avx512). The rows are those of the radix-2^28 kernels
// (montgomery_radix28.h), with 52-bit digits: row i adds lo(x·y_i) + lo(q_i·m) at
// digit offset i and the high halves one digit up, so each lane takes at most four
// values below 2^52 per row and, for every modulus up to 256 limbs (316 digits),
// stays below 316·2^54 < 2^63 without a normalizing pass. The quotient digit of each
// row is computed in scalar registers from the lowest digit (the 64×64 multiplies
// there give the low 52 bits; the high halves need the 128-bit product). As in the
// other wide kernels R = 2^(64n), so the last row's quotient has r = 64n − 52(d − 1)
// bits. Two rows per pass: the accumulator is loaded and stored once per two rows.
#include "CBigNumSIMD.h"
#include "digits.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define IFMA_BITS 52
#define IFMA_MASK ((UINT64_C(1) << IFMA_BITS) - 1)

static inline uint64_t low52(uint64_t a, uint64_t b) { return (a * b) & IFMA_MASK; }
static inline uint64_t high52(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> IFMA_BITS); }

#define LOAD(p) _mm512_loadu_si512((const void *)(p))
#define LOAD128(p) _mm_loadu_si128((const __m128i *)(p))

__attribute__((target("avx512f,avx512vl,avx512ifma")))
void rf_bn_mont_mul_digits_ifma(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                uint64_t m0inv, struct rf_bn_shape s) {
    const size_t d = s.d, p = s.p;
    uint64_t accumulator[2 * p + 16], xs[p + 16], ms[p + 16];
    for (size_t k = 0; k < 2 * p + 16; k++) accumulator[k] = 0;
    // xs[j + 2] = x[j], xs[0] = xs[1] = 0: a pass at offset i reads x[j] (xs + j + 2)
    // and x[j − 1] (xs + j + 1) for row i, x[j − 1] and x[j − 2] (xs + j) for row i + 1.
    rf_bn_digits_shifted_copy(xs, x, p, 2);
    rf_bn_digits_shifted_copy(ms, m, p, 2);
    const uint64_t k0 = m0inv & IFMA_MASK, x0 = xs[2], x1 = xs[3], m0 = ms[2], m1 = ms[3];
    uint64_t carry = 0;  // the carry out of digit i − 1, not yet added to accumulator[i]
    size_t i = 0;
    // Pairs of rows while both are before the last (r-bit) row.
    for (; i + 2 < d; i += 2) {
        uint64_t *a = accumulator + i;
        const uint64_t y0 = y[i], y1 = y[i + 1];
        const uint64_t t0 = a[0] + carry + low52(x0, y0);
        const uint64_t q0 = (t0 * k0) & IFMA_MASK;
        const uint64_t c0 = (t0 + low52(q0, m0)) >> IFMA_BITS;
        const uint64_t t1 = a[1] + c0 + low52(x1, y0) + low52(m1, q0) + high52(x0, y0) + high52(m0, q0) + low52(x0, y1);
        const uint64_t q1 = (t1 * k0) & IFMA_MASK;
        carry = (t1 + low52(q1, m0)) >> IFMA_BITS;
        const __m512i vy0 = _mm512_set1_epi64((long long)y0), vq0 = _mm512_set1_epi64((long long)q0);
        const __m512i vy1 = _mm512_set1_epi64((long long)y1), vq1 = _mm512_set1_epi64((long long)q1);
        for (size_t j = 0; j < p; j += 8) {
            const __m512i x_j = LOAD(xs + j + 2), x_j1 = LOAD(xs + j + 1), x_j2 = LOAD(xs + j);
            const __m512i m_j = LOAD(ms + j + 2), m_j1 = LOAD(ms + j + 1), m_j2 = LOAD(ms + j);
            __m512i sum = LOAD(a + j), other = _mm512_setzero_si512();
            // The y rows first, the quotient rows (which wait for the scalar q) last.
            sum = _mm512_madd52lo_epu64(sum, x_j, vy0);
            sum = _mm512_madd52hi_epu64(sum, x_j1, vy0);
            sum = _mm512_madd52lo_epu64(sum, x_j1, vy1);
            sum = _mm512_madd52hi_epu64(sum, x_j2, vy1);
            other = _mm512_madd52lo_epu64(other, m_j, vq0);
            other = _mm512_madd52hi_epu64(other, m_j1, vq0);
            sum = _mm512_madd52lo_epu64(sum, m_j1, vq1);
            other = _mm512_madd52hi_epu64(other, m_j2, vq1);
            _mm512_storeu_si512((void *)(a + j), _mm512_add_epi64(sum, other));
        }
        // Digits p and p + 1 of the pass: the high halves of digit p − 1 of row i and
        // both halves of it in row i + 1 (two 128-bit lanes, not a whole vector).
        {
            const __m128i y0p = _mm_set1_epi64x((long long)y0), q0p = _mm_set1_epi64x((long long)q0);
            const __m128i y1p = _mm_set1_epi64x((long long)y1), q1p = _mm_set1_epi64x((long long)q1);
            const __m128i x_j1 = LOAD128(xs + p + 1), x_j2 = LOAD128(xs + p), m_j1 = LOAD128(ms + p + 1), m_j2 = LOAD128(ms + p);
            __m128i sum = LOAD128(a + p);
            sum = _mm_madd52hi_epu64(sum, x_j1, y0p);
            sum = _mm_madd52hi_epu64(sum, m_j1, q0p);
            sum = _mm_madd52lo_epu64(sum, x_j1, y1p);
            sum = _mm_madd52lo_epu64(sum, m_j1, q1p);
            sum = _mm_madd52hi_epu64(sum, x_j2, y1p);
            sum = _mm_madd52hi_epu64(sum, m_j2, q1p);
            _mm_storeu_si128((__m128i *)(a + p), sum);
        }
    }
    // The remaining one or two rows, one at a time; the last divides by 2^lastBits.
    for (; i < d; i++) {
        uint64_t *a = accumulator + i;
        const uint64_t yi = y[i];
        const uint64_t t = a[0] + carry + low52(x0, yi);
        const unsigned bits = i + 1 == d ? s.lastBits : IFMA_BITS;
        const uint64_t q = (t * k0) & ((UINT64_C(1) << bits) - 1);
        const __m512i vy = _mm512_set1_epi64((long long)yi), vq = _mm512_set1_epi64((long long)q);
        for (size_t j = 0; j < p; j += 8) {
            __m512i sum = LOAD(a + j);
            sum = _mm512_madd52lo_epu64(sum, LOAD(xs + j + 2), vy);
            sum = _mm512_madd52hi_epu64(sum, LOAD(xs + j + 1), vy);
            sum = _mm512_madd52lo_epu64(sum, LOAD(ms + j + 2), vq);
            sum = _mm512_madd52hi_epu64(sum, LOAD(ms + j + 1), vq);
            _mm512_storeu_si512((void *)(a + j), sum);
        }
        a[p] += high52(xs[p + 1], yi) + high52(ms[p + 1], q);  // digit p: the high halves of digit p − 1
        if (i + 1 == d) {
            a[0] += carry;  // ≡ 0 mod 2^lastBits: the division in finish is exact
            break;
        }
        carry = (t + low52(q, m0)) >> IFMA_BITS;  // digit i is ≡ 0 mod 2^52 now
    }
    rf_bn_digits_finish(z, accumulator, ms + 2, s);
}
#endif
