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

    /// z = x · y · 2^(−64·n) mod m (Montgomery multiplication, product scanning:
    /// Koç et al.'s FIPS). Column k of x·y + q·m is summed in a three-limb
    /// accumulator — each product added in one `ColumnAccumulator.add`, nothing
    /// stored between products — and the quotient digit q_k is chosen when column k
    /// is complete, which zeroes it; columns n ..< 2n are the result.
    /// Lengths: x, y, m, z all of count n ≥ 1. `m` odd, x < m, y < m — or, more
    /// generally, x·y < 2^(64·n)·m, which keeps the sum before the final subtraction
    /// below 2m (`MontgomeryContext.reduce` multiplies chunks x < 2^(64·n) by y < m);
    /// `m0inv` == −m[0]^(−1) mod 2^64 (`montgomeryInverse(m[0])`). Result z < m.
    /// z may alias x and/or y.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && y.count == n && z.count == n, "montgomeryMultiply: lengths differ")
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * n + 1) { space in
            // q[0..<n] (quotient digits), then t[0...n] (the result before the final subtraction).
            let q = space.baseAddress!, t = q + n
            let x = x.baseAddress!, y = y.baseAddress!, m = m.baseAddress!
            var accumulator = ColumnAccumulator()
            for k in 0..<n {
                var i = 0
                while i < k {
                    accumulator.add(x[i], y[k &- i])
                    accumulator.add(q[i], m[k &- i])
                    i &+= 1
                }
                accumulator.add(x[k], y[0])
                q[k] = accumulator.quotientDigit(m0inv: m0inv, m0: m[0])
                _ = accumulator.shift()
            }
            for k in n..<(2 * n) {
                var i = k &- n &+ 1
                while i < n {
                    accumulator.add(x[i], y[k &- i])
                    accumulator.add(q[i], m[k &- i])
                    i &+= 1
                }
                t[k &- n] = accumulator.shift()
            }
            t[n] = accumulator.low
            finalSubtract(z.baseAddress!, t, m, n)
        }
    }

    /// z = x² · 2^(−64·n) mod m: `montgomeryMultiply`'s column scan with each
    /// off-diagonal product x_i·x_j (i < j) computed once and doubled per column.
    /// Same contract as `montgomeryMultiply` with y = x. z may alias x.
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && z.count == n, "montgomerySquare: lengths differ")
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * n + 1) { space in
            let q = space.baseAddress!, t = q + n
            let x = x.baseAddress!, m = m.baseAddress!
            var accumulator = ColumnAccumulator()
            /// Adds column k < 2n − 1 of x²: the products x_i·x_j with i + j = k.
            @inline(__always) func addSquareColumn(_ k: Int) {
                var i = k < n ? 0 : k &- n &+ 1
                var j = k &- i
                var cross = ColumnAccumulator()
                while i &+ 2 < j {
                    cross.add(x[i], x[j])
                    cross.add(x[i &+ 1], x[j &- 1])
                    i &+= 2
                    j &-= 2
                }
                if i < j {
                    cross.add(x[i], x[j])
                    i &+= 1
                    j &-= 1
                }
                accumulator.addTwice(cross)
                if i == j { accumulator.add(x[i], x[i]) }
            }
            for k in 0..<n {
                addSquareColumn(k)
                var i = 0
                while i &+ 1 < k {
                    accumulator.add(q[i], m[k &- i])
                    accumulator.add(q[i &+ 1], m[k &- i &- 1])
                    i &+= 2
                }
                if i < k { accumulator.add(q[i], m[k &- i]) }
                q[k] = accumulator.quotientDigit(m0inv: m0inv, m0: m[0])
                _ = accumulator.shift()
            }
            for k in n..<(2 * n) {
                if k < 2 * n &- 1 { addSquareColumn(k) }
                var i = k &- n &+ 1
                while i &+ 1 < n {
                    accumulator.add(q[i], m[k &- i])
                    accumulator.add(q[i &+ 1], m[k &- i &- 1])
                    i &+= 2
                }
                if i < n { accumulator.add(q[i], m[k &- i]) }
                t[k &- n] = accumulator.shift()
            }
            t[n] = accumulator.low
            finalSubtract(z.baseAddress!, t, m, n)
        }
    }
}

/// A column sum of the product-scanning kernels: 192 bits as three limbs. A column
/// of an n-limb product holds at most 2n + 1 products below 2^128 plus the carry of
/// the column before, far inside 2^192 for any n a buffer can have.
struct ColumnAccumulator {
    var low: UInt64 = 0, middle: UInt64 = 0, high: UInt64 = 0

    /// self += a·b. The product's high half is at most 2^64 − 2, so adding the low
    /// half's carry to it cannot overflow.
    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        let (productHigh, productLow) = a.multipliedFullWidth(by: b)
        let (sumLow, carryLow) = low.addingReportingOverflow(productLow)
        let (sumMiddle, carryMiddle) = middle.addingReportingOverflow(productHigh &+ (carryLow ? 1 : 0))
        low = sumLow
        middle = sumMiddle
        high &+= carryMiddle ? 1 : 0
    }

    /// self += 2·other, for other < 2^191 (a column of cross products is).
    @inline(__always)
    mutating func addTwice(_ other: ColumnAccumulator) {
        let doubledLow = other.low &<< 1
        let doubledMiddle = (other.middle &<< 1) | (other.low &>> 63)
        let doubledHigh = (other.high &<< 1) | (other.middle &>> 63)
        let (sumLow, carryLow) = low.addingReportingOverflow(doubledLow)
        let (sumMiddle, carryMiddle) = middle.addingReportingOverflow(doubledMiddle)
        let (sumMiddle2, carryMiddle2) = sumMiddle.addingReportingOverflow(carryLow ? 1 : 0)
        low = sumLow
        middle = sumMiddle2
        high = high &+ doubledHigh &+ (carryMiddle ? 1 : 0) &+ (carryMiddle2 ? 1 : 0)
    }

    /// Chooses the Montgomery quotient digit q = low·m0inv and adds q·m0, which
    /// makes the low limb zero; returns q.
    @inline(__always)
    mutating func quotientDigit(m0inv: UInt64, m0: UInt64) -> UInt64 {
        let q = low &* m0inv
        add(q, m0)
        return q
    }

    /// Returns the low limb and divides by 2^64: the next column's starting sum.
    @inline(__always)
    mutating func shift() -> UInt64 {
        let out = low
        low = middle
        middle = high
        high = 0
        return out
    }
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
