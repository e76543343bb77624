// The parts of OpenSSL 3 (libcrypto) that Receipt Forge uses: the forge's signer
// and CA minter, and the independent oracle in tests, benchmarks and fuzzing.
// The verifier itself never imports this module.
#ifndef RECEIPT_FORGE_COPENSSL_H
#define RECEIPT_FORGE_COPENSSL_H
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
