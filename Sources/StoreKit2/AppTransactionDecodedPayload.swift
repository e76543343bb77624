/// A signed app transaction's payload (`AppTransaction`, App Store Server API
/// `JWSAppTransactionDecodedPayload`). Its environment is `receiptType`, which is what
/// Apple's verifier compares.
public struct AppTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var receiptType: String?
    /// The app's Apple ID (its App Store item identifier).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the app transaction is for.
    public var applicationVersion: String?
    /// The App Store's identifier of that version.
    public var versionExternalIdentifier: Int64?
    /// When the app transaction was created.
    public var receiptCreationDate: JWSDate?
    /// When the customer first got the app.
    public var originalPurchaseDate: JWSDate?
    /// The app version the customer first got.
    public var originalApplicationVersion: String?
    /// Base64 SHA-384 of the device identifier and the nonce: ties the transaction to one device.
    public var deviceVerification: String?
    /// The nonce (a UUID) that went into `deviceVerification`.
    public var deviceVerificationNonce: String?
    /// When the customer pre-ordered the app; absent otherwise.
    public var preorderDate: JWSDate?
    /// The customer's unique identifier for this app, stable across purchases.
    public var appTransactionId: String?
    /// The platform the customer first got the app on (`iOS`, `macOS`, …).
    public var originalPlatform: String?
    /// When the App Store signed the payload.
    public var signedDate: JWSDate?
    /// The server environment, beside `receiptType` in newer payloads.
    public var environment: String?

    /// A payload with every field absent, to fill in.
    public init() {}
}
