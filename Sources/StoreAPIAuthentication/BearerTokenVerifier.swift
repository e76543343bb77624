import Crypto
import Foundation
import StoreKit2
import StrictJSON

/// The claims of a token that passed every check.
public struct AuthenticatedToken: Sendable, Hashable {
    /// The key that signed it (its `kid`), whose issuer is the token's `iss`.
    public let key: APIKey
    public let bundleIdentifier: String
    public let expiration: Date
    /// Absent in tokens of Apple's Python client.
    public let issuedAt: Date?
}

/// Checks `Authorization: Bearer <JWT>` headers as the App Store Server API does: an
/// ES256 JWT signed by one of `keys`, for `bundleIdentifier`, not expired. Checks run
/// cheap to expensive and stop at the first failure, which names the check.
///
/// What is allowed, and why:
/// - `iat` is optional (Apple's Python client sends none); when present, `exp - iat`
///   must be at most `maximumLifetime` (Apple: "at most 60 minutes") and `iat` no later
///   than the clock plus `allowedClockSkew`.
/// - `exp` gets no leeway: RFC 7519 §4.1.4 requires the current time to be before it,
///   and Apple's clients make tokens valid for minutes, so a client whose clock agrees
///   with the server's is never refused by it.
/// - Claims the API does not define (`nonce`, `scope`) are ignored; `typ` may be absent.
/// - Headers and claims are read as RFC 8259 JSON (StrictJSON's `rfc8259` dialect),
///   not as Python reads them: the API's server is Apple's, not a Python program, every
///   client writes plain JSON, and a name given twice is refused (RFC 7519 §4 lets a
///   recipient refuse it) rather than resolved to one of two `aud` or `bid` values that
///   another parser could resolve differently.
///
/// A token that passed is remembered by its exact text until it expires
/// (`VerifiedTokenCache`): the same token again is answered by the clock checks
/// alone, with the same result and message a full verification gives.
public struct BearerTokenVerifier: Sendable {
    public static let algorithm = "ES256"
    public static let audience = "appstoreconnect-v1"
    /// The longest `exp - iat` the API accepts: one hour.
    public static let maximumLifetime: TimeInterval = 3600
    /// How far `iat` may lie ahead of the clock: clients and server clocks differ by a little.
    public static let allowedClockSkew: TimeInterval = 60

    public let bundleIdentifier: String
    private let keys: [String: APIKey]
    private let verified: VerifiedTokenCache

    /// Tokens remembered at once (a few hundred bytes each): more than the clients of
    /// a local server make within their tokens' lifetime.
    public static let verifiedTokenCapacity = 1_024

    /// A verifier accepting tokens signed by any of `keys`, for the app `bundleIdentifier`.
    /// Two keys with one key id are refused: a token's `kid` must name one key.
    public init(keys: [APIKey], bundleIdentifier: String) throws(DuplicateKeyIdentifierError) {
        var byIdentifier: [String: APIKey] = [:]
        for key in keys {
            guard byIdentifier.updateValue(key, forKey: key.keyIdentifier) == nil else {
                throw DuplicateKeyIdentifierError(keyIdentifier: key.keyIdentifier)
            }
        }
        self.keys = byIdentifier
        self.bundleIdentifier = bundleIdentifier
        verified = VerifiedTokenCache(capacity: Self.verifiedTokenCapacity)
    }

    /// ES256 signatures verified so far: tokens answered from the cache of verified
    /// tokens are not counted.
    public var signatureChecks: Int { verified.signatureChecks }

    /// The key ids the verifier accepts, sorted.
    public var keyIdentifiers: [String] { keys.keys.sorted() }

    /// Verifies the value of the request's `Authorization` header (nil when absent)
    /// against the clock reading `now`.
    public func verify(authorization: String?, now: Date) -> Result<AuthenticatedToken, AuthenticationError> {
        do throws(AuthenticationError) {
            return .success(try check(authorization: authorization, now: now))
        } catch {
            return .failure(error)
        }
    }

    private func check(authorization: String?, now: Date) throws(AuthenticationError) -> AuthenticatedToken {
        let token = try Self.bearerToken(authorization)
        if let known = verified.token(token) {
            try Self.checkTimes(expiration: known.expiration, issuedAt: known.issuedAt, now: now)
            return known
        }
        let authenticated = try checkInFull(token, now: now)
        verified.insert(token, authenticated, now: now)
        return authenticated
    }

    private func checkInFull(_ token: String, now: Date) throws(AuthenticationError) -> AuthenticatedToken {
        let jws: CompactJWS
        do throws(JWSError) {
            jws = try CompactJWS(token)
        } catch {
            throw AuthenticationError(.malformedToken, "the token is not three base64url parts: \(error)")
        }
        let header = try Self.object(jws.header, part: "header", failure: .headerNotJSON)
        guard let algorithm = header.optional("alg")?.value.stringValue, algorithm == Self.algorithm else {
            throw AuthenticationError(.algorithm, "alg is \(Self.shown(header.optional("alg"))), not '\(Self.algorithm)'")
        }
        if let type = header.optional("typ"), type.value.stringValue != "JWT" {
            throw AuthenticationError(.type, "typ is \(Self.shown(type)), not 'JWT'")
        }
        guard let keyIdentifier = header.optional("kid")?.value.stringValue else {
            throw AuthenticationError(.keyIdentifierMissing, "no kid naming the API key: found \(Self.shown(header.optional("kid")))")
        }
        guard let key = keys[keyIdentifier] else {
            throw AuthenticationError(.unknownKeyIdentifier,
                                        "kid '\(keyIdentifier)' is not a key this server accepts (\(keyIdentifiers.joined(separator: ", ")))")
        }
        verified.countSignatureCheck()
        try Self.checkSignature(jws, key: key)
        let claims = try Self.object(jws.payload, part: "claims", failure: .claimsNotJSON)
        let issuer = claims.optional("iss")?.value.stringValue
        guard issuer == key.issuerIdentifier else {
            throw AuthenticationError(.issuer, "iss is \(Self.shown(claims.optional("iss"))), not the issuer id "
                                        + "'\(key.issuerIdentifier)' of key '\(key.keyIdentifier)'")
        }
        guard claims.optional("aud")?.value.stringValue == Self.audience else {
            throw AuthenticationError(.audience, "aud is \(Self.shown(claims.optional("aud"))), not '\(Self.audience)'")
        }
        guard claims.optional("bid")?.value.stringValue == bundleIdentifier else {
            throw AuthenticationError(.bundleIdentifier, "bid is \(Self.shown(claims.optional("bid"))), not the app's bundle id '\(bundleIdentifier)'")
        }
        guard let seconds = claims.optional("exp")?.value.doubleValue, seconds.isFinite else {
            throw AuthenticationError(.expirationMissing, "exp is \(Self.shown(claims.optional("exp"))), not a number of seconds since 1970")
        }
        let expiration = Date(timeIntervalSince1970: seconds)
        try Self.checkTimes(expiration: expiration, issuedAt: nil, now: now)
        var issuedAt: Date?
        if let member = claims.optional("iat") {
            guard let seconds = member.value.doubleValue, seconds.isFinite else {
                throw AuthenticationError(.issuedAtMalformed, "iat is \(Self.shown(member)), not a number of seconds since 1970")
            }
            let date = Date(timeIntervalSince1970: seconds)
            try Self.checkTimes(expiration: expiration, issuedAt: date, now: now)
            issuedAt = date
        }
        return AuthenticatedToken(key: key, bundleIdentifier: bundleIdentifier, expiration: expiration, issuedAt: issuedAt)
    }

    /// The checks against the clock and of `exp - iat`, in the order a full verification
    /// makes them (`exp`, then `iat`); a remembered token is checked by these alone.
    private static func checkTimes(expiration: Date, issuedAt: Date?, now: Date) throws(AuthenticationError) {
        guard now < expiration else {
            throw AuthenticationError(.expired, "the token expired at \(Self.text(expiration)); the server's clock reads \(Self.text(now))")
        }
        if let date = issuedAt {
            guard date <= now.addingTimeInterval(Self.allowedClockSkew) else {
                throw AuthenticationError(.issuedInFuture, "iat \(Self.text(date)) is more than \(Int(Self.allowedClockSkew)) s "
                                            + "after the server's clock, \(Self.text(now))")
            }
            guard expiration.timeIntervalSince(date) <= Self.maximumLifetime else {
                throw AuthenticationError(.lifetime, "exp - iat is \(Self.seconds(expiration.timeIntervalSince(date))) s, "
                                            + "more than the \(Int(Self.maximumLifetime)) s the API allows")
            }
        }
    }

    /// The token of `Bearer <token>`: the scheme is case-insensitive (RFC 9110 §11.1),
    /// one space follows it, and the token is not empty.
    private static func bearerToken(_ authorization: String?) throws(AuthenticationError) -> String {
        guard let authorization else {
            throw AuthenticationError(.missingAuthorization, "no Authorization header; the API wants 'Authorization: Bearer <JWT>'")
        }
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count,
              String(decoding: authorization.utf8.prefix(scheme.utf8.count), as: UTF8.self).lowercased() == scheme else {
            throw AuthenticationError(.malformedAuthorization,
                                        "the Authorization header is not 'Bearer <JWT>': it starts \(quoted(String(authorization.prefix(12))))")
        }
        return String(decoding: authorization.utf8.dropFirst(scheme.utf8.count), as: UTF8.self)
    }

    /// ES256 (RFC 7518 §3.4): the signature is r ‖ s, 32 bytes each, over the signing input as received.
    private static func checkSignature(_ jws: CompactJWS, key: APIKey) throws(AuthenticationError) {
        guard jws.signature.count == 64 else {
            let der = jws.signature.first == 0x30 ? " (it starts like a DER ECDSA-Sig-Value, which JWS does not use)" : ""
            throw AuthenticationError(.signatureEncoding, "the signature is \(jws.signature.count) bytes, "
                                        + "not ES256's 64 bytes of r ‖ s\(der)")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
              key.publicKey.isValidSignature(signature, for: jws.signingInput) else {
            throw AuthenticationError(.signature, "the signature does not verify with the public key of key '\(key.keyIdentifier)'")
        }
    }

    private static func object(_ bytes: [UInt8], part: String, failure: AuthenticationError.Reason) throws(AuthenticationError) -> JSONObject {
        do throws(JSONInputError) {
            return try JSONInput.parse(bytes, file: part).object(knownKeys: nil)
        } catch {
            throw AuthenticationError(failure, "the \(part) is not a JSON object: \(error.location): \(error.reason)")
        }
    }

    /// A member as a message shows it: absent, or its JSON kind and value.
    private static func shown(_ member: JSONInput?) -> String {
        guard let member else { return "missing" }
        switch member.value {
        case .string(let text): return quoted(text)
        case .number(let text): return text
        default: return member.value.kindDescription
        }
    }

    /// At most 64 characters, quoted: a header value is the client's, of any length.
    private static func quoted(_ text: String) -> String {
        "'" + (text.count > 64 ? String(text.prefix(64)) + "…" : text) + "'"
    }

    /// Seconds since 1970 and the ISO 8601 date; a date outside the years 1 to 9999 (a
    /// client's claim can be ±1e300) in seconds alone, as formatting clamps it to a wrong year.
    private static func text(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard (-62_135_596_800...253_402_300_799).contains(seconds) else {
            return "\(Self.seconds(seconds)) (outside the years 1 to 9999)"
        }
        return "\(Self.seconds(seconds)) (\(date.formatted(.iso8601)))"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Two keys given with the same key id.
public struct DuplicateKeyIdentifierError: Error, Hashable, Sendable, CustomStringConvertible {
    public let keyIdentifier: String
    public init(keyIdentifier: String) { self.keyIdentifier = keyIdentifier }
    public var description: String { "two API keys have the key id '\(keyIdentifier)'" }
}
