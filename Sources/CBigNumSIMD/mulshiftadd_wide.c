// The product half of BigNum's mulShiftAdd on wide vectors (see CBigNumSIMD.h):
// mul_pairs.h on AVX2 (four columns of both lanes per block) and on AVX-512 (eight).
#include "CBigNumSIMD.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define MUL_PAIRS_TARGET "avx2"
#define MUL_PAIRS_LANES 4
#define MUL_PAIRS_VEC __m256i
#define MUL_PAIRS_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define MUL_PAIRS_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define MUL_PAIRS_ADD(a, b) _mm256_add_epi64((a), (b))
#define MUL_PAIRS_AND(a, b) _mm256_and_si256((a), (b))
#define MUL_PAIRS_SHR32(a) _mm256_srli_epi64((a), 32)
#define MUL_PAIRS_MUL(a, b) _mm256_mul_epu32((a), (b))
#define MUL_PAIRS_ZERO() _mm256_setzero_si256()
#define MUL_PAIRS_SET1(x) _mm256_set1_epi64x((long long)(x))
#define MUL_PAIRS_BROADCAST_PAIR(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
#define MUL_PAIRS_NAME mul_pairs_avx2
#include "mul_pairs.h"
#undef MUL_PAIRS_TARGET
#undef MUL_PAIRS_LANES
#undef MUL_PAIRS_VEC
#undef MUL_PAIRS_LOAD
#undef MUL_PAIRS_STORE
#undef MUL_PAIRS_ADD
#undef MUL_PAIRS_AND
#undef MUL_PAIRS_SHR32
#undef MUL_PAIRS_MUL
#undef MUL_PAIRS_ZERO
#undef MUL_PAIRS_SET1
#undef MUL_PAIRS_BROADCAST_PAIR
#undef MUL_PAIRS_NAME

#define MUL_PAIRS_TARGET "avx512f,avx512dq"
#define MUL_PAIRS_LANES 8
#define MUL_PAIRS_VEC __m512i
#define MUL_PAIRS_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define MUL_PAIRS_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define MUL_PAIRS_ADD(a, b) _mm512_add_epi64((a), (b))
#define MUL_PAIRS_AND(a, b) _mm512_and_si512((a), (b))
#define MUL_PAIRS_SHR32(a) _mm512_srli_epi64((a), 32)
#define MUL_PAIRS_MUL(a, b) _mm512_mul_epu32((a), (b))
#define MUL_PAIRS_ZERO() _mm512_setzero_si512()
#define MUL_PAIRS_SET1(x) _mm512_set1_epi64((long long)(x))
#define MUL_PAIRS_BROADCAST_PAIR(p) _mm512_broadcast_i64x2(_mm_loadu_si128((const __m128i *)(p)))
#define MUL_PAIRS_NAME mul_pairs_avx512
#include "mul_pairs.h"
#endif

int rf_bn_wide_mul_pairs(unsigned level, uint32_t *product, const uint32_t *a, const uint32_t *b, size_t n,
                         uint64_t *workspace) {
#if defined(__x86_64__)
    if (n == 0 || n > 4096) return 0;
    // AVX-512 (F + DQ) has the eight-column kernel; IFMA's 52-bit products do not fit
    // these 32-bit words, so the ifma level runs it too.
    const unsigned levels = rf_bn_cpu_levels();
    if ((level == RF_BN_LEVEL_AVX512 || level == RF_BN_LEVEL_IFMA) && (levels & level)) {
        mul_pairs_avx512(product, a, b, n, workspace);
        return 1;
    }
    if (level == RF_BN_LEVEL_AVX2 && (levels & level)) {
        mul_pairs_avx2(product, a, b, n, workspace);
        return 1;
    }
    return 0;
#else
    (void)level; (void)product; (void)a; (void)b; (void)n; (void)workspace;
    return 0;
#endif
}
