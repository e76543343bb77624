// The product half of BigNum's mulShiftAdd on AVX2 (see CBigNumSIMD.h): the exact
// products a·b of two 2-lane numbers of n 32-bit words, by product scanning four
// columns of both lanes at a time — the Swift SIMD8 kernel's scheme, here with two
// 256-bit VPMULUDQ per a_i (eight 32×32→64 products) instead of four 128-bit ones.
// Both operands are first widened to 64-bit lanes (in the caller's workspace), so the
// inner loop is one VBROADCASTI128, two loads, two multiplies and eight adds/masks.
// Each product's low and high halves go into separate 64-bit sums (at most 4096
// terms below 2^32 each: no overflow), and the carries are resolved once per block.
#include "CBigNumSIMD.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static void mul_pairs_avx2(uint32_t *product, const uint32_t *a, const uint32_t *b, size_t n, uint64_t *workspace) {
    // Both operands widened once to 64-bit lanes, so the loop loads what VPMULUDQ takes:
    // a_i as (lane 0, lane 1) for VBROADCASTI128, b with four zero pairs either side.
    uint64_t *wideA = workspace, *wideB = workspace + 2 * n;
    for (size_t k = 0; k < 2 * n; k++) wideA[k] = a[k];
    for (size_t k = 0; k < 8; k++) { wideB[k] = 0; wideB[2 * (n + 4) + k] = 0; }
    for (size_t k = 0; k < 2 * n; k++) wideB[8 + k] = b[k];
    const uint64_t *window = wideB + 8;  // window[2j + lane] = b's word j (j ≥ −4)
    const size_t columns = 2 * n;
    const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFF);
    uint64_t carry[2] = {0, 0}, previousHigh[2] = {0, 0};
    for (size_t k0 = 0; k0 < columns; k0 += 4) {
        __m256i low01 = _mm256_setzero_si256(), low23 = _mm256_setzero_si256();
        __m256i high01 = _mm256_setzero_si256(), high23 = _mm256_setzero_si256();
        size_t first = k0 + 1 > n ? k0 + 1 - n : 0, last = k0 + 3 < n - 1 ? k0 + 3 : n - 1;
        for (size_t i = first; i <= last; i++) {
            const __m256i ai = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(wideA + 2 * i)));
            const uint64_t *w = window + 2 * ((ptrdiff_t)k0 - (ptrdiff_t)i);
            const __m256i p01 = _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)w), ai);
            const __m256i p23 = _mm256_mul_epu32(_mm256_loadu_si256((const __m256i *)(w + 4)), ai);
            low01 = _mm256_add_epi64(low01, _mm256_and_si256(p01, low32));
            high01 = _mm256_add_epi64(high01, _mm256_srli_epi64(p01, 32));
            low23 = _mm256_add_epi64(low23, _mm256_and_si256(p23, low32));
            high23 = _mm256_add_epi64(high23, _mm256_srli_epi64(p23, 32));
        }
        uint64_t lows[8], highs[8];
        _mm256_storeu_si256((__m256i *)lows, low01);
        _mm256_storeu_si256((__m256i *)(lows + 4), low23);
        _mm256_storeu_si256((__m256i *)highs, high01);
        _mm256_storeu_si256((__m256i *)(highs + 4), high23);
        for (size_t c = 0; c < 4 && k0 + c < columns; c++) {
            for (int lane = 0; lane < 2; lane++) {
                const uint64_t sum = lows[2 * c + lane] + previousHigh[lane] + carry[lane];
                product[2 * (k0 + c) + lane] = (uint32_t)sum;
                carry[lane] = sum >> 32;
                previousHigh[lane] = highs[2 * c + lane];
            }
        }
    }
}
#endif

int rf_bn_avx2_mul_pairs(uint32_t *product, const uint32_t *a, const uint32_t *b, size_t n, uint64_t *workspace) {
#if defined(__x86_64__)
    if (n == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_AVX2)) return 0;
    mul_pairs_avx2(product, a, b, n, workspace);
    return 1;
#else
    (void)product; (void)a; (void)b; (void)n; (void)workspace;
    return 0;
#endif
}
