import Foundation
@testable import ReceiptForge
import XCTest
import CheckReport

/// Harness output is untrusted: every string of a results file reaches the pages cut,
/// with its control characters made visible, and escaped.
final class HTMLReportEscapingTests: XCTestCase {
    typealias Samples = CheckResultsSamples

    func pages(_ text: String) -> [(String, String)] {
        let run = Samples.hostileRun(text)
        return [("single", HTMLReport.single(run)), ("matrix", HTMLReport.matrix([run, run, Samples.everyOutcome]))]
    }

    func testHostileStringsInEveryFieldProduceNoMarkup() throws {
        for text in Samples.hostile {
            for (name, html) in pages(text) {
                let markup: EmittedMarkup
                do {
                    markup = try EmittedMarkup(html)
                } catch {
                    XCTFail("\(name) page for \(text.prefix(60).debugDescription): \(error)")
                    continue
                }
                XCTAssertTrue(markup.balanced(), "\(name): unbalanced tags for \(text.prefix(60).debugDescription)")
                XCTAssertEqual(markup.styleSheet, "\n" + HTMLPage.stylesheet, name)
                XCTAssertFalse(html.lowercased().contains("<script"), name)
                XCTAssertFalse(html.contains("<img"), name)
                XCTAssertFalse(html.contains("<h1>owned"), name)
                XCTAssertFalse(html.contains("<!--"), name)
            }
        }
    }

    func testTheTextIsShownEscapedNotDropped() {
        let (_, single) = pages("<script>alert(\"x\" & 'y')</script>")[0]
        let escaped = "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        XCTAssertTrue(single.contains("<td><code>\(escaped)</code></td>"))
        XCTAssertTrue(single.contains("<dt>Validator</dt><dd><code>\(escaped)</code></dd>"))
        XCTAssertTrue(single.contains("<title>Receipt Forge results: \(escaped)</title>"))
        XCTAssertTrue(single.contains("<span class=\"tag\">\(escaped)</span>"))
        XCTAssertTrue(single.contains("<span class=\"known\">known failure</span> \(escaped)"))
        XCTAssertTrue(single.contains("<pre>\(escaped)</pre>"))
    }

    func testControlCharactersAndDirectionOverridesAreMadeVisible() throws {
        for (name, html) in pages("a\u{1B}[31mb\u{07}c\u{00}d\re\u{7F}f\u{85}g\u{202E}h\u{2066}i" + CheckResultsSamples.nonCharacters + "j\u{FFFD}") {
            for scalar in html.unicodeScalars {
                let value = scalar.value
                XCTAssertFalse(value < 0x20 && value != 0x0A, "\(name): control U+\(String(value, radix: 16))")
                XCTAssertFalse((0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                               || (0x2066...0x2069).contains(value) || value & 0xFFFE == 0xFFFE,
                               "\(name): U+\(String(value, radix: 16)) reached the page")
            }
            XCTAssertTrue(html.contains(#"a\x1B[31mb\x07c\x00d\re\x7Ff\x85g\u202Eh\u2066i\uFFFE\U0010FFFF\uFDD0j"# + "\u{FFFD}"), name)
        }
        // Standard error keeps its lines; a single-line field shows them as \n.
        let run = Samples.hostileRun("line 1\nline 2\ttab")
        let html = HTMLReport.single(run)
        XCTAssertTrue(html.contains("<pre>line 1\nline 2\ttab</pre>"))
        XCTAssertTrue(html.contains(#"<td><code>line 1\nline 2\ttab</code></td>"#))
    }

    func testVeryLongStringsAreCut() throws {
        let long = String(repeating: "<&>\"'", count: 200_000)  // 1 000 000 scalars
        for (name, html) in pages(long) {
            XCTAssertLessThan(html.utf8.count, 400_000, name)
            XCTAssertTrue(html.contains("… (999700 more characters)"), name)  // the id, cut at 300
            XCTAssertNoThrow(try EmittedMarkup(html), name)
        }
        // One letter with a million combining marks is one Character, but is cut all the same.
        let zalgo = "e" + String(repeating: "\u{301}", count: 1_000_000)
        XCTAssertLessThan(HTMLReport.single(Samples.hostileRun(zalgo)).utf8.count, 200_000)
    }

    func testEscapingMapsEachSpecialCharacter() {
        XCTAssertEqual(HTMLEscaping.escaped(#"<a href="x">'&'</a>"#),
                       "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        XCTAssertEqual(HTMLEscaping.escaped("plain ✓ text"), "plain ✓ text")
    }
}
