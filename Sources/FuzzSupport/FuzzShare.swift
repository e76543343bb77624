/// Which inputs take a costly check that needs no more than a share of them: a
/// deterministic choice from the input's bytes, so the same input always takes the
/// same checks (a finding reproduces) while libFuzzer's coverage feedback still
/// steers mutants into the check (its branch is an edge like any other).
///
/// `FuzzShare.takes(input, oneIn: 4)` is true for about a quarter of inputs; `salt`
/// makes the shares of two checks independent of each other.
public enum FuzzShare {
    /// FNV-1a of the bytes, folded: cheap, and every byte moves it.
    @inlinable
    public static func hash(_ input: [UInt8], salt: UInt32 = 0) -> UInt32 {
        var hash: UInt32 = 2_166_136_261 ^ salt
        input.withUnsafeBufferPointer { bytes in
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        }
        return hash ^ (hash >> 16)
    }

    /// True for about one input in `oneIn` (always for `oneIn` ≤ 1).
    @inlinable
    public static func takes(_ input: [UInt8], oneIn: UInt32, salt: UInt32 = 0) -> Bool {
        oneIn <= 1 || hash(input, salt: salt) % oneIn == 0
    }
}
