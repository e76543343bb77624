/// What Apple's Swift library (`app-store-server-library-swift`, `SignedDataVerifier`)
/// answers a JWS: `VerificationResult.valid`, or `.invalid` with its `VerificationError`.
///
/// The Swift library names its errors differently from the Python library whose
/// statuses ``JWSVerificationStatus`` mirrors (read in `ChainVerifier.swift` and
/// `SignedDataVerifier.swift` of the Swift library, commit 8468d10):
/// - it has no `INVALID_CHAIN_LENGTH`: a JWS whose `x5c` does not hold three
///   certificates, whose `alg` is not ES256, that has no `x5c`, whose payload does not
///   decode, whose certificate is Base64 but not DER, or whose signature does not verify
///   (jwt-kit throws inside the `do` block whose `catch` answers it) is
///   `INVALID_JWT_FORMAT`;
/// - it checks no registered JWT claim (its `VaporBody.verify` does nothing), so a JWS
///   with an `exp` long passed is `valid`;
/// - a chain that does not validate is `VERIFICATION_FAILURE`, an `x5c` entry that is not
///   Base64 `INVALID_CERTIFICATE`, and the app and environment checks are the Python
///   library's.
public enum SwiftLibraryVerdict: String, Codable, Hashable, Sendable, CaseIterable {
    case valid = "valid"
    case invalidJWTFormat = "INVALID_JWT_FORMAT"
    case invalidCertificate = "INVALID_CERTIFICATE"
    case verificationFailure = "VERIFICATION_FAILURE"
    case retryableVerificationFailure = "RETRYABLE_VERIFICATION_FAILURE"
    case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
    case invalidEnvironment = "INVALID_ENVIRONMENT"

    /// The Swift library's name for what the Python library calls `status`, where the
    /// two mean the same; nil for `INVALID_CHAIN_LENGTH` and `INVALID_CHAIN`, which the
    /// Swift library does not have.
    public init?(sameAs status: JWSVerificationStatus) {
        switch status {
        case .ok: self = .valid
        case .verificationFailure: self = .verificationFailure
        case .invalidAppIdentifier: self = .invalidAppIdentifier
        case .invalidCertificate: self = .invalidCertificate
        case .invalidEnvironment: self = .invalidEnvironment
        case .retryableVerificationFailure: self = .retryableVerificationFailure
        case .invalidChainLength, .invalidChain: return nil
        }
    }
}
