#include "shim_asn1.h"
#include <openssl/asn1.h>

// Walks [*p, end) element by element. `indefinite` says the enclosing element has
// indefinite length, so the walk stops after its end-of-contents marker.
static long walk(const unsigned char **p, const unsigned char *end, int indefinite, int depth) {
    long count = 0;
    if (depth > 128) return -1;
    while (*p < end) {
        const unsigned char *start = *p;
        long length = 0;
        int tag = 0, xclass = 0;
        int ret = ASN1_get_object(p, &length, &tag, &xclass, end - start);
        if (ret & 0x80) return -1;
        long headerLength = (long)(*p - start);
        if (indefinite && tag == 0 && xclass == 0 && length == 0 && headerLength == 2) {
            return count; // end-of-contents
        }
        count++;
        if (ret & V_ASN1_CONSTRUCTED) {
            const unsigned char *childEnd = (ret == 0x21) ? end : *p + length;
            long children = walk(p, childEnd, ret == 0x21, depth + 1);
            if (children < 0) return -1;
            count += children;
        } else {
            *p += length;
        }
    }
    return indefinite ? -1 : count;
}

long rf_asn1_walk(const unsigned char *bytes, size_t length) {
    const unsigned char *p = bytes;
    return walk(&p, bytes + length, 0, 0);
}
