import Receipt
import ReceiptForge
import XCTest
import CheckReport

/// The `forge check` contract on the validator's side: answers, outcomes, quoting.
final class HarnessAnswerTests: XCTestCase {
    func verdict(_ text: String, status: Int32 = 0) -> HarnessAnswer.Interpretation {
        let bytes = Array(text.utf8)
        return HarnessAnswer.interpret(.exited(status), output: bytes, totalOutput: bytes.count)
    }

    func answer(_ verdict: VerdictKind, _ reason: String? = nil) -> HarnessAnswer.Interpretation {
        .verdict(CheckResult.Verdict(verdict: verdict, reason: reason))
    }

    func testAnswerForms() {
        let table: [(String, Int32, HarnessAnswer.Interpretation)] = [
            ("", 0, answer(.valid)),
            ("\n  \n", 1, answer(.invalid)),
            ("valid\n", 0, answer(.valid)),
            ("valid: chain ok\nmore", 0, answer(.valid)),
            ("invalid\n", 1, answer(.invalid)),
            ("invalid copied\n", 1, answer(.invalid, "copied")),
            ("invalid (device-hash-mismatch): attribute 5", 1, answer(.invalid, "device-hash-mismatch")),
            ("invalid device-hash-mismatch: the hash", 1, answer(.invalid, "device-hash-mismatch")),
            ("invalid: no reason", 1, answer(.invalid)),
            (#"{"verdict": "invalid", "reason": "malformed", "detail": 3}"#, 1, answer(.invalid, "malformed")),
            (#"{"verdict": "valid", "reason": "ignored for valid"}"#, 0, answer(.valid)),
            (#"  {"reason": null, "verdict": "invalid"}  "#, 0, answer(.invalid)),
        ]
        for (text, status, expected) in table {
            XCTAssertEqual(verdict(text, status: status), expected, text)
        }
    }

    func testWhatIsNotAnAnswer() {
        for text in ["validation passed", "VALID", "maybe", "{", "[1]", #"{"verdict": true}"#, #"{"reason": "x"}"#,
                     #"{"verdict": "valid", "reason": 3}"#, "invalid (unclosed", "\u{1}valid"] {
            guard case .error = verdict(text) else { return XCTFail("\(text) was taken as \(verdict(text))") }
        }
        let huge = [UInt8](repeating: UInt8(ascii: "v"), count: 100)
        guard case .error(let what) = HarnessAnswer.interpret(.exited(0), output: huge, totalOutput: 1_000_000) else {
            return XCTFail("oversized output")
        }
        XCTAssertTrue(what.hasPrefix("1000000 bytes of output"), what)
        guard case .error = HarnessAnswer.interpret(.exited(0), output: [0xFF, 0xFE], totalOutput: 2) else {
            return XCTFail("invalid UTF-8")
        }
    }

    /// A JSON answer may carry what the validator decoded (`forge verify --json` prints the
    /// whole receipt): up to 16 MiB, parsed whole; any other answer stops at 64 KiB.
    func testLargeJSONAnswersAreReadWhole() {
        let padding = String(repeating: "x", count: 700_000)
        let large = #"{"verdict": "invalid", "receipt": {"note": "\#(padding)"}, "reason": "malformed"}"#
        XCTAssertEqual(verdict(large, status: 1), answer(.invalid, "malformed"), "the reason after the large member is read")
        XCTAssertEqual(HarnessAnswer.outputLimit(forOutputStartingWith: Array(" \n{".utf8)), HarnessAnswer.maximumJSONOutput)
        XCTAssertEqual(HarnessAnswer.outputLimit(forOutputStartingWith: Array("  ".utf8)), HarnessAnswer.maximumJSONOutput)
        XCTAssertEqual(HarnessAnswer.outputLimit(forOutputStartingWith: Array("valid".utf8)), HarnessAnswer.maximumOutput)
        let line = "valid " + String(repeating: "x", count: HarnessAnswer.maximumOutput)
        guard case .error(let tooLong) = verdict(line) else { return XCTFail("a line answer over 64 KiB was taken") }
        XCTAssertTrue(tooLong.hasPrefix("\(line.utf8.count) bytes of output, more than the 64 KiB"), tooLong)
        let kept = Array(large.utf8)
        guard case .error(let flood) = HarnessAnswer.interpret(.exited(0), output: kept,
                                                               totalOutput: HarnessAnswer.maximumJSONOutput + 1) else {
            return XCTFail("a JSON answer over 16 MiB was taken")
        }
        XCTAssertTrue(flood.contains("more than the 16 MiB a JSON answer may take"), flood)
        // Cut short (more was written than kept): never a verdict.
        guard case .error = HarnessAnswer.interpret(.exited(0), output: Array(kept.prefix(1000)), totalOutput: kept.count) else {
            return XCTFail("a truncated JSON answer was taken")
        }
    }

    func testEndings() {
        XCTAssertEqual(HarnessAnswer.interpret(.exited(2), output: Array("no JWS here\n".utf8), totalOutput: 12),
                       .skipped("no JWS here"))
        guard case .crash(let crash) = HarnessAnswer.interpret(.signaled(11), output: [], totalOutput: 0),
              case .hang(let hang) = HarnessAnswer.interpret(.timedOut(seconds: 10), output: [], totalOutput: 0),
              case .error(let status) = HarnessAnswer.interpret(.exited(3), output: Array("valid".utf8), totalOutput: 5)
        else { return XCTFail("endings") }
        XCTAssertEqual(crash, "killed by SIGSEGV (11)")
        XCTAssertTrue(hang.contains("10 s"), hang)
        XCTAssertTrue(status.hasPrefix("exit status 3"), status)
    }

    func testOutcomes() {
        let expectedInvalid = CheckResult.Verdict(verdict: .invalid, reason: "device-hash-mismatch")
        let expectedValid = CheckResult.Verdict(verdict: .valid, reason: "valid")
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedValid, actual: .init(verdict: .valid, reason: nil)), .pass)
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedValid, actual: .init(verdict: .invalid, reason: nil)), .fail)
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedInvalid, actual: .init(verdict: .invalid, reason: nil)), .pass)
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedInvalid, actual: .init(verdict: .invalid, reason: "device-hash-mismatch")), .pass)
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedInvalid, actual: .init(verdict: .invalid, reason: "malformed")), .reasonDiffers)
        XCTAssertEqual(HarnessAnswer.outcome(expected: expectedInvalid, actual: .init(verdict: .valid, reason: nil)), .fail)
    }

    func testQuotingNeverPassesRawBytes() {
        XCTAssertEqual(HarnessAnswer.quote(Array("a\"b\\c\n\t\u{7}".utf8)), #""a\"b\\c\n\t\x07""#)
        XCTAssertEqual(HarnessAnswer.quote([0xC3, 0xA9]), #""\xC3\xA9""#)
        let long = HarnessAnswer.quote([UInt8](repeating: 0x41, count: 1_000), limit: 10)
        XCTAssertEqual(long, "\"AAAAAAAAAA\" … (1000 bytes)")
    }

    func testKnownFailuresFile() throws {
        let ids: Set = ["valid", "copied-device", "sha512-digest"]
        let parsed = try KnownFailures(text: "# ours\ncopied-device   devices are checked elsewhere # really\n\nsha512-digest any digest\n",
                                       file: "known", knownIDs: ids)
        XCTAssertEqual(parsed.reasons, ["copied-device": "devices are checked elsewhere", "sha512-digest": "any digest"])
        for (text, line, what) in [("typo reason", 1, "'typo' is not a case"), ("\nvalid", 2, "has no reason"),
                                   ("valid a\nvalid b", 2, "listed twice")] {
            XCTAssertThrowsError(try KnownFailures(text: text, file: "known", knownIDs: ids)) { error in
                let failure = error as? KnownFailures.ParseError
                XCTAssertEqual(failure?.line, line, text)
                XCTAssertTrue(failure?.reason.contains(what) ?? false, "\(text): \(error)")
            }
        }
    }

    func testJUnitMarksEachOutcome() {
        func result(_ id: String, _ outcome: CheckOutcome, known: String? = nil) -> CheckResult {
            CheckResult(id: id, tags: ["chain"], importance: "critical",
                        expected: .init(verdict: .invalid, reason: "untrusted-chain"),
                        actual: outcome == .fail ? .init(verdict: .valid, reason: nil) : nil, outcome: outcome,
                        knownFailure: known, seconds: 0.25, detail: outcome == .crash ? "killed by SIGSEGV (11)" : nil,
                        stderrTail: "<oops> & \u{1}")
        }
        let results = CheckResults(harness: "./v \"x\"", startedAt: "2026-11-23T05:00:00Z", results: [
            result("a", .pass), result("b", .fail), result("c", .crash), result("d", .skipped), result("e", .fail, known: "accepted"),
            result("f", .reasonDiffers),
        ])
        let lenient = JUnitReport.render(results, strictReasons: false)
        XCTAssertTrue(lenient.contains(#"tests="6" failures="1" errors="1" skipped="2""#), lenient)
        XCTAssertTrue(lenient.contains(#"<failure type="fail" message="expected invalid (untrusted-chain), got valid">"#), lenient)
        XCTAssertTrue(lenient.contains(#"<error type="crash" message="killed by SIGSEGV (11)"/>"#), lenient)
        XCTAssertTrue(lenient.contains(#"<skipped message="known failure (fail): accepted"/>"#), lenient)
        XCTAssertTrue(lenient.contains("<system-err>&lt;oops&gt; &amp; ?</system-err>"), lenient)
        XCTAssertTrue(lenient.contains(#"forge check: ./v &quot;x&quot;"#), lenient)
        XCTAssertFalse(lenient.contains("\u{1}"))
        XCTAssertTrue(JUnitReport.render(results, strictReasons: true).contains(#"failures="2""#))
    }
}
