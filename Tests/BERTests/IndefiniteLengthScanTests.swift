@testable import BER
import TestSupport
import XCTest

/// Indefinite lengths are scanned once: the scan that finds an element's
/// end-of-contents notes where every nested indefinite element ends, and a walk that
/// descends looks those ends up. The extents must be exactly those a fresh scan finds.
final class IndefiniteLengthScanTests: XCTestCase {
    /// Every element's extent, depth first, descending with `withContents` on one
    /// reader (what the noted ends serve).
    func extentsInPlace(_ reader: inout BERReader) throws(BERError) -> [BERExtent] {
        var extents: [BERExtent] = []
        while !reader.isAtEnd {
            let extent = try reader.readExtent()
            extents.append(extent)
            if extent.tag.isConstructed {
                extents += try reader.withContents(of: extent) { (inner: inout BERReader) throws(BERError) in
                    try extentsInPlace(&inner)
                }
            }
        }
        return extents
    }

    /// The same walk with a new reader per level (`contentsReader` starts with no
    /// noted ends, so every indefinite element is scanned from scratch).
    func extentsFresh(_ reader: inout BERReader) throws(BERError) -> [BERExtent] {
        var extents: [BERExtent] = []
        while !reader.isAtEnd {
            let element = try reader.readElement()
            extents.append(element.extent)
            if element.tag.isConstructed {
                var inner = try element.contentsReader()
                XCTAssertTrue(inner.knownIndefiniteEnds.isEmpty)
                extents += try extentsFresh(&inner)
            }
        }
        return extents
    }

    func nestedIndefinite(_ depth: Int) -> [UInt8] {
        Array(repeating: [0x30, 0x80], count: depth).flatMap { $0 } + Array(repeating: 0, count: 2 * depth)
    }

    func testNestedEndsAreNotedByTheFirstScanAndExact() throws {
        let depth = 60
        let input = nestedIndefinite(depth)
        var reader = BERReader(input, rules: .ber)
        let outer = try reader.readExtent()
        XCTAssertEqual(outer.contentsRange, 2..<(4 * depth - 2))
        XCTAssertEqual(reader.knownIndefiniteEnds.count, 2 * (depth - 1), "one pair per nested element, from one scan")
        var walker = BERReader(input, rules: .ber)
        let extents = try extentsInPlace(&walker)
        XCTAssertEqual(extents.count, depth)
        for (level, extent) in extents.enumerated() {
            // Level k opens at 2k; its end-of-contents is the (depth - k)th 00 00 pair.
            let contentsEnd = 2 * depth + 2 * (depth - 1 - level)
            XCTAssertEqual(extent.offset, 2 * level)
            XCTAssertEqual(extent.contentsRange, (2 * level + 2)..<contentsEnd, "level \(level)")
            XCTAssertEqual(extent.end, contentsEnd + 2)
            XCTAssertEqual(extent.depth, level + 1)
        }
        XCTAssertEqual(walker.knownIndefiniteEnds.count, 2 * (depth - 1), "descending added no pair: nothing was rescanned")
    }

    func testMixedNestingMatchesFreshScans() throws {
        // Indefinite around definite around indefinite, siblings after each.
        let inputs = [
            "3080" + "3007" + "3080020101" + "0000" + "020102" + "0000",
            "3080" + "3080" + "0400" + "0000" + "3080" + "3080" + "0000" + "0000" + "0000" + "0500",
            "2480" + "0401AA" + "2480" + "0401BB" + "0000" + "0000",
        ]
        for hex in inputs {
            let input = bytes(hex: hex)
            var inPlace = BERReader(input, rules: .ber)
            var fresh = BERReader(input, rules: .ber)
            XCTAssertEqual(try extentsInPlace(&inPlace), try extentsFresh(&fresh), hex)
        }
    }

    func testRealReceiptsMatchFreshScans() throws {
        var indefinite = 0
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() {
            var inPlace = BERReader(receipt, rules: .ber)
            var fresh = BERReader(receipt, rules: .ber)
            let extents = try extentsInPlace(&inPlace)
            XCTAssertEqual(extents, try extentsFresh(&fresh), entry.name)
            indefinite += extents.filter(\.isIndefiniteLength).count
        }
        XCTAssertGreaterThan(indefinite, 0, "the real receipts include indefinite lengths")
    }

    /// A nested element's missing end-of-contents is still reported, by the scan
    /// that notes the others.
    func testBrokenNestingStillFails() {
        for hex in ["30803080020101", "308030800201010000", "3080308000000201"] {
            var reader = BERReader(bytes(hex: hex), rules: .ber)
            XCTAssertThrowsError(try extentsInPlace(&reader), hex)
        }
    }
}
