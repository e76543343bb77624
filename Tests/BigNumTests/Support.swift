// Test support: the paths under test, limbs from the fixed-seed generator, guard-word buffers,
// a test-only reference on 32-bit words (independent of the kernels' algorithms),
// the OpenSSL oracle on big-endian bytes, and the Corpus/bignum vector reader.
import BigNum
import OpenSSLShim
import XCTest
import ForgeSupport

/// The paths this run tests: the one BIGNUM_PATH pins, else every path this CPU has.
let pathsUnderTest: [BigNum.Path] = BigNum.Dispatch.environmentPath.map { [$0] } ?? BigNum.Path.available

extension DeterministicRandom {
    /// `n` random 64-bit limbs.
    mutating func limbs(_ n: Int) -> [UInt64] { (0..<n).map { _ in next() } }
}

/// The edge words of math/big's arith_test, as 64-bit limbs: every limb is two
/// 32-bit edge words {0, 1, 2^32−1, 2^31}.
let edgeWords: [UInt32] = [0, 1, .max, 1 << 31]

/// All 4^w operands of `w` edge words, as ⌈w/2⌉ limbs.
func edgeOperands(words w: Int) -> [[UInt64]] {
    var result: [[UInt64]] = []
    for code in 0..<(1 << (2 * w)) {
        var words = (0..<w).map { edgeWords[(code >> (2 * $0)) & 3] }
        if w % 2 == 1 { words.append(0) }
        result.append(limbsFromWords(words))
    }
    return result
}

func limbsFromWords(_ words: [UInt32]) -> [UInt64] {
    stride(from: 0, to: words.count, by: 2).map { UInt64(words[$0]) | UInt64(words[$0 + 1]) << 32 }
}

func wordsFromLimbs(_ limbs: [UInt64]) -> [UInt32] {
    limbs.flatMap { [UInt32(truncatingIfNeeded: $0), UInt32(truncatingIfNeeded: $0 >> 32)] }
}

// MARK: Guarded buffers

private let guardLimb: UInt64 = 0xDEAD_BEEF_F00D_CAFE

/// Runs `body` on a zero-filled buffer of `count` limbs with a guard limb on either
/// side, asserts the guards survived, and returns the contents.
func guarded(_ count: Int, file: StaticString = #filePath, line: UInt = #line,
             _ body: (UnsafeMutableBufferPointer<UInt64>) -> Void) -> [UInt64] {
    var storage = [guardLimb] + [UInt64](repeating: 0, count: count) + [guardLimb]
    storage.withUnsafeMutableBufferPointer { all in
        body(UnsafeMutableBufferPointer(rebasing: all[1..<(count + 1)]))
    }
    XCTAssertEqual(storage.first, guardLimb, "guard limb below the output overwritten", file: file, line: line)
    XCTAssertEqual(storage.last, guardLimb, "guard limb above the output overwritten", file: file, line: line)
    return Array(storage[1..<(count + 1)])
}

// MARK: Kernels by path, on arrays

extension BigNum.Path {
    func add(_ x: [UInt64], _ y: [UInt64]) -> ([UInt64], UInt64) {
        var carry: UInt64 = 0
        let z = guarded(x.count) { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    carry = self == .scalar ? BigNum.Kernels.Scalar.add(z, x, y) : BigNum.Kernels.SIMD.add(z, x, y)
                }
            }
        }
        return (z, carry)
    }

    func subtract(_ x: [UInt64], _ y: [UInt64]) -> ([UInt64], UInt64) {
        var borrow: UInt64 = 0
        let z = guarded(x.count) { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    borrow = self == .scalar ? BigNum.Kernels.Scalar.subtract(z, x, y) : BigNum.Kernels.SIMD.subtract(z, x, y)
                }
            }
        }
        return (z, borrow)
    }

    func shiftLeft(_ x: [UInt64], by s: Int) -> [UInt64] {
        guarded(x.count) { z in
            x.withUnsafeBufferPointer { x in
                self == .scalar ? BigNum.Kernels.Scalar.shiftLeft(z, x, by: s) : BigNum.Kernels.SIMD.shiftLeft(z, x, by: s)
            }
        }
    }

    func shiftRight(_ x: [UInt64], by s: Int) -> [UInt64] {
        guarded(x.count) { z in
            x.withUnsafeBufferPointer { x in
                self == .scalar ? BigNum.Kernels.Scalar.shiftRight(z, x, by: s) : BigNum.Kernels.SIMD.shiftRight(z, x, by: s)
            }
        }
    }

    func multiply(_ x: [UInt64], _ y: [UInt64]) -> [UInt64] {
        guarded(x.count + y.count) { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    self == .scalar ? BigNum.Kernels.Scalar.multiply(z, x, y) : BigNum.Kernels.SIMD.multiply(z, x, y)
                }
            }
        }
    }

    func montgomeryMultiply(_ x: [UInt64], _ y: [UInt64], _ m: [UInt64]) -> [UInt64] {
        let m0inv = BigNum.montgomeryInverse(m[0])
        return guarded(m.count) { z in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    m.withUnsafeBufferPointer { m in
                        BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, path: self)
                    }
                }
            }
        }
    }

    func montgomerySquare(_ x: [UInt64], _ m: [UInt64]) -> [UInt64] {
        let m0inv = BigNum.montgomeryInverse(m[0])
        return guarded(m.count) { z in
            x.withUnsafeBufferPointer { x in
                m.withUnsafeBufferPointer { m in
                    BigNum.Kernels.montgomerySquare(z, x, modulus: m, m0inv: m0inv, path: self)
                }
            }
        }
    }

    /// (y, overflow) of `mulShiftAdd` on lanes given as word arrays.
    func mulShiftAdd(_ a: [SIMD2<UInt32>], _ b: [SIMD2<UInt32>], _ c: [SIMD2<UInt32>], shift: Int) -> ([SIMD2<UInt32>], SIMD2<UInt32>) {
        var y = [SIMD2<UInt32>](repeating: SIMD2(0xA5A5_A5A5, 0x5A5A_5A5A), count: a.count)
        var overflow = SIMD2<UInt32>()
        y.withUnsafeMutableBufferPointer { y in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    c.withUnsafeBufferPointer { c in
                        overflow = BigNum.Kernels.mulShiftAdd(y, a, b, c, shift: shift, path: self)
                    }
                }
            }
        }
        return (y, overflow)
    }
}

// MARK: Test-only reference on 32-bit words (little-endian)

enum Reference {
    static func multiply(_ x: [UInt32], _ y: [UInt32]) -> [UInt32] {
        var z = [UInt32](repeating: 0, count: x.count + y.count)
        for i in x.indices {
            var carry: UInt64 = 0
            for j in y.indices {
                let t = UInt64(x[i]) * UInt64(y[j]) + UInt64(z[i + j]) + carry
                z[i + j] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
            }
            z[i + y.count] = UInt32(carry)
        }
        return z
    }

    /// (x + y mod 2^(32n), carry)
    static func add(_ x: [UInt32], _ y: [UInt32]) -> ([UInt32], UInt64) {
        var carry: UInt64 = 0
        let z = x.indices.map { i -> UInt32 in
            let t = UInt64(x[i]) + UInt64(y[i]) + carry
            carry = t >> 32
            return UInt32(truncatingIfNeeded: t)
        }
        return (z, carry)
    }

    /// (x − y mod 2^(32n), borrow)
    static func subtract(_ x: [UInt32], _ y: [UInt32]) -> ([UInt32], UInt64) {
        var borrow: Int64 = 0
        let z = x.indices.map { i -> UInt32 in
            let t = Int64(x[i]) - Int64(y[i]) - borrow
            borrow = t < 0 ? 1 : 0
            return UInt32(truncatingIfNeeded: t)
        }
        return (z, UInt64(borrow))
    }

    /// Bit by bit: bit i of the result is bit i−s (left) or i+s (right) of x.
    static func shift(_ x: [UInt32], by s: Int, left: Bool) -> [UInt32] {
        let bits = 32 * x.count
        func bit(_ i: Int) -> UInt32 { i >= 0 && i < bits ? (x[i / 32] >> (i % 32)) & 1 : 0 }
        var z = [UInt32](repeating: 0, count: x.count)
        for i in 0..<bits { z[i / 32] |= bit(left ? i - s : i + s) << (i % 32) }
        return z
    }
}

// MARK: OpenSSL oracle

func bigEndian(_ limbs: [UInt64]) -> [UInt8] {
    limbs.reversed().flatMap { limb in (0..<8).reversed().map { UInt8(truncatingIfNeeded: limb >> (8 * $0)) } }
}

func limbs(bigEndian bytes: [UInt8], count: Int) -> [UInt64] {
    precondition(bytes.count <= 8 * count)
    let padded = [UInt8](repeating: 0, count: 8 * count - bytes.count) + bytes
    return (0..<count).map { i in
        padded[(8 * (count - 1 - i))..<(8 * (count - i))].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

enum OpenSSL {
    static func multiply(_ x: [UInt64], _ y: [UInt64]) -> [UInt64] {
        let a = bigEndian(x), b = bigEndian(y)
        var out = [UInt8](repeating: 0, count: a.count + b.count)
        precondition(rf_bn_mul(a, a.count, b, b.count, &out, out.count) == 1)
        return limbs(bigEndian: out, count: x.count + y.count)
    }

    static func montgomeryMultiply(_ x: [UInt64], _ y: [UInt64], _ m: [UInt64]) -> [UInt64] {
        let a = bigEndian(x), b = bigEndian(y), n = bigEndian(m)
        var out = [UInt8](repeating: 0, count: n.count)
        precondition(rf_bn_mont_mul(a, b, n, n.count, &out) == 1)
        return limbs(bigEndian: out, count: m.count)
    }

    static func power(_ base: [UInt8], _ exponent: [UInt8], _ modulus: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: modulus.count)
        precondition(rf_bn_mod_exp(base, base.count, exponent, exponent.count, modulus, modulus.count, &out, out.count) == 1)
        return out
    }

    static func shift(_ x: [UInt64], by s: Int, left: Bool) -> [UInt64] {
        let a = bigEndian(x)
        var out = [UInt8](repeating: 0, count: a.count)
        precondition(rf_bn_shift(a, a.count, left ? Int32(s) : -Int32(s), &out, out.count) == 1)
        return limbs(bigEndian: out, count: x.count)
    }
}

/// A random odd modulus of exactly `bits` bits, as ⌈bits/64⌉ limbs.
func randomModulus(bits: Int, _ rng: inout DeterministicRandom) -> [UInt64] {
    let n = (bits + 63) / 64
    var m = rng.limbs(n)
    let top = bits - 64 * (n - 1)
    if top < 64 { m[n - 1] &= (1 << UInt64(top)) - 1 }
    m[n - 1] |= 1 << UInt64(top - 1)
    m[0] |= 1
    return m
}

/// A random value below m (same limb count): m's top limb halved.
func randomBelow(_ m: [UInt64], _ rng: inout DeterministicRandom) -> [UInt64] {
    var x = rng.limbs(m.count)
    x[m.count - 1] = m[m.count - 1] == 0 ? 0 : x[m.count - 1] % m[m.count - 1]
    return x
}

// MARK: Vector files

/// One `Key = value` block of a Corpus/bignum file.
struct Vector {
    let fields: [String: String]
    let line: Int
    subscript(key: String) -> String {
        guard let value = fields[key] else { fatalError("vector at line \(line) lacks \(key)") }
        return value
    }
    func int(_ key: String) -> Int { Int(self[key])! }
    /// A hex field as limbs (16 digits each).
    func limbs(_ key: String) -> [UInt64] {
        let hex = Array(self[key].utf8)
        precondition(hex.count % 16 == 0, "\(key) at line \(line) is not whole limbs")
        return stride(from: hex.count, to: 0, by: -16).map { UInt64(String(decoding: hex[($0 - 16)..<$0], as: UTF8.self), radix: 16)! }
    }
    /// A hex field as 32-bit words (8 digits each).
    func words(_ key: String) -> [UInt32] {
        let hex = Array(self[key].utf8)
        return stride(from: hex.count, to: 0, by: -8).map { UInt32(String(decoding: hex[($0 - 8)..<$0], as: UTF8.self), radix: 16)! }
    }
    /// A hex field as big-endian bytes.
    func bytes(_ key: String) -> [UInt8] {
        var hex = Array(self[key].utf8)
        if hex.count % 2 == 1 { hex.insert(UInt8(ascii: "0"), at: 0) }
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
    }
}

/// The blocks of Corpus/bignum/`name`, found relative to this source file.
func vectors(_ name: String) throws -> [Vector] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Corpus/bignum/\(name)").standardized
    let text = try String(contentsOf: url, encoding: .utf8)
    var result: [Vector] = [], fields: [String: String] = [:], start = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if line.hasPrefix("#") { continue }
        if line.isEmpty {
            if !fields.isEmpty { result.append(Vector(fields: fields, line: start)) }
            fields = [:]
            continue
        }
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        precondition(parts.count == 2, "\(name):\(index + 1): not `Key = value`")
        if fields.isEmpty { start = index + 1 }
        fields[parts[0]] = parts[1]
    }
    if !fields.isEmpty { result.append(Vector(fields: fields, line: start)) }
    return result
}
