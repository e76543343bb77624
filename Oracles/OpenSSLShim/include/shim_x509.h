#ifndef RECEIPT_FORGE_SHIM_X509_H
#define RECEIPT_FORGE_SHIM_X509_H
#include <stddef.h>
#include <stdint.h>

// OpenSSL's X.509 parser and RSA, as the independent oracle of the ReceiptVerifier
// tests: what OpenSSL reads from a certificate, whether it accepts a signature, and
// test-only RSA keys to sign synthetic certificates and raw blocks with.
// Byte-string outputs return their length, or -1 on failure or if `cap` is too small.

/// What OpenSSL reads from a DER certificate.
typedef struct {
    int version;             // 1, 2 or 3
    int64_t not_before;      // seconds since 1970
    int64_t not_after;
    int key_bits;            // RSA modulus bits, 0 if not RSA
    int signature_nid;       // NID of the signature algorithm
    int is_ca;               // basicConstraints cA (0 if absent)
    long path_length;        // pathLenConstraint, -1 if absent
    uint32_t key_usage;      // X509_get_key_usage: KU_* bits, UINT32_MAX if absent
} rf_x509_info;

/// 1 if OpenSSL parses `der` as exactly one certificate (all bytes used), else 0.
int rf_x509_info_get(const uint8_t *der, size_t len, rf_x509_info *info);
/// The DER of the subject (`which` = 1) or issuer (`which` = 0) Name.
long rf_x509_name_der(const uint8_t *der, size_t len, int which, uint8_t *out, size_t cap);
/// The serial number's magnitude, big-endian.
long rf_x509_serial(const uint8_t *der, size_t len, uint8_t *out, size_t cap);
/// The RSA modulus (`which` = 0) or public exponent (`which` = 1), big-endian.
long rf_x509_rsa_key(const uint8_t *der, size_t len, int which, uint8_t *out, size_t cap);
/// -1 if the extension with dotted OID `oid` is absent, 0 if present, 1 if critical.
int rf_x509_extension(const uint8_t *der, size_t len, const char *oid);
/// X509_verify(cert, issuer's key): 1 valid, 0 invalid, -1 if either does not parse.
int rf_x509_verify(const uint8_t *cert, size_t cert_len, const uint8_t *issuer, size_t issuer_len);

/// A fresh RSA key (tests only; e = 65537), or NULL.
void *rf_x509_test_key_new(int bits);
void rf_x509_test_key_free(void *key);
/// The key's modulus (`which` = 0) or public exponent (`which` = 1), big-endian.
long rf_x509_test_key_public(void *key, int which, uint8_t *out, size_t cap);
/// PKCS#1 v1.5 signature of `message` hashed with "SHA1" or "SHA256".
long rf_x509_test_sign(void *key, const char *digest, const uint8_t *message, size_t len, uint8_t *out, size_t cap);
/// The raw private operation block^d mod n (no padding): a signature whose public
/// operation recovers exactly `block` (modulus-sized, below the modulus).
long rf_x509_test_raw_sign(void *key, const uint8_t *block, size_t len, uint8_t *out, size_t cap);

#endif
