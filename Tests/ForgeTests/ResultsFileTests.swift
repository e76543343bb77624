import Foundation
import ReceiptForge
import XCTest
import CheckReport

/// Reading `forge check --json` files back: what is refused, and where.
final class ResultsFileTests: XCTestCase {
    func testAResultsFileRoundTrips() throws {
        let results = CheckResultsSamples.everyOutcome
        XCTAssertEqual(try ResultsFile.decode(forgeJSON(results), path: "r.json"), results)
    }

    func testRefusalsNameTheFileAndTheJSONLocation() throws {
        var json = String(decoding: try forgeJSON(CheckResultsSamples.everyOutcome), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"outcome\" : \"crash\"", with: "\"outcome\" : \"exploded\"")
        XCTAssertThrowsError(try ResultsFile.decode(Array(json.utf8), path: "dir/r.json")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("dir/r.json: not a results file of `forge check --json`: $.results[4].outcome: "), text)
            XCTAssertEqual((error as? ResultsFile.Failure)?.isIOError, false)
        }
        XCTAssertThrowsError(try ResultsFile.decode(Array(#"{"version": 1, "harness": "x"}"#.utf8), path: "r.json")) {
            XCTAssertTrue("\($0)".contains("$: the field 'generator' is missing") || "\($0)".contains("is missing"), "\($0)")
        }
        XCTAssertThrowsError(try ResultsFile.decode(Array(#"{"version": 2}"#.utf8), path: "r.json")) {
            XCTAssertEqual("\($0)", "r.json: $.version: results format 2; this forge reads format 1")
        }
        XCTAssertThrowsError(try ResultsFile.decode(Array("{not json".utf8), path: "r.json")) {
            XCTAssertTrue("\($0)".hasPrefix("r.json: not a results file of `forge check --json`: $: "), "\($0)")
        }
    }

    func testAMissingFileOrADirectoryIsAnIOError() {
        let directory = FileManager.default.temporaryDirectory.path
        for path in ["/nonexistent/results.json", directory] {
            XCTAssertThrowsError(try ResultsFile.load(path)) { error in
                XCTAssertEqual((error as? ResultsFile.Failure)?.isIOError, true, "\(error)")
                XCTAssertTrue("\(error)".hasPrefix("cannot read \(path): "), "\(error)")
            }
        }
    }
}
