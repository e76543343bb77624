import Foundation
import XCTest

/// `forge report RESULTS.json … [--html FILE]`, run as a user does.
final class ReportCommandTests: XCTestCase {
    let manager = FileManager.default

    func scratchDirectory() throws -> URL {
        let directory = manager.temporaryDirectory.appendingPathComponent("forge-report-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// A results file as `forge check --json` writes it.
    func results(harness: String, _ cases: [(id: String, tag: String, outcome: String, actual: String?)]) -> String {
        let rows = cases.map { item in
            """
            {"id": "\(item.id)", "tags": ["\(item.tag)"], "importance": "critical",
             "expected": {"verdict": "invalid", "reason": "bad-signature"},
             "actual": \(item.actual.map { #"{"verdict": "\#($0)", "reason": null}"# } ?? "null"),
             "outcome": "\(item.outcome)", "knownFailure": null, "seconds": 0.01, "detail": null, "stderrTail": ""}
            """
        }
        return """
            {"version": 1, "harness": "\(harness)", "generator": "receipt-forge", "startedAt": "2026-05-01T00:00:00Z",
             "results": [\(rows.joined(separator: ",\n"))]}
            """
    }

    func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testTwoValidatorsMakeOneMatrixPage() throws {
        let directory = try scratchDirectory()
        let ours = try write(results(harness: "./ours", [("bad-sig", "chain", "pass", "invalid"),
                                                         ("wrong-bundle", "bundle", "pass", "invalid")]),
                             "ours.json", in: directory)
        let theirs = try write(results(harness: "./theirs <b>", [("bad-sig", "chain", "fail", "valid"),
                                                                 ("wrong-bundle", "bundle", "hang", nil)]),
                               "theirs.json", in: directory)
        let page = directory.appendingPathComponent("results.html")
        let run = try ForgeProcess.run(["report", ours, theirs, "--html", page.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertTrue(run.standardError.contains("wrote \(page.path): 2 cases × 2 validators"), run.standardError)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<code>./ours</code>"))
        XCTAssertTrue(html.contains("<code>./theirs &lt;b&gt;</code>"))
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertTrue(html.contains("<td class=\"cell o-fail\""))
        XCTAssertTrue(html.contains("<td class=\"cell o-hang\""))
        XCTAssertTrue(html.contains("<span class=\"tag\">chain</span> 1 case</th>"))
        XCTAssertTrue(html.contains("<span class=\"tag\">bundle</span> 1 case</th>"))

        // Another process (another hash seed) writes the same bytes.
        let again = directory.appendingPathComponent("again.html")
        XCTAssertEqual(try ForgeProcess.run(["report", ours, theirs, "--html", again.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: page), try Data(contentsOf: again))

        // Without --html: the matrix as text on standard output.
        let text = try ForgeProcess.run(["report", ours, theirs])
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertTrue(text.standardOutput.hasPrefix("V1 = ./ours\n     2/2 pass; failures: critical 0, high 0, low 0\n"
                                                    + "V2 = ./theirs <b>\n     0/2 pass; failures: critical 2, high 0, low 0\n"),
                      text.standardOutput)
        XCTAssertTrue(text.standardOutput.contains("── chain (1)\nbad-sig "), text.standardOutput)
        XCTAssertTrue(text.standardOutput.contains("\nbad-sig       critical    invalid (bad-signature)  pass  FAIL\n"),
                      text.standardOutput)
        XCTAssertTrue(text.standardOutput.contains("\nwrong-bundle  critical    invalid (bad-signature)  pass  HANG\n"),
                      text.standardOutput)
    }

    func testAMissingResultsFileIsAnIOErrorNamingIt() throws {
        let directory = try scratchDirectory()
        let page = directory.appendingPathComponent("r.html")
        let missing = directory.appendingPathComponent("nope.json").path
        let run = try ForgeProcess.run(["report", missing, "--html", page.path])
        XCTAssertEqual(run.status, 74, run.standardError)
        XCTAssertEqual(run.standardError, "forge report: cannot read \(missing): no such file\n")
        XCTAssertFalse(manager.fileExists(atPath: page.path))
    }

    func testABadResultsFileIsMalformedInputWithItsJSONLocation() throws {
        let directory = try scratchDirectory()
        let good = try write(results(harness: "a", [("x", "chain", "pass", "invalid")]), "good.json", in: directory)
        let bad = try write(results(harness: "b", [("x", "chain", "pass", "invalid"), ("y", "chain", "sort-of", nil)]),
                            "bad.json", in: directory)
        let page = directory.appendingPathComponent("r.html")
        let run = try ForgeProcess.run(["report", good, bad, "--html", page.path])
        XCTAssertEqual(run.status, 65, run.standardError)
        XCTAssertTrue(run.standardError.hasPrefix("forge report: \(bad): not a results file of `forge check --json`: "
                                                  + "$.results[1].outcome: "), run.standardError)
        XCTAssertFalse(manager.fileExists(atPath: page.path))

        let notJSON = try write("<html>", "page.json", in: directory)
        let syntax = try ForgeProcess.run(["report", notJSON])
        XCTAssertEqual(syntax.status, 65, syntax.standardError)
        XCTAssertTrue(syntax.standardError.hasPrefix("forge report: \(notJSON): not a results file"), syntax.standardError)
    }

    func testADirectoryInTheWayIsRefusedAndLeftAlone() throws {
        let directory = try scratchDirectory()
        let good = try write(results(harness: "a", [("x", "chain", "pass", "invalid")]), "good.json", in: directory)
        let inTheWay = directory.appendingPathComponent("results.html")
        try manager.createDirectory(at: inTheWay, withIntermediateDirectories: false)
        let run = try ForgeProcess.run(["report", good, "--html", inTheWay.path])
        XCTAssertEqual(run.status, 73, run.standardError)
        XCTAssertTrue(run.standardError.hasPrefix("forge report: "), run.standardError)
        XCTAssertTrue(run.standardError.contains(inTheWay.path), run.standardError)
        var isDirectory: ObjCBool = false
        XCTAssertTrue(manager.fileExists(atPath: inTheWay.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    func testUsageAndHelp() throws {
        let none = try ForgeProcess.run(["report"])
        XCTAssertEqual(none.status, 64, none.standardError)
        XCTAssertTrue(none.standardError.contains("give at least one RESULTS.json"), none.standardError)
        let help = try ForgeProcess.run(["report", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.standardOutput.contains("forge report ours.json openssl.json --html results.html"), help.standardOutput)
        XCTAssertTrue(help.standardOutput.contains("--html <FILE>"), help.standardOutput)
    }
}
