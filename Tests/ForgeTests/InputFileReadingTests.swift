import Foundation
import ReceiptForge
import XCTest
import AppInput

/// Files that cannot be read or are not JSON, through both input formats.
final class InputFileReadingTests: XCTestCase {
    func testMissingFile() throws {
        let path = try scratchDirectory(for: self).appendingPathComponent("Shop.storekit").path
        let error = inputError { try StoreKitConfiguration(contentsOfFile: path) }
        XCTAssertEqual(error?.kind, .unreadable)
        XCTAssertEqual(error?.file, path)
        XCTAssertEqual(error?.description, "\(path): cannot read: no such file")
        XCTAssertEqual(inputError { try AppFile(contentsOfFile: path) }, error)
    }

    func testDirectoryInsteadOfFile() throws {
        let path = try scratchDirectory(for: self).path
        let error = inputError { try AppFile(contentsOfFile: path) }
        XCTAssertEqual(error?.kind, .unreadable)
        XCTAssertEqual(error?.description, "\(path): cannot read: is a directory, not a file")
    }

    func testDanglingSymbolicLink() throws {
        let link = try scratchDirectory(for: self).appendingPathComponent("app.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "gone.json")
        XCTAssertEqual(inputError { try AppFile(contentsOfFile: link.path) }?.reason,
                       "cannot read: a symbolic link to a file that does not exist")
    }

    /// 16 MiB is read (here: a small document padded with spaces); one byte more is
    /// refused before anything is parsed.
    func testSizeLimit() throws {
        let directory = try scratchDirectory(for: self)
        let limit = 16 << 20
        let document = Array(#"{"products": [{"productID": "p", "type": "Consumable"}]}"#.utf8)
        let atLimit = directory.appendingPathComponent("big.storekit")
        try Data(document + [UInt8](repeating: 0x20, count: limit - document.count)).write(to: atLimit)
        XCTAssertEqual(try StoreKitConfiguration(contentsOfFile: atLimit.path).catalogue.products.map(\.id), ["p"])

        let overLimit = directory.appendingPathComponent("bigger.storekit")
        try Data(document + [UInt8](repeating: 0x20, count: limit + 1 - document.count)).write(to: overLimit)
        let error = inputError { try StoreKitConfiguration(contentsOfFile: overLimit.path) }
        XCTAssertEqual(error?.kind, .unreadable)
        XCTAssertEqual(error?.reason, "cannot read: larger than 16 MiB, the most the forge reads from an input file")
    }

    /// A device that never ends is cut off at the limit too (no size to check first).
    func testEndlessDeviceIsCutOff() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/zero"))
        XCTAssertEqual(inputError { try AppFile(contentsOfFile: "/dev/zero") }?.kind, .unreadable)
    }

    /// Syntax errors give line, column and byte offset; the message is whole.
    func testInvalidJSONGivesLineAndColumn() {
        let json = "{\n  \"products\": [],\n}\n"
        let error = inputError { try StoreKitConfiguration(json: Array(json.utf8), file: "Shop.storekit") }
        XCTAssertEqual(error?.kind, .malformedJSON)
        XCTAssertEqual(error?.location, "$")
        XCTAssertEqual(error?.description, "Shop.storekit: $: invalid JSON at line 3, column 1 (byte offset 20): "
            + "expected a quoted member name, found '}' (a trailing comma is not JSON)")
    }

    /// Columns count characters, not bytes.
    func testColumnCountsCharacters() {
        let json = #"{"bundleId": "café", "appVersion": 7.}"#
        let error = inputError { try AppFile(json: Array(json.utf8), file: "app.json") }
        XCTAssertEqual(error?.reason, "invalid JSON at line 1, column 38 (byte offset 38): expected a digit after the decimal point, found '}'")
    }

    func testNotJSONAtAll() {
        let cases: [(bytes: [UInt8], reason: String)] = [
            ([], "invalid JSON at line 1, column 1 (byte offset 0): the file holds no JSON value (it is empty)"),
            (Array(" \n\t".utf8), "invalid JSON at line 2, column 2 (byte offset 3): the file holds no JSON value (it is empty)"),
            (Array("<?xml version=\"1.0\"?>".utf8), "invalid JSON at line 1, column 1 (byte offset 0): expected a JSON value, found '<'"),
            ([0x7B, 0x22, 0xC3, 0x28, 0x22], "invalid JSON at line 1, column 3 (byte offset 2): invalid UTF-8"),
            (Array("{} {}".utf8), "invalid JSON at line 1, column 4 (byte offset 3): unexpected '{' after the JSON value"),
            (Array("{'a': 1}".utf8), "invalid JSON at line 1, column 2 (byte offset 1): expected a quoted member name, found \"'\""),
            (Array("{\"a\": True}".utf8),
             "invalid JSON at line 1, column 7 (byte offset 6): expected a JSON value, found 'T'"),
            (Array("{\"a\": tru}".utf8),
             "invalid JSON at line 1, column 7 (byte offset 6): expected a JSON value, found 't' (literals are true, false and null, in lowercase)"),
            (Array("{\"a\": \"x".utf8),
             "invalid JSON at line 1, column 7 (byte offset 6): unterminated string (no closing quote before the end of the file)"),
        ]
        for (bytes, reason) in cases {
            let error = inputError { try AppFile(json: bytes, file: "app.json") }
            XCTAssertEqual(error?.kind, .malformedJSON, reason)
            XCTAssertEqual(error?.reason, reason)
        }
    }

    /// Nesting up to the limit parses (inside a field the reader ignores); one level
    /// more is refused; a hundred thousand levels do not exhaust the stack.
    func testNestingDepth() {
        func storekit(nesting levels: Int) -> [UInt8] {
            // The document object is one level, the arrays in `settings` the others.
            let inner = levels - 1
            return Array(#"{"products": [], "settings": "#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: inner)
                + [UInt8](repeating: UInt8(ascii: "]"), count: inner) + Array("}".utf8)
        }
        XCTAssertNoThrow(try StoreKitConfiguration(json: storekit(nesting: 128), file: "Deep.storekit"))
        let tooDeep = inputError { try StoreKitConfiguration(json: storekit(nesting: 129), file: "Deep.storekit") }
        XCTAssertEqual(tooDeep?.kind, .malformedJSON)
        XCTAssertTrue(tooDeep?.reason.hasSuffix("arrays and objects nested more than 128 levels deep") ?? false, "\(String(describing: tooDeep))")
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        XCTAssertEqual(inputError { try AppFile(json: hostile, file: "app.json") }?.kind, .malformedJSON)
    }
}
