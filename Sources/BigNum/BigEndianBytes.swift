// Conversion between big-endian byte strings (RSA moduli, signatures, exponents) and
// little-endian UInt64 limbs. One implementation, not two: per limb it is one 8-byte
// load and one byte swap (BSWAP/MOVBE), and a vector byte reversal needs PSHUFB,
// which baseline x86-64 (SSE2) lacks — a SIMD twin would be slower, not different.

extension BigNum.Kernels {
    /// z = the big-endian number in `bytes`, zero-extended to z.count limbs.
    /// Returns false (z unspecified) if the value needs more than z.count limbs.
    /// Any lengths; z must not overlap bytes.
    public static func loadBigEndian(_ z: UnsafeMutableBufferPointer<UInt64>, from bytes: UnsafeRawBufferPointer) -> Bool {
        var end = bytes.count
        for i in 0..<z.count {
            var limb: UInt64 = 0
            if end >= 8 {
                limb = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
                end -= 8
            } else {
                for k in 0..<end { limb = limb << 8 | UInt64(bytes[k]) }
                end = 0
            }
            z[i] = limb
        }
        for k in 0..<end where bytes[k] != 0 { return false }
        return true
    }

    /// Writes x big-endian into all of `bytes`, zero-padded on the left.
    /// Returns false (bytes unspecified) if x does not fit in bytes.count bytes.
    /// Any lengths; bytes must not overlap x.
    public static func storeBigEndian(_ bytes: UnsafeMutableRawBufferPointer, from x: UnsafeBufferPointer<UInt64>) -> Bool {
        var end = bytes.count
        for i in 0..<x.count {
            let limb = x[i]
            if end >= 8 {
                bytes.storeBytes(of: limb.bigEndian, toByteOffset: end - 8, as: UInt64.self)
                end -= 8
            } else {
                if limb >> (8 * end) != 0 { return false }
                for k in 0..<end { bytes[end - 1 - k] = UInt8(truncatingIfNeeded: limb >> (8 * k)) }
                end = 0
            }
        }
        for k in 0..<end { bytes[k] = 0 }
        return true
    }
}
