import ForgeSupport
import XCTest

/// The one PEM reader and writer: files as OpenSSL writes them, exactly one block, the
/// label the caller expects.
final class PEMTests: XCTestCase {
    func testEncodingWritesLinesOf64AndAFinalNewline() throws {
        let der = (0..<100).map { UInt8($0) }
        let text = PEM.encode(der, label: "CERTIFICATE")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.first, "-----BEGIN CERTIFICATE-----")
        XCTAssertEqual(lines.dropLast().last, "-----END CERTIFICATE-----")
        XCTAssertEqual(lines.last, "", "the END line ends in a newline")
        let body = lines.dropFirst().dropLast(2)
        XCTAssertEqual(body.map(\.count), [64, 64, 8], "100 bytes are 136 base64 characters")
        XCTAssertEqual(body.joined(), Data(der).base64EncodedString())
        XCTAssertEqual(try PEM.decode(text, label: "CERTIFICATE"), der)
        XCTAssertEqual(try PEM.decode(text).label, "CERTIFICATE")
    }

    func testLineEndingsAndTextAroundTheBlockAreRead() throws {
        let der: [UInt8] = Array(repeating: 0xA5, count: 60)
        let crlf = PEM.encode(der, label: "PKCS7").replacingOccurrences(of: "\n", with: "\r\n")
        XCTAssertEqual(try PEM.decode(crlf, label: "PKCS7"), der)
        let explained = "Subject: a test\n" + PEM.encode(der, label: "PKCS7") + "trailing words\n"
        XCTAssertEqual(try PEM.decode(explained, label: "PKCS7"), der)
    }

    func testOneBlockWithAnExpectedLabelOrATypedError() {
        let one = PEM.encode([1, 2, 3], label: "CERTIFICATE")
        let table: [(name: String, text: String, labels: Set<String>, expected: PEMError)] = [
            ("two blocks", one + one, ["CERTIFICATE"], .severalBlocks(count: 2)),
            ("three blocks, other labels", one + PEM.encode([4], label: "PRIVATE KEY") + one, ["CERTIFICATE"],
             .severalBlocks(count: 3)),
            ("a key for a certificate", PEM.encode([4], label: "PRIVATE KEY"), ["CERTIFICATE"],
             .wrongLabel(found: "PRIVATE KEY", expected: ["CERTIFICATE"])),
            ("a certificate for either key", one, ["PRIVATE KEY", "RSA PRIVATE KEY"],
             .wrongLabel(found: "CERTIFICATE", expected: ["PRIVATE KEY", "RSA PRIVATE KEY"])),
        ]
        for entry in table {
            XCTAssertThrowsError(try PEM.decode(entry.text, labels: entry.labels), entry.name) {
                XCTAssertEqual($0 as? PEMError, entry.expected, entry.name)
            }
        }
    }

    func testMalformedArmourIsRefusedWithItsReason() {
        let body = Data(repeating: 0x41, count: 60).base64EncodedString()
        let table: [(name: String, text: String, reason: String)] = [
            ("no block", "just words\n", "BEGIN"),
            ("no END line", "-----BEGIN CERTIFICATE-----\n\(body)\n", "END"),
            ("END of another label", "-----BEGIN CERTIFICATE-----\n\(body)\n-----END PKCS7-----\n", "discriminator"),
            ("not base64", "-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n", "base64"),
            ("a line over 64 characters", "-----BEGIN CERTIFICATE-----\n\(body)\(body)\n-----END CERTIFICATE-----\n", "line"),
            ("an empty body", "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n", "empty"),
        ]
        for entry in table {
            XCTAssertThrowsError(try PEM.decode(entry.text), entry.name) { error in
                guard case .malformed(let reason) = error as? PEMError else { return XCTFail("\(entry.name): \(error)") }
                XCTAssertTrue(reason.contains(entry.reason), "\(entry.name): \(reason)")
                XCTAssertFalse(reason.contains(".swift:"), "\(entry.name): no source location in \(reason)")
            }
        }
        XCTAssertTrue(PEM.hasBlock("text\n-----BEGIN X-----\n"))
        XCTAssertFalse(PEM.hasBlock(Data([1, 2, 3]).base64EncodedString()))
    }
}
