// Arithmetic modulo a `MontgomeryContext`'s modulus on big-endian bytes, beside
// exponentiation: reduction of a number of any length, and the modular sum,
// difference and product of reduced operands. The forge's RSA private-key operation
// (CRT: c mod p and c mod q, two exponentiations, Garner's recombination) is built
// from these. Every result has the modulus's byte length, leading zeros kept.
//
// No division: reduction is Horner's rule over n-limb chunks in Montgomery form.
// With R = 2^(64n), the Montgomery product of any chunk c < R with R² mod m is
// c·R mod m, because c·(R² mod m) < R·m keeps the kernel's result below 2m (see the
// contract of `Kernels.Scalar.montgomeryMultiply`). These run a few times per RSA
// signature, so they work on arrays; the kernels underneath are the dispatched ones.
// Like `power`, the time taken depends on the operands: fine for the forge's public
// test keys, not for secret keys in production.

extension BigNum {
    /// Why a modular operation refused its operands.
    public enum OperandError: Swift.Error, Equatable, Sendable {
        /// The operand at `index` (0: the first) is not smaller than the modulus.
        case notReduced(index: Int)
    }
}

extension BigNum.MontgomeryContext {
    /// x mod m, for a big-endian x of any length (leading zeros ignored), as
    /// `byteCount` big-endian bytes. `path` pins the kernels' path (nil: `Dispatch`).
    public func reduce<Bytes: Collection<UInt8>>(_ x: Bytes, path: BigNum.Path? = nil) -> [UInt8] {
        let n = limbCount
        let significant = Array(x.drop(while: { $0 == 0 }))
        let chunkCount = max(1, (significant.count + 8 * n - 1) / (8 * n))
        var limbs = [UInt64](repeating: 0, count: chunkCount * n)
        let fits = limbs.withUnsafeMutableBufferPointer { z in
            significant.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) }
        }
        precondition(fits, "reduce: chunkCount·n limbs hold the input")
        // Invariant: accumulator = (the chunks read so far)·R mod m.
        var accumulator = [UInt64](repeating: 0, count: n)
        for chunk in stride(from: chunkCount - 1, through: 0, by: -1) {
            let shifted = montgomeryProduct(accumulator, rSquared, path: path)
            let term = montgomeryProduct(Array(limbs[(chunk * n)..<((chunk + 1) * n)]), rSquared, path: path)
            accumulator = sumModulo(shifted, term)
        }
        // ·R^(−1): the value itself.
        var one = [UInt64](repeating: 0, count: n)
        one[0] = 1
        return bytes(montgomeryProduct(accumulator, one, path: path))
    }

    /// (a + b) mod m for a, b < m (big-endian, any length, leading zeros ignored).
    /// Throws `.notReduced` naming the first operand that is not below m.
    public func add<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) throws(BigNum.OperandError) -> [UInt8] {
        bytes(sumModulo(try reducedLimbs(a, index: 0), try reducedLimbs(b, index: 1)))
    }

    /// (a − b) mod m for a, b < m (big-endian, any length, leading zeros ignored).
    /// Throws `.notReduced` naming the first operand that is not below m.
    public func subtract<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) throws(BigNum.OperandError) -> [UInt8] {
        let x = try reducedLimbs(a, index: 0), y = try reducedLimbs(b, index: 1)
        var z = [UInt64](repeating: 0, count: limbCount)
        z.withUnsafeMutableBufferPointer { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    // x − y, plus m when it borrowed (the addition's carry cancels the borrow).
                    if BigNum.Kernels.subtract(z, x, y) == 1 {
                        modulus.withUnsafeBufferPointer { m in _ = BigNum.Kernels.add(z, UnsafeBufferPointer(z), m) }
                    }
                }
            }
        }
        return bytes(z)
    }

    /// a·b mod m for a, b < m (big-endian, any length, leading zeros ignored).
    /// Throws `.notReduced` naming the first operand that is not below m. `path`
    /// pins the kernels' path (nil: `Dispatch`).
    public func multiply<A: Collection<UInt8>, B: Collection<UInt8>>(
        _ a: A, _ b: B, path: BigNum.Path? = nil
    ) throws(BigNum.OperandError) -> [UInt8] {
        let x = try reducedLimbs(a, index: 0), y = try reducedLimbs(b, index: 1)
        // a·b·R^(−1), then ·R²·R^(−1): a·b.
        return bytes(montgomeryProduct(montgomeryProduct(x, y, path: path), rSquared, path: path))
    }

    // MARK: Helpers on limb arrays

    /// x·y·R^(−1) mod m, for x·y < R·m (so x < R with y < m will do).
    private func montgomeryProduct(_ x: [UInt64], _ y: [UInt64], path: BigNum.Path?) -> [UInt64] {
        var z = [UInt64](repeating: 0, count: limbCount)
        let kernelPath = path ?? BigNum.Dispatch.path(.montgomeryMultiply, size: limbCount)
        z.withUnsafeMutableBufferPointer { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    modulus.withUnsafeBufferPointer { m in
                        BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, path: kernelPath)
                    }
                }
            }
        }
        return z
    }

    /// (x + y) mod m for x, y < m: the sum, less m when it reached m.
    private func sumModulo(_ x: [UInt64], _ y: [UInt64]) -> [UInt64] {
        var sum = [UInt64](repeating: 0, count: limbCount)
        var difference = sum
        let carry = sum.withUnsafeMutableBufferPointer { z in
            x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in BigNum.Kernels.add(z, x, y) } }
        }
        let borrow = difference.withUnsafeMutableBufferPointer { z in
            sum.withUnsafeBufferPointer { s in modulus.withUnsafeBufferPointer { m in BigNum.Kernels.subtract(z, s, m) } }
        }
        return carry == 1 || borrow == 0 ? difference : sum
    }

    /// The operand as `limbCount` limbs, or `.notReduced(index:)` if it is not below m.
    private func reducedLimbs<Bytes: Collection<UInt8>>(_ bytes: Bytes, index: Int) throws(BigNum.OperandError) -> [UInt64] {
        var limbs = [UInt64](repeating: 0, count: limbCount)
        let significant = Array(bytes.drop(while: { $0 == 0 }))
        let fits = limbs.withUnsafeMutableBufferPointer { z in
            significant.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) }
        }
        guard fits, limbs.withUnsafeBufferPointer({ lessThanModulus($0) }) else { throw .notReduced(index: index) }
        return limbs
    }

    /// `byteCount` big-endian bytes of x < m.
    private func bytes(_ x: [UInt64]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: byteCount)
        let fits = result.withUnsafeMutableBytes { out in
            x.withUnsafeBufferPointer { BigNum.Kernels.storeBigEndian(out, from: $0) }
        }
        precondition(fits, "a value below m fits in byteCount bytes")
        return result
    }
}
