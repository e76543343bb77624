import BER
import BigNum
import Receipt
import ReceiptVerifier
import Crypto
import _CryptoExtras

/// An RSA private key, read with the BER module and used with BigNum: no OpenSSL.
/// Signing is RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.1), which is deterministic: the same
/// key and message always give the same signature, so forged receipts and
/// certificates are byte-reproducible.
///
/// The private operation uses the Chinese Remainder Theorem (RFC 8017 §5.1.2: two
/// half-size exponentiations and Garner's recombination), and every result is
/// checked with the public exponent before it is returned (s^e mod n = m), so an
/// inconsistent key or a fault gives an error, never a wrong signature. There is
/// no blinding and the arithmetic is not constant-time: these are public test keys.
public struct RSAPrivateKey: Sendable {
    /// The PEM text it was loaded from (PKCS#8 "PRIVATE KEY", or PKCS#1 "RSA PRIVATE KEY").
    public let pem: String
    /// The DER SubjectPublicKeyInfo (rsaEncryption, NULL parameters).
    public let publicKeyInfo: [UInt8]
    /// n, with its Montgomery constants, and e.
    package let modulus: BigNum.MontgomeryContext
    package let publicExponent: [UInt8]
    /// p, q, d mod (p−1), d mod (q−1) and q^(−1) mod p.
    package let prime1: BigNum.MontgomeryContext
    package let prime2: BigNum.MontgomeryContext
    package let prime2Bytes: [UInt8]
    package let exponent1: [UInt8]
    package let exponent2: [UInt8]
    package let coefficient: [UInt8]
    /// The same key in swift-crypto, for the digests it signs with (SHA-1, SHA-2): its
    /// assembly is fast in debug builds too, where the BigNum path is not. Both give
    /// the same bytes (PKCS#1 v1.5 is deterministic; a test compares them).
    package let swiftCrypto: _RSA.Signing.PrivateKey?

    /// Why a key could not be read, generated or used: a code and what was wrong.
    /// Equal by code only, so tests match the code.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public enum Code: String, Sendable {
            /// A file of the CA is absent.
            case missingFile
            /// Not PEM, or the base64 inside does not decode.
            case notPEM
            /// The DER does not parse as PKCS#8 PrivateKeyInfo or PKCS#1 RSAPrivateKey.
            case malformed
            /// Well-formed but not a key the forge signs with: not RSA, encrypted,
            /// multi-prime, an even or over-long modulus, or too short for the digest.
            case unsupported
            /// The parts do not make one key: the signature fails its own check.
            case inconsistent
            /// swift-crypto could not generate a key.
            case generationFailed
        }

        public let code: Code
        public let description: String

        public init(_ code: Code, _ description: String) {
            self.code = code
            self.description = description
        }

        public static func == (lhs: Failure, rhs: Failure) -> Bool { lhs.code == rhs.code }
    }

    /// Reads an unencrypted PEM private key: PKCS#8 (what `forge ca` writes) or PKCS#1.
    public init(pem: String) throws(Failure) {
        guard let der = pemBody(Array(pem.utf8)) else {
            throw Failure(.notPEM, "the private key is not PEM (-----BEGIN PRIVATE KEY----- and base64)")
        }
        let parts = try Parts(der: der)
        self.pem = pem
        swiftCrypto = try? _RSA.Signing.PrivateKey(derRepresentation: der)
        do {
            modulus = try BigNum.MontgomeryContext(modulus: parts.modulus)
            prime1 = try BigNum.MontgomeryContext(modulus: parts.prime1)
            prime2 = try BigNum.MontgomeryContext(modulus: parts.prime2)
        } catch {
            throw Failure(.unsupported, "the key's modulus or primes are not usable (\(error))")
        }
        guard modulus.modulusBits >= 512 else {
            throw Failure(.unsupported, "a \(modulus.modulusBits)-bit modulus is too short")
        }
        publicExponent = parts.publicExponent
        prime2Bytes = parts.prime2
        exponent1 = parts.exponent1
        exponent2 = parts.exponent2
        coefficient = parts.coefficient
        var spki = BERWriter()
        spki.appendSequence { info in
            info.appendAlgorithmIdentifier(AlgorithmIdentifier(oid: .rsaEncryption))
            var key = BERWriter()
            key.appendSequence { rsa in
                rsa.appendUnsignedInteger(magnitude: parts.modulus)
                rsa.appendUnsignedInteger(magnitude: parts.publicExponent)
            }
            info.appendBitString(BitString(bytes: key.bytes[...]))
        }
        publicKeyInfo = spki.bytes
    }

    /// A fresh RSA key (e = 65537) from swift-crypto, kept as PKCS#8 PEM. Only
    /// `forge ca` generates keys.
    public static func generate(bits: Int = 2048) throws(Failure) -> RSAPrivateKey {
        let pem: String
        do {
            pem = try _RSA.Signing.PrivateKey(keySize: _RSA.Signing.KeySize(bitCount: bits)).pkcs8PEMRepresentation
        } catch {
            throw Failure(.generationFailed, "RSA-\(bits) key generation failed: \(error)")
        }
        return try RSAPrivateKey(pem: pem)
    }

    /// The PKCS#1 v1.5 signature of `message`, hashed with `digest`: as many bytes
    /// as the modulus.
    public func sign(_ message: [UInt8], digest: DigestAlgorithm) throws(Failure) -> [UInt8] {
        guard let swiftCrypto, let signature = Self.swiftCryptoSignature(swiftCrypto, message, digest) else {
            return try signWithBigNum(message, digest: digest)
        }
        // The same check as the CRT path's: s^e mod n must give back the encoded message.
        guard let encoded = PKCS1v15.encodedMessage(digest: digest.digest(message), algorithm: digest, length: modulus.byteCount),
              (try? modulus.power(signature, exponent: publicExponent)) == encoded else {
            throw Failure(.inconsistent, "the signature does not verify with the public exponent: the key's parts do not match")
        }
        return signature
    }

    /// swift-crypto's PKCS#1 v1.5 signature for the SHA digests, nil for the others.
    package static func swiftCryptoSignature(_ key: _RSA.Signing.PrivateKey, _ message: [UInt8], _ digest: DigestAlgorithm) -> [UInt8]? {
        let padding = _RSA.Signing.Padding.insecurePKCS1v1_5
        switch digest {
        case .sha1: return (try? key.signature(for: Insecure.SHA1.hash(data: message), padding: padding)).map { Array($0.rawRepresentation) }
        case .sha256: return (try? key.signature(for: SHA256.hash(data: message), padding: padding)).map { Array($0.rawRepresentation) }
        case .sha384: return (try? key.signature(for: SHA384.hash(data: message), padding: padding)).map { Array($0.rawRepresentation) }
        case .sha512: return (try? key.signature(for: SHA512.hash(data: message), padding: padding)).map { Array($0.rawRepresentation) }
        default: return nil
        }
    }

    /// The signature by the project's own RSA (CRT on BigNum): every digest, MD5
    /// included, which swift-crypto does not sign with.
    public func signWithBigNum(_ message: [UInt8], digest: DigestAlgorithm) throws(Failure) -> [UInt8] {
        guard let encoded = PKCS1v15.encodedMessage(digest: digest.digest(message), algorithm: digest,
                                                    length: modulus.byteCount) else {
            throw Failure(.unsupported, "a \(modulus.modulusBits)-bit key is too short for a \(digest.rawValue) DigestInfo")
        }
        return try privateOperation(encoded)
    }

    /// m^d mod n for m < n (`modulus.byteCount` bytes), by the CRT, checked with e.
    package func privateOperation(_ m: [UInt8]) throws(Failure) -> [UInt8] {
        let signature: [UInt8], recovered: [UInt8]
        do {
            let m1 = try prime1.power(prime1.reduce(m), exponent: exponent1)
            let m2 = try prime2.power(prime2.reduce(m), exponent: exponent2)
            // Garner: h = q^(−1)·(m1 − m2) mod p, s = m2 + q·h (< n, so the products mod n are exact).
            let h = try prime1.multiply(coefficient, try prime1.subtract(m1, prime1.reduce(m2)))
            signature = try modulus.add(try modulus.multiply(prime2Bytes, h), m2)
            recovered = try modulus.power(signature, exponent: publicExponent)
        } catch {
            throw Failure(.inconsistent, "the key's CRT parts do not fit its modulus (\(error))")
        }
        guard recovered == m else {
            throw Failure(.inconsistent, "the CRT signature does not verify with the public exponent: the key's parts do not match")
        }
        return signature
    }
}

extension RSAPrivateKey {
    /// The integers of a two-prime RSA key (RFC 8017 Appendix A.1.2), as unsigned
    /// big-endian magnitudes.
    package struct Parts {
        var modulus: [UInt8] = []
        var publicExponent: [UInt8] = []
        var prime1: [UInt8] = []
        var prime2: [UInt8] = []
        var exponent1: [UInt8] = []
        var exponent2: [UInt8] = []
        var coefficient: [UInt8] = []

        /// PKCS#8 `PrivateKeyInfo` (RFC 5208) holding an rsaEncryption key, or a bare
        /// PKCS#1 `RSAPrivateKey`; told apart by the second element (an
        /// AlgorithmIdentifier SEQUENCE or the modulus INTEGER).
        init(der: [UInt8]) throws(Failure) {
            do {
                var reader = BERReader(der, rules: .der)
                var fields = try reader.readElement(.sequence).contentsReader()
                try reader.finish()
                let version = try withBERPath("version") { () throws(BERError) in try fields.readInt64() }
                if try fields.peekTag() == .integer {
                    try self.init(pkcs1Fields: &fields, version: version)
                } else {
                    try self.init(pkcs8Fields: &fields, version: version)
                }
                try fields.finish()
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(.malformed, "the private key does not parse: \(error)")
            }
        }

        /// `PrivateKeyInfo ::= SEQUENCE { version 0, privateKeyAlgorithm
        /// AlgorithmIdentifier, privateKey OCTET STRING, attributes [0] OPTIONAL }`,
        /// after its version.
        private init(pkcs8Fields fields: inout BERReader, version: Int64) throws {
            guard version == 0 else { throw Failure(.unsupported, "PKCS#8 version \(version), not 0") }
            let algorithm = try withBERPath("privateKeyAlgorithm") { () throws(BERError) in try fields.readAlgorithmIdentifier() }
            guard algorithm.oid == .rsaEncryption, algorithm.hasNullParameters else {
                throw Failure(.unsupported, "the private key algorithm is \(algorithm.oid.shortName ?? algorithm.oid.description), "
                                  + "not rsaEncryption with NULL parameters")
            }
            let key = try withBERPath("privateKey") { () throws(BERError) in try fields.readOctetString() }
            _ = try fields.readOptionalElement(.context(0))  // attributes: none matter for signing
            var inner = BERReader(Array(key), rules: .der)
            var rsa = try withBERPath("privateKey") { () throws(BERError) in try inner.readElement(.sequence).contentsReader() }
            try withBERPath("privateKey") { () throws(BERError) in try inner.finish() }
            let rsaVersion = try withBERPath("privateKey.version") { () throws(BERError) in try rsa.readInt64() }
            try self.init(pkcs1Fields: &rsa, version: rsaVersion)
            try withBERPath("privateKey") { () throws(BERError) in try rsa.finish() }
        }

        /// `RSAPrivateKey ::= SEQUENCE { version 0, modulus, publicExponent,
        /// privateExponent, prime1, prime2, exponent1, exponent2, coefficient }`, after
        /// its version. Version 1 (multi-prime) is refused; the private exponent d is
        /// not needed (the CRT parts are), only read.
        private init(pkcs1Fields fields: inout BERReader, version: Int64) throws {
            guard version == 0 else { throw Failure(.unsupported, "RSAPrivateKey version \(version) (multi-prime) is not supported") }
            func integer(_ name: String) throws(BERError) -> [UInt8] {
                Array(try withBERPath(name) { () throws(BERError) in try fields.readUnsignedIntegerMagnitude() })
            }
            modulus = try integer("modulus")
            publicExponent = try integer("publicExponent")
            _ = try integer("privateExponent")
            prime1 = try integer("prime1")
            prime2 = try integer("prime2")
            exponent1 = try integer("exponent1")
            exponent2 = try integer("exponent2")
            coefficient = try integer("coefficient")
        }
    }
}
