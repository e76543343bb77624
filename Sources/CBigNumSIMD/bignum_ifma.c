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

/// Lanes 0 and 1 of v.
__attribute__((target("avx512f")))
static inline void low_lanes(__m512i v, uint64_t *lane0, uint64_t *lane1) {
    const __m128i low = _mm512_castsi512_si128(v);
    *lane0 = (uint64_t)_mm_cvtsi128_si64(low);
    *lane1 = (uint64_t)_mm_extract_epi64(low, 1);
}

__attribute__((target("avx512f,avx512vl,avx512ifma")))
void rf_bn_mont_mul_digits_ifma(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                                uint64_t m0inv, struct rf_bn_shape s) {
    const size_t d = s.d, p = s.p;
    // The window: the accumulator from the current row's digit up. A pass of two rows
    // leaves its two lowest digits behind (≡ 0 mod 2^52 by the choice of q, their
    // carry kept in a scalar register) and shifts the rest down by two digits as it
    // adds (VALIGNQ of each vector with the next), so every load reads what one store
    // wrote and the next pass's two lowest digits come out of a register. Between
    // passes digits 0 ..< p can be nonzero; the last row adds one above.
    uint64_t window[p + 16], xs[p + 16], ms[p + 16];
    for (size_t k = 0; k < p + 16; k++) window[k] = 0;
    // xs[c + 1] = x[c], xs[0] = 0 (so that x[c − 1] is in bounds at c = 0).
    rf_bn_digits_shifted_copy(xs, x, p, 1);
    rf_bn_digits_shifted_copy(ms, m, p, 1);
    const uint64_t k0 = m0inv & IFMA_MASK, x0 = xs[1], x1 = xs[2], m0 = ms[1], m1 = ms[2];
    uint64_t carry = 0;       // the carry out of the digit left behind, not yet added to window[0]
    uint64_t w0 = 0, w1 = 0;  // window[0] and window[1], from the register that stored them
    size_t i = 0;
    // Pairs of rows while both are before the last (r-bit) row. New digit c takes
    // lo(x[c + 2]·y_i), hi(x[c + 1]·y_i), lo(x[c + 1]·y_(i+1)), hi(x[c]·y_(i+1)), the
    // same with m and the quotients, and old digit c + 2.
    for (; i + 2 < d; i += 2) {
        const uint64_t y0 = y[i], y1 = y[i + 1];
        const uint64_t t0 = w0 + carry + low52(x0, y0);
        const uint64_t q0 = (t0 * k0) & IFMA_MASK;
        const uint64_t c0 = (t0 + low52(q0, m0)) >> IFMA_BITS;
        const uint64_t t1 = w1 + c0 + low52(x1, y0) + low52(m1, q0) + high52(x0, y0) + high52(m0, q0) + low52(x0, y1);
        const uint64_t q1 = (t1 * k0) & IFMA_MASK;
        carry = (t1 + low52(q1, m0)) >> IFMA_BITS;
        const __m512i vy0 = _mm512_set1_epi64((long long)y0), vq0 = _mm512_set1_epi64((long long)q0);
        const __m512i vy1 = _mm512_set1_epi64((long long)y1), vq1 = _mm512_set1_epi64((long long)q1);
        __m512i current = LOAD(window);
        for (size_t j = 0; j < p; j += 8) {
            const __m512i next = LOAD(window + j + 8);
            const __m512i x_2 = LOAD(xs + j + 3), x_1 = LOAD(xs + j + 2), x_0 = LOAD(xs + j + 1);
            const __m512i m_2 = LOAD(ms + j + 3), m_1 = LOAD(ms + j + 2), m_0 = LOAD(ms + j + 1);
            __m512i sum = _mm512_alignr_epi64(next, current, 2), other = _mm512_setzero_si512();
            // The y rows first, the quotient rows (which wait for the scalar q) last.
            sum = _mm512_madd52lo_epu64(sum, x_2, vy0);
            sum = _mm512_madd52hi_epu64(sum, x_1, vy0);
            sum = _mm512_madd52lo_epu64(sum, x_1, vy1);
            sum = _mm512_madd52hi_epu64(sum, x_0, vy1);
            other = _mm512_madd52lo_epu64(other, m_2, vq0);
            other = _mm512_madd52hi_epu64(other, m_1, vq0);
            sum = _mm512_madd52lo_epu64(sum, m_1, vq1);
            other = _mm512_madd52hi_epu64(other, m_0, vq1);
            sum = _mm512_add_epi64(sum, other);
            _mm512_storeu_si512((void *)(window + j), sum);
            if (j == 0) low_lanes(sum, &w0, &w1);
            current = next;
        }
    }
    // The remaining one or two rows, one at a time: a row before the last shifts the
    // window by one digit; the last divides by 2^lastBits only, so it does not shift.
    for (; i < d; i++) {
        const uint64_t yi = y[i];
        const uint64_t t = w0 + carry + low52(x0, yi);
        const int last = i + 1 == d;
        const uint64_t q = (t * k0) & ((UINT64_C(1) << (last ? s.lastBits : IFMA_BITS)) - 1);
        const __m512i vy = _mm512_set1_epi64((long long)yi), vq = _mm512_set1_epi64((long long)q);
        if (last) {
            // Digit c takes lo(x[c]·y), hi(x[c − 1]·y) and the same with m: digits 0 ... p.
            for (size_t j = 0; j <= p; j += 8) {
                __m512i sum = LOAD(window + j);
                sum = _mm512_madd52lo_epu64(sum, LOAD(xs + j + 1), vy);
                sum = _mm512_madd52hi_epu64(sum, LOAD(xs + j), vy);
                sum = _mm512_madd52lo_epu64(sum, LOAD(ms + j + 1), vq);
                sum = _mm512_madd52hi_epu64(sum, LOAD(ms + j), vq);
                _mm512_storeu_si512((void *)(window + j), sum);
            }
            window[0] += carry;  // ≡ 0 mod 2^lastBits: the division in finish is exact
            break;
        }
        // New digit c takes lo(x[c + 1]·y), hi(x[c]·y), the same with m, and old digit c + 1.
        __m512i current = LOAD(window);
        for (size_t j = 0; j < p; j += 8) {
            const __m512i next = LOAD(window + j + 8);
            __m512i sum = _mm512_alignr_epi64(next, current, 1);
            sum = _mm512_madd52lo_epu64(sum, LOAD(xs + j + 2), vy);
            sum = _mm512_madd52hi_epu64(sum, LOAD(xs + j + 1), vy);
            sum = _mm512_madd52lo_epu64(sum, LOAD(ms + j + 2), vq);
            sum = _mm512_madd52hi_epu64(sum, LOAD(ms + j + 1), vq);
            _mm512_storeu_si512((void *)(window + j), sum);
            if (j == 0) low_lanes(sum, &w0, &w1);
            current = next;
        }
        carry = (t + low52(q, m0)) >> IFMA_BITS;  // the digit left behind is ≡ 0 mod 2^52
    }
    rf_bn_digits_finish(z, window, ms + 1, s);
}
#endif
