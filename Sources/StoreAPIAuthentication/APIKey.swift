import Crypto
import FileAccess
import ForgeSupport

/// An App Store Server API key as the server knows it: the key id a token names in its
/// `kid` header, the issuer id its `iss` claim must carry, and the P-256 public key its
/// ES256 signature must verify with. App Store Connect hands out the private half as a
/// `.p8` file (PKCS#8 PEM, named `SubscriptionKey_KEYID.p8` or `AuthKey_KEYID.p8`) and
/// shows the issuer id beside it; the server needs only the public half, so either file
/// will do.
public struct APIKey: Sendable, Hashable {
    public let keyIdentifier: String
    public let issuerIdentifier: String
    /// The public point, uncompressed (ANSI X9.63: 04 ‖ x ‖ y), which swift-crypto reads
    /// back without a check that can fail; kept as bytes because swift-crypto's key type
    /// is not `Sendable`.
    public let publicKeyX963: [UInt8]

    public init(keyIdentifier: String, issuerIdentifier: String, publicKey: P256.Signing.PublicKey) {
        self.keyIdentifier = keyIdentifier
        self.issuerIdentifier = issuerIdentifier
        publicKeyX963 = Array(publicKey.x963Representation)
    }

    public var publicKey: P256.Signing.PublicKey {
        // Made from a valid key's own encoding in `init`: it decodes.
        try! P256.Signing.PublicKey(x963Representation: publicKeyX963)
    }

    /// The PEM labels a key file may carry: a PKCS#8 private key (`.p8`) or a
    /// SubjectPublicKeyInfo.
    public static let privateKeyLabel = "PRIVATE KEY"
    public static let publicKeyLabel = "PUBLIC KEY"

    /// The key in `pem` (a `.p8` or a public key), named `source` in errors.
    public init(pem: String, keyIdentifier: String, issuerIdentifier: String, source: String) throws(APIKeyError) {
        let block: (label: String, der: [UInt8])
        do throws(PEMError) {
            block = try PEM.decode(pem, labels: [Self.privateKeyLabel, Self.publicKeyLabel])
        } catch {
            throw .notPEM(path: source, reason: error.description)
        }
        let publicKey: P256.Signing.PublicKey
        do {
            publicKey = block.label == Self.privateKeyLabel
                ? try P256.Signing.PrivateKey(derRepresentation: block.der).publicKey
                : try P256.Signing.PublicKey(derRepresentation: block.der)
        } catch {
            throw .notP256(path: source, reason: "the \(block.label == Self.privateKeyLabel ? "private" : "public") key is not a P-256 key: \(error)")
        }
        try Self.checkIdentifier(keyIdentifier, naming: "key id", source: source)
        try Self.checkIdentifier(issuerIdentifier, naming: "issuer id", source: source)
        self.init(keyIdentifier: keyIdentifier, issuerIdentifier: issuerIdentifier, publicKey: publicKey)
    }

    /// The key in the file at `path`. Without `keyIdentifier`, the key id is read from
    /// the file name as App Store Connect writes it (`SubscriptionKey_KEYID.p8`,
    /// `AuthKey_KEYID.p8`). The issuer id is not in the file: App Store Connect shows it
    /// on the keys page.
    public static func load(contentsOfFile path: String, issuerIdentifier: String,
                            keyIdentifier: String? = nil) throws(APIKeyError) -> APIKey {
        guard let keyIdentifier = keyIdentifier ?? Self.keyIdentifier(fileName: path) else {
            throw .noKeyIdentifier(path: path)
        }
        let bytes: [UInt8]?
        do throws(FileReadError) {
            bytes = try FileReading.contents(atPath: path, limit: Self.maximumFileSize)
        } catch {
            throw .unreadable(error)
        }
        guard let bytes else { throw .noFile(path: path) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .notPEM(path: path, reason: "not UTF-8 text")
        }
        return try APIKey(pem: text, keyIdentifier: keyIdentifier, issuerIdentifier: issuerIdentifier, source: path)
    }

    /// A key file is a few hundred bytes; anything far larger is not one.
    public static let maximumFileSize = 64 * 1024

    /// The prefixes App Store Connect gives the `.p8` files of its keys: In-App Purchase
    /// keys and team (App Store Connect API) keys.
    public static let fileNamePrefixes = ["SubscriptionKey_", "AuthKey_"]

    /// `KEYID` of `…/SubscriptionKey_KEYID.p8` or `…/AuthKey_KEYID.p8`; nil for any other name.
    public static func keyIdentifier(fileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasSuffix(".p8"), let prefix = fileNamePrefixes.first(where: { name.hasPrefix($0) }) else { return nil }
        let identifier = String(name.dropFirst(prefix.count).dropLast(".p8".count))
        return identifier.isEmpty ? nil : identifier
    }

    /// Ids travel in JSON strings and file names: printable ASCII, no spaces, not empty.
    private static func checkIdentifier(_ identifier: String, naming what: String, source: String) throws(APIKeyError) {
        guard !identifier.isEmpty, identifier.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .invalidIdentifier(path: source, what: what, value: identifier)
        }
    }
}

/// Why a key file gives no `APIKey`; every case names the file.
public enum APIKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is there but cannot be read (a directory, permissions, too large).
    case unreadable(FileReadError)
    case noFile(path: String)
    /// Not one PEM block labelled `PRIVATE KEY` or `PUBLIC KEY`.
    case notPEM(path: String, reason: String)
    /// A PEM key, but not a P-256 one (or not a key at all inside).
    case notP256(path: String, reason: String)
    /// No key id given and the file is not named `SubscriptionKey_KEYID.p8` or `AuthKey_KEYID.p8`.
    case noKeyIdentifier(path: String)
    /// An empty key or issuer id, or one with spaces or non-ASCII characters.
    case invalidIdentifier(path: String, what: String, value: String)

    public var path: String {
        switch self {
        case .unreadable(let error): return error.path
        case .noFile(let path), .notPEM(let path, _), .notP256(let path, _), .noKeyIdentifier(let path),
             .invalidIdentifier(let path, _, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let error): return error.description
        case .noFile(let path): return "cannot read \(path): no such file"
        case .notPEM(let path, let reason): return "\(path): \(reason)"
        case .notP256(let path, let reason): return "\(path): \(reason)"
        case .noKeyIdentifier(let path):
            return "\(path): no key id given, and the file is not named "
                + APIKey.fileNamePrefixes.map { "\($0)KEYID.p8" }.joined(separator: " or ")
        case .invalidIdentifier(let path, let what, let value):
            return "\(path): the \(what) '\(value)' is empty or holds characters other than printable ASCII"
        }
    }
}
