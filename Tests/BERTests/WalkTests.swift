import BER
import Foundation
import TestSupport
import XCTest

/// `BERReader.walk`, the iterative one-pass walk, against the recursive walk made of
/// `readExtent` + `withContents` (the schema-style API): the same elements with the
/// same extents, the same refusals with the same error, on hand-made, hostile,
/// real and fuzz-corpus input.
final class WalkTests: XCTestCase {
    /// Every extent `walk` visits, in visiting order, or its error.
    func walked(_ input: [UInt8], rules: BERRules) -> Result<[BERExtent], BERError> {
        var reader = BERReader(input, rules: rules)
        var extents: [BERExtent] = []
        return Result { () throws(BERError) in
            try reader.walk { (extent) throws(BERError) in extents.append(extent) }
            XCTAssertTrue(reader.isAtEnd)
            return extents
        }
    }

    /// Every extent by the recursive walk, depth first, or its error.
    func descended(_ input: [UInt8], rules: BERRules) -> Result<[BERExtent], BERError> {
        func walk(_ reader: inout BERReader, into extents: inout [BERExtent]) throws(BERError) {
            while !reader.isAtEnd {
                let extent = try reader.readExtent()
                extents.append(extent)
                if extent.tag.isConstructed {
                    try reader.withContents(of: extent) { (inner: inout BERReader) throws(BERError) in
                        try walk(&inner, into: &extents)
                    }
                }
            }
        }
        var reader = BERReader(input, rules: rules)
        var extents: [BERExtent] = []
        return Result { () throws(BERError) in
            try walk(&reader, into: &extents)
            return extents
        }
    }

    /// Both walks agree: same extents (as sets: `walk` visits an indefinite-length
    /// element after its children), or both refuse; with `sameError`, with the same
    /// error code and offset. (On input with several defects the two may name
    /// different ones: the recursive walk scans an indefinite-length element to its
    /// end before walking its contents, `walk` meets defects in input order.)
    func assertSameWalk(_ input: [UInt8], rules: BERRules, _ name: String, sameError: Bool = true,
                        file: StaticString = #filePath, line: UInt = #line) {
        switch (walked(input, rules: rules), descended(input, rules: rules)) {
        case (.success(let ours), .success(let reference)):
            XCTAssertEqual(ours.sorted { $0.offset < $1.offset }, reference, name, file: file, line: line)
        case (.failure(let ours), .failure(let reference)):
            guard sameError else { return }
            XCTAssertEqual(ours.code, reference.code, name, file: file, line: line)
            XCTAssertEqual(ours.offset, reference.offset, "\(name): \(ours) vs \(reference)", file: file, line: line)
        case (let ours, let reference):
            XCTFail("\(name): walk \(ours), withContents \(reference)", file: file, line: line)
        }
    }

    func testVisitsDefiniteBeforeAndIndefiniteAfterTheirChildren() throws {
        // SEQUENCE (indefinite) { INTEGER 1, SEQUENCE (definite) { NULL } }, then BOOLEAN.
        let input = bytes(hex: "3080" + "020101" + "30020500" + "0000" + "0101FF")
        let extents = try walked(input, rules: .ber).get()
        XCTAssertEqual(extents.map(\.offset), [2, 5, 7, 0, 11])
        XCTAssertEqual(extents.map(\.tag), [.integer, .sequence, .null, .sequence, .boolean])
        XCTAssertEqual(extents.map(\.depth), [2, 2, 3, 1, 1])
        XCTAssertEqual(extents.map(\.contentsRange), [4..<5, 7..<9, 9..<9, 2..<9, 13..<14])
        XCTAssertEqual(extents.map(\.end), [5, 9, 9, 11, 14])
        XCTAssertEqual(extents.map(\.isIndefiniteLength), [false, false, false, true, false])
        assertSameWalk(input, rules: .ber, "mixed")
    }

    func testNestedIndefiniteLengthsAtTheDepthLimit() throws {
        for depth in [1, 2, 63, 64, 65] {
            let opening: [UInt8] = Array(repeating: [UInt8]([0x30, 0x80]), count: depth).flatMap { $0 }
            let input: [UInt8] = opening + [UInt8](repeating: 0, count: 2 * depth)
            switch walked(input, rules: .ber) {
            case .success(let extents):
                XCTAssertLessThanOrEqual(depth, BERRules.defaultMaximumDepth)
                // Innermost first; level k opens at 2k and its contents end at the
                // (depth - k)th 00 00 pair.
                XCTAssertEqual(extents.map { (extent: BERExtent) -> Int in extent.depth }, Array((1...depth).reversed()))
                for extent in extents {
                    let level: Int = extent.depth - 1
                    let contentsEnd: Int = 2 * depth + 2 * (depth - 1 - level)
                    XCTAssertEqual(extent.offset, 2 * level)
                    XCTAssertEqual(extent.contentsRange, (2 * level + 2)..<contentsEnd)
                }
            case .failure(let error):
                XCTAssertGreaterThan(depth, BERRules.defaultMaximumDepth)
                XCTAssertEqual(error.code, BERError.Code.depthLimitExceeded)
                XCTAssertEqual(error.offset, 2 * BERRules.defaultMaximumDepth)
            }
            assertSameWalk(input, rules: .ber, "indefinite depth \(depth)")
        }
        for depth in [64, 65] {
            var input: [UInt8] = [0x05, 0x00]
            for _ in 0..<depth { input = [UInt8(0x30), UInt8(input.count)] + input }
            if input.count > 0x80 { continue }
            assertSameWalk(input, rules: .ber, "definite depth \(depth)")
        }
    }

    func testHostileEncodingsFailTheSameWay() {
        for testCase in HostileEncodingTests.cases {
            for rules in [BERRules.ber, .der] {
                assertSameWalk(bytes(hex: testCase.hex), rules: rules, "\(testCase.name) [\(rules.mode)]")
            }
        }
        let more = [
            "3080" + "3002" + "0000" + "0000",  // 00 00 inside a definite element inside an indefinite one
            "3080" + "3080" + "0000",  // the outer end-of-contents missing
            "3080" + "0403AABB",  // a child running past the end, inside an indefinite element
            "3003" + "3080" + "00",  // an indefinite element cut by its definite parent's end
            "30803005" + "3080" + "0000" + "0000" + "0000",  // inner definite cuts through the 00 00
            "3080" + "0000" + "0000",  // a stray 00 00 after the element
        ]
        for hex in more { assertSameWalk(bytes(hex: hex), rules: .ber, hex) }
    }

    func testWalkFromAContentsReaderKeepsItsDepthAndStopsAtItsEnd() throws {
        let input = bytes(hex: "3009" + "3080" + "020107" + "0000" + "0500")
        var outer = BERReader(input, rules: BERRules(.ber, maximumDepth: 3))
        let sequence = try outer.readExtent()
        let depths = try outer.withContents(of: sequence) { (inner: inout BERReader) throws(BERError) -> [Int] in
            var depths: [Int] = []
            try inner.walk { (extent) throws(BERError) in depths.append(extent.depth) }
            return depths
        }
        XCTAssertEqual(depths, [3, 2, 2], "INTEGER, then its indefinite SEQUENCE, then NULL")
        XCTAssertTrue(outer.isAtEnd)
        // One level less allowed: the INTEGER at depth 3 is refused.
        var shallow = BERReader(input, rules: BERRules(.ber, maximumDepth: 2))
        XCTAssertThrowsError(try shallow.walk { (_) throws(BERError) in }) { error in
            XCTAssertEqual((error as? BERError)?.code, .depthLimitExceeded)
            XCTAssertEqual((error as? BERError)?.offset, 4, "the INTEGER inside the indefinite SEQUENCE")
        }
    }

    /// A reader over a slice that does not start at 0: extents and error offsets are
    /// indices into the whole buffer, as `readExtent` gives them.
    func testWalkOnASliceGivesStorageIndices() throws {
        let whole = bytes(hex: "FFFF" + "3080" + "3003020107" + "0000" + "0500")
        var reader = BERReader(whole[2...], rules: .ber)
        var extents: [BERExtent] = []
        try reader.walk { (extent) throws(BERError) in extents.append(extent) }
        XCTAssertEqual(extents.map(\.offset), [4, 6, 2, 11])
        XCTAssertEqual(extents.map(\.contentsRange), [6..<9, 8..<9, 4..<9, 13..<13])
        XCTAssertEqual(extents.map(\.end), [9, 9, 11, 13])
        XCTAssertTrue(reader.isAtEnd)
        for (hex, code, offset) in [("3080" + "0403AABB", BERError.Code.lengthExceedsInput, 4),
                                    ("3080" + "0500", .missingEndOfContents, 2),
                                    ("3002" + "0000", .unexpectedEndOfContents, 4),
                                    ("30", .truncated, 2)] {
            let input = bytes(hex: "FFFF" + hex)
            var sliced = BERReader(input[2...], rules: .ber)
            XCTAssertThrowsError(try sliced.walk { (_) throws(BERError) in }, hex) { error in
                XCTAssertEqual((error as? BERError)?.code, code, hex)
                XCTAssertEqual((error as? BERError)?.offset, offset, hex)
            }
            assertSameWalk(Array(input[2...]), rules: .ber, hex)
        }
    }

    func testAnErrorFromTheVisitorStopsTheWalk() {
        var reader = BERReader(bytes(hex: "3006" + "020101" + "020102"), rules: .ber)
        var seen = 0
        XCTAssertThrowsError(try reader.walk { (extent) throws(BERError) in
            seen += 1
            if extent.tag == .integer { throw BERError(.unexpectedTag, at: extent.offset, "stop") }
        }) { error in
            XCTAssertEqual((error as? BERError)?.offset, 2)
        }
        XCTAssertEqual(seen, 2)
    }

    func testRealReceiptsWalkTheSame() throws {
        let receipts = try RealReceipts.pkcs7Receipts()
        XCTAssertFalse(receipts.isEmpty)
        var indefinite = 0
        for (entry, input) in receipts {
            assertSameWalk(input, rules: .ber, entry.name)
            if case .success(let extents) = walked(input, rules: .ber) {
                indefinite += extents.filter(\.isIndefiniteLength).count
            } else {
                XCTFail("\(entry.name) does not walk")
            }
        }
        XCTAssertGreaterThan(indefinite, 0, "some real receipt has indefinite lengths")
    }

    /// Every input of the `ber` fuzz corpus, in both rule sets.
    func testFuzzCorpusWalksTheSame() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/ber")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !$0.hasPrefix(".") }
        XCTAssertGreaterThan(files.count, 100)
        for name in files {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            assertSameWalk(input, rules: .ber, name, sameError: false)
            assertSameWalk(input, rules: BERRules(.der, maximumDepth: 50), name, sameError: false)
        }
    }
}
