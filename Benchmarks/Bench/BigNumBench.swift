// `scripts/bench bignum [--svg FILE] [--all-modexp]`: the seed note's SIMD-vs-scalar
// table for mulShiftAdd, the per-kernel, per-level crossover table that Dispatch.swift
// copies, and multiply, Montgomery multiply and x^65537 mod m against OpenSSL (cached
// BN_MONT_CTX) in the same run. --svg draws time against size per level.
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

/// Smallest measured size from which `faster` wins at every larger measured size.
private func crossover(_ rows: [(size: Int, baseline: Double, candidate: Double)]) -> Int? {
    var result: Int?
    for row in rows.reversed() {
        guard row.candidate < row.baseline else { break }
        result = row.size
    }
    return result
}

/// The levels measured: every available path.
private let measuredPaths: [BigNum.Path] = BigNum.Path.available

/// Times `body` on each path: ns per call, in `paths` order.
private func timePaths(_ paths: [BigNum.Path], _ body: (BigNum.Path) -> Void) -> [Double] {
    paths.map { path in nanosecondsPerCall(rounds: 5, roundNanoseconds: 20_000_000) { body(path) } }
}

/// The paths a kernel has: the Montgomery kernels and `power` have wide (C) and adx
/// paths, the others scalar and sse2.
private func paths(of kernel: BigNum.Kernel) -> [BigNum.Path] {
    kernel == .montgomeryMultiply || kernel == .montgomerySquare || kernel == .power ? measuredPaths : [.scalar, .sse2]
}

func runBigNumBench(_ arguments: [String]) {
    var operands = Operands()
    let svgPath = arguments.firstIndex(of: "--svg").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    if arguments.contains("--svg") && svgPath == nil { fatalError("--svg needs a file name") }
    print("BigNum benchmarks (release; thread CPU time, best of 5–7 rounds; each path called directly)")
    print("CPU levels: " + BigNum.Path.available.map(\.rawValue).joined(separator: ", "))
    print("")

    // MARK: The seed note's table, per level
    // The levels with a mulShiftAdd kernel of their own: scalar, sse2 (Swift SIMD), avx2
    // and avx512 (C; ifma runs avx512's: its 52-bit multiply does not fit 32-bit words).
    let fixedPointPaths = measuredPaths.filter { $0 != .adx && $0 != .ifma }
    let vectorNames = fixedPointPaths.dropFirst().map { $0 == .sse2 ? "SSE2" : $0.rawValue.uppercased() }
    print("mulShiftAdd on a 2-lane vector, y = (a .* b >> 32n) + c, n words of 32 bits per lane")
    print("(kernels: scalar, sse2 = Swift SIMD, avx2 and avx512 = C product scan; index: time with scalar = 100)")
    let nameColumns: String = vectorNames.map { pad($0, 12, right: true) }.joined()
    let indexColumns: String = vectorNames.map { _ in pad("index", 7, right: true) }.joined()
    let speedColumns: String = vectorNames.map { _ in pad("×", 8, right: true) }.joined()
    print(pad("words", 6, right: true) + pad("scalar", 12, right: true) + nameColumns + indexColumns + speedColumns)
    var fixedPointTimes: [(size: Int, times: [Double])] = []
    for n in Array(1...32) + [48, 64] {
        let a = operands.lanes(n), b = operands.lanes(n), c = operands.lanes(n)
        var y = [SIMD2<UInt32>](repeating: .zero, count: n)
        let times = y.withUnsafeMutableBufferPointer { y in
            a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in
                timePaths(fixedPointPaths) { path in
                    blackHole(BigNum.Kernels.mulShiftAdd(y, a, b, c, shift: 32 * n, path: path))
                }
            } } }
        }
        fixedPointTimes.append((n, times))
        let vector = times.dropFirst()
        let timeColumns: String = times.map { pad(formatDuration($0), 12, right: true) }.joined()
        let indices: String = vector.map { (time: Double) -> String in pad("\(Int((100 * time / times[0]).rounded()))", 7, right: true) }.joined()
        let speedUps: String = vector.map { (time: Double) -> String in pad(String(format: "%.2f×", times[0] / time), 8, right: true) }.joined()
        print(pad("\(n)", 6, right: true) + timeColumns + indices + speedUps)
    }
    // Per level, against the best narrower level at each size.
    var fixedPointCrossovers: [(BigNum.Path, Int?)] = []
    for index in fixedPointPaths.indices.dropFirst() {
        let rows = fixedPointTimes.map { (size: $0.size, baseline: $0.times[..<index].min()!, candidate: $0.times[index]) }
        fixedPointCrossovers.append((fixedPointPaths[index], crossover(rows)))
    }
    print("crossover (from this size on faster than every narrower level): "
          + fixedPointCrossovers.map { "\($0.0.rawValue) \($0.1.map { "\($0) words" } ?? "none")" }.joined(separator: ", "))
    print("")

    // MARK: Crossover per kernel and level (UInt64 limbs)
    let sizes = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
    print("Per-kernel time index per level, UInt64 limbs (scalar = 100; below 100: that level is faster)")
    print(pad("kernel", 20) + pad("level", 7) + sizes.map { pad("\($0)", 6, right: true) }.joined() + pad("crossover", 11, right: true))
    var table: [(BigNum.Kernel, BigNum.Path, Int?)] = []
    var montgomeryCurves: [BigNum.Path: [(Int, Double)]] = [:]
    for kernel in BigNum.Kernel.allCases where kernel != .mulShiftAdd {
        let kernelPaths = paths(of: kernel)
        var rows: [(size: Int, times: [Double])] = []
        for n in sizes {
            let m = operands.modulus(n)
            var x = operands.limbs(n), y = operands.limbs(n)
            x[n - 1] >>= 1; y[n - 1] >>= 1  // below m
            let m0inv = BigNum.montgomeryInverse(m[0])
            // `power`: x^65537 mod m on limbs, the verifier's exponentiation.
            let context = kernel == .power ? try! BigNum.MontgomeryContext(modulus: bigEndianBytes(m)) : nil
            let e: [UInt64] = [65537]
            var z = [UInt64](repeating: 0, count: 2 * n)
            let times = z.withUnsafeMutableBufferPointer { z2 in
                let z = UnsafeMutableBufferPointer(rebasing: z2[..<n])
                return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in m.withUnsafeBufferPointer { m in
                    timePaths(kernelPaths) { path in
                        let S = BigNum.Kernels.Scalar.self, V = BigNum.Kernels.SIMD.self
                        let scalar = path == .scalar
                        switch kernel {
                        case .add: blackHole(scalar ? S.add(z, x, y) : V.add(z, x, y))
                        case .subtract: blackHole(scalar ? S.subtract(z, x, y) : V.subtract(z, x, y))
                        case .shiftLeft: scalar ? S.shiftLeft(z, x, by: 13) : V.shiftLeft(z, x, by: 13)
                        case .shiftRight: scalar ? S.shiftRight(z, x, by: 13) : V.shiftRight(z, x, by: 13)
                        case .multiply: scalar ? S.multiply(z2, x, y) : V.multiply(z2, x, y)
                        case .montgomeryMultiply: BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, path: path)
                        case .montgomerySquare: BigNum.Kernels.montgomerySquare(z, x, modulus: m, m0inv: m0inv, path: path)
                        case .power:
                            e.withUnsafeBufferPointer { e in context!.power(z, x, exponent: e, path: path) }
                        case .mulShiftAdd: break
                        }
                        blackHole(z2.baseAddress)
                    }
                } } }
            }
            rows.append((n, times))
            if kernel == .montgomeryMultiply {
                for (path, time) in zip(kernelPaths, times) { montgomeryCurves[path, default: []].append((n, time)) }
            }
        }
        for (index, path) in kernelPaths.enumerated() where path != .scalar {
            // Against the best narrower path at each size (every level before it in Path order).
            let versus = rows.map { (size: $0.size, baseline: $0.times[..<index].min()!, candidate: $0.times[index]) }
            let point = crossover(versus)
            table.append((kernel, path, point))
            print(pad(kernel.rawValue, 20) + pad(path.rawValue, 7)
                  + rows.map { pad("\(Int((100 * $0.times[index] / $0.times[0]).rounded()))", 6, right: true) }.joined()
                  + pad(point.map { "\($0)" } ?? "none", 11, right: true))
        }
    }
    for (path, point) in fixedPointCrossovers { table.append((.mulShiftAdd, path, point)) }
    print("")
    print("Crossover table for Dispatch.crossover (level from this size on, against the best narrower path; nil = never):")
    for (kernel, path, point) in table {
        print("    case (.\(path.rawValue), .\(kernel.rawValue)): return \(point.map { "\($0)" } ?? "nil")")
    }
    print("")
    if let svgPath {
        var fixedPoint: [BigNum.Path: [(Int, Double)]] = [:]
        for (index, path) in fixedPointPaths.enumerated() { fixedPoint[path] = fixedPointTimes.map { ($0.size, $0.times[index]) } }
        let svg = BigNumFigure.svg(panels: [
            ("mulShiftAdd, 2 lanes × n words of 32 bits", "words", fixedPoint),
            ("Montgomery multiply, n limbs of 64 bits", "limbs", montgomeryCurves),
        ])
        do {
            try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
            print("figure written to \(svgPath)")
        } catch {
            fatalError("cannot write \(svgPath): \(error)")
        }
        print("")
    }

    // MARK: Against OpenSSL
    print("Against OpenSSL 3 (same run, same operands; ratio = dispatched / OpenSSL, below 1 is faster)")
    print(pad("operation", 30) + measuredPaths.map { pad($0.rawValue, 11, right: true) }.joined()
          + pad("dispatched", 12, right: true) + pad("OpenSSL", 11, right: true) + pad("ratio", 8, right: true))
    func row(_ name: String, _ times: [Double], _ dispatched: Double, _ openssl: Double) {
        print(pad(name, 30) + times.map { pad(formatDuration($0), 11, right: true) }.joined()
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
                let multiply = timePaths(measuredPaths) { path in
                    path == .scalar || path == .adx ? BigNum.Kernels.Scalar.multiply(z2, x, y) : BigNum.Kernels.SIMD.multiply(z2, x, y)
                    blackHole(z2.baseAddress)
                }
                let multiplyDispatched = nanosecondsPerCall { BigNum.Kernels.multiply(z2, x, y); blackHole(z2.baseAddress) }
                row("multiply \(bits)×\(bits)", multiply, multiplyDispatched, nanosecondsPerCall { rf_bn_bench_mul(fixture) })
                let montgomery = timePaths(measuredPaths) { path in
                    BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, path: path)
                    blackHole(z.baseAddress)
                }
                let montgomeryDispatched = nanosecondsPerCall {
                    BigNum.Kernels.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv); blackHole(z.baseAddress)
                }
                row("Montgomery multiply \(bits)", montgomery, montgomeryDispatched, nanosecondsPerCall { rf_bn_bench_mont_mul(fixture) })
                let square = timePaths(measuredPaths) { path in
                    BigNum.Kernels.montgomerySquare(z, x, modulus: m, m0inv: m0inv, path: path)
                    blackHole(z.baseAddress)
                }
                let squareDispatched = nanosecondsPerCall {
                    BigNum.Kernels.montgomerySquare(z, x, modulus: m, m0inv: m0inv); blackHole(z.baseAddress)
                }
                row("Montgomery square \(bits)", square, squareDispatched, nanosecondsPerCall { rf_bn_bench_mont_mul(fixture) })
            } } }
        }
        guard bits == 2048 || arguments.contains("--all-modexp") else { continue }
        // x^65537 mod m through the verifier's API: bytes in, bytes out, cached context.
        let context = try! BigNum.MontgomeryContext(modulus: mBytes)
        let powers = measuredPaths.map { path in nanosecondsPerCall { blackHole(try! context.power(xBytes, exponent: e, path: path)) } }
        let dispatched = nanosecondsPerCall { blackHole(try! context.power(xBytes, exponent: e)) }
        let openssl = nanosecondsPerCall { rf_bn_bench_mod_exp(fixture) }
        row("x^65537 mod m, \(bits) bits", powers, dispatched, openssl)
    }
    print("(OpenSSL's Montgomery square row is BN_mod_mul_montgomery(a, a): it has no separate square entry.)")
}
