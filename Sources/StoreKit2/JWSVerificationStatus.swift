/// The outcome of verifying an App Store JWS, named as Apple's `SignedDataVerifier`
/// names it (`VerificationStatus`; compare names, not numbers: they differ between
/// Apple's libraries).
public enum JWSVerificationStatus: String, Codable, Hashable, Sendable, CaseIterable {
    /// Signature, chain, app and environment all check out.
    case ok = "OK"
    /// Not a JWS, not ES256, no `x5c`, a chain that does not verify to a root at the
    /// signed date, a missing marker extension, or a signature that does not verify.
    case verificationFailure = "VERIFICATION_FAILURE"
    /// `bundleId` (or, in Production, `appAppleId`) is not the expected one.
    case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
    /// A certificate (in `x5c` or a root) that does not decode, or no roots at all.
    case invalidCertificate = "INVALID_CERTIFICATE"
    /// `x5c` does not hold exactly three certificates.
    case invalidChainLength = "INVALID_CHAIN_LENGTH"
    /// Named by Apple's libraries; this project's verifier reports chain failures as `verificationFailure`, as Apple's does.
    case invalidChain = "INVALID_CHAIN"
    /// The payload's environment is not the expected one.
    case invalidEnvironment = "INVALID_ENVIRONMENT"
    /// An online revocation check that could not be made; this project's verifier makes none, so never reports it.
    case retryableVerificationFailure = "RETRYABLE_VERIFICATION_FAILURE"
}
