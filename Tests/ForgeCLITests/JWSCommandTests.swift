import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge jws`, `forge jws list`, `forge jws verify`, and `forge --all` writing
/// DIR/storekit2, as a user runs them.
final class JWSCommandTests: XCTestCase {
    let manager = FileManager.default

    func scratch() throws -> URL {
        let directory = manager.temporaryDirectory.appendingPathComponent("forge-jws-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func verifyArguments(_ tree: URL, _ file: String, environment: String = "Production") -> [String] {
        ["jws", "verify", tree.appendingPathComponent(file).path, "--root", tree.appendingPathComponent("Certs/jws-root.cer").path,
         "--bundle-id", "com.example.receiptforge", "--environment", environment, "--app-apple-id", "1234567890"]
    }

    func testListShowsEveryCase() throws {
        let text = try ForgeProcess.run(["jws", "list"])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertGreaterThanOrEqual(text.standardOutput.split(separator: "\n").count, 24)
        XCTAssertTrue(text.standardOutput.contains("transaction-hs256-key-confusion"))
        let json = try ForgeProcess.run(["jws", "list", "--json"])
        let rows = try XCTUnwrap(JSONValue(json: json.standardOutput).arrayValue)
        XCTAssertEqual(rows.count, text.standardOutput.split(separator: "\n").count)
        XCTAssertEqual(rows.first?["expectedStatus"]?.stringValue, "OK")
    }

    func testMintThenVerify() throws {
        let tree = try scratch().appendingPathComponent("sk2")
        let mint = try ForgeProcess.run(["jws", "--case", "transaction-production", "--case", "transaction-wrong-bundle",
                                         "--case", "notification-refund", "--out", tree.path])
        XCTAssertEqual(mint.status, 0, mint.standardError)
        for path in ["manifest.json", "Certs/jws-root.cer", ".forge-owned", "transaction-production/signed.jws",
                     "transaction-production/case.json", "notification-refund/notification.json"] {
            XCTAssertTrue(manager.fileExists(atPath: tree.appendingPathComponent(path).path), path)
        }
        XCTAssertFalse(manager.fileExists(atPath: tree.appendingPathComponent("transaction-sandbox").path))

        let ok = try ForgeProcess.run(verifyArguments(tree, "transaction-production/signed.jws"))
        XCTAssertEqual(ok.status, 0, ok.standardError + ok.standardOutput)
        XCTAssertTrue(ok.standardOutput.contains(": OK (transaction)"), ok.standardOutput)
        XCTAssertTrue(ok.standardOutput.contains("\"transactionReason\" : \"PURCHASE\""), ok.standardOutput)

        let notification = try ForgeProcess.run(verifyArguments(tree, "notification-refund/notification.json") + ["--json"])
        XCTAssertEqual(notification.status, 0, notification.standardOutput)
        let object = try JSONValue(json: notification.standardOutput)
        XCTAssertEqual(object["status"]?.stringValue, "OK")
        XCTAssertEqual(object["kind"]?.stringValue, "notification")
        XCTAssertEqual(object["payload"]?["notificationType"]?.stringValue, "REFUND")

        let wrong = try ForgeProcess.run(verifyArguments(tree, "transaction-wrong-bundle/signed.jws") + ["--json"])
        XCTAssertEqual(wrong.status, 1, wrong.standardOutput)
        XCTAssertTrue(wrong.standardOutput.contains("\"status\":\"INVALID_APP_IDENTIFIER\""), wrong.standardOutput)

        let sandbox = try ForgeProcess.run(verifyArguments(tree, "transaction-production/signed.jws", environment: "Sandbox"))
        XCTAssertEqual(sandbox.status, 1)
        XCTAssertTrue(sandbox.standardOutput.contains("INVALID_ENVIRONMENT"), sandbox.standardOutput)
    }

    func testVerifyRefusesBadArgumentsWithTheirExitCodes() throws {
        let directory = try scratch()
        let tree = directory.appendingPathComponent("sk2")
        XCTAssertEqual(try ForgeProcess.run(["jws", "--case", "transaction-production", "--out", tree.path]).status, 0)
        let missing = try ForgeProcess.run(verifyArguments(tree, "nothing-here.jws"))
        XCTAssertEqual(missing.status, 74, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("nothing-here.jws: no such file"), missing.standardError)
        try Data("not a certificate".utf8).write(to: directory.appendingPathComponent("bad.cer"))
        let badRoot = try ForgeProcess.run(["jws", "verify", tree.appendingPathComponent("transaction-production/signed.jws").path,
                                            "--root", directory.appendingPathComponent("bad.cer").path,
                                            "--bundle-id", "x", "--environment", "Sandbox"])
        XCTAssertEqual(badRoot.status, 65, badRoot.standardError)
        let noRoot = try ForgeProcess.run(["jws", "verify", "x.jws", "--bundle-id", "x", "--environment", "Production"])
        XCTAssertEqual(noRoot.status, 64, noRoot.standardError)
        let unknown = try ForgeProcess.run(["jws", "--case", "no-such-case"])
        XCTAssertEqual(unknown.status, 64, unknown.standardError)
        XCTAssertTrue(unknown.standardError.contains("unknown case 'no-such-case'"), unknown.standardError)
    }

    /// `forge --all` writes DIR/storekit2 too; again with the same flags, byte-identical;
    /// a file of the user's inside it is kept, and the receipt tree does not report
    /// the StoreKit 2 tree as the user's.
    func testForgeAllWritesStoreKit2Deterministically() throws {
        let out = try scratch().appendingPathComponent("Fixtures")
        let first = try ForgeProcess.run(["--all", "--out", out.path, "--quiet"])
        XCTAssertEqual(first.status, 0, first.standardError)
        let storeKit2 = out.appendingPathComponent("storekit2")
        let manifest = try Data(contentsOf: storeKit2.appendingPathComponent("manifest.json"))
        let jws = try Data(contentsOf: storeKit2.appendingPathComponent("transaction-production/signed.jws"))
        try Data("mine\n".utf8).write(to: storeKit2.appendingPathComponent("NOTES.md"))
        let second = try ForgeProcess.run(["--all", "--out", out.path])
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertFalse(second.standardError.contains("kept") && second.standardError.contains("storekit2/transaction"),
                       second.standardError)
        XCTAssertEqual(try Data(contentsOf: storeKit2.appendingPathComponent("manifest.json")), manifest)
        XCTAssertEqual(try Data(contentsOf: storeKit2.appendingPathComponent("transaction-production/signed.jws")), jws)
        XCTAssertEqual(try Data(contentsOf: storeKit2.appendingPathComponent("NOTES.md")), Data("mine\n".utf8))
    }

    /// `forge ca` writes the P-256 JWS CA beside the RSA one, and `--jws-swift` its Swift copy.
    func testCAWritesTheJWSAuthority() throws {
        let directory = try scratch()
        let ca = directory.appendingPathComponent("CA")
        let swift = directory.appendingPathComponent("EmbeddedJWSAuthority.swift")
        let run = try ForgeProcess.run(["ca", "--out", ca.path, "--jws-swift", swift.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        for stem in ["jws-root", "jws-intermediate", "jws-leaf", "jws-unrelated-root", "jws-xcode"] {
            for suffix in [".cer", ".pem", ".key.pem"] {
                XCTAssertTrue(manager.fileExists(atPath: ca.appendingPathComponent(stem + suffix).path), stem + suffix)
            }
        }
        let source = try String(contentsOf: swift, encoding: .utf8)
        XCTAssertTrue(source.contains("enum EmbeddedJWSAuthority"), source)
        let leafPEM = try String(contentsOf: ca.appendingPathComponent("jws-leaf.pem"), encoding: .utf8)
        XCTAssertTrue(source.contains(leafPEM.split(separator: "\n")[1]), "the Swift copy holds the new leaf")
        XCTAssertTrue(try String(contentsOf: ca.appendingPathComponent("README.md"), encoding: .utf8).contains("jws-root"))
    }
}
