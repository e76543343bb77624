#ifndef RECEIPT_FORGE_SHIM_FORGE_H
#define RECEIPT_FORGE_SHIM_FORGE_H
#include <stddef.h>
#include <stdint.h>

// OpenSSL as the independent oracle of the forge (which signs without it): the forge's
// PEM keys loaded into OpenSSL, their public keys and PKCS#1 v1.5 signatures to compare
// byte for byte (the scheme is deterministic), and PKCS7_verify / PKCS7_sign for the
// tests and the bench. Buffers are caller-supplied; `*out_len` receives the length
// written. Functions return 1 on success and 0 on failure unless they say otherwise.

/// Parses a PEM private key; returns an opaque EVP_PKEY handle (NULL on failure) that
/// `rf_key_free` releases. Handles may sign from several threads at once.
void *rf_key_load_pem(const char *key_pem, size_t key_pem_len);
void rf_key_free(void *key);

/// The DER SubjectPublicKeyInfo of a key handle.
int rf_key_public_der(void *key, uint8_t *out, size_t out_cap, size_t *out_len);

/// RSASSA-PKCS1-v1_5 signature of `message` (hashed inside with MD5 if `digest_bits`
/// is 128, SHA-1 if 160, SHA-256 if 256, SHA-384 if 384, SHA-512 if 512) with a key handle.
int rf_key_sign(void *key, int digest_bits, const uint8_t *message, size_t message_len,
                uint8_t *out, size_t out_cap, size_t *out_len);

/// Outcome of `rf_pkcs7_verify`.
enum {
    RF_PKCS7_OK = 0,
    RF_PKCS7_UNPARSEABLE = 1,      // d2i_PKCS7 failed, or not SignedData
    RF_PKCS7_SIGNATURE_INVALID = 2, // PKCS7_verify with PKCS7_NOVERIFY failed
    RF_PKCS7_CHAIN_INVALID = 3      // signature fine, chain to the anchor not valid at `at_time`
};

/// Verifies a DER/BER PKCS#7 SignedData like `openssl cms -verify -purpose any -attime`:
/// first the signature alone (PKCS7_NOVERIFY), then the chain to `anchor_der` (one
/// DER certificate, the only trust anchor) at `at_time` (seconds since 1970).
/// Returns one of the RF_PKCS7_* codes; the payload is not returned.
int rf_pkcs7_verify(const uint8_t *p7_der, size_t p7_len, const uint8_t *anchor_der, size_t anchor_len,
                    int64_t at_time);

/// Parses a DER certificate; returns an opaque X509 handle (NULL on failure) that
/// `rf_x509_free` releases.
void *rf_x509_load(const uint8_t *der, size_t len);
void rf_x509_free(void *cert);

/// PKCS7_sign of `message` (binary, no S/MIME capabilities, `digest_bits` 160 or 256)
/// with the signer certificate and key handles, including the `chain_count` extra
/// certificate handles; writes the DER SignedData. Without `signed_attributes` it is
/// the benchmark's baseline (everything parsed beforehand, as for the forge's own
/// signer, no attributes as in receipts); with it, contentType, signingTime and
/// messageDigest are signed, which receipts never carry but a verifier must handle.
int rf_pkcs7_sign(void *cert, void *key, void *const *chain, size_t chain_count, int digest_bits,
                  int signed_attributes, const uint8_t *message, size_t message_len,
                  uint8_t *out, size_t out_cap, size_t *out_len);

#endif
