/// The four kinds of App Store JWS, as `case.json` and `forge jws verify --kind` name them.
public enum JWSKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// A signed transaction (`JWSTransaction`).
    case transaction
    /// A signed renewal info (`JWSRenewalInfo`).
    case renewalInfo
    /// A signed App Store Server Notification V2 (`signedPayload`).
    case notification
    /// A signed app transaction (`AppTransaction`).
    case appTransaction
}
