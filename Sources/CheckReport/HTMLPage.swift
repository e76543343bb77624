import Foundation

/// The parts the two results pages share: the document shell with its inline style
/// sheet (no external assets, no script; a Content-Security-Policy forbids both), the
/// outcome badges and legend, and the formatting of verdicts and importance.
package enum HTMLPage {
    /// How much of each untrusted string a page shows (Unicode scalars).
    package enum Limit {
        static let id = 300
        static let tag = 100
        static let importance = 40
        static let verdict = 300
        static let harness = 1_000
        static let header = 120
        static let date = 100
        static let knownFailure = 1_000
        static let detail = 4_000
        static let standardError = 4_000
        static let tooltip = 500
        static let note = 1_000
        static let notes = 50
    }

    package static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="receipt-forge">
        <title>\(title)</title>
        <style>
        \(stylesheet)</style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    package static let stylesheet: String = {
        var css = """
        :root { color-scheme: light; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
               margin: 24px; color: #1b1b1b; background: #ffffff; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        h2 { font-size: 17px; margin: 24px 0 8px; }
        code, pre { font: 12.5px/1.4 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", monospace; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow: auto; margin: 4px 0;
              padding: 4px 6px; background: #f7f7f7; border: 1px solid #d4d4d4; }
        dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0 0 12px; }
        dl.meta dt { font-weight: 600; }
        dl.meta dd { margin: 0; overflow-wrap: anywhere; }
        .status { font-weight: 600; padding: 6px 10px; border-left: 6px solid; margin: 8px 0 12px; }
        .status.ok { border-color: #1e7b34; background: #e6f4e9; }
        .status.bad { border-color: #c62828; background: #fde2e2; }
        table { border-collapse: collapse; }
        th, td { border: 1px solid #c9c9c9; padding: 4px 6px; vertical-align: top; text-align: left; }
        td { overflow-wrap: anywhere; }
        thead th { background: #ececec; white-space: nowrap; }
        thead th code { white-space: normal; overflow-wrap: anywhere; }
        table.cases td:first-child, table.matrix td:first-child { min-width: 13em; }
        thead { position: sticky; top: 0; z-index: 1; }
        table.cases, table.matrix { width: 100%; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        table.counts td, table.counts th { text-align: center; min-width: 6em; }
        table.counts td { font-size: 18px; font-weight: 600; }
        .badge { display: inline-block; padding: 0 6px; border-radius: 3px; font-weight: 600; white-space: nowrap; }
        .known { display: inline-block; padding: 0 5px; border: 1.5px dashed #444; border-radius: 3px;
                 font-size: 12px; font-weight: 600; background: #ffffff; color: #333; white-space: nowrap; }
        .tag { display: inline-block; padding: 0 5px; margin: 1px 2px 1px 0; border-radius: 8px; background: #e3e9f3;
               color: #1d3557; font-size: 12px; white-space: nowrap; }
        .imp { font-weight: 600; white-space: nowrap; }
        .imp-critical { color: #a00000; }
        .imp-high { color: #8a4b00; }
        .imp-low { color: #4a4a4a; font-weight: 400; }
        .muted { color: #5c5c5c; font-style: italic; }
        .small { font-size: 12px; }
        ul.legend { list-style: none; padding: 0; margin: 4px 0 12px; columns: 2 28em; }
        ul.legend li { margin: 2px 0; }
        tr.group th { background: #d9dee8; font-size: 15px; }
        tr.summary th, tr.summary td { background: #f6f6f6; font-weight: 400; }
        td.cell { min-width: 9em; }
        td.none { background: repeating-linear-gradient(45deg, #f4f4f4, #f4f4f4 6px, #e8e8e8 6px, #e8e8e8 12px); }
        details summary { cursor: pointer; }
        ol.validators li { overflow-wrap: anywhere; }
        nav.groups { margin: 0 0 8px; }
        nav.groups span { margin-right: 12px; white-space: nowrap; }

        """
        for outcome in CheckOutcome.allCases {
            let (badge, text, tint) = outcome.colours
            css += """
            .badge.\(outcome.cssClass) { background: \(badge); color: \(text); }
            tr.\(outcome.cssClass), td.\(outcome.cssClass) { background: \(tint); }
            tr.\(outcome.cssClass) > td:first-child, td.\(outcome.cssClass) { box-shadow: inset 5px 0 0 \(badge); }

            """
        }
        return css
    }()

    /// `✓ pass` on the outcome's colour.
    package static func badge(_ outcome: CheckOutcome) -> String {
        "<span class=\"badge \(outcome.cssClass)\">\(outcome.symbol) \(outcome.rawValue)</span>"
    }

    package static func legend() -> String {
        var html = "<ul class=\"legend\">\n"
        for outcome in CheckOutcome.allCases {
            html += "<li>\(badge(outcome)) \(HTMLEscaping.escaped(outcome.meaning))</li>\n"
        }
        html += "<li><span class=\"known\">known failure</span> listed in the run's --known-failures file, "
            + "with the project's reason</li>\n</ul>\n"
        return html
    }

    /// `critical` / `high` / `low` in their colours; any other value escaped, uncoloured.
    package static func importance(_ value: String) -> String {
        let known = ResultsMatrix.importanceOrder.contains(value)
        return "<span class=\"imp\(known ? " imp-" + value : "")\">"
            + HTMLEscaping.untrusted(value, limit: Limit.importance) + "</span>"
    }

    /// `valid`, `invalid (bad-signature)`, or `no verdict` in grey.
    package static func verdict(_ verdict: CheckResult.Verdict?) -> String {
        guard let verdict else { return "<span class=\"muted\">no verdict</span>" }
        return HTMLEscaping.untrusted(verdictText(verdict), limit: Limit.verdict)
    }

    /// `invalid (bad-signature)`: untrusted, not yet escaped.
    package static func verdictText(_ verdict: CheckResult.Verdict) -> String {
        verdict.text
    }

    package static func tags(_ tags: [String]) -> String {
        tags.map { "<span class=\"tag\">" + HTMLEscaping.untrusted($0, limit: Limit.tag) + "</span>" }.joined(separator: " ")
    }

    /// Seconds with millisecond precision, the same in every locale.
    package static func seconds(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", locale: Locale(identifier: "en_US_POSIX"), value) : "–"
    }
}
