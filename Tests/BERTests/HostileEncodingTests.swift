import BER
import TestSupport
import XCTest

/// One table of hand-made encodings with the outcome each rule set must give:
/// extreme and hostile lengths, end-of-contents misuse, tag-number edge cases and
/// the primitive-content rules that separate `der` from `ber`.
final class HostileEncodingTests: XCTestCase {
    enum Outcome: Equatable {
        case parses
        case fails(BERError.Code, offset: Int?)
    }

    struct Case {
        let name: String
        let hex: String
        let ber: Outcome
        let der: Outcome
        init(_ name: String, _ hex: String, ber: Outcome, der: Outcome? = nil) {
            self.name = name
            self.hex = hex
            self.ber = ber
            self.der = der ?? ber
        }
    }

    static let fiveBytes = "0203010001"  // INTEGER 65537: 5 bytes of valid contents

    static let cases: [Case] = [
        // Lengths
        Case("short length", "020105", ber: .parses),
        Case("long form 0x81 for a length below 128", "048105" + "0102030405",
             ber: .parses, der: .fails(.nonMinimalLength, offset: 1)),
        Case("long form with a leading zero octet", "04820080" + String(repeating: "00", count: 128),
             ber: .parses, der: .fails(.nonMinimalLength, offset: 1)),
        Case("minimal long form 0x81 80", "048180" + String(repeating: "00", count: 128), ber: .parses),
        Case("0x84 7F FF FF FF: 2 GiB declared, nothing there", "30847FFFFFFF",
             ber: .fails(.lengthExceedsInput, offset: 0)),
        Case("0x84 80 00 00 00: negative as a signed 32-bit value", "308480000000",
             ber: .fails(.lengthExceedsInput, offset: 0)),
        Case("0x88 FF…FF: length beyond Int", "3088FFFFFFFFFFFFFFFF",
             ber: .fails(.lengthOverflow, offset: 1)),
        Case("0x88 with 8 octets, value 5", "30880000000000000005" + fiveBytes,
             ber: .parses, der: .fails(.nonMinimalLength, offset: 1)),
        Case("0x85 length that wraps to 5 in 32 bits", "30850100000005" + fiveBytes,
             ber: .fails(.lengthExceedsInput, offset: 0)),
        Case("nine length octets", "3089000000000000000005" + fiveBytes,
             ber: .fails(.lengthTooLong, offset: 1)),
        Case("reserved length octet 0xFF", "04FF", ber: .fails(.lengthTooLong, offset: 1)),
        Case("length past the end", "0405010203", ber: .fails(.lengthExceedsInput, offset: 0)),
        Case("identifier only", "30", ber: .fails(.truncated, offset: nil)),
        Case("empty input", "", ber: .fails(.truncated, offset: 0)),
        Case("long-form length octets missing", "308201", ber: .fails(.truncated, offset: nil)),
        // Indefinite lengths and end-of-contents
        Case("empty indefinite SEQUENCE", "30800000",
             ber: .parses, der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("indefinite length on a primitive", "0480AA0000",
             ber: .fails(.indefiniteLengthOnPrimitive, offset: 1)),
        Case("missing end-of-contents", "3080020101", ber: .fails(.missingEndOfContents, offset: 0),
             der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("missing end-of-contents, nested", "30803080020101" + "0000",
             ber: .fails(.missingEndOfContents, offset: 0), der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("end-of-contents inside a definite-length element", "30050201010000",
             ber: .fails(.unexpectedEndOfContents, offset: 5)),
        Case("end-of-contents at the top level", "0000", ber: .fails(.unexpectedEndOfContents, offset: 0)),
        Case("end-of-contents with a non-zero length", "3080000100",
             ber: .fails(.invalidEndOfContents, offset: 2), der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("end-of-contents with a long-form zero length (fuzz finding)", "3080008100",
             ber: .fails(.invalidEndOfContents, offset: 2), der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("constructed end-of-contents", "30802000", ber: .fails(.invalidEndOfContents, offset: 2),
             der: .fails(.indefiniteLengthNotAllowed, offset: 1)),
        Case("indefinite child of a definite parent", "300430800000", ber: .parses,
             der: .fails(.indefiniteLengthNotAllowed, offset: 3)),
        // Tag numbers
        Case("high tag 31, the smallest in high form", "1F1F00", ber: .parses),
        Case("high tag 30: must use the low form", "1F1E00", ber: .fails(.nonMinimalTag, offset: 0)),
        Case("high tag with a leading zero digit", "1F802000", ber: .fails(.nonMinimalTag, offset: 0)),
        Case("high tag 128", "1F810000", ber: .parses),
        Case("high tag 2^32-1", "1F8FFFFFFF7F00", ber: .parses),
        Case("high tag 2^32", "1F908080800000", ber: .fails(.tagNumberTooLarge, offset: 0)),
        Case("high tag of six digits", "1F818080808000" + "00", ber: .fails(.tagNumberTooLarge, offset: 0)),
        Case("high tag truncated", "1F81", ber: .fails(.truncated, offset: nil)),
        // Primitive contents and DER canonical forms
        Case("constructed OCTET STRING", "24060401AA0401BB",
             ber: .parses, der: .fails(.constructedStringNotAllowed, offset: 0)),
        Case("BOOLEAN 01", "010101", ber: .parses, der: .fails(.invalidBoolean, offset: 0)),
        Case("BOOLEAN FF", "0101FF", ber: .parses),
        Case("BOOLEAN of two octets", "01020000", ber: .fails(.invalidBoolean, offset: 0)),
        Case("empty INTEGER", "0200", ber: .fails(.emptyInteger, offset: 0)),
        Case("INTEGER 00 7F", "0202007F", ber: .parses, der: .fails(.nonMinimalInteger, offset: 0)),
        Case("INTEGER FF 80", "0202FF80", ber: .parses, der: .fails(.nonMinimalInteger, offset: 0)),
        Case("INTEGER 00 80", "02020080", ber: .parses),
        Case("NULL with contents", "050100", ber: .fails(.invalidNull, offset: 0)),
        Case("empty OBJECT IDENTIFIER", "0600", ber: .fails(.invalidObjectIdentifier, offset: 0)),
        Case("OID subidentifier with a leading 0x80", "06028001", ber: .fails(.invalidObjectIdentifier, offset: 0)),
        Case("OID with an unterminated subidentifier", "060181", ber: .fails(.invalidObjectIdentifier, offset: 0)),
        Case("trailing byte after the element", "02010500", ber: .fails(.trailingData, offset: 3)),
    ]

    func testTable() {
        for testCase in Self.cases {
            for (rules, expected) in [(BERRules.ber, testCase.ber), (BERRules.der, testCase.der)] {
                let outcome: Outcome
                do {
                    _ = try BERNode.parse(bytes(hex: testCase.hex), rules: rules)
                    outcome = .parses
                } catch {
                    outcome = .fails(error.code, offset: error.offset)
                }
                switch (expected, outcome) {
                case (.fails(let code, let offset?), _):
                    XCTAssertEqual(outcome, .fails(code, offset: offset), "\(testCase.name) [\(rules.mode)]")
                case (.fails(let code, nil), .fails(let got, _)):
                    XCTAssertEqual(got, code, "\(testCase.name) [\(rules.mode)]")
                default:
                    XCTAssertEqual(outcome, expected, "\(testCase.name) [\(rules.mode)]")
                }
            }
        }
    }

    /// `requireMinimalIntegers` (the PKCS#7 container's rule): BER otherwise, but an
    /// INTEGER with a redundant leading octet is refused, as in DER.
    func testMinimalIntegersCanBeRequiredUnderBER() throws {
        let strict = BERRules(.ber, requireMinimalIntegers: true)
        XCTAssertFalse(strict.allowsNonMinimalIntegers)
        XCTAssertTrue(strict.allowsIndefiniteLengths && strict.allowsNonMinimalLengths)
        for hex in ["0202007F", "0202FF80", "30800202000100 00".replacingOccurrences(of: " ", with: "")] {
            XCTAssertNoThrow(try BERNode.parse(bytes(hex: hex), rules: .ber), hex)
            XCTAssertThrowsError(try BERNode.parse(bytes(hex: hex), rules: strict), hex) { error in
                XCTAssertEqual((error as? BERError)?.code, .nonMinimalInteger, hex)
            }
        }
        for hex in ["020105", "02020080", "0201FF", "3080020101" + "0000"] {
            XCTAssertNoThrow(try BERNode.parse(bytes(hex: hex), rules: strict), hex)
        }
    }

    func testHighTagNumbersDecodeExactly() throws {
        let table: [(String, UInt32)] = [("1F1F00", 31), ("1F810000", 128), ("1F820100", 257),
                                         ("1F8FFFFFFF7F00", UInt32.max), ("9F8A3900", 1337)]
        for (hex, number) in table {
            let node = try BERNode.parse(bytes(hex: hex), rules: .der)
            XCTAssertEqual(node.tag.number, number, hex)
            var writer = BERWriter()
            node.encode(into: &writer)
            XCTAssertEqual(writer.bytes, bytes(hex: hex), "re-encoding \(hex)")
        }
    }

    func testErrorsCarryPathAndCompareByCode() {
        var reader = BERReader(bytes(hex: "3003020101"), rules: .der)
        XCTAssertThrowsError(try withBERPath("outer") { () throws(BERError) in
            try reader.readSequence { (inner: inout BERReader) throws(BERError) in
                try withBERPath("version") { () throws(BERError) in _ = try inner.readBoolean() }
            }
        }) { error in
            let error = error as! BERError
            XCTAssertEqual(error, BERError(.unexpectedTag, at: 999, "any"))
            XCTAssertEqual(error.offset, 2)
            XCTAssertEqual(error.path, ["outer", "version"])
            XCTAssertTrue(error.description.contains("at byte 2 in outer.version"), error.description)
        }
    }
}
