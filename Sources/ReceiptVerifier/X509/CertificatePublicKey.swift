import BER
import Foundation
import Receipt

/// Which public-key algorithms a certificate parse accepts. Receipts are RSA only
/// (an EC key or ECDSA signature there stays `unsupportedAlgorithm`); App Store JWS
/// chains are P-256 with ecdsa-with-SHA256.
public enum CertificateKeyAlgorithms: Sendable, Hashable {
    /// RSA keys and signatures only: what receipts use.
    case rsa
    /// RSA, and P-256 keys with ecdsa-with-SHA256 signatures: what App Store JWS chains use.
    case rsaAndP256

    var allowsP256: Bool { self == .rsaAndP256 }
}

/// A certificate's subject public key: RSA or NIST P-256.
public enum CertificatePublicKey: Sendable {
    /// An RSA key.
    case rsa(RSAPublicKey)
    /// A NIST P-256 key.
    case p256(P256PublicKey)

    /// The RSA key, or nil for an EC key.
    public var rsa: RSAPublicKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    /// The P-256 key, or nil for an RSA key.
    public var p256: P256PublicKey? {
        if case .p256(let key) = self { return key }
        return nil
    }

    /// An RSA PKCS#1 v1.5 signature over `message` (CMS signers); an EC key never verifies one.
    public func checkSignature<Signature: Collection<UInt8>, Message: DataProtocol>(
        _ signature: Signature, message: Message, algorithm: DigestAlgorithm
    ) -> SignatureCheck {
        switch self {
        case .rsa(let key): return key.checkSignature(signature, message: message, algorithm: algorithm)
        case .p256: return .invalid(.keyMismatch, "an EC P-256 key cannot verify an RSA PKCS#1 signature")
        }
    }

    /// A certificate's signature made with `algorithm`: PKCS#1 for an RSA key, DER
    /// ECDSA for a P-256 key; a key that does not fit the algorithm is refused.
    public func checkSignature<Signature: Collection<UInt8>, Message: DataProtocol>(
        _ signature: Signature, message: Message, signatureAlgorithm algorithm: SignatureAlgorithm
    ) -> SignatureCheck {
        switch (self, algorithm) {
        case (.p256(let key), .ecdsaWithSHA256):
            return key.checkDERSignature(signature, message: message)
        case (.rsa(let key), _) where algorithm != .ecdsaWithSHA256:
            guard let digest = algorithm.digestAlgorithm else {
                return .invalid(.keyMismatch, "\(algorithm.rawValue) names no hash")
            }
            return key.checkSignature(signature, message: message, algorithm: digest)
        case (.rsa, _):
            return .invalid(.keyMismatch, "an RSA key cannot verify an \(algorithm.rawValue) signature")
        case (.p256, _):
            return .invalid(.keyMismatch, "an EC P-256 key cannot verify a \(algorithm.rawValue) signature")
        }
    }

    /// Reads a SubjectPublicKeyInfo: RSA always, P-256 when `algorithms` allows it.
    init(subjectPublicKeyInfo element: BERElement, path: [String], algorithms: CertificateKeyAlgorithms) throws(CertificateError) {
        var reader = BERReader(element.encodedBytes, rules: element.rules)
        let parts = try? reader.readSequence { (spki: inout BERReader) throws(BERError) -> (BERElement, BitString) in
            let algorithm = try spki.readElement(.sequence)
            let key = try spki.readBitString()
            try spki.finish()
            return (algorithm, key)
        }
        if let (algorithmElement, keyBits) = parts,
           let identifier = try? AlgorithmIdentifier(algorithmElement), identifier.oid == .ecPublicKey {
            guard algorithms.allowsP256 else {
                throw CertificateError(.unsupportedAlgorithm, at: algorithmElement.offset, path: path + ["algorithm"],
                                       "public key algorithm \(identifier.oid) is not rsaEncryption")
            }
            self = .p256(try P256PublicKey(algorithm: identifier, algorithmElement: algorithmElement, keyBits: keyBits, path: path))
            return
        }
        self = .rsa(try RSAPublicKey(subjectPublicKeyInfo: element, path: path))
    }
}
