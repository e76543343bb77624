import Receipt

/// Why a signer's chain was refused: a stable, fine-grained code under the verdict's
/// reason (BearSSL gives every X.509 outcome such a code). `VerdictReason` stays the
/// published top-level contract; a chain failure says which rule refused the chain,
/// so callers and tests match the code, never the detail text. The raw values are
/// an interface (`forge verify --json` prints them as `code`): never rename one.
public enum ChainFailure: String, CaseIterable, Sendable, Codable {
    // MARK: untrusted-chain

    /// No certificate in the receipt is the one its SignerInfo names (issuer and serial).
    case signerNotFound = "signer-not-found"
    /// No trust anchor or intermediate has the name of a certificate's issuer.
    case missingIssuer = "missing-issuer"
    /// A self-issued certificate (a root) that is not one of the caller's trust anchors.
    case untrustedRoot = "untrusted-root"
    /// No trust anchor within the verifier's maximum chain length.
    case chainTooLong = "chain-too-long"
    /// The search gave up after `ChainVerifier.maximumSignatureChecks` RSA operations.
    case tooManySignatureChecks = "too-many-signature-checks"
    /// A critical extension the verifier does not understand (RFC 5280 §4.2).
    case unhandledCriticalExtension = "unhandled-critical-extension"
    /// An issuer without basicConstraints cA (RFC 5280 §4.2.1.9).
    case notCertificateAuthority = "not-a-ca"
    /// More intermediates below an issuer than its pathLenConstraint allows.
    case pathLengthExceeded = "path-length-exceeded"
    /// An issuer whose keyUsage lacks keyCertSign (RFC 5280 §4.2.1.3).
    case issuerKeyUsage = "issuer-key-usage"
    /// A signer whose keyUsage lacks digitalSignature.
    case signerKeyUsage = "signer-key-usage"
    /// An App Store signer without Apple's receipt-signing marker 1.2.840.113635.100.6.11.1.
    case missingReceiptSigningMarker = "missing-receipt-signing-marker"
    /// An App Store signer's issuer without Apple's WWDR marker 1.2.840.113635.100.6.2.1.
    case missingWWDRMarker = "missing-wwdr-marker"

    // MARK: certificate-expired

    /// A certificate of the chain expired before the verification time.
    case expired
    /// A certificate of the chain was not yet valid at the verification time.
    case notYetValid = "not-yet-valid"

    // MARK: signature-invalid

    /// A certificate's signature does not verify under its issuer's key.
    case certificateSignatureInvalid = "signature-invalid"

    // MARK: unsupported-algorithm

    /// A certificate signed with an algorithm that names no hash (`rsaEncryption`).
    case unsupportedSignatureAlgorithm = "unsupported-algorithm"

    /// The verdict reason this failure is reported under.
    public var reason: VerdictReason {
        switch self {
        case .signerNotFound, .missingIssuer, .untrustedRoot, .chainTooLong, .tooManySignatureChecks,
             .unhandledCriticalExtension, .notCertificateAuthority, .pathLengthExceeded, .issuerKeyUsage,
             .signerKeyUsage, .missingReceiptSigningMarker, .missingWWDRMarker:
            return .untrustedChain
        case .expired, .notYetValid:
            return .certificateExpired
        case .certificateSignatureInvalid:
            return .signatureInvalid
        case .unsupportedSignatureAlgorithm:
            return .unsupportedAlgorithm
        }
    }
}
