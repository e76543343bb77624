import ReceiptForge
import CheckReport

/// Results of `forge check` for the report tests: one result of each outcome, and
/// hostile strings for the escaping tests.
enum CheckResultsSamples {
    static let valid = CheckResult.Verdict(verdict: .valid, reason: nil)

    static func invalid(_ reason: String?) -> CheckResult.Verdict {
        CheckResult.Verdict(verdict: .invalid, reason: reason)
    }

    static func result(_ id: String, _ outcome: CheckOutcome, tags: [String] = ["chain"], importance: String = "critical",
                       expected: CheckResult.Verdict = invalid("bad-signature"), actual: CheckResult.Verdict? = nil,
                       knownFailure: String? = nil, detail: String? = nil, stderrTail: String = "") -> CheckResult {
        CheckResult(id: id, tags: tags, importance: importance, expected: expected, actual: actual, outcome: outcome,
                    knownFailure: knownFailure, seconds: 0.25, detail: detail, stderrTail: stderrTail)
    }

    /// One result per outcome, in `CheckOutcome.allCases` order, over three tags.
    static var everyOutcome: CheckResults {
        CheckResults(harness: "./validator --strict", startedAt: "2026-05-01T12:00:00Z", results: [
            result("valid", .pass, tags: ["bundle", "device-hash"], importance: "high", expected: valid, actual: valid),
            result("sha1-digest", .reasonDiffers, tags: ["sha1", "strict-policy"], importance: "low",
                   expected: invalid("unsupported-algorithm"), actual: invalid("bad-signature")),
            result("self-signed-root", .fail, expected: invalid("untrusted-chain"), actual: valid,
                   knownFailure: "we trust the test root on purpose"),
            result("vpp-expired", .skipped, tags: ["vpp"], importance: "high", expected: invalid("expired")),
            result("truncated", .crash, tags: [], detail: "killed by signal 11 (SIGSEGV)"),
            result("huge-length", .hang, detail: "still running after 10 s; process group killed"),
            result("bad-digest", .error, detail: "exit status 3; stdout: \"maybe\"", stderrTail: "panic: oops\nat main\n"),
        ])
    }

    /// U+FFFE and U+10FFFF, which a Swift literal may not hold, and U+FDD0.
    static let nonCharacters = String(String.UnicodeScalarView([0xFFFE, 0x10FFFF, 0xFDD0].map { Unicode.Scalar($0)! }))

    /// Strings a hostile harness could produce, in every field a page shows.
    static let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "' onmouseover='alert(1)",
        "a & b &amp; &#60; &lt;",
        "</td></tr></table><h1>owned</h1>",
        "<!-- comment --><style>body{display:none}</style>",
        "\u{1B}[31mred\u{1B}[0m\u{07}\u{00}\r\u{7F}\u{85}\u{9B}",
        "rtl \u{202E}gnp.exe\u{202C} \u{2066}isolate\u{2069}\u{2028}",
        "replacement \u{FFFD}\u{FFFD} nonchar " + nonCharacters,
        String(repeating: "<&>\"'", count: 40_000),
    ]

    /// A run whose every string is hostile.
    static func hostileRun(_ text: String) -> CheckResults {
        CheckResults(harness: text, startedAt: text, results: [
            CheckResult(id: text, tags: [text, text], importance: text, expected: invalid(text),
                        actual: CheckResult.Verdict(verdict: .invalid, reason: text), outcome: .error, knownFailure: text,
                        seconds: 1, detail: text, stderrTail: text),
            CheckResult(id: "plain", tags: [], importance: "high", expected: valid, actual: invalid(text), outcome: .fail,
                        seconds: 0, detail: nil, stderrTail: ""),
        ])
    }
}
