// The fixed-point kernel of the seed note: y = (a .* b >> shift) + c on 2-lane
// vectors (say the real and imaginary parts of a complex number), each lane a
// number of `count` 32-bit words. Stored as `count` SIMD2<UInt32>, least significant
// first: element k holds word k of lane 0 and word k of lane 1.
//
// Contract, both paths:
//   - a.count == b.count == c.count == y.count == count, 1 ≤ count ≤ 4096;
//     0 ≤ shift ≤ 64·count (the product has 64·count bits).
//   - Per lane: y = (⌊a·b / 2^shift⌋ + c) mod 2^(32·count), i.e. keep `shift`
//     fractional bits by truncation, then add c.
//   - Returns per lane 1 if the exact value ⌊a·b / 2^shift⌋ + c did not fit in
//     32·count bits (fixed-point overflow), else 0.
//   - y may alias a, b and/or c. Stack workspace O(count), no heap.

import CBigNumSIMD

extension BigNum.Kernels.Scalar {
    /// See the contract in MulShiftAdd.swift. Per lane: schoolbook rows with 64-bit
    /// multiply-accumulate, then the shift and the addition word by word.
    public static func mulShiftAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
        _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int
    ) -> SIMD2<UInt32> {
        let n = checkMulShiftAddContract(y, a, b, c, shift)
        var overflow = SIMD2<UInt32>()
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * n) { product in
            let product = product.baseAddress!
            let y = UnsafeMutableRawPointer(y.baseAddress!), a = UnsafeRawPointer(a.baseAddress!)
            let b = UnsafeRawPointer(b.baseAddress!), c = UnsafeRawPointer(c.baseAddress!)
            for lane in 0..<2 {
                @inline(__always) func word(_ p: UnsafeRawPointer, _ k: Int) -> UInt32 {
                    p.load(fromByteOffset: 8 * k + 4 * lane, as: UInt32.self)
                }
                product.initialize(repeating: 0, count: 2 * n)
                for i in 0..<n {
                    let ai = UInt64(word(a, i))
                    var carry: UInt64 = 0
                    for j in 0..<n {
                        let t = ai &* UInt64(word(b, j)) &+ UInt64(product[i + j]) &+ carry
                        product[i + j] = UInt32(truncatingIfNeeded: t)
                        carry = t &>> 32
                    }
                    product[i + n] = UInt32(truncatingIfNeeded: carry)
                }
                let wordShift = shift / 32, bitShift = UInt32(shift % 32)
                @inline(__always) func shifted(_ k: Int) -> UInt32 {
                    let source = wordShift + k
                    guard source < 2 * n else { return 0 }
                    var value = product[source] &>> bitShift
                    if bitShift != 0 && source + 1 < 2 * n { value |= product[source + 1] &<< (32 - bitShift) }
                    return value
                }
                var carry: UInt64 = 0
                for k in 0..<n {
                    let sum = UInt64(shifted(k)) &+ UInt64(word(c, k)) &+ carry
                    y.storeBytes(of: UInt32(truncatingIfNeeded: sum), toByteOffset: 8 * k + 4 * lane, as: UInt32.self)
                    carry = sum &>> 32
                }
                var excess = UInt32(truncatingIfNeeded: carry)
                for k in n..<(2 * n) { excess |= shifted(k) }
                overflow[lane] = excess == 0 ? 0 : 1
            }
        }
        return overflow
    }
}

extension BigNum.Kernels.SIMD {
    /// See the contract in MulShiftAdd.swift. Product scanning four columns at a
    /// time for both lanes (a SIMD8 of 4 columns × 2 lanes): each a_i times the window
    /// b[k-i ..< k-i+4] is one SIMD8 multiply, halves summed into accumulators that
    /// stay in registers; carries resolved once per block; shift and add on SIMD2.
    public static func mulShiftAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
        _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int
    ) -> SIMD2<UInt32> {
        let n = checkMulShiftAddContract(y, a, b, c, shift)
        let columns = 2 * n
        let low32 = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)
        // Workspace: b with four zero pairs either side, then the 2n product pairs.
        return withUnsafeTemporaryAllocation(of: SIMD2<UInt32>.self, capacity: (n + 8) + columns) { space in
            let padded = space.baseAddress!, product = space.baseAddress! + n + 8
            padded.initialize(repeating: .zero, count: 4)
            (padded + 4).initialize(from: b.baseAddress!, count: n)
            (padded + 4 + n).initialize(repeating: .zero, count: 4)
            let window = UnsafeRawPointer(padded + 4), a = a.baseAddress!
            var carry = SIMD2<UInt64>(), previousHigh = SIMD2<UInt64>()
            var k0 = 0
            while k0 < columns {
                var lowSums = SIMD8<UInt64>(), highSums = SIMD8<UInt64>()
                for i in max(0, k0 - n + 1)...min(n - 1, k0 + 3) {
                    let ai = SIMD2<UInt64>(truncatingIfNeeded: a[i])
                    let ai8 = SIMD8(lowHalf: SIMD4(lowHalf: ai, highHalf: ai), highHalf: SIMD4(lowHalf: ai, highHalf: ai))
                    let bWindow = window.loadUnaligned(fromByteOffset: 8 * (k0 - i), as: SIMD8<UInt32>.self)
                    let products = SIMD8<UInt64>(truncatingIfNeeded: bWindow) &* ai8
                    lowSums &+= products & low32
                    highSums &+= products &>> 32
                }
                for c in 0..<min(4, columns - k0) {
                    let low = SIMD2(lowSums[2 * c], lowSums[2 * c + 1])
                    let sum = low &+ previousHigh &+ carry
                    product[k0 + c] = SIMD2<UInt32>(truncatingIfNeeded: sum)
                    carry = sum &>> 32
                    previousHigh = SIMD2(highSums[2 * c], highSums[2 * c + 1])
                }
                k0 += 4
            }
            return shiftAndAdd(y, UnsafePointer(product), c, shift: shift)
        }
    }
}

extension BigNum.Kernels.SIMD {
    /// The second half of the vector `mulShiftAdd`s: y = (product >> shift) + c per lane
    /// from the exact 2n-pair product; returns the overflow lanes (contract above).
    @inline(__always)
    static func shiftAndAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ product: UnsafePointer<SIMD2<UInt32>>,
        _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int
    ) -> SIMD2<UInt32> {
        let n = y.count, columns = 2 * n
        let wordShift = shift / 32, bitShift = SIMD2<UInt32>(repeating: UInt32(shift % 32))
        let keepCarried = SIMD2<UInt32>(repeating: shift % 32 == 0 ? 0 : .max)
        let complement = (SIMD2<UInt32>(repeating: 32) &- bitShift) & SIMD2(repeating: 31)
        @inline(__always) func shifted(_ k: Int) -> SIMD2<UInt32> {
            let source = wordShift + k
            guard source < columns else { return .zero }
            let next = source + 1 < columns ? product[source + 1] : .zero
            return (product[source] &>> bitShift) | ((next &<< complement) & keepCarried)
        }
        let c = c.baseAddress!, y = y.baseAddress!
        var sumCarry = SIMD2<UInt64>()
        for k in 0..<n {
            let sum = SIMD2<UInt64>(truncatingIfNeeded: shifted(k)) &+ SIMD2<UInt64>(truncatingIfNeeded: c[k]) &+ sumCarry
            y[k] = SIMD2<UInt32>(truncatingIfNeeded: sum)
            sumCarry = sum &>> 32
        }
        var excess = SIMD2<UInt32>(truncatingIfNeeded: sumCarry)
        for k in n..<columns { excess |= shifted(k) }
        return SIMD2<UInt32>(repeating: 1).replacing(with: 0, where: excess .== 0)
    }
}

extension BigNum.Kernels.Wide {
    /// See the contract in MulShiftAdd.swift, on `level` (a wide level this CPU has):
    /// the product by the C kernel of the level (`rf_bn_wide_mul_pairs`: four columns
    /// per block on AVX2, eight on AVX-512, which `ifma` runs too), then the same shift
    /// and addition as `SIMD.mulShiftAdd`.
    public static func mulShiftAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
        _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int,
        level: BigNum.Path = .avx2
    ) -> SIMD2<UInt32> {
        let n = checkMulShiftAddContract(y, a, b, c, shift)
        checkLevel(level)
        let workspaceCount = rf_bn_wide_mul_pairs_workspace(n)
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: workspaceCount) { space in
            let workspace = space.baseAddress!  // both operands widened to 64-bit lanes
            return withUnsafeTemporaryAllocation(of: SIMD2<UInt32>.self, capacity: 2 * n) { product in
                let ran = UnsafeRawPointer(a.baseAddress!).withMemoryRebound(to: UInt32.self, capacity: 2 * n) { a in
                    UnsafeRawPointer(b.baseAddress!).withMemoryRebound(to: UInt32.self, capacity: 2 * n) { b in
                        UnsafeMutableRawPointer(product.baseAddress!).withMemoryRebound(to: UInt32.self, capacity: 4 * n) { p in
                            rf_bn_wide_mul_pairs(level.wideLevel, p, a, b, n, workspace)
                        }
                    }
                }
                precondition(ran == 1, "the \(level) kernel did not run")
                return BigNum.Kernels.SIMD.shiftAndAdd(y, UnsafePointer(product.baseAddress!), c, shift: shift)
            }
        }
    }
}

/// Checks the length contract of `mulShiftAdd`; returns the word count.
@inline(__always)
func checkMulShiftAddContract(
    _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
    _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, _ shift: Int
) -> Int {
    let n = y.count
    precondition(n >= 1 && n <= 4096, "mulShiftAdd: count must be 1...4096")
    precondition(a.count == n && b.count == n && c.count == n, "mulShiftAdd: lengths differ")
    precondition(shift >= 0 && shift <= 64 * n, "mulShiftAdd: shift must be 0...64·count")
    return n
}
