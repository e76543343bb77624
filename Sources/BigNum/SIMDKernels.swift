// The vector kernels: same contracts as ScalarKernels.swift (read the conventions
// there), written with Swift's SIMD types. On x86-64 without extra target flags these
// lower to SSE2: a SIMD8<UInt64> is four XMM registers, and a 32×32→64 multiply of
// two lanes is one PMULUDQ. There is no 64×64→128 vector multiply, so the multiplying
// kernels view their operands as 32-bit words and accumulate column sums with
// deferred carries (each 64-bit product split into halves added into 64-bit
// accumulators, which cannot overflow below 2^31 words).
//
// Words are read from the 64-bit limbs through raw pointers, which assumes a
// little-endian target (every platform Swift ships on today).
#if _endian(big)
#error("BigNum's SIMD kernels view UInt64 limbs as little-endian UInt32 words")
#endif

extension BigNum.Kernels {
    /// SIMD implementations. Same contracts as the `Scalar` twins.
    public enum SIMD {}
}

private let low32 = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)

/// Packs a 4-lane mask into bits 0...3 of an integer.
@inline(__always)
private func bits(_ mask: SIMDMask<SIMD4<Int64>>) -> UInt64 {
    SIMD4<UInt64>(repeating: 0).replacing(with: SIMD4(1, 2, 4, 8), where: mask).wrappedSum()
}

/// Expands bits 0...3 of an integer to four lanes of 0 or 1.
@inline(__always)
private func lanes(_ bits: UInt64) -> SIMD4<UInt64> {
    (SIMD4(repeating: bits) &>> SIMD4(0, 1, 2, 3)) & SIMD4(repeating: 1)
}

@inline(__always)
private func load<V: SIMD>(_ pointer: UnsafeRawPointer, _ byteOffset: Int, as type: V.Type) -> V {
    pointer.loadUnaligned(fromByteOffset: byteOffset, as: V.self)
}

extension BigNum.Kernels.SIMD {
    /// Same contract as `Scalar.add`. Four limbs at a time: lane sums, then the
    /// carries of the block resolved at once by carry-lookahead on the generate and
    /// propagate bits, ((G << 1 | carry-in) + P) ^ P.
    public static func add(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        carryIn: UInt64 = 0
    ) -> UInt64 {
        let n = z.count
        precondition(x.count == n && y.count == n, "add: lengths differ")
        precondition(carryIn <= 1, "add: carryIn must be 0 or 1")
        guard n > 0 else { return carryIn }
        let zp = UnsafeMutableRawPointer(z.baseAddress!), xp = UnsafeRawPointer(x.baseAddress!)
        let yp = UnsafeRawPointer(y.baseAddress!)
        var carry = carryIn
        var i = 0
        while i + 4 <= n {
            let a = load(xp, 8 * i, as: SIMD4<UInt64>.self), b = load(yp, 8 * i, as: SIMD4<UInt64>.self)
            let sum = a &+ b
            let generate = bits(sum .< a), propagate = bits(sum .== SIMD4(repeating: .max))
            let carries = (((generate &<< 1) | carry) &+ propagate) ^ propagate
            zp.storeBytes(of: sum &+ lanes(carries), toByteOffset: 8 * i, as: SIMD4<UInt64>.self)
            carry = carries &>> 4
            i += 4
        }
        if i < n {
            carry = BigNum.Kernels.Scalar.add(
                UnsafeMutableBufferPointer(rebasing: z[i...]), UnsafeBufferPointer(rebasing: x[i...]),
                UnsafeBufferPointer(rebasing: y[i...]), carryIn: carry)
        }
        return carry
    }

    /// Same contract as `Scalar.subtract`; borrow-lookahead as in `add`.
    public static func subtract(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        borrowIn: UInt64 = 0
    ) -> UInt64 {
        let n = z.count
        precondition(x.count == n && y.count == n, "subtract: lengths differ")
        precondition(borrowIn <= 1, "subtract: borrowIn must be 0 or 1")
        guard n > 0 else { return borrowIn }
        let zp = UnsafeMutableRawPointer(z.baseAddress!), xp = UnsafeRawPointer(x.baseAddress!)
        let yp = UnsafeRawPointer(y.baseAddress!)
        var borrow = borrowIn
        var i = 0
        while i + 4 <= n {
            let a = load(xp, 8 * i, as: SIMD4<UInt64>.self), b = load(yp, 8 * i, as: SIMD4<UInt64>.self)
            let difference = a &- b
            let generate = bits(a .< b), propagate = bits(difference .== SIMD4(repeating: 0))
            let borrows = (((generate &<< 1) | borrow) &+ propagate) ^ propagate
            zp.storeBytes(of: difference &- lanes(borrows), toByteOffset: 8 * i, as: SIMD4<UInt64>.self)
            borrow = borrows &>> 4
            i += 4
        }
        if i < n {
            borrow = BigNum.Kernels.Scalar.subtract(
                UnsafeMutableBufferPointer(rebasing: z[i...]), UnsafeBufferPointer(rebasing: x[i...]),
                UnsafeBufferPointer(rebasing: y[i...]), borrowIn: borrow)
        }
        return borrow
    }

    /// Same contract as `Scalar.shiftLeft`. Four limbs at a time, top down.
    public static func shiftLeft(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        let n = z.count
        precondition(x.count == n, "shiftLeft: lengths differ")
        precondition(shift >= 0, "shiftLeft: negative shift")
        guard n > 0 else { return }
        let limbShift = min(shift / 64, n), bitShift = UInt64(shift % 64)
        let zp = UnsafeMutableRawPointer(z.baseAddress!), xp = UnsafeRawPointer(x.baseAddress!)
        let left = SIMD4(repeating: bitShift), right = SIMD4(repeating: (64 &- bitShift) & 63)
        let keepCarried = SIMD4<UInt64>(repeating: bitShift == 0 ? 0 : .max)
        // Vector blocks write z[i-3...i] from x[i-3-limbShift-1 ... i-limbShift]: all
        // source indices must be ≥ 0, so the blocks stop at i - 4 - limbShift ≥ 0.
        var i = n - 1
        while i - 4 - limbShift >= 0 {
            let source = i - 3 - limbShift
            let high = load(xp, 8 * source, as: SIMD4<UInt64>.self)
            let low = load(xp, 8 * (source - 1), as: SIMD4<UInt64>.self)
            let limbs = (high &<< left) | ((low &>> right) & keepCarried)
            zp.storeBytes(of: limbs, toByteOffset: 8 * (i - 3), as: SIMD4<UInt64>.self)
            i -= 4
        }
        // The rest, z[0...i], in scalar steps (the same as Scalar.shiftLeft).
        let z = z.baseAddress!, x = x.baseAddress!
        while i >= limbShift {
            let source = i - limbShift
            var limb = x[source] &<< bitShift
            if bitShift != 0 && source > 0 { limb |= x[source - 1] &>> (64 - bitShift) }
            z[i] = limb
            i -= 1
        }
        for j in 0..<limbShift { z[j] = 0 }
    }

    /// Same contract as `Scalar.shiftRight`. Four limbs at a time, bottom up.
    public static func shiftRight(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        let n = z.count
        precondition(x.count == n, "shiftRight: lengths differ")
        precondition(shift >= 0, "shiftRight: negative shift")
        guard n > 0 else { return }
        let limbShift = min(shift / 64, n), bitShift = UInt64(shift % 64)
        let zp = UnsafeMutableRawPointer(z.baseAddress!), xp = UnsafeRawPointer(x.baseAddress!)
        let right = SIMD4(repeating: bitShift), left = SIMD4(repeating: (64 &- bitShift) & 63)
        let keepCarried = SIMD4<UInt64>(repeating: bitShift == 0 ? 0 : .max)
        // Vector blocks write z[i...i+3] from x[i+limbShift ... i+limbShift+4].
        var i = 0
        while i + limbShift + 4 < n {
            let low = load(xp, 8 * (i + limbShift), as: SIMD4<UInt64>.self)
            let high = load(xp, 8 * (i + limbShift + 1), as: SIMD4<UInt64>.self)
            let limbs = (low &>> right) | ((high &<< left) & keepCarried)
            zp.storeBytes(of: limbs, toByteOffset: 8 * i, as: SIMD4<UInt64>.self)
            i += 4
        }
        let z = z.baseAddress!, x = x.baseAddress!
        while i < n - limbShift {
            let source = i + limbShift
            var limb = x[source] &>> bitShift
            if bitShift != 0 && source + 1 < n { limb |= x[source + 1] &<< (64 - bitShift) }
            z[i] = limb
            i += 1
        }
        for j in (n - limbShift)..<n { z[j] = 0 }
    }

    /// Same contract as `Scalar.multiply`. Product scanning over 32-bit words, eight
    /// output columns at a time: for each word x_i, the eight products x_i·y[k-i...]
    /// are one SIMD8 multiply, their low and high halves summed into two SIMD8
    /// accumulators that stay in registers; carries are resolved once per block.
    public static func multiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>
    ) {
        let m = x.count, n = y.count
        precondition(m >= 1 && n >= 1 && z.count == m + n, "multiply: z.count must be x.count + y.count")
        let xWords = 2 * m, yWords = 2 * n, columns = 2 * (m + n)
        let xp = UnsafeRawPointer(x.baseAddress!), zp = UnsafeMutableRawPointer(z.baseAddress!)
        // y's words with eight zero words on either side, so every window of eight is in bounds.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: yWords + 16) { padded in
            let padded = padded.baseAddress!
            padded.initialize(repeating: 0, count: 8)
            UnsafeMutableRawPointer(padded + 8).copyMemory(from: y.baseAddress!, byteCount: 8 * n)
            (padded + 8 + yWords).initialize(repeating: 0, count: 8)
            let yp = UnsafeRawPointer(padded + 8)
            var carry: UInt64 = 0, previousHigh: UInt64 = 0
            var k0 = 0
            while k0 < columns {
                var lowSums = SIMD8<UInt64>(), highSums = SIMD8<UInt64>()
                for i in max(0, k0 - yWords + 1)...min(xWords - 1, k0 + 7) {
                    let xi = SIMD8(repeating: UInt64(xp.load(fromByteOffset: 4 * i, as: UInt32.self)))
                    let window = load(yp, 4 * (k0 - i), as: SIMD8<UInt32>.self)
                    let products = SIMD8<UInt64>(truncatingIfNeeded: window) &* xi
                    lowSums &+= products & low32
                    highSums &+= products &>> 32
                }
                for c in 0..<min(8, columns - k0) {
                    let column = lowSums[c] &+ previousHigh &+ carry
                    zp.storeBytes(of: UInt32(truncatingIfNeeded: column), toByteOffset: 4 * (k0 + c), as: UInt32.self)
                    carry = column &>> 32
                    previousHigh = highSums[c]
                }
                k0 += 8
            }
        }
    }

    /// Same contract as `Scalar.montgomeryMultiply`. CIOS over 32-bit words with the
    /// two multiply-accumulate chains of a row (x·y_i and q·m) in alternate lanes:
    /// x and m are interleaved once per call, so one SIMD8 multiply by (y_i, q, y_i,
    /// q, …) advances both chains by four words. The running sum stays redundant —
    /// each column a pair of 64-bit lane sums, no carries between columns — and only
    /// the exiting column's carry is resolved per row; the 32-bit quotient digit q
    /// depends only on the low word of column 0, which the redundant form keeps exact.
    /// Row growth is below 2^33 per column, so 2^31 rows cannot overflow.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && y.count == n && z.count == n, "montgomeryMultiply: lengths differ")
        let words = 2 * n
        // Workspace, in limbs: pairs (T) for columns −1 ..< words+8, interleaved (x, m)
        // word pairs for words+8 columns, then the normalized result (n + 1 limbs).
        let pairLimbs = 2 * (words + 9), interleavedLimbs = words + 8
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: pairLimbs + interleavedLimbs + n + 1) { space in
            let sums = space.baseAddress!
            sums.initialize(repeating: 0, count: pairLimbs)
            let interleaved = UnsafeMutableRawPointer(sums + pairLimbs)
            let result = sums + pairLimbs + interleavedLimbs
            let xp = UnsafeRawPointer(x.baseAddress!), yp = UnsafeRawPointer(y.baseAddress!)
            let mp = UnsafeRawPointer(m.baseAddress!)
            for j in 0..<words {
                interleaved.storeBytes(of: xp.load(fromByteOffset: 4 * j, as: UInt32.self), toByteOffset: 8 * j, as: UInt32.self)
                interleaved.storeBytes(of: mp.load(fromByteOffset: 4 * j, as: UInt32.self), toByteOffset: 8 * j + 4, as: UInt32.self)
            }
            for j in words..<(words + 8) { interleaved.storeBytes(of: 0, toByteOffset: 8 * j, as: UInt64.self) }
            // Column k's pair lives at limbs 2(k+1), 2(k+1)+1: column −1 receives the
            // exiting column of each row.
            let column = UnsafeMutableRawPointer(sums + 2)
            let x0 = UInt64(xp.load(as: UInt32.self)), m0inv32 = UInt32(truncatingIfNeeded: m0inv)
            for i in 0..<words {
                let yi = yp.load(fromByteOffset: 4 * i, as: UInt32.self)
                let low0 = column.load(as: UInt64.self) &+ column.load(fromByteOffset: 8, as: UInt64.self)
                let q = UInt32(truncatingIfNeeded: low0 &+ x0 &* UInt64(yi)) &* m0inv32
                let pair = SIMD2<UInt64>(UInt64(yi), UInt64(q))
                let multiplier = SIMD8(lowHalf: SIMD4(lowHalf: pair, highHalf: pair), highHalf: SIMD4(lowHalf: pair, highHalf: pair))
                var previousHigh = SIMD8<UInt64>()
                var j = 0
                while j <= words {
                    let operands = load(interleaved, 8 * j, as: SIMD8<UInt32>.self)
                    let products = SIMD8<UInt64>(truncatingIfNeeded: operands) &* multiplier
                    let high = products &>> 32
                    // Column j+c−1 takes the low halves of column j+c and the high
                    // halves of column j+c−1.
                    let carried = SIMD8(previousHigh[6], previousHigh[7], high[0], high[1], high[2], high[3], high[4], high[5])
                    let current = load(column, 16 * j, as: SIMD8<UInt64>.self)
                    column.storeBytes(of: current &+ (products & low32) &+ carried, toByteOffset: 16 * (j - 1), as: SIMD8<UInt64>.self)
                    previousHigh = high
                    j += 4
                }
                // The exiting column is ≡ 0 mod 2^32 by the choice of q; carry its rest.
                let exiting = column.load(fromByteOffset: -16, as: UInt64.self) &+ column.load(fromByteOffset: -8, as: UInt64.self)
                column.storeBytes(of: column.load(as: UInt64.self) &+ (exiting &>> 32), as: UInt64.self)
            }
            // Normalize the pairs into words (< 2m), then subtract m once if needed.
            let resultWords = UnsafeMutableRawPointer(result)
            var carry: UInt64 = 0
            for k in 0..<words {
                let sum = column.load(fromByteOffset: 16 * k, as: UInt64.self)
                    &+ column.load(fromByteOffset: 16 * k + 8, as: UInt64.self) &+ carry
                resultWords.storeBytes(of: UInt32(truncatingIfNeeded: sum), toByteOffset: 4 * k, as: UInt32.self)
                carry = sum &>> 32
            }
            result[n] = carry
            finalSubtract(z.baseAddress!, result, m.baseAddress!, n)
        }
    }

    /// Same contract as `Scalar.montgomerySquare`: `montgomeryMultiply(z, x, x)`.
    /// (Halving the products needs the doubled cross terms, which does not fit the
    /// two-chain lane layout; the square costs what a product does on this path.)
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        montgomeryMultiply(z, x, x, modulus: m, m0inv: m0inv)
    }
}
