// Montgomery multiplication on AVX-512F in radix 2^28: montgomery_radix28.h on
// 512-bit vectors (eight 64-bit lanes), for CPUs with AVX-512 but without IFMA's
// 52-bit multiply (bignum_ifma.c).
#include "CBigNumSIMD.h"
#include "digits.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define RADIX28_TARGET "avx512f"
#define RADIX28_LANES 8
#define RADIX28_VEC __m512i
#define RADIX28_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define RADIX28_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define RADIX28_ADD(a, b) _mm512_add_epi64((a), (b))
#define RADIX28_MUL(a, b) _mm512_mul_epu32((a), (b))
#define RADIX28_SET1(x) _mm512_set1_epi64((uint32_t)(x))  // as in bignum_avx2.c
#define RADIX28_NAME rf_bn_mont_mul_digits_avx512
#include "montgomery_radix28.h"
#endif
