import StrictJSON

/// The JWT registered claims Apple's Python library checks when it decodes a verified
/// JWS (PyJWT's defaults): `iat` a number not after now, `nbf` not after now, `exp`
/// after now, `aud` absent or empty (no audience is expected), `sub` and `jti` strings.
/// App Store payloads carry none of them; a payload that does is held to them.
package enum RegisteredClaims {
    /// Why `payload` (an object) fails a registered-claim check at `now` (seconds), or nil.
    package static func failure(_ payload: JSONValue, now: Int64) -> String? {
        if let value = payload["iat"] {
            guard let iat = PythonInt.of(value) else { return "claim iat is not an integer" }
            if iat > now { return "claim iat \(iat) is after now (\(now))" }
        }
        if let value = payload["nbf"] {
            guard let nbf = PythonInt.of(value) else { return "claim nbf is not an integer" }
            if nbf > now { return "claim nbf \(nbf) is after now (\(now))" }
        }
        if let value = payload["exp"] {
            guard let exp = PythonInt.of(value) else { return "claim exp is not an integer" }
            if exp <= now { return "claim exp \(exp) has passed (now \(now))" }
        }
        if let aud = payload["aud"], PythonTruth.of(aud) { return "claim aud is set, and no audience is expected" }
        if let sub = payload["sub"], sub.stringValue == nil { return "claim sub is not a string" }
        if let jti = payload["jti"], jti.stringValue == nil { return "claim jti is not a string" }
        return nil
    }
}
