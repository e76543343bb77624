/// A signed app transaction's payload (`AppTransaction`, App Store Server API
/// `JWSAppTransactionDecodedPayload`). Its environment is `receiptType`, which is what
/// Apple's verifier compares.
public struct AppTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var receiptType: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: JWSDate?
    public var originalPurchaseDate: JWSDate?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: JWSDate?
    public var appTransactionId: String?
    public var originalPlatform: String?
    public var signedDate: JWSDate?
    public var environment: String?

    public init() {}
}
