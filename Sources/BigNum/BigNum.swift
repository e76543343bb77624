// BigNum: multi-precision arithmetic for the verifier (RSA public-key operation) and
// for the fixed-point kernel `y = (a .* b >> n) + c` on 2-lane vectors.
//
// Two limb layouts, each chosen for its user:
//   - `UInt64` limbs, least significant first, for everything modular: the CPU's
//     64×64→128 multiply does four times the work of a 32×32→64 one.
//   - `SIMD2<UInt32>` words, least significant first, for `mulShiftAdd`: word k of
//     lane 0 and word k of lane 1 sit side by side, so one vector multiply serves
//     both lanes (the seed note's layout).
//
// Every kernel is written twice, in `Kernels.Scalar` and `Kernels.SIMD`, with one
// contract and bit-identical results; the Montgomery kernels have a third, wide-vector
// implementation in C (`Kernels.Wide`, AVX2, chosen by cpuid at run time). `Kernels`
// (no suffix) dispatches by size from a measured table, and `Dispatch.forcedPath` (or
// `BIGNUM_PATH=scalar|sse2|avx2|adx|avx512|ifma`) pins one path everywhere so a whole test
// suite can run on it.
//
// The verifier's entry point is `MontgomeryContext`: build it once per RSA key from
// the modulus bytes, then call `power(_:exponent:)` per signature. The forge's RSA
// private-key operation (CRT) adds `reduce`, `add`, `subtract` and `multiply` modulo
// the same context (ModularArithmetic.swift).

/// Namespace of the module. See the file comment of BigNum.swift for the layout.
public enum BigNum {
    /// The largest modulus `MontgomeryContext` accepts, in bits (RSA-4096).
    public static let maximumModulusBits = 4096

    /// Why a public, data-dependent operation refused its input. Kernels do not
    /// throw: their contracts are preconditions on lengths, documented per kernel.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// The modulus is zero or one (after leading zero bytes are dropped).
        case modulusTooSmall
        /// The modulus is longer than `maximumModulusBits`.
        case modulusTooLarge(bits: Int)
        /// The modulus is even; Montgomery arithmetic needs an odd modulus.
        case modulusEven
        /// The base is not smaller than the modulus (for RSA: signature ≥ n).
        case baseNotReduced
        /// The exponent has more significant bytes than the modulus.
        case exponentTooLarge(bytes: Int)
    }

    /// Which implementation of a kernel runs: the scalar reference, a vector ISA
    /// level, or `adx` (the scalar Montgomery kernels in C with MULX/ADCX/ADOX, x86-64
    /// with BMI2 and ADX; its other kernels are the scalar ones). `adx` comes after
    /// `avx2` in this order so that the dispatcher, which prefers later paths whose
    /// crossover the size reaches, takes it over the AVX2 Montgomery kernel where the
    /// CPU has both, and AVX2 where it lacks ADX. `sse2` is the Swift SIMD code (baseline x86-64; NEON elsewhere); the
    /// wider levels run the C kernels of CBigNumSIMD for the Montgomery kernels and
    /// the `sse2` code for the others. `avx512` and `ifma` are detected and can be
    /// pinned, but have no kernels of their own yet: they run the AVX2 ones.
    /// A level is usable only when `isAvailable` (cpuid and the OS agree).
    public enum Path: String, Sendable, CaseIterable {
        case scalar
        case sse2
        case avx2
        case adx
        case avx512
        case ifma
    }

    /// Namespace of the kernels; `Kernels.Scalar` and `Kernels.SIMD` hold the two
    /// implementations, the static functions on `Kernels` itself dispatch by size.
    public enum Kernels {}
}
