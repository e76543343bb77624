import BER
import Crypto
import Foundation

/// The digests receipts and their certificates use.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case sha1
    case sha256

    public init?(oid: OID) {
        switch oid {
        case .sha1: self = .sha1
        case .sha256: self = .sha256
        default: return nil
        }
    }

    public var oid: OID {
        switch self {
        case .sha1: return .sha1
        case .sha256: return .sha256
        }
    }

    /// Length of a digest in bytes.
    public var digestLength: Int {
        switch self {
        case .sha1: return Insecure.SHA1.byteCount
        case .sha256: return SHA256.byteCount
        }
    }

    /// The digest of `message`.
    public func digest<Message: DataProtocol>(_ message: Message) -> [UInt8] {
        switch self {
        case .sha1: return Array(Insecure.SHA1.hash(data: message))
        case .sha256: return Array(SHA256.hash(data: message))
        }
    }
}

/// The signature algorithms accepted (RFC 3279 / RFC 4055 identifiers, RSA PKCS#1 v1.5).
///
/// `rsaEncryption` names no hash: a CMS SignerInfo uses it with the hash given by its
/// digestAlgorithm; in a certificate it leaves the hash unknown, and the chain
/// verifier reports `unsupported-algorithm` rather than guess one.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case rsaEncryption
    case sha1WithRSAEncryption
    case sha256WithRSAEncryption

    public init?(oid: OID) {
        switch oid {
        case .rsaEncryption: self = .rsaEncryption
        case .sha1WithRSAEncryption: self = .sha1WithRSAEncryption
        case .sha256WithRSAEncryption: self = .sha256WithRSAEncryption
        default: return nil
        }
    }

    public var oid: OID {
        switch self {
        case .rsaEncryption: return .rsaEncryption
        case .sha1WithRSAEncryption: return .sha1WithRSAEncryption
        case .sha256WithRSAEncryption: return .sha256WithRSAEncryption
        }
    }

    /// The hash the identifier itself names (nil for `rsaEncryption`).
    public var digestAlgorithm: DigestAlgorithm? {
        switch self {
        case .rsaEncryption: return nil
        case .sha1WithRSAEncryption: return .sha1
        case .sha256WithRSAEncryption: return .sha256
        }
    }
}

/// `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }` as
/// read: the OID, whether the parameters are NULL (false: absent), and where it lay.
struct AlgorithmIdentifier {
    var oid: OID
    var hasNullParameters: Bool
    var offset: Int

    /// Reads an AlgorithmIdentifier whose parameters are absent or NULL; anything
    /// else in the parameters is refused (every algorithm accepted here has none).
    static func read(_ element: BERElement, path: [String]) throws(CertificateError) -> AlgorithmIdentifier {
        let (oid, parameters) = try decoding(path) { () throws(BERError) -> (OID, BERElement?) in
            var reader = try element.contentsReader()
            let oid = try withBERPath("algorithm") { () throws(BERError) in try reader.readObjectIdentifier() }
            let parameters = reader.isAtEnd ? nil : try reader.readElement()
            try reader.finish()
            return (oid, parameters)
        }
        if let parameters, parameters.tag != .null || !parameters.contents.isEmpty {
            throw CertificateError(.invalidAlgorithmParameters, at: parameters.offset, path: path + ["parameters"],
                                   "parameters of \(oid.shortName ?? oid.description) must be absent or NULL, found \(parameters.tag)")
        }
        return AlgorithmIdentifier(oid: oid, hasNullParameters: parameters != nil, offset: element.offset)
    }

    /// The signature algorithm this identifies, or `unsupportedAlgorithm`.
    func signatureAlgorithm(path: [String]) throws(CertificateError) -> SignatureAlgorithm {
        guard let algorithm = SignatureAlgorithm(oid: oid) else {
            throw CertificateError(.unsupportedAlgorithm, at: offset, path: path,
                                   "signature algorithm \(oid) is not RSA with SHA-1 or SHA-256")
        }
        return algorithm
    }
}
