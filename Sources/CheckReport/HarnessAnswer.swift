import Receipt
import StrictJSON
/// The `forge check` contract, the validator's side: how its exit and output become
/// a verdict, and the verdict an outcome.
///
/// The validator answers on standard output with
/// - a JSON object `{"verdict": "valid"|"invalid", "reason": "…"}` (reason optional),
/// - or a first line `valid`, `invalid`, `invalid REASON` (also `invalid (REASON): …`,
///   as `forge verify` prints it),
/// - or nothing, when its exit status says it: 0 valid, 1 invalid.
/// Exit status 2 means it does not support the case (skipped). Any other status, an
/// answer outside these forms, binary or oversized output (over 64 KiB; a JSON object
/// over 16 MiB) is an error; death by a signal is a crash; still running at the
/// timeout, a hang. Output is quoted in the report, never trusted.
public enum HarnessAnswer {
    /// How the validator's process ended.
    public enum Ending: Sendable, Hashable {
        case exited(Int32)
        case signaled(Int32)
        /// Still running at the timeout (its process group was killed).
        case timedOut(seconds: Double)
    }

    /// What the validator said.
    public enum Interpretation: Sendable, Hashable {
        case verdict(CheckResult.Verdict)
        case skipped(String?)
        case crash(String)
        case hang(String)
        case error(String)
    }

    /// Standard output beyond this many bytes is not an answer (unless it is a JSON object).
    public static let maximumOutput = 64 * 1024

    /// A JSON object answer may take this many bytes: a validator may print what it
    /// decoded beside its verdict (`forge verify --json` prints the whole receipt, 681 KB
    /// for `many-iaps`). It is still read whole and parsed strictly; the bound keeps a
    /// flood from filling memory.
    public static let maximumJSONOutput = 16 * 1024 * 1024

    /// How many bytes of standard output to keep, given its first bytes: a JSON
    /// object's (or, while only whitespace has come, a possible one's) `maximumJSONOutput`,
    /// any other answer's `maximumOutput`.
    public static func outputLimit(forOutputStartingWith start: some Collection<UInt8>) -> Int {
        switch start.first(where: { !isWhitespace($0) }) {
        case UInt8(ascii: "{"), nil: return maximumJSONOutput
        default: return maximumOutput
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Interprets the process's ending and the first `outputLimit` bytes of its
    /// standard output (`totalOutput` counts all of it).
    public static func interpret(_ ending: Ending, output: [UInt8], totalOutput: Int) -> Interpretation {
        switch ending {
        case .timedOut(let seconds):
            return .hang("still running after \(formatSeconds(seconds)); its process group was killed")
        case .signaled(let signal):
            return .crash("killed by \(signalName(signal))" + (output.isEmpty ? "" : "; output: \(quote(output))"))
        case .exited(let status):
            if status == 2 {
                let note = firstLine(output).flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
                return .skipped(note)
            }
            guard status == 0 || status == 1 else {
                return .error("exit status \(status) (the contract: 0 valid, 1 invalid, 2 unsupported)"
                              + (output.isEmpty ? "" : "; output: \(quote(output))"))
            }
            return answer(output, totalOutput: totalOutput, status: status)
        }
    }

    package static func answer(_ output: [UInt8], totalOutput: Int, status: Int32) -> Interpretation {
        let isJSON = output.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{")
        guard totalOutput <= (isJSON ? maximumJSONOutput : maximumOutput) else {
            let limit = isJSON ? "\(maximumJSONOutput / (1024 * 1024)) MiB a JSON answer" : "\(maximumOutput / 1024) KiB an answer"
            return .error("\(totalOutput) bytes of output, more than the \(limit) may take; it starts \(quote(output))")
        }
        guard let text = String(validating: output, as: UTF8.self),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || $0.value == 0x7F })
        else {
            return .error("binary output, not an answer: \(quote(output))")
        }
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            return .verdict(CheckResult.Verdict(verdict: status == 0 ? .valid : .invalid, reason: nil))
        }
        if trimmed.hasPrefix("{") { return jsonAnswer(trimmed, output) }
        let line = (trimmed.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? trimmed).trimmingWhitespace()
        if line == "valid" || line.hasPrefix("valid:") || line.hasPrefix("valid ") {
            return .verdict(CheckResult.Verdict(verdict: .valid, reason: nil))
        }
        if line == "invalid" || line.hasPrefix("invalid ") || line.hasPrefix("invalid:") || line.hasPrefix("invalid(") {
            var rest = Substring(line.dropFirst("invalid".count)).drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("(") {
                guard let close = rest.firstIndex(of: ")") else { return .error("unrecognised answer: \(quote(output))") }
                rest = rest[rest.index(after: rest.startIndex)..<close]
            } else if rest.hasPrefix(":") {
                rest = ""
            }
            let reason = rest.prefix { !$0.isWhitespace }.trimmingSuffix(":")
            return .verdict(CheckResult.Verdict(verdict: .invalid, reason: reason.isEmpty ? nil : String(reason.prefix(200))))
        }
        return .error("unrecognised answer (expected JSON, 'valid' or 'invalid [REASON]'): \(quote(output))")
    }

    package static func jsonAnswer(_ text: String, _ output: [UInt8]) -> Interpretation {
        guard case .object(let members)? = try? JSONParser.parse(Array(text.utf8)) else {
            return .error("the answer starts with '{' but is not a JSON object: \(quote(output))")
        }
        var verdict: VerdictKind?
        var reason: String?
        for member in members {
            switch (member.key, member.value) {
            case ("verdict", .string(let value)) where VerdictKind(rawValue: value) != nil: verdict = VerdictKind(rawValue: value)
            case ("verdict", _): return .error("\"verdict\" must be \"valid\" or \"invalid\": \(quote(output))")
            case ("reason", .string(let value)): reason = value.isEmpty ? nil : String(value.prefix(200))
            case ("reason", .null): reason = nil
            case ("reason", _): return .error("\"reason\" must be a string: \(quote(output))")
            default: continue
            }
        }
        guard let verdict else { return .error("the JSON answer has no \"verdict\": \(quote(output))") }
        return .verdict(CheckResult.Verdict(verdict: verdict, reason: verdict == .valid ? nil : reason))
    }

    /// The outcome of a verdict against the expected one: the wrong verdict fails; the
    /// right verdict with another reason (when the validator gave one) differs.
    public static func outcome(expected: CheckResult.Verdict, actual: CheckResult.Verdict) -> CheckOutcome {
        guard expected.verdict == actual.verdict else { return .fail }
        if actual.verdict == .invalid, let reason = actual.reason, reason != expected.reason { return .reasonDiffers }
        return .pass
    }

    // MARK: Quoting untrusted output

    /// At most `limit` bytes of `bytes`, printable ASCII kept, everything else as
    /// `\n`, `\t` or `\xNN`, in double quotes, with the total when cut.
    public static func quote(_ bytes: some Collection<UInt8>, limit: Int = 300) -> String {
        var text = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x0D: text += "\\r"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += UntrustedText.escape(UInt32(byte), "\\x", digits: 2)
            }
        }
        text += "\""
        if bytes.count > limit { text += " … (\(bytes.count) bytes)" }
        return text
    }

    package static func firstLine(_ output: [UInt8]) -> String? {
        guard let text = String(validating: output, as: UTF8.self) else { return nil }
        return text.split(separator: "\n", maxSplits: 1).first.map { String($0).trimmingWhitespace() }
    }

    package static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// `SIGSEGV (11)` for the usual signals, `signal N` otherwise.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
                                      7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE",
                                      14: "SIGALRM", 15: "SIGTERM"]
        return names[signal].map { "\($0) (\(signal))" } ?? "signal \(signal)"
    }
}

extension String {
    package func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension Substring {
    package func trimmingSuffix(_ suffix: Character) -> Substring {
        last == suffix ? dropLast() : self
    }
}
