/// One notification as the App Store sends it: its `notificationUUID` (the same on every
/// retry) and the signed payload, POSTed as `{"signedPayload": "…"}`.
public struct OutgoingNotification: Sendable, Hashable {
    public let notificationUUID: String
    public let signedPayload: String

    public init(notificationUUID: String, signedPayload: String) {
        self.notificationUUID = notificationUUID
        self.signedPayload = signedPayload
    }

    /// The request body. A compact JWS holds only base64url characters and dots, so it
    /// needs no JSON escaping.
    public var body: [UInt8] {
        Array(#"{"signedPayload":""#.utf8) + Array(signedPayload.utf8) + Array(#""}"#.utf8)
    }
}
