// The fixed-point kernel y = (a .* b >> shift) + c on 2-lane vectors: both paths
// against a reference built from the test-only 32-bit multiply and shift.
import BigNum
import XCTest
import ForgeSupport

final class MulShiftAddTests: XCTestCase {
    /// Per lane: ((a·b >> shift) + c) mod 2^(32n) and whether it overflowed.
    private func expected(_ a: [UInt32], _ b: [UInt32], _ c: [UInt32], shift: Int) -> ([UInt32], UInt32) {
        let n = a.count
        let product = Reference.multiply(a, b)
        let shifted = Reference.shift(product, by: shift, left: false)
        let (sum, carry) = Reference.add(Array(shifted[..<n]), c)
        let overflow = carry != 0 || shifted[n...].contains { $0 != 0 }
        return (sum, overflow ? 1 : 0)
    }

    private func check(_ a: [SIMD2<UInt32>], _ b: [SIMD2<UInt32>], _ c: [SIMD2<UInt32>], shift: Int,
                       file: StaticString = #filePath, line: UInt = #line) {
        let lanes = (0..<2).map { l in expected(a.map { $0[l] }, b.map { $0[l] }, c.map { $0[l] }, shift: shift) }
        for path in pathsUnderTest {
            let (y, overflow) = path.mulShiftAdd(a, b, c, shift: shift)
            for l in 0..<2 {
                XCTAssertEqual(y.map { $0[l] }, lanes[l].0, "\(path) n=\(a.count) shift=\(shift) lane \(l)", file: file, line: line)
                XCTAssertEqual(overflow[l], lanes[l].1, "\(path) n=\(a.count) shift=\(shift) overflow lane \(l)", file: file, line: line)
            }
        }
    }

    func testEdgeWords() {
        // Sizes 1...3: all combinations of edge words in a, b per lane (lane 1 reversed);
        // sizes 4...6: every edge a against a few b.
        for n in 1...6 {
            let operands = (0..<(1 << (2 * n))).map { code in (0..<n).map { edgeWords[(code >> (2 * $0)) & 3] } }
            let partners = n <= 2 ? operands : [operands.first!, operands.last!, operands[operands.count / 3]]
            let c = [UInt32](repeating: .max, count: n)
            for a in operands {
                for b in partners {
                    for shift in [0, 32 * n - 1, 32 * n] {
                        check(zip(a, b.reversed()).map { SIMD2($0, $1) }, zip(b, a).map { SIMD2($0, $1) },
                              zip(c, [UInt32](repeating: 0, count: n)).map { SIMD2($0, $1) }, shift: shift)
                    }
                }
            }
        }
    }

    func testRandomEverySizeAndShift() {
        var rng = DeterministicRandom(seed: 20)
        func lanes(_ n: Int) -> [SIMD2<UInt32>] { (0..<n).map { _ in SIMD2(UInt32(truncatingIfNeeded: rng.next()), UInt32(truncatingIfNeeded: rng.next())) } }
        for n in 1...64 {
            let shifts = n <= 4 ? Array(0...(64 * n)) : [0, 1, 31, 32, 33, 32 * n - 1, 32 * n, 32 * n + 1, 64 * n - 1, 64 * n, Int(rng.next() % UInt64(64 * n))]
            let a = lanes(n), b = lanes(n), c = lanes(n)
            for shift in shifts { check(a, b, c, shift: shift) }
        }
    }

    /// y aliasing a, b or c (all at once too).
    func testInPlace() {
        var rng = DeterministicRandom(seed: 21)
        for n in [1, 3, 4, 5, 8, 13, 32] {
            let a = (0..<n).map { _ in SIMD2(UInt32(truncatingIfNeeded: rng.next()), UInt32(truncatingIfNeeded: rng.next())) }
            let b = a.reversed().map { $0 &+ 1 }, c = a.map { ~$0 }
            let shift = 16 * n + 3
            for path in pathsUnderTest {
                let (expected, expectedOverflow) = path.mulShiftAdd(a, b, c, shift: shift)
                for target in 0..<3 {
                    var y = [a, b, c][target]
                    let overflow = y.withUnsafeMutableBufferPointer { y in
                        let alias = UnsafeBufferPointer(y)
                        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in
                            let (aa, bb, cc) = (target == 0 ? alias : a, target == 1 ? alias : b, target == 2 ? alias : c)
                            return path == .scalar ? BigNum.Kernels.Scalar.mulShiftAdd(y, aa, bb, cc, shift: shift)
                                                   : BigNum.Kernels.SIMD.mulShiftAdd(y, aa, bb, cc, shift: shift)
                        } } }
                    }
                    XCTAssertEqual(y, expected, "\(path) n=\(n) y aliasing operand \(target)")
                    XCTAssertEqual(overflow, expectedOverflow)
                }
                // y = (y .* y >> shift) + y.
                var y = a
                let overflow = y.withUnsafeMutableBufferPointer { y in
                    let alias = UnsafeBufferPointer(y)
                    return path == .scalar ? BigNum.Kernels.Scalar.mulShiftAdd(y, alias, alias, alias, shift: shift)
                                           : BigNum.Kernels.SIMD.mulShiftAdd(y, alias, alias, alias, shift: shift)
                }
                let (all, allOverflow) = path.mulShiftAdd(a, a, a, shift: shift)
                XCTAssertEqual(y, all)
                XCTAssertEqual(overflow, allOverflow)
            }
        }
    }
}
