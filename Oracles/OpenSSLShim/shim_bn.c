#include "shim_bn.h"
#include <openssl/bn.h>

static int write_out(const BIGNUM *r, uint8_t *out, size_t out_len) {
    return BN_bn2binpad(r, out, (int)out_len) == (int)out_len;
}

int rf_bn_mul(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *out, size_t out_len) {
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *x = BN_bin2bn(a, (int)a_len, NULL), *y = BN_bin2bn(b, (int)b_len, NULL), *r = BN_new();
    int ok = ctx && x && y && r && BN_mul(r, x, y, ctx) && write_out(r, out, out_len);
    BN_free(x); BN_free(y); BN_free(r); BN_CTX_free(ctx);
    return ok;
}

int rf_bn_shift(const uint8_t *a, size_t a_len, int shift, uint8_t *out, size_t out_len) {
    BIGNUM *x = BN_bin2bn(a, (int)a_len, NULL), *r = BN_new();
    int ok = x && r && (shift >= 0 ? BN_lshift(r, x, shift) : BN_rshift(r, x, -shift));
    if (ok && BN_num_bits(r) > (int)(8 * out_len)) ok = BN_mask_bits(r, (int)(8 * out_len));
    ok = ok && write_out(r, out, out_len);
    BN_free(x); BN_free(r);
    return ok;
}

int rf_bn_mont_mul(const uint8_t *a, const uint8_t *b, const uint8_t *m, size_t len, uint8_t *out) {
    BN_CTX *ctx = BN_CTX_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BIGNUM *x = BN_bin2bn(a, (int)len, NULL), *y = BN_bin2bn(b, (int)len, NULL);
    BIGNUM *n = BN_bin2bn(m, (int)len, NULL), *r = BN_new();
    int ok = ctx && mont && x && y && n && r && BN_MONT_CTX_set(mont, n, ctx)
        && BN_mod_mul_montgomery(r, x, y, mont, ctx) && write_out(r, out, len);
    BN_free(x); BN_free(y); BN_free(n); BN_free(r); BN_MONT_CTX_free(mont); BN_CTX_free(ctx);
    return ok;
}

int rf_bn_mod_exp(const uint8_t *a, size_t a_len, const uint8_t *e, size_t e_len,
                  const uint8_t *m, size_t m_len, uint8_t *out, size_t out_len) {
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *x = BN_bin2bn(a, (int)a_len, NULL), *p = BN_bin2bn(e, (int)e_len, NULL);
    BIGNUM *n = BN_bin2bn(m, (int)m_len, NULL), *r = BN_new();
    int ok = ctx && x && p && n && r && BN_mod_exp(r, x, p, n, ctx) && write_out(r, out, out_len);
    BN_free(x); BN_free(p); BN_free(n); BN_free(r); BN_CTX_free(ctx);
    return ok;
}

struct rf_bn_bench {
    BN_CTX *ctx;
    BN_MONT_CTX *mont;
    BIGNUM *m, *a, *b, *e, *r;
};

rf_bn_bench *rf_bn_bench_new(const uint8_t *m, const uint8_t *a, const uint8_t *b, size_t len,
                             const uint8_t *e, size_t e_len) {
    rf_bn_bench *bench = OPENSSL_zalloc(sizeof *bench);
    if (!bench) return NULL;
    bench->ctx = BN_CTX_new();
    bench->mont = BN_MONT_CTX_new();
    bench->m = BN_bin2bn(m, (int)len, NULL);
    bench->a = BN_bin2bn(a, (int)len, NULL);
    bench->b = BN_bin2bn(b, (int)len, NULL);
    bench->e = BN_bin2bn(e, (int)e_len, NULL);
    bench->r = BN_new();
    if (!bench->ctx || !bench->mont || !bench->m || !bench->a || !bench->b || !bench->e || !bench->r
        || !BN_MONT_CTX_set(bench->mont, bench->m, bench->ctx)) {
        rf_bn_bench_free(bench);
        return NULL;
    }
    return bench;
}

void rf_bn_bench_mul(rf_bn_bench *bench) { BN_mul(bench->r, bench->a, bench->b, bench->ctx); }

void rf_bn_bench_mont_mul(rf_bn_bench *bench) {
    BN_mod_mul_montgomery(bench->r, bench->a, bench->b, bench->mont, bench->ctx);
}

void rf_bn_bench_mod_exp(rf_bn_bench *bench) {
    BN_mod_exp_mont(bench->r, bench->a, bench->e, bench->m, bench->ctx, bench->mont);
}

void rf_bn_bench_free(rf_bn_bench *bench) {
    if (!bench) return;
    BN_CTX_free(bench->ctx);
    BN_MONT_CTX_free(bench->mont);
    BN_free(bench->m); BN_free(bench->a); BN_free(bench->b); BN_free(bench->e); BN_free(bench->r);
    OPENSSL_free(bench);
}
