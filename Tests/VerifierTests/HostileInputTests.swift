import BER
import FileAccess
import ReceiptForge
import Foundation
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest
import ForgeCA

/// Bad input of every kind gets a verdict (never a crash), and the detail says what
/// and where.
final class HostileInputTests: XCTestCase {
    static let validator = ReceiptValidator(
        anchors: try! ReceiptValidator.anchors(der: [ReceiptAuthority.committed.root.certificate]),
        options: .init(bundleIdentifier: "com.example.receiptforge", device: .skip), clock: { Fixtures.now })

    func testHostileInputsTable() throws {
        let deep = [UInt8](repeating: 0x30, count: 1) + Array([UInt8]([0x80, 0x30]).repeated(300)) + [0x80]
            + [UInt8](repeating: 0x00, count: 602)
        let table: [(name: String, bytes: [UInt8], reason: VerdictReason, detail: String)] = [
            ("empty file", [], .malformed, "empty"),
            ("one byte", [0x30], .malformed, "at byte"),
            ("SET instead of SEQUENCE", [0x31, 0x03, 0x02, 0x01, 0x01], .malformed, "0x31"),
            ("length 2^31-1", [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF], .malformed, "at byte"),
            ("length 2^64-1", [0x30, 0x88] + [UInt8](repeating: 0xFF, count: 8), .malformed, "at byte"),
            ("indefinite without end-of-contents", [0x30, 0x80, 0x06, 0x01, 0x00], .malformed, "at byte"),
            ("deep nesting", deep, .malformed, "at byte"),
            ("content type data, not signedData", [0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01],
             .malformed, "not signedData"),
            ("base64 text", Array("MIIT0gYJKoZIhvcNAQcCoIITwzCCE78CAQExCzAJ".utf8), .malformed, "base64"),
            ("XML plist", Array("<?xml version=\"1.0\"?><plist></plist>".utf8), .malformed, "iOS 6"),
            ("old-style plist", Array("{\n\t\"signature\" = \"AA==\";\n}".utf8), .malformed, "iOS 6"),
            ("random text", Array("hello".utf8), .malformed, "0x68"),
        ]
        for entry in table {
            let verdict = Self.validator.validate(entry.bytes)
            XCTAssertEqual(verdict.reason, entry.reason, "\(entry.name): \(verdict.detail)")
            XCTAssertTrue(verdict.detail.contains(entry.detail), "\(entry.name): \(verdict.detail) lacks \(entry.detail)")
        }
    }

    /// swift-asn1's "drip-feed": every strict prefix of a valid receipt is malformed,
    /// with the offset named — for a DER App Store receipt and a BER Xcode one.
    func testEveryPrefixIsMalformed() throws {
        for id in ["valid", "xcode-storekit"] {
            let receipt = try XCTUnwrap(try Fixtures.minted(id).receipt)
            let validator = try Fixtures.validator(try Fixtures.minted(id).description)
            for length in 0..<receipt.count {
                let verdict = validator.validate(Array(receipt[..<length]), now: Fixtures.now)
                guard verdict.reason == .malformed, length == 0 || verdict.detail.contains("at byte") else {
                    XCTFail("\(id) cut to \(length) bytes: \(verdict)")
                    return
                }
            }
        }
    }

    func testTrailingDataIsRefused() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let verdict = Self.validator.validate(receipt + [0x00])
        XCTAssertEqual(verdict.reason, .malformed)
        XCTAssertTrue(verdict.detail.contains("at byte \(receipt.count)"), verdict.detail)
    }

    /// A broken certificate on the chain, inside a well-formed container, is named.
    /// (A certificate nobody uses needs only `d2i_X509`'s syntax: UnusedCertificateTests.)
    func testBrokenCertificateIsNamed() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let container = try PKCS7SignedData(bytes: receipt)
        let intermediate = try XCTUnwrap(receipt.firstRange(of: container.certificates[1]))
        var broken = receipt
        // The intermediate's version INTEGER (inside [0] EXPLICIT at +4..+8): 2 → 9.
        let version = try XCTUnwrap((intermediate.lowerBound..<intermediate.lowerBound + 16).first {
            broken[$0] == 0xA0 && broken[$0 + 1] == 0x03 && broken[$0 + 2] == 0x02
        })
        broken[version + 4] = 9
        let verdict = Self.validator.validate(broken)
        XCTAssertEqual(verdict.reason, .malformed)
        XCTAssertTrue(verdict.detail.contains("signedData.certificates[1]"), verdict.detail)
        XCTAssertTrue(verdict.detail.contains("version"), verdict.detail)
    }

    func testMissingFileIsMissing() throws {
        let verdict = try Self.validator.validate(fileAt: URL(fileURLWithPath: "/nonexistent/receipt"))
        XCTAssertEqual(verdict.reason, .missing)
        XCTAssertEqual(verdict.verdict, .invalid)
    }

    /// Only a path where nothing exists is `missing`: a directory, or a link whose
    /// file is gone, is a read failure naming the path (CI runs as root, so no chmod).
    func testUnreadableIsNotMissing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("receipt"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertThrowsError(try Self.validator.validate(fileAt: directory.appendingPathComponent("receipt"))) { error in
            let failure = error as? FileReadError
            XCTAssertEqual(failure?.path, directory.appendingPathComponent("receipt").path)
            XCTAssertEqual(failure?.code, .directory, "\(error)")
        }
        let dangling = directory.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/target")
        XCTAssertThrowsError(try Self.validator.validate(fileAt: dangling)) { error in
            XCTAssertEqual((error as? FileReadError)?.code, .danglingLink, "\(error)")
        }
        // A file inside a path whose parent is a regular file cannot exist either way,
        // but the system says why (ENOTDIR): not silently `missing`.
        let file = directory.appendingPathComponent("file")
        try Data([1]).write(to: file)
        XCTAssertThrowsError(try Self.validator.validate(fileAt: file.appendingPathComponent("receipt"))) { error in
            XCTAssertEqual((error as? FileReadError)?.code, .system, "\(error)")
        }
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { Array((0..<count).map { _ in self }.joined()) }
}
