/// An App Store Server Notification V2's payload (`ResponseBodyV2DecodedPayload`).
/// One of `data`, `summary`, `externalPurchaseToken` and `appData` says which app it is
/// about; Apple's library reads the first present, in that order.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var summary: NotificationSummary?
    public var externalPurchaseToken: ExternalPurchaseToken?
    public var appData: NotificationAppData?
    /// "2.0".
    public var version: String?
    public var signedDate: JWSDate?

    public init() {}
}
