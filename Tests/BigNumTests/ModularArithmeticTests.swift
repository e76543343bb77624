// Reduction of numbers of any length and the modular sum, difference and product
// (ModularArithmetic.swift) against OpenSSL (BN_mod_exp with exponent 1 reduces any
// input; BN_mul multiplies), on both paths, moduli from 2 to 4096 bits.
import BigNum
import XCTest
import ForgeSupport

final class ModularArithmeticTests: XCTestCase {
    private let moduliBits = [2, 64, 65, 127, 512, 1024, 1031, 2048, 4096]

    /// x mod m by OpenSSL, `modulus.count` bytes.
    private func openSSLReduce(_ x: [UInt8], _ modulus: [UInt8]) -> [UInt8] {
        OpenSSL.power(x.isEmpty ? [0] : x, [1], modulus)
    }

    /// Inputs of every interesting length around m: empty, zeros, 1, m−1, m, m+1,
    /// all-ones of one to three times m's length (and one byte more), random ones.
    private func inputs(_ m: [UInt64], _ rng: inout DeterministicRandom) -> [[UInt8]] {
        let modulus = bigEndian(m)
        let byteCount = modulus.drop(while: { $0 == 0 }).count
        var mMinus1 = m, mPlus1 = m
        mMinus1[0] -= 1
        mPlus1[0] += 1  // m is odd: no carry
        var result: [[UInt8]] = [[], [0, 0, 0], [1], bigEndian(mMinus1), modulus, bigEndian(mPlus1)]
        for length in [byteCount - 1, byteCount, byteCount + 1, 2 * byteCount, 2 * byteCount + 1, 3 * byteCount + 5]
        where length > 0 {
            result.append([UInt8](repeating: 0xFF, count: length))
            result.append(bigEndian(rng.limbs((length + 7) / 8)).suffix(length).map { $0 })
        }
        result.append(bigEndian(OpenSSL.multiply(mMinus1, mMinus1)))  // (m−1)², the largest product
        return result
    }

    func testReduceAgainstOpenSSL() throws {
        var rng = DeterministicRandom(seed: 20)
        for bits in moduliBits {
            let m = bits == 2 ? [3] : randomModulus(bits: bits, &rng)
            let modulus = Array(bigEndian(m).drop(while: { $0 == 0 }))
            let context = try BigNum.MontgomeryContext(modulus: modulus)
            for x in inputs(m, &rng) {
                let expected = openSSLReduce(x, modulus)
                for path in pathsUnderTest {
                    XCTAssertEqual(context.reduce(x, path: path), expected, "\(path) \(bits) bits, \(x.count)-byte input")
                }
            }
        }
    }

    func testProductSumAndDifferenceAgainstOpenSSL() throws {
        var rng = DeterministicRandom(seed: 21)
        for bits in moduliBits {
            let m = bits == 2 ? [3] : randomModulus(bits: bits, &rng)
            let modulus = Array(bigEndian(m).drop(while: { $0 == 0 }))
            let context = try BigNum.MontgomeryContext(modulus: modulus)
            var mMinus1 = m
            mMinus1[0] -= 1
            let operands: [[UInt64]] = [[UInt64](repeating: 0, count: m.count), limbs(bigEndian: [1], count: m.count),
                                        mMinus1, randomBelow(m, &rng), randomBelow(m, &rng)]
            for x in operands {
                for y in operands {
                    let a = bigEndian(x), b = bigEndian(y)
                    let product = openSSLReduce(bigEndian(OpenSSL.multiply(x, y)), modulus)
                    for path in pathsUnderTest {
                        XCTAssertEqual(try context.multiply(a, b, path: path), product, "\(path) \(bits) bits a·b")
                    }
                    // a + b and a + (m − b), as 32-bit words by the test reference, reduced by OpenSSL.
                    let (sumWords, sumCarry) = Reference.add(wordsFromLimbs(x), wordsFromLimbs(y))
                    let sum = [UInt8(sumCarry)] + bigEndian(limbsFromWords(sumWords))
                    XCTAssertEqual(try context.add(a, b), openSSLReduce(sum, modulus), "\(bits) bits a + b")
                    let (negated, _) = Reference.subtract(wordsFromLimbs(m), wordsFromLimbs(y))
                    let (differenceWords, differenceCarry) = Reference.add(wordsFromLimbs(x), negated)
                    let difference = [UInt8(differenceCarry)] + bigEndian(limbsFromWords(differenceWords))
                    XCTAssertEqual(try context.subtract(a, b), openSSLReduce(difference, modulus), "\(bits) bits a − b")
                }
            }
        }
    }

    func testOperandsMustBeReduced() throws {
        let context = try BigNum.MontgomeryContext(modulus: [0x00, 0xC3, 0x01])  // 49921
        func error(_ body: () throws -> [UInt8]) -> BigNum.OperandError? {
            do { _ = try body(); return nil } catch { return error as? BigNum.OperandError }
        }
        XCTAssertEqual(error { try context.multiply([0xC3, 0x01], [1]) }, .notReduced(index: 0))
        XCTAssertEqual(error { try context.multiply([1], [0x01, 0x00, 0x00]) }, .notReduced(index: 1))
        XCTAssertEqual(error { try context.add([0xC3, 0x02], [0xC3, 0x02]) }, .notReduced(index: 0))
        XCTAssertEqual(error { try context.subtract([5], [0xFF, 0xFF]) }, .notReduced(index: 1))
        // Leading zero bytes do not count; results keep the modulus's length.
        XCTAssertEqual(try context.multiply([0, 0, 0, 0, 0xC3, 0x00], [0, 2]), [0xC2, 0xFF])
        XCTAssertEqual(try context.subtract([1], [2]), [0xC3, 0x00])
        XCTAssertEqual(try context.add([0xC3, 0x00], [0xC3, 0x00]), [0xC2, 0xFF])
        XCTAssertEqual(context.reduce([UInt8]()), [0x00, 0x00])
        XCTAssertEqual(context.reduce([0xC3, 0x01]), [0x00, 0x00])
        XCTAssertEqual(context.reduce([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xC3, 0x02]), [0x00, 0x01])
    }
}
