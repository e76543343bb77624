/// The four kinds of App Store JWS, as `case.json` and `forge jws verify --kind` name them.
public enum JWSKind: String, Codable, Hashable, Sendable, CaseIterable {
    case transaction
    case renewalInfo
    case notification
    case appTransaction
}
