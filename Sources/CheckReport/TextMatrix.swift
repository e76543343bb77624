/// `forge report` without `--html`: the matrix as plain text for a terminal. Validators
/// are numbered columns (V1, V2, …) named above the table; every string from a results
/// file has its control characters made visible (no escape sequence reaches the
/// terminal) and is cut.
public enum TextMatrix {
    public static func render(_ runs: [CheckResults]) -> String {
        let matrix = ResultsMatrix(runs)
        func safe(_ text: String, _ limit: Int) -> String {
            UntrustedText.visible(UntrustedText.clipped(text, to: limit))
        }
        var text = ""
        for (index, validator) in matrix.validators.enumerated() {
            let summary = validator.summary
            let failures = summary.failuresByImportance.map { "\(safe($0.importance, 40)) \($0.count)" }
                .joined(separator: ", ")
            text += "V\(index + 1) = \(safe(validator.name, 300))\n"
            text += "     \(summary.passes)/\(summary.total) pass; failures: \(failures)"
                + (summary.knownFailures > 0 ? "; \(summary.knownFailures) known" : "")
                + (summary.missing > 0 ? "; \(summary.missing) not run" : "") + "\n"
        }
        for note in matrix.notes { text += "note: \(safe(note, 1_000))\n" }

        let idWidth = min(40, matrix.rows.map { safe($0.id, 60).count }.max() ?? 4)
        let verdictWidth = min(40, matrix.rows.map { verdict($0.expected, safe).count }.max() ?? 8)
        let cells = matrix.rows.map { row in row.cells.map { $0.map { cell($0.outcome, known: $0.knownFailure != nil) } ?? "-" } }
        let cellWidth = max(4, cells.joined().map(\.count).max() ?? 0)
        var header = pad("case", idWidth) + "  " + pad("importance", 10) + "  " + pad("expected", verdictWidth)
        for index in matrix.validators.indices { header += "  " + pad("V\(index + 1)", cellWidth) }
        text += "\n" + trimmed(header) + "\n"
        var rowIndex = 0
        for group in matrix.groups {
            text += "── \(safe(group.tag, 100)) (\(group.rows.count))\n"
            for row in group.rows {
                var line = pad(safe(row.id, 60), idWidth) + "  " + pad(safe(row.importance, 40), 10) + "  "
                    + pad(verdict(row.expected, safe), verdictWidth)
                for cell in cells[rowIndex] { line += "  " + pad(cell, cellWidth) }
                text += trimmed(line) + "\n"
                rowIndex += 1
            }
        }
        return text
    }

    /// `pass`, `FAIL`, `CRASH (known)`: failures in capitals so they stand out without colour.
    package static func cell(_ outcome: CheckOutcome, known: Bool) -> String {
        (outcome.isFailure ? outcome.rawValue.uppercased() : outcome.rawValue) + (known ? " (known)" : "")
    }

    package static func verdict(_ verdict: CheckResult.Verdict, _ safe: (String, Int) -> String) -> String {
        safe(verdict.text, 60)
    }

    package static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    package static func trimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line.removeLast() }
        return String(line)
    }
}
