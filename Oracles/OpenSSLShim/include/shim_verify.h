#ifndef RECEIPT_FORGE_SHIM_VERIFY_H
#define RECEIPT_FORGE_SHIM_VERIFY_H
#include <stddef.h>
#include <stdint.h>

// OpenSSL's receipt verification as the verifier benchmark's baseline: a trust store
// built once, then `d2i_PKCS7` + one `PKCS7_verify` (signature and chain together)
// per receipt, as a validator using OpenSSL does it. (The differential tests use
// `rf_pkcs7_verify` in shim_forge.h, which also says which of the two failed.)

/// A trust store holding the DER certificate `anchor_der` as its only anchor, purpose
/// any; NULL if it does not parse. Not for concurrent use; `rf_verify_store_free`.
void *rf_verify_store_new(const uint8_t *anchor_der, size_t anchor_len);
void rf_verify_store_free(void *store);

/// `d2i_PKCS7` of `p7_der`, then `PKCS7_verify` against `store` with the chain
/// validated at `at_time` (seconds since 1970). Returns 1 if it verifies, 0 if not
/// (including unparseable input).
int rf_verify_pkcs7_once(void *store, const uint8_t *p7_der, size_t p7_len, int64_t at_time);

/// `X509_verify_cert` of the first certificate in `chain_der` (concatenated DER: the
/// signer, then the intermediates to use as untrusted certificates) against the single
/// anchor, at `at_time`, purpose any. Returns 1 if the chain verifies, 0 if not, -1 if
/// something does not parse. Lets the differential ask whether OpenSSL accepts the
/// exact chain our verifier built, when OpenSSL's own path building did not find it.
int rf_x509_verify_chain(const uint8_t *chain_der, size_t chain_len, const uint8_t *anchor_der, size_t anchor_len,
                         int64_t at_time);


#endif
