import Foundation
import StoreAPIAuthentication
import StrictJSON
import TestSupport
import XCTest

/// `forge --all` writes the App Store Server API test key into DIR/api-key: the key
/// `TestAPIKey(seed:)` derives without reading any tree, for the app's bundle id; again
/// byte-identical, never reported as the user's; another seed, another key in its place.
final class APIKeyFolderCommandTests: XCTestCase {
    func testForgeAllWritesTheKeyTheSeedDerives() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-api-key-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("Fixtures")
        let first = try ForgeProcess.run(["--all", "--out", out.path, "--quiet", "--bundle-id", "com.acme.shop"])
        XCTAssertEqual(first.status, 0, first.standardError)
        let folder = out.appendingPathComponent("api-key")
        let expected = TestAPIKey(seed: 1)
        let description = try JSONValue(contentsOf: folder.appendingPathComponent("api-key.json"))
        XCTAssertEqual(description["keyId"]?.stringValue, expected.keyIdentifier)
        XCTAssertEqual(description["issuerId"]?.stringValue, expected.issuerIdentifier)
        XCTAssertEqual(description["bundleId"]?.stringValue, "com.acme.shop")
        XCTAssertEqual(description["privateKeyFile"]?.stringValue, expected.fileName)
        let p8 = folder.appendingPathComponent(expected.fileName)
        XCTAssertEqual(try String(contentsOf: p8, encoding: .utf8), expected.p8)
        XCTAssertEqual(try APIKey.load(contentsOfFile: p8.path, issuerIdentifier: expected.issuerIdentifier), expected.apiKey)

        let second = try ForgeProcess.run(["--all", "--out", out.path, "--bundle-id", "com.acme.shop"])
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertFalse(second.standardError.contains("kept"), second.standardError)
        XCTAssertEqual(try String(contentsOf: p8, encoding: .utf8), expected.p8)

        let reseeded = try ForgeProcess.run(["--all", "--out", out.path, "--quiet", "--seed", "7"])
        XCTAssertEqual(reseeded.status, 0, reseeded.standardError)
        let other = TestAPIKey(seed: 7)
        XCTAssertNotEqual(other.keyIdentifier, expected.keyIdentifier)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       [".forge-owned", "api-key.json", other.fileName].sorted(), "the old key is replaced, not kept")
    }
}
