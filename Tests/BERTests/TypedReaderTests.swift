import BER
import TestSupport
import XCTest

final class TypedReaderTests: XCTestCase {
    func reader(_ hex: String, _ rules: BERRules = .der) -> BERReader {
        BERReader(bytes(hex: hex), rules: rules)
    }

    func testInt64Table() throws {
        let table: [(String, Int64?)] = [
            ("020100", 0), ("02017F", 127), ("02020080", 128), ("0201FF", -1), ("020180", -128),
            ("0202FF7F", -129), ("02087FFFFFFFFFFFFFFF", Int64.max), ("02088000000000000000", Int64.min),
            ("0209008000000000000000", nil), ("0209FF7FFFFFFFFFFFFFFF", nil), ("020901FFFFFFFFFFFFFFFF", nil),
        ]
        for (hex, expected) in table {
            var r = reader(hex)
            if let expected {
                XCTAssertEqual(try r.readInt64(), expected, hex)
            } else {
                XCTAssertThrowsError(try r.readInt64(), hex) { XCTAssertEqual(($0 as? BERError)?.code, .integerOverflow) }
            }
        }
        // BER tolerates redundant sign octets and they do not count against 64 bits.
        var padded = reader("020A00007FFFFFFFFFFFFFFF", .ber)
        XCTAssertEqual(try padded.readInt64(), Int64.max)
    }

    func testUnsignedMagnitude() throws {
        var r = reader("0203008001")
        XCTAssertEqual(Array(try r.readUnsignedIntegerMagnitude()), [0x80, 0x01])
        var negative = reader("020180")
        XCTAssertThrowsError(try negative.readUnsignedIntegerMagnitude())
    }

    func testObjectIdentifiers() throws {
        let table: [(String, String)] = [
            ("06092A864886F70D010702", "1.2.840.113549.1.7.2"),
            ("06052B0E03021A", "1.3.14.3.2.26"),
            ("0603883703", "2.999.3"),
            ("060A2A864886F7636406 0B01".replacingOccurrences(of: " ", with: ""), "1.2.840.113635.100.6.11.1"),
        ]
        for (hex, dotted) in table {
            var r = reader(hex)
            let oid = try r.readObjectIdentifier()
            XCTAssertEqual(oid.description, dotted)
            XCTAssertEqual(OID(dotted: dotted), oid)
            var writer = BERWriter()
            writer.appendObjectIdentifier(oid)
            XCTAssertEqual(writer.bytes, bytes(hex: hex))
        }
        XCTAssertEqual(OID.appleReceiptSigningMarker.shortName, "Apple receipt signing marker")
        XCTAssertNil(OID(dotted: "3.1"))
        XCTAssertNil(OID(dotted: "1.40"))
        XCTAssertNil(OID(dotted: "1..2"))
        var huge = reader("060B2A" + String(repeating: "FF", count: 9) + "7F")
        XCTAssertThrowsError(try huge.readObjectIdentifier()) {
            XCTAssertEqual(($0 as? BERError)?.code, .invalidObjectIdentifier)
        }
    }

    func testStrings() throws {
        var utf8 = reader("0C03E282AC")
        XCTAssertEqual(try utf8.readUTF8String(), "€")
        var badUTF8 = reader("0C02C328")
        XCTAssertThrowsError(try badUTF8.readUTF8String()) { XCTAssertEqual(($0 as? BERError)?.code, .invalidString) }
        var ia5 = reader("16023442")
        XCTAssertEqual(try ia5.readIA5String(), "4B")
        var badIA5 = reader("160180")
        XCTAssertThrowsError(try badIA5.readIA5String())
        var printable = reader("1302412B")
        XCTAssertEqual(try printable.readPrintableString(), "A+")
        var badPrintable = reader("13014A40".replacingOccurrences(of: "4A", with: ""))
        XCTAssertThrowsError(try badPrintable.readPrintableString())
        // Wrong tag names both tags.
        var wrongTag = reader("0C0141")
        XCTAssertThrowsError(try wrongTag.readIA5String()) {
            XCTAssertEqual(($0 as? BERError)?.code, .unexpectedTag)
            XCTAssertTrue(($0 as! BERError).reason.contains("UTF8String"))
        }
    }

    func testStringBytesValidateWithoutBuildingStrings() throws {
        // Lengths around the eight-byte steps of the ASCII scan, with the one
        // non-ASCII byte in every position: IA5 refuses each, UTF-8 checks each.
        for length in [1, 7, 8, 9, 15, 16, 17, 40] {
            let ascii = [UInt8](repeating: 0x41, count: length)
            var ia5 = BERReader([0x16, UInt8(length)] + ascii, rules: .der)
            XCTAssertEqual(Array(try ia5.readIA5StringBytes()), ascii)
            for position in 0..<length {
                var bytes = ascii
                bytes[position] = 0xC3  // a lead byte with no continuation: invalid UTF-8 and not ASCII
                let encoded = [0x16, UInt8(length)] + bytes
                var badIA5 = BERReader(encoded, rules: .der)
                XCTAssertThrowsError(try badIA5.readIA5StringBytes(), "length \(length), byte \(position)") {
                    XCTAssertEqual(($0 as? BERError)?.code, .invalidString)
                    XCTAssertEqual(($0 as? BERError)?.offset, 0)
                }
                var badUTF8 = BERReader([0x0C, UInt8(length)] + bytes, rules: .der)
                XCTAssertThrowsError(try badUTF8.readUTF8StringBytes(), "length \(length), byte \(position)") {
                    XCTAssertEqual(($0 as? BERError)?.code, .invalidString)
                }
                if position + 1 < length {
                    bytes[position + 1] = 0xA9  // "é": valid UTF-8, still not IA5
                    var goodUTF8 = BERReader([0x0C, UInt8(length)] + bytes, rules: .der)
                    XCTAssertEqual(Array(try goodUTF8.readUTF8StringBytes()), bytes)
                }
            }
        }
        var empty = reader("0C00")
        XCTAssertTrue(try empty.readUTF8StringBytes().isEmpty)
        var truncated = reader("0C05414243")
        XCTAssertThrowsError(try truncated.readUTF8StringBytes()) { XCTAssertEqual(($0 as? BERError)?.code, .lengthExceedsInput) }
    }

    func testConstructedStringsConcatenateInBEROnly() throws {
        // OCTET STRING made of segments, one of them itself constructed.
        let hex = "2480" + "0402AABB" + "2480" + "0401CC" + "0000" + "0000"
        var ber = reader(hex, .ber)
        XCTAssertEqual(Array(try ber.readOctetString()), [0xAA, 0xBB, 0xCC])
        XCTAssertTrue(ber.isAtEnd)
        var der = reader("24030401AA")
        XCTAssertThrowsError(try der.readOctetString()) {
            XCTAssertEqual(($0 as? BERError)?.code, .constructedStringNotAllowed)
        }
        var wrongSegment = reader("24030C0141", .ber)
        XCTAssertThrowsError(try wrongSegment.readOctetString()) {
            XCTAssertEqual(($0 as? BERError)?.code, .unexpectedTag)
        }
        var utf8Segments = reader("2C800C02C3A90C0141" + "0000", .ber)
        XCTAssertEqual(try utf8Segments.readUTF8String(), "éA")
    }

    func testPrimitiveOctetStringIsZeroCopyWithAbsoluteOffsets() throws {
        let input = bytes(hex: "3004040201020500")
        var r = BERReader(input, rules: .der)
        try r.readSequence { (inner: inout BERReader) throws(BERError) in
            let value = try inner.readOctetString()
            XCTAssertEqual(value.startIndex, 4)
            XCTAssertEqual(Array(value), [1, 2])
        }
        let element = try r.readElement()
        XCTAssertEqual(element.offset, 6)
        XCTAssertEqual(Array(element.encodedBytes), [5, 0])
    }

    func testTimes() throws {
        let table: [(String, String)] = [
            ("170D3234303530313132303030305A", "2024-05-01T12:00:00Z"),
            ("170D3439313233313233353935395A", "2049-12-31T23:59:59Z"),
            ("170D3530303130313030303030305A", "1950-01-01T00:00:00Z"),
            ("180F32303530303130313030303030305A", "2050-01-01T00:00:00Z"),
            ("181332303234303232393132303030302E3132335A", "2024-02-29T12:00:00.123Z"),
        ]
        for (hex, text) in table {
            var r = reader(hex)
            XCTAssertEqual(try r.readTime().description, text, hex)
        }
        let bad = [
            "170B323430353031313230305A",            // no seconds: DER refuses
            "170D3234303233303132303030305A",        // 30 February
            "170D3234303530313132303030302B",        // no Z
            "180F32303233303232393132303030305A",    // 2023-02-29
            "181332303234303530313132303030302E3130305A", // DER: trailing zero in fraction
            "170D3234303530313235303030305A",        // hour 25
        ]
        for hex in bad {
            var r = reader(hex)
            XCTAssertThrowsError(try r.readTime(), hex) { XCTAssertEqual(($0 as? BERError)?.code, .invalidTime, hex) }
        }
        var berNoSeconds = reader("170B323430353031313230305A", .ber)
        XCTAssertEqual(try berNoSeconds.readTime().description, "2024-05-01T12:00:00Z")
    }

    func testTimeArithmetic() {
        let epoch = ASN1Time(year: 1970, month: 1, day: 1)
        XCTAssertEqual(epoch.secondsSince1970, 0)
        let leap = ASN1Time(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59)
        XCTAssertEqual(leap.secondsSince1970, 1_709_251_199)
        XCTAssertEqual(ASN1Time(secondsSince1970: 1_709_251_199), leap)
        XCTAssertEqual(ASN1Time(secondsSince1970: -1).description, "1969-12-31T23:59:59Z")
        XCTAssertLessThan(epoch, leap)
    }

    func testBitStringsAndBooleans() throws {
        var bits = reader("03020780")
        let value = try bits.readBitString()
        XCTAssertEqual(value.unusedBits, 7)
        XCTAssertEqual(Array(value.bytes), [0x80])
        var badUnused = reader("03020881")
        XCTAssertThrowsError(try badUnused.readBitString()) { XCTAssertEqual(($0 as? BERError)?.code, .invalidBitString) }
        var nonZeroPadding = reader("03020781")
        XCTAssertThrowsError(try nonZeroPadding.readBitString())
        var emptyWithUnused = reader("030101")
        XCTAssertThrowsError(try emptyWithUnused.readBitString())
        var berBoolean = reader("010101", .ber)
        XCTAssertTrue(try berBoolean.readBoolean())
    }

    func testSchemaReadersRefuseWrongShapes() throws {
        var notConstructed = reader("0400")
        XCTAssertThrowsError(try notConstructed.readConstructed(.octetString) { (_: inout BERReader) throws(BERError) in })
        var leftover = reader("3006020101020102")
        XCTAssertThrowsError(try leftover.readSequence { (inner: inout BERReader) throws(BERError) in
            _ = try inner.readInt64()
        }) { XCTAssertEqual(($0 as? BERError)?.code, .trailingData) }
        var empty = reader("3000")
        XCTAssertThrowsError(try empty.readSequence { (inner: inout BERReader) throws(BERError) in
            _ = try inner.readInt64()
        }) { XCTAssertEqual(($0 as? BERError)?.code, .unexpectedTag) }
        var optional = reader("020101")
        XCTAssertNil(try optional.readOptionalElement(.context(0)))
        XCTAssertNotNil(try optional.readOptionalElement(.integer))
        XCTAssertNil(try optional.peekTag())
    }

    func testSetOrderCheck() throws {
        let unsorted = "31060201020201 01".replacingOccurrences(of: " ", with: "")
        var lenient = reader(unsorted)
        XCTAssertNoThrow(try lenient.readSet { (inner: inout BERReader) throws(BERError) in
            _ = try inner.readInt64()
            _ = try inner.readInt64()
        })
        var strict = reader(unsorted, BERRules(.der, requireSortedSets: true))
        XCTAssertThrowsError(try strict.readSet { (inner: inout BERReader) throws(BERError) in
            _ = try inner.readInt64()
            _ = try inner.readInt64()
        }) { XCTAssertEqual(($0 as? BERError)?.code, .setNotSorted) }
        // X.690 11.6: the shorter encoding is padded with zeros, so 04 01 00 sorts
        // after 04 00 and before 04 01 01.
        XCTAssertTrue(derSetOrder([4, 0], [4, 1, 0]))
        XCTAssertTrue(derSetOrder([4, 1, 0], [4, 1, 1]))
        XCTAssertFalse(derSetOrder([4, 1, 0], [4, 1, 0]))
    }
}
