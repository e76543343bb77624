@testable import BER
import XCTest

/// `BERError` stays within 32 bytes, so typed throws return it in registers (see
/// the comment on its stored properties); its reason and path survive the packing.
final class BERErrorLayoutTests: XCTestCase {
    /// The error one of the reader's cold throwers throws.
    private func thrown(_ body: () throws(BERError) -> Never) -> BERError {
        do throws(BERError) { try body() } catch { return error }
    }

    func testTheErrorFitsInFourWords() {
        XCTAssertLessThanOrEqual(MemoryLayout<BERError>.size, 32)
    }

    func testReasonsAreRenderedFromTheirValues() {
        let tag = BERTag(.contextSpecific, 1_000_000, constructed: true)
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.contentsPastEnd(tag, at: 3, length: Int.max, available: 7) }.reason,
                       "[1000000] declares \(Int.max) contents bytes, 7 available")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.invalidLength(.lengthOverflow, at: 0, tag: .sequence, octets: 8, value: UInt64.max) }.reason,
                       "length \(UInt64.max) does not fit in Int")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.invalidLength(.nonMinimalLength, at: 0, tag: .octetString, octets: 2, value: 5) }.reason,
                       "length 5 of OCTET STRING encoded in 2 octets, more than needed")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.invalidTag(.nonMinimalTag, at: 0, value: 30) }.reason, "tag number 30 must use the low-tag form")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.invalidTag(.nonMinimalTag, at: 0, value: nil) }.reason, "tag number has a leading zero digit")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.unexpectedTag(at: 0, expected: .integer, found: BERTag(.private, 7, constructed: true)) }.reason,
                       "expected INTEGER, found [PRIVATE 7]")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.unexpectedTag(at: 0, expected: .set, found: nil) }.reason,
                       "expected SET, found the end of the contents")
        XCTAssertEqual(thrown { () throws(BERError) in try BERError.trailingData(at: 9, count: 2) }.reason, "2 unexpected bytes after the last element")
    }

    func testAPathKeepsTheReasonAndTheReasonKeepsThePath() {
        var error = thrown { () throws(BERError) in try BERError.shortRead(.truncated, at: 4, needed: 3, available: 1) }
        XCTAssertEqual(error.path, [])
        error.path.insert("tbsCertificate", at: 0)
        error.path.insert("certificates[1]", at: 0)
        XCTAssertEqual(error.path, ["certificates[1]", "tbsCertificate"])
        XCTAssertEqual(error.reason, "needs 3 bytes, 1 left")
        XCTAssertEqual(error.description, "truncated at byte 4 in certificates[1].tbsCertificate: needs 3 bytes, 1 left")
        error.reason = "replaced"
        XCTAssertEqual(error.path, ["certificates[1]", "tbsCertificate"])
        XCTAssertEqual(error.description, "truncated at byte 4 in certificates[1].tbsCertificate: replaced")
        error.path = []
        XCTAssertEqual(error.description, "truncated at byte 4: replaced")
        // Errors are values: a path added to one is not added to a copy sharing its box.
        var first = thrown { () throws(BERError) in try BERError.trailingData(at: 1, count: 1) }
        first.prependPath("x")
        let copy = first
        first.prependPath("y")
        XCTAssertEqual(first.path, ["y", "x"])
        XCTAssertEqual(copy.path, ["x"])
        do throws(BERError) {
            try withBERPath("outer") { () throws(BERError) in
                try withBERPath("[2]") { () throws(BERError) in throw copy }
            }
        } catch {
            XCTAssertEqual(error.pathDescription, "outer[2].x")
            XCTAssertEqual(error.reason, "1 unexpected bytes after the last element")
        }
        XCTAssertEqual(copy.path, ["x"])
        let made = BERError(.invalidTime, at: 2, "bad month", path: ["a", "[0]"])
        XCTAssertEqual(made.description, "invalidTime at byte 2 in a[0]: bad month")
    }
}
