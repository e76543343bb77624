import BER
import TestSupport
import XCTest

/// The 25 real receipts against both rule sets, and round trips through the tree.
final class RealReceiptEncodingTests: XCTestCase {
    func testAllRealReceiptsParseInBERMode() throws {
        let receipts = try RealReceipts.pkcs7Receipts()
        XCTAssertEqual(receipts.count, 25)
        for (entry, receipt) in receipts {
            let tree = try BERNode.parse(receipt, rules: .ber)
            XCTAssertEqual(tree.tag, .sequence, entry.name)
            XCTAssertEqual(tree.children.first?.value, .primitive(OID.pkcs7SignedData.encoded[...]), entry.name)
        }
    }

    /// App Store receipts use definite lengths and are DER but for one thing: their
    /// certificate SET (`[0] IMPLICIT SET OF Certificate`) is in chain order. `der`
    /// checks SET OF order only with `requireSortedSets`, and only where the schema
    /// reads a SET OF (`readSet`, implicit tags included): the generic tree parser
    /// can recognise universal SETs only.
    func testDefiniteReceiptsAreDERExceptForTheCertificateSetOrder() throws {
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() where entry.encoding == "definite" {
            XCTAssertNoThrow(try BERNode.parse(receipt, rules: .der), entry.name)
            XCTAssertNoThrow(try Self.readCertificateSet(receipt, rules: .der), entry.name)
            XCTAssertThrowsError(try Self.readCertificateSet(receipt, rules: BERRules(.der, requireSortedSets: true)),
                                 entry.name) {
                XCTAssertEqual(($0 as? BERError)?.code, .setNotSorted, entry.name)
            }
        }
    }

    /// ContentInfo → [0] EXPLICIT SignedData → version, digestAlgorithms,
    /// encapContentInfo, then the certificates SET; returns how many there are.
    static func readCertificateSet(_ receipt: [UInt8], rules: BERRules) throws(BERError) -> Int {
        var reader = BERReader(receipt, rules: rules)
        return try reader.readSequence { (contentInfo: inout BERReader) throws(BERError) -> Int in
            _ = try contentInfo.readObjectIdentifier()
            return try contentInfo.readConstructed(.context(0)) { (explicit: inout BERReader) throws(BERError) -> Int in
                try explicit.readSequence { (signedData: inout BERReader) throws(BERError) -> Int in
                    _ = try signedData.readInt64()
                    _ = try signedData.readElement(.set)
                    _ = try signedData.readElement(.sequence)
                    let count = try signedData.readSet(.context(0)) { (certificates: inout BERReader) throws(BERError) -> Int in
                        var count = 0
                        try certificates.forEachElement { _ in count += 1 }
                        return count
                    }
                    while !signedData.isAtEnd { _ = try signedData.readElement() }
                    return count
                }
            }
        }
    }

    func testIndefiniteReceiptsAreRefusedByDER() throws {
        let xcode = try RealReceipts.pkcs7Receipts().filter { $0.0.encoding != "definite" }
        XCTAssertFalse(xcode.isEmpty)
        for (entry, receipt) in xcode {
            XCTAssertThrowsError(try BERNode.parse(receipt, rules: .der), entry.name) {
                XCTAssertEqual(($0 as? BERError)?.code, .indefiniteLengthNotAllowed, entry.name)
            }
        }
    }

    func testIOS6PlistReceiptsAreNotBER() throws {
        let plists = try RealReceipts.entries().filter { !$0.isPKCS7 }
        XCTAssertEqual(plists.count, 2)
        for entry in plists {
            XCTAssertThrowsError(try BERNode.parse(try RealReceipts.bytes(of: entry), rules: .ber), entry.name)
        }
    }

    /// DER → tree → DER gives the same bytes, for the container and the payload.
    func testDERRoundTripIsByteIdentical() throws {
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() where entry.encoding == "definite" {
            let tree = try BERNode.parse(receipt, rules: .der)
            XCTAssertEqual(tree.derEncoded, receipt, entry.name)
            let payload = try XCTUnwrap(Self.payload(of: tree), entry.name)
            let payloadTree = try BERNode.parse(Array(payload), rules: .der)
            XCTAssertEqual(payloadTree.derEncoded, Array(payload), entry.name)
        }
    }

    /// BER with indefinite lengths and segmented strings parses to the same tree as
    /// its DER form, both ways: Xcode receipts re-encoded as DER, and App Store
    /// receipts re-encoded as BER by the writer's knobs.
    func testBERAndDERFormsGiveTheSameTree() throws {
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() {
            let berTree = try BERNode.parse(receipt, rules: .ber, concatenatingStrings: true)
            let der = berTree.derEncoded
            XCTAssertEqual(try BERNode.parse(der, rules: .der), berTree, entry.name)

            var writer = BERWriter(constructedLengthForm: .indefinite, primitiveLengthForm: .longForm(octets: 4))
            berTree.encode(into: &writer)
            XCTAssertNotEqual(writer.bytes, der)
            XCTAssertEqual(try BERNode.parse(writer.bytes, rules: .ber), berTree, entry.name)
            XCTAssertThrowsError(try BERNode.parse(writer.bytes, rules: .der))
        }
    }

    func testConstructedPayloadOfXcodeReceiptsConcatenates() throws {
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() where entry.encoding != "definite" {
            let tree = try BERNode.parse(receipt, rules: .ber)
            let concatenated = try BERNode.parse(receipt, rules: .ber, concatenatingStrings: true)
            guard case .primitive(let payload)? = Self.payloadNode(of: concatenated)?.value else {
                return XCTFail("\(entry.name): no primitive payload after concatenation")
            }
            XCTAssertTrue(Self.payloadNode(of: tree)?.tag.isConstructed ?? false, entry.name)
            XCTAssertNoThrow(try BERNode.parse(Array(payload), rules: .ber), entry.name)
        }
    }

    // ContentInfo → [0] → SignedData → encapContentInfo → [0] → OCTET STRING
    static func payloadNode(of tree: BERNode) -> BERNode? {
        let signedData = tree.children.dropFirst().first?.children.first
        let encapsulated = signedData?.children.dropFirst(2).first
        return encapsulated?.children.dropFirst().first?.children.first
    }

    static func payload(of tree: BERNode) -> ArraySlice<UInt8>? {
        if case .primitive(let bytes)? = payloadNode(of: tree)?.value { return bytes }
        return nil
    }
}
