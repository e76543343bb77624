#ifndef RECEIPT_FORGE_SHIM_BN_H
#define RECEIPT_FORGE_SHIM_BN_H
#include <stddef.h>
#include <stdint.h>

// OpenSSL BN_* on big-endian byte strings: the independent oracle of the BigNum
// tests and the baseline of `scripts/bench bignum`. Inputs are big-endian of any
// length; every result is written big-endian, zero-padded to exactly out_len bytes.
// Each returns 1 on success, 0 if OpenSSL failed or the result does not fit.

/// out = a · b.
int rf_bn_mul(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *out, size_t out_len);
/// out = (a << shift) mod 2^(8·out_len) for shift ≥ 0, or a >> −shift for shift < 0.
int rf_bn_shift(const uint8_t *a, size_t a_len, int shift, uint8_t *out, size_t out_len);
/// out = a · b · R^(−1) mod m, R = 2^(64·⌈bits(m)/64⌉) (BN_mod_mul_montgomery; m odd, a, b < m).
int rf_bn_mont_mul(const uint8_t *a, const uint8_t *b, const uint8_t *m, size_t len, uint8_t *out);
/// out = a^e mod m (BN_mod_exp; m odd), out_len ≥ bytes of m.
int rf_bn_mod_exp(const uint8_t *a, size_t a_len, const uint8_t *e, size_t e_len,
                  const uint8_t *m, size_t m_len, uint8_t *out, size_t out_len);

/// Benchmark fixture: operands a, b (< m) and exponent e converted once, a cached
/// BN_MONT_CTX, and a BN_CTX, so that each run times only the operation.
typedef struct rf_bn_bench rf_bn_bench;
rf_bn_bench *rf_bn_bench_new(const uint8_t *m, const uint8_t *a, const uint8_t *b, size_t len,
                             const uint8_t *e, size_t e_len);
/// BN_mul(a, b).
void rf_bn_bench_mul(rf_bn_bench *bench);
/// BN_mod_mul_montgomery(a, b) with the cached context.
void rf_bn_bench_mont_mul(rf_bn_bench *bench);
/// BN_mod_exp_mont(a, e, m) with the cached context.
void rf_bn_bench_mod_exp(rf_bn_bench *bench);
void rf_bn_bench_free(rf_bn_bench *bench);

#endif
