// `scripts/bench bignum`: the seed note's SIMD-vs-scalar table for mulShiftAdd, the
// per-kernel crossover table that Dispatch.swift copies, and multiply, Montgomery
// multiply and x^65537 mod m against OpenSSL (cached BN_MONT_CTX) in the same run.
import BigNum
import OpenSSLShim

/// Fixed-seed operands (xorshift64*), so runs compare like with like.
private struct Operands {
    var state: UInt64 = 0x2014_0A07_5EED_0001
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func limbs(_ n: Int) -> [UInt64] { (0..<n).map { _ in next() } }
    mutating func lanes(_ n: Int) -> [SIMD2<UInt32>] {
        (0..<n).map { _ in SIMD2(UInt32(truncatingIfNeeded: next()), UInt32(truncatingIfNeeded: next())) }
    }
    /// An odd modulus of exactly 64·n bits.
    mutating func modulus(_ n: Int) -> [UInt64] {
        var m = limbs(n)
        m[0] |= 1
        m[n - 1] |= 1 << 63
        return m
    }
}

private func bigEndianBytes(_ limbs: [UInt64]) -> [UInt8] {
    limbs.reversed().flatMap { limb in (0..<8).reversed().map { UInt8(truncatingIfNeeded: limb >> (8 * $0)) } }
}

/// Smallest measured size from which SIMD is faster at every larger measured size.
private func crossover(_ rows: [(size: Int, scalar: Double, simd: Double)]) -> Int? {
    var result: Int?
    for row in rows.reversed() {
        guard row.simd < row.scalar else { break }
        result = row.size
    }
    return result
}

/// Times one kernel on both paths at one size: (scalar ns, simd ns).
private func timePaths(_ body: (BigNum.Path) -> Void) -> (Double, Double) {
    let scalar = nanosecondsPerCall(rounds: 5, roundNanoseconds: 20_000_000) { body(.scalar) }
    let simd = nanosecondsPerCall(rounds: 5, roundNanoseconds: 20_000_000) { body(.simd) }
    return (scalar, simd)
}

func runBigNumBench(_ arguments: [String]) {
    var operands = Operands()
    print("BigNum benchmarks (release; best of 5–7 rounds; scalar and SIMD paths called directly)")
    print("")

    // MARK: The seed note's table
    print("mulShiftAdd on a 2-lane vector, y = (a .* b >> 32n) + c, n words of 32 bits per lane")
    print(pad("words", 6, right: true) + pad("scalar", 12, right: true) + pad("SIMD", 12, right: true)
          + pad("index", 8, right: true) + pad("speed-up", 10, right: true))
    var fixedPointRows: [(size: Int, scalar: Double, simd: Double)] = []
    for n in Array(1...32) + [48, 64] {
        let a = operands.lanes(n), b = operands.lanes(n), c = operands.lanes(n)
        var y = [SIMD2<UInt32>](repeating: .zero, count: n)
        let (scalar, simd) = y.withUnsafeMutableBufferPointer { y in
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in
                timePaths { path in
                    blackHole(path == .scalar ? BigNum.Kernels.Scalar.mulShiftAdd(y, a, b, c, shift: 32 * n)
                                              : BigNum.Kernels.SIMD.mulShiftAdd(y, a, b, c, shift: 32 * n))
                }
            } } }
        }
        fixedPointRows.append((n, scalar, simd))
        print(pad("\(n)", 6, right: true) + pad(formatDuration(scalar), 12, right: true) + pad(formatDuration(simd), 12, right: true)
              + pad("\(Int((100 * simd / scalar).rounded()))", 8, right: true) + pad(String(format: "%.2f×", scalar / simd), 10, right: true))
    }
    print("index: SIMD time with scalar = 100 (below 100: SIMD faster).  crossover: "
          + (crossover(fixedPointRows).map { "\($0) words" } ?? "none (scalar always faster)"))
    print("")

    // MARK: Crossover per kernel (UInt64 limbs)
    let sizes = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
    print("Per-kernel scalar vs SIMD, UInt64 limbs: SIMD time index (scalar = 100)")
    print(pad("kernel", 20) + sizes.map { pad("\($0)", 6, right: true) }.joined() + pad("crossover", 11, right: true))
    var table: [(BigNum.Kernel, Int?)] = []
    for kernel in BigNum.Kernel.allCases where kernel != .mulShiftAdd {
        var rows: [(size: Int, scalar: Double, simd: Double)] = []
        for n in sizes {
            let m = operands.modulus(n)
            var x = operands.limbs(n), y = operands.limbs(n)
            x[n - 1] >>= 1; y[n - 1] >>= 1  // below m
            let m0inv = BigNum.montgomeryInverse(m[0])
            var z = [UInt64](repeating: 0, count: 2 * n)
            let (scalar, simd) = z.withUnsafeMutableBufferPointer { z2 in
                let z = UnsafeMutableBufferPointer(rebasing: z2[..<n])
                return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in m.withUnsafeBufferPointer { m in
                    timePaths { path in
                        let S = BigNum.Kernels.Scalar.self, V = BigNum.Kernels.SIMD.self
                        switch (kernel, path) {
                        case (.add, .scalar): blackHole(S.add(z, x, y))
                        case (.add, .simd): blackHole(V.add(z, x, y))
                        case (.subtract, .scalar): blackHole(S.subtract(z, x, y))
                        case (.subtract, .simd): blackHole(V.subtract(z, x, y))
                        case (.shiftLeft, .scalar): S.shiftLeft(z, x, by: 13)
                        case (.shiftLeft, .simd): V.shiftLeft(z, x, by: 13)
                        case (.shiftRight, .scalar): S.shiftRight(z, x, by: 13)
                        case (.shiftRight, .simd): V.shiftRight(z, x, by: 13)
                        case (.multiply, .scalar): S.multiply(z2, x, y)
                        case (.multiply, .simd): V.multiply(z2, x, y)
                        case (.montgomeryMultiply, .scalar): S.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
                        case (.montgomeryMultiply, .simd): V.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
                        case (.montgomerySquare, .scalar): S.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
                        case (.montgomerySquare, .simd): V.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
                        case (.mulShiftAdd, _): break
                        }
                        blackHole(z2.baseAddress)
                    }
                } } }
            }
            rows.append((n, scalar, simd))
        }
        let point = crossover(rows)
        table.append((kernel, point))
        print(pad(kernel.rawValue, 20) + rows.map { pad("\(Int((100 * $0.simd / $0.scalar).rounded()))", 6, right: true) }.joined()
              + pad(point.map { "\($0)" } ?? "none", 11, right: true))
    }
    table.append((.mulShiftAdd, crossover(fixedPointRows)))
    print("")
    print("Crossover table for Dispatch.crossover (SIMD from this size on; nil = never):")
    for (kernel, point) in table {
        print("    case .\(kernel.rawValue): return \(point.map { "\($0)" } ?? "nil")")
    }
    print("")

    // MARK: Against OpenSSL
    print("Against OpenSSL 3 (same run, same operands; ratio = ours / OpenSSL, below 1 is faster)")
    print(pad("operation", 30) + pad("scalar", 11, right: true) + pad("SIMD", 11, right: true)
          + pad("dispatched", 12, right: true) + pad("OpenSSL", 11, right: true) + pad("ratio", 8, right: true))
    func row(_ name: String, _ scalar: Double, _ simd: Double, _ dispatched: Double, _ openssl: Double) {
        print(pad(name, 30) + pad(formatDuration(scalar), 11, right: true) + pad(formatDuration(simd), 11, right: true)
              + pad(formatDuration(dispatched), 12, right: true) + pad(formatDuration(openssl), 11, right: true)
              + pad(String(format: "%.2f", dispatched / openssl), 8, right: true))
    }
    for bits in [1024, 2048, 4096] {
        let n = bits / 64
        let m = operands.modulus(n)
        var x = operands.limbs(n), y = operands.limbs(n)
        x[n - 1] >>= 1; y[n - 1] >>= 1
        let m0inv = BigNum.montgomeryInverse(m[0])
        let mBytes = bigEndianBytes(m), xBytes = bigEndianBytes(x), yBytes = bigEndianBytes(y), e: [UInt8] = [1, 0, 1]
        guard let fixture = rf_bn_bench_new(mBytes, xBytes, yBytes, mBytes.count, e, e.count) else { fatalError("OpenSSL fixture") }
        defer { rf_bn_bench_free(fixture) }
        var z = [UInt64](repeating: 0, count: 2 * n)
        z.withUnsafeMutableBufferPointer { z2 in
            let z = UnsafeMutableBufferPointer(rebasing: z2[..<n])
            x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in m.withUnsafeBufferPointer { m in
                let multiply = timePaths { path in
                    path == .scalar ? BigNum.Kernels.Scalar.multiply(z2, x, y) : BigNum.Kernels.SIMD.multiply(z2, x, y)
                    blackHole(z2.baseAddress)
                }
                let multiplyDispatched = nanosecondsPerCall { BigNum.Kernels.multiply(z2, x, y); blackHole(z2.baseAddress) }
                row("multiply \(bits)×\(bits)", multiply.0, multiply.1, multiplyDispatched, nanosecondsPerCall { rf_bn_bench_mul(fixture) })
                let montgomery = timePaths { path in
                    path == .scalar ? BigNum.Kernels.Scalar.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
                                    : BigNum.Kernels.SIMD.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
                    blackHole(z.baseAddress)
                }
                let montgomeryDispatched = nanosecondsPerCall {
                    BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv); blackHole(z.baseAddress)
                }
                row("Montgomery multiply \(bits)", montgomery.0, montgomery.1, montgomeryDispatched, nanosecondsPerCall { rf_bn_bench_mont_mul(fixture) })
                let square = timePaths { path in
                    path == .scalar ? BigNum.Kernels.Scalar.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
                                    : BigNum.Kernels.SIMD.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
                    blackHole(z.baseAddress)
                }
                let squareDispatched = nanosecondsPerCall {
                    BigNum.Kernels.montgomerySquare(z, x, modulus: m, m0inv: m0inv); blackHole(z.baseAddress)
                }
                row("Montgomery square \(bits)", square.0, square.1, squareDispatched, nanosecondsPerCall { rf_bn_bench_mont_mul(fixture) })
            } } }
        }
        guard bits == 2048 || arguments.contains("--all-modexp") else { continue }
        // x^65537 mod m through the verifier's API: bytes in, bytes out, cached context.
        let context = try! BigNum.MontgomeryContext(modulus: mBytes)
        func power(_ path: BigNum.Path?) -> Double {
            nanosecondsPerCall { blackHole(try! context.power(xBytes, exponent: e, path: path)) }
        }
        let powers = (power(.scalar), power(.simd), power(nil))
        let openssl = nanosecondsPerCall { rf_bn_bench_mod_exp(fixture) }
        row("x^65537 mod m, \(bits) bits", powers.0, powers.1, powers.2, openssl)
    }
    print("(OpenSSL's Montgomery square row is BN_mod_mul_montgomery(a, a): it has no separate square entry.)")
}
