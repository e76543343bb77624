/// Why a request to the App Store Server API is not authenticated. Apple answers every
/// one alike (HTTP 401, body `Unauthenticated`); a local server also says which check
/// failed, by `reason`'s stable name in a response header and a log line, and by
/// `message` for a person. Two failures are equal when their reasons are.
public struct AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One case per check, in the order the verifier makes them.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// No `Authorization` header.
        case missingAuthorization = "missing-authorization"
        /// An `Authorization` header that is not `Bearer <token>`.
        case malformedAuthorization = "malformed-authorization"
        /// The token is not three base64url parts separated by dots.
        case malformedToken = "malformed-token"
        /// The JOSE header is not a JSON object (or repeats a name).
        case headerNotJSON = "header-json"
        /// `alg` is missing or not `ES256`.
        case algorithm = "algorithm"
        /// `typ` is present and not `JWT`.
        case type = "type"
        /// No `kid` (or not a string).
        case keyIdentifierMissing = "key-id-missing"
        /// `kid` names no key the server knows.
        case unknownKeyIdentifier = "unknown-key-id"
        /// The signature is not ES256's 64 bytes of r ‖ s (a DER `ECDSA-Sig-Value`, say).
        case signatureEncoding = "signature-encoding"
        /// The signature does not verify with the key `kid` names.
        case signature = "signature"
        /// The claims are not a JSON object (or repeat a name).
        case claimsNotJSON = "claims-json"
        /// `iss` is missing, or not the issuer id of the key `kid` names.
        case issuer = "issuer"
        /// `aud` is not `appstoreconnect-v1`.
        case audience = "audience"
        /// `bid` is missing, or not the app's bundle id.
        case bundleIdentifier = "bundle-id"
        /// `exp` is missing or not a number.
        case expirationMissing = "expiration-missing"
        /// `exp` is not after the server's clock.
        case expired = "expired"
        /// `iat` is present but not a number.
        case issuedAtMalformed = "issued-at-malformed"
        /// `iat` is later than the server's clock (beyond the allowed skew).
        case issuedInFuture = "issued-in-future"
        /// `exp - iat` is more than an hour.
        case lifetime = "lifetime"
    }

    public let reason: Reason
    /// What was found, for a person: "aud is 'appstoreconnect-v2', not 'appstoreconnect-v1'".
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.reason == rhs.reason }
    public func hash(into hasher: inout Hasher) { hasher.combine(reason) }

    public var description: String { "\(reason.rawValue): \(message)" }

    /// How Apple answers any failure: this status, `text/plain`, this body.
    public static let httpStatus = 401
    public static let responseBody = "Unauthenticated"
    /// The header a local server names the failed check in (`X-Forge-Auth-Failure: audience`).
    public static let headerName = "X-Forge-Auth-Failure"
}
