// Montgomery multiplication, squaring and exponentiation on both paths against
// OpenSSL (BN_mod_mul_montgomery, BN_mod_exp), moduli from 64 to 4096 bits.
import BigNum
import XCTest
import ForgeSupport

final class MontgomeryTests: XCTestCase {
    private let moduliBits = [64, 65, 127, 512, 768, 1024, 1536, 2048, 3072, 4096]

    func testMontgomeryMultiplyAndSquareAgainstOpenSSL() {
        var rng = DeterministicRandom(seed: 10)
        for bits in moduliBits {
            for m in [randomModulus(bits: bits, &rng), allOnes(bits)] {
                let mMinus1 = minusOne(m)
                let operands = [randomBelow(m, &rng), randomBelow(m, &rng), mMinus1, [UInt64](repeating: 0, count: m.count)]
                for (x, y) in [(operands[0], operands[1]), (operands[2], operands[2]), (operands[3], operands[0]), (operands[2], operands[1])] {
                    let expected = OpenSSL.montgomeryMultiply(x, y, m)
                    for path in pathsUnderTest {
                        XCTAssertEqual(path.montgomeryMultiply(x, y, m), expected, "\(path) \(bits) bits")
                    }
                }
                for x in operands {
                    let expected = OpenSSL.montgomeryMultiply(x, x, m)
                    for path in pathsUnderTest {
                        XCTAssertEqual(path.montgomerySquare(x, m), expected, "\(path) square \(bits) bits")
                    }
                }
            }
        }
    }

    /// Every limb count 1...64 on every vector path this CPU has, against scalar (which
    /// the test above holds to OpenSSL): the wide kernels' digit counts, vector padding
    /// and last, r-bit reduction row change with n (radix 2^28 on avx2 and avx512:
    /// r = 64n − 28(d − 1), 28 when 7 divides n; radix 2^52 on ifma: r = 52 when 13 does).
    /// Also `power` (binary for 65537, a window for a long exponent) per path.
    func testEveryLimbCountAgreesWithScalar() throws {
        var rng = DeterministicRandom(seed: 16)
        let vectorPaths = pathsUnderTest.filter { $0 != .scalar }
        for n in 1...64 {
            for m in [randomModulus(bits: 64 * n, &rng), allOnes(64 * n), randomModulus(bits: 64 * n - 37, &rng)] {
                let x = randomBelow(m, &rng), y = randomBelow(m, &rng), top = minusOne(m)
                for (a, b) in [(x, y), (top, top), (x, top)] {
                    let expected = BigNum.Path.scalar.montgomeryMultiply(a, b, m)
                    let expectedSquare = BigNum.Path.scalar.montgomerySquare(a, m)
                    for path in vectorPaths {
                        XCTAssertEqual(path.montgomeryMultiply(a, b, m), expected, "\(path) n=\(n)")
                        XCTAssertEqual(path.montgomerySquare(a, m), expectedSquare, "\(path) square n=\(n)")
                    }
                }
            }
            // `power` at the sizes where r or the digit padding changes shape (debug builds are slow).
            guard [1, 2, 3, 7, 13, 14, 21, 32, 49].contains(n) else { continue }
            let m = randomModulus(bits: 64 * n, &rng)
            let modulusBytes = m.reversed().flatMap { limb in (0..<8).reversed().map { UInt8(truncatingIfNeeded: limb >> (8 * $0)) } }
            let context = try BigNum.MontgomeryContext(modulus: modulusBytes)
            let base = randomBelow(m, &rng).reversed().flatMap { limb in (0..<8).reversed().map { UInt8(truncatingIfNeeded: limb >> (8 * $0)) } }
            let longExponent = (0..<min(8 * n, 8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) | 1 }
            for exponent in [[0x01, 0x00, 0x01], longExponent] as [[UInt8]] {
                let expected = try context.power(base, exponent: exponent, path: .scalar)
                for path in vectorPaths {
                    XCTAssertEqual(try context.power(base, exponent: exponent, path: path), expected, "\(path) power n=\(n)")
                }
            }
        }
    }

    /// The wide kernels at their largest modulus, and one limb past it (where they hand
    /// over to the scalar kernel): the same bits as scalar either way. At the limit the
    /// all-ones modulus with (m − 1)² fills every digit of every row (IFMA's lanes are
    /// bounded without a normalizing pass for exactly this size).
    func testWideKernelLimit() {
        var rng = DeterministicRandom(seed: 17)
        let limit = BigNum.Kernels.Wide.maximumLimbs
        for n in [limit, limit + 1] {
            for m in [randomModulus(bits: 64 * n, &rng), allOnes(64 * n)] {
                let x = randomBelow(m, &rng), y = randomBelow(m, &rng), top = minusOne(m)
                for (a, b) in [(x, y), (top, top)] {
                    let expected = BigNum.Path.scalar.montgomeryMultiply(a, b, m)
                    for path in pathsUnderTest where path.isWide {
                        XCTAssertEqual(path.montgomeryMultiply(a, b, m), expected, "\(path) n=\(n)")
                    }
                }
            }
        }
    }

    /// z aliasing x and/or y, and the square in place.
    func testMontgomeryInPlace() {
        var rng = DeterministicRandom(seed: 11)
        for bits in [64, 512, 2048] {
            let m = randomModulus(bits: bits, &rng), x = randomBelow(m, &rng), y = randomBelow(m, &rng)
            let m0inv = BigNum.montgomeryInverse(m[0])
            for path in pathsUnderTest {
                let product = path.montgomeryMultiply(x, y, m), square = path.montgomerySquare(x, m)
                var z = x
                z.withUnsafeMutableBufferPointer { z in
                    y.withUnsafeBufferPointer { y in m.withUnsafeBufferPointer { m in
                        BigNum.Kernels.montgomeryMultiply(z, UnsafeBufferPointer(z), y, modulus: m, m0inv: m0inv, path: path)
                    } }
                }
                XCTAssertEqual(z, product, "\(path) z = z·y")
                z = x
                z.withUnsafeMutableBufferPointer { z in
                    m.withUnsafeBufferPointer { m in
                        BigNum.Kernels.montgomerySquare(z, UnsafeBufferPointer(z), modulus: m, m0inv: m0inv, path: path)
                    }
                }
                XCTAssertEqual(z, square, "\(path) z = z·z")
            }
        }
    }

    func testMontgomeryInverse() {
        var rng = DeterministicRandom(seed: 12)
        let special: [UInt64] = [1, 3, .max, 1 << 63 | 1]
        for a in special + (0..<100).map({ _ in rng.next() | 1 }) {
            XCTAssertEqual(a &* BigNum.montgomeryInverse(a), UInt64.max, "a = \(a)")  // a·(−a⁻¹) ≡ −1
        }
    }

    /// Exponent edge cases 0, 1, 2, 3, 65537, 2^64−1 and full size, at 512...4096 bits.
    func testPowerAgainstOpenSSL() throws {
        var rng = DeterministicRandom(seed: 13)
        for bits in [65, 512, 1024, 2048, 4096] {
            let m = randomModulus(bits: bits, &rng)
            let modulus = Array(bigEndian(m).drop(while: { $0 == 0 }))
            let context = try BigNum.MontgomeryContext(modulus: modulus)
            XCTAssertEqual(context.modulusBits, bits)
            XCTAssertEqual(context.byteCount, (bits + 7) / 8)
            let base = bigEndian(randomBelow(m, &rng))
            var exponents: [[UInt8]] = [[], [0], [1], [2], [3], [0x01, 0x00, 0x01], [UInt8](repeating: 0xFF, count: 8)]
            if bits <= 1024 || pathsUnderTest.count == 1 || bits == 2048 {
                exponents.append(bigEndian(rng.limbs(m.count)).suffix(context.byteCount).map { $0 })  // full size
            }
            for exponent in exponents {
                let expected = OpenSSL.power(base, exponent.isEmpty ? [0] : exponent, modulus)
                for path in pathsUnderTest {
                    XCTAssertEqual(try context.power(base, exponent: exponent, path: path), expected, "\(path) \(bits) bits e=\(exponent.prefix(8))")
                }
            }
            // Bases 0, 1, m−1.
            let mMinus1 = bigEndian(minusOne(m))
            for special in [[0], [1], mMinus1] as [[UInt8]] {
                let expected = OpenSSL.power(special, [0x01, 0x00, 0x01], modulus)
                for path in pathsUnderTest {
                    XCTAssertEqual(try context.power(special, exponent: [0x01, 0x00, 0x01], path: path), expected)
                }
            }
        }
    }

    /// R² mod m (R = 2^(64n)), computed by division on the normalized modulus, against
    /// OpenSSL's 2^(128n) mod m: every bit length 2...130, the RSA sizes and moduli that
    /// stress the quotient estimate (top limb all ones; top limb 2^63, the smallest
    /// normalized one; just above a power of two).
    func testRSquaredAgainstOpenSSL() throws {
        var rng = DeterministicRandom(seed: 17)
        var moduli: [[UInt64]] = (2...130).map { randomModulus(bits: $0, &rng) }
        for bits in [511, 512, 1024, 2047, 2048, 3072, 4095, 4096] {
            let n = (bits + 63) / 64
            moduli.append(randomModulus(bits: bits, &rng))
            moduli.append(allOnes(bits))
            var justAbove = [UInt64](repeating: 0, count: n)  // 2^(bits−1) + 1
            justAbove[n - 1] = 1 << UInt64((bits - 1) % 64)
            justAbove[0] |= 1
            moduli.append(justAbove)
            var topHeavy = rng.limbs(n)  // top limb 0xFF…F, the rest random
            topHeavy[n - 1] = bits % 64 == 0 ? .max : (1 << UInt64(bits % 64)) - 1
            topHeavy[0] |= 1
            moduli.append(topHeavy)
        }
        for m in moduli {
            let modulus = Array(bigEndian(m).drop(while: { $0 == 0 }))
            let context = try BigNum.MontgomeryContext(modulus: modulus)
            let n = context.limbCount
            // 2^(128n) as an exponent of 2: big-endian bytes of 128n.
            let exponent = [UInt8(truncatingIfNeeded: (128 * n) >> 8), UInt8(truncatingIfNeeded: 128 * n)]
            let expected = limbs(bigEndian: OpenSSL.power([2], exponent, modulus), count: n)
            XCTAssertEqual(context.rSquared, expected, "\(context.modulusBits) bits, modulus \(modulus.prefix(4))…")
        }
    }

    func testContextRejectsBadInput() {
        func error(_ body: () throws -> Void) -> BigNum.Error? {
            do { try body(); return nil } catch { return error as? BigNum.Error }
        }
        XCTAssertEqual(error { _ = try BigNum.MontgomeryContext(modulus: [UInt8]()) }, .modulusTooSmall)
        XCTAssertEqual(error { _ = try BigNum.MontgomeryContext(modulus: [0, 0]) }, .modulusTooSmall)
        XCTAssertEqual(error { _ = try BigNum.MontgomeryContext(modulus: [0, 1]) }, .modulusTooSmall)
        XCTAssertEqual(error { _ = try BigNum.MontgomeryContext(modulus: [0x01, 0x00]) }, .modulusEven)
        XCTAssertEqual(error { _ = try BigNum.MontgomeryContext(modulus: [0x01] + [UInt8](repeating: 0xFF, count: 512)) }, .modulusTooLarge(bits: 4097))
        XCTAssertNil(error { _ = try BigNum.MontgomeryContext(modulus: [0, 0] + [UInt8](repeating: 0xFF, count: 512)) })  // 4096 bits
        XCTAssertNil(error { _ = try BigNum.MontgomeryContext(modulus: [3]) })
        let context = try! BigNum.MontgomeryContext(modulus: [0x00, 0xC3, 0x01])  // 49921
        XCTAssertEqual(error { _ = try context.power([0xC3, 0x01], exponent: [3]) }, .baseNotReduced)
        XCTAssertEqual(error { _ = try context.power([0x01, 0xC3, 0x01], exponent: [3]) }, .baseNotReduced)
        XCTAssertEqual(error { _ = try context.power([0, 0, 0, 0xC3, 0x00], exponent: [3]) }, nil)  // leading zeros are fine
        XCTAssertEqual(error { _ = try context.power([2], exponent: [1, 0, 0]) }, .exponentTooLarge(bytes: 3))
        XCTAssertEqual(try? context.power([2], exponent: [0, 0xFF, 0xFF]), OpenSSL.power([2], [0xFF, 0xFF], [0xC3, 0x01]))
        XCTAssertEqual(try? context.power([5], exponent: [UInt8]()), [0, 1])
        // The one-shot form, and a 2-byte modulus result keeps its leading zero byte.
        XCTAssertEqual(try? BigNum.modularExponentiation(base: [2], exponent: [3], modulus: [0xC3, 0x01]), [0x00, 0x08])
    }

    /// m − 1 for odd m.
    private func minusOne(_ m: [UInt64]) -> [UInt64] {
        var result = m
        result[0] -= 1
        return result
    }

    private func allOnes(_ bits: Int) -> [UInt64] {
        let n = (bits + 63) / 64
        var m = [UInt64](repeating: .max, count: n)
        if bits % 64 != 0 { m[n - 1] = (1 << UInt64(bits % 64)) - 1 }
        return m
    }
}
