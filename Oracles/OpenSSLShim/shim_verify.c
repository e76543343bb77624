#include "shim_verify.h"
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

void *rf_verify_store_new(const uint8_t *anchor_der, size_t anchor_len) {
    const unsigned char *p = anchor_der;
    X509 *anchor = d2i_X509(NULL, &p, (long)anchor_len);
    X509_STORE *store = anchor ? X509_STORE_new() : NULL;
    if (store && X509_STORE_add_cert(store, anchor) == 1) {
        X509_VERIFY_PARAM_set_purpose(X509_STORE_get0_param(store), X509_PURPOSE_ANY);
    } else {
        X509_STORE_free(store);
        store = NULL;
    }
    X509_free(anchor);  // the store holds its own reference
    ERR_clear_error();
    return store;
}

void rf_verify_store_free(void *store) {
    X509_STORE_free((X509_STORE *)store);
}

int rf_verify_pkcs7_once(void *handle, const uint8_t *p7_der, size_t p7_len, int64_t at_time) {
    X509_STORE *store = (X509_STORE *)handle;
    const unsigned char *p = p7_der;
    PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)p7_len);
    int ok = 0;
    if (p7 && PKCS7_type_is_signed(p7)) {
        X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), (time_t)at_time);
        BIO *sink = BIO_new(BIO_s_null());
        ok = sink && PKCS7_verify(p7, NULL, store, NULL, sink, PKCS7_BINARY) == 1;
        BIO_free(sink);
    }
    PKCS7_free(p7);
    ERR_clear_error();
    return ok;
}

int rf_x509_verify_chain(const uint8_t *chain_der, size_t chain_len, const uint8_t *anchor_der, size_t anchor_len,
                         int64_t at_time) {
    int result = -1;
    X509 *signer = NULL;
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509_STORE *store = rf_verify_store_new(anchor_der, anchor_len);
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (!untrusted || !store || !ctx) goto done;
    for (const unsigned char *p = chain_der, *end = chain_der + chain_len; p < end;) {
        X509 *cert = d2i_X509(NULL, &p, (long)(end - p));
        if (!cert) goto done;
        if (!signer) signer = cert; else sk_X509_push(untrusted, cert);
    }
    if (!signer || X509_STORE_CTX_init(ctx, store, signer, untrusted) != 1) goto done;
    X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(ctx), (time_t)at_time);
    X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_ANY);
    result = X509_verify_cert(ctx) == 1 ? 1 : 0;
done:
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(signer);
    ERR_clear_error();
    return result;
}
