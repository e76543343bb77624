// Which path runs: a per-kernel crossover size measured by `scripts/bench bignum`,
// unless `Dispatch.forcedPath` (initially from BIGNUM_PATH=scalar|simd) pins one.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension BigNum {
    /// The kernels that have two paths.
    public enum Kernel: String, Sendable, CaseIterable {
        case add, subtract, shiftLeft, shiftRight, multiply, montgomeryMultiply, montgomerySquare, mulShiftAdd
    }

    public enum Dispatch {
        /// Smallest size (UInt64 limbs; 32-bit words for `mulShiftAdd`) from which the
        /// SIMD path is faster at every measured size, or nil where the scalar path
        /// always won. Copied from the "Crossover table" printed by
        /// `scripts/bench bignum` (release build, AMD EPYC 2-core VM, Swift 6.3.1,
        /// baseline x86-64 = SSE2 codegen, run of 2026-11-22). Carry chains (add,
        /// subtract) and 64×64→128 products (multiply, Montgomery) stay scalar: SSE2
        /// has neither a vector carry nor a 64-bit multiply, and the SIMD paths pay
        /// four 32-bit products per 64-bit one.
        public static func crossover(_ kernel: Kernel) -> Int? {
            switch kernel {
            case .add: return nil
            case .subtract: return nil
            case .shiftLeft: return 6
            case .shiftRight: return 6
            case .multiply: return nil
            case .montgomeryMultiply: return nil
            case .montgomerySquare: return nil
            case .mulShiftAdd: return 1
            }
        }

        /// The path in force for every dispatched kernel when not nil. Starts as
        /// BIGNUM_PATH (`scalar` or `simd`; anything else is ignored). Set it before
        /// concurrent use: it is a plain global, read on every dispatched call.
        nonisolated(unsafe) public static var forcedPath: Path? = environmentPath

        /// BIGNUM_PATH as read at first use.
        public static let environmentPath: Path? = getenv("BIGNUM_PATH").flatMap { Path(rawValue: String(cString: $0)) }

        /// The path `Kernels.<kernel>` takes at `size`.
        @inline(__always)
        public static func path(_ kernel: Kernel, size: Int) -> Path {
            if let forcedPath { return forcedPath }
            guard let threshold = crossover(kernel) else { return .scalar }
            return size >= threshold ? .simd : .scalar
        }
    }
}

extension BigNum.Kernels {
    /// Dispatched `add`; contract of `Scalar.add`.
    public static func add(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        carryIn: UInt64 = 0
    ) -> UInt64 {
        switch BigNum.Dispatch.path(.add, size: z.count) {
        case .scalar: return Scalar.add(z, x, y, carryIn: carryIn)
        case .simd: return SIMD.add(z, x, y, carryIn: carryIn)
        }
    }

    /// Dispatched `subtract`; contract of `Scalar.subtract`.
    public static func subtract(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        borrowIn: UInt64 = 0
    ) -> UInt64 {
        switch BigNum.Dispatch.path(.subtract, size: z.count) {
        case .scalar: return Scalar.subtract(z, x, y, borrowIn: borrowIn)
        case .simd: return SIMD.subtract(z, x, y, borrowIn: borrowIn)
        }
    }

    /// Dispatched `shiftLeft`; contract of `Scalar.shiftLeft`.
    public static func shiftLeft(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        switch BigNum.Dispatch.path(.shiftLeft, size: z.count) {
        case .scalar: Scalar.shiftLeft(z, x, by: shift)
        case .simd: SIMD.shiftLeft(z, x, by: shift)
        }
    }

    /// Dispatched `shiftRight`; contract of `Scalar.shiftRight`.
    public static func shiftRight(_ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, by shift: Int) {
        switch BigNum.Dispatch.path(.shiftRight, size: z.count) {
        case .scalar: Scalar.shiftRight(z, x, by: shift)
        case .simd: SIMD.shiftRight(z, x, by: shift)
        }
    }

    /// Dispatched `multiply`; contract of `Scalar.multiply`. Size: max(x.count, y.count).
    public static func multiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>
    ) {
        switch BigNum.Dispatch.path(.multiply, size: max(x.count, y.count)) {
        case .scalar: Scalar.multiply(z, x, y)
        case .simd: SIMD.multiply(z, x, y)
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
        switch BigNum.Dispatch.path(.mulShiftAdd, size: y.count) {
        case .scalar: return Scalar.mulShiftAdd(y, a, b, c, shift: shift)
        case .simd: return SIMD.mulShiftAdd(y, a, b, c, shift: shift)
        }
    }

    @inline(__always)
    static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, path: BigNum.Path
    ) {
        switch path {
        case .scalar: Scalar.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        case .simd: SIMD.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        }
    }

    @inline(__always)
    static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, path: BigNum.Path
    ) {
        switch path {
        case .scalar: Scalar.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
        case .simd: SIMD.montgomerySquare(z, x, modulus: m, m0inv: m0inv)
        }
    }
}
