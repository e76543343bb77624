// The scalar Montgomery kernels with MULX/ADCX/ADOX (CBigNumSIMD's bignum_adx.c),
// with the contracts of ScalarKernels.swift: 64-bit limbs like `Scalar`, two carry
// chains at once, and a real squaring (cross products once, doubled). Each entry
// point checks that the CPU has ADX and BMI2 first: without them it is a
// precondition failure naming the path, never an illegal instruction.
import CBigNumSIMD

extension BigNum.Kernels {
    /// Montgomery multiply and square on 64-bit limbs with MULX and ADX.
    public enum ADX {}
}

extension BigNum.Kernels.ADX {
    /// The largest modulus, in limbs, the C kernels take: they keep 16 bytes of stack
    /// per limb. Larger moduli (far beyond RSA's) run the `Scalar` kernels, which give
    /// the same bits.
    public static let maximumLimbs = 256

    /// Same contract as `Scalar.montgomeryMultiply`.
    public static func montgomeryMultiply(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>, _ y: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && y.count == n && z.count == n, "montgomeryMultiply: lengths differ")
        checkAvailable()
        guard n <= maximumLimbs else { return BigNum.Kernels.Scalar.montgomeryMultiply(z, x, y, modulus: m, m0inv: m0inv) }
        let ran = rf_bn_adx_mont_mul(z.baseAddress!, x.baseAddress!, y.baseAddress!, m.baseAddress!, m0inv, n)
        precondition(ran == 1, "the ADX kernel did not run")
    }

    /// Same contract as `Scalar.montgomerySquare`.
    public static func montgomerySquare(
        _ z: UnsafeMutableBufferPointer<UInt64>, _ x: UnsafeBufferPointer<UInt64>,
        modulus m: UnsafeBufferPointer<UInt64>, m0inv: UInt64
    ) {
        let n = m.count
        precondition(n >= 1 && x.count == n && z.count == n, "montgomerySquare: lengths differ")
        checkAvailable()
        guard n <= maximumLimbs else { return BigNum.Kernels.Scalar.montgomerySquare(z, x, modulus: m, m0inv: m0inv) }
        let ran = rf_bn_adx_mont_sqr(z.baseAddress!, x.baseAddress!, m.baseAddress!, m0inv, n)
        precondition(ran == 1, "the ADX kernel did not run")
    }

    @inline(__always)
    static func checkAvailable() {
        precondition(BigNum.Path.adx.isAvailable, "Kernels.ADX: \(BigNum.Path.adx.lackedDescription)")
    }
}
