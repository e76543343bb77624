// rf_bn_cpu_levels(): which kernels this CPU and OS can run (see CBigNumSIMD.h).
#include "CBigNumSIMD.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

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
