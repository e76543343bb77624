import BER
import ReceiptForge
import TestSupport
import XCTest

/// The Swift ASN.1 decoder of the 2019 blog post "Swift ASN.1 Decoder for iOS
/// Receipt Validation" shipped four defects. Each is a named test here, so a
/// regression that reintroduces one fails by name.
final class SeedParserDefectTests: XCTestCase {
    /// Defect 1: no bounds checks — any truncated input crashed. Every strict
    /// prefix of every real receipt must fail with an error instead.
    func testDefect1_NoBoundsChecks_EveryPrefixOfEveryRealReceiptFails() throws {
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() {
            assertEveryPrefixFails(receipt, entry.name)
        }
    }

    /// The same on the forge's receipts, which every run has (DER, BER indefinite,
    /// nested constructed OCTET STRINGs), and on their inner elements.
    func testDefect1_EveryPrefixOfForgeReceiptsFails() throws {
        let forge = Forge()
        for id in ["valid", "xcode-storekit", "nested-octet-string"] {
            let receipt = try XCTUnwrap(try forge.mint(XCTUnwrap(ForgeCase.named(id))).receipt, id)
            assertEveryPrefixFails(receipt, id)
            if id == "valid" { try assertEveryPrefixOfInnerElementsFails(receipt, id) }
        }
    }

    private func assertEveryPrefixFails(_ receipt: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for length in 0..<receipt.count {
            let prefix = Array(receipt[..<length])
            XCTAssertThrowsError(try BERNode.parse(prefix, rules: .ber), "\(name) prefix \(length)", file: file, line: line)
        }
    }

    /// Definite outer lengths make a prefix fail at once; truncating the inner
    /// elements on their own (payload, certificates) drives the parser through
    /// every inner header ("drip-feed").
    func testDefect1_EveryPrefixOfInnerElementsFails() throws {
        let (entry, receipt) = try RealReceipts.firstPKCS7Receipt { $0.encoding == "definite" }
        try assertEveryPrefixOfInnerElementsFails(receipt, entry.name)
    }

    private func assertEveryPrefixOfInnerElementsFails(_ receipt: [UInt8], _ name: String) throws {
        let tree = try BERNode.parse(receipt, rules: .ber)
        var pieces: [[UInt8]] = []
        func collect(_ node: BERNode) {
            if let source = node.source, node.tag.isConstructed, source.depth <= 5, let length = source.length {
                pieces.append(Array(receipt[source.offset..<(source.offset + source.headerLength + length)]))
            }
            node.children.forEach(collect)
        }
        collect(tree)
        XCTAssertGreaterThan(pieces.count, 10, name)
        for piece in pieces {
            XCTAssertNoThrow(try BERNode.parse(piece, rules: .ber))
            for length in 0..<piece.count {
                XCTAssertThrowsError(try BERNode.parse(Array(piece[..<length]), rules: .ber))
            }
        }
    }

    /// Defect 2: high tag numbers accumulated with `<< 8` instead of `<< 7`.
    func testDefect2_HighTagNumbersAreBase128() throws {
        // 1F 81 00: digits 1, 0 → 1×128 + 0 = 128 (a shift by 8 gives 256).
        XCTAssertEqual(try BERNode.parse(bytes(hex: "1F810000"), rules: .der).tag.number, 128)
        // 1F 82 01: 2×128 + 1 = 257 (a shift by 8 gives 513).
        XCTAssertEqual(try BERNode.parse(bytes(hex: "1F820100"), rules: .der).tag.number, 257)
    }

    /// Defect 3: the end of an indefinite length was found by scanning bytes for
    /// zeros, testing the pair with `&&` where `||` was meant (so a single 00 ended
    /// it), and ignoring nesting. The reader parses element by element instead.
    func testDefect3_IndefiniteLengthEndIsFoundByParsingNotScanning() throws {
        // A single 00 inside a child (INTEGER 0) must not end the SEQUENCE.
        let zeroInteger = try BERNode.parse(bytes(hex: "30800201000201050000"), rules: .ber)
        XCTAssertEqual(zeroInteger.children.map(\.value), [.primitive([0][...]), .primitive([5][...])])
        // A 00 00 pair inside primitive contents is data, not end-of-contents.
        let zerosInContents = try BERNode.parse(bytes(hex: "3080040200000000"), rules: .ber)
        XCTAssertEqual(zerosInContents.children.first?.value, .primitive([0, 0][...]))
        // Nesting: the inner SEQUENCE's end-of-contents does not close the outer one.
        let nested = try BERNode.parse(bytes(hex: "30803080020101000002010200 00".replacingOccurrences(of: " ", with: "")),
                                       rules: .ber)
        XCTAssertEqual(nested.children.count, 2)
        XCTAssertEqual(nested.children[0].children.count, 1)
        XCTAssertEqual(nested.children[1].value, .primitive([2][...]))
        // An end-of-contents scan that stops early leaves the real marker as
        // trailing data; one that runs off the end must report the missing marker.
        XCTAssertThrowsError(try BERNode.parse(bytes(hex: "3080308002010100000201"), rules: .ber)) {
            XCTAssertEqual(($0 as? BERError)?.code, .lengthExceedsInput)
        }
    }

    /// Defect 4: lengths of many octets accumulated into a fixed-width integer
    /// overflowed silently and produced small (or negative) lengths.
    func testDefect4_LongLengthsNeverWrap() {
        let table: [(String, BERError.Code)] = [
            ("3088FFFFFFFFFFFFFFFF", .lengthOverflow),            // beyond Int
            ("30850100000005" + "0203010001", .lengthExceedsInput), // 2^32+5, not 5
            ("308480000000", .lengthExceedsInput),                 // 2^31, not negative
            ("3089010000000000000000", .lengthTooLong),            // nine octets
        ]
        for (hex, code) in table {
            XCTAssertThrowsError(try BERNode.parse(bytes(hex: hex), rules: .ber), hex) {
                XCTAssertEqual(($0 as? BERError)?.code, code, hex)
            }
        }
    }
}

/// The nesting cap: depth N passes, N+1 fails, for every way of nesting; and an
/// input nested 100 000 deep fails fast, without deep recursion.
final class NestingDepthTests: XCTestCase {
    func nestedDefinite(_ depth: Int) -> [UInt8] {
        var encoding = bytes(hex: "0500")  // NULL at the bottom
        for _ in 0..<depth {
            var writer = BERWriter()
            writer.appendConstructed(.sequence, contents: encoding)
            encoding = writer.bytes
        }
        return encoding
    }

    func nestedIndefinite(_ depth: Int) -> [UInt8] {
        Array(repeating: [0x30, 0x80], count: depth).flatMap { $0 } + Array(repeating: 0, count: 2 * depth)
    }

    func testCapIsExactForDefiniteAndIndefiniteLengths() throws {
        let cap = BERRules.defaultMaximumDepth
        // N SEQUENCEs around a NULL nest N+1 elements deep.
        XCTAssertNoThrow(try BERNode.parse(nestedDefinite(cap - 1), rules: .der))
        XCTAssertThrowsError(try BERNode.parse(nestedDefinite(cap), rules: .der)) {
            XCTAssertEqual(($0 as? BERError)?.code, .depthLimitExceeded)
        }
        XCTAssertNoThrow(try BERNode.parse(nestedIndefinite(cap), rules: .ber))
        XCTAssertThrowsError(try BERNode.parse(nestedIndefinite(cap + 1), rules: .ber)) {
            XCTAssertEqual(($0 as? BERError)?.code, .depthLimitExceeded)
        }
    }

    func testCapIsConfigurable() throws {
        let rules = BERRules(.ber, maximumDepth: 3)
        XCTAssertNoThrow(try BERNode.parse(nestedIndefinite(3), rules: rules))
        XCTAssertThrowsError(try BERNode.parse(nestedIndefinite(4), rules: rules))
        XCTAssertNoThrow(try BERNode.parse(nestedDefinite(2), rules: rules))
        XCTAssertThrowsError(try BERNode.parse(nestedDefinite(3), rules: rules))
    }

    func testSchemaDrivenDescentHonoursTheCap() throws {
        var reader = BERReader(nestedDefinite(BERRules.defaultMaximumDepth), rules: .der)
        func descend(_ reader: inout BERReader) throws(BERError) -> Int {
            if try reader.peekTag() == .null {
                try reader.readNull()
                return 0
            }
            return try reader.readSequence { (inner: inout BERReader) throws(BERError) -> Int in
                try descend(&inner) + 1
            }
        }
        XCTAssertThrowsError(try descend(&reader)) {
            XCTAssertEqual(($0 as? BERError)?.code, .depthLimitExceeded)
        }
    }

    func testHundredThousandNestedIndefiniteSequencesFailFast() {
        let input = nestedIndefinite(100_000)
        for rules in [BERRules.ber, BERRules(.ber, maximumDepth: 1_000)] {
            XCTAssertThrowsError(try BERNode.parse(input, rules: rules)) {
                XCTAssertEqual(($0 as? BERError)?.code, .depthLimitExceeded)
            }
            var reader = BERReader(input, rules: rules)
            XCTAssertThrowsError(try reader.readExtent())
        }
        let dump = BERDump(input, rules: .ber)
        XCTAssertEqual(dump.error?.code, .depthLimitExceeded)
    }
}

/// Inputs the `ber` fuzz target found, each kept in Corpus/ber/ and named here.
final class BERFuzzFindingTests: XCTestCase {
    /// `30 80 30 80 02 01 01 00 81 00 27 00 00 00`: the inner SEQUENCE was closed by
    /// `00 81 00`, an end-of-contents with a long-form zero length, which X.690 8.1.5
    /// does not allow (swift-asn1 refused it; we accepted it). Found by
    /// `ber-swiftasn1-ber-difference` within a minute of the first BER-mode run.
    func testLongFormEndOfContentsIsRefused() {
        let input = bytes(hex: "30803080020101008100270000 00".replacingOccurrences(of: " ", with: ""))
        XCTAssertThrowsError(try BERNode.parse(input, rules: .ber)) { error in
            XCTAssertEqual((error as? BERError)?.code, .invalidEndOfContents)
            XCTAssertEqual((error as? BERError)?.offset, 7)
        }
    }
}
