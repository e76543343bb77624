// The product half of BigNum's mulShiftAdd (see CBigNumSIMD.h), written once for
// the vector widths that run it (private to CBigNumSIMD; mulshiftadd_wide.c includes
// it for AVX2 and for AVX-512) after defining:
//   MUL_PAIRS_TARGET "avx2"  MUL_PAIRS_LANES 4  MUL_PAIRS_VEC __m256i
//   MUL_PAIRS_LOAD(p), MUL_PAIRS_ADD(a, b), MUL_PAIRS_AND(a, b), MUL_PAIRS_SHR32(a),
//   MUL_PAIRS_MUL(a, b) (VPMULUDQ), MUL_PAIRS_ZERO(), MUL_PAIRS_STORE(p, v),
//   MUL_PAIRS_BROADCAST_PAIR(p) (the 128 bits at p in every 128-bit block), MUL_PAIRS_SET1(x)
//   MUL_PAIRS_NAME
//
// The exact products a·b of two 2-lane numbers of n 32-bit words, by product
// scanning LANES columns of both lanes at a time — the Swift SIMD8 kernel's scheme,
// with two VPMULUDQ of LANES 32×32→64 products per a_i. Both operands are first
// widened to 64-bit lanes (in the caller's workspace), so the inner loop is one
// broadcast, two loads, two multiplies and eight adds/masks. Each product's low and
// high halves go into separate 64-bit sums (at most 4096 terms below 2^32 each: no
// overflow), and the carries are resolved once per block.

__attribute__((target(MUL_PAIRS_TARGET)))
static void MUL_PAIRS_NAME(uint32_t *product, const uint32_t *a, const uint32_t *b, size_t n, uint64_t *workspace) {
    enum { lanes = MUL_PAIRS_LANES, columnsPerBlock = MUL_PAIRS_LANES, pad = 2 * MUL_PAIRS_LANES };
    // Both operands widened once to 64-bit lanes, so the loop loads what VPMULUDQ takes:
    // a_i as (lane 0, lane 1) for the broadcast, b with `lanes` zero pairs either side.
    uint64_t *wideA = workspace, *wideB = workspace + 2 * n;
    for (size_t k = 0; k < 2 * n; k++) wideA[k] = a[k];
    for (size_t k = 0; k < pad; k++) { wideB[k] = 0; wideB[2 * n + pad + k] = 0; }
    for (size_t k = 0; k < 2 * n; k++) wideB[pad + k] = b[k];
    const uint64_t *window = wideB + pad;  // window[2j + lane] = b's word j (j ≥ −lanes)
    const size_t columns = 2 * n;
    const MUL_PAIRS_VEC low32 = MUL_PAIRS_SET1(0xFFFFFFFF);
    uint64_t carry[2] = {0, 0}, previousHigh[2] = {0, 0};
    for (size_t k0 = 0; k0 < columns; k0 += columnsPerBlock) {
        MUL_PAIRS_VEC lowA = MUL_PAIRS_ZERO(), lowB = MUL_PAIRS_ZERO();
        MUL_PAIRS_VEC highA = MUL_PAIRS_ZERO(), highB = MUL_PAIRS_ZERO();
        size_t first = k0 + 1 > n ? k0 + 1 - n : 0;
        size_t last = k0 + columnsPerBlock - 1 < n - 1 ? k0 + columnsPerBlock - 1 : n - 1;
        for (size_t i = first; i <= last; i++) {
            const MUL_PAIRS_VEC ai = MUL_PAIRS_BROADCAST_PAIR(wideA + 2 * i);
            const uint64_t *w = window + 2 * ((ptrdiff_t)k0 - (ptrdiff_t)i);
            const MUL_PAIRS_VEC pA = MUL_PAIRS_MUL(MUL_PAIRS_LOAD(w), ai);
            const MUL_PAIRS_VEC pB = MUL_PAIRS_MUL(MUL_PAIRS_LOAD(w + lanes), ai);
            lowA = MUL_PAIRS_ADD(lowA, MUL_PAIRS_AND(pA, low32));
            highA = MUL_PAIRS_ADD(highA, MUL_PAIRS_SHR32(pA));
            lowB = MUL_PAIRS_ADD(lowB, MUL_PAIRS_AND(pB, low32));
            highB = MUL_PAIRS_ADD(highB, MUL_PAIRS_SHR32(pB));
        }
        uint64_t lows[2 * lanes], highs[2 * lanes];
        MUL_PAIRS_STORE(lows, lowA);
        MUL_PAIRS_STORE(lows + lanes, lowB);
        MUL_PAIRS_STORE(highs, highA);
        MUL_PAIRS_STORE(highs + lanes, highB);
        for (size_t c = 0; c < columnsPerBlock && k0 + c < columns; c++) {
            for (int lane = 0; lane < 2; lane++) {
                const uint64_t sum = lows[2 * c + lane] + previousHigh[lane] + carry[lane];
                product[2 * (k0 + c) + lane] = (uint32_t)sum;
                carry[lane] = sum >> 32;
                previousHigh[lane] = highs[2 * c + lane];
            }
        }
    }
}
