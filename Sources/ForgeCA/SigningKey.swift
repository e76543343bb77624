import Receipt

/// A private key of the forge's certificate authorities: RSA-2048 (`RSAPrivateKey`,
/// receipts) or P-256 (`P256PrivateKey`, StoreKit 2 JWS). Both sign deterministically,
/// so the same key and message always give the same bytes.
public protocol SigningKey: Sendable {
    /// Reads an unencrypted PEM private key.
    init(pem: String) throws(KeyError)
    /// A fresh key. Only `forge ca` generates keys.
    static func generate() throws(KeyError) -> Self
    /// The key as PEM (PKCS#8, as `forge ca` writes it to `NAME.key.pem`).
    var pem: String { get }
    /// The DER SubjectPublicKeyInfo.
    var publicKeyInfo: [UInt8] { get }
    /// The signatureAlgorithm of the certificates this key signs.
    static var certificateSignatureAlgorithm: AlgorithmIdentifier { get }
    /// The signature of a TBSCertificate, as the certificate's signatureValue BIT STRING holds it.
    func signCertificate(_ tbsCertificate: [UInt8]) throws(KeyError) -> [UInt8]
}

/// Why a private key could not be read, generated or used: a code and what was wrong.
/// Equal by code only, so tests match the code.
public struct KeyError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not the one PEM block of a private key (or its base64 does not decode).
        case notPEM
        /// The DER does not parse as the key structure its PEM label names.
        case malformed
        /// Well-formed but not a key the forge signs with: another algorithm or curve,
        /// encrypted, multi-prime, an even or over-long modulus, too short for the digest.
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

    public static func == (lhs: KeyError, rhs: KeyError) -> Bool { lhs.code == rhs.code }
}
