import Foundation
@testable import ReceiptForge
import TestSupport
import XCTest
import CheckReport

/// The pages of `forge check --html` and `forge report --html`: what they show, and
/// that they show it the same way every time.
final class HTMLReportTests: XCTestCase {
    typealias Samples = CheckResultsSamples

    /// The markup of the table row of case `id` (from its `<tr` to its `</tr>`).
    func row(_ id: String, in html: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard let cell = html.range(of: "<td><code>\(id)</code>"),
              let start = html.range(of: "<tr", options: .backwards, range: html.startIndex..<cell.lowerBound),
              let end = html.range(of: "</tr>", range: cell.upperBound..<html.endIndex) else {
            XCTFail("no row for \(id)", file: file, line: line)
            return ""
        }
        return String(html[start.lowerBound..<end.upperBound])
    }

    func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    // MARK: One validator

    func testEveryCaseIsARowColouredAndLabelledByItsOutcome() throws {
        let results = Samples.everyOutcome
        let html = HTMLReport.single(results)
        let markup = try EmittedMarkup(html)
        XCTAssertTrue(markup.balanced())
        for result in results.results {
            let row = row(result.id, in: html)
            XCTAssertTrue(row.hasPrefix("<tr class=\"o-\(result.outcome.rawValue)\">"), row)
            XCTAssertTrue(row.contains("<span class=\"badge o-\(result.outcome.rawValue)\">\(result.outcome.symbol) "
                                       + "\(result.outcome.rawValue)</span>"), row)
            XCTAssertTrue(row.contains("imp-\(result.importance)"), row)
        }
        XCTAssertEqual(matches(#"<tr class="o-([a-z-]+)">"#, in: html), CheckOutcome.allCases.map(\.rawValue))
        XCTAssertTrue(row("sha1-digest", in: html).contains("<span class=\"tag\">sha1</span> <span class=\"tag\">strict-policy</span>"))
        XCTAssertTrue(row("sha1-digest", in: html).contains("<td>invalid (unsupported-algorithm)</td><td>invalid (bad-signature)</td>"))
        XCTAssertTrue(row("vpp-expired", in: html).contains("<span class=\"muted\">no verdict</span>"))
        XCTAssertTrue(row("valid", in: html).contains("<td class=\"num\">0.250</td>"))
        let error = row("bad-digest", in: html)
        XCTAssertTrue(error.contains("<pre>exit status 3; stdout: &quot;maybe&quot;</pre>"), error)
        XCTAssertTrue(error.contains("<details><summary>standard error (2 lines)</summary><pre>panic: oops\nat main\n</pre></details>"), error)
    }

    func testTheSummaryCountsEachOutcomeAndNamesTheHarnessAndDate() throws {
        var results = Samples.everyOutcome
        results.results += [Samples.result("extra-pass", .pass, expected: Samples.valid, actual: Samples.valid)]
        let html = HTMLReport.single(results)
        XCTAssertTrue(html.contains("<dt>Validator</dt><dd><code>./validator --strict</code></dd>"))
        XCTAssertTrue(html.contains("<dt>Started</dt><dd>2026-05-01T12:00:00Z</dd>"))
        let start = try XCTUnwrap(html.range(of: "<table class=\"counts\">"))
        let end = try XCTUnwrap(html.range(of: "</table>", range: start.upperBound..<html.endIndex))
        let numbers = matches(#"<td>([0-9]+)</td>"#, in: String(html[start.upperBound..<end.lowerBound]))
        XCTAssertEqual(numbers, ["2", "1", "1", "1", "1", "1", "1", "8"])
        // fail is a known failure; crash, hang and error fail the build.
        XCTAssertTrue(html.contains("<p class=\"status bad\">✗ 3 of 8 cases fail the build"), html)
        XCTAssertTrue(html.contains("; 2 pass; 1 known failure</p>"))
        let known = row("self-signed-root", in: html)
        XCTAssertTrue(known.contains("<span class=\"known\">known failure</span> we trust the test root on purpose"), known)

        let clean = CheckResults(harness: "ok", startedAt: "2026-05-01T12:00:00Z",
                                 results: [Samples.result("valid", .pass, expected: Samples.valid, actual: Samples.valid)])
        XCTAssertTrue(HTMLReport.single(clean).contains("<p class=\"status ok\">✓ 1 of 1 cases pass; none fails the build</p>"))
    }

    func testTheLegendAndStyleSheetGiveEachOutcomeItsOwnColourAndWords() throws {
        let html = HTMLReport.single(Samples.everyOutcome)
        let markup = try EmittedMarkup(html)
        var badges: Set<String> = []
        for outcome in CheckOutcome.allCases {
            XCTAssertTrue(html.contains("<li>\(HTMLPage.badge(outcome)) "), "\(outcome) is not in the legend")
            let rule = try XCTUnwrap(markup.styleSheet.range(of: ".badge.o-\(outcome.rawValue) { background: "),
                                     "\(outcome) has no colour")
            badges.insert(String(markup.styleSheet[rule.upperBound...].prefix(7)))
        }
        XCTAssertEqual(badges.count, CheckOutcome.allCases.count, "two outcomes share a colour: \(badges)")
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"))
        XCTAssertFalse(html.contains("http://") || html.contains("https://") || html.contains("src="), "an external asset")
    }

    func testAnEmptyRunRendersAPage() throws {
        let html = HTMLReport.single(CheckResults(harness: "x", startedAt: "", results: []))
        XCTAssertTrue(try EmittedMarkup(html).balanced())
        XCTAssertTrue(html.contains("No cases were run."))
        XCTAssertTrue(try EmittedMarkup(HTMLReport.matrix([])).balanced())
    }

    // MARK: Several validators

    /// Three runs: the sample, a validator that accepts everything, and one that ran
    /// only two cases (with the same harness as the first).
    var threeRuns: [CheckResults] {
        let sample = Samples.everyOutcome
        let acceptsAll = CheckResults(harness: "./accept-all", startedAt: "2026-05-02T00:00:00Z", results: sample.results.map {
            var result = $0
            result.actual = Samples.valid
            result.outcome = $0.expected.verdict == .valid ? .pass : .fail
            result.knownFailure = nil
            return result
        })
        let partial = CheckResults(harness: sample.harness, startedAt: "2026-05-03T00:00:00Z", results: [
            Samples.result("valid", .pass, tags: ["bundle", "device-hash"], importance: "high",
                           expected: Samples.valid, actual: Samples.valid),
            Samples.result("new-case", .pass, tags: ["ber"], importance: "low", expected: Samples.invalid("malformed"),
                           actual: Samples.invalid("malformed")),
        ])
        return [sample, acceptsAll, partial]
    }

    func testTheMatrixHasEveryCaseAndEveryValidatorWithCellsInColumnOrder() throws {
        let html = HTMLReport.matrix(threeRuns)
        XCTAssertTrue(try EmittedMarkup(html).balanced())
        XCTAssertEqual(matches(#"<th title="[^"]*"><code>([^<]*)</code></th>"#, in: html),
                       ["./validator --strict (1)", "./accept-all", "./validator --strict (2)"])
        func cells(_ id: String) -> [String] { matches(#"<td class="cell ([a-z -]+)""#, in: row(id, in: html)) }
        XCTAssertEqual(cells("valid"), ["o-pass", "o-pass", "o-pass"])
        XCTAssertEqual(cells("self-signed-root"), ["o-fail", "o-fail", "none"])
        XCTAssertEqual(cells("truncated"), ["o-crash", "o-fail", "none"])
        XCTAssertEqual(cells("huge-length"), ["o-hang", "o-fail", "none"])
        XCTAssertEqual(cells("bad-digest"), ["o-error", "o-fail", "none"])
        XCTAssertEqual(cells("sha1-digest"), ["o-reason-differs", "o-fail", "none"])
        XCTAssertEqual(cells("vpp-expired"), ["o-skipped", "o-fail", "none"])
        XCTAssertEqual(cells("new-case"), ["none", "none", "o-pass"])
        XCTAssertEqual(matches(#"<tr><td><code>([^<]+)</code>"#, in: html).count, 8)

        let sha1 = row("sha1-digest", in: html)
        XCTAssertTrue(sha1.contains(#"title="reason-differs: invalid (bad-signature)&#10;expected invalid (unsupported-algorithm)&#10;0.250 s""#), sha1)
        XCTAssertTrue(sha1.contains("<br><span class=\"small\">invalid (bad-signature)</span>"), sha1)
        XCTAssertTrue(row("self-signed-root", in: html).contains("<span class=\"known\">known</span>"))
        XCTAssertTrue(row("new-case", in: html).contains("<span class=\"muted\">not run</span>"))
    }

    func testTheMatrixGroupsByFirstTagAndShowsEveryTagAndImportance() throws {
        let html = HTMLReport.matrix(threeRuns)
        XCTAssertEqual(matches(#"<tr class="group"><th colspan="6" id="group-[0-9]+"><span class="tag">([^<]+)</span>"#, in: html),
                       ["bundle", "sha1", "chain", "vpp", "untagged", "ber"])
        XCTAssertTrue(html.contains("<span class=\"tag\">chain</span> 3 cases</th>"))
        // A case sits under its first tag only, with all its tags shown.
        let bundle = try XCTUnwrap(html.range(of: "<span class=\"tag\">bundle</span> 1 case</th>"))
        let sha1 = try XCTUnwrap(html.range(of: "<span class=\"tag\">sha1</span> 1 case</th>"))
        let valid = try XCTUnwrap(html.range(of: "<td><code>valid</code>"))
        XCTAssertTrue(bundle.upperBound < valid.lowerBound && valid.upperBound < sha1.lowerBound)
        XCTAssertEqual(html.components(separatedBy: "<td><code>valid</code>").count, 2)
        XCTAssertTrue(row("valid", in: html).contains("<span class=\"tag\">bundle</span> <span class=\"tag\">device-hash</span>"))
        XCTAssertTrue(row("valid", in: html).contains("<span class=\"imp imp-high\">high</span>"))
        XCTAssertTrue(row("truncated", in: html).contains("<span class=\"imp imp-critical\">critical</span>"))
        XCTAssertTrue(html.contains("<a href=\"#group-5\">untagged</a>"))
    }

    func testTheSummaryRowCountsPassesAndFailuresByImportancePerValidator() throws {
        let html = HTMLReport.matrix(threeRuns)
        let summary = try XCTUnwrap(html.range(of: "<tr class=\"summary\">").flatMap { start in
            html.range(of: "</tr>", range: start.upperBound..<html.endIndex).map { String(html[start.lowerBound..<$0.upperBound]) }
        })
        XCTAssertEqual(matches(#"<strong>([0-9]+ / [0-9]+)</strong>"#, in: summary), ["1 / 7", "1 / 7", "2 / 2"])
        // The sample: fail, crash, hang, error are all critical (one known); accept-all fails
        // the critical four, the skipped (high) and the sha1 (low) case.
        XCTAssertEqual(matches(#"failures: (.*?)</span>(?:<br>|</td>)"#, in: summary).map {
            $0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
        }, ["critical 4 · high 0 · low 0", "critical 4 · high 1 · low 1", "critical 0 · high 0 · low 0"])
        XCTAssertTrue(summary.contains("1 known"))
        XCTAssertEqual(summary.components(separatedBy: "6 not run").count, 2, summary)
        XCTAssertEqual(summary.components(separatedBy: "1 not run").count, 3, summary)
    }

    func testACellWhoseRunExpectsOtherwiseSaysSo() {
        var runs = threeRuns
        runs[2].results[0].expected = Samples.invalid("wrong-bundle")
        let cell = row("valid", in: HTMLReport.matrix(runs))
        XCTAssertTrue(cell.contains("expected here: invalid (wrong-bundle)"), cell)
        XCTAssertFalse(row("valid", in: HTMLReport.matrix(threeRuns)).contains("expected here"))
    }

    // MARK: Determinism

    func testTheSameResultsGiveTheSameBytes() throws {
        let encoder = JSONEncoder()
        for runs in [threeRuns, [Samples.everyOutcome]] {
            let copies = try runs.map { try decodeJSON(CheckResults.self, from: try encoder.encode($0)) }
            XCTAssertEqual(HTMLReport.matrix(runs), HTMLReport.matrix(copies))
            XCTAssertEqual(HTMLReport.single(runs[0]), HTMLReport.single(copies[0]))
            XCTAssertEqual(TextMatrix.render(runs), TextMatrix.render(copies))
        }
        XCTAssertNotEqual(HTMLReport.matrix(threeRuns), HTMLReport.matrix(threeRuns.reversed()))
    }
}
