import Foundation

/// The JWT registered claims Apple's Python library checks when it decodes a verified
/// JWS (PyJWT's defaults): `iat` a number not after now, `nbf` not after now, `exp`
/// after now, `aud` absent or empty (no audience is expected), `sub` and `jti` strings.
/// App Store payloads carry none of them; a payload that does is held to them.
package enum RegisteredClaims {
    /// Why `payload` fails a registered-claim check at `now` (seconds), or nil.
    package static func failure(_ payload: [String: Any], now: Int64) -> String? {
        if let value = payload["iat"] {
            guard let iat = integer(value) else { return "claim iat is not an integer" }
            if iat > now { return "claim iat \(iat) is after now (\(now))" }
        }
        if let value = payload["nbf"] {
            guard let nbf = integer(value) else { return "claim nbf is not an integer" }
            if nbf > now { return "claim nbf \(nbf) is after now (\(now))" }
        }
        if let value = payload["exp"] {
            guard let exp = integer(value) else { return "claim exp is not an integer" }
            if exp <= now { return "claim exp \(exp) has passed (now \(now))" }
        }
        if let aud = payload["aud"], isTruthy(aud) { return "claim aud is set, and no audience is expected" }
        if let sub = payload["sub"], !(sub is String) { return "claim sub is not a string" }
        if let jti = payload["jti"], !(jti is String) { return "claim jti is not a string" }
        return nil
    }

    /// Python's `int(value)`: numbers truncated, booleans 0/1, decimal strings.
    private static func integer(_ value: Any) -> Int64? {
        if let number = value as? NSNumber {
            let double = number.doubleValue
            guard double.isFinite, abs(double) < 9.2e18 else { return nil }
            return Int64(double.rounded(.towardZero))
        }
        if let text = value as? String {
            return Int64(text.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    private static func isTruthy(_ value: Any) -> Bool {
        switch value {
        case is NSNull: return false
        case let text as String: return !text.isEmpty
        case let array as [Any]: return !array.isEmpty
        case let object as [String: Any]: return !object.isEmpty
        case let number as NSNumber: return number.doubleValue != 0
        default: return true
        }
    }
}
