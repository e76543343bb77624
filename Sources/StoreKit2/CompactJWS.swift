/// A JWS in compact serialization (RFC 7515 §7.1): `header.payload.signature`, each
/// part base64url without padding. The parts are kept as received: the signature
/// covers `signingInput` (the first two parts as sent), never a re-encoding.
public struct CompactJWS: Sendable, Hashable {
    /// The header part as received.
    public let encodedHeader: Substring
    /// The payload part as received.
    public let encodedPayload: Substring
    /// The signature part as received.
    public let encodedSignature: Substring
    /// The header's JSON bytes.
    public let header: [UInt8]
    /// The payload's JSON bytes.
    public let payload: [UInt8]
    /// The signature's bytes (for ES256, `r ‖ s`, 64 bytes).
    public let signature: [UInt8]

    /// What the signature is computed over: ASCII(header '.' payload).
    public var signingInput: [UInt8] { Array("\(encodedHeader).\(encodedPayload)".utf8) }

    /// The compact serialization: the parts as received, joined with dots.
    public var serialized: String { "\(encodedHeader).\(encodedPayload).\(encodedSignature)" }

    /// Splits and decodes `text`; throws `JWSError` naming the part. `padding`: whether
    /// a part may end in `=` (`Base64URL.Padding`).
    public init(_ text: String, padding: Base64URL.Padding = .forbidden) throws(JWSError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWSError(.notCompact, at: "jws", "\(parts.count) dot-separated part(s), a compact JWS has 3")
        }
        func decoded(_ part: Substring, _ name: String) throws(JWSError) -> [UInt8] {
            do {
                return try Base64URL.decode(part, padding: padding)
            } catch {
                throw JWSError(.invalidBase64URL, at: name, "\(error)")
            }
        }
        encodedHeader = parts[0]
        encodedPayload = parts[1]
        encodedSignature = parts[2]
        header = try decoded(parts[0], "header")
        payload = try decoded(parts[1], "payload")
        signature = try decoded(parts[2], "signature")
    }

    /// Encodes the parts; `signature` is computed over the returned value's `signingInput`.
    public init(header: [UInt8], payload: [UInt8], signature: [UInt8]) {
        // The parts are the bytes just encoded, so the text is not decoded again
        // (decode(encode(x)) == x is tested, and fuzzed by the `jws` target).
        let encodedHeader = Base64URL.encode(header), encodedPayload = Base64URL.encode(payload)
        let text = encodedHeader + "." + encodedPayload + "." + Base64URL.encode(signature)
        let utf8 = text.utf8
        let firstDot = utf8.index(utf8.startIndex, offsetBy: encodedHeader.utf8.count)
        let secondDot = utf8.index(firstDot, offsetBy: 1 + encodedPayload.utf8.count)
        self.encodedHeader = text[..<firstDot]
        self.encodedPayload = text[utf8.index(after: firstDot)..<secondDot]
        self.encodedSignature = text[utf8.index(after: secondDot)...]
        self.header = header
        self.payload = payload
        self.signature = signature
    }

    /// The signing input for `header` and `payload` before a signature exists.
    public static func signingInput(header: [UInt8], payload: [UInt8]) -> [UInt8] {
        Array((Base64URL.encode(header) + "." + Base64URL.encode(payload)).utf8)
    }
}
