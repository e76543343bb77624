/// Why a signature was refused: a stable code, so callers and tests tell a changed
/// payload from a bad signature without reading the detail text. A receipt whose own
/// signature is refused has the verdict reason `signature-invalid` and one of these as
/// `Verdict.signatureFailure`; the raw values are an interface (`forge verify --json`
/// prints them as `code`): never rename one.
public enum SignatureFailure: String, CaseIterable, Sendable, Codable {
    /// The signed attributes' messageDigest is not the digest of the payload: the
    /// payload changed after signing (RFC 5652 §11.2).
    case messageDigestMismatch = "message-digest-mismatch"
    /// The signature does not verify under the signer's key: the RSA block recovered is
    /// not the PKCS#1 v1.5 encoding of the digest, or the ECDSA equation fails.
    case signatureMismatch = "signature-mismatch"
    /// The signature has another length than the key's (RSA: the modulus's; ES256: 64 bytes).
    case signatureLength = "signature-length"
    /// The RSA signature, read as a number, is not below the modulus (RFC 8017 §5.2.2).
    case signatureOutOfRange = "signature-out-of-range"
    /// An ECDSA signature that is not a DER SEQUENCE of two INTEGERs.
    case malformedSignature = "malformed-signature"
    /// The key cannot verify this kind of signature (an EC key for an RSA signature, or
    /// the reverse), or the algorithm names no hash.
    case keyMismatch = "key-mismatch"
    /// The RSA key is too short for the DigestInfo and the minimum padding.
    case keyTooShort = "key-too-short"
    /// The digest has another length than its algorithm's (the caller's mistake).
    case digestLength = "digest-length"
}
