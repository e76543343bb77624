import BER
import Crypto
import Foundation

/// A message digest a PKCS#7 receipt or an X.509 certificate may name, with its
/// identifier (RFC 3279, RFC 5754) and the digest itself (swift-crypto).
///
/// Naming one here does not make it acceptable: receipts are signed with SHA-1 or
/// SHA-256, and the verifier refuses every other digest as `unsupported-algorithm`.
/// The rest exist so that the forge can sign the cases that prove it (MD5 and
/// SHA-512 receipts, correctly signed and still refused).
public enum DigestAlgorithm: String, Sendable, Codable, CaseIterable {
    /// MD5: never acceptable; a forge case signs with it to prove validators refuse it.
    case md5
    /// SHA-1: older receipts sign with it.
    case sha1
    /// SHA-256: current receipts sign with it.
    case sha256
    /// SHA-384: not used by receipts.
    case sha384
    /// SHA-512: not used by receipts; a forge case signs with it to prove validators refuse it.
    case sha512

    /// The algorithm `oid` identifies, or nil for any other OID.
    public init?(oid: OID) {
        guard let algorithm = DigestAlgorithm.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = algorithm
    }

    /// The identifier in a DigestAlgorithmIdentifier or a PKCS#1 DigestInfo.
    public var oid: OID {
        switch self {
        case .md5: return .md5
        case .sha1: return .sha1
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        }
    }

    /// Length of a digest in bytes.
    public var digestLength: Int {
        switch self {
        case .md5: return Insecure.MD5.byteCount
        case .sha1: return Insecure.SHA1.byteCount
        case .sha256: return SHA256.byteCount
        case .sha384: return SHA384.byteCount
        case .sha512: return SHA512.byteCount
        }
    }

    /// The digest of `message`.
    public func digest<Message: DataProtocol>(_ message: Message) -> [UInt8] {
        switch self {
        case .md5: return Array(Insecure.MD5.hash(data: message))
        case .sha1: return Array(Insecure.SHA1.hash(data: message))
        case .sha256: return Array(SHA256.hash(data: message))
        case .sha384: return Array(SHA384.hash(data: message))
        case .sha512: return Array(SHA512.hash(data: message))
        }
    }
}
