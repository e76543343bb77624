// Montgomery multiplication on AVX2 in radix 2^28: montgomery_radix28.h on 256-bit
// vectors (four 64-bit lanes).
#include "CBigNumSIMD.h"
#include "digits.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define RADIX28_TARGET "avx2"
#define RADIX28_LANES 4
#define RADIX28_VEC __m256i
#define RADIX28_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define RADIX28_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define RADIX28_ADD(a, b) _mm256_add_epi64((a), (b))
#define RADIX28_MUL(a, b) _mm256_mul_epu32((a), (b))
#define RADIX28_SET1(x) _mm256_set1_epi64x((uint32_t)(x))  // digits and quotients are below 2^28: the cast tells the compiler VPMULUDQ alone suffices
#define RADIX28_NAME rf_bn_mont_mul_digits_avx2
#include "montgomery_radix28.h"
#endif
