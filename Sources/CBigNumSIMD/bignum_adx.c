// Montgomery multiplication and squaring on 64-bit limbs with MULX (BMI2) and the
// two independent carry chains of ADCX/ADOX (ADX), as OpenSSL's x86_64-mont does:
// see CBigNumSIMD.h for the contract. The one hot loop, `acc += a·b` over four limbs
// at a time, is inline assembly (compilers do not keep two carry chains in CF and OF
// from intrinsics); the rest is C. Only called after rf_bn_cpu_levels() reported ADX
// and BMI2. Squaring computes the cross products once, doubles them and adds the
// diagonal (n(n−1)/2 + n products instead of n²), then the n² reduction products.
#include "CBigNumSIMD.h"

#if defined(__x86_64__)
typedef unsigned __int128 u128;

/// acc[0 ..< len] += a[0 ..< len]·b + carry; returns the limb carried out (the sum
/// always fits in len + 1 limbs). Four limbs per pass, then the last len mod 4 one at
/// a time: MULX's low halves run down the CF chain (ADCX), its high halves down the
/// OF chain (ADOX); the loop control (LEA, JRCXZ, JMP, MOV) leaves both flags alone.
__attribute__((target("adx,bmi2")))
static inline uint64_t mul_add_row(uint64_t *acc, const uint64_t *a, size_t len, uint64_t b, uint64_t carry) {
    size_t count = len >> 2;
    uint64_t lo, hi, tail = len & 3;
    __asm__ volatile(
        "xor %k[lo], %k[lo]\n\t"  // CF = OF = 0
        "jrcxz 2f\n\t"
        "1:\n\t"
        "mulx (%[a]), %[lo], %[hi]\n\t"
        "adcx (%[acc]), %[lo]\n\t"
        "adox %[carry], %[lo]\n\t"
        "mov %[lo], (%[acc])\n\t"
        "mulx 8(%[a]), %[lo], %[carry]\n\t"
        "adcx 8(%[acc]), %[lo]\n\t"
        "adox %[hi], %[lo]\n\t"
        "mov %[lo], 8(%[acc])\n\t"
        "mulx 16(%[a]), %[lo], %[hi]\n\t"
        "adcx 16(%[acc]), %[lo]\n\t"
        "adox %[carry], %[lo]\n\t"
        "mov %[lo], 16(%[acc])\n\t"
        "mulx 24(%[a]), %[lo], %[carry]\n\t"
        "adcx 24(%[acc]), %[lo]\n\t"
        "adox %[hi], %[lo]\n\t"
        "mov %[lo], 24(%[acc])\n\t"
        "lea 32(%[a]), %[a]\n\t"
        "lea 32(%[acc]), %[acc]\n\t"
        "lea -1(%[n]), %[n]\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n\t"
        "2:\n\t"
        "mov %[tail], %[n]\n\t"
        "3:\n\t"
        "jrcxz 4f\n\t"
        "mulx (%[a]), %[lo], %[hi]\n\t"
        "adcx (%[acc]), %[lo]\n\t"
        "adox %[carry], %[lo]\n\t"
        "mov %[lo], (%[acc])\n\t"
        "mov %[hi], %[carry]\n\t"
        "lea 8(%[a]), %[a]\n\t"
        "lea 8(%[acc]), %[acc]\n\t"
        "lea -1(%[n]), %[n]\n\t"
        "jmp 3b\n\t"
        "4:\n\t"
        "mov $0, %k[lo]\n\t"  // fold both pending carries in
        "adcx %[lo], %[carry]\n\t"
        "adox %[lo], %[carry]\n\t"
        : [a] "+r"(a), [acc] "+r"(acc), [n] "+c"(count), [carry] "+r"(carry), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : "d"(b), [tail] "r"(tail)
        : "cc", "memory");
    return carry;
}

/// z = t·2^(−64n) mod m for t < 2^(64n)·m (2n + 1 limbs; overwritten):
/// n reduction rows, then one conditional subtraction of m. (Two rows per pass, with
/// the block of four limbs in registers between them, measured slower on the AMD
/// EPYC this was written on: the rows' carry chains, not memory, set the pace.)
__attribute__((target("adx,bmi2")))
static void reduce(uint64_t *z, uint64_t *t, const uint64_t *m, uint64_t m0inv, size_t n) {
    uint64_t top = 0;  // the carry into t[i + n + 1], added by the next row
    for (size_t i = 0; i < n; i++) {
        const uint64_t q = t[i] * m0inv;
        const u128 s = (u128)t[i + n] + mul_add_row(t + i, m, n, q, 0) + top;
        t[i + n] = (uint64_t)s;
        top = (uint64_t)(s >> 64);
    }
    t[2 * n] = top;
    // r = t[n ..< 2n] + t[2n]·2^(64n) < 2m: r − m if that does not go below 0.
    uint64_t *r = t + n, *d = t;  // t[0 ..< n] is free (zero) now
    unsigned long long borrow = 0;
    for (size_t k = 0; k < n; k++) d[k] = __builtin_subcll(r[k], m[k], borrow, &borrow);
    const uint64_t *result = (t[2 * n] == 0 && borrow) ? r : d;
    for (size_t k = 0; k < n; k++) z[k] = result[k];
}

__attribute__((target("adx,bmi2")))
static void mont_mul_adx(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m, uint64_t m0inv, size_t n) {
    uint64_t t[2 * n + 1];
    for (size_t k = 0; k < n; k++) t[k] = 0;
    t[2 * n] = 0;
    for (size_t i = 0; i < n; i++) t[i + n] = mul_add_row(t + i, x, n, y[i], 0);
    reduce(z, t, m, m0inv, n);
}

__attribute__((target("adx,bmi2")))
static void mont_sqr_adx(uint64_t *z, const uint64_t *x, const uint64_t *m, uint64_t m0inv, size_t n) {
    uint64_t t[2 * n + 1];
    for (size_t k = 0; k < 2 * n + 1; k++) t[k] = 0;
    // Cross products x_i·x_j, i < j: row i covers t[2i + 1 ..< i + n], its carry t[i + n].
    for (size_t i = 0; i + 1 < n; i++) t[i + n] = mul_add_row(t + 2 * i + 1, x + i + 1, n - 1 - i, x[i], 0);
    // Twice that, plus the squares x_i² at t[2i].
    uint64_t shifted = 0;
    unsigned long long carry = 0;
    for (size_t i = 0; i < n; i++) {
        u128 square = (u128)x[i] * x[i];
        uint64_t lo = t[2 * i], hi = t[2 * i + 1];
        uint64_t lo2 = lo << 1 | shifted, hi2 = hi << 1 | lo >> 63;
        shifted = hi >> 63;
        t[2 * i] = __builtin_addcll(lo2, (uint64_t)square, carry, &carry);
        t[2 * i + 1] = __builtin_addcll(hi2, (uint64_t)(square >> 64), carry, &carry);
    }
    reduce(z, t, m, m0inv, n);
}

/// Left-to-right binary exponentiation (see CBigNumSIMD.h).
__attribute__((target("adx,bmi2")))
static void mont_power_binary_adx(uint64_t *z, const uint64_t *x, const uint64_t *rr, const uint64_t *m, uint64_t m0inv,
                                  size_t n, const uint64_t *e, size_t bits) {
    uint64_t xr[n];
    mont_mul_adx(xr, x, rr, m, m0inv, n);  // x·R mod m
    for (size_t k = 0; k < n; k++) z[k] = xr[k];
    int montgomeryForm = 1;
    for (size_t i = bits - 1; i-- > 0;) {
        mont_sqr_adx(z, z, m, m0inv, n);
        if (!((e[i / 64] >> (i % 64)) & 1)) continue;
        if (i == 0) {
            mont_mul_adx(z, z, x, m, m0inv, n);  // (x^(e−1)·R)·x·R^(−1) = x^e: out of Montgomery form
            montgomeryForm = 0;
        } else {
            mont_mul_adx(z, z, xr, m, m0inv, n);
        }
    }
    if (montgomeryForm) {
        for (size_t k = 0; k < n; k++) xr[k] = k == 0;
        mont_mul_adx(z, z, xr, m, m0inv, n);  // z·R^(−1)
    }
}
#endif

int rf_bn_adx_mont_power_binary(uint64_t *z, const uint64_t *x, const uint64_t *rr, const uint64_t *m, uint64_t m0inv,
                                size_t n, const uint64_t *e, size_t bits) {
#if defined(__x86_64__)
    if (n == 0 || bits == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_ADX)) return 0;
    mont_power_binary_adx(z, x, rr, m, m0inv, n, e, bits);
    return 1;
#else
    (void)z; (void)x; (void)rr; (void)m; (void)m0inv; (void)n; (void)e; (void)bits;
    return 0;
#endif
}

int rf_bn_adx_mont_mul(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m, uint64_t m0inv, size_t n) {
#if defined(__x86_64__)
    if (n == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_ADX)) return 0;
    mont_mul_adx(z, x, y, m, m0inv, n);
    return 1;
#else
    (void)z; (void)x; (void)y; (void)m; (void)m0inv; (void)n;
    return 0;
#endif
}

int rf_bn_adx_mont_sqr(uint64_t *z, const uint64_t *x, const uint64_t *m, uint64_t m0inv, size_t n) {
#if defined(__x86_64__)
    if (n == 0 || !(rf_bn_cpu_levels() & RF_BN_LEVEL_ADX)) return 0;
    mont_sqr_adx(z, x, m, m0inv, n);
    return 1;
#else
    (void)z; (void)x; (void)m; (void)m0inv; (void)n;
    return 0;
#endif
}
