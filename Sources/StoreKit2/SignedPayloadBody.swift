/// The body Apple POSTs to a notification URL: `{"signedPayload": "<JWS>"}`.
public struct SignedPayloadBody: Codable, Hashable, Sendable {
    public var signedPayload: String

    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
