// The wide-vector Montgomery kernels (CBigNumSIMD, C with per-function target
// attributes), with the contracts of ScalarKernels.swift. Each entry point checks
// that the CPU has the level first: a level the CPU lacks is a precondition
// failure with its name, never an illegal instruction.
import CBigNumSIMD

extension BigNum.Path {
    /// Whether this CPU (and OS) can run the path: `scalar` and `sse2` always;
    /// `adx` (ADX + BMI2) by cpuid; `avx2`, `avx512` (F+VL+BW+DQ) and `ifma` (AVX-512 IFMA)
    /// by cpuid and XGETBV.
    public var isAvailable: Bool {
        switch self {
        case .scalar, .sse2: return true
        case .adx: return BigNum.cpuLevels & UInt32(RF_BN_LEVEL_ADX) != 0
        case .avx2: return BigNum.cpuLevels & UInt32(RF_BN_LEVEL_AVX2) != 0
        case .avx512: return BigNum.cpuLevels & UInt32(RF_BN_LEVEL_AVX512) != 0
        case .ifma: return BigNum.cpuLevels & UInt32(RF_BN_LEVEL_IFMA) != 0
        }
    }

    /// The paths this CPU can run, narrowest first.
    public static var available: [BigNum.Path] { allCases.filter(\.isAvailable) }

    /// Why this path cannot run here: "this CPU lacks avx512 (it has: scalar, sse2, avx2)".
    public var lackedDescription: String {
        "this CPU lacks \(rawValue) (it has: \(BigNum.Path.available.map(\.rawValue).joined(separator: ", ")))"
    }

    /// Whether the Montgomery kernels of this path are the C ones (`Kernels.Wide`).
    public var isWide: Bool { self == .avx2 || self == .avx512 || self == .ifma }

    /// The C level (RF_BN_LEVEL_*) of a wide path.
    var wideLevel: UInt32 {
        switch self {
        case .avx2: return UInt32(RF_BN_LEVEL_AVX2)
        case .avx512: return UInt32(RF_BN_LEVEL_AVX512)
        case .ifma: return UInt32(RF_BN_LEVEL_IFMA)
        case .scalar, .sse2, .adx: preconditionFailure("\(self) is not a wide level")
        }
    }
}

extension BigNum {
    /// rf_bn_cpu_levels(), read once.
    static let cpuLevels: UInt32 = UInt32(rf_bn_cpu_levels())
}

extension BigNum.Kernels {
    /// Montgomery multiplication on wide vectors, one kernel per level: `avx2` and
    /// `avx512` in radix 2^28 (montgomery_radix28.h on four and eight lanes), `ifma`
    /// in radix 2^52 (bignum_ifma.c).
    public enum Wide {}
}

extension BigNum.Kernels.Wide {
    /// The largest modulus, in limbs, the C kernels take: they keep about 37 bytes of
    /// stack per limb (digits of x, y, m and a double-length accumulator). Larger
    /// moduli (far beyond RSA's; `MontgomeryContext` stops at 64 limbs) run the
    /// scalar kernel, which gives the same bits.
    public static let maximumLimbs = 256

    /// Same contract as `Scalar.montgomeryMultiply`, on `level` (a wide level this CPU
    /// has); moduli over `maximumLimbs` limbs run `Scalar.montgomeryMultiply`.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, level: BigNum.Path = .avx2
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && y.count == n && z.count == n, "montgomeryMultiply: lengths differ")
        checkLevel(level)
        guard n <= maximumLimbs else {
            return BigNum.Kernels.Scalar.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv)
        }
        let ran = rf_bn_wide_mont_mul(level.wideLevel, z.baseAddress!, x.baseAddress!, y.baseAddress!, m.baseAddress!, m0inv, n)
        precondition(ran == 1, "the \(level) kernel did not run")
    }

    /// Same contract as `Scalar.montgomerySquare` (the product x·x: no squaring shortcut yet).
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64, level: BigNum.Path = .avx2
    ) {
        montgomeryMultiply(z, x, x, modulus: m, m0inv: m0inv, level: level)
    }

    static func checkLevel(_ level: BigNum.Path) {
        precondition(level.isWide, "Kernels.Wide: \(level) is not a wide level (avx2, avx512, ifma)")
        precondition(level.isAvailable, "Kernels.Wide: \(level.lackedDescription)")
    }

    // MARK: Digit form, for exponentiation (convert once, multiply many times)

    /// Length of `level`'s digit form of an n-limb operand.
    static func digitCount(limbs n: Int, level: BigNum.Path) -> Int { rf_bn_wide_digit_count(level.wideLevel, n) }

    static func toDigits(_ digits: UnsafeMutablePointer<UInt64>, _ x: UnsafePointer<UInt64>, limbs n: Int, level: BigNum.Path) {
        rf_bn_wide_to_digits(level.wideLevel, digits, x, n)
    }

    static func fromDigits(_ x: UnsafeMutablePointer<UInt64>, _ digits: UnsafePointer<UInt64>, limbs n: Int, level: BigNum.Path) {
        rf_bn_wide_from_digits(level.wideLevel, x, digits, n)
    }

    /// `montgomeryMultiply` in digit form; z may alias x and/or y. The level was checked by the caller.
    @inline(__always)
    static func multiplyDigits(
        _ z: UnsafeMutablePointer<UInt64>, _ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>,
        modulus m: UnsafePointer<UInt64>, m0inv: UInt64, limbs n: Int, level: BigNum.Path
    ) {
        let ran = rf_bn_wide_mont_mul_digits(level.wideLevel, z, x, y, m, m0inv, n)
        precondition(ran == 1, "the \(level) kernel did not run")
    }
}
