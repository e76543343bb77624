/// `data` of an App Store Server Notification V2: the app it is about and the
/// nested signed transaction and renewal info (each a JWS of its own).
public struct NotificationData: Codable, Hashable, Sendable {
    /// `Production` or `Sandbox` (or `Xcode`, `LocalTesting`): what Apple's verifier compares.
    public var environment: String?
    /// The app's Apple ID; compared in Production.
    public var appAppleId: Int64?
    /// The app's bundle identifier: what Apple's verifier compares.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The transaction the notification is about, as a JWS.
    public var signedTransactionInfo: String?
    /// The subscription's renewal info, as a JWS; absent for other products.
    public var signedRenewalInfo: String?
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST` only).
    public var consumptionRequestReason: String?

    /// Data with every field absent, to fill in.
    public init() {}
}
