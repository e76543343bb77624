/// SplitMix64: a tiny, fixed, portable generator, so `--seed` gives the same bytes on
/// every platform and Swift version (the standard library's generator promises neither).
struct DeterministicRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A stream for one case: the forge seed mixed with the case id (FNV-1a), so adding
    /// a case changes no other case's bytes.
    init(seed: UInt64, label: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        self.init(seed: seed ^ hash)
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A decimal string of `digits` digits, no leading zero (Apple's transaction ids).
    /// Plain modulo (bias of about 2^-60) rather than `Int.random(in:using:)`, whose
    /// algorithm the standard library does not promise to keep.
    mutating func digits(_ digits: Int) -> String {
        var text = String(1 + next() % 9)
        for _ in 1..<digits { text += String(next() % 10) }
        return text
    }
}
