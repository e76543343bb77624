import BigNum
import FuzzSupport
import OpenSSLShim

/// Fuzz target `bignum`: every kernel's scalar and SIMD paths on fuzzer-chosen
/// sizes and operands, compared bit for bit, then against OpenSSL's BN (or, for
/// add/subtract, which the shim does not wrap, against the inverse operation).
///
/// The Montgomery kernels and mulShiftAdd run on every path this CPU has (adx, sse2,
/// and the C kernels of avx2/avx512/ifma), each compared with scalar; a modular
/// exponentiation runs on scalar and on one of those paths, picked by the input.
///
/// Input (Cryptofuzz style): byte 0 picks the operation, byte 1 the size, the rest
/// is read as operands in order (zero-padded when it runs out). Findings abort with
/// `bignum-<op>-scalar-<path>-difference` or `bignum-<op>-openssl-difference`.
public enum BigNumFuzz {
    public enum Operation: UInt8, CaseIterable {
        case add, subtract, shiftLeft, shiftRight, multiply, montgomeryMultiply, montgomerySquare, modularExponentiation,
             mulShiftAdd
    }

    /// Largest operand size the target draws, in 64-bit limbs (4096 bits).
    public static let maximumLimbs = 64
    /// Modular exponentiation is a chain of the Montgomery kernels, which are fuzzed
    /// on their own at every size; it draws moduli up to 1024 bits and exponents up
    /// to 4 bytes so that it does not dominate the run.
    public static let modularExponentiationLimbs = 16
    public static let modularExponentiationExponentBytes = 4

    /// The vector paths compared against scalar: every one this CPU has, or only the
    /// one BIGNUM_PATH pins. An unusable BIGNUM_PATH stops the run with its reason.
    static let vectorPaths: [BigNum.Path] = {
        if let error = BigNum.Dispatch.environmentError { fatalError("\(error)") }
        let pinned = BigNum.Dispatch.environmentPath
        return BigNum.Path.available.filter { $0 != .scalar && (pinned == nil || pinned == .scalar || pinned == $0) }
    }()

    public static func fuzzOne(_ input: [UInt8]) {
        var data = FuzzBytes(input)
        guard let operation = Operation(rawValue: data.byte() % UInt8(Operation.allCases.count)) else { return }
        let size = Int(data.byte())
        let n = 1 + size % maximumLimbs
        switch operation {
        case .add, .subtract: checkAddSubtract(operation, n: n, &data)
        case .shiftLeft, .shiftRight: checkShift(operation, n: n, &data)
        case .multiply: checkMultiply(nx: n, ny: 1 + Int(data.byte()) % maximumLimbs, &data)
        case .montgomeryMultiply, .montgomerySquare: checkMontgomery(operation, n: n, &data)
        case .modularExponentiation:
            // The size byte's high bits pick the vector path the exponentiation is compared on.
            let path = vectorPaths.isEmpty ? nil : vectorPaths[(size / modularExponentiationLimbs) % vectorPaths.count]
            checkModularExponentiation(n: 1 + size % modularExponentiationLimbs, path: path, &data)
        case .mulShiftAdd: checkMulShiftAdd(words: 1 + size % 64, &data)
        }
    }

    static func finding(_ operation: Operation, _ kind: String) -> Never {
        fuzzFinding("bignum-\(operation)-\(kind)-difference")
    }

    static func checkAddSubtract(_ operation: Operation, n: Int, _ data: inout FuzzBytes) {
        let x = data.limbs(n), y = data.limbs(n)
        let carryIn = UInt64(data.byte() & 1)
        let add = operation == .add
        func run(_ path: BigNum.Path, inPlace: Bool) -> ([UInt64], UInt64) {
            var z = inPlace ? x : [UInt64](repeating: 0, count: n)
            let carry: UInt64 = z.withUnsafeMutableBufferPointer { z in
                let source = inPlace ? UnsafeBufferPointer(z) : nil
                return x.withUnsafeBufferPointer { xs in
                    y.withUnsafeBufferPointer { ys in
                        let first = source ?? xs
                        switch (path, add) {
                        case (.scalar, true): return BigNum.Kernels.Scalar.add(z, first, ys, carryIn: carryIn)
                        case (_, true): return BigNum.Kernels.SIMD.add(z, first, ys, carryIn: carryIn)
                        case (.scalar, false): return BigNum.Kernels.Scalar.subtract(z, first, ys, borrowIn: carryIn)
                        case (_, false): return BigNum.Kernels.SIMD.subtract(z, first, ys, borrowIn: carryIn)
                        }
                    }
                }
            }
            return (z, carry)
        }
        let scalar = run(.scalar, inPlace: false)
        guard run(.sse2, inPlace: false) == scalar, run(.sse2, inPlace: true) == scalar,
              run(.scalar, inPlace: true) == scalar else { finding(operation, "scalar-simd") }
        // Independent check: undo with the inverse operation (and the carry).
        var back = [UInt64](repeating: 0, count: n)
        let carryBack: UInt64 = back.withUnsafeMutableBufferPointer { z in
            scalar.0.withUnsafeBufferPointer { r in
                y.withUnsafeBufferPointer { ys in
                    add ? BigNum.Kernels.Scalar.subtract(z, r, ys, borrowIn: carryIn)
                        : BigNum.Kernels.Scalar.add(z, r, ys, carryIn: carryIn)
                }
            }
        }
        guard back == x, carryBack == scalar.1 else { finding(operation, "inverse") }
    }

    static func checkShift(_ operation: Operation, n: Int, _ data: inout FuzzBytes) {
        let x = data.limbs(n)
        let shift = Int(data.uint16()) % (64 * n + 2)
        func run(_ path: BigNum.Path, inPlace: Bool) -> [UInt64] {
            var z = inPlace ? x : [UInt64](repeating: 0, count: n)
            z.withUnsafeMutableBufferPointer { z in
                x.withUnsafeBufferPointer { xs in
                    let source = inPlace ? UnsafeBufferPointer(z) : xs
                    switch (path, operation == .shiftLeft) {
                    case (.scalar, true): BigNum.Kernels.Scalar.shiftLeft(z, source, by: shift)
                    case (_, true): BigNum.Kernels.SIMD.shiftLeft(z, source, by: shift)
                    case (.scalar, false): BigNum.Kernels.Scalar.shiftRight(z, source, by: shift)
                    case (_, false): BigNum.Kernels.SIMD.shiftRight(z, source, by: shift)
                    }
                }
            }
            return z
        }
        let scalar = run(.scalar, inPlace: false)
        guard run(.sse2, inPlace: false) == scalar, run(.sse2, inPlace: true) == scalar,
              run(.scalar, inPlace: true) == scalar else { finding(operation, "scalar-simd") }
        let a = bigEndian(x)
        var expected = [UInt8](repeating: 0, count: 8 * n)
        let ok = rf_bn_shift(a, a.count, Int32(operation == .shiftLeft ? shift : -shift), &expected, expected.count)
        guard ok == 1, expected == bigEndian(scalar) else { finding(operation, "openssl") }
    }

    static func checkMultiply(nx: Int, ny: Int, _ data: inout FuzzBytes) {
        let x = data.limbs(nx), y = data.limbs(ny)
        func run(_ path: BigNum.Path) -> [UInt64] {
            var z = [UInt64](repeating: 0, count: nx + ny)
            z.withUnsafeMutableBufferPointer { z in
                x.withUnsafeBufferPointer { xs in
                    y.withUnsafeBufferPointer { ys in
                        switch path {
                        case .scalar: BigNum.Kernels.Scalar.multiply(z, xs, ys)
                        default: BigNum.Kernels.SIMD.multiply(z, xs, ys)
                        }
                    }
                }
            }
            return z
        }
        let scalar = run(.scalar)
        guard run(.sse2) == scalar else { finding(.multiply, "scalar-simd") }
        let a = bigEndian(x), b = bigEndian(y)
        var expected = [UInt8](repeating: 0, count: 8 * (nx + ny))
        guard rf_bn_mul(a, a.count, b, b.count, &expected, expected.count) == 1,
              expected == bigEndian(scalar) else { finding(.multiply, "openssl") }
    }

    /// An odd modulus of n limbs with a non-zero top limb, and operands below it.
    static func modulus(_ n: Int, _ data: inout FuzzBytes) -> [UInt64] {
        var m = data.limbs(n)
        m[0] |= 1
        if m[n - 1] == 0 { m[n - 1] = 1 }
        return m
    }

    static func reduced(_ x: [UInt64], below m: [UInt64]) -> [UInt64] {
        var x = x
        x[x.count - 1] %= m[m.count - 1]  // top limb below m's top limb: x < m
        return x
    }

    static func checkMontgomery(_ operation: Operation, n: Int, _ data: inout FuzzBytes) {
        let m = modulus(n, &data)
        let x = reduced(data.limbs(n), below: m)
        let y = operation == .montgomerySquare ? x : reduced(data.limbs(n), below: m)
        let m0inv = BigNum.montgomeryInverse(m[0])
        func run(_ path: BigNum.Path, inPlace: Bool) -> [UInt64] {
            var z = inPlace ? x : [UInt64](repeating: 0, count: n)
            z.withUnsafeMutableBufferPointer { z in
                x.withUnsafeBufferPointer { xs in
                    y.withUnsafeBufferPointer { ys in
                        m.withUnsafeBufferPointer { ms in
                            let first = inPlace ? UnsafeBufferPointer(z) : xs
                            if operation == .montgomerySquare {
                                BigNum.Kernels.montgomerySquare(z, first, modulus: ms, m0inv: m0inv, path: path)
                            } else {
                                BigNum.Kernels.montgomeryMultiply(z, first, ys, modulus: ms, m0inv: m0inv, path: path)
                            }
                        }
                    }
                }
            }
            return z
        }
        let scalar = run(.scalar, inPlace: false)
        guard run(.scalar, inPlace: true) == scalar else { finding(operation, "scalar-inplace") }
        // Every vector level this CPU has (the wide ones are the C kernels), in and out of place.
        for path in vectorPaths where run(path, inPlace: false) != scalar || run(path, inPlace: true) != scalar {
            finding(operation, "scalar-\(path.rawValue)")
        }
        var expected = [UInt8](repeating: 0, count: 8 * n)
        guard rf_bn_mont_mul(bigEndian(x), bigEndian(y), bigEndian(m), 8 * n, &expected) == 1,
              expected == bigEndian(scalar) else { finding(operation, "openssl") }
    }

    /// Small exponents (see `modularExponentiationExponentBytes`) keep each run fast.
    /// Scalar is compared with OpenSSL and with one vector path, `path` (chosen by the
    /// input: the kernels the chain is made of are compared on every path by their own
    /// operations, and each path's chain code is reached by a share of the inputs).
    static func checkModularExponentiation(n: Int, path: BigNum.Path?, _ data: inout FuzzBytes) {
        let modulusLimbs = modulus(n, &data)
        let m = bigEndian(modulusLimbs)
        let base = bigEndian(reduced(data.limbs(n), below: modulusLimbs))
        guard let context = try? BigNum.MontgomeryContext(modulus: m) else { return }  // 0/1/even refused by design
        // Exponents longer than the modulus are refused by design (`exponentTooLarge`).
        let exponent = data.bytes(min(Int(data.byte()) % (modularExponentiationExponentBytes + 1), context.byteCount))
        guard let scalar = try? context.power(base, exponent: exponent, path: .scalar) else {
            finding(.modularExponentiation, "refused")
        }
        if let path {
            guard let vector = try? context.power(base, exponent: exponent, path: path) else { finding(.modularExponentiation, "refused") }
            guard vector == scalar else { finding(.modularExponentiation, "scalar-\(path.rawValue)") }
        }
        var expected = [UInt8](repeating: 0, count: scalar.count)
        guard rf_bn_mod_exp(base, base.count, exponent, exponent.count, m, m.count, &expected, expected.count) == 1,
              expected == scalar else { finding(.modularExponentiation, "openssl") }
    }

    static func checkMulShiftAdd(words: Int, _ data: inout FuzzBytes) {
        func vector() -> [SIMD2<UInt32>] {
            (0..<words).map { _ in SIMD2(data.uint32(), data.uint32()) }
        }
        let a = vector(), b = vector(), c = vector()
        let shift = Int(data.uint16()) % (64 * words + 1)
        func run(_ path: BigNum.Path) -> ([SIMD2<UInt32>], SIMD2<UInt32>) {
            var y = [SIMD2<UInt32>](repeating: .zero, count: words)
            let overflow = y.withUnsafeMutableBufferPointer { y in
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        c.withUnsafeBufferPointer { c in
                            path == .scalar
                                ? BigNum.Kernels.Scalar.mulShiftAdd(y, a, b, c, shift: shift)
                                : BigNum.Kernels.mulShiftAdd(y, a, b, c, shift: shift, path: path)
                        }
                    }
                }
            }
            return (y, overflow)
        }
        let scalar = run(.scalar)
        for path in vectorPaths {
            let vector = run(path)
            guard scalar.0 == vector.0, scalar.1 == vector.1 else { finding(.mulShiftAdd, "scalar-\(path.rawValue)") }
        }
        // OpenSSL per lane: ⌊a·b / 2^shift⌋ with BN_mul and BN_rshift, then + c.
        for lane in 0..<2 {
            func laneBytes(_ v: [SIMD2<UInt32>]) -> [UInt8] {
                [UInt8](unsafeUninitializedCapacity: 4 * v.count) { bytes, count in
                    for (index, word) in v.reversed().enumerated() {
                        UnsafeMutableRawBufferPointer(bytes).storeBytes(of: word[lane].bigEndian, toByteOffset: 4 * index, as: UInt32.self)
                    }
                    count = 4 * v.count
                }
            }
            var product = [UInt8](repeating: 0, count: 8 * words)
            var shifted = [UInt8](repeating: 0, count: 8 * words)
            let la = laneBytes(a), lb = laneBytes(b)
            guard rf_bn_mul(la, la.count, lb, lb.count, &product, product.count) == 1,
                  rf_bn_shift(product, product.count, Int32(-shift), &shifted, shifted.count) == 1 else {
                finding(.mulShiftAdd, "openssl")
            }
            // shifted + c over 8·words bytes; the value fits in 4·words bytes iff no overflow.
            var sum = shifted
            var carry = 0
            let lc = [UInt8](repeating: 0, count: 4 * words) + laneBytes(c)
            for i in stride(from: sum.count - 1, through: 0, by: -1) {
                let t = Int(sum[i]) + Int(lc[i]) + carry
                sum[i] = UInt8(t & 0xFF)
                carry = t >> 8
            }
            let overflowed = carry != 0 || sum[..<(4 * words)].contains { $0 != 0 }
            guard Array(sum[(4 * words)...]) == laneBytes(scalar.0),
                  (scalar.1[lane] != 0) == overflowed else { finding(.mulShiftAdd, "openssl") }
        }
    }

    /// The limbs as big-endian bytes (the harness's own conversion, independent of
    /// BigNum's loaders; one allocation).
    static func bigEndian(_ limbs: [UInt64]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 8 * limbs.count) { bytes, count in
            for (index, limb) in limbs.reversed().enumerated() {
                UnsafeMutableRawBufferPointer(bytes).storeBytes(of: limb.bigEndian, toByteOffset: 8 * index, as: UInt64.self)
            }
            count = 8 * limbs.count
        }
    }
}

/// Reads a fuzzer's bytes as operands, yielding zeros once they run out, so every
/// input decodes to some operation.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }
    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }
    mutating func uint32() -> UInt32 { UInt32(uint16()) << 16 | UInt32(uint16()) }
    mutating func limbs(_ count: Int) -> [UInt64] {
        [UInt64](unsafeUninitializedCapacity: count) { limbs, initialized in
            for index in 0..<count {
                var limb: UInt64 = 0
                for _ in 0..<8 { limb = limb << 8 | UInt64(byte()) }
                limbs[index] = limb
            }
            initialized = count
        }
    }
}
