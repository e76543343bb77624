#!/bin/sh
# forge check harness: the `openssl` command line. It checks the PKCS#7 signature and
# the chain to the case's root at the receipt creation date, nothing else, so it skips
# (exit 2) the cases about what the receipt says (bundle, version, device hash, VPP
# expiry) and the strict-policy ones (digest allow-list, marker extensions, trailing
# data), which OpenSSL does not judge.
#   forge check -- Harnesses/openssl.sh
tags=$(sed -n '/"tags" : \[/,/\]/p' "$FORGE_CASE_JSON")
for tag in bundle version device-hash vpp strict-policy; do
    if printf '%s\n' "$tags" | grep -q "\"$tag\""; then
        echo "openssl does not check $tag"
        exit 2
    fi
done
[ -e "$FORGE_RECEIPT" ] || { echo "invalid missing"; exit 1; }
[ -n "$FORGE_CREATION_DATE" ] || { echo "invalid malformed"; exit 1; }
at=$(date -d "$FORGE_CREATION_DATE" +%s) || { echo "invalid malformed"; exit 1; }
errors=$(openssl cms -verify -inform DER -in "$FORGE_RECEIPT" -CAfile "$FORGE_ROOT_PEM" -purpose any \
    -attime "$at" -binary -out /dev/null 2>&1) && { echo valid; exit 0; }
case "$errors" in
    *"certificate has expired"*|*"not yet valid"*) echo "invalid certificate-expired" ;;
    *"certificate verify error"*|*"unable to get"*|*"self-signed"*|*"self signed"*) echo "invalid untrusted-chain" ;;
    *"signature failure"*|*"content verify error"*|*"digest failure"*) echo "invalid signature-invalid" ;;
    *) echo "invalid malformed" ;;
esac
exit 1
