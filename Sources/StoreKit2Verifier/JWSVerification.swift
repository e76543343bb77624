import StoreKit2
import ReceiptVerifier

/// What `JWSVerifier` found: the status, the reason in words (naming the part or
/// field at fault), and as much of the JWS as decoded.
public struct JWSVerification: Sendable {
    /// The status, as Apple's `SignedDataVerifier` names it.
    public let status: JWSVerificationStatus
    /// What was found, naming the part or field at fault.
    public let detail: String
    /// The header when it decoded.
    public let header: JWSHeader?
    /// The payload's bytes (JSON) when the JWS decoded, whether or not it verified.
    public let payload: [UInt8]?
    /// The certificates from the leaf to the root when the chain verified.
    public let chain: [Certificate]
    /// Why the JWS's own ES256 signature was refused (status `verificationFailure`);
    /// nil when something else failed or nothing did.
    public let signatureFailure: SignatureFailure?

    /// A result from its parts.
    public init(status: JWSVerificationStatus, detail: String, header: JWSHeader? = nil, payload: [UInt8]? = nil,
                chain: [Certificate] = [], signatureFailure: SignatureFailure? = nil) {
        self.status = status
        self.detail = detail
        self.header = header
        self.payload = payload
        self.chain = chain
        self.signatureFailure = signatureFailure
    }

    /// True when the status is `ok`.
    public var isOK: Bool { status == .ok }
}
