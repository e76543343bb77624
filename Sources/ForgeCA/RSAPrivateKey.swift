import BER
import BigNum
import ForgeSupport
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
public struct RSAPrivateKey: SigningKey {
    /// The key as PEM, with the label it was read with (PKCS#8 "PRIVATE KEY", or PKCS#1 "RSA PRIVATE KEY").
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

    /// Reads an unencrypted PEM private key: PKCS#8 `PRIVATE KEY` (what `forge ca`
    /// writes) or PKCS#1 `RSA PRIVATE KEY`, the DER as its label says.
    public init(pem: String) throws(KeyError) {
        let block: (label: String, der: [UInt8])
        do throws(PEMError) {
            block = try PEM.decode(pem, labels: [Self.pkcs8Label, Self.pkcs1Label])
        } catch .wrongLabel(let found, _) {
            throw KeyError(.unsupported, "a PEM '\(found)', not an unencrypted RSA private key")
        } catch {
            throw KeyError(.notPEM, "the private key: \(error)")
        }
        let der = block.der
        let parts = try Parts(der: der, pkcs8: block.label == Self.pkcs8Label)
        self.pem = PEM.encode(der, label: block.label)
        swiftCrypto = try? _RSA.Signing.PrivateKey(derRepresentation: der)
        do {
            modulus = try BigNum.MontgomeryContext(modulus: parts.modulus)
            prime1 = try BigNum.MontgomeryContext(modulus: parts.prime1)
            prime2 = try BigNum.MontgomeryContext(modulus: parts.prime2)
        } catch {
            throw KeyError(.unsupported, "the key's modulus or primes are not usable (\(error))")
        }
        guard modulus.modulusBits >= 512 else {
            throw KeyError(.unsupported, "a \(modulus.modulusBits)-bit modulus is too short")
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

    private static let pkcs8Label = "PRIVATE KEY"
    private static let pkcs1Label = "RSA PRIVATE KEY"

    /// A fresh RSA-2048 key (e = 65537) from swift-crypto (`forge ca`).
    public static func generate() throws(KeyError) -> RSAPrivateKey { try generate(bits: 2048) }

    /// A fresh RSA key of `bits` bits (e = 65537) from swift-crypto, kept as PKCS#8.
    public static func generate(bits: Int) throws(KeyError) -> RSAPrivateKey {
        let pem: String
        do {
            pem = try _RSA.Signing.PrivateKey(keySize: _RSA.Signing.KeySize(bitCount: bits)).pkcs8PEMRepresentation
        } catch {
            throw KeyError(.generationFailed, "RSA-\(bits) key generation failed: \(error)")
        }
        return try RSAPrivateKey(pem: pem)
    }

    /// The PKCS#1 v1.5 signature of `message`, hashed with `digest`: as many bytes
    /// as the modulus.
    public func sign(_ message: [UInt8], digest: DigestAlgorithm) throws(KeyError) -> [UInt8] {
        guard let swiftCrypto, let signature = Self.swiftCryptoSignature(swiftCrypto, message, digest) else {
            return try signWithBigNum(message, digest: digest)
        }
        // The same check as the CRT path's: s^e mod n must give back the encoded message.
        guard let encoded = PKCS1v15.encodedMessage(digest: digest.digest(message), algorithm: digest, length: modulus.byteCount),
              (try? modulus.power(signature, exponent: publicExponent)) == encoded else {
            throw KeyError(.inconsistent, "the signature does not verify with the public exponent: the key's parts do not match")
        }
        return signature
    }

    /// Certificates are signed sha256WithRSAEncryption, as Apple's receipt chain is.
    public static var certificateSignatureAlgorithm: AlgorithmIdentifier { AlgorithmIdentifier(oid: .sha256WithRSAEncryption) }

    public func signCertificate(_ tbsCertificate: [UInt8]) throws(KeyError) -> [UInt8] {
        try sign(tbsCertificate, digest: .sha256)
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
    public func signWithBigNum(_ message: [UInt8], digest: DigestAlgorithm) throws(KeyError) -> [UInt8] {
        guard let encoded = PKCS1v15.encodedMessage(digest: digest.digest(message), algorithm: digest,
                                                    length: modulus.byteCount) else {
            throw KeyError(.unsupported, "a \(modulus.modulusBits)-bit key is too short for a \(digest.rawValue) DigestInfo")
        }
        return try privateOperation(encoded)
    }

    /// m^d mod n for m < n (`modulus.byteCount` bytes), by the CRT, checked with e.
    package func privateOperation(_ m: [UInt8]) throws(KeyError) -> [UInt8] {
        let signature: [UInt8], recovered: [UInt8]
        do {
            let m1 = try prime1.power(prime1.reduce(m), exponent: exponent1)
            let m2 = try prime2.power(prime2.reduce(m), exponent: exponent2)
            // Garner: h = q^(−1)·(m1 − m2) mod p, s = m2 + q·h (< n, so the products mod n are exact).
            let h = try prime1.multiply(coefficient, try prime1.subtract(m1, prime1.reduce(m2)))
            signature = try modulus.add(try modulus.multiply(prime2Bytes, h), m2)
            recovered = try modulus.power(signature, exponent: publicExponent)
        } catch {
            throw KeyError(.inconsistent, "the key's CRT parts do not fit its modulus (\(error))")
        }
        guard recovered == m else {
            throw KeyError(.inconsistent, "the CRT signature does not verify with the public exponent: the key's parts do not match")
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

        /// PKCS#8 `PrivateKeyInfo` (RFC 5208) holding an rsaEncryption key, or (`pkcs8`
        /// false) a bare PKCS#1 `RSAPrivateKey`.
        init(der: [UInt8], pkcs8: Bool) throws(KeyError) {
            do {
                var reader = BERReader(der, rules: .der)
                var fields = try reader.readElement(.sequence).contentsReader()
                try reader.finish()
                let version = try withBERPath("version") { () throws(BERError) in try fields.readInt64() }
                if pkcs8 {
                    try self.init(pkcs8Fields: &fields, version: version)
                } else {
                    try self.init(pkcs1Fields: &fields, version: version)
                }
                try fields.finish()
            } catch let failure as KeyError {
                throw failure
            } catch {
                throw KeyError(.malformed, "the private key does not parse as \(pkcs8 ? "PKCS#8" : "PKCS#1"): \(error)")
            }
        }

        /// `PrivateKeyInfo ::= SEQUENCE { version 0, privateKeyAlgorithm
        /// AlgorithmIdentifier, privateKey OCTET STRING, attributes [0] OPTIONAL }`,
        /// after its version.
        private init(pkcs8Fields fields: inout BERReader, version: Int64) throws {
            guard version == 0 else { throw KeyError(.unsupported, "PKCS#8 version \(version), not 0") }
            let algorithm = try withBERPath("privateKeyAlgorithm") { () throws(BERError) in try fields.readAlgorithmIdentifier() }
            guard algorithm.oid == .rsaEncryption, algorithm.hasNullParameters else {
                throw KeyError(.unsupported, "the private key algorithm is \(algorithm.oid.shortName ?? algorithm.oid.description), "
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
            guard version == 0 else { throw KeyError(.unsupported, "RSAPrivateKey version \(version) (multi-prime) is not supported") }
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
