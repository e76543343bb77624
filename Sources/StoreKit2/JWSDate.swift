/// A date in a StoreKit 2 payload: milliseconds since 1970 as a JSON number. The
/// App Store writes integers; Xcode's StoreKit testing writes fractional floats
/// (`1698148900000.123`), so both decode; an integral value encodes as an integer.
public struct JWSDate: Codable, Hashable, Sendable, Comparable {
    /// Milliseconds since 1970, fractional when Xcode wrote them.
    public var milliseconds: Double

    /// A date of whole milliseconds, as the App Store writes.
    public init(milliseconds: Int64) { self.milliseconds = Double(milliseconds) }
    /// A date with a fraction of a millisecond, as Xcode writes.
    public init(fractionalMilliseconds: Double) { milliseconds = fractionalMilliseconds }

    /// Whole seconds since 1970, rounded down (Apple's library: `int(signedDate) // 1000`).
    public var secondsSince1970: Int64 {
        guard milliseconds.isFinite, abs(milliseconds) < 9.2e18 else { return milliseconds < 0 ? Int64.min / 1000 : Int64.max / 1000 }
        let whole = Int64(milliseconds.rounded(.towardZero))
        return whole >= 0 ? whole / 1000 : (whole - 999) / 1000
    }

    /// Decodes an integer or a fractional JSON number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            milliseconds = Double(integer)
        } else {
            milliseconds = try container.decode(Double.self)
        }
    }

    /// Encodes an integral value as a JSON integer, any other as a fractional number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if milliseconds.rounded() == milliseconds, abs(milliseconds) < 9.0e15 {
            try container.encode(Int64(milliseconds))
        } else {
            try container.encode(milliseconds)
        }
    }

    /// Earlier first.
    public static func < (lhs: JWSDate, rhs: JWSDate) -> Bool { lhs.milliseconds < rhs.milliseconds }
}
