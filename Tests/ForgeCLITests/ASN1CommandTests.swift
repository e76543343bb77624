import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge asn1` end to end: every real receipt dumps; every hostile input gives
/// the typed error with its byte offset and exit status 65.
final class ASN1CommandTests: XCTestCase {
    func testDumpsEveryRealReceipt() throws {
        for (entry, _) in try RealReceipts.pkcs7Receipts() {
            let path = RealReceipts.directory.appendingPathComponent(entry.file).path
            let output = try ForgeProcess.run(["asn1", "--expand", path])
            XCTAssertEqual(output.status, 0, "\(entry.name): \(output.standardError)")
            XCTAssertTrue(output.standardOutput.hasPrefix("     0:d=0 hl="), entry.name)
            XCTAssertTrue(output.standardOutput.contains("pkcs7-signedData"), entry.name)
            if let bundleId = entry.bundleId {
                XCTAssertTrue(output.standardOutput.contains("\"\(bundleId)\""), "\(entry.name): bundle id in the payload")
            }
            XCTAssertEqual(output.standardError, "", entry.name)
        }
    }

    func testReadsBase64PEMAndStandardInput() throws {
        let (entry, receipt) = try RealReceipts.firstPKCS7Receipt { _ in true }
        let direct = try ForgeProcess.run(["asn1", RealReceipts.directory.appendingPathComponent(entry.file).path])
        let base64 = Data(receipt).base64EncodedString(options: .lineLength64Characters)
        let fromBase64 = try ForgeProcess.run(["asn1", try ForgeProcess.temporaryFile(Array(base64.utf8), in: self).path])
        XCTAssertEqual(fromBase64.standardOutput, direct.standardOutput)
        let pem = "-----BEGIN PKCS7-----\n\(base64)\n-----END PKCS7-----\n"
        let fromPEM = try ForgeProcess.run(["asn1", try ForgeProcess.temporaryFile(Array(pem.utf8), in: self).path])
        XCTAssertEqual(fromPEM.standardOutput, direct.standardOutput)
        let fromStandardInput = try ForgeProcess.run(["asn1", "-"], input: Data(receipt))
        XCTAssertEqual(fromStandardInput.standardOutput, direct.standardOutput)
        XCTAssertEqual(fromStandardInput.status, 0)
    }

    func testHostileInputsNameTheErrorAndItsOffset() throws {
        let table: [(String, String, String)] = [
            ("30847FFFFFFF", "lengthExceedsInput", "at byte 0"),
            ("3088FFFFFFFFFFFFFFFF", "lengthOverflow", "at byte 1"),
            ("3089000000000000000005", "lengthTooLong", "at byte 1"),
            ("3080020101", "missingEndOfContents", "at byte 0"),
            ("30050201010000", "unexpectedEndOfContents", "at byte 5"),
            ("3080000100", "invalidEndOfContents", "at byte 2"),
            ("1F908080800000", "tagNumberTooLarge", "at byte 0"),
            (String(repeating: "3080", count: 100_000) + String(repeating: "0000", count: 100_000),
             "depthLimitExceeded", "at byte 128"),
        ]
        for (hex, code, offset) in table {
            let file = try ForgeProcess.temporaryFile(bytes(hex: hex), in: self)
            let output = try ForgeProcess.run(["asn1", file.path])
            XCTAssertEqual(output.status, 65, code)
            XCTAssertTrue(output.standardError.contains(code) && output.standardError.contains(offset),
                          "\(code): \(output.standardError)")
            let json = try ForgeProcess.run(["asn1", "--json", file.path])
            XCTAssertEqual(json.status, 65)
            let object = try JSONValue(json: json.standardOutput)
            XCTAssertEqual(object["error"]?["code"]?.stringValue, code)
        }
    }

    func testDERFlagRefusesBER() throws {
        let file = try ForgeProcess.temporaryFile(bytes(hex: "30800201010000"), in: self)
        XCTAssertEqual(try ForgeProcess.run(["asn1", file.path]).status, 0)
        let strict = try ForgeProcess.run(["asn1", "--der", file.path])
        XCTAssertEqual(strict.status, 65)
        XCTAssertTrue(strict.standardError.contains("indefiniteLengthNotAllowed at byte 1"), strict.standardError)
    }

    func testUsageAndIOErrors() throws {
        let missing = try ForgeProcess.run(["asn1", "/nonexistent/receipt"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.standardError.contains("no such file"), missing.standardError)
        let empty = try ForgeProcess.run(["asn1", try ForgeProcess.temporaryFile([], in: self).path])
        XCTAssertEqual(empty.status, 74)
        XCTAssertTrue(empty.standardError.contains("is empty"), empty.standardError)
        let usage = try ForgeProcess.run(["asn1", "--sorted-sets", "x"])
        XCTAssertEqual(usage.status, 64)
        let help = try ForgeProcess.run(["asn1", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.standardOutput.contains("base64"))
    }
}
