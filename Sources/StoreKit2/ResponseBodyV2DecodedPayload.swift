/// An App Store Server Notification V2's payload (`ResponseBodyV2DecodedPayload`).
/// One of `data`, `summary`, `externalPurchaseToken` and `appData` says which app it is
/// about; Apple's library reads the first present, in that order.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    /// What happened: `SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`, ….
    public var notificationType: String?
    /// Details of what happened: `INITIAL_BUY`, `AUTO_RENEW_DISABLED`, `SUMMARY`, ….
    public var subtype: String?
    /// The notification's identifier, the same on every retry of it.
    public var notificationUUID: String?
    /// The app and the purchase the notification is about.
    public var data: NotificationData?
    /// For `SUMMARY` notifications: the outcome of a renewal-date extension.
    public var summary: NotificationSummary?
    /// For `EXTERNAL_PURCHASE_TOKEN` notifications: the token.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// For notifications about the app rather than a purchase.
    public var appData: NotificationAppData?
    /// "2.0".
    public var version: String?
    /// When the App Store signed the notification.
    public var signedDate: JWSDate?

    /// A payload with every field absent, to fill in.
    public init() {}
}
