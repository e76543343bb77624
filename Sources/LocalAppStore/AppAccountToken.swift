import ForgeSupport

/// An app account token: a UUID the app attaches to a purchase, kept as 16 bytes so a
/// transaction needs no allocation for it; written in lowercase 8-4-4-4-12 form.
public struct AppAccountToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The UUID's first 8 bytes, big-endian.
    public let high: UInt64
    /// The UUID's last 8 bytes, big-endian.
    public let low: UInt64

    /// A token from its two halves, kept as given.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Any UUID in 8-4-4-4-12 hex form, either case; nil for anything else (Apple's
    /// 4000183 "The app account token field must be a valid UUID.").
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var value: [UInt8] = []
        for (offset, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        high = value[0..<16].reduce(0) { $0 << 4 | UInt64($1) }
        low = value[16..<32].reduce(0) { $0 << 4 | UInt64($1) }
    }

    /// The lowercase 8-4-4-4-12 form.
    public var description: String { DeterministicUUID(high: high, low: low).description }

    /// Decodes a UUID string; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let token = AppAccountToken(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a UUID: \(text)"))
        }
        self = token
    }

    /// Encodes the lowercase 8-4-4-4-12 form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
