/// SplitMix64: a tiny, fixed, portable generator, so `--seed` gives the same bytes on
/// every platform and Swift version, and a fixed-seed test draws the same inputs
/// everywhere. The standard library's generators and its `random(in:using:)`,
/// `shuffled(using:)` and `randomElement(using:)` promise neither, so this is
/// deliberately no `RandomNumberGenerator`: every draw is the plain arithmetic below.
public struct DeterministicRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// 1: the seed of the forge, the local App Store and the server's test API key when
    /// none is given (`--seed`).
    public static let defaultSeed: UInt64 = 1

    /// A stream for one case: the forge seed mixed with the case id (FNV-1a), so adding
    /// a case changes no other case's bytes.
    package init(seed: UInt64, label: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        self.init(seed: seed ^ hash)
    }

    public mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A number in `range`, by plain modulo of one draw (for ranges far below 2^64 the
    /// bias is negligible: about `range.count / 2^64`).
    public mutating func int(in range: Range<Int>) -> Int {
        precondition(!range.isEmpty, "empty range")
        return range.lowerBound + Int(next() % UInt64(range.count))
    }

    public mutating func int(in range: ClosedRange<Int>) -> Int {
        int(in: range.lowerBound..<(range.upperBound + 1))
    }

    /// A decimal string of `digits` digits, no leading zero (Apple's transaction ids).
    package mutating func digits(_ digits: Int) -> String {
        var text = String(1 + next() % 9)
        for _ in 1..<digits { text += String(next() % 10) }
        return text
    }
}
