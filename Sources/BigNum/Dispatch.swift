// Which path runs: the widest level this CPU has whose measured crossover size the
// operand reaches (then narrower levels, then scalar), unless `Dispatch.forcedPath`
// (initially from BIGNUM_PATH=scalar|sse2|avx2|adx|avx512|ifma) pins one.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension BigNum {
    /// The kernels that have more than one path. `power` is the exponentiation chain
    /// of `MontgomeryContext.power` as a whole: the wide levels keep its operands in
    /// their digit form from the first product to the last, so they can win there at
    /// sizes where one converted product (`montgomeryMultiply`) does not.
    public enum Kernel: String, Sendable, CaseIterable {
        case add, subtract, shiftLeft, shiftRight, multiply, montgomeryMultiply, montgomerySquare, power, mulShiftAdd
    }

    /// Why a path name (BIGNUM_PATH) was refused.
    public enum PathError: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// Not one of scalar, sse2, avx2, adx, avx512, ifma.
        case unknown(String)
        /// A level this CPU (or OS) does not support.
        case unavailable(Path)

        public var description: String {
            switch self {
            case .unknown(let name):
                return "BIGNUM_PATH=\(name): unknown path; expected one of \(Path.allCases.map(\.rawValue).joined(separator: ", "))"
            case .unavailable(let path): return "BIGNUM_PATH=\(path.rawValue): \(path.lackedDescription)"
            }
        }
    }

    public enum Dispatch {
        /// Smallest size (UInt64 limbs; 32-bit words for `mulShiftAdd`) from which
        /// `level` is faster than every narrower path (earlier in `Path` order) at every
        /// measured size, or nil where it never is: the largest crossover that
        /// `scripts/bench bignum` printed over repeated release runs (docs/benchmarks.md
        /// has the current table and the CPU it was measured on). A CPU without a level
        /// skips its rows; `sse2` keeps carry chains and 64×64→128 products scalar, as
        /// SSE2 has neither a vector carry nor a 64-bit multiply.
        public static func crossover(_ kernel: Kernel, level: Path = .sse2) -> Int? {
            switch (level, kernel) {
            case (.scalar, _): return 1
            case (.sse2, .shiftLeft): return 6
            case (.sse2, .shiftRight): return 12
            case (.sse2, .mulShiftAdd): return 1
            case (.sse2, _): return nil  // add (64 in some runs), subtract, multiply, Montgomery, power
            case (.avx2, .montgomeryMultiply): return 48
            case (.avx2, .montgomerySquare): return 64
            case (.avx2, .power): return 24
            case (.avx2, .mulShiftAdd): return 4
            case (.avx2, _): return nil
            case (.adx, .montgomeryMultiply): return 8
            case (.adx, .montgomerySquare): return 8
            case (.adx, .power): return 8
            case (.adx, _): return nil
            case (.avx512, .mulShiftAdd): return 48  // 11–13 in most runs: the largest keeps it a win in each
            case (.avx512, _): return nil
            case (.ifma, .montgomeryMultiply): return 32
            case (.ifma, .montgomerySquare): return 48
            case (.ifma, .power): return 24
            case (.ifma, _): return nil
            }
        }

        /// The path in force for every dispatched kernel when not nil. Starts as
        /// BIGNUM_PATH when that names a path this CPU has (see `environmentError`).
        /// Setting a path the CPU lacks is a precondition failure. Set it before
        /// concurrent use: it is a plain global, read on every dispatched call.
        nonisolated(unsafe) public static var forcedPath: Path? = environmentPath {
            didSet {
                if let forcedPath {
                    precondition(forcedPath.isAvailable, PathError.unavailable(forcedPath).description)
                }
            }
        }

        /// BIGNUM_PATH as read at first use, when valid and available.
        public static var environmentPath: Path? { (try? environmentSetting.get()) ?? nil }

        /// Why BIGNUM_PATH was ignored (unknown name, or a level this CPU lacks), if it was.
        /// The library then dispatches by size; tools (bench, fuzz, tests) refuse to run.
        public static var environmentError: PathError? {
            if case .failure(let error) = environmentSetting { return error }
            return nil
        }

        static let environmentSetting: Result<Path?, PathError> = {
            guard let value = getenv("BIGNUM_PATH") else { return .success(nil) }
            return Result { () throws(PathError) in try path(named: String(cString: value)) }
        }()

        /// The path called `name`, if this CPU has it.
        public static func path(named name: String) throws(PathError) -> Path {
            guard let path = Path(rawValue: name) else { throw .unknown(name) }
            guard path.isAvailable else { throw .unavailable(path) }
            return path
        }

        /// The widest level this CPU has.
        public static let widestLevel: Path = Path.available.last ?? .scalar

        /// The path `Kernels.<kernel>` takes at `size`: the widest available level
        /// whose crossover `size` reaches, else scalar.
        @inline(__always)
        public static func path(_ kernel: Kernel, size: Int) -> Path {
            if let forcedPath { return forcedPath }
            return automaticPaths.path(kernel, size: size)
        }

        /// Per kernel, the available levels with crossovers, widest first.
        static let automaticPaths = AutomaticPaths()
    }
}

/// The dispatcher's table, resolved once against this CPU.
struct AutomaticPaths: Sendable {
    private let levels: [[(path: BigNum.Path, from: Int)]]

    init() {
        levels = BigNum.Kernel.allCases.map { kernel in
            BigNum.Path.available.reversed().compactMap { level in
                guard level != .scalar, let from = BigNum.Dispatch.crossover(kernel, level: level) else { return nil }
                return (level, from)
            }
        }
    }

    @inline(__always)
    func path(_ kernel: BigNum.Kernel, size: Int) -> BigNum.Path {
        let index = BigNum.Kernel.allCases.firstIndex(of: kernel)!
        for (path, from) in levels[index] where size >= from { return path }
        return .scalar
    }
}

extension BigNum.Kernels {
    /// Dispatched `add`; contract of `Scalar.add`.
    public static func add(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        carryIn: UInt64 = 0
    ) -> UInt64 {
        switch BigNum.Dispatch.path(.add, size: z.count) {
        case .scalar, .adx: return Scalar.add(z, x, y, carryIn: carryIn)
        default: return SIMD.add(z, x, y, carryIn: carryIn)
        }
    }

    /// Dispatched `subtract`; contract of `Scalar.subtract`.
    public static func subtract(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        borrowIn: UInt64 = 0
    ) -> UInt64 {
        switch BigNum.Dispatch.path(.subtract, size: z.count) {
        case .scalar, .adx: return Scalar.subtract(z, x, y, borrowIn: borrowIn)
        default: return SIMD.subtract(z, x, y, borrowIn: borrowIn)
        }
    }

    /// Dispatched `shiftLeft`; contract of `Scalar.shiftLeft`.
    public static func shiftLeft(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        switch BigNum.Dispatch.path(.shiftLeft, size: z.count) {
        case .scalar, .adx: Scalar.shiftLeft(z, x, by: shift)
        default: SIMD.shiftLeft(z, x, by: shift)
        }
    }

    /// Dispatched `shiftRight`; contract of `Scalar.shiftRight`.
    public static func shiftRight(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        switch BigNum.Dispatch.path(.shiftRight, size: z.count) {
        case .scalar, .adx: Scalar.shiftRight(z, x, by: shift)
        default: SIMD.shiftRight(z, x, by: shift)
        }
    }

    /// Dispatched `multiply`; contract of `Scalar.multiply`. Size: max(x.count, y.count).
    public static func multiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>
    ) {
        switch BigNum.Dispatch.path(.multiply, size: max(x.count, y.count)) {
        case .scalar, .adx: Scalar.multiply(z, x, y)
        default: SIMD.multiply(z, x, y)
        }
    }

    /// Dispatched `montgomeryMultiply`; contract of `Scalar.montgomeryMultiply`.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, path: BigNum.Dispatch.path(.montgomeryMultiply, size: m.count))
    }

    /// Dispatched `montgomerySquare`; contract of `Scalar.montgomerySquare`.
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        montgomerySquare(z, x, modulus: m, m0inv: m0inv, path: BigNum.Dispatch.path(.montgomerySquare, size: m.count))
    }

    /// Dispatched `mulShiftAdd`; contract in MulShiftAdd.swift.
    public static func mulShiftAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
        _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int
    ) -> SIMD2<UInt32> {
        mulShiftAdd(y, a, b, c, shift: shift, path: BigNum.Dispatch.path(.mulShiftAdd, size: y.count))
    }

    /// `mulShiftAdd` on `path` (which this CPU must have).
    @inline(__always)
    public static func mulShiftAdd(
        _ y: UnsafeMutableBufferPointer<SIMD2<UInt32>>, _ a: UnsafeBufferPointer<SIMD2<UInt32>>,
        _ b: UnsafeBufferPointer<SIMD2<UInt32>>, _ c: UnsafeBufferPointer<SIMD2<UInt32>>, shift: Int, path: BigNum.Path
    ) -> SIMD2<UInt32> {
        switch path {
        case .scalar, .adx: return Scalar.mulShiftAdd(y, a, b, c, shift: shift)
        case .sse2: return SIMD.mulShiftAdd(y, a, b, c, shift: shift)
        case .avx2, .avx512, .ifma: return Wide.mulShiftAdd(y, a, b, c, shift: shift, level: path)
        }
    }

    /// `montgomeryMultiply` on `path` (which this CPU must have).
    @inline(__always)
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, path: BigNum.Path
    ) {
        switch path {
        case .scalar: Scalar.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        case .adx: ADX.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        case .sse2: SIMD.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        case .avx2, .avx512, .ifma: Wide.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv, level: path)
        }
    }

    /// `montgomerySquare` on `path` (which this CPU must have).
    @inline(__always)
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, path: BigNum.Path
    ) {
        switch path {
        case .scalar: Scalar.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
        case .adx: ADX.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
        case .sse2: SIMD.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
        case .avx2, .avx512, .ifma: Wide.montgomerySquare(z, x, modulus: m, m0inv: m0inv, level: path)
        }
    }
}
