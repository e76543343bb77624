// The verifier's API: an odd modulus of up to 4096 bits with its Montgomery
// constants computed once, and s^e mod n on big-endian bytes.
//
//     let key = try BigNum.MontgomeryContext(modulus: modulusBytes)  // once per key
//     let em = try key.power(signatureBytes, exponent: [0x01, 0x00, 0x01])
//     // em.count == key.byteCount, big-endian, leading zeros kept
//
// Exponentiation: left-to-right binary for short exponents (e = 65537 is 16
// squarings and 1 multiplication; the last multiplication by the plain base leaves
// the result already out of Montgomery form), a fixed window of 2..6 bits for long
// ones, whichever needs fewer multiplications. Timing depends on the exponent and
// the operands: this is for public data (verification), not for private keys.

import CBigNumSIMD

extension BigNum {
    /// An odd modulus m (3 ≤ m < 2^4096) with its Montgomery constants: n = ⌈bits/64⌉
    /// limbs, R = 2^(64n), m0inv = −m^(−1) mod 2^64 and R² mod m. Immutable and
    /// Sendable: build it once per key and share it.
    public struct MontgomeryContext: Sendable {
        /// Significant bits of the modulus.
        public let modulusBits: Int
        /// Bytes of the modulus, ⌈modulusBits/8⌉: the length of every result.
        public let byteCount: Int
        /// The modulus, little-endian limbs.
        public let modulus: [UInt64]
        /// −modulus^(−1) mod 2^64.
        public let m0inv: UInt64
        /// R² mod m: multiplying by it (Montgomery) enters Montgomery form.
        public let rSquared: [UInt64]

        /// The number of UInt64 limbs of every operand.
        public var limbCount: Int { modulus.count }

        /// Builds the context from the big-endian modulus bytes; leading zero bytes
        /// are ignored. Throws `.modulusTooSmall` (0 or 1), `.modulusTooLarge`
        /// (over `BigNum.maximumModulusBits`) or `.modulusEven`.
        public init<Bytes: Collection<UInt8>>(modulus bytes: Bytes) throws(BigNum.Error) {
            let significant = Array(bytes.drop(while: { $0 == 0 }))
            guard let top = significant.first else { throw .modulusTooSmall }
            let bits = 8 * (significant.count - 1) + (8 - top.leadingZeroBitCount)
            guard bits <= BigNum.maximumModulusBits else { throw .modulusTooLarge(bits: bits) }
            guard significant.last! & 1 == 1 else { throw .modulusEven }
            guard bits >= 2 else { throw .modulusTooSmall }
            let n = (bits + 63) / 64
            var modulus = [UInt64](repeating: 0, count: n)
            let fits = modulus.withUnsafeMutableBufferPointer { z in
                significant.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) }
            }
            precondition(fits)
            self.modulusBits = bits
            self.byteCount = significant.count
            self.modulus = modulus
            self.m0inv = BigNum.montgomeryInverse(modulus[0])
            self.rSquared = Self.computeRSquared(modulus, bits: bits)
        }

        /// R² mod m by schoolbook division one limb at a time, on the modulus shifted
        /// up by s bits so that its top bit is set (m' = m·2^s, s = 64n − bits): start
        /// from R mod m' = R − m', multiply by 2^64 n times, each time dividing by m'
        /// with a quotient estimated from the top limbs (Knuth's algorithm D: the
        /// estimate exceeds the quotient by at most 2, corrected by adding m' back),
        /// then double s times: that is R²·2^s mod m', which is (R² mod m)·2^s. n rows
        /// of n products and one 128/64-bit division each: at 2048 bits about a third
        /// of the former doublings-then-six-Montgomery-squarings, and the same on every
        /// path (no kernel is involved).
        private static func computeRSquared(_ m: [UInt64], bits: Int) -> [UInt64] {
            let n = m.count, shift = 64 * n - bits
            var normalized = [UInt64](repeating: 0, count: n)
            var x = [UInt64](repeating: 0, count: n)
            normalized.withUnsafeMutableBufferPointer { d in
                m.withUnsafeBufferPointer { BigNum.Kernels.Scalar.shiftLeft(d, $0, by: shift) }
                x.withUnsafeMutableBufferPointer { x in
                    let d = UnsafeBufferPointer(d), top = d[n - 1]
                    // R mod m' = R − m' (m' ≥ R/2): the two's complement of m'.
                    _ = BigNum.Kernels.Scalar.subtract(x, UnsafeBufferPointer(x), d)
                    for _ in 0..<n {
                        // (high, x) = x·2^64; q̂ = min(⌊(high, x[n−1]) / top⌋, 2^64 − 1).
                        let high = x[n - 1]
                        for k in stride(from: n - 1, to: 0, by: -1) { x[k] = x[k - 1] }
                        x[0] = 0
                        let q = high >= top ? UInt64.max : top.dividingFullWidth((high, x[n - 1])).quotient
                        // (high, x) −= q̂·m'.
                        var carry: UInt64 = 0, borrow: UInt64 = 0
                        for k in 0..<n {
                            let product = multiplyAdd(q, d[k], carry, 0)  // q̂·m'[k] + carry
                            carry = product.high
                            let low = product.low
                            let (d1, b1) = x[k].subtractingReportingOverflow(low)
                            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                            x[k] = d2
                            borrow = (b1 || b2) ? 1 : 0
                        }
                        var remainderHigh = high &- carry &- borrow
                        while remainderHigh != 0 {  // negative: q̂ was 1 or 2 too large
                            remainderHigh &+= BigNum.Kernels.Scalar.add(x, UnsafeBufferPointer(x), d)
                        }
                    }
                    // ·2^s by doubling: 2x, less m' when that is ≥ m'.
                    var scratch = [UInt64](repeating: 0, count: n)
                    scratch.withUnsafeMutableBufferPointer { t in
                        for _ in 0..<shift {
                            let carry = BigNum.Kernels.Scalar.add(x, UnsafeBufferPointer(x), UnsafeBufferPointer(x))
                            let borrow = BigNum.Kernels.Scalar.subtract(t, UnsafeBufferPointer(x), d)
                            if carry == 1 || borrow == 0 { _ = x.update(fromContentsOf: t) }
                        }
                    }
                    BigNum.Kernels.Scalar.shiftRight(x, UnsafeBufferPointer(x), by: shift)
                }
            }
            return x
        }

        /// base^exponent mod m as `byteCount` big-endian bytes. `base` and `exponent`
        /// are big-endian, any length, leading zeros ignored. Throws
        /// `.baseNotReduced` if base ≥ m and `.exponentTooLarge` if the exponent has
        /// more significant bytes than the modulus. exponent 0 gives 1.
        /// `path` pins the kernels' path (nil: `Dispatch`).
        public func power<Base: Collection<UInt8>, Exponent: Collection<UInt8>>(
            _ base: Base, exponent: Exponent, path: BigNum.Path? = nil
        ) throws(BigNum.Error) -> [UInt8] {
            let n = limbCount
            let exponentBytes = Array(exponent.drop(while: { $0 == 0 }))
            guard exponentBytes.count <= byteCount else { throw .exponentTooLarge(bytes: exponentBytes.count) }
            var exponentLimbs = [UInt64](repeating: 0, count: max(1, (exponentBytes.count + 7) / 8))
            _ = exponentLimbs.withUnsafeMutableBufferPointer { z in
                exponentBytes.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) }
            }
            var result = [UInt8](repeating: 0, count: byteCount)
            let baseBytes = Array(base)
            let reduced: Bool = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: n) { b in
                guard baseBytes.withUnsafeBytes({ BigNum.Kernels.loadBigEndian(b, from: $0) }),
                      lessThanModulus(UnsafeBufferPointer(b)) else { return false }
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: n) { out in
                    exponentLimbs.withUnsafeBufferPointer { e in
                        power(out, UnsafeBufferPointer(b), exponent: e, path: path)
                    }
                    let fits = result.withUnsafeMutableBytes { BigNum.Kernels.storeBigEndian($0, from: UnsafeBufferPointer(out)) }
                    precondition(fits)
                }
                return true
            }
            guard reduced else { throw .baseNotReduced }
            return result
        }

        /// z = x^e mod m on limbs: x of `limbCount` limbs and < m, e any limbs
        /// (little-endian), z of `limbCount` limbs; z must not overlap x or e.
        /// Kernel-level twin of `power(_:exponent:path:)`, no checks beyond lengths.
        /// `path` pins the kernels' path (nil: `Dispatch`, per kernel and size).
        public func power(
            _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
            exponent e: UnsafeBufferPointer<UInt64>, path: BigNum.Path? = nil
        ) {
            let n = limbCount
            precondition(z.count == n && x.count == n, "power: operands must have limbCount limbs")
            var exponentBits = 0
            for i in stride(from: e.count - 1, through: 0, by: -1) where e[i] != 0 {
                exponentBits = 64 * i + 64 - e[i].leadingZeroBitCount
                break
            }
            @inline(__always) func bit(_ i: Int) -> Bool { (e[i / 64] >> UInt64(i % 64)) & 1 == 1 }
            guard exponentBits > 0 else {
                // x^0 = 1 (m ≥ 3).
                z.update(repeating: 0)
                z[0] = 1
                return
            }
            let ones = (0..<exponentBits).reduce(0) { $0 + (bit($1) ? 1 : 0) }
            // Multiplications beyond the squarings: binary needs ones − 1; a window of
            // w bits needs 2^w − 2 for the table and one per nonzero digit (at most ⌈bits/w⌉).
            var window = 1, cost = ones - 1
            for w in 2...6 {
                let windowCost = (1 << w) - 2 + (exponentBits + w - 1) / w
                if windowCost < cost { (window, cost) = (w, windowCost) }
            }
            // The chain's level (Dispatch's `power` row); where that is scalar or sse2,
            // each product takes its own kernel's dispatched path.
            let chainPath = path ?? BigNum.Dispatch.path(.power, size: n)
            let perKernel = path == nil && (chainPath == .scalar || chainPath == .sse2)
            let multiplyPath = perKernel ? BigNum.Dispatch.path(.montgomeryMultiply, size: n) : chainPath
            let squarePath = perKernel ? BigNum.Dispatch.path(.montgomerySquare, size: n) : chainPath
            let slots = window == 1 ? 1 : 1 << window
            let chain = ExponentChain(bits: exponentBits, window: window, exponent: e)
            if window == 1 && multiplyPath == .adx && squarePath == .adx && n <= BigNum.Kernels.ADX.maximumLimbs {
                // The whole binary chain in C (the same Montgomery products as `ExponentChain`).
                BigNum.Kernels.ADX.checkAvailable()
                let ran = modulus.withUnsafeBufferPointer { m in
                    rSquared.withUnsafeBufferPointer { rr in
                        rf_bn_adx_mont_power_binary(z.baseAddress!, x.baseAddress!, rr.baseAddress!, m.baseAddress!, m0inv, n,
                                                    e.baseAddress!, exponentBits)
                    }
                }
                precondition(ran == 1, "the ADX kernel did not run")
                return
            }
            if multiplyPath.isWide && n <= BigNum.Kernels.Wide.maximumLimbs {
                // Digit form throughout: convert m, R² mod m and x once, and z back at the end.
                let level = multiplyPath
                BigNum.Kernels.Wide.checkLevel(level)
                let w = BigNum.Kernels.Wide.digitCount(limbs: n, level: level)
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: w * (4 + slots)) { space in
                    let md = space.baseAddress!, rrd = md + w, xd = rrd + w, zd = xd + w, table = zd + w
                    modulus.withUnsafeBufferPointer { BigNum.Kernels.Wide.toDigits(md, $0.baseAddress!, limbs: n, level: level) }
                    rSquared.withUnsafeBufferPointer { BigNum.Kernels.Wide.toDigits(rrd, $0.baseAddress!, limbs: n, level: level) }
                    BigNum.Kernels.Wide.toDigits(xd, x.baseAddress!, limbs: n, level: level)
                    let m0inv = m0inv
                    chain.run(z: zd, x: xd, rSquared: rrd, table: table, width: w) { product, a, b in
                        BigNum.Kernels.Wide.multiplyDigits(product, a, b, modulus: md, m0inv: m0inv, limbs: n, level: level)
                    } square: { a in
                        BigNum.Kernels.Wide.multiplyDigits(a, a, a, modulus: md, m0inv: m0inv, limbs: n, level: level)
                    }
                    BigNum.Kernels.Wide.fromDigits(z.baseAddress!, zd, limbs: n, level: level)
                }
                return
            }
            modulus.withUnsafeBufferPointer { m in
                rSquared.withUnsafeBufferPointer { rr in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: n * slots) { table in
                        chain.run(z: z.baseAddress!, x: x.baseAddress!, rSquared: rr.baseAddress!, table: table.baseAddress!, width: n) { product, a, b in
                            BigNum.Kernels.montgomeryMultiply(
                                UnsafeMutableBufferPointer(start: product, count: n), UnsafeBufferPointer(start: a, count: n),
                                UnsafeBufferPointer(start: b, count: n), modulus: m, m0inv: m0inv, path: multiplyPath)
                        } square: { a in
                            let a = UnsafeMutableBufferPointer(start: a, count: n)
                            BigNum.Kernels.montgomerySquare(a, UnsafeBufferPointer(a), modulus: m, m0inv: m0inv, path: squarePath)
                        }
                    }
                }
            }
        }

        /// x < m, for x of limbCount limbs.
        func lessThanModulus(_ x: UnsafeBufferPointer<UInt64>) -> Bool {
            for i in stride(from: limbCount - 1, through: 0, by: -1) where x[i] != modulus[i] {
                return x[i] < modulus[i]
            }
            return false
        }
    }

    /// base^exponent mod modulus, all big-endian; the result has the modulus's byte
    /// length. One-shot form of `MontgomeryContext(modulus:).power(_:exponent:)`:
    /// when one key verifies many signatures, keep the context instead.
    public static func modularExponentiation<Base: Collection<UInt8>, Exponent: Collection<UInt8>, Modulus: Collection<UInt8>>(
        base: Base, exponent: Exponent, modulus: Modulus
    ) throws(BigNum.Error) -> [UInt8] {
        try MontgomeryContext(modulus: modulus).power(base, exponent: exponent)
    }
}

/// The multiplication chain of `MontgomeryContext.power` for one exponent, on operands
/// of `width` UInt64 words in whatever form `multiply` and `square` work on (limbs, or
/// the wide kernels' digits): both forms represent 1 as the word 1 followed by zeros.
private struct ExponentChain {
    let bits: Int, window: Int
    let exponent: UnsafeBufferPointer<UInt64>

    @inline(__always) func bit(_ i: Int) -> Bool { (exponent[i / 64] >> UInt64(i % 64)) & 1 == 1 }

    /// z = x^e from x (reduced), R² mod m and a table of 2^window operands (1 if window == 1).
    /// `multiply(p, a, b)`: p = a·b·R^(−1), p may alias a or b; `square(a)`: a = a²·R^(−1).
    @inline(__always)
    func run(
        z: UnsafeMutablePointer<UInt64>, x: UnsafePointer<UInt64>, rSquared rr: UnsafePointer<UInt64>,
        table: UnsafeMutablePointer<UInt64>, width: Int,
        multiply: (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>) -> Void,
        square: (UnsafeMutablePointer<UInt64>) -> Void
    ) {
        func entry(_ k: Int) -> UnsafeMutablePointer<UInt64> { table + k * width }
        func leaveMontgomeryForm() {
            // z·R^(−1): a Montgomery multiplication by 1.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: width) { one in
                one.update(repeating: 0)
                one[0] = 1
                multiply(z, z, one.baseAddress!)
            }
        }
        if window == 1 {
            // x·R mod m, kept in table slot 0.
            let xR = entry(0)
            multiply(xR, x, rr)
            z.update(from: xR, count: width)
            var inMontgomeryForm = true
            for i in stride(from: bits - 2, through: 0, by: -1) {
                square(z)
                guard bit(i) else { continue }
                if i == 0 {
                    // (x^(e−1)·R)·x·R^(−1) = x^e: out of Montgomery form for free.
                    multiply(z, z, x)
                    inMontgomeryForm = false
                } else {
                    multiply(z, z, xR)
                }
            }
            if inMontgomeryForm { leaveMontgomeryForm() }
            return
        }
        // Table k = x^k·R mod m for k in 1..<2^window (a zero digit multiplies by nothing).
        multiply(entry(1), x, rr)
        for k in 2..<(1 << window) { multiply(entry(k), entry(k - 1), entry(1)) }
        let digits = (bits + window - 1) / window
        func digit(_ d: Int) -> Int {
            var value = 0
            for b in stride(from: window - 1, through: 0, by: -1) {
                let i = d * window + b
                value = value << 1 | (i < bits && bit(i) ? 1 : 0)
            }
            return value
        }
        let top = digit(digits - 1)  // nonzero: it holds the exponent's top bit
        z.update(from: entry(top), count: width)
        for d in stride(from: digits - 2, through: 0, by: -1) {
            for _ in 0..<window { square(z) }
            let k = digit(d)
            if k != 0 { multiply(z, z, entry(k)) }
        }
        leaveMontgomeryForm()
    }
}
