// The OpenSSL shim's public interface. An explicit umbrella header (not an umbrella
// directory): a new shim header must be added here, and editing this file is what
// makes clang rebuild its cached module, which a header merely dropped into the
// directory does not.
#ifndef RECEIPT_FORGE_OPENSSL_SHIM_H
#define RECEIPT_FORGE_OPENSSL_SHIM_H
#include "shim_asn1.h"
#include "shim_bn.h"
#include "shim_callgrind.h"
#include "shim_forge.h"
#include "shim_verify.h"
#include "shim_x509.h"
#endif
