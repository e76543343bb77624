/// Which inputs take a costly check that needs no more than a share of them: a
/// deterministic choice from the input's bytes, so the same input always takes the
/// same checks (a finding reproduces) while libFuzzer's coverage feedback still
/// steers mutants into the check (its branch is an edge like any other).
///
/// `FuzzShare.takes(input, oneIn: 4)` is true for about a quarter of inputs; `salt`
/// makes the shares of two checks independent of each other.
///
/// A harness that draws several shares for one input hashes it once (`hash`) and
/// asks `takes(hash:oneIn:salt:)` for each.
public enum FuzzShare {
    /// FNV-1a over the bytes eight at a time (then the last few one by one), folded
    /// to 32 bits: cheap on long inputs, and every byte moves it (each step is a
    /// bijection of the running value).
    @inlinable
    public static func hash(_ input: [UInt8]) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        input.withUnsafeBytes { bytes in
            var index = 0
            while index &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                hash = (hash ^ word) &* 0x0000_0100_0000_01B3
                index &+= 8
            }
            while index < bytes.count {
                hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
                index &+= 1
            }
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// True for about one input in `oneIn` (always for `oneIn` ≤ 1), from the input's
    /// `hash`: the salt is mixed in (MurmurHash3's finalizer), so each salt's share
    /// is independent of the others'.
    @inlinable
    public static func takes(hash: UInt32, oneIn: UInt32, salt: UInt32 = 0) -> Bool {
        guard oneIn > 1 else { return true }
        var mixed = hash ^ (salt &* 0x9E37_79B9)
        mixed ^= mixed >> 16
        mixed &*= 0x85EB_CA6B
        mixed ^= mixed >> 13
        mixed &*= 0xC2B2_AE35
        mixed ^= mixed >> 16
        return mixed % oneIn == 0
    }

    /// `takes(hash:oneIn:salt:)` for one share of `input`.
    @inlinable
    public static func takes(_ input: [UInt8], oneIn: UInt32, salt: UInt32 = 0) -> Bool {
        takes(hash: hash(input), oneIn: oneIn, salt: salt)
    }
}
