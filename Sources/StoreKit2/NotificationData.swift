/// `data` of an App Store Server Notification V2: the app it is about and the
/// nested signed transaction and renewal info (each a JWS of its own).
public struct NotificationData: Codable, Hashable, Sendable {
    public var environment: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?
    public var consumptionRequestReason: String?

    public init() {}
}
