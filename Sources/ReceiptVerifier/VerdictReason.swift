// The stable reason codes of every verdict are the Receipt module's
// `VerdictReason` (`valid`, `malformed`, `signature-invalid`, `untrusted-chain`,
// `certificate-expired`, `unsupported-algorithm`, …): one enum for the whole
// verifier, re-exported so callers of this module see it without importing Receipt.
@_exported import enum Receipt.VerdictReason
