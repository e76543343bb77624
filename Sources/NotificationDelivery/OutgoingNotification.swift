/// One notification as the App Store sends it: its `notificationUUID` (the same on every
/// retry) and the signed payload, POSTed as `{"signedPayload": "…"}`; and, for the
/// people reading a log, what it is (`typeAndSubtype`).
///
/// The payload is either signed already or signed when asked for (`SignedPayloadSource`):
/// a server's history of 100,000 notifications keeps what each is made from, about a
/// tenth of a 3–4 KiB JWS, and signs again for each attempt and history page (the
/// forge's ES256 signatures are deterministic, so the bytes are the same each time).
/// Two notifications with the same UUID are the same notification.
public struct OutgoingNotification: Sendable, Hashable {
    public let notificationUUID: String
    private let source: Source

    private enum Source: Sendable {
        case signed(String, typeAndSubtype: String)
        case deferred(any SignedPayloadSource)
    }

    /// A notification signed already, of Apple's `typeAndSubtype` (`DID_RENEW`, `SUBSCRIBED/INITIAL_BUY`).
    public init(notificationUUID: String, typeAndSubtype: String, signedPayload: String) {
        self.notificationUUID = notificationUUID
        source = .signed(signedPayload, typeAndSubtype: typeAndSubtype)
    }

    /// A notification signed by `source` whenever its payload is needed.
    public init(notificationUUID: String, source: any SignedPayloadSource) {
        self.notificationUUID = notificationUUID
        self.source = .deferred(source)
    }

    /// What the payload is signed from, when it is signed on demand.
    public var payloadSource: (any SignedPayloadSource)? {
        if case .deferred(let source) = source { return source }
        return nil
    }

    /// Apple's `notificationType`, and `/subtype` when it has one: `DID_RENEW`, `SUBSCRIBED/INITIAL_BUY`, `TEST`.
    public var typeAndSubtype: String {
        switch source {
        case .signed(_, let typeAndSubtype): return typeAndSubtype
        case .deferred(let source): return source.typeAndSubtype
        }
    }

    /// The compact JWS (signed now when the notification was made from a source).
    public var signedPayload: String {
        switch source {
        case .signed(let payload, _): return payload
        case .deferred(let source): return source.signedPayload()
        }
    }

    /// The request body. A compact JWS holds only base64url characters and dots, so it
    /// needs no JSON escaping.
    public var body: [UInt8] {
        Array(#"{"signedPayload":""#.utf8) + Array(signedPayload.utf8) + Array(#""}"#.utf8)
    }

    public static func == (lhs: OutgoingNotification, rhs: OutgoingNotification) -> Bool {
        lhs.notificationUUID == rhs.notificationUUID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(notificationUUID)
    }
}

/// What a notification is signed from when it is sent or listed, not when it is queued.
/// Signing must not fail once the source exists: whoever makes sources checks its key
/// first (a failure after that is a broken invariant, not bad input).
public protocol SignedPayloadSource: Sendable {
    /// Apple's `notificationType`, and `/subtype` when it has one (known without signing).
    var typeAndSubtype: String { get }
    func signedPayload() -> String
}
