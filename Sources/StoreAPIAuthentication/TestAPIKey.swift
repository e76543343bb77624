import Crypto
import ForgeSupport

/// The forge's own App Store Server API key, derived from the forge's seed: `forge
/// --all` writes its `.p8` into the fixture tree and `forge serve` accepts it by
/// default, so a fresh tree and a default server work together. Same seed, same key id,
/// issuer id and key, on every platform (`DeterministicRandom`); it signs nothing of
/// Apple's and is public the moment the tree is, so it must never stand for a real key.
public struct TestAPIKey: Sendable, Hashable {
    /// Ten upper-case letters and digits, like App Store Connect's key ids.
    public let keyIdentifier: String
    /// A UUID in lower case, like App Store Connect's issuer ids.
    public let issuerIdentifier: String
    /// The private scalar, 32 bytes big-endian (swift-crypto's key is not `Sendable`).
    private let scalar: [UInt8]

    /// The stream the key is drawn from: the forge seed mixed with this label, so the
    /// key changes no other fixture's bytes and no other fixture changes the key.
    static let randomLabel = "app-store-server-api-key"

    public init(seed: UInt64) {
        var random = DeterministicRandom(seed: seed, label: Self.randomLabel)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        keyIdentifier = String((0..<10).map { _ in alphabet[random.int(in: 0..<alphabet.count)] })
        // 16 drawn bytes as they are, without version bits: the issuer id of every tree minted so far.
        issuerIdentifier = DeterministicUUID(bytes: random.bytes(16)).description
        // 32 random bytes are a valid scalar unless 0 or at least the group order
        // (a chance of about 2^-32): then draw again.
        var candidate = random.bytes(32)
        while (try? P256.Signing.PrivateKey(rawRepresentation: candidate)) == nil { candidate = random.bytes(32) }
        scalar = candidate
    }

    public var privateKey: P256.Signing.PrivateKey {
        // A scalar `init` accepted.
        try! P256.Signing.PrivateKey(rawRepresentation: scalar)
    }

    /// The key as the server verifies with it.
    public var apiKey: APIKey {
        APIKey(keyIdentifier: keyIdentifier, issuerIdentifier: issuerIdentifier, publicKey: privateKey.publicKey)
    }

    /// The `.p8` file's text: PKCS#8 PEM, as App Store Connect hands out.
    public var p8: String { PEM.encode(Array(privateKey.derRepresentation), label: APIKey.privateKeyLabel) }

    /// `SubscriptionKey_KEYID.p8`, as App Store Connect names an In-App Purchase key.
    public var fileName: String { "\(APIKey.fileNamePrefixes[0])\(keyIdentifier).p8" }

    /// What a client needs beside the `.p8` to make tokens (`api-key.json` in a fixture
    /// tree; `Schemas/api-key.schema.json`). Keys are Apple's names of the values.
    public struct Description: Codable, Sendable, Hashable {
        public let keyId: String
        public let issuerId: String
        public let bundleId: String
        /// The `.p8` beside this file.
        public let privateKeyFile: String
    }

    /// The description for an app with `bundleIdentifier`.
    public func description(bundleIdentifier: String) -> Description {
        Description(keyId: keyIdentifier, issuerId: issuerIdentifier, bundleId: bundleIdentifier, privateKeyFile: fileName)
    }
}
