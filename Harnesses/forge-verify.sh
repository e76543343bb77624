#!/bin/sh
# forge check harness: the project's own reference verifier (`forge verify`), the
# answer being its first line (`valid: …` or `invalid (REASON): …`).
#   forge check -- Harnesses/forge-verify.sh
# FORGE names the forge executable (default: `forge` on PATH).
exec "${FORGE:-forge}" verify "$FORGE_RECEIPT" --root "$FORGE_ROOT" --bundle-id "$FORGE_BUNDLE_ID" \
    --app-version "$FORGE_APP_VERSION" --device-id "$FORGE_DEVICE_ID" --now "$FORGE_NOW"
