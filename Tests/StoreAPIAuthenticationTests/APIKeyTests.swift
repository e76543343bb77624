import Crypto
import FileAccess
import ForgeSupport
import Foundation
import StoreAPIAuthentication
import XCTest

/// Key files as App Store Connect hands them out (and public keys), and every way one
/// can be wrong, each error naming the file.
final class APIKeyTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { [directory] in try? FileManager.default.removeItem(at: directory!) }
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testLoadsAP8NamedAsAppStoreConnectNamesIt() throws {
        let key = P256.Signing.PrivateKey()
        let pem = PEM.encode(Array(key.derRepresentation), label: "PRIVATE KEY")
        for name in ["SubscriptionKey_2X9R4HXF34.p8", "AuthKey_2X9R4HXF34.p8"] {
            let loaded = try APIKey.load(contentsOfFile: try file(name, pem), issuerIdentifier: "57246542-96fe-1a63-e053-0824d011072a")
            XCTAssertEqual(loaded.keyIdentifier, "2X9R4HXF34", name)
            XCTAssertEqual(loaded.issuerIdentifier, "57246542-96fe-1a63-e053-0824d011072a")
            XCTAssertEqual(loaded.publicKey.rawRepresentation, key.publicKey.rawRepresentation, name)
        }
    }

    func testLoadsAPublicKeyWithAGivenKeyId() throws {
        let key = P256.Signing.PrivateKey()
        let path = try file("server.pem", PEM.encode(Array(key.publicKey.derRepresentation), label: "PUBLIC KEY"))
        XCTAssertThrowsError(try APIKey.load(contentsOfFile: path, issuerIdentifier: "issuer")) { error in
            XCTAssertEqual(error as? APIKeyError, .noKeyIdentifier(path: path))
        }
        let loaded = try APIKey.load(contentsOfFile: path, issuerIdentifier: "issuer", keyIdentifier: "KEY1")
        XCTAssertEqual(loaded.keyIdentifier, "KEY1")
        XCTAssertEqual(loaded.publicKey.rawRepresentation, key.publicKey.rawRepresentation)
    }

    func testEveryErrorNamesTheFile() throws {
        let p384 = PEM.encode(Array(P384.Signing.PrivateKey().derRepresentation), label: "PRIVATE KEY")
        let certificateLabel = PEM.encode([0x30, 0x03, 0x02, 0x01, 0x01], label: "CERTIFICATE")
        let p256 = PEM.encode(Array(P256.Signing.PrivateKey().derRepresentation), label: "PRIVATE KEY")
        let missing = directory.appendingPathComponent("AuthKey_GONE.p8").path
        let cases: [(String, String, (APIKeyError) -> Bool)] = try [
            ("missing", missing, { if case .noFile = $0 { return true }; return false }),
            ("a directory", try directoryNamed("AuthKey_DIR.p8"), {
                if case .unreadable(let error) = $0 { return error.code == .directory }; return false
            }),
            ("not PEM", try file("AuthKey_TEXT.p8", "hello"), { if case .notPEM = $0 { return true }; return false }),
            ("a certificate", try file("AuthKey_CERT.p8", certificateLabel), { if case .notPEM = $0 { return true }; return false }),
            ("two keys", try file("AuthKey_TWO.p8", p256 + p256), { if case .notPEM = $0 { return true }; return false }),
            ("a P-384 key", try file("AuthKey_P384.p8", p384), { if case .notP256 = $0 { return true }; return false }),
            ("an empty key id", try file("AuthKey_.p8", p256), { if case .noKeyIdentifier = $0 { return true }; return false }),
        ]
        for (label, path, matches) in cases {
            XCTAssertThrowsError(try APIKey.load(contentsOfFile: path, issuerIdentifier: "issuer"), label) { error in
                guard let error = error as? APIKeyError else { return XCTFail("\(label): \(error)") }
                XCTAssertTrue(matches(error), "\(label): \(error)")
                XCTAssertEqual(error.path, path, label)
                XCTAssertTrue(error.description.contains(path), "\(label): \(error)")
            }
        }
        XCTAssertThrowsError(try APIKey(pem: p256, keyIdentifier: "KEY ID", issuerIdentifier: "issuer", source: "flag")) { error in
            XCTAssertEqual(error as? APIKeyError, .invalidIdentifier(path: "flag", what: "key id", value: "KEY ID"))
        }
    }

    private func directoryNamed(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Same seed, same key; the ids look like App Store Connect's; the `.p8` reads back
    /// as the same key through the loader.
    func testTheTestKeyIsDerivedFromTheSeed() throws {
        let key = TestAPIKey(seed: 1)
        XCTAssertEqual(key, TestAPIKey(seed: 1))
        XCTAssertEqual(key.p8, TestAPIKey(seed: 1).p8)
        let others = (2...20).map { TestAPIKey(seed: $0) }
        XCTAssertEqual(Set(others.map(\.keyIdentifier) + [key.keyIdentifier]).count, 20)
        XCTAssertEqual(Set(others.map(\.apiKey.publicKeyX963) + [key.apiKey.publicKeyX963]).count, 20)
        for key in others + [key] {
            XCTAssertNotNil(key.keyIdentifier.wholeMatch(of: /[A-Z0-9]{10}/), key.keyIdentifier)
            XCTAssertNotNil(key.issuerIdentifier.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/),
                            key.issuerIdentifier)
            XCTAssertEqual(key.fileName, "SubscriptionKey_\(key.keyIdentifier).p8")
        }
        let loaded = try APIKey.load(contentsOfFile: try file(key.fileName, key.p8), issuerIdentifier: key.issuerIdentifier)
        XCTAssertEqual(loaded, key.apiKey)
        XCTAssertTrue(key.p8.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), key.p8)
    }
}
