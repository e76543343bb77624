/// The results pages: one self-contained HTML file each (inline style sheet, no
/// script, no external assets), deterministic (the same results give the same bytes).
/// Every string from a results file is untrusted: it is cut, its control characters
/// are made visible, and it is escaped (`UntrustedText`, `HTMLEscaping`).
public enum HTMLReport {
    /// One validator's run (`forge check --html FILE`): a summary (counts per outcome,
    /// the harness command, the date) and the case table, rows coloured by outcome.
    public static func single(_ results: CheckResults) -> String {
        typealias Limit = HTMLPage.Limit
        let harness = HTMLEscaping.untrusted(results.harness, limit: Limit.harness)
        let counts = results.counts
        let failing = results.results.filter { $0.fails(strictReasons: false) }.count
        let known = results.results.filter { $0.knownFailure != nil }.count
        let passes = counts[.pass] ?? 0

        var body = "<h1>Receipt Forge check results</h1>\n<dl class=\"meta\">\n"
        body += "<dt>Validator</dt><dd><code>\(harness)</code></dd>\n"
        body += "<dt>Started</dt><dd>\(HTMLEscaping.untrusted(results.startedAt, limit: Limit.date))</dd>\n"
        body += "<dt>Generator</dt><dd>\(HTMLEscaping.untrusted(results.generator, limit: Limit.date)), "
            + "results format \(results.version)</dd>\n</dl>\n"
        body += failing == 0
            ? "<p class=\"status ok\">✓ \(passes) of \(results.results.count) cases pass; none fails the build"
            : "<p class=\"status bad\">✗ \(failing) of \(results.results.count) case\(failing == 1 ? "" : "s") "
                + "fail\(failing == 1 ? "s" : "") the build (fail, crash, hang or error outside the known failures); "
                + "\(passes) pass"
        body += known == 0 ? "</p>\n" : "; \(known) known failure\(known == 1 ? "" : "s")</p>\n"

        body += "<table class=\"counts\">\n<thead><tr>"
        for outcome in CheckOutcome.allCases { body += "<th>\(HTMLPage.badge(outcome))</th>" }
        body += "<th>total</th></tr></thead>\n<tbody><tr>"
        for outcome in CheckOutcome.allCases { body += "<td>\(counts[outcome] ?? 0)</td>" }
        body += "<td>\(results.results.count)</td></tr></tbody>\n</table>\n"
        body += HTMLPage.legend()

        body += "<table class=\"cases\">\n<thead><tr><th>Case</th><th>Importance</th><th>Tags</th><th>Expected</th>"
            + "<th>Actual</th><th>Outcome</th><th>Seconds</th><th>Details</th></tr></thead>\n<tbody>\n"
        if results.results.isEmpty {
            body += "<tr><td colspan=\"8\" class=\"muted\">No cases were run.</td></tr>\n"
        }
        for result in results.results {
            body += "<tr class=\"\(result.outcome.cssClass)\">"
            body += "<td><code>\(HTMLEscaping.untrusted(result.id, limit: Limit.id))</code></td>"
            body += "<td>\(HTMLPage.importance(result.importance))</td>"
            body += "<td>\(HTMLPage.tags(result.tags))</td>"
            body += "<td>\(HTMLPage.verdict(result.expected))</td>"
            body += "<td>\(HTMLPage.verdict(result.actual))</td>"
            body += "<td>\(HTMLPage.badge(result.outcome))"
            if result.knownFailure != nil { body += "<br><span class=\"known\">known failure</span>" }
            body += "</td><td class=\"num\">\(HTMLPage.seconds(result.seconds))</td>"
            body += "<td>\(details(of: result))</td></tr>\n"
        }
        body += "</tbody>\n</table>\n"
        return HTMLPage.document(title: "Receipt Forge results: " + HTMLEscaping.untrusted(results.harness, limit: Limit.header),
                                 body: body)
    }

    /// Several validators' runs merged (`forge report --html FILE`): cases × validators,
    /// grouped by each case's first tag, importance shown per case, each cell coloured
    /// by outcome with the validator's verdict as text and the details in its tooltip,
    /// and a summary row per validator (passes / total, failures by importance).
    public static func matrix(_ runs: [CheckResults]) -> String {
        typealias Limit = HTMLPage.Limit
        let matrix = ResultsMatrix(runs)
        let caseCount = matrix.rows.count
        var body = "<h1>Receipt Forge results matrix</h1>\n"
        body += "<p>\(caseCount) case\(caseCount == 1 ? "" : "s") × \(matrix.validators.count) "
            + "validator\(matrix.validators.count == 1 ? "" : "s"), grouped by each case's first tag.</p>\n"

        body += "<h2>Validators</h2>\n<ol class=\"validators\">\n"
        for validator in matrix.validators {
            let summary = validator.summary
            body += "<li><code>\(HTMLEscaping.untrusted(validator.name, limit: Limit.harness))</code> "
                + "<span class=\"small\">started \(HTMLEscaping.untrusted(validator.startedAt, limit: Limit.date)); "
                + "\(summary.passes) / \(summary.total) pass</span></li>\n"
        }
        body += "</ol>\n"
        if !matrix.notes.isEmpty {
            body += "<h2>Notes</h2>\n<ul class=\"notes\">\n"
            for note in matrix.notes.prefix(Limit.notes) {
                body += "<li>\(HTMLEscaping.untrusted(note, limit: Limit.note))</li>\n"
            }
            if matrix.notes.count > Limit.notes { body += "<li>… and \(matrix.notes.count - Limit.notes) more</li>\n" }
            body += "</ul>\n"
        }
        body += HTMLPage.legend()
        if matrix.groups.count > 1 {
            body += "<nav class=\"groups\">Tags: "
            for (index, group) in matrix.groups.enumerated() {
                body += "<span><a href=\"#group-\(index + 1)\">\(HTMLEscaping.untrusted(group.tag, limit: Limit.tag))</a> "
                    + "(\(group.rows.count))</span> "
            }
            body += "</nav>\n"
        }

        let columns = 3 + matrix.validators.count
        body += "<table class=\"matrix\">\n<thead>\n<tr><th>Case</th><th>Importance</th><th>Expected</th>"
        for validator in matrix.validators {
            body += "<th title=\"\(HTMLEscaping.untrusted(validator.name, limit: Limit.harness))\"><code>"
                + HTMLEscaping.untrusted(validator.name, limit: Limit.header) + "</code></th>"
        }
        body += "</tr>\n<tr class=\"summary\"><th colspan=\"3\">Passes / total; failures by importance</th>"
        for validator in matrix.validators { body += "<td>\(summaryCell(validator.summary))</td>" }
        body += "</tr>\n</thead>\n"

        if matrix.groups.isEmpty {
            body += "<tbody><tr><td colspan=\"\(columns)\" class=\"muted\">No cases.</td></tr></tbody>\n"
        }
        for (index, group) in matrix.groups.enumerated() {
            body += "<tbody>\n<tr class=\"group\"><th colspan=\"\(columns)\" id=\"group-\(index + 1)\">"
                + "<span class=\"tag\">\(HTMLEscaping.untrusted(group.tag, limit: Limit.tag))</span> "
                + "\(group.rows.count) case\(group.rows.count == 1 ? "" : "s")</th></tr>\n"
            for row in group.rows {
                body += "<tr><td><code>\(HTMLEscaping.untrusted(row.id, limit: Limit.id))</code>"
                if !row.tags.isEmpty { body += "<br>\(HTMLPage.tags(row.tags))" }
                body += "</td><td>\(HTMLPage.importance(row.importance))</td><td>\(HTMLPage.verdict(row.expected))</td>"
                for cell in row.cells { body += matrixCell(cell, row: row) }
                body += "</tr>\n"
            }
            body += "</tbody>\n"
        }
        body += "</table>\n"
        return HTMLPage.document(title: "Receipt Forge results matrix", body: body)
    }

    /// Known failure, what went wrong, and standard error (collapsed).
    package static func details(of result: CheckResult) -> String {
        typealias Limit = HTMLPage.Limit
        var parts: [String] = []
        if let reason = result.knownFailure {
            parts.append("<span class=\"known\">known failure</span> "
                         + HTMLEscaping.untrusted(reason, limit: Limit.knownFailure))
        }
        if let detail = result.detail, !detail.isEmpty {
            parts.append("<pre>" + HTMLEscaping.untrusted(detail, limit: Limit.detail, multiline: true) + "</pre>")
        }
        if !result.stderrTail.isEmpty {
            let lines = result.stderrTail.split(separator: "\n", omittingEmptySubsequences: true).count
            parts.append("<details><summary>standard error (\(lines) line\(lines == 1 ? "" : "s"))</summary><pre>"
                         + HTMLEscaping.untrusted(result.stderrTail, limit: Limit.standardError, multiline: true)
                         + "</pre></details>")
        }
        return parts.joined(separator: "\n")
    }

    package static func summaryCell(_ summary: ResultsMatrix.Summary) -> String {
        var html = "<strong>\(summary.passes) / \(summary.total)</strong> pass"
        if summary.missing > 0 { html += "<br><span class=\"small\">\(summary.missing) not run</span>" }
        let failures = summary.failuresByImportance.map {
            HTMLPage.importance($0.importance) + " \($0.count)"
        }.joined(separator: " · ")
        html += "<br><span class=\"small\">failures: \(failures)</span>"
        if summary.knownFailures > 0 { html += "<br><span class=\"small\">\(summary.knownFailures) known</span>" }
        return html
    }

    package static func matrixCell(_ result: CheckResult?, row: ResultsMatrix.Row) -> String {
        typealias Limit = HTMLPage.Limit
        guard let result else {
            return "<td class=\"cell none\" title=\"not in this run\"><span class=\"muted\">not run</span></td>"
        }
        var tooltip = [result.outcome.rawValue + ": " + (result.actual.map(HTMLPage.verdictText) ?? "no verdict")]
        tooltip.append("expected " + HTMLPage.verdictText(result.expected))
        if let reason = result.knownFailure { tooltip.append("known failure: " + reason) }
        if let detail = result.detail, !detail.isEmpty { tooltip.append(detail) }
        tooltip.append("\(HTMLPage.seconds(result.seconds)) s")
        let title = tooltip.map { HTMLEscaping.untrusted($0, limit: Limit.tooltip) }.joined(separator: "&#10;")

        var html = "<td class=\"cell \(result.outcome.cssClass)\" title=\"\(title)\">\(HTMLPage.badge(result.outcome))"
        if result.knownFailure != nil { html += " <span class=\"known\">known</span>" }
        html += "<br><span class=\"small\">\(HTMLPage.verdict(result.actual))</span>"
        if result.expected != row.expected {
            html += "<br><span class=\"small muted\">expected here: \(HTMLPage.verdict(result.expected))</span>"
        }
        return html + "</td>"
    }
}
