#include "shim_x509.h"
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>
#include <time.h>

static X509 *parse(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509 *cert = d2i_X509(NULL, &p, (long)len);
    if (cert && p != der + len) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

static long copy_out(const unsigned char *bytes, long n, uint8_t *out, size_t cap) {
    if (n < 0 || (size_t)n > cap) return -1;
    memcpy(out, bytes, (size_t)n);
    return n;
}

static long bn_out(const BIGNUM *bn, uint8_t *out, size_t cap) {
    if (!bn || (size_t)BN_num_bytes(bn) > cap) return -1;
    return BN_bn2bin(bn, out);
}

static int64_t seconds(const ASN1_TIME *t) {
    struct tm tm;
    if (!ASN1_TIME_to_tm(t, &tm)) return INT64_MIN;
    return (int64_t)timegm(&tm);
}

int rf_x509_info_get(const uint8_t *der, size_t len, rf_x509_info *info) {
    X509 *cert = parse(der, len);
    if (!cert) return 0;
    memset(info, 0, sizeof *info);
    info->version = (int)X509_get_version(cert) + 1;
    info->not_before = seconds(X509_get0_notBefore(cert));
    info->not_after = seconds(X509_get0_notAfter(cert));
    EVP_PKEY *key = X509_get0_pubkey(cert);
    info->key_bits = key && EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA ? EVP_PKEY_get_bits(key) : 0;
    info->signature_nid = X509_get_signature_nid(cert);
    uint32_t flags = X509_get_extension_flags(cert);
    info->is_ca = (flags & EXFLAG_BCONS) && (flags & EXFLAG_CA) ? 1 : 0;
    info->path_length = X509_get_pathlen(cert);
    info->key_usage = X509_get_key_usage(cert);
    X509_free(cert);
    return 1;
}

long rf_x509_name_der(const uint8_t *der, size_t len, int which, uint8_t *out, size_t cap) {
    X509 *cert = parse(der, len);
    if (!cert) return -1;
    unsigned char *encoded = NULL;
    int n = i2d_X509_NAME(which ? X509_get_subject_name(cert) : X509_get_issuer_name(cert), &encoded);
    long result = copy_out(encoded, n, out, cap);
    OPENSSL_free(encoded);
    X509_free(cert);
    return result;
}

long rf_x509_serial(const uint8_t *der, size_t len, uint8_t *out, size_t cap) {
    X509 *cert = parse(der, len);
    if (!cert) return -1;
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    long result = bn_out(bn, out, cap);
    BN_free(bn);
    X509_free(cert);
    return result;
}

static long key_part(EVP_PKEY *key, int which, uint8_t *out, size_t cap) {
    BIGNUM *bn = NULL;
    if (!EVP_PKEY_get_bn_param(key, which ? OSSL_PKEY_PARAM_RSA_E : OSSL_PKEY_PARAM_RSA_N, &bn)) return -1;
    long result = bn_out(bn, out, cap);
    BN_free(bn);
    return result;
}

long rf_x509_rsa_key(const uint8_t *der, size_t len, int which, uint8_t *out, size_t cap) {
    X509 *cert = parse(der, len);
    if (!cert) return -1;
    EVP_PKEY *key = X509_get0_pubkey(cert);
    long result = key ? key_part(key, which, out, cap) : -1;
    X509_free(cert);
    return result;
}

int rf_x509_extension(const uint8_t *der, size_t len, const char *oid) {
    X509 *cert = parse(der, len);
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    int result = -1;
    if (cert && object) {
        int index = X509_get_ext_by_OBJ(cert, object, -1);
        if (index >= 0) result = X509_EXTENSION_get_critical(X509_get_ext(cert, index)) ? 1 : 0;
    }
    ASN1_OBJECT_free(object);
    X509_free(cert);
    return result;
}

int rf_x509_verify(const uint8_t *cert_der, size_t cert_len, const uint8_t *issuer_der, size_t issuer_len) {
    X509 *cert = parse(cert_der, cert_len), *issuer = parse(issuer_der, issuer_len);
    int result = -1;
    if (cert && issuer) {
        EVP_PKEY *key = X509_get0_pubkey(issuer);
        result = key && X509_verify(cert, key) == 1 ? 1 : 0;
    }
    X509_free(cert);
    X509_free(issuer);
    return result;
}

void *rf_x509_test_key_new(int bits) {
    return EVP_RSA_gen((unsigned int)bits);
}

void rf_x509_test_key_free(void *key) {
    EVP_PKEY_free((EVP_PKEY *)key);
}

long rf_x509_test_key_public(void *key, int which, uint8_t *out, size_t cap) {
    return key_part((EVP_PKEY *)key, which, out, cap);
}

long rf_x509_test_sign(void *key, const char *digest, const uint8_t *message, size_t len, uint8_t *out, size_t cap) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t n = cap;
    int ok = ctx && EVP_DigestSignInit_ex(ctx, NULL, digest, NULL, NULL, (EVP_PKEY *)key, NULL) == 1
        && EVP_DigestSign(ctx, out, &n, message, len) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? (long)n : -1;
}

long rf_x509_test_raw_sign(void *key, const uint8_t *block, size_t len, uint8_t *out, size_t cap) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new((EVP_PKEY *)key, NULL);
    size_t n = cap;
    int ok = ctx && EVP_PKEY_sign_init(ctx) == 1 && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1
        && EVP_PKEY_sign(ctx, out, &n, block, len) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok ? (long)n : -1;
}
