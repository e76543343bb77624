import BER
import Crypto
import ForgeSupport
import Receipt
import ReceiptVerifier

/// A P-256 signing key of the forge's JWS CA, signing deterministically: ECDSA with
/// SHA-256 and the nonce of RFC 6979 §3.2 (HMAC-SHA256 DRBG seeded from the key and
/// the message digest), so the same key and message always give the same signature
/// and minted fixtures are byte-for-byte reproducible. swift-crypto's own ECDSA
/// draws a random nonce, so the signature is assembled here: k·G from swift-crypto
/// (the public key of scalar k), r and s modulo n on BigNum (`P256Scalars`); every
/// signature is verified with swift-crypto before it is returned.
public struct P256PrivateKey: SigningKey {
    /// The private scalar d, 32 bytes big-endian.
    package let scalar: [UInt8]
    /// swift-crypto's key (not `Sendable`, so made from the scalar when needed).
    public var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: scalar) }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pem: String { PEM.encode(Array(key.derRepresentation), label: "PRIVATE KEY") }

    /// The DER SubjectPublicKeyInfo (id-ecPublicKey, prime256v1).
    public var publicKeyInfo: [UInt8] { Array(key.publicKey.derRepresentation) }

    public init(key: P256.Signing.PrivateKey) { scalar = Array(key.rawRepresentation) }

    /// Reads a PKCS#8 `PRIVATE KEY` or SEC 1 `EC PRIVATE KEY` on P-256.
    public init(pem: String) throws(KeyError) {
        let der: [UInt8]
        do throws(PEMError) {
            der = try PEM.decode(pem, labels: ["PRIVATE KEY", "EC PRIVATE KEY"]).der
        } catch .wrongLabel(let found, _) {
            throw KeyError(.unsupported, "a PEM '\(found)', not an unencrypted P-256 private key")
        } catch {
            throw KeyError(.notPEM, "the private key: \(error)")
        }
        do {
            scalar = Array(try P256.Signing.PrivateKey(derRepresentation: der).rawRepresentation)
        } catch {
            throw KeyError(.malformed, "not a P-256 private key: \(error)")
        }
    }

    /// RFC 6979 §A.2.5's test key (tests only pin the arithmetic with it).
    public init(rawScalar: [UInt8]) throws(KeyError) {
        do {
            scalar = Array(try P256.Signing.PrivateKey(rawRepresentation: rawScalar).rawRepresentation)
        } catch {
            throw KeyError(.malformed, "not a P-256 private scalar: \(error)")
        }
    }

    /// A fresh key (`forge ca`).
    public static func generate() -> P256PrivateKey { P256PrivateKey(key: P256.Signing.PrivateKey()) }

    /// ECDSA P-256 SHA-256 signature of `message` as raw r ‖ s (64 bytes, as ES256 wants).
    public func signRaw(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        let digest = Array(SHA256.hash(data: message))
        let (r, s) = Self.sign(digest: digest, scalar: scalar)
        let raw = r + s
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw),
              key.publicKey.isValidSignature(signature, for: message) else {
            throw KeyError(.inconsistent, "the deterministic ECDSA signature does not verify with swift-crypto")
        }
        return raw
    }

    /// The same signature as DER `ECDSA-Sig-Value` (certificates, and the DER-signature fixture).
    public func signDER(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        let raw = try signRaw(message)
        // 64 bytes of r ‖ s always convert.
        return Array(try! P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation)
    }

    /// Certificates are signed ecdsa-with-SHA256, parameters absent (RFC 5758 §3.2).
    public static var certificateSignatureAlgorithm: AlgorithmIdentifier {
        AlgorithmIdentifier(oid: .ecdsaWithSHA256, parameters: nil)
    }

    public func signCertificate(_ tbsCertificate: [UInt8]) throws(KeyError) -> [UInt8] { try signDER(tbsCertificate) }

    /// r and s for a SHA-256 `digest` under private `scalar` with the RFC 6979 nonce.
    package static func sign(digest: [UInt8], scalar: [UInt8]) -> (r: [UInt8], s: [UInt8]) {
        let scalars = P256Scalars.scalars
        // bits2octets(h1): h1 mod n (qlen = hlen = 256, so no shift).
        let h = scalars.reduce(digest)
        var generator = RFC6979Nonces(scalar: scalar, digestOctets: h)
        while true {
            let k = generator.next()
            // k·G is the public key of the private scalar k (swift-crypto refuses 0 and k ≥ n).
            guard !P256Scalars.isZero(k), P256Scalars.less(k, P256Scalars.n),
                  let point = try? P256.Signing.PrivateKey(rawRepresentation: k).publicKey.x963Representation else { continue }
            let r = scalars.reduce(Array(point[1...32]))
            guard !P256Scalars.isZero(r) else { continue }
            // s = k⁻¹ (h + r·d) mod n
            let s = scalars.mul(scalars.inverse(k), scalars.add(h, scalars.mul(r, scalars.reduce(scalar))))
            guard !P256Scalars.isZero(s) else { continue }
            return (r, s)
        }
    }
}

/// RFC 6979 §3.2 steps b–h with HMAC-SHA256 for a 256-bit group order.
package struct RFC6979Nonces {
    private var k: [UInt8]
    private var v: [UInt8]
    private var first = true

    package init(scalar: [UInt8], digestOctets: [UInt8]) {
        v = [UInt8](repeating: 0x01, count: 32)
        k = [UInt8](repeating: 0x00, count: 32)
        k = Self.hmac(k, v + [0x00] + scalar + digestOctets)
        v = Self.hmac(k, v)
        k = Self.hmac(k, v + [0x01] + scalar + digestOctets)
        v = Self.hmac(k, v)
    }

    /// The next candidate nonce (step h; after a refused candidate, K and V move on).
    package mutating func next() -> [UInt8] {
        if !first {
            k = Self.hmac(k, v + [0x00])
            v = Self.hmac(k, v)
        }
        first = false
        v = Self.hmac(k, v)
        return v
    }

    package static func hmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
