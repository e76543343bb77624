import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge verify` end to end, as another project's CI runs it.
final class VerifyCommandTests: XCTestCase {
    static let appleRoot = RealReceipts.directory.appendingPathComponent("anchors/AppleIncRootCertificate.cer").path

    /// A freshly minted forge tree in a temporary folder.
    func mintTree() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-tests-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let mint = try ForgeProcess.run(["--all", "--out", directory.path])
        XCTAssertEqual(mint.status, 0, mint.standardError)
        return directory
    }

    func testManifestRunAgreesOnEveryCase() throws {
        let tree = try mintTree()
        let output = try ForgeProcess.run(["verify", "--manifest", tree.appendingPathComponent("manifest.json").path])
        XCTAssertEqual(output.status, 0, output.standardOutput + output.standardError)
        XCTAssertTrue(output.standardOutput.hasPrefix("case"), output.standardOutput)
        let manifest = try JSONValue(contentsOf: tree.appendingPathComponent("manifest.json"))
        let count = try XCTUnwrap(manifest["cases"]?.arrayValue).count
        XCTAssertGreaterThanOrEqual(count, 33)
        XCTAssertTrue(output.standardOutput.contains("\(count) cases, 0 disagreements"), output.standardOutput)
        XCTAssertTrue(output.standardOutput.contains("sha512-digest"), output.standardOutput)
    }

    func testManifestRunFailsOnADisagreement() throws {
        let tree = try mintTree()
        let tampered = try Data(contentsOf: tree.appendingPathComponent("tampered-signature/receipt"))
        try tampered.write(to: tree.appendingPathComponent("valid/receipt"))
        let output = try ForgeProcess.run(["verify", "--manifest", tree.appendingPathComponent("manifest.json").path])
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.standardOutput.contains("1 disagreement"), output.standardOutput)
        XCTAssertTrue(output.standardOutput.contains("valid: signerInfos[0].signature"), output.standardOutput)
    }

    /// A manifest that is missing (74), not JSON, truncated at any of a few points, or
    /// of the wrong shape (65), and a case file the manifest names but that is gone.
    func testBadManifests() throws {
        let tree = try mintTree()
        let manifest = tree.appendingPathComponent("manifest.json")
        let missing = try ForgeProcess.run(["verify", "--manifest", tree.appendingPathComponent("nope.json").path])
        XCTAssertEqual(missing.status, 74, missing.standardError)
        let good = Array(try Data(contentsOf: manifest))
        var bad: [(String, [UInt8])] = [("not JSON", Array("receipt".utf8)), ("wrong shape", Array("[1, 2]".utf8))]
        for length in [1, good.count / 3, good.count / 2, good.count - 2] {
            bad.append(("truncated to \(length) bytes", Array(good.prefix(length))))
        }
        for (label, bytes) in bad {
            try Data(bytes).write(to: manifest)
            let output = try ForgeProcess.run(["verify", "--manifest", manifest.path])
            XCTAssertEqual(output.status, 65, "\(label): \(output.standardError)")
            XCTAssertTrue(output.standardError.contains("does not decode"), "\(label): \(output.standardError)")
        }
        try Data(good).write(to: manifest)
        try FileManager.default.removeItem(at: tree.appendingPathComponent("valid/case.json"))
        let goneCase = try ForgeProcess.run(["verify", "--manifest", manifest.path])
        XCTAssertNotEqual(goneCase.status, 0, goneCase.standardOutput)
        // Names the case's file: a bare "valid" would also match "invalid".
        XCTAssertTrue((goneCase.standardOutput + goneCase.standardError).contains("valid/case.json"), goneCase.standardError)
    }

    func testRealReceiptsAreValidAtCreationAndExpiredNow() throws {
        for (entry, _) in try RealReceipts.pkcs7Receipts() {
            let path = RealReceipts.directory.appendingPathComponent(entry.file).path
            let anchor = RealReceipts.directory.appendingPathComponent(entry.trustAnchor!).path
            var arguments = ["verify", path, "--root", anchor, "--bundle-id", entry.bundleId!]
            if let version = entry.appVersion { arguments += ["--app-version", version] }
            arguments += entry.deviceIdentifier.map { ["--device-id", $0.hex] } ?? ["--no-device-check"]
            let output = try ForgeProcess.run(arguments)
            XCTAssertEqual(output.status, 0, "\(entry.name): \(output.standardOutput)\(output.standardError)")
            XCTAssertTrue(output.standardOutput.hasPrefix("valid: "), entry.name)
            if entry.trustAnchor == "anchors/AppleIncRootCertificate.cer" {
                let later = try ForgeProcess.run(arguments + ["--at", "now", "--now", "2026-09-01T00:00:00Z"])
                XCTAssertEqual(later.status, 1, entry.name)
                XCTAssertTrue(later.standardOutput.hasPrefix("invalid (certificate-expired): "), "\(entry.name): \(later.standardOutput)")
            }
        }
    }

    func testDeviceIdentifierForms() throws {
        let entries = try RealReceipts.pkcs7Receipts().map(\.0)
        let g5 = try XCTUnwrap(entries.first { $0.name == "TPInAppReceipt__receipt-sandbox-g5.receipt" })
        let mac = try XCTUnwrap(entries.first { $0.name == "AppReceiptValidator__hannes_mac_mindnode_receipt.receipt" })
        for (entry, id, status) in [(g5, "956328D9-CC6A-47F4-BE40-6953FB0AB6C7", Int32(0)), (g5, "956328d9cc6a47f4be406953fb0ab6c7", 0),
                                    (g5, "956328D9-CC6A-47F4-BE40-6953FB0AB6C8", 1), (mac, "6c:40:08:b5:94:5e", 0),
                                    (mac, "6c:40:08:b5:94:5f", 1)] {
            let output = try ForgeProcess.run(["verify", RealReceipts.directory.appendingPathComponent(entry.file).path,
                                               "--root", Self.appleRoot, "--bundle-id", entry.bundleId!, "--device-id", id])
            XCTAssertEqual(output.status, status, "\(id): \(output.standardOutput)")
            if status == 1 { XCTAssertTrue(output.standardOutput.contains("device-hash-mismatch"), output.standardOutput) }
        }
    }

    func testJSONOutput() throws {
        let tree = try mintTree()
        let output = try ForgeProcess.run(["verify", tree.appendingPathComponent("wrong-version/receipt").path,
                                           "--root", tree.appendingPathComponent("Certs/root.cer").path,
                                           "--bundle-id", "com.example.receiptforge", "--app-version", "42",
                                           "--no-device-check", "--json"])
        XCTAssertEqual(output.status, 1)
        let object = try JSONValue(json: output.standardOutput)
        XCTAssertEqual(object["verdict"]?.stringValue, "invalid")
        XCTAssertEqual(object["reason"]?.stringValue, "version-mismatch")
        XCTAssertEqual(object["code"], .null, "no chain or signature failure: code is null")
        XCTAssertTrue((object["detail"]?.stringValue ?? "").contains("\"41\""))
        let receipt = try XCTUnwrap(object["receipt"])
        XCTAssertEqual(receipt["bundleId"]?.stringValue, "com.example.receiptforge")
        XCTAssertEqual(receipt["appVersion"]?.stringValue, "41")
        XCTAssertEqual((object["chain"]?.strings)?.count, 3)

        // A refused chain: the stable code says which rule refused it.
        let untrusted = try ForgeProcess.run(["verify", tree.appendingPathComponent("missing-intermediate/receipt").path,
                                              "--root", tree.appendingPathComponent("Certs/root.cer").path,
                                              "--bundle-id", "com.example.receiptforge", "--no-device-check", "--json"])
        XCTAssertEqual(untrusted.status, 1)
        let refused = try JSONValue(json: untrusted.standardOutput)
        XCTAssertEqual(refused["reason"]?.stringValue, "untrusted-chain")
        XCTAssertEqual(refused["code"]?.stringValue, "missing-issuer")

        // A refused receipt signature: its code too.
        let tampered = try ForgeProcess.run(["verify", tree.appendingPathComponent("tampered-signature/receipt").path,
                                             "--root", tree.appendingPathComponent("Certs/root.cer").path,
                                             "--bundle-id", "com.example.receiptforge", "--no-device-check", "--json"])
        XCTAssertEqual(tampered.status, 1)
        let bad = try JSONValue(json: tampered.standardOutput)
        XCTAssertEqual(bad["reason"]?.stringValue, "signature-invalid")
        XCTAssertEqual(bad["code"]?.stringValue, "signature-mismatch")
    }

    func testMissingMalformedAndIOS6Receipts() throws {
        _ = try RealReceipts.requireDirectory()  // uses the Apple root below
        let missing = try ForgeProcess.run(["verify", "/nonexistent/receipt", "--root", Self.appleRoot, "--bundle-id", "x",
                                            "--no-device-check"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.standardOutput.hasPrefix("invalid (missing): "), missing.standardOutput)
        for entry in try RealReceipts.entries() where !entry.isPKCS7 {
            let output = try ForgeProcess.run(["verify", RealReceipts.directory.appendingPathComponent(entry.file).path,
                                               "--root", Self.appleRoot, "--bundle-id", "x", "--no-device-check"])
            XCTAssertEqual(output.status, 1)
            XCTAssertTrue(output.standardOutput.hasPrefix("invalid (malformed): "), output.standardOutput)
            XCTAssertTrue(output.standardOutput.contains("iOS 6"), output.standardOutput)
        }
        let truncated = try ForgeProcess.run(["verify", "-", "--root", Self.appleRoot, "--bundle-id", "x", "--no-device-check"],
                                             input: Data([0x30, 0x82, 0x10, 0x00, 0x06]))
        XCTAssertEqual(truncated.status, 1)
        XCTAssertTrue(truncated.standardOutput.contains("at byte"), truncated.standardOutput)
    }

    func testUsageAndInputErrors() throws {
        let receipt = "/nonexistent/receipt"
        let usage: [[String]] = [
            ["verify", receipt, "--bundle-id", "x", "--no-device-check"],
            ["verify", receipt, "--root", Self.appleRoot, "--no-device-check"],
            ["verify", receipt, "--root", Self.appleRoot, "--bundle-id", "x"],
            ["verify", receipt, "--root", Self.appleRoot, "--bundle-id", "x", "--device-id", "00:11:22:33:44:55", "--no-device-check"],
            ["verify", receipt, "--root", Self.appleRoot, "--bundle-id", "x", "--device-id", "nonsense"],
            ["verify", receipt, "--root", Self.appleRoot, "--bundle-id", "x", "--no-device-check", "--at", "yesterday"],
            ["verify", "--manifest", "m.json", receipt],
            ["verify"],
        ]
        for arguments in usage {
            XCTAssertEqual(try ForgeProcess.run(arguments).status, 64, arguments.joined(separator: " "))
        }
        let unreadableRoot = try ForgeProcess.run(["verify", receipt, "--root", "/nonexistent/root.cer", "--bundle-id", "x",
                                                   "--no-device-check"])
        XCTAssertEqual(unreadableRoot.status, 74, unreadableRoot.standardError)
        let garbage = try ForgeProcess.temporaryFile([0x30, 0x03, 0x02, 0x01, 0x01], in: self)
        let badRoot = try ForgeProcess.run(["verify", receipt, "--root", garbage.path, "--bundle-id", "x", "--no-device-check"])
        XCTAssertEqual(badRoot.status, 65, badRoot.standardError)
        XCTAssertTrue(badRoot.standardError.contains("at byte"), badRoot.standardError)
    }

    func testHelpExplainsFlagsExitCodesAndExamples() throws {
        let help = try ForgeProcess.run(["verify", "--help"]).standardOutput
        for fragment in ["--root", "--bundle-id", "--app-version", "--device-id", "--no-device-check", "--at", "--now",
                         "--no-marker-check", "--json", "--manifest", "Exit codes", "Examples", "missing", "64", "65", "74"] {
            XCTAssertTrue(help.contains(fragment), "help lacks \(fragment)")
        }
    }
}
