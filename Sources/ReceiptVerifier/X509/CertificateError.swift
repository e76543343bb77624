import BER
import Receipt

/// Why a certificate does not parse: what (`code`; for encoding faults also the BER
/// rule broken, `encodingCode`), where (`offset` into the buffer that was parsed and
/// `path`, the schema fields being read) and a human-readable `reason`.
///
/// Errors compare equal by `code` and `encodingCode` only, like `BERError`.
public struct CertificateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the certificate, as a stable code: errors compare by it.
    public enum Code: String, Sendable, CaseIterable {
        /// The bytes break a BER rule or do not follow the X.509 schema; see `encodingCode`.
        case malformedEncoding
        /// A version other than v1, v2 or v3, or a field the version does not allow.
        case unsupportedVersion
        /// A negative serial number, or one longer than 20 octets (RFC 5280 §4.1.2.2).
        case invalidSerialNumber
        /// A signature or public-key algorithm other than RSA with SHA-1 or SHA-256.
        case unsupportedAlgorithm
        /// AlgorithmIdentifier parameters that are neither absent nor NULL (NULL
        /// required for `rsaEncryption` keys, as Go requires).
        case invalidAlgorithmParameters
        /// The signature algorithm inside the TBSCertificate differs from the outer one.
        case algorithmMismatch
        /// An RSA modulus outside `RSAPublicKey.supportedModulusBits`.
        case unsupportedKeySize
        /// An RSA key that cannot be a key: even modulus, bad exponent.
        case invalidPublicKey
        /// An extension whose value does not decode, or an empty extension list.
        case invalidExtension
        /// The same extension twice.
        case duplicateExtension
    }

    /// What is wrong.
    public var code: Code
    /// For `malformedEncoding`: the BER rule broken (nil for schema-level faults).
    public var encodingCode: BERError.Code?
    /// Byte index, into the buffer handed to the parser, of the element at fault.
    public var offset: Int
    /// Schema path, outermost first (`["certificate", "tbsCertificate", "extensions[2]"]`).
    public var path: [String]
    /// Why, in words.
    public var reason: String

    /// An error with its code, byte offset, schema path and reason.
    public init(_ code: Code, at offset: Int, path: [String], _ reason: String) {
        self.code = code
        self.encodingCode = nil
        self.offset = offset
        self.path = path
        self.reason = reason
    }

    /// A BER fault found while reading `path`.
    public init(_ error: BERError, path: [String]) {
        self.code = .malformedEncoding
        self.encodingCode = error.code
        self.offset = error.offset
        self.path = path + error.path
        self.reason = error.reason
    }

    /// The verdict a verifier gives for a certificate that does not parse.
    public var verdictReason: VerdictReason {
        switch code {
        case .unsupportedAlgorithm, .unsupportedKeySize: return .unsupportedAlgorithm
        default: return .malformed
        }
    }

    /// The path joined with dots (`certificate.tbsCertificate.extensions[2]`).
    public var pathDescription: String { BERError.describe(path: path) }

    /// `code at byte offset in path: reason`, with the encoding error's code beside a `malformedEncoding`.
    public var description: String {
        let what = encodingCode.map { "\(code.rawValue)(\($0.rawValue))" } ?? code.rawValue
        let place = path.isEmpty ? "" : " in \(pathDescription)"
        return "\(what) at byte \(offset)\(place): \(reason)"
    }

    /// Equal when the codes (and encoding codes) are equal: offsets, paths and wording are not compared.
    public static func == (lhs: CertificateError, rhs: CertificateError) -> Bool {
        lhs.code == rhs.code && lhs.encodingCode == rhs.encodingCode
    }

    /// Hashes the codes, as equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(encodingCode)
    }
}

/// Runs BER reads for the schema fields at `path`, turning a `BERError` into a
/// `CertificateError` that carries the full path.
@inlinable
func decoding<T>(_ path: [String], _ body: () throws(BERError) -> T) throws(CertificateError) -> T {
    do {
        return try body()
    } catch {
        throw CertificateError(error, path: path)
    }
}
