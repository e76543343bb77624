import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge --all --bundle-id … --storekit …`: fixtures for the user's own app, and bad
/// app input refused with exit 65, the path and the JSON location, nothing written.
final class AppOptionsCommandTests: XCTestCase {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func json(_ url: URL) throws -> JSONValue {
        try JSONValue(contentsOf: url)
    }

    /// The issue's "done when": a tree for the user's app that the verifier agrees with.
    func testATreeForTheUsersAppAndCatalogue() throws {
        let out = try scratchDirectory().appendingPathComponent("Fixtures")
        let storekit = Self.inputs.appendingPathComponent("Shop-v4.storekit")
        let mint = try ForgeProcess.run(["--all", "--bundle-id", "com.acme.shop", "--app-version", "7.1",
                                         "--device-id", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7",
                                         "--storekit", storekit.path, "--out", out.path, "--quiet"])
        XCTAssertEqual(mint.status, 0, mint.standardError)
        let app = try XCTUnwrap(try json(out.appendingPathComponent("manifest.json"))["app"])
        XCTAssertEqual(app["bundleId"]?.stringValue, "com.acme.shop")
        XCTAssertEqual(app["version"]?.stringValue, "7.1")
        XCTAssertEqual(app["purchases"]?.stringValue, "catalogue")
        let catalogue = Set(try XCTUnwrap(app["productIds"]?.strings))
        XCTAssertTrue(catalogue.contains("com.acme.shop.plus.monthly"), "\(catalogue)")

        let caseJSON = try json(out.appendingPathComponent("valid/case.json"))
        let caseApp = try XCTUnwrap(caseJSON["app"])
        XCTAssertEqual(caseApp["bundleId"]?.stringValue, "com.acme.shop")
        let bought = Set(try XCTUnwrap(caseApp["productIds"]?.strings))
        XCTAssertFalse(bought.isEmpty)
        XCTAssertTrue(bought.isSubset(of: catalogue), "only the file's product ids: \(bought.subtracting(catalogue))")
        XCTAssertEqual(caseJSON["device"]?["uuid"]?.stringValue, "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")

        let verify = try ForgeProcess.run(["verify", "--manifest", out.appendingPathComponent("manifest.json").path])
        XCTAssertEqual(verify.status, 0, verify.standardOutput + verify.standardError)
        XCTAssertTrue(verify.standardOutput.contains(" 0 disagreements"), verify.standardOutput)
    }

    func testFlagsOverrideTheAppFile() throws {
        let out = try scratchDirectory().appendingPathComponent("Fixtures")
        let appFile = Self.inputs.appendingPathComponent("shop.app.json")
        let mint = try ForgeProcess.run(["--case", "valid", "--app", appFile.path, "--app-version", "99",
                                         "--out", out.path, "--quiet"])
        XCTAssertEqual(mint.status, 0, mint.standardError)
        let app = try XCTUnwrap(try json(out.appendingPathComponent("valid/case.json"))["app"])
        XCTAssertEqual(app["version"]?.stringValue, "99", "the flag wins")
        let file = try json(appFile)
        XCTAssertEqual(app["bundleId"]?.stringValue, file["bundleId"]?.stringValue, "the file's bundle id")
    }

    func testBadAppInputIsRefusedWithItsLocationAndNothingIsWritten() throws {
        let directory = try scratchDirectory()
        let unknownType = directory.appendingPathComponent("Bad.storekit")
        try Data(#"{"products": [{"productID": "a", "type": "Consumable"}, {"productID": "b", "type": "Family"}]}"#.utf8)
            .write(to: unknownType)
        let unknownField = directory.appendingPathComponent("bad.app.json")
        try Data(#"{"bundleId": "com.acme.shop", "purchases": [{"productId": "a", "type": "consumable", "purchaseDate": "2026-01-01T00:00:00Z", "colour": "red"}]}"#.utf8)
            .write(to: unknownField)
        let cases: [([String], String)] = [
            (["--device-id", "not-a-device"], "--device-id 'not-a-device' is not a UUID, a MAC address"),
            (["--platform", "macos", "--device-id", "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"], "is a UUID, but the platform is macOS"),
            (["--storekit", unknownType.path], "Bad.storekit: $.products[1].type"),
            (["--app", unknownField.path], "bad.app.json: $.purchases[0]"),
            (["--storekit", directory.path], "is a directory"),
            (["--app", directory.appendingPathComponent("none.json").path], "no such file"),
        ]
        for (arguments, message) in cases {
            let out = directory.appendingPathComponent("Fixtures")
            let run = try ForgeProcess.run(["--all", "--out", out.path] + arguments)
            XCTAssertEqual(run.status, 65, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(arguments): nothing written")
        }
    }
}
