/// The stable reason codes of a receipt verdict, shared by the forge's manifest, the
/// verifier and the tests. The raw values are the interface other projects' CI reads
/// (`case.json`, `manifest.json`, verifier output): never rename one.
public enum VerdictReason: String, CaseIterable, Sendable, Codable {
    /// Everything checked out.
    case valid
    /// No receipt file at all (the app should refresh it, or exit with 173 on macOS).
    case missing
    /// Not a PKCS#7 receipt, or its container or payload does not decode.
    case malformed
    /// The RSA signature does not verify over the payload.
    case signatureInvalid = "signature-invalid"
    /// The signer's chain does not lead to the trust anchor (or lacks Apple's marker extensions).
    case untrustedChain = "untrusted-chain"
    /// A certificate of the chain was not valid at the receipt creation date.
    case certificateExpired = "certificate-expired"
    /// The receipt's bundle identifier is not the app's.
    case bundleMismatch = "bundle-mismatch"
    /// The receipt's app version is not the app's.
    case versionMismatch = "version-mismatch"
    /// The device hash (attribute 5) was not computed for this device.
    case deviceHashMismatch = "device-hash-mismatch"
    /// A Volume Purchase Program receipt past its expiration date (attribute 21).
    case receiptExpired = "receipt-expired"
    /// A digest or signature algorithm receipts do not use (only SHA-1 and SHA-256 with RSA).
    case unsupportedAlgorithm = "unsupported-algorithm"

    /// `valid` or `invalid`, as written in the manifest's `expected.verdict`.
    public var verdict: VerdictKind { self == .valid ? .valid : .invalid }
}

/// A verdict without its reason: what a validator's yes or no says.
public enum VerdictKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// The receipt passes every check.
    case valid
    /// The receipt fails one; the reason says which.
    case invalid
}
