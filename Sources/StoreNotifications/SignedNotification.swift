import LocalAppStore
import StoreKit2

/// One notification as the App Store sends it, and what it says: the JWS POSTed as
/// `{"signedPayload": …}` and its decoded payload. The record a transcript, Get
/// Notification History and a delivery outbox keep (the outbox by `notificationUUID`,
/// which stays the same on every retry).
public struct SignedNotification: Sendable, Hashable, Encodable {
    public let notificationUUID: String
    public let notificationType: NotificationType
    public let subtype: NotificationSubtype?
    /// The store event it reports (`StoreEvent.sequence`); nil for TEST.
    public let eventSequence: Int?
    /// The store instant it was signed at (the event's), the payload's `signedDate`.
    public let signedDate: StoreInstant
    /// The compact JWS, signed by the forge's StoreKit 2 CA.
    public let signedPayload: String
    /// The payload `signedPayload` holds.
    public let decodedPayload: ResponseBodyV2DecodedPayload

    public var kind: NotificationKind { NotificationKind(notificationType, subtype) }

    /// The body of the POST to the app's notification URL.
    public var body: SignedPayloadBody { SignedPayloadBody(signedPayload: signedPayload) }
}
