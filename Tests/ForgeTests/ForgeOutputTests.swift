import ReceiptForge
import Foundation
import Receipt
import TestSupport
import XCTest
import OwnedFileTree

final class ForgeOutputTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func tree(_ forge: Forge, cases: [MintedCase]) throws -> [(String, [UInt8])] {
        try forge.files(minted: cases)
    }

    func contents(of directory: URL) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator where !url.hasDirectoryPath {
            let relative = String(url.standardizedFileURL.path.dropFirst(directory.standardizedFileURL.path.count + 1))
            files[relative] = Array(try Data(contentsOf: url))
        }
        return files
    }

    /// Two runs give byte-identical trees.
    func testTwoRunsGiveByteIdenticalTrees() throws {
        let first = scratch.appendingPathComponent("a")
        let second = scratch.appendingPathComponent("b")
        let forge = Forge()
        try OutputTree(directory: first, ownership: .fixtures).replaceTree(with: try tree(forge, cases: Minted.cases))
        try OutputTree(directory: second, ownership: .fixtures).replaceTree(with: try tree(forge, cases: try forge.mintAll()))
        let a = try contents(of: first)
        let b = try contents(of: second)
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        for (name, bytes) in a { XCTAssertEqual(bytes, b[name], name) }
        for id in ["valid", "many-iaps", "xcode-storekit"] {
            XCTAssertNotNil(a["\(id)/receipt"])
            XCTAssertNotNil(a["\(id)/receipt.b64"])
            XCTAssertNotNil(a["\(id)/case.json"])
        }
        XCTAssertNil(a["missing/receipt"])
        XCTAssertNotNil(a["missing/case.json"])
        XCTAssertEqual(a["Certs/root.cer"], Minted.forge.authority.root.certificate)
        let manifest = try decodeJSON(ForgeManifest.self, from: try XCTUnwrap(a["manifest.json"]))
        XCTAssertEqual(manifest.version, ForgeManifest.currentVersion)
        XCTAssertEqual(manifest.cases.map(\.id), ForgeCase.catalogue.map(\.id))
        let base64 = String(decoding: a["valid/receipt.b64"]!, as: UTF8.self).trimmingCharacters(in: .newlines)
        XCTAssertEqual(Data(base64Encoded: base64).map(Array.init), a["valid/receipt"])
    }

    func testSeedAndNowVaryTheOutput() throws {
        let base = Minted.named("valid")
        let seeded = try Forge(settings: ForgeSettings(seed: 2)).mint(ForgeCase.named("valid")!)
        XCTAssertNotEqual(seeded.receipt, base.receipt)
        XCTAssertNotEqual(seeded.description.device.hex, base.description.device.hex)
        let later = ReceiptDate("2030-01-01T00:00:00Z")!.secondsSince1970
        let moved = try Forge(settings: ForgeSettings(now: later)).mint(ForgeCase.named("valid")!)
        XCTAssertEqual(moved.description.validation.now, "2030-01-01T00:00:00Z")
        XCTAssertEqual(try PKCS7SignedData(bytes: moved.receipt!).decodeReceipt().creationDate?.secondsSince1970,
                       ForgeSettings(now: later).creationDate)
        // Another case's bytes do not depend on which cases are minted with it.
        XCTAssertEqual(try Forge().mint(ForgeCase.named("sandbox")!).receipt, Minted.named("sandbox").receipt)
    }

    /// A failed write leaves the existing tree as it was.
    func testExistingTreeIsReplacedOnlyOnSuccess() throws {
        let directory = scratch.appendingPathComponent("out")
        let output = OutputTree(directory: directory, ownership: .fixtures)
        try output.replaceTree(with: [("keep/me", [1, 2, 3])])
        // "clash" is a file, so "clash/inner" cannot be written: the whole replacement fails.
        XCTAssertThrowsError(try output.replaceTree(with: [("new", [9]), ("clash", [1]), ("clash/inner", [2])]))
        XCTAssertEqual(try contents(of: directory).filter { $0.key != TreeOwnership.recordName }, ["keep/me": [1, 2, 3]])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        XCTAssertEqual(leftovers, ["out"], "no staging directory left behind")
        try output.replaceTree(with: [("new", [9])])
        XCTAssertEqual(try contents(of: directory).filter { $0.key != TreeOwnership.recordName }, ["new": [9]])
    }

    func testUpdatingOneCaseKeepsTheOthers() throws {
        let directory = scratch.appendingPathComponent("out")
        let output = OutputTree(directory: directory, ownership: .fixtures)
        let forge = Minted.forge
        try output.replaceTree(with: try tree(forge, cases: Minted.cases))
        let before = try contents(of: directory)
        try output.update(with: try Minted.named("copied-device").files(), replacing: ["copied-device"])
        XCTAssertEqual(try contents(of: directory), before)
    }

    func testDumpReadsForgedAndRealReceipts() throws {
        let dump = try ReceiptDump(bytes: Minted.named("subscriptions").receipt!)
        XCTAssertEqual(dump.receipt.inAppCount, 5)
        XCTAssertEqual(dump.container?.encoding, "definite")
        XCTAssertTrue(dump.text.contains("com.example.receiptforge.subscription.monthly"))
        let json = String(decoding: try forgeJSON(dump), as: UTF8.self)
        XCTAssertTrue(json.contains("\"bundleId\" : \"com.example.receiptforge\""))
        XCTAssertThrowsError(try ReceiptDump(bytes: Minted.named("malformed-payload").receipt!)) { error in
            guard case .malformed(let berError)? = error as? ReceiptError else { return XCTFail("\(error)") }
            XCTAssertEqual(berError.path.first, "payload")
        }
    }
}

/// Pinned bytes: a change of generator, layout or CA shows up here, not silently in
/// other projects' fixtures. Update deliberately (and say so in the commit).
final class ForgePinnedOutputTests: XCTestCase {
    func testTheValidReceiptIsPinned() {
        let valid = Minted.named("valid").description
        XCTAssertEqual(valid.device.uuid, PinnedValues.validDeviceUUID)
        XCTAssertEqual(valid.receiptSHA256, PinnedValues.validReceiptSHA256)
    }
}
