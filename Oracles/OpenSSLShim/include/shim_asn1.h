#ifndef RECEIPT_FORGE_SHIM_ASN1_H
#define RECEIPT_FORGE_SHIM_ASN1_H
#include <stddef.h>

/// Walks a BER/DER encoding with OpenSSL's ASN1_get_object, descending into every
/// constructed element (definite or indefinite), the way `openssl asn1parse` does.
/// Returns the number of elements seen (end-of-contents markers excluded), or -1 if
/// OpenSSL rejects the encoding. Used as the baseline of `scripts/bench ber`.
long rf_asn1_walk(const unsigned char *bytes, size_t length);

#endif
