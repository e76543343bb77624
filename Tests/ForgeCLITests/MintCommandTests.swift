import Foundation
import StrictJSON
import XCTest

/// `forge` (mint by default), `forge list`, `forge dump`: the interface other projects' CI calls.
final class MintCommandTests: XCTestCase {
    func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-mint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testAllWritesTheTreeAndASummary() throws {
        let out = try scratchDirectory().appendingPathComponent("Fixtures")
        let run = try ForgeProcess.run(["--all", "--out", out.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("forged copied-device"), run.standardError)
        XCTAssertTrue(run.standardError.contains("cases ("), run.standardError)
        for path in ["manifest.json", "Certs/root.cer", "valid/receipt", "valid/receipt.b64", "valid/case.json",
                     "missing/case.json", "xcode-storekit/receipt"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path), path)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("missing/receipt").path))
        let dump = try ForgeProcess.run(["dump", "--json", out.appendingPathComponent("valid/receipt").path])
        XCTAssertEqual(dump.status, 0, dump.standardError)
        XCTAssertTrue(dump.standardOutput.contains("\"bundleId\" : \"com.example.receiptforge\""))
    }

    func testOneCaseWithTheDefaultSubcommand() throws {
        let directory = try scratchDirectory()
        let run = try ForgeProcess.run(["--case", "copied-device"], workingDirectory: directory)
        XCTAssertEqual(run.status, 0, run.standardError)
        let caseFile = directory.appendingPathComponent("Fixtures/copied-device/case.json")
        let json = try JSONValue(contentsOf: caseFile)
        XCTAssertEqual(json["expected"]?["reason"]?.stringValue, "device-hash-mismatch")
    }

    func testUsageErrors() throws {
        let unknown = try ForgeProcess.run(["--case", "no-such-case"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.standardError.contains("valid, expired-cert, wrong-bundle"), unknown.standardError)
        XCTAssertEqual(try ForgeProcess.run(["--all", "--case", "valid"]).status, 64)
        XCTAssertEqual(try ForgeProcess.run(["--all", "--now", "yesterday"]).status, 64)
        XCTAssertEqual(try ForgeProcess.run(["--all", "--now", "2095-01-01T00:00:00Z"]).status, 64)
    }

    func testListShowsEveryCaseWithItsVerdict() throws {
        let list = try ForgeProcess.run(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.standardOutput.contains("vpp-expired"))
        XCTAssertTrue(list.standardOutput.contains("invalid receipt-expired"))
        let json = try ForgeProcess.run(["list", "--json"])
        let rows = try JSONValue(json: json.standardOutput).arrayValue
        XCTAssertGreaterThanOrEqual(rows?.count ?? 0, 22)
    }

    func testDumpRefusesNonReceiptsWithExit65() throws {
        let plist = try ForgeProcess.temporaryFile(Array("{\n\t\"signature\" = \"AAAA\";\n}\n".utf8), in: self)
        let run = try ForgeProcess.run(["dump", plist.path])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.standardError.contains("iOS 6"), run.standardError)
    }
}
