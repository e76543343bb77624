// Go math/big arith_test style: every path against a test-only reference on 32-bit
// words (and OpenSSL where it has the operation), on edge words, on fixed-seed random
// values of every size 1...64 limbs (both sides of every 4- and 8-wide block), in
// place, with guard limbs around every output.
import BigNum
import Foundation
import XCTest
import ForgeSupport

final class KernelTests: XCTestCase {
    /// Operand pairs: all combinations of edge words up to 3 words each; from 4 to
    /// 6 words, every edge operand against a few fixed edge partners.
    private func edgePairs() -> [([UInt64], [UInt64])] {
        var pairs: [([UInt64], [UInt64])] = []
        for w in 1...6 {
            let operands = edgeOperands(words: w)
            let partners = w <= 3 ? operands : [operands.first!, operands.last!, operands[operands.count / 3], operands[operands.count / 2 + 1]]
            for x in operands { for y in partners { pairs.append((x, y)) } }
        }
        return pairs
    }

    private func randomPairs() -> [([UInt64], [UInt64])] {
        var rng = DeterministicRandom(seed: 1)
        return (1...64).flatMap { n in (0..<3).map { _ in (rng.limbs(n), rng.limbs(n)) } }
    }

    func testAddSubtract() {
        for path in pathsUnderTest {
            for (x, y) in edgePairs() + randomPairs() {
                let (sum, carry) = path.add(x, y)
                let (expectedSum, expectedCarry) = Reference.add(wordsFromLimbs(x), wordsFromLimbs(y))
                XCTAssertEqual(wordsFromLimbs(sum), expectedSum, "\(path) add \(x) \(y)")
                XCTAssertEqual(carry, expectedCarry, "\(path) add carry \(x) \(y)")
                let (difference, borrow) = path.subtract(x, y)
                let (expectedDifference, expectedBorrow) = Reference.subtract(wordsFromLimbs(x), wordsFromLimbs(y))
                XCTAssertEqual(wordsFromLimbs(difference), expectedDifference, "\(path) subtract \(x) \(y)")
                XCTAssertEqual(borrow, expectedBorrow, "\(path) subtract borrow \(x) \(y)")
            }
        }
    }

    func testAddSubtractCarryIn() {
        var rng = DeterministicRandom(seed: 2)
        for path in pathsUnderTest {
            for n in [1, 3, 4, 5, 8, 9] {
                let x = [UInt64](repeating: .max, count: n), zero = [UInt64](repeating: 0, count: n), y = rng.limbs(n)
                x.withUnsafeBufferPointer { x in
                    zero.withUnsafeBufferPointer { zero in
                        var z = [UInt64](repeating: 7, count: n)
                        let carry = z.withUnsafeMutableBufferPointer {
                            path == .scalar ? BigNum.Kernels.Scalar.add($0, x, zero, carryIn: 1) : BigNum.Kernels.SIMD.add($0, x, zero, carryIn: 1)
                        }
                        XCTAssertEqual(z, [UInt64](repeating: 0, count: n), "\(path) n=\(n)")
                        XCTAssertEqual(carry, 1)
                        let borrow = z.withUnsafeMutableBufferPointer {
                            path == .scalar ? BigNum.Kernels.Scalar.subtract($0, zero, zero, borrowIn: 1) : BigNum.Kernels.SIMD.subtract($0, zero, zero, borrowIn: 1)
                        }
                        XCTAssertEqual(z, Array(x), "\(path) n=\(n)")
                        XCTAssertEqual(borrow, 1)
                    }
                }
                // y + (−1) + 1 == y with carry out.
                let (sum, carry) = path.add(y, x)
                XCTAssertEqual(path.add(sum, [UInt64](repeating: 0, count: n)).0, sum)
                XCTAssertEqual(carry, y.allSatisfy { $0 == 0 } ? 0 : 1)
            }
        }
    }

    func testShifts() {
        var rng = DeterministicRandom(seed: 3)
        let operands = (1...12).flatMap { n in [rng.limbs(n), [UInt64](repeating: .max, count: n)] } + [rng.limbs(33), rng.limbs(64)]
        for path in pathsUnderTest {
            for x in operands {
                let bits = 64 * x.count
                let shifts = x.count <= 12 ? Array(0...(bits + 1)) : [0, 1, 63, 64, 65, 127, 128, 200, bits - 1, bits, bits + 1]
                for s in shifts {
                    let left = path.shiftLeft(x, by: s), right = path.shiftRight(x, by: s)
                    XCTAssertEqual(wordsFromLimbs(left), Reference.shift(wordsFromLimbs(x), by: s, left: true), "\(path) << \(s), n=\(x.count)")
                    XCTAssertEqual(wordsFromLimbs(right), Reference.shift(wordsFromLimbs(x), by: s, left: false), "\(path) >> \(s), n=\(x.count)")
                }
                for s in [0, 1, 64, 65, bits - 1] {
                    XCTAssertEqual(path.shiftLeft(x, by: s), OpenSSL.shift(x, by: s, left: true), "\(path) << \(s) vs OpenSSL")
                    XCTAssertEqual(path.shiftRight(x, by: s), OpenSSL.shift(x, by: s, left: false), "\(path) >> \(s) vs OpenSSL")
                }
            }
        }
    }

    func testMultiply() {
        for path in pathsUnderTest {
            for (x, y) in edgePairs() {
                XCTAssertEqual(wordsFromLimbs(path.multiply(x, y)), Reference.multiply(wordsFromLimbs(x), wordsFromLimbs(y)), "\(path) \(x) × \(y)")
            }
            for (x, y) in randomPairs() {
                XCTAssertEqual(path.multiply(x, y), OpenSSL.multiply(x, y), "\(path) n=\(x.count)")
            }
            // Unequal lengths both ways.
            var rng = DeterministicRandom(seed: 4)
            for (m, n) in [(1, 7), (7, 1), (3, 17), (17, 3), (9, 33)] {
                let x = rng.limbs(m), y = rng.limbs(n)
                XCTAssertEqual(path.multiply(x, y), OpenSSL.multiply(x, y), "\(path) \(m)×\(n)")
            }
        }
    }

    /// In-place calls: z aliasing x, y or both.
    func testAliasing() {
        var rng = DeterministicRandom(seed: 5)
        for path in pathsUnderTest {
            for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17] {
                let x = rng.limbs(n), y = rng.limbs(n)
                func inPlace(_ body: (UnsafeMutableBufferPointer<UInt64>) -> Void, start: [UInt64]) -> [UInt64] {
                    var z = start
                    z.withUnsafeMutableBufferPointer { body($0) }
                    return z
                }
                let scalar = BigNum.Kernels.Scalar.self, simd = BigNum.Kernels.SIMD.self
                let sum = path.add(x, y).0, doubled = path.add(x, x).0
                XCTAssertEqual(inPlace({ z in _ = y.withUnsafeBufferPointer { y in path == .scalar ? scalar.add(z, UnsafeBufferPointer(z), y) : simd.add(z, UnsafeBufferPointer(z), y) } }, start: x), sum)
                XCTAssertEqual(inPlace({ z in _ = x.withUnsafeBufferPointer { x in path == .scalar ? scalar.add(z, x, UnsafeBufferPointer(z)) : simd.add(z, x, UnsafeBufferPointer(z)) } }, start: y), sum)
                XCTAssertEqual(inPlace({ z in _ = path == .scalar ? scalar.add(z, UnsafeBufferPointer(z), UnsafeBufferPointer(z)) : simd.add(z, UnsafeBufferPointer(z), UnsafeBufferPointer(z)) }, start: x), doubled)
                let difference = path.subtract(x, y).0
                XCTAssertEqual(inPlace({ z in _ = y.withUnsafeBufferPointer { y in path == .scalar ? scalar.subtract(z, UnsafeBufferPointer(z), y) : simd.subtract(z, UnsafeBufferPointer(z), y) } }, start: x), difference)
                XCTAssertEqual(inPlace({ z in _ = x.withUnsafeBufferPointer { x in path == .scalar ? scalar.subtract(z, x, UnsafeBufferPointer(z)) : simd.subtract(z, x, UnsafeBufferPointer(z)) } }, start: y), difference)
                for s in [0, 1, 63, 64, 65, 64 * n - 1, 64 * n + 1] {
                    XCTAssertEqual(inPlace({ z in path == .scalar ? scalar.shiftLeft(z, UnsafeBufferPointer(z), by: s) : simd.shiftLeft(z, UnsafeBufferPointer(z), by: s) }, start: x), path.shiftLeft(x, by: s), "\(path) <<= \(s)")
                    XCTAssertEqual(inPlace({ z in path == .scalar ? scalar.shiftRight(z, UnsafeBufferPointer(z), by: s) : simd.shiftRight(z, UnsafeBufferPointer(z), by: s) }, start: x), path.shiftRight(x, by: s), "\(path) >>= \(s)")
                }
            }
        }
    }

    /// The dispatched kernels follow `Dispatch.forcedPath`, and all paths agree.
    func testDispatchFollowsForcedPath() {
        let saved = BigNum.Dispatch.forcedPath
        defer { BigNum.Dispatch.forcedPath = saved }
        for path in BigNum.Path.available {
            BigNum.Dispatch.forcedPath = path
            for kernel in BigNum.Kernel.allCases {
                XCTAssertEqual(BigNum.Dispatch.path(kernel, size: 1), path)
                XCTAssertEqual(BigNum.Dispatch.path(kernel, size: 64), path)
            }
        }
        BigNum.Dispatch.forcedPath = nil
        for kernel in BigNum.Kernel.allCases {
            // At a size past every crossover: the widest level with one, else scalar.
            let expected = BigNum.Path.available.reversed().first { $0 != .scalar && BigNum.Dispatch.crossover(kernel, level: $0) != nil }
            XCTAssertEqual(BigNum.Dispatch.path(kernel, size: 4096), expected ?? .scalar, "\(kernel)")
            XCTAssertEqual(BigNum.Dispatch.path(kernel, size: 0), .scalar, "\(kernel) below every crossover")
        }
        var rng = DeterministicRandom(seed: 6)
        let x = rng.limbs(20), y = rng.limbs(20)
        var z = [UInt64](repeating: 0, count: 40)
        z.withUnsafeMutableBufferPointer { z in
            x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in BigNum.Kernels.multiply(z, x, y) } }
        }
        XCTAssertEqual(z, BigNum.Path.scalar.multiply(x, y))
        XCTAssertEqual(z, BigNum.Path.sse2.multiply(x, y))
    }

    /// BIGNUM_PATH names: every path by name, a clear error for an unknown name and
    /// for a level this CPU lacks; the environment of this run is usable.
    func testPathNames() throws {
        XCTAssertNil(BigNum.Dispatch.environmentError, BigNum.Dispatch.environmentError?.description ?? "")
        for path in BigNum.Path.allCases {
            if path.isAvailable {
                XCTAssertEqual(try BigNum.Dispatch.path(named: path.rawValue), path)
            } else {
                XCTAssertThrowsError(try BigNum.Dispatch.path(named: path.rawValue)) { error in
                    XCTAssertEqual(error as? BigNum.PathError, .unavailable(path))
                    XCTAssertTrue("\(error)".contains("this CPU lacks \(path.rawValue)"), "\(error)")
                }
            }
        }
        XCTAssertThrowsError(try BigNum.Dispatch.path(named: "simd")) { error in
            XCTAssertEqual(error as? BigNum.PathError, .unknown("simd"))
            XCTAssertTrue("\(error)".contains("expected one of scalar, sse2, avx2, adx, avx512, ifma"), "\(error)")
        }
        XCTAssertEqual(BigNum.Path.available.first, .scalar)
        XCTAssertTrue(BigNum.Path.sse2.isAvailable)
        // A CPU with a vector level has every narrower one (adx, a scalar extension, stands apart).
        let available = BigNum.Path.available.filter { $0 != .adx }
        XCTAssertEqual(available, Array(BigNum.Path.allCases.filter { $0 != .adx }.prefix(available.count)))
        // adx is reported exactly when cpuid has ADX and BMI2 (leaf 7, EBX bits 19 and 8).
        XCTAssertEqual(BigNum.Path.adx.isAvailable, cpuHasADXAndBMI2(), "adx availability against /proc/cpuinfo")
    }

    func testBigEndianConversion() {
        var rng = DeterministicRandom(seed: 7)
        for n in 1...9 {
            let x = rng.limbs(n)
            let bytes = bigEndian(x)
            for byteCount in [8 * n, 8 * n + 3] {
                var out = [UInt8](repeating: 0xEE, count: byteCount)
                XCTAssertTrue(out.withUnsafeMutableBytes { o in x.withUnsafeBufferPointer { BigNum.Kernels.storeBigEndian(o, from: $0) } })
                XCTAssertEqual(out, [UInt8](repeating: 0, count: byteCount - 8 * n) + bytes)
                var back = [UInt64](repeating: 9, count: n + 1)
                XCTAssertTrue(back.withUnsafeMutableBufferPointer { z in out.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) } })
                XCTAssertEqual(back, x + [0])
            }
            // Odd byte counts: a value with a 3-byte top limb round-trips through 8n−5 bytes.
            var y = x
            y[n - 1] &= 0xFF_FFFF
            var short = [UInt8](repeating: 0, count: 8 * n - 5)
            XCTAssertTrue(short.withUnsafeMutableBytes { o in y.withUnsafeBufferPointer { BigNum.Kernels.storeBigEndian(o, from: $0) } })
            var back = [UInt64](repeating: 9, count: n)
            XCTAssertTrue(back.withUnsafeMutableBufferPointer { z in short.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) } })
            XCTAssertEqual(back, y)
            // Too long: a nonzero top byte does not fit one limb fewer / one byte fewer.
            var tooShort = [UInt8](repeating: 0, count: 8 * n - 6)
            y[n - 1] = 0xFF_FFFF
            XCTAssertFalse(tooShort.withUnsafeMutableBytes { o in y.withUnsafeBufferPointer { BigNum.Kernels.storeBigEndian(o, from: $0) } })
            var fewer = [UInt64](repeating: 0, count: n - 1)
            XCTAssertFalse(fewer.withUnsafeMutableBufferPointer { z in bytes.withUnsafeBytes { BigNum.Kernels.loadBigEndian(z, from: $0) } } && x[n - 1] != 0)
        }
    }
}

/// ADX and BMI2 in /proc/cpuinfo's flags (Linux), else what cpuid reported.
private func cpuHasADXAndBMI2() -> Bool {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return BigNum.Path.adx.isAvailable }
    let flags = Set(line.split(separator: " ").map(String.init))
    return flags.contains("adx") && flags.contains("bmi2")
}
