import BER
import Crypto
import Foundation
import Receipt

/// The identifiers of P-256 keys and ECDSA signatures, which App Store JWS chains use.
extension OID {
    /// id-ecPublicKey (RFC 5480 §2.1.1).
    public static let ecPublicKey: OID = "1.2.840.10045.2.1"
    /// secp256r1 / prime256v1 (RFC 5480 §2.1.1.1).
    public static let prime256v1: OID = "1.2.840.10045.3.1.7"
    /// ecdsa-with-SHA256 (RFC 5758 §3.2): parameters absent.
    public static let ecdsaWithSHA256: OID = "1.2.840.10045.4.3.2"
}

/// A NIST P-256 public key from a SubjectPublicKeyInfo (RFC 5480: id-ecPublicKey,
/// namedCurve prime256v1, an uncompressed point), checked on the curve by
/// swift-crypto, which also verifies the signatures.
public struct P256PublicKey: Sendable {
    /// `04 ‖ x ‖ y`, 65 bytes.
    public let x963Representation: [UInt8]
    /// swift-crypto's key (not `Sendable`, so made from the checked bytes when needed).
    public var key: P256.Signing.PublicKey { try! P256.Signing.PublicKey(x963Representation: x963Representation) }

    /// A key from its uncompressed point, refused unless it is 65 bytes starting `04` and on the curve.
    public init(x963Representation bytes: [UInt8]) throws(CertificateError) {
        guard bytes.count == 65, bytes.first == 0x04 else {
            throw CertificateError(.invalidPublicKey, at: 0, path: [],
                                   "a P-256 point is 65 bytes starting 04 (uncompressed), found \(bytes.count) bytes")
        }
        do {
            _ = try P256.Signing.PublicKey(x963Representation: bytes)
        } catch {
            throw CertificateError(.invalidPublicKey, at: 0, path: [], "the point is not on the P-256 curve")
        }
        x963Representation = bytes
    }

    /// `algorithm` is the SubjectPublicKeyInfo's AlgorithmIdentifier (already read),
    /// `keyBits` its subjectPublicKey.
    init(algorithm: AlgorithmIdentifier, algorithmElement: BERElement, keyBits: BitString, path: [String])
        throws(CertificateError) {
        let curve = algorithm.parameters.flatMap { parameters -> OID? in
            var reader = BERReader(parameters, rules: .der)
            guard let oid = try? reader.readObjectIdentifier(), reader.isAtEnd else { return nil }
            return oid
        }
        guard let curve else {
            throw CertificateError(.invalidAlgorithmParameters, at: algorithmElement.offset, path: path + ["algorithm"],
                                   "id-ecPublicKey parameters must be a namedCurve OID (RFC 5480 §2.1.1)")
        }
        guard curve == .prime256v1 else {
            throw CertificateError(.unsupportedAlgorithm, at: algorithmElement.offset, path: path + ["algorithm"],
                                   "EC curve \(curve) is not P-256 (prime256v1)")
        }
        guard keyBits.unusedBits == 0 else {
            throw CertificateError(.invalidPublicKey, at: keyBits.bytes.startIndex, path: path + ["subjectPublicKey"],
                                   "EC point BIT STRING has unused bits")
        }
        do {
            try self.init(x963Representation: Array(keyBits.bytes))
        } catch {
            throw CertificateError(.invalidPublicKey, at: keyBits.bytes.startIndex, path: path + ["subjectPublicKey"], error.reason)
        }
    }

    /// Verifies an ECDSA-SHA256 signature in X9.62 DER form (`ECDSA-Sig-Value`, as in certificates).
    public func checkDERSignature<Message: DataProtocol>(_ signature: some Collection<UInt8>, message: Message) -> SignatureCheck {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: Array(signature)) else {
            return .invalid(.malformedSignature, "the ECDSA signature is not a DER SEQUENCE of two INTEGERs")
        }
        return key.isValidSignature(parsed, for: message) ? .valid : .invalid(.signatureMismatch, "the ECDSA P-256 signature does not verify")
    }

    /// Verifies an ES256 signature: raw `r ‖ s`, 64 bytes (RFC 7518 §3.4).
    public func checkRawSignature<Message: DataProtocol>(_ signature: some Collection<UInt8>, message: Message) -> SignatureCheck {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: Array(signature)) else {
            return .invalid(.signatureLength, "an ES256 signature is 64 bytes (r ‖ s), found \(signature.count)")
        }
        return key.isValidSignature(parsed, for: message) ? .valid : .invalid(.signatureMismatch, "the ES256 signature does not verify")
    }
}
