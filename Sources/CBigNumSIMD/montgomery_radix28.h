// Montgomery multiplication in radix 2^28 on 64-bit vector lanes, written once for
// the vector widths that run it (private to CBigNumSIMD). bignum_avx2.c includes it
// with 256-bit AVX2 vectors and bignum_avx512.c with 512-bit AVX-512F ones, after
// defining:
//   RADIX28_TARGET "avx2"       the function target attribute
//   RADIX28_LANES  4            64-bit lanes per vector
//   RADIX28_VEC    __m256i      the vector type
//   RADIX28_LOAD(p), RADIX28_STORE(p, v), RADIX28_ADD(a, b), RADIX28_MUL(a, b)
//                               (MUL: the 32×32→64 products of the lanes' low words),
//                  RADIX28_SET1(x)
//   RADIX28_NAME   mont_mul_digits_avx2   the function this file defines
//
// Neither width has a 64×64 or 52-bit vector multiply, only VPMULUDQ. With 28-bit
// digits every product is below 2^56, so a 64-bit lane can absorb 2^7 of them before
// any carry must move: the rows of the operand-scanning (CIOS-like) loop add
// x·y_i + q_i·m into the accumulator at digit offset i with plain 64-bit lane
// additions, and carries are only resolved for the one digit that leaves each row (in
// a scalar register) and by a normalizing pass every 32 rows. This is the
// redundant-representation idea of Gueron & Krasnov's AVX2 modular exponentiation
// (2014), here with R = 2^(64n) — the scalar kernel's R — so all paths agree bit for
// bit: 64n is rarely a multiple of 28, so the last row divides by 2^r,
// r = 64n − 28(d − 1), with a quotient digit of r bits (digits.h).
//
// Two rows per pass: the accumulator is loaded and stored once per two rows. (A
// separate squaring — half the cross products, then the reduction rows alone —
// measured slower on AVX2 on the AMD EPYC it was written on: twice the accumulator
// traffic; and four rows per pass spilled registers.)

#define RADIX28_BITS 28
#define RADIX28_MASK ((UINT64_C(1) << RADIX28_BITS) - 1)
// Rows between normalizing passes: each row adds at most two products below 2^56 to
// a lane, so 32 rows stay below 2^62 with room for the carries.
#define RADIX28_ROWS_PER_NORMALIZATION 32

/// x·y·2^(−64n) mod m in digit form (s = rf_bn_shape_of(n, 28, RADIX28_LANES)); z may alias x and/or y.
__attribute__((target(RADIX28_TARGET)))
void RADIX28_NAME(uint64_t *z, const uint64_t *x, const uint64_t *y, const uint64_t *m,
                         uint64_t m0inv, struct rf_bn_shape s) {
    const size_t d = s.d, p = s.p, lanes = RADIX28_LANES;
    uint64_t accumulator[2 * p + 16], xs[p + 16], ms[p + 16];
    for (size_t k = 0; k < 2 * p + 16; k++) accumulator[k] = 0;
    // xs[j + 1] = x[j], xs[0] = 0: row 0 of a pass reads xs + j + 1, row 1 (one digit up) xs + j.
    rf_bn_digits_shifted_copy(xs, x, p, 1);
    rf_bn_digits_shifted_copy(ms, m, p, 1);
    const uint64_t k0 = m0inv & RADIX28_MASK, m0 = ms[1], m1 = ms[2];
    const uint64_t x0 = xs[1], x1 = xs[2];
    uint64_t carry = 0;  // the carry out of digit i − 1, not yet added to accumulator[i]
    size_t i = 0;
    // Pairs of rows while both are before the last (r-bit) row.
    for (; i + 2 < d; i += 2) {
        uint64_t *a = accumulator + i;
        const uint64_t y0 = y[i], y1 = y[i + 1];
        const uint64_t t0 = a[0] + carry + x0 * y0;
        const uint64_t q0 = (t0 * k0) & RADIX28_MASK;
        const uint64_t c0 = (t0 + q0 * m0) >> RADIX28_BITS;
        const uint64_t t1 = a[1] + c0 + x1 * y0 + m1 * q0 + x0 * y1;
        const uint64_t q1 = (t1 * k0) & RADIX28_MASK;
        carry = (t1 + q1 * m0) >> RADIX28_BITS;
        const RADIX28_VEC vq0 = RADIX28_SET1(q0), vq1 = RADIX28_SET1(q1);
        const RADIX28_VEC vy0 = RADIX28_SET1(y0), vy1 = RADIX28_SET1(y1);
        for (size_t j = 0; j < p + lanes; j += lanes) {
            RADIX28_VEC sum = RADIX28_LOAD(a + j);
            RADIX28_VEC row0 = RADIX28_ADD(RADIX28_MUL(RADIX28_LOAD(xs + j + 1), vy0), RADIX28_MUL(RADIX28_LOAD(ms + j + 1), vq0));
            RADIX28_VEC row1 = RADIX28_ADD(RADIX28_MUL(RADIX28_LOAD(xs + j), vy1), RADIX28_MUL(RADIX28_LOAD(ms + j), vq1));
            RADIX28_STORE(a + j, RADIX28_ADD(sum, RADIX28_ADD(row0, row1)));
        }
        if ((i + 2) % RADIX28_ROWS_PER_NORMALIZATION == 0) {
            a[2] += carry;
            carry = 0;
            rf_bn_digits_normalize(a, 2, p + lanes, RADIX28_BITS);
        }
    }
    // The remaining one or two rows, one at a time; the last divides by 2^lastBits.
    for (; i < d; i++) {
        uint64_t *a = accumulator + i;
        const uint64_t yi = y[i];
        const uint64_t t = a[0] + carry + x0 * yi;
        const unsigned bits = i + 1 == d ? s.lastBits : RADIX28_BITS;
        const uint64_t q = (t * k0) & ((UINT64_C(1) << bits) - 1);
        const RADIX28_VEC vy = RADIX28_SET1(yi), vq = RADIX28_SET1(q);
        for (size_t j = 0; j < p; j += lanes) {
            RADIX28_VEC sum = RADIX28_LOAD(a + j);
            sum = RADIX28_ADD(sum, RADIX28_MUL(RADIX28_LOAD(xs + j + 1), vy));
            sum = RADIX28_ADD(sum, RADIX28_MUL(RADIX28_LOAD(ms + j + 1), vq));
            RADIX28_STORE(a + j, sum);
        }
        if (i + 1 == d) {
            a[0] += carry;  // ≡ 0 mod 2^lastBits: the division in finish is exact
            break;
        }
        carry = (t + q * m0) >> RADIX28_BITS;  // digit i is ≡ 0 mod 2^28 now
    }
    rf_bn_digits_finish(z, accumulator + d - 1, ms + 1, s);
}

#undef RADIX28_BITS
#undef RADIX28_MASK
#undef RADIX28_ROWS_PER_NORMALIZATION
