import BER
import BigNum
import Foundation
import Receipt

/// An RSA public key (RFC 8017 §3.1) as big-endian magnitude bytes, checked once so
/// that every signature check can rely on it: modulus of 1024–4096 bits and odd,
/// exponent odd, at least 3 and below 2^32 (BoringSSL's and Go's bounds).
public struct RSAPublicKey: Sendable, Hashable {
    /// Modulus sizes accepted, in bits.
    public static let supportedModulusBits = 1024...4096

    /// Why magnitude bytes are not an acceptable key.
    public enum KeyError: Error, Hashable, Sendable {
        /// The modulus is outside `supportedModulusBits`.
        case unsupportedModulusSize(bits: Int)
        /// The modulus is even, so not a product of two odd primes.
        case evenModulus
        /// The exponent is even, below 3 or not below 2^32.
        case invalidExponent
    }

    /// The modulus n, big-endian, no leading zero bytes.
    public let modulus: [UInt8]
    /// The public exponent e, big-endian, no leading zero bytes.
    public let exponent: [UInt8]
    /// Significant bits of n.
    public let modulusBits: Int
    /// The Montgomery constants of n, computed on the first signature check (R² mod n
    /// costs about two thirds of a verification, and most keys parsed from receipts —
    /// the root's copy, pairs the signature cache already holds — never check one).
    let montgomery: LazyMontgomeryContext

    /// Bytes of n: the length of every signature under this key.
    public var modulusByteCount: Int { modulus.count }

    /// A key from big-endian magnitudes (leading zero bytes ignored).
    public init<Modulus: Collection<UInt8>, Exponent: Collection<UInt8>>(
        modulus: Modulus, exponent: Exponent
    ) throws(KeyError) {
        let n = Array(modulus.drop(while: { $0 == 0 }))
        let e = Array(exponent.drop(while: { $0 == 0 }))
        let bits = n.first.map { 8 * n.count - $0.leadingZeroBitCount } ?? 0
        guard Self.supportedModulusBits.contains(bits) else { throw .unsupportedModulusSize(bits: bits) }
        guard n.last! & 1 == 1 else { throw .evenModulus }
        guard let low = e.last, low & 1 == 1, e.count <= 4, e.count > 1 || low >= 3 else { throw .invalidExponent }
        self.montgomery = LazyMontgomeryContext(modulus: n)
        self.modulus = n
        self.exponent = e
        self.modulusBits = bits
    }

    /// Equal when modulus and exponent are equal.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
    }

    /// Hashes modulus and exponent, as equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(modulus)
        hasher.combine(exponent)
    }

    /// Computes the Montgomery constants now (they are otherwise computed by the
    /// first signature check): for keys that will check many, such as trust anchors.
    func prepareMontgomeryContext() {
        _ = montgomery.context
    }

    /// The RSA public operation s^e mod n (RFC 8017 §5.2.2 RSAVP1), as
    /// `modulusByteCount` big-endian bytes; nil if s ≥ n. Delegates to BigNum: this is
    /// the verifier's only modular exponentiation.
    func publicOperation(_ signature: [UInt8]) -> [UInt8]? {
        do {
            return try montgomery.context.power(signature, exponent: exponent)
        } catch {
            return nil
        }
    }
}

/// A modulus's `BigNum.MontgomeryContext`, built once on first use and then shared by
/// every copy of the key (and every thread).
final class LazyMontgomeryContext: @unchecked Sendable {
    // @unchecked: `built` is only read and written under `lock`; `modulus` is immutable.
    private let modulus: [UInt8]
    private let lock = NSLock()
    private var built: BigNum.MontgomeryContext?

    /// `modulus`: big-endian, odd, within `RSAPublicKey.supportedModulusBits` (checked by the key).
    init(modulus: [UInt8]) {
        self.modulus = modulus
    }

    /// Whether the context has been built (for tests).
    var isBuilt: Bool { lock.withLock { built != nil } }

    var context: BigNum.MontgomeryContext {
        lock.withLock {
            if let built { return built }
            let context: BigNum.MontgomeryContext
            do {
                context = try BigNum.MontgomeryContext(modulus: modulus)
            } catch {
                preconditionFailure("an odd modulus of \(modulus.count) bytes was refused by BigNum: \(error)")
            }
            built = context
            return context
        }
    }
}

extension RSAPublicKey {
    /// Reads `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
    /// subjectPublicKey BIT STRING }` holding `RSAPublicKey ::= SEQUENCE { modulus
    /// INTEGER, publicExponent INTEGER }` (RFC 3279 §2.3.1, parameters NULL).
    init(subjectPublicKeyInfo element: BERElement, path: [String]) throws(CertificateError) {
        let (algorithmElement, keyBits) = try decoding(path) { () throws(BERError) -> (BERElement, BitString) in
            guard element.tag == .sequence else {
                throw BERError(.unexpectedTag, at: element.offset, "expected SEQUENCE, found \(element.tag)")
            }
            var reader = try element.contentsReader()
            let algorithm = try withBERPath("algorithm") { () throws(BERError) in try reader.readElement(.sequence) }
            let key = try withBERPath("subjectPublicKey") { () throws(BERError) in try reader.readBitString() }
            try reader.finish()
            return (algorithm, key)
        }
        let algorithm = try AlgorithmIdentifier.read(algorithmElement, path: path + ["algorithm"])
        guard algorithm.oid == .rsaEncryption else {
            throw CertificateError(.unsupportedAlgorithm, at: algorithmElement.offset, path: path + ["algorithm"],
                                   "public key algorithm \(algorithm.oid) is not rsaEncryption")
        }
        guard algorithm.hasNullParameters else {
            throw CertificateError(.invalidAlgorithmParameters, at: algorithmElement.offset, path: path + ["algorithm"],
                                   "rsaEncryption key parameters must be NULL (RFC 3279 §2.3.1)")
        }
        let keyPath = path + ["subjectPublicKey"]
        let keyOffset = keyBits.bytes.startIndex
        guard keyBits.unusedBits == 0 else {
            throw CertificateError(.invalidPublicKey, at: keyOffset, path: keyPath, "RSA key BIT STRING has unused bits")
        }
        let rules = element.rules
        let (modulus, exponent, modulusOffset) = try decoding(keyPath) { () throws(BERError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>, Int) in
            var reader = BERReader(keyBits.bytes, rules: rules, depth: element.depth + 1)
            let values = try reader.readSequence { (key: inout BERReader) throws(BERError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>, Int) in
                let modulusOffset = key.offset
                let modulus = try withBERPath("modulus") { () throws(BERError) in try key.readUnsignedIntegerMagnitude() }
                let exponent = try withBERPath("publicExponent") { () throws(BERError) in try key.readUnsignedIntegerMagnitude() }
                return (modulus, exponent, modulusOffset)
            }
            try reader.finish()
            return values
        }
        do {
            try self.init(modulus: modulus, exponent: exponent)
        } catch {
            switch error {
            case .unsupportedModulusSize(let bits):
                throw CertificateError(.unsupportedKeySize, at: modulusOffset, path: keyPath + ["modulus"],
                                       "RSA modulus of \(bits) bits; \(Self.supportedModulusBits.lowerBound)–\(Self.supportedModulusBits.upperBound) supported")
            case .evenModulus:
                throw CertificateError(.invalidPublicKey, at: modulusOffset, path: keyPath + ["modulus"], "RSA modulus is even")
            case .invalidExponent:
                throw CertificateError(.invalidPublicKey, at: modulusOffset, path: keyPath + ["publicExponent"],
                                       "RSA public exponent must be odd, at least 3 and below 2^32")
            }
        }
    }
}
