// The digit form of the wide Montgomery kernels: see digits.h.
#include "digits.h"

struct rf_bn_shape rf_bn_shape_of(size_t n, unsigned bits, size_t lanes) {
    struct rf_bn_shape s;
    s.bits = bits;
    s.d = (64 * n + bits - 1) / bits;
    s.p = (s.d + lanes - 1) / lanes * lanes;
    s.lastBits = (unsigned)(64 * n - bits * (s.d - 1));
    return s;
}

void rf_bn_limbs_to_digits(uint64_t *digits, const uint64_t *x, size_t n, struct rf_bn_shape s) {
    const uint64_t mask = (UINT64_C(1) << s.bits) - 1;
    for (size_t k = 0; k < s.p; k++) {
        if (k >= s.d) { digits[k] = 0; continue; }
        size_t bit = s.bits * k, limb = bit / 64, offset = bit % 64;
        uint64_t v = x[limb] >> offset;
        if (offset > 64 - s.bits && limb + 1 < n) v |= x[limb + 1] << (64 - offset);
        digits[k] = v & mask;
    }
}

void rf_bn_digits_to_limbs(uint64_t *x, const uint64_t *digits, size_t n, struct rf_bn_shape s) {
    for (size_t limb = 0; limb < n; limb++) {
        size_t bit = 64 * limb, k = bit / s.bits, offset = bit % s.bits;
        uint64_t v = digits[k] >> offset;
        for (size_t shift = s.bits - offset, j = k + 1; shift < 64 && j < s.d; shift += s.bits, j++) {
            v |= digits[j] << shift;
        }
        x[limb] = v;
    }
}

void rf_bn_digits_normalize(uint64_t *a, size_t from, size_t to, unsigned bits) {
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    for (size_t k = from; k < to; k++) {
        a[k + 1] += a[k] >> bits;
        a[k] &= mask;
    }
}

void rf_bn_digits_finish(uint64_t *z, uint64_t *t, const uint64_t *m, struct rf_bn_shape s) {
    const size_t d = s.d, p = s.p;
    const unsigned bits = s.bits, lastBits = s.lastBits, up = s.bits - s.lastBits;
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    // One pass over the digits: normalize (carry each digit's excess up), divide by
    // 2^lastBits (digit k of the quotient is bits lastBits ... of normalized digits k
    // and k + 1) and subtract m. t < 2m < 2^(64n+1) ≤ 2^(bits·d+1): the quotient has
    // d + 1 digits; z takes its first d, the last only enters the borrow.
    uint64_t difference[p + 1];
    uint64_t carry = t[0] >> bits, low = t[0] & mask;
    int64_t borrow = 0;
    for (size_t k = 0; k <= d; k++) {
        const uint64_t next = t[k + 1] + carry;
        const uint64_t high = next & mask;
        carry = next >> bits;
        const uint64_t quotient = ((low >> lastBits) | (high << up)) & mask;
        const int64_t v = (int64_t)quotient - (int64_t)(k < d ? m[k] : 0) - borrow;
        borrow = v < 0;
        difference[k] = (uint64_t)v & mask;
        if (k < d) z[k] = quotient;
        low = high;
    }
    if (!borrow) {  // t/2^lastBits ≥ m: the difference (< m) is the result
        for (size_t k = 0; k < d; k++) z[k] = difference[k];
    }
    for (size_t k = d; k < p; k++) z[k] = 0;
}

void rf_bn_digits_shifted_copy(uint64_t *xs, const uint64_t *x, size_t p, size_t lead) {
    for (size_t k = 0; k < lead; k++) xs[k] = 0;
    for (size_t k = 0; k < p; k++) xs[k + lead] = x[k];
    for (size_t k = p + lead; k < p + 16; k++) xs[k] = 0;
}
