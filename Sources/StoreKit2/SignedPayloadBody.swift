/// The body Apple POSTs to a notification URL: `{"signedPayload": "<JWS>"}`.
public struct SignedPayloadBody: Codable, Hashable, Sendable {
    /// The notification, a compact JWS whose payload is a `ResponseBodyV2DecodedPayload`.
    public var signedPayload: String

    /// A body around `signedPayload`.
    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
