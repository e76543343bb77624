import BER
import Receipt
import XCTest

/// Bad input for the payload decoder: always a typed `BERError` with an offset, never a crash.
final class PayloadDecodingTests: XCTestCase {
    /// A small payload: environment, bundle id, a creation date, an empty date, one in-app purchase.
    func samplePayload() -> AppReceipt {
        var purchase = InAppPurchase()
        purchase.quantity = 1
        purchase.productIdentifier = "com.example.pro"
        purchase.purchaseDate = ReceiptDate("2026-05-01T10:00:00Z")
        purchase.subscriptionExpirationDate = nil
        purchase.webOrderLineItemID = Int64.max
        var receipt = AppReceipt()
        receipt.environment = "Production"
        receipt.bundleIdentifier = "com.example.app"
        receipt.appVersion = "42"
        receipt.opaqueValue = Array(repeating: 0xAB, count: 16)
        receipt.creationDate = ReceiptDate("2026-05-02T09:36:07.250+0200")
        receipt.attributes.append(.date(AppReceipt.Field.undocumentedDate8, nil))
        receipt.inAppPurchases = [purchase]
        return receipt
    }

    func testTypedAccessorsRoundTrip() throws {
        let receipt = samplePayload()
        let decoded = try AppReceipt(decoding: receipt.encoded())
        XCTAssertEqual(decoded, receipt)
        XCTAssertEqual(decoded.environment, "Production")
        XCTAssertEqual(decoded.bundleIdentifier, "com.example.app")
        XCTAssertEqual(decoded.bundleIdentifierValue, [0x0C, 0x0F] + Array("com.example.app".utf8))
        XCTAssertEqual(decoded.creationDate?.text, "2026-05-02T09:36:07.250+0200")
        XCTAssertNil(decoded.undocumentedDate8, "an empty date is absent")
        XCTAssertNil(decoded.expirationDate)
        XCTAssertEqual(decoded.inAppPurchases.first?.webOrderLineItemID, Int64.max)
        XCTAssertNil(decoded.inAppPurchases.first?.subscriptionExpirationDate)
        XCTAssertEqual(decoded.inAppPurchases.first?.attribute(1708)?.value, [0x16, 0x00])
    }

    func testBERKnobsDecodeToTheSameAttributes() throws {
        let receipt = samplePayload()
        for form in [BERWriter.LengthForm.indefinite, .longForm(octets: 4)] {
            var writer = BERWriter(constructedLengthForm: form, primitiveLengthForm: .longForm(octets: 2))
            receipt.encode(into: &writer)
            XCTAssertNotEqual(writer.bytes, receipt.encoded())
            XCTAssertEqual(try AppReceipt(decoding: writer.bytes).attributes, receipt.attributes)
            XCTAssertThrowsError(try AppReceipt(decoding: writer.bytes, rules: .der))
        }
    }

    func testUnknownAttributesArePreservedInOrder() throws {
        var receipt = samplePayload()
        receipt.attributes.insert(ReceiptAttribute(type: 9999, version: 7, value: [0xFF, 0x00, 0x01]), at: 1)
        receipt.attributes.append(ReceiptAttribute(type: -5, version: -1, value: []))
        let decoded = try AppReceipt(decoding: receipt.encoded())
        XCTAssertEqual(decoded.encoded(), receipt.encoded())
        XCTAssertEqual(decoded.unknownAttributes.map(\.type), [9999, -5])
    }

    func testEveryStrictPrefixFailsCleanly() {
        let bytes = samplePayload().encoded()
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try AppReceipt(decoding: Array(bytes.prefix(length))), "prefix \(length)") { error in
                XCTAssertTrue(error is BERError, "prefix \(length): \(error)")
            }
        }
    }

    /// One attribute SEQUENCE around `value` with `type`, inside the payload SET.
    func payload(type: [UInt8] = [0x02, 0x01, 0x02], version: [UInt8] = [0x02, 0x01, 0x01], value: [UInt8]) -> [UInt8] {
        var writer = BERWriter()
        writer.appendConstructed(.set) { set in
            set.appendSequence { fields in
                fields.appendEncoded(type)
                fields.appendEncoded(version)
                fields.appendEncoded(value)
            }
        }
        return writer.bytes
    }

    func octetString(_ contents: [UInt8]) -> [UInt8] {
        var writer = BERWriter()
        writer.appendOctetString(contents)
        return writer.bytes
    }

    func testBadAttributesThrowTypedErrorsWithOffsetAndPath() {
        let nineByteInteger: [UInt8] = [0x02, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]
        let cases: [(String, [UInt8], BERError.Code, Int)] = [
            // name, payload, code, offset
            ("type overflows 64 bits", payload(type: nineByteInteger, value: octetString([0x0C, 0x00])),
             .integerOverflow, 4),
            ("empty type", payload(type: [0x02, 0x00], value: octetString([0x0C, 0x00])), .emptyInteger, 4),
            ("value is not an OCTET STRING", payload(value: [0x0C, 0x01, 0x41]), .unexpectedTag, 10),
            ("bundle id is an IA5String", payload(value: octetString([0x16, 0x01, 0x41])), .unexpectedTag, 12),
            ("bundle id is not UTF-8", payload(value: octetString([0x0C, 0x01, 0xFF])), .invalidString, 12),
            ("bundle id has trailing bytes", payload(value: octetString([0x0C, 0x01, 0x41, 0x00])), .trailingData, 15),
            ("creation date out of range", payload(type: [0x02, 0x01, 0x0C],
                                                   value: octetString([0x16, 0x04] + Array("2024".utf8))),
             .invalidTime, 12),
            ("creation date is a UTF8String", payload(type: [0x02, 0x01, 0x0C], value: octetString([0x0C, 0x00])),
             .unexpectedTag, 12),
            ("app item id overflows", payload(type: [0x02, 0x01, 0x01], value: octetString(nineByteInteger)),
             .integerOverflow, 12),
            ("in-app record is not a SET", payload(type: [0x02, 0x01, 0x11], value: octetString([0x30, 0x00])),
             .unexpectedTag, 12),
            ("in-app date is bad", payload(type: [0x02, 0x01, 0x11], value: octetString(
                payload(type: [0x02, 0x02, 0x06, 0xA8], value: octetString([0x16, 0x01, 0x31])))),
             .invalidTime, 25),
            ("attribute is not a SEQUENCE", [0x31, 0x02, 0x31, 0x00], .unexpectedTag, 2),
            ("payload is not a SET", [0x30, 0x00], .unexpectedTag, 0),
            ("trailing data after the SET", [0x31, 0x00, 0x00], .trailingData, 2),
            ("length past the end", [0x31, 0x05, 0x30, 0x00], .lengthExceedsInput, 0),
            ("length of 2^64-1", [0x31, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .lengthOverflow, 1),
            ("length of 2^31-1", [0x31, 0x84, 0x7F, 0xFF, 0xFF, 0xFF], .lengthExceedsInput, 0),
            ("missing end-of-contents", [0x31, 0x80, 0x30, 0x00], .missingEndOfContents, 0),
        ]
        for (name, bytes, code, offset) in cases {
            XCTAssertThrowsError(try AppReceipt(decoding: bytes), name) { error in
                guard let error = error as? BERError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(error.code, code, "\(name): \(error)")
                XCTAssertEqual(error.offset, offset, "\(name): \(error)")
            }
        }
        XCTAssertThrowsError(try AppReceipt(decoding: payload(value: octetString([0x16, 0x01, 0x41])))) { error in
            XCTAssertEqual((error as? BERError)?.pathDescription, "attributes[0].value")
        }
    }

    /// A value made of nested constructed OCTET STRINGs `levels` deep: at the depth cap it
    /// decodes, one more level is refused with `depthLimitExceeded`.
    func testNestingAtAndBeyondTheDepthLimit() throws {
        func nested(_ levels: Int) -> [UInt8] {
            var inner: [UInt8] = [0x04, 0x01, 0x41]
            for _ in 0..<levels { inner = [0x24, 0x80] + inner + [0x00, 0x00] }
            var writer = BERWriter()
            writer.appendConstructed(.set, lengthForm: .indefinite) { set in
                set.appendSequence(lengthForm: .indefinite) { fields in
                    fields.appendInteger(4)
                    fields.appendInteger(2)
                    fields.appendEncoded(inner)
                }
            }
            return writer.bytes
        }
        // SET (1) > SEQUENCE (2) > OCTET STRING levels (3...) > primitive segment.
        let limit = BERRules.defaultMaximumDepth
        let deepest = limit - 3
        XCTAssertEqual(try AppReceipt(decoding: nested(deepest)).opaqueValue, [0x41])
        XCTAssertThrowsError(try AppReceipt(decoding: nested(deepest + 1))) { error in
            XCTAssertEqual((error as? BERError)?.code, .depthLimitExceeded)
        }
    }

    func testReplaceKeepsPositionAndDropsDuplicates() {
        var receipt = AppReceipt(attributes: [.utf8String(2, "a"), .utf8String(3, "1"), .utf8String(2, "b")])
        receipt.bundleIdentifier = "c"
        XCTAssertEqual(receipt.attributes.map(\.type), [2, 3])
        XCTAssertEqual(receipt.bundleIdentifier, "c")
        receipt.bundleIdentifier = nil
        XCTAssertEqual(receipt.attributes.map(\.type), [3])
    }

    func testVerdictReasonsAreExactlyTheStableCodes() {
        XCTAssertEqual(VerdictReason.allCases.map(\.rawValue), [
            "valid", "missing", "malformed", "signature-invalid", "untrusted-chain", "certificate-expired",
            "bundle-mismatch", "version-mismatch", "device-hash-mismatch", "receipt-expired", "unsupported-algorithm",
        ])
        XCTAssertEqual(VerdictReason.valid.verdict, .valid)
        XCTAssertEqual(VerdictReason.malformed.verdict, .invalid)
    }
}

/// The decoder's per-attribute lookup agrees with the public `knownValueKinds`.
final class AttributeValueKindTableTests: XCTestCase {
    func testTablesAgreeWithTheDictionaries() {
        for (name, dictionary, table) in [("AppReceipt", AppReceipt.knownValueKinds, AppReceipt.valueKindTable),
                                          ("InAppPurchase", InAppPurchase.knownValueKinds, InAppPurchase.valueKindTable)] {
            for type in Int64(-5)...2000 {
                XCTAssertEqual(table[type], dictionary[type], "\(name) type \(type)")
            }
            for type in [Int64.min, Int64.min + 1, Int64.max - 1, Int64.max] {
                XCTAssertNil(table[type], "\(name) type \(type)")
            }
        }
    }

    func testSpreadTypesFallBackToTheDictionary() {
        let spread: [Int64: AttributeValueKind] = [Int64.min: .integer, 0: .raw, Int64.max: .date]
        let table = AttributeValueKindTable(spread)
        XCTAssertEqual(table[Int64.min], .integer)
        XCTAssertEqual(table[0], .raw)
        XCTAssertEqual(table[Int64.max], .date)
        XCTAssertNil(table[1])
        XCTAssertNil(AttributeValueKindTable([:])[0])
        let negative = AttributeValueKindTable([-3: .utf8String, -1: .ia5String])
        XCTAssertEqual(negative[-3], .utf8String)
        XCTAssertNil(negative[-2])
        XCTAssertEqual(negative[-1], .ia5String)
        XCTAssertNil(negative[0])
    }
}
