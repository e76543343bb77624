// The reference kernels: plain loops, one limb or word at a time. Each has a twin in
// SIMDKernels.swift with the same contract; tests and the fuzzer hold them equal.
//
// Contract conventions (shared by both files):
//   - Numbers are little-endian arrays of limbs: element 0 is least significant.
//   - "z may alias x" means z.baseAddress == x.baseAddress with equal counts; any
//     other overlap between an output and an input is a contract violation.
//   - Lengths are checked with `precondition`; values are never checked.
//   - No kernel allocates on the heap. Kernels needing temporaries take them from
//     the stack (`withUnsafeTemporaryAllocation`, O(count) limbs), once per call.

extension BigNum.Kernels {
    /// Scalar implementations. See the contract conventions in ScalarKernels.swift.
    public enum Scalar {}
}

/// `x·y + a + b` as (high, low); never overflows 128 bits.
@inline(__always)
func multiplyAdd(_ x: UInt64, _ y: UInt64, _ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
    let (high, low) = x.multipliedFullWidth(by: y)
    let (low1, carry1) = low.addingReportingOverflow(a)
    let (low2, carry2) = low1.addingReportingOverflow(b)
    return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), low2)
}

extension BigNum.Kernels.Scalar {
    /// z = x + y + carryIn mod 2^(64·n); returns the carry out (0 or 1).
    /// Lengths: x.count == y.count == z.count == n ≥ 0; carryIn is 0 or 1.
    /// z may alias x and/or y.
    public static func add(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        carryIn: UInt64 = 0
    ) -> UInt64 {
        let n = z.count
        precondition(x.count == n && y.count == n, "add: lengths differ")
        precondition(carryIn <= 1, "add: carryIn must be 0 or 1")
        guard n > 0 else { return carryIn }
        let z = z.baseAddress!, x = x.baseAddress!, y = y.baseAddress!
        var carry = carryIn
        for i in 0..<n {
            let (s1, c1) = x[i].addingReportingOverflow(y[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            z[i] = s2
            carry = (c1 || c2) ? 1 : 0
        }
        return carry
    }

    /// z = x − y − borrowIn mod 2^(64·n); returns the borrow out (0 or 1).
    /// Lengths: x.count == y.count == z.count == n ≥ 0; borrowIn is 0 or 1.
    /// z may alias x and/or y.
    public static func subtract(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        borrowIn: UInt64 = 0
    ) -> UInt64 {
        let n = z.count
        precondition(x.count == n && y.count == n, "subtract: lengths differ")
        precondition(borrowIn <= 1, "subtract: borrowIn must be 0 or 1")
        guard n > 0 else { return borrowIn }
        let z = z.baseAddress!, x = x.baseAddress!, y = y.baseAddress!
        var borrow = borrowIn
        for i in 0..<n {
            let (d1, b1) = x[i].subtractingReportingOverflow(y[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            z[i] = d2
            borrow = (b1 || b2) ? 1 : 0
        }
        return borrow
    }

    /// z = (x << shift) mod 2^(64·n), for any shift ≥ 0 (shift ≥ 64·n gives zero).
    /// Lengths: x.count == z.count == n ≥ 0. z may alias x.
    public static func shiftLeft(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        let n = z.count
        precondition(x.count == n, "shiftLeft: lengths differ")
        precondition(shift >= 0, "shiftLeft: negative shift")
        guard n > 0 else { return }
        let z = z.baseAddress!, x = x.baseAddress!
        let limbShift = min(shift / 64, n), bitShift = UInt64(shift % 64)
        // Top down, so that in-place calls read each limb before it is overwritten.
        var i = n - 1
        while i >= limbShift {
            let source = i - limbShift
            var limb = x[source] &<< bitShift
            if bitShift != 0 && source > 0 { limb |= x[source - 1] &>> (64 - bitShift) }
            z[i] = limb
            i -= 1
        }
        for j in 0..<limbShift { z[j] = 0 }
    }

    /// z = x >> shift, for any shift ≥ 0 (shift ≥ 64·n gives zero).
    /// Lengths: x.count == z.count == n ≥ 0. z may alias x.
    public static func shiftRight(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        let n = z.count
        precondition(x.count == n, "shiftRight: lengths differ")
        precondition(shift >= 0, "shiftRight: negative shift")
        guard n > 0 else { return }
        let z = z.baseAddress!, x = x.baseAddress!
        let limbShift = min(shift / 64, n), bitShift = UInt64(shift % 64)
        // Bottom up, so that in-place calls read each limb before it is overwritten.
        for i in 0..<(n - limbShift) {
            let source = i + limbShift
            var limb = x[source] &>> bitShift
            if bitShift != 0 && source + 1 < n { limb |= x[source + 1] &<< (64 - bitShift) }
            z[i] = limb
        }
        for j in (n - limbShift)..<n { z[j] = 0 }
    }

    /// z = x · y (schoolbook).
    /// Lengths: x.count ≥ 1, y.count ≥ 1, z.count == x.count + y.count.
    /// z must not overlap x or y.
    public static func multiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>
    ) {
        let m = x.count, n = y.count
        precondition(m >= 1 && n >= 1 && z.count == m + n, "multiply: z.count must be x.count + y.count")
        let z = z.baseAddress!, x = x.baseAddress!, y = y.baseAddress!
        var carry: UInt64 = 0
        let y0 = y[0]
        for j in 0..<m {
            (carry, z[j]) = multiplyAdd(x[j], y0, 0, carry)
        }
        z[m] = carry
        for i in 1..<max(n, 1) {
            let yi = y[i]
            carry = 0
            let row = z + i
            for j in 0..<m {
                (carry, row[j]) = multiplyAdd(x[j], yi, row[j], carry)
            }
            row[m] = carry
        }
    }

    /// z = x · y · 2^(−64·n) mod m (Montgomery multiplication, CIOS with the two
    /// multiply-accumulate chains of each row interleaved in one loop).
    /// Lengths: x, y, m, z all of count n ≥ 1. `m` odd, x < m, y < m,
    /// `m0inv` == −m[0]^(−1) mod 2^64 (`montgomeryInverse(m[0])`). Result z < m.
    /// z may alias x and/or y.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && y.count == n && z.count == n, "montgomeryMultiply: lengths differ")
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: n + 1) { t in
            let t = t.baseAddress!, x = x.baseAddress!, y = y.baseAddress!, m = m.baseAddress!
            t.initialize(repeating: 0, count: n + 1)
            let x0 = x[0], m0 = m[0]
            for i in 0..<n {
                let yi = y[i]
                // t = (t + x·yi + q·m) / 2^64, with q chosen so that the division is exact.
                let q = (t[0] &+ x0 &* yi) &* m0inv
                var (c1, s) = multiplyAdd(x0, yi, t[0], 0)
                var (c2, _) = multiplyAdd(q, m0, s, 0)
                for j in 1..<n {
                    (c1, s) = multiplyAdd(x[j], yi, t[j], c1)
                    (c2, t[j - 1]) = multiplyAdd(q, m[j], s, c2)
                }
                let (top, carry1) = t[n].addingReportingOverflow(c1)
                let (top2, carry2) = top.addingReportingOverflow(c2)
                t[n - 1] = top2
                t[n] = (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0)
            }
            finalSubtract(z.baseAddress!, t, m, n)
        }
    }

    /// z = x² · 2^(−64·n) mod m: the square x² (off-diagonal products once, doubled),
    /// then a word-by-word Montgomery reduction. Same contract as `montgomeryMultiply`
    /// with y = x. z may alias x.
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && z.count == n, "montgomerySquare: lengths differ")
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * n + 1) { t in
            let t = t.baseAddress!, x = x.baseAddress!, m = m.baseAddress!
            square(t, x, n)
            t[2 * n] = 0
            montgomeryReduce(t, m, n, m0inv)
            finalSubtract(z.baseAddress!, t + n, m, n)
        }
    }
}

/// t[0..<2n] = x², x of n limbs. Off-diagonal products once, then doubled and the
/// diagonal squares added.
@inline(__always)
func square(_ t: UnsafeMutablePointer<UInt64>, _ x: UnsafePointer<UInt64>, _ n: Int) {
    t.initialize(repeating: 0, count: 2 * n)
    for i in 0..<(n - 1) {
        let xi = x[i]
        var carry: UInt64 = 0
        let row = t + 2 * i + 1
        for j in 0..<(n - 1 - i) {
            (carry, row[j]) = multiplyAdd(x[i + 1 + j], xi, row[j], carry)
        }
        row[n - 1 - i] = carry
    }
    // Double, and add the squares x[i]² on the diagonal.
    var shiftedOut: UInt64 = 0
    var carry = false
    for i in 0..<n {
        let lowLimb = t[2 * i], highLimb = t[2 * i + 1]
        let doubledLow = (lowLimb &<< 1) | shiftedOut
        let doubledHigh = (highLimb &<< 1) | (lowLimb &>> 63)
        shiftedOut = highLimb &>> 63
        let (squareHigh, squareLow) = x[i].multipliedFullWidth(by: x[i])
        let (sumLow, c1) = doubledLow.addingReportingOverflow(squareLow)
        let (sumLow2, c2) = sumLow.addingReportingOverflow(carry ? 1 : 0)
        let (sumHigh, c3) = doubledHigh.addingReportingOverflow(squareHigh)
        let (sumHigh2, c4) = sumHigh.addingReportingOverflow((c1 || c2) ? 1 : 0)
        t[2 * i] = sumLow2
        t[2 * i + 1] = sumHigh2
        carry = c3 || c4
    }
}

/// In place on t[0...2n] (t[2n] is an overflow limb, zero on entry): divides by
/// 2^(64n) modulo m, leaving the result, < 2m, in t[n...2n]. Two rows per pass: the
/// second row's quotient digit is known after two products of the first, so both
/// rows' multiply-accumulate chains run interleaved in one loop, as in CIOS.
@inline(__always)
func montgomeryReduce(_ t: UnsafeMutablePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int, _ m0inv: UInt64) {
    var pending: UInt64 = 0  // carry into limb i + n
    var i = 0
    if n >= 2 {
        let m0 = m[0], m1 = m[1]
        while i + 2 <= n {
            let row = t + i
            let q0 = row[0] &* m0inv
            let (carry0, _) = multiplyAdd(q0, m0, row[0], 0)
            let (_, next) = multiplyAdd(q0, m1, row[1], carry0)
            let q1 = next &* m0inv
            var (c0, _) = multiplyAdd(q0, m0, row[0], 0)
            var c1: UInt64 = 0, s: UInt64 = 0
            for j in 1..<n {
                (c0, s) = multiplyAdd(q0, m[j], row[j], c0)
                (c1, row[j]) = multiplyAdd(q1, m[j - 1], s, c1)
            }
            let (top, carryA) = row[n].addingReportingOverflow(c0)
            let (top2, carryB) = top.addingReportingOverflow(pending)
            (c1, row[n]) = multiplyAdd(q1, m[n - 1], top2, c1)
            let (above, carryC) = row[n + 1].addingReportingOverflow(c1)
            let (above2, carryD) = above.addingReportingOverflow((carryA || carryB) ? 1 : 0)
            row[n + 1] = above2
            pending = (carryC || carryD) ? 1 : 0
            i += 2
        }
    }
    while i < n {
        let q = t[i] &* m0inv
        var carry: UInt64 = 0
        let row = t + i
        for j in 0..<n {
            (carry, row[j]) = multiplyAdd(q, m[j], row[j], carry)
        }
        let (sum, c1) = row[n].addingReportingOverflow(carry)
        let (sum2, c2) = sum.addingReportingOverflow(pending)
        row[n] = sum2
        pending = (c1 || c2) ? 1 : 0
        i += 1
    }
    t[2 * n] = pending
}

/// z = t − m if t ≥ m else t, for t[0...n] < 2m (t[n] is the overflow limb).
/// Branch-free selection is not needed (public data), but keeps the loop simple.
@inline(__always)
func finalSubtract(_ z: UnsafeMutablePointer<UInt64>, _ t: UnsafeMutablePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int) {
    var borrow: UInt64 = 0
    // Compute t − m into z, then keep it unless it borrowed past the overflow limb.
    for i in 0..<n {
        let (d1, b1) = t[i].subtractingReportingOverflow(m[i])
        let (d2, b2) = d1.subtractingReportingOverflow(borrow)
        z[i] = d2
        borrow = (b1 || b2) ? 1 : 0
    }
    if t[n] < borrow {
        // t < m: the subtraction went negative, keep t.
        for i in 0..<n { z[i] = t[i] }
    }
}

extension BigNum {
    /// −a^(−1) mod 2^64 for odd a: the `m0inv` argument of the Montgomery kernels.
    /// Newton's iteration from a itself (a·a ≡ 1 mod 8), doubling the correct bits
    /// each step: 3 → 6 → 12 → 24 → 48 → 96.
    public static func montgomeryInverse(_ a: UInt64) -> UInt64 {
        precondition(a & 1 == 1, "montgomeryInverse: even argument")
        var inverse = a  // a·a ≡ 1 mod 8
        for _ in 0..<5 { inverse = inverse &* (2 &- a &* inverse) }
        return 0 &- inverse
    }
}
