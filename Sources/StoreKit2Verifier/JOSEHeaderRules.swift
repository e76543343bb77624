import StrictJSON

/// The JOSE header rules PyJWT 2.15 applies to every JWS it decodes, signed or not
/// (`PyJWS._load`, `_validate_headers`, `decode_complete`). Apple's library decodes
/// each JWS with PyJWT before it reads `x5c` or `alg`, and in every environment, Xcode's
/// included, where it checks no signature; a header that breaks a rule is therefore
/// `VERIFICATION_FAILURE` whatever else is wrong with the JWS.
///
/// - `b64` must not be `false` (RFC 7797's unencoded payload): PyJWT then wants a
///   detached payload, which Apple's library never passes.
/// - `kid`, when present (even `null`), must be a string.
/// - `crit`, when present (even `null`), must be a non-empty array of strings, each
///   naming an extension PyJWT supports (only `b64`) that the header also carries.
enum JOSEHeaderRules {
    /// Why `header` (a JSON object) breaks a rule, or nil.
    static func failure(_ header: JSONValue) -> String? {
        if header["b64"] == .bool(false) {
            return "header.b64 is false (an unencoded payload, RFC 7797), which PyJWT decodes only with a detached payload"
        }
        if let kid = header["kid"], kid.stringValue == nil {
            return "header.kid is \(kid.kindDescription), not a string"
        }
        guard let crit = header["crit"] else { return nil }
        guard let names = crit.arrayValue, !names.isEmpty else {
            return "header.crit is \(crit.kindDescription == "an array" ? "an empty array" : crit.kindDescription), not a non-empty array"
        }
        for (index, name) in names.enumerated() {
            guard let name = name.stringValue else {
                return "header.crit[\(index)] is \(names[index].kindDescription), not a string"
            }
            guard name == "b64" else {
                return "header.crit[\(index)] names the extension '\(name)', and PyJWT supports only 'b64'"
            }
            guard header["b64"] != nil else {
                return "header.crit[\(index)] names 'b64', which the header does not carry"
            }
        }
        return nil
    }
}
