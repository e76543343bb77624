// Montgomery multiplication and squaring on 64-bit limbs with MULX (BMI2) and the
// two independent carry chains of ADCX/ADOX (ADX), as OpenSSL's x86_64-mont does:
// see CBigNumSIMD.h for the contract. The hot loops are inline assembly (compilers do
// not keep two carry chains in CF and OF from intrinsics); the rest is C. For n a
// multiple of 8 (RSA sizes) they run eight rows at a time with the accumulator window
// in registers (add_mul_8, reduce_8, add_triangle_8); other n, one row at a time,
// `acc += a·b` four limbs per pass (mul_add_row). Only called after rf_bn_cpu_levels()
// reported ADX and BMI2. Squaring computes the cross products once, doubles them and
// adds the diagonal (n(n−1)/2 + n products instead of n²), then the n² reduction products.
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

// Eight rows at a time, with the eight accumulator limbs in registers (the scheme of
// OpenSSL's bn_mulx4x/bn_sqrx8x_internal, written afresh): for n a multiple of 8, the
// window r8..r15 holds eight consecutive limbs of t; one row adds q·M[j ..< j + 8]
// into it (low halves down the CF chain, high halves down the OF chain), emits the
// window's bottom limb and shifts the window up by one limb, all in registers. t is
// read and written once per eight products instead of once per product.
#define RF_ROW_PRODUCTS                                        \
    "xor %%eax, %%eax\n\t" /* CF = OF = 0 without waiting for the last row's flags */ \
    "mov %%r8, %%rbx\n\t"                                      \
    "mulx (%[m]), %%rax, %%r8\n\t"                             \
    "adcx %%rax, %%rbx\n\t"                                    \
    "adox %%r9, %%r8\n\t"                                      \
    "mulx 8(%[m]), %%rax, %%r9\n\t"                            \
    "adcx %%rax, %%r8\n\t"                                     \
    "adox %%r10, %%r9\n\t"                                     \
    "mulx 16(%[m]), %%rax, %%r10\n\t"                          \
    "adcx %%rax, %%r9\n\t"                                     \
    "adox %%r11, %%r10\n\t"                                    \
    "mulx 24(%[m]), %%rax, %%r11\n\t"                          \
    "adcx %%rax, %%r10\n\t"                                    \
    "adox %%r12, %%r11\n\t"                                    \
    "mulx 32(%[m]), %%rax, %%r12\n\t"                          \
    "adcx %%rax, %%r11\n\t"                                    \
    "adox %%r13, %%r12\n\t"                                    \
    "mulx 40(%[m]), %%rax, %%r13\n\t"                          \
    "adcx %%rax, %%r12\n\t"                                    \
    "adox %%r14, %%r13\n\t"                                    \
    "mulx 48(%[m]), %%rax, %%r14\n\t"                          \
    "adcx %%rax, %%r13\n\t"                                    \
    "adox %%r15, %%r14\n\t"                                    \
    "mulx 56(%[m]), %%rax, %%r15\n\t"                          \
    "adcx %%rax, %%r14\n\t"                                    \
    "mov $0, %%eax\n\t"                                        \
    "adox %%rax, %%r15\n\t" /* the new top limb: cannot overflow, so CF = OF = 0 after */ \
    "adcx %%rax, %%r15\n\t"
/// One row of a tail block: q_k from the q array, the emitted limb stored at t[k].
#define RF_ROW_STORE(k)                                        \
    "mov 8*" #k "(%[q]), %%rdx\n\t" RF_ROW_PRODUCTS "mov %%rbx, 8*" #k "(%[t])\n\t"
/// One row of the reduction's first block: q_k = window bottom · m0inv, stored in the
/// q array; the emitted limb is 0 by construction and dropped.
#define RF_ROW_QUOTIENT(k)                                     \
    "mov %%r8, %%rdx\n\t"                                      \
    "imul %[m0inv], %%rdx\n\t"                                 \
    "mov %%rdx, 8*" #k "(%[q])\n\t" RF_ROW_PRODUCTS
/// The tail blocks and the end: for each block of 8 limbs of M until mend, window +=
/// t[0 ..< 8] + carry, eight rows, advance; then window + t[0 ..< 8] + carry → t,
/// leaving −(carry out) in %[c].
#define RF_TAIL_BLOCKS                                         \
    "1:\n\t"                                                   \
    "cmp %[mend], %[m]\n\t"                                    \
    "jae 2f\n\t"                                               \
    "mov %[c], %%rax\n\t"                                      \
    "neg %%rax\n\t"                                            \
    "adc (%[t]), %%r8\n\t"                                     \
    "adc 8(%[t]), %%r9\n\t"                                    \
    "adc 16(%[t]), %%r10\n\t"                                  \
    "adc 24(%[t]), %%r11\n\t"                                  \
    "adc 32(%[t]), %%r12\n\t"                                  \
    "adc 40(%[t]), %%r13\n\t"                                  \
    "adc 48(%[t]), %%r14\n\t"                                  \
    "adc 56(%[t]), %%r15\n\t"                                  \
    "sbb %%rax, %%rax\n\t"                                     \
    "mov %%rax, %[c]\n\t"                                      \
    "xor %%eax, %%eax\n\t" /* CF = OF = 0 */                   \
    RF_ROW_STORE(0) RF_ROW_STORE(1) RF_ROW_STORE(2) RF_ROW_STORE(3)     \
    RF_ROW_STORE(4) RF_ROW_STORE(5) RF_ROW_STORE(6) RF_ROW_STORE(7)     \
    "lea 64(%[m]), %[m]\n\t"                                   \
    "lea 64(%[t]), %[t]\n\t"                                   \
    "jmp 1b\n\t"                                               \
    "2:\n\t"                                                   \
    "mov %[c], %%rax\n\t"                                      \
    "neg %%rax\n\t"                                            \
    "adc (%[t]), %%r8\n\t"                                     \
    "adc 8(%[t]), %%r9\n\t"                                    \
    "adc 16(%[t]), %%r10\n\t"                                  \
    "adc 24(%[t]), %%r11\n\t"                                  \
    "adc 32(%[t]), %%r12\n\t"                                  \
    "adc 40(%[t]), %%r13\n\t"                                  \
    "adc 48(%[t]), %%r14\n\t"                                  \
    "adc 56(%[t]), %%r15\n\t"                                  \
    "mov %%r8, (%[t])\n\t"                                     \
    "mov %%r9, 8(%[t])\n\t"                                    \
    "mov %%r10, 16(%[t])\n\t"                                  \
    "mov %%r11, 24(%[t])\n\t"                                  \
    "mov %%r12, 32(%[t])\n\t"                                  \
    "mov %%r13, 40(%[t])\n\t"                                  \
    "mov %%r14, 48(%[t])\n\t"                                  \
    "mov %%r15, 56(%[t])\n\t"                                  \
    "sbb %%rax, %%rax\n\t"                                     \
    "mov %%rax, %[c]\n\t"
#define RF_WINDOW_CLOBBERS "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory"

/// t[0 ..< len + 8] += q[0 ..< 8]·a[0 ..< len] for len a positive multiple of 8;
/// returns the carry out of t[len + 7] (0 or 1).
__attribute__((target("adx,bmi2")))
static uint64_t add_mul_8(uint64_t *t, const uint64_t *a, size_t len, const uint64_t *q) {
    const uint64_t *end = a + len;
    uint64_t c = 0;
    __asm__ volatile(
        "xor %%r8d, %%r8d\n\t"
        "xor %%r9d, %%r9d\n\t"
        "xor %%r10d, %%r10d\n\t"
        "xor %%r11d, %%r11d\n\t"
        "xor %%r12d, %%r12d\n\t"
        "xor %%r13d, %%r13d\n\t"
        "xor %%r14d, %%r14d\n\t"
        "xor %%r15d, %%r15d\n\t"
        RF_TAIL_BLOCKS
        : [t] "+r"(t), [m] "+r"(a), [c] "+m"(c)
        : [q] "r"(q), [mend] "m"(end)
        : RF_WINDOW_CLOBBERS);
    return -c;
}

/// Eight reduction rows at once: q_k = t[k]·m0inv (t[k] as left by rows 0 ..< k),
/// t[0 ..< n + 8] += q·m, which zeroes t[0 ..< 8] (left unwritten); n a positive
/// multiple of 8. Returns the carry out of t[n + 7] (0 or 1).
__attribute__((target("adx,bmi2")))
static uint64_t reduce_8(uint64_t *t, const uint64_t *m, size_t n, uint64_t m0inv) {
    const uint64_t *end = m + n;
    uint64_t q[8], c = 0;
    __asm__ volatile(
        "mov (%[t]), %%r8\n\t"
        "mov 8(%[t]), %%r9\n\t"
        "mov 16(%[t]), %%r10\n\t"
        "mov 24(%[t]), %%r11\n\t"
        "mov 32(%[t]), %%r12\n\t"
        "mov 40(%[t]), %%r13\n\t"
        "mov 48(%[t]), %%r14\n\t"
        "mov 56(%[t]), %%r15\n\t"
        "xor %%eax, %%eax\n\t"
        RF_ROW_QUOTIENT(0) RF_ROW_QUOTIENT(1) RF_ROW_QUOTIENT(2) RF_ROW_QUOTIENT(3)
        RF_ROW_QUOTIENT(4) RF_ROW_QUOTIENT(5) RF_ROW_QUOTIENT(6) RF_ROW_QUOTIENT(7)
        "lea 64(%[m]), %[m]\n\t"
        "lea 64(%[t]), %[t]\n\t"
        RF_TAIL_BLOCKS
        : [t] "+r"(t), [m] "+r"(m), [c] "+m"(c)
        : [q] "r"(q), [mend] "m"(end), [m0inv] "m"(m0inv)
        : RF_WINDOW_CLOBBERS);
    return -c;
}

/// t[0 ..< 16] += Σ x_k·x_l·2^(64(k + l)) over 0 ≤ k < l < 8 (the cross products of
/// an eight-limb block, for a squaring); returns the carry out of t[15] (0 or 1). The
/// rows of add_mul_8 with the products l ≤ k left out: row k multiplies x_k by
/// x[k + 1 ..< 8] only, so the window limbs below position k + 1 pass through
/// unchanged, and the registers are renamed instead of moved (generated unrolled by
/// scripts/generate-adx-triangle: the window's register for each position changes
/// from row to row).
__attribute__((target("adx,bmi2")))
static uint64_t add_triangle_8(uint64_t *t, const uint64_t *x) {
    uint64_t c;
    __asm__ volatile(
        "mov 0(%[t]), %%r8\n\t"
        "mov 8(%[t]), %%r9\n\t"
        "mov 16(%[t]), %%r10\n\t"
        "mov 24(%[t]), %%r11\n\t"
        "mov 32(%[t]), %%r12\n\t"
        "mov 40(%[t]), %%r13\n\t"
        "mov 48(%[t]), %%r14\n\t"
        "mov 56(%[t]), %%r15\n\t"
        "mov 0(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 8(%[x]), %%rax, %%rbx\n\t"
        "adcx %%rax, %%r9\n\t"
        "adox %%r10, %%rbx\n\t"
        "mulx 16(%[x]), %%rax, %%r10\n\t"
        "adcx %%rax, %%rbx\n\t"
        "adox %%r11, %%r10\n\t"
        "mulx 24(%[x]), %%rax, %%r11\n\t"
        "adcx %%rax, %%r10\n\t"
        "adox %%r12, %%r11\n\t"
        "mulx 32(%[x]), %%rax, %%r12\n\t"
        "adcx %%rax, %%r11\n\t"
        "adox %%r13, %%r12\n\t"
        "mulx 40(%[x]), %%rax, %%r13\n\t"
        "adcx %%rax, %%r12\n\t"
        "adox %%r14, %%r13\n\t"
        "mulx 48(%[x]), %%rax, %%r14\n\t"
        "adcx %%rax, %%r13\n\t"
        "adox %%r15, %%r14\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r14\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%r8, 0(%[t])\n\t"
        "mov 8(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 16(%[x]), %%rax, %%r8\n\t"
        "adcx %%rax, %%r10\n\t"
        "adox %%r11, %%r8\n\t"
        "mulx 24(%[x]), %%rax, %%r11\n\t"
        "adcx %%rax, %%r8\n\t"
        "adox %%r12, %%r11\n\t"
        "mulx 32(%[x]), %%rax, %%r12\n\t"
        "adcx %%rax, %%r11\n\t"
        "adox %%r13, %%r12\n\t"
        "mulx 40(%[x]), %%rax, %%r13\n\t"
        "adcx %%rax, %%r12\n\t"
        "adox %%r14, %%r13\n\t"
        "mulx 48(%[x]), %%rax, %%r14\n\t"
        "adcx %%rax, %%r13\n\t"
        "adox %%r15, %%r14\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r14\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%r9, 8(%[t])\n\t"
        "mov 16(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 24(%[x]), %%rax, %%r9\n\t"
        "adcx %%rax, %%r11\n\t"
        "adox %%r12, %%r9\n\t"
        "mulx 32(%[x]), %%rax, %%r12\n\t"
        "adcx %%rax, %%r9\n\t"
        "adox %%r13, %%r12\n\t"
        "mulx 40(%[x]), %%rax, %%r13\n\t"
        "adcx %%rax, %%r12\n\t"
        "adox %%r14, %%r13\n\t"
        "mulx 48(%[x]), %%rax, %%r14\n\t"
        "adcx %%rax, %%r13\n\t"
        "adox %%r15, %%r14\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r14\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%rbx, 16(%[t])\n\t"
        "mov 24(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 32(%[x]), %%rax, %%rbx\n\t"
        "adcx %%rax, %%r12\n\t"
        "adox %%r13, %%rbx\n\t"
        "mulx 40(%[x]), %%rax, %%r13\n\t"
        "adcx %%rax, %%rbx\n\t"
        "adox %%r14, %%r13\n\t"
        "mulx 48(%[x]), %%rax, %%r14\n\t"
        "adcx %%rax, %%r13\n\t"
        "adox %%r15, %%r14\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r14\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%r10, 24(%[t])\n\t"
        "mov 32(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 40(%[x]), %%rax, %%r10\n\t"
        "adcx %%rax, %%r13\n\t"
        "adox %%r14, %%r10\n\t"
        "mulx 48(%[x]), %%rax, %%r14\n\t"
        "adcx %%rax, %%r10\n\t"
        "adox %%r15, %%r14\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r14\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%r8, 32(%[t])\n\t"
        "mov 40(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 48(%[x]), %%rax, %%r8\n\t"
        "adcx %%rax, %%r14\n\t"
        "adox %%r15, %%r8\n\t"
        "mulx 56(%[x]), %%rax, %%r15\n\t"
        "adcx %%rax, %%r8\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r15\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov %%r11, 40(%[t])\n\t"
        "mov 48(%[x]), %%rdx\n\t"
        "xor %%eax, %%eax\n\t"
        "mulx 56(%[x]), %%rax, %%r11\n\t"
        "adcx %%rax, %%r15\n\t"
        "mov $0, %%eax\n\t"
        "adox %%rax, %%r11\n\t"
        "adcx %%rax, %%r11\n\t"
        "mov %%r9, 48(%[t])\n\t"
        "mov %%r12, 56(%[t])\n\t"
        "xor %%r9d, %%r9d\n\t"
        "add 64(%[t]), %%rbx\n\t"
        "adc 72(%[t]), %%r13\n\t"
        "adc 80(%[t]), %%r10\n\t"
        "adc 88(%[t]), %%r14\n\t"
        "adc 96(%[t]), %%r8\n\t"
        "adc 104(%[t]), %%r15\n\t"
        "adc 112(%[t]), %%r11\n\t"
        "adc 120(%[t]), %%r9\n\t"
        "mov %%rbx, 64(%[t])\n\t"
        "mov %%r13, 72(%[t])\n\t"
        "mov %%r10, 80(%[t])\n\t"
        "mov %%r14, 88(%[t])\n\t"
        "mov %%r8, 96(%[t])\n\t"
        "mov %%r15, 104(%[t])\n\t"
        "mov %%r11, 112(%[t])\n\t"
        "mov %%r9, 120(%[t])\n\t"
        "sbb %%rax, %%rax\n\t"
        : [c] "=&a"(c)
        : [t] "r"(t), [x] "r"(x)
        : "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory");
    return -c;
}

/// t[k] += c with the carry rippling up, k < limit.
static inline void add_carry(uint64_t *t, size_t k, uint64_t c, size_t limit) {
    if (k >= limit) return;
    t[k] += c;  // without a branch: c is 0 or 1 at random
    for (c = t[k] < c, k++; c && k < limit; k++) {
        t[k] += c;
        c = t[k] < c;
    }
}

/// The final step of every reduction: r = t[n ..< 2n] + t[2n]·2^(64n) < 2m, less m
/// if that does not go below 0; t[0 ..< n] is free (zero) scratch.
static void final_subtract(uint64_t *z, uint64_t *t, const uint64_t *m, size_t n) {
    uint64_t *r = t + n, *d = t;
    unsigned long long borrow = 0;
    if (n % 4 == 0) {
        // Four limbs per pass, the borrow kept in CF (LEA and DEC leave it alone).
        const uint64_t *mm = m;
        const uint64_t *rr = r;
        uint64_t *dd = d, count = n / 4, v;
        __asm__ volatile(
            "clc\n\t"
            "1:\n\t"
            "mov (%[r]), %[v]\n\t"
            "sbb (%[m]), %[v]\n\t"
            "mov %[v], (%[d])\n\t"
            "mov 8(%[r]), %[v]\n\t"
            "sbb 8(%[m]), %[v]\n\t"
            "mov %[v], 8(%[d])\n\t"
            "mov 16(%[r]), %[v]\n\t"
            "sbb 16(%[m]), %[v]\n\t"
            "mov %[v], 16(%[d])\n\t"
            "mov 24(%[r]), %[v]\n\t"
            "sbb 24(%[m]), %[v]\n\t"
            "mov %[v], 24(%[d])\n\t"
            "lea 32(%[r]), %[r]\n\t"
            "lea 32(%[m]), %[m]\n\t"
            "lea 32(%[d]), %[d]\n\t"
            "dec %[count]\n\t"
            "jnz 1b\n\t"
            "sbb %[v], %[v]\n\t"
            : [r] "+r"(rr), [m] "+r"(mm), [d] "+r"(dd), [count] "+r"(count), [v] "=&r"(v)
            :
            : "cc", "memory");
        borrow = v & 1;
    } else {
        for (size_t k = 0; k < n; k++) d[k] = __builtin_subcll(r[k], m[k], borrow, &borrow);
    }
    const uint64_t *result = (t[2 * n] == 0 && borrow) ? r : d;
    for (size_t k = 0; k < n; k++) z[k] = result[k];
}

/// z = t·2^(−64n) mod m for t < 2^(64n)·m (2n + 1 limbs; overwritten):
/// n reduction rows — in blocks of eight (reduce_8) when 8 divides n, else one by
/// one — then one conditional subtraction of m.
__attribute__((target("adx,bmi2")))
static void reduce(uint64_t *z, uint64_t *t, const uint64_t *m, uint64_t m0inv, size_t n) {
    if (n % 8 == 0) {
        uint64_t carry = 0;  // into t[i + n]
        for (size_t i = 0; i < n; i += 8) {
            add_carry(t, i + n, carry, 2 * n + 1);
            carry = reduce_8(t + i, m, n, m0inv);
        }
        t[2 * n] += carry;
        final_subtract(z, t, m, n);
        return;
    }
    uint64_t top = 0;  // the carry into t[i + n + 1], added by the next row
    for (size_t i = 0; i < n; i++) {
        const uint64_t q = t[i] * m0inv;
        const u128 s = (u128)t[i + n] + mul_add_row(t + i, m, n, q, 0) + top;
        t[i + n] = (uint64_t)s;
        top = (uint64_t)(s >> 64);
    }
    t[2 * n] = top;
    final_subtract(z, t, m, n);
}

__attribute__((target("adx,bmi2")))
static void mont_mul_adx(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m, uint64_t m0inv, size_t n) {
    uint64_t t[2 * n + 1];
    for (size_t k = 0; k < n; k++) t[k] = 0;
    t[2 * n] = 0;
    if (n % 8 == 0) {
        for (size_t k = n; k < 2 * n; k++) t[k] = 0;
        uint64_t carry = 0;  // into t[i + n]
        for (size_t i = 0; i < n; i += 8) {
            add_carry(t, i + n, carry, 2 * n + 1);
            carry = add_mul_8(t + i, x, n, y + i);
        }
    } else {
        for (size_t i = 0; i < n; i++) t[i + n] = mul_add_row(t + i, x, n, y[i], 0);
    }
    reduce(z, t, m, m0inv, n);
}

__attribute__((target("adx,bmi2")))
static void mont_sqr_adx(uint64_t *z, const uint64_t *x, const uint64_t *m, uint64_t m0inv, size_t n) {
    uint64_t t[2 * n + 1];
    for (size_t k = 0; k < 2 * n + 1; k++) t[k] = 0;
    if (n % 8 == 0) {
        // Cross products x_i·x_j, i < j, in blocks of eight limbs: the rectangle
        // x[i ..< i + 8] × x[i + 8 ..< n] eight rows at once, then the block's triangle.
        for (size_t i = 0; i < n; i += 8) {
            if (i + 8 < n) add_carry(t, i + n + 8, add_mul_8(t + 2 * i + 8, x + i + 8, n - i - 8, x + i), 2 * n + 1);
            add_carry(t, 2 * i + 16, add_triangle_8(t + 2 * i, x + i), 2 * n + 1);
        }
    } else {
        // Cross products x_i·x_j, i < j: row i covers t[2i + 1 ..< i + n], its carry t[i + n].
        for (size_t i = 0; i + 1 < n; i++) t[i + n] = mul_add_row(t + 2 * i + 1, x + i + 1, n - 1 - i, x[i], 0);
    }
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
