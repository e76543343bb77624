#include "shim_forge.h"
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

static const EVP_MD *digest_for_bits(int bits) {
    switch (bits) {
    case 128: return EVP_md5();
    case 160: return EVP_sha1();
    case 256: return EVP_sha256();
    case 384: return EVP_sha384();
    case 512: return EVP_sha512();
    default: return NULL;
    }
}

static EVP_PKEY *read_key(const char *pem, size_t len) {
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (!bio) return NULL;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return key;
}

static X509 *read_cert(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_X509(NULL, &p, (long)len);
}

void *rf_key_load_pem(const char *key_pem, size_t key_pem_len) {
    return read_key(key_pem, key_pem_len);
}

void rf_key_free(void *key) {
    EVP_PKEY_free((EVP_PKEY *)key);
}

int rf_key_public_der(void *handle, uint8_t *out, size_t out_cap, size_t *out_len) {
    EVP_PKEY *key = (EVP_PKEY *)handle;
    int n = i2d_PUBKEY(key, NULL);
    if (n <= 0 || (size_t)n > out_cap) return 0;
    unsigned char *p = out;
    *out_len = (size_t)i2d_PUBKEY(key, &p);
    return 1;
}

int rf_key_sign(void *handle, int digest_bits, const uint8_t *message, size_t message_len,
                uint8_t *out, size_t out_cap, size_t *out_len) {
    const EVP_MD *md = digest_for_bits(digest_bits);
    if (!md || !handle) return 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    size_t length = out_cap;
    int ok = ctx && EVP_DigestSignInit(ctx, &pctx, md, NULL, (EVP_PKEY *)handle) == 1
        && EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1
        && EVP_DigestSign(ctx, out, &length, message, message_len) == 1;
    if (ok) *out_len = length;
    EVP_MD_CTX_free(ctx);
    return ok;
}

int rf_pkcs7_verify(const uint8_t *p7_der, size_t p7_len, const uint8_t *anchor_der, size_t anchor_len,
                    int64_t at_time) {
    const unsigned char *p = p7_der;
    PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)p7_len);
    if (!p7 || !PKCS7_type_is_signed(p7)) {
        PKCS7_free(p7);
        return RF_PKCS7_UNPARSEABLE;
    }
    int result = RF_PKCS7_OK;
    X509 *anchor = read_cert(anchor_der, anchor_len);
    X509_STORE *store = X509_STORE_new();
    BIO *sink = BIO_new(BIO_s_mem());
    if (!anchor || !store || !sink) {
        result = RF_PKCS7_UNPARSEABLE;
        goto done;
    }
    if (PKCS7_verify(p7, NULL, NULL, NULL, sink, PKCS7_NOVERIFY | PKCS7_BINARY) != 1) {
        result = RF_PKCS7_SIGNATURE_INVALID;
        goto done;
    }
    X509_STORE_add_cert(store, anchor);
    X509_VERIFY_PARAM *param = X509_STORE_get0_param(store);
    X509_VERIFY_PARAM_set_time(param, (time_t)at_time);
    X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_ANY);
    if (PKCS7_verify(p7, NULL, store, NULL, sink, PKCS7_BINARY) != 1) {
        result = RF_PKCS7_CHAIN_INVALID;
    }
done:
    BIO_free(sink);
    X509_STORE_free(store);
    X509_free(anchor);
    PKCS7_free(p7);
    ERR_clear_error();
    return result;
}

void *rf_x509_load(const uint8_t *der, size_t len) {
    return read_cert(der, len);
}

void rf_x509_free(void *cert) {
    X509_free((X509 *)cert);
}

int rf_pkcs7_sign(void *cert, void *key, void *const *chain_handles, size_t chain_count, int digest_bits,
                  int signed_attributes, const uint8_t *message, size_t message_len,
                  uint8_t *out, size_t out_cap, size_t *out_len) {
    int ok = 0;
    const EVP_MD *md = digest_for_bits(digest_bits);
    STACK_OF(X509) *chain = sk_X509_new_null();
    BIO *data = BIO_new_mem_buf(message, (int)message_len);
    PKCS7 *p7 = NULL;
    if (!md || !cert || !key || !chain || !data) goto done;
    for (size_t i = 0; i < chain_count; i++) {
        if (!sk_X509_push(chain, (X509 *)chain_handles[i])) goto done;
    }
    int flags = PKCS7_BINARY | PKCS7_NOSMIMECAP | PKCS7_PARTIAL | (signed_attributes ? 0 : PKCS7_NOATTR);
    p7 = PKCS7_sign(NULL, NULL, chain, data, flags);
    if (!p7) goto done;
    if (!PKCS7_sign_add_signer(p7, (X509 *)cert, (EVP_PKEY *)key, md, flags)) goto done;
    if (PKCS7_final(p7, data, flags) != 1) goto done;
    int n = i2d_PKCS7(p7, NULL);
    if (n <= 0 || (size_t)n > out_cap) goto done;
    unsigned char *q = out;
    *out_len = (size_t)i2d_PKCS7(p7, &q);
    ok = 1;
done:
    PKCS7_free(p7);
    BIO_free(data);
    sk_X509_free(chain);  // the handles stay the caller's
    return ok;
}
