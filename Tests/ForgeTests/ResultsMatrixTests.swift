@testable import ReceiptForge
import XCTest
import CheckReport

/// Merging several runs: rows, columns, names, summaries, and the text form.
final class ResultsMatrixTests: XCTestCase {
    typealias Samples = CheckResultsSamples

    func testDuplicateHarnessesAreNumberedWithoutClashing() {
        XCTAssertEqual(ResultsMatrix.uniqueNames(["a", "b", "a", "", ""]), ["a (1)", "b", "a (2)", "(unnamed) (1)", "(unnamed) (2)"])
        XCTAssertEqual(ResultsMatrix.uniqueNames(["x", "x (1)", "x"]), ["x (2)", "x (1)", "x (3)"])
        XCTAssertEqual(ResultsMatrix.uniqueNames(["only"]), ["only"])
    }

    func testRowsAreTheUnionInOrderOfFirstAppearanceAndDuplicatesAreNoted() {
        let first = CheckResults(harness: "one", startedAt: "", results: [
            Samples.result("b", .pass, tags: ["t2"]), Samples.result("a", .fail, tags: ["t1"]),
            Samples.result("b", .crash, tags: ["t2"]),
        ])
        let second = CheckResults(harness: "two", startedAt: "", results: [
            Samples.result("c", .pass, tags: ["t1", "t2"]), Samples.result("a", .pass, tags: ["t1"]),
        ])
        let matrix = ResultsMatrix([first, second])
        XCTAssertEqual(matrix.groups.map(\.tag), ["t2", "t1"])
        XCTAssertEqual(matrix.groups.map { $0.rows.map(\.id) }, [["b"], ["a", "c"]])
        XCTAssertEqual(matrix.rows.first { $0.id == "b" }?.cells.map { $0?.outcome }, [.pass, nil])
        XCTAssertEqual(matrix.rows.first { $0.id == "a" }?.cells.map { $0?.outcome }, [.fail, .pass])
        XCTAssertEqual(matrix.notes, ["one lists case 'b' more than once; the first result is shown"])
        XCTAssertEqual(matrix.validators.map(\.summary.total), [2, 2])
        XCTAssertEqual(matrix.validators.map(\.summary.missing), [1, 1])
    }

    func testTheSummaryCountsOutcomesAndFailuresPerImportance() {
        var results = Samples.everyOutcome
        results.results.append(Samples.result("odd", .error, importance: "urgent"))
        let summary = ResultsMatrix([results]).validators[0].summary
        XCTAssertEqual(summary.counts.map(\.outcome), CheckOutcome.allCases)
        XCTAssertEqual(summary.counts.map(\.count), [1, 1, 1, 1, 1, 1, 2])
        XCTAssertEqual(summary.passes, 1)
        XCTAssertEqual(summary.total, 8)
        XCTAssertEqual(summary.failuresByImportance.map(\.importance), ["critical", "high", "low", "urgent"])
        XCTAssertEqual(summary.failuresByImportance.map(\.count), [4, 0, 0, 1])
        XCTAssertEqual(summary.failures, 5)
        XCTAssertEqual(summary.knownFailures, 1)
    }

    func testTheTextMatrixNamesColumnsGroupsAndOutcomesAndLetsNoEscapeSequenceThrough() {
        let hostile = CheckResults(harness: "evil\u{1B}]0;title\u{07}", startedAt: "", results: [
            Samples.result("x\u{1B}[2J", .fail, tags: ["chain"]),
        ])
        let text = TextMatrix.render([Samples.everyOutcome, hostile])
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "V1 = ./validator --strict")
        XCTAssertEqual(lines[1], "     1/7 pass; failures: critical 4, high 0, low 0; 1 known; 1 not run")
        XCTAssertEqual(lines[2], #"V2 = evil\x1B]0;title\x07"#)
        XCTAssertEqual(Array(lines[4...]), [
            "",
            "case              importance  expected                         V1              V2",
            "── bundle (1)",
            "valid             high        valid                            pass            -",
            "── sha1 (1)",
            "sha1-digest       low         invalid (unsupported-algorithm)  reason-differs  -",
            "── chain (4)",
            "self-signed-root  critical    invalid (untrusted-chain)        FAIL (known)    -",
            "huge-length       critical    invalid (bad-signature)          HANG            -",
            "bad-digest        critical    invalid (bad-signature)          ERROR           -",
            #"x\x1B[2J          critical    invalid (bad-signature)          -               FAIL"#,
            "── vpp (1)",
            "vpp-expired       high        invalid (expired)                skipped         -",
            "── untagged (1)",
            "truncated         critical    invalid (bad-signature)          CRASH           -",
            "",
        ])
    }
}
