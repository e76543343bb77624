// Corpus/bignum vectors (computed by scripts/regenerate-bignum-vectors with Python's
// integers) on both paths, and re-checked against OpenSSL.
import BigNum
import XCTest

final class VectorTests: XCTestCase {
    func testAddSubtractVectors() throws {
        let blocks = try vectors("add.txt")
        XCTAssertGreaterThan(blocks.count, 30)
        for v in blocks {
            for path in pathsUnderTest {
                let (sum, carry) = path.add(v.limbs("A"), v.limbs("B"))
                XCTAssertEqual(sum, v.limbs("Sum"), "\(path) line \(v.line)")
                XCTAssertEqual(carry, UInt64(v.int("Carry")), "\(path) line \(v.line)")
                let (difference, borrow) = path.subtract(v.limbs("A"), v.limbs("B"))
                XCTAssertEqual(difference, v.limbs("Difference"), "\(path) line \(v.line)")
                XCTAssertEqual(borrow, UInt64(v.int("Borrow")), "\(path) line \(v.line)")
            }
        }
    }

    func testShiftVectors() throws {
        let blocks = try vectors("shift.txt")
        XCTAssertGreaterThan(blocks.count, 300)
        for v in blocks {
            let a = v.limbs("A"), s = v.int("Shift")
            XCTAssertEqual(OpenSSL.shift(a, by: s, left: true), v.limbs("Left"), "OpenSSL line \(v.line)")
            for path in pathsUnderTest {
                XCTAssertEqual(path.shiftLeft(a, by: s), v.limbs("Left"), "\(path) line \(v.line)")
                XCTAssertEqual(path.shiftRight(a, by: s), v.limbs("Right"), "\(path) line \(v.line)")
            }
        }
    }

    func testMultiplyVectors() throws {
        let blocks = try vectors("mul.txt")
        XCTAssertGreaterThan(blocks.count, 30)
        for v in blocks {
            let a = v.limbs("A"), b = v.limbs("B")
            XCTAssertEqual(OpenSSL.multiply(a, b), v.limbs("Product"), "OpenSSL line \(v.line)")
            for path in pathsUnderTest {
                XCTAssertEqual(path.multiply(a, b), v.limbs("Product"), "\(path) line \(v.line)")
            }
        }
    }

    func testMontgomeryVectors() throws {
        let blocks = try vectors("montmul.txt")
        XCTAssertGreaterThan(blocks.count, 100)
        for v in blocks {
            let a = v.limbs("A"), b = v.limbs("B"), m = v.limbs("M")
            XCTAssertEqual(OpenSSL.montgomeryMultiply(a, b, m), v.limbs("Result"), "OpenSSL line \(v.line)")
            for path in pathsUnderTest {
                XCTAssertEqual(path.montgomeryMultiply(a, b, m), v.limbs("Result"), "\(path) line \(v.line)")
                if a == b { XCTAssertEqual(path.montgomerySquare(a, m), v.limbs("Result"), "\(path) square line \(v.line)") }
            }
        }
    }

    func testModularExponentiationVectors() throws {
        let blocks = try vectors("modexp.txt")
        XCTAssertGreaterThan(blocks.count, 200)
        var contexts: [[UInt8]: BigNum.MontgomeryContext] = [:]
        for v in blocks {
            let modulus = Array(v.bytes("M").drop(while: { $0 == 0 }))
            let context = try contexts[modulus] ?? BigNum.MontgomeryContext(modulus: modulus)
            contexts[modulus] = context
            let expected = Array(v.bytes("Result").suffix(context.byteCount))
            XCTAssertEqual(OpenSSL.power(v.bytes("A"), v.bytes("E"), modulus), expected, "OpenSSL line \(v.line)")
            for path in pathsUnderTest {
                XCTAssertEqual(try context.power(v.bytes("A"), exponent: v.bytes("E"), path: path), expected, "\(path) line \(v.line)")
            }
        }
    }

    func testMulShiftAddVectors() throws {
        let blocks = try vectors("mulshiftadd.txt")
        XCTAssertGreaterThan(blocks.count, 150)
        for v in blocks {
            func lanes(_ key: String) -> [SIMD2<UInt32>] { zip(v.words(key + "0"), v.words(key + "1")).map { SIMD2($0, $1) } }
            for path in pathsUnderTest {
                let (y, overflow) = path.mulShiftAdd(lanes("A"), lanes("B"), lanes("C"), shift: v.int("Shift"))
                XCTAssertEqual(y, lanes("Y"), "\(path) line \(v.line)")
                XCTAssertEqual(overflow, SIMD2(UInt32(v.int("Overflow0")), UInt32(v.int("Overflow1"))), "\(path) line \(v.line)")
            }
        }
    }
}
