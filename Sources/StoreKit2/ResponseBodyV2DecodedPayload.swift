/// An App Store Server Notification V2's payload (`ResponseBodyV2DecodedPayload`).
/// Exactly one of `data` and `summary` says which app it is about.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var summary: NotificationSummary?
    /// "2.0".
    public var version: String?
    public var signedDate: JWSDate?

    public init() {}
}
