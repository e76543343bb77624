/// A UUID made from the forge's seed instead of drawn at random, written in lowercase
/// 8-4-4-4-12 form as Apple writes its ids: the same seed and label give the same UUID
/// on every run, platform and Swift version. Kept as two big-endian words.
///
/// Where the 16 bytes come from is the caller's; fixtures already published carry
/// each of these, so they stay as they are:
/// - `init(seed:label:)` and `init(drawingFrom:)`: two words of `DeterministicRandom`,
///   version 4 (notification UUIDs, device verification nonces, app account tokens);
/// - `init(bytes:)` then `version4`: a digest's first 16 bytes (the JWS forge's ids,
///   from SHA-256 of the seed and a label);
/// - `init(bytes:)` alone: 16 drawn bytes as they are, no version bits (the test API
///   key's issuer id).
public struct DeterministicUUID: Sendable, Hashable, CustomStringConvertible {
    /// The first 8 bytes, big-endian.
    public let high: UInt64
    /// The last 8 bytes, big-endian.
    public let low: UInt64

    /// The UUID of these two words, as they are.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The UUID of these 16 bytes, as they are.
    public init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 16, "a UUID is 16 bytes")
        let words = bytes.reduce(into: (high: UInt64(0), low: UInt64(0))) { words, byte in
            words.high = words.high << 8 | words.low >> 56
            words.low = words.low << 8 | UInt64(byte)
        }
        self.init(high: words.high, low: words.low)
    }

    /// A version 4 UUID of the next two words `random` draws.
    public init(drawingFrom random: inout DeterministicRandom) {
        let high = random.next()
        self = DeterministicUUID(high: high, low: random.next()).version4
    }

    /// A version 4 UUID of the stream for the seed and `label` (`DeterministicRandom(seed:label:)`).
    package init(seed: UInt64, label: String) {
        var random = DeterministicRandom(seed: seed, label: label)
        self.init(drawingFrom: &random)
    }

    /// This UUID with the version (4, random) and variant (RFC 9562) bits set.
    public var version4: DeterministicUUID {
        DeterministicUUID(high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x4000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// The lowercase 8-4-4-4-12 form.
    public var description: String {
        let hex = Array((high.zeroPaddedHex + low.zeroPaddedHex).utf8)
        var text = ""
        for (offset, byte) in hex.enumerated() {
            if [8, 12, 16, 20].contains(offset) { text += "-" }
            text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        return text
    }
}
