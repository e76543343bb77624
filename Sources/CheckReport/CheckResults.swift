import Foundation
import Receipt

/// What `forge check` found: one result per case for one validator (the `--json`
/// file, described by `Schemas/check-results.schema.json`). `forge report` merges
/// several of these into one matrix.
public struct CheckResults: Codable, Sendable, Hashable {
    /// Format version of this file.
    public var version: Int
    /// The validator's command line, as given after `--`.
    public var harness: String
    /// `receipt-forge`.
    public var generator: String
    /// When the run started (RFC 3339).
    public var startedAt: String
    public var results: [CheckResult]

    public static let currentVersion = 1

    public init(harness: String, startedAt: String, results: [CheckResult]) {
        version = CheckResults.currentVersion
        self.harness = harness
        generator = "receipt-forge"
        self.startedAt = startedAt
        self.results = results
    }

    /// How many results have each outcome.
    public var counts: [CheckOutcome: Int] {
        results.reduce(into: [:]) { $0[$1.outcome, default: 0] += 1 }
    }
}

/// One case run through the validator.
public struct CheckResult: Codable, Sendable, Hashable {
    /// A verdict: `valid` or `invalid`, with a reason when the validator gave one.
    public struct Verdict: Codable, Sendable, Hashable {
        public var verdict: VerdictKind
        /// The validator's own word for the reason, as it gave it (untrusted text).
        public var reason: String?

        /// `valid`, `invalid`, or `invalid (REASON)`: how the reports print it.
        public var text: String { reason.map { "\(verdict.rawValue) (\($0))" } ?? verdict.rawValue }

        public init(verdict: VerdictKind, reason: String?) {
            self.verdict = verdict
            self.reason = reason
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(verdict, forKey: .verdict)
            try container.encode(reason, forKey: .reason)  // null when the validator gave none
        }

        enum CodingKeys: String, CodingKey { case verdict, reason }
    }

    public var id: String
    public var tags: [String]
    /// `critical`, `high` or `low` (see `ForgeCase.Importance`).
    public var importance: String
    public var expected: Verdict
    /// Nil when the validator gave no verdict (skipped, crash, hang, error).
    public var actual: Verdict?
    public var outcome: CheckOutcome
    /// The reason from `--known-failures` when the case is listed there.
    public var knownFailure: String?
    /// Wall-clock seconds of the validator's run.
    public var seconds: Double
    /// What went wrong, for `error`, `crash` and `hang`: the exit status or signal,
    /// and the output quoted (cut, never trusted).
    public var detail: String?
    /// The last lines of the validator's standard error (at most 2 KiB, quoted).
    public var stderrTail: String

    public init(id: String, tags: [String], importance: String, expected: Verdict, actual: Verdict?,
                outcome: CheckOutcome, knownFailure: String? = nil, seconds: Double, detail: String? = nil,
                stderrTail: String = "") {
        self.id = id
        self.tags = tags
        self.importance = importance
        self.expected = expected
        self.actual = actual
        self.outcome = outcome
        self.knownFailure = knownFailure
        self.seconds = seconds
        self.detail = detail
        self.stderrTail = stderrTail
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(tags, forKey: .tags)
        try container.encode(importance, forKey: .importance)
        try container.encode(expected, forKey: .expected)
        try container.encode(actual, forKey: .actual)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(knownFailure, forKey: .knownFailure)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(detail, forKey: .detail)
        try container.encode(stderrTail, forKey: .stderrTail)
    }

    package enum CodingKeys: String, CodingKey {
        case id, tags, importance, expected, actual, outcome, knownFailure, seconds, detail, stderrTail
    }

    /// Whether this result makes `forge check` fail: `fail`, `crash`, `hang`, `error`
    /// (and `reason-differs` under `--strict-reasons`), unless a known failure.
    public func fails(strictReasons: Bool) -> Bool {
        guard knownFailure == nil else { return false }
        switch outcome {
        case .pass, .skipped: return false
        case .reasonDiffers: return strictReasons
        case .fail, .crash, .hang, .error: return true
        }
    }
}

/// How one case went.
public enum CheckOutcome: String, Codable, Sendable, Hashable, CaseIterable {
    /// The expected verdict (and, when the validator gave one, the expected reason).
    case pass
    /// The right verdict with another reason: a failure only with `--strict-reasons`.
    case reasonDiffers = "reason-differs"
    /// The wrong verdict.
    case fail
    /// The validator does not support this case (it exited 2).
    case skipped
    /// Killed by a signal.
    case crash
    /// Still running at `--timeout`: its whole process group was killed.
    case hang
    /// Output or exit status outside the contract.
    case error
}
