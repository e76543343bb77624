import BER
import StrictJSON
import TestSupport
import XCTest

final class WriterTests: XCTestCase {
    func encode(_ writer: BERWriter = BERWriter(), _ body: (inout BERWriter) -> Void) -> String {
        var writer = writer
        body(&writer)
        return hexString(writer.bytes).uppercased()
    }

    func testIntegers() {
        let table: [(Int64, String)] = [(0, "020100"), (127, "02017F"), (128, "02020080"), (-1, "0201FF"),
                                        (-128, "020180"), (-129, "0202FF7F"), (256, "02020100"),
                                        (Int64.max, "02087FFFFFFFFFFFFFFF"), (Int64.min, "02088000000000000000")]
        for (value, hex) in table {
            XCTAssertEqual(encode { $0.appendInteger(value) }, hex, "\(value)")
        }
        XCTAssertEqual(encode { $0.appendUnsignedInteger(magnitude: [0x00, 0x80, 0x01]) }, "0203008001")
        XCTAssertEqual(encode { $0.appendUnsignedInteger(magnitude: [UInt8]()) }, "020100")
    }

    /// Constructed elements are written in place and their length widened after:
    /// nested lengths on each side of every length-octet boundary, in each form,
    /// read back as the same tree; a body that throws leaves nothing behind.
    func testConstructedLengthsWrittenInPlace() throws {
        for size in [0, 1, 125, 126, 127, 128, 252, 253, 254, 255, 256, 65_531, 65_535, 65_536] {
            for form in [BERWriter.LengthForm.minimal, .longForm(octets: 3), .longForm(octets: 8), .indefinite] {
                var writer = BERWriter(constructedLengthForm: form)
                writer.appendInteger(7)
                writer.appendSequence { outer in
                    outer.appendSequence { inner in inner.appendOctetString([UInt8](repeating: 0xA5, count: size)) }
                    outer.appendBoolean(true)
                }
                var reader = BERReader(writer.bytes, rules: .ber)
                XCTAssertEqual(try reader.readInt64(), 7)
                let tree = try BERNode.parse(&reader)
                XCTAssertTrue(reader.isAtEnd)
                XCTAssertEqual(tree.children.count, 2, "\(size) \(form)")
                XCTAssertEqual(tree.children.first?.children.first?.value,
                               .primitive([UInt8](repeating: 0xA5, count: size)[...]), "\(size) \(form)")
                if form == .minimal {
                    // DER: the writer's output is the one encoding of the tree.
                    XCTAssertEqual(Array(writer.bytes[3...]), tree.derEncoded, "\(size)")
                    XCTAssertNoThrow(try BERNode.parse(Array(writer.bytes[3...]), rules: .der), "\(size)")
                } else if case .longForm(let count) = form {
                    XCTAssertEqual(writer.bytes[4], 0x80 | UInt8(count), "\(size): the outer SEQUENCE's length octets")
                }
            }
        }
        struct Stop: Error {}
        var writer = BERWriter()
        writer.appendNull()
        XCTAssertThrowsError(try writer.appendSequence { w in
            w.appendInteger(1)
            try w.appendSequence { _ in throw Stop() }
        })
        XCTAssertEqual(hexString(writer.bytes).uppercased(), "0500")
    }

    func testLengthForms() {
        XCTAssertEqual(encode { $0.appendOctetString(Array(repeating: 0, count: 127)) }.prefix(4), "047F")
        XCTAssertEqual(encode { $0.appendOctetString(Array(repeating: 0, count: 128)) }.prefix(6), "048180")
        XCTAssertEqual(encode { $0.appendOctetString(Array(repeating: 0, count: 256)) }.prefix(8), "04820100")
        XCTAssertEqual(encode { $0.appendOctetString(Array(repeating: 0, count: 70_000)) }.prefix(10), "0483011170")
        XCTAssertEqual(encode { $0.appendPrimitive(.octetString, contents: [1], lengthForm: .longForm(octets: 2)) },
                       "0482000101")
        XCTAssertEqual(encode(BERWriter(constructedLengthForm: .indefinite)) { w in
            w.appendSequence { $0.appendNull() }
        }, "308005000000")
        XCTAssertEqual(encode { w in w.appendSequence(lengthForm: .longForm(octets: 1)) { $0.appendNull() } },
                       "30810205 00".replacingOccurrences(of: " ", with: ""))
    }

    func testSegmentedOctetString() throws {
        let hex = encode(BERWriter(constructedLengthForm: .indefinite)) { $0.appendOctetString([1, 2, 3, 4, 5], segmentSize: 2) }
        XCTAssertEqual(hex, "2480" + "04020102" + "04020304" + "040105" + "0000")
        var reader = BERReader(bytes(hex: hex), rules: .ber)
        XCTAssertEqual(Array(try reader.readOctetString()), [1, 2, 3, 4, 5])
        XCTAssertEqual(encode { $0.appendOctetString([UInt8](), segmentSize: 4) }, "24020400")
    }

    func testSetOrders() {
        let elements: [(inout BERWriter) -> Void] = [{ $0.appendInteger(2) }, { $0.appendInteger(1) }]
        XCTAssertEqual(encode { $0.appendSet(order: .sorted, elements: elements) }, "3106020101020102")
        XCTAssertEqual(encode { $0.appendSet(order: .asWritten, elements: elements) }, "3106020102020101")
    }

    func testTypedValuesAndTags() {
        XCTAssertEqual(encode { $0.appendBoolean(true) }, "0101FF")
        XCTAssertEqual(encode { $0.appendNull() }, "0500")
        XCTAssertEqual(encode { $0.appendUTF8String("é") }, "0C02C3A9")
        XCTAssertEqual(encode { $0.appendIA5String("4+") }, "1602342B")
        XCTAssertEqual(encode { $0.appendPrintableString("US") }, "13025553")
        XCTAssertEqual(encode { $0.appendBitString(BitString(bytes: [0x80], unusedBits: 7)) }, "03020780")
        XCTAssertEqual(encode { $0.appendTime(ASN1Time(year: 2024, month: 5, day: 1, hour: 12)) },
                       "170D3234303530313132303030305A")
        XCTAssertEqual(encode { $0.appendTime(ASN1Time(year: 2090, month: 1, day: 1)) },
                       "180F32303930303130313030303030305A")
        XCTAssertEqual(encode { $0.appendGeneralizedTime(ASN1Time(year: 2020, month: 1, day: 2, nanoseconds: 500_000_000)) },
                       "181132303230303130323030303030302E355A")
        XCTAssertEqual(encode { $0.appendInteger(5, tag: .context(1, constructed: false)) }, "810105")
        XCTAssertEqual(encode { w in w.appendConstructed(.context(0)) { $0.appendInteger(2) } }, "A003020102")
        XCTAssertEqual(encode { $0.appendPrimitive(BERTag(.private, 1000, constructed: false), contents: [UInt8]()) },
                       "DF876800")
    }

    /// Every encoding the writer makes is read back to the same values.
    func testWriterOutputParsesBack() throws {
        for form in [BERWriter.LengthForm.minimal, .indefinite, .longForm(octets: 3)] {
            var writer = BERWriter(constructedLengthForm: form)
            writer.appendSequence { w in
                w.appendInteger(-42)
                w.appendUTF8String("receipt")
                w.appendSet(order: .sorted, elements: [{ $0.appendInteger(9) }, { $0.appendInteger(3) }])
                w.appendOctetString((0..<200).map { UInt8($0) }, segmentSize: form == .minimal ? nil : 64)
            }
            var reader = BERReader(writer.bytes, rules: .ber)
            try reader.readSequence { (r: inout BERReader) throws(BERError) in
                XCTAssertEqual(try r.readInt64(), -42)
                XCTAssertEqual(try r.readUTF8String(), "receipt")
                try r.readSet { (s: inout BERReader) throws(BERError) in
                    XCTAssertEqual(try s.readInt64(), 3)
                    XCTAssertEqual(try s.readInt64(), 9)
                }
                XCTAssertEqual(Array(try r.readOctetString()), (0..<200).map { UInt8($0) })
            }
            try reader.finish()
        }
    }
}

final class DumpTests: XCTestCase {
    func testDumpOfARealReceiptShowsTheStructure() throws {
        let (_, receipt) = try RealReceipts.firstPKCS7Receipt { $0.encoding != "definite" }
        let dump = BERDump(receipt, rules: .ber, expandOctetStrings: true)
        XCTAssertNil(dump.error)
        let text = dump.text
        XCTAssertTrue(text.hasPrefix("     0:d=0 hl=2 l=indefinite cons: universal 16 SEQUENCE"), text)
        XCTAssertTrue(text.contains(":1.2.840.113549.1.7.2 (pkcs7-signedData)"))
        XCTAssertTrue(text.contains("universal 12 UTF8String"))
        XCTAssertTrue(text.contains("(contents parsed below)"))
        let json = try JSONValue(json: dump.json)
        let elements = try XCTUnwrap(json["elements"]?.arrayValue)
        XCTAssertEqual(elements.first?["indefinite"]?.boolValue, true)
        XCTAssertEqual(elements.first?["name"]?.stringValue, "SEQUENCE")
        XCTAssertEqual(json["error"], .null)
    }

    func testDumpOfBadInputKeepsWhatItReadAndNamesTheOffset() throws {
        let dump = BERDump(bytes(hex: "3080020101" + "0405AABB"), rules: .ber)
        XCTAssertEqual(dump.error?.code, .lengthExceedsInput)
        XCTAssertEqual(dump.error?.offset, 5)
        let json = try JSONValue(json: dump.json)
        let error = try XCTUnwrap(json["error"])
        XCTAssertEqual(error["code"]?.stringValue, "lengthExceedsInput")
        XCTAssertEqual(error["offset"]?.intValue, 5)
    }

    func testValuesAreDecoded() {
        let text = BERDump(bytes(hex: "3013" + "0101FF" + "020180" + "0500" + "0C024869" + "160234 2B".replacingOccurrences(of: " ", with: "") + "030100"),
                           rules: .der).text
        for fragment in [":TRUE", ":-128", ":\"Hi\"", ":\"4+\"", ":unused bits 0: "] {
            XCTAssertTrue(text.contains(fragment), "\(fragment) in\n\(text)")
        }
    }
}
