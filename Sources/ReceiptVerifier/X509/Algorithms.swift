// `DigestAlgorithm` and `AlgorithmIdentifier` are the Receipt module's (one of each
// for the whole package, re-exported with it); what the verifier accepts of them is
// decided here.
import BER
import Receipt

/// Which digests the verifier accepts.
extension DigestAlgorithm {
    /// The digests receipts and their certificates are signed with. Every other
    /// `DigestAlgorithm` (MD5, SHA-384, SHA-512) is refused as `unsupported-algorithm`.
    public static let acceptedInReceipts: [DigestAlgorithm] = [.sha1, .sha256]
}

/// The signature algorithms accepted (RFC 3279 / RFC 4055 identifiers, RSA PKCS#1 v1.5;
/// and RFC 5758 ecdsa-with-SHA256, only where certificates are parsed with
/// `CertificateKeyAlgorithms.rsaAndP256`: App Store JWS chains, never receipts).
///
/// `rsaEncryption` names no hash: a CMS SignerInfo uses it with the hash given by its
/// digestAlgorithm; in a certificate it leaves the hash unknown, and the chain
/// verifier reports `unsupported-algorithm` rather than guess one.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    /// RSA with the hash the context names (a SignerInfo's digestAlgorithm).
    case rsaEncryption
    /// RSA PKCS #1 v1.5 over SHA-1.
    case sha1WithRSAEncryption
    /// RSA PKCS #1 v1.5 over SHA-256.
    case sha256WithRSAEncryption
    /// ECDSA P-256 over SHA-256, for App Store JWS chains only.
    case ecdsaWithSHA256

    /// The RSA algorithms receipts accept (ECDSA is nil here).
    public init?(oid: OID) {
        self.init(oid: oid, keyAlgorithms: .rsa)
    }

    /// The algorithms `keyAlgorithms` accepts.
    public init?(oid: OID, keyAlgorithms: CertificateKeyAlgorithms) {
        switch oid {
        case .rsaEncryption: self = .rsaEncryption
        case .sha1WithRSAEncryption: self = .sha1WithRSAEncryption
        case .sha256WithRSAEncryption: self = .sha256WithRSAEncryption
        case .ecdsaWithSHA256 where keyAlgorithms.allowsP256: self = .ecdsaWithSHA256
        default: return nil
        }
    }

    /// The algorithm's identifier.
    public var oid: OID {
        switch self {
        case .rsaEncryption: return .rsaEncryption
        case .sha1WithRSAEncryption: return .sha1WithRSAEncryption
        case .sha256WithRSAEncryption: return .sha256WithRSAEncryption
        case .ecdsaWithSHA256: return .ecdsaWithSHA256
        }
    }

    /// The hash the identifier itself names (nil for `rsaEncryption`).
    public var digestAlgorithm: DigestAlgorithm? {
        switch self {
        case .rsaEncryption: return nil
        case .sha1WithRSAEncryption: return .sha1
        case .sha256WithRSAEncryption, .ecdsaWithSHA256: return .sha256
        }
    }
}

extension AlgorithmIdentifier {
    /// Reads an AlgorithmIdentifier of a certificate or public key whose parameters
    /// are absent or NULL; anything else in the parameters is refused (every
    /// algorithm accepted here has none).
    static func read(_ element: BERElement, path: [String]) throws(CertificateError) -> AlgorithmIdentifier {
        let identifier = try decoding(path) { () throws(BERError) in try AlgorithmIdentifier(element) }
        if let parameters = identifier.parameters, !identifier.hasNullParameters {
            // The parameters are the last element of the contents.
            let found = (try? BERReader(parameters, rules: element.rules).peekTag()).flatMap { $0 }
            throw CertificateError(.invalidAlgorithmParameters, at: element.contentsRange.upperBound - parameters.count,
                                   path: path + ["parameters"],
                                   "parameters of \(identifier.oid.shortName ?? identifier.oid.description) must be absent or NULL, "
                                       + "found \(found.map { "\($0)" } ?? "an unreadable element")")
        }
        return identifier
    }

    /// The signature algorithm this identifies, or `unsupportedAlgorithm` (at `offset`).
    func signatureAlgorithm(at offset: Int, path: [String], keyAlgorithms: CertificateKeyAlgorithms = .rsa)
        throws(CertificateError) -> SignatureAlgorithm {
        guard let algorithm = SignatureAlgorithm(oid: oid, keyAlgorithms: keyAlgorithms) else {
            throw CertificateError(.unsupportedAlgorithm, at: offset, path: path,
                                   "signature algorithm \(oid) is not RSA with SHA-1 or SHA-256"
                                       + (keyAlgorithms.allowsP256 ? " or ecdsa-with-SHA256" : ""))
        }
        return algorithm
    }
}
