/// Several validators' results merged into one table: cases × validators, grouped by
/// each case's first tag (`forge report`). Pure and deterministic: the order of the
/// runs and of their results decides every order here.
public struct ResultsMatrix: Sendable, Hashable {
    /// One run's column.
    public struct Validator: Sendable, Hashable {
        /// The harness command, made unique: a second run of the same command is
        /// `COMMAND (2)`, the first `COMMAND (1)`.
        public let name: String
        public let harness: String
        public let startedAt: String
        public let summary: Summary
    }

    /// How one validator did.
    public struct Summary: Sendable, Hashable {
        /// Results per outcome, in `CheckOutcome.allCases` order (zeros included).
        public let counts: [OutcomeCount]
        /// How many cases this validator ran.
        public let total: Int
        public var passes: Int { counts.first { $0.outcome == .pass }?.count ?? 0 }
        /// `fail`, `crash`, `hang` and `error` results per importance: `critical`,
        /// `high` and `low` always, then any other value a results file names, sorted.
        public let failuresByImportance: [ImportanceCount]
        /// Of those failures, how many the run lists in `--known-failures`.
        public let knownFailures: Int
        /// Cases of the matrix this run has no result for.
        public let missing: Int
        public var failures: Int { failuresByImportance.reduce(0) { $0 + $1.count } }
    }

    public struct OutcomeCount: Sendable, Hashable {
        public let outcome: CheckOutcome
        public let count: Int
    }

    public struct ImportanceCount: Sendable, Hashable {
        public let importance: String
        public let count: Int
    }

    /// One case: its description from the first run that has it, and each run's result.
    public struct Row: Sendable, Hashable {
        public let id: String
        public let tags: [String]
        public let importance: String
        public let expected: CheckResult.Verdict
        /// One per validator, nil where that run has no result for this case.
        public let cells: [CheckResult?]
    }

    /// The cases whose first tag is `tag` (`untagged` for cases without tags).
    public struct Group: Sendable, Hashable {
        public let tag: String
        public let rows: [Row]
    }

    /// The group of cases without tags.
    public static let untagged = "untagged"
    /// The importance values of the catalogue, most important first.
    public static let importanceOrder = ["critical", "high", "low"]

    public let validators: [Validator]
    /// In order of first appearance, as are the rows inside each group.
    public let groups: [Group]
    /// What the merge had to decide: a case listed twice in one run (the first result
    /// is shown). Untrusted text: escape or make visible before showing.
    public let notes: [String]

    public var rows: [Row] { groups.flatMap(\.rows) }

    public init(_ runs: [CheckResults]) {
        // Rows: the union of case ids, in order of first appearance.
        var order: [String] = []
        var first: [String: CheckResult] = [:]
        var cellsByRun: [[String: CheckResult]] = []
        var notes: [String] = []
        let names = ResultsMatrix.uniqueNames(runs.map(\.harness))
        for (index, run) in runs.enumerated() {
            var cells: [String: CheckResult] = [:]
            for result in run.results {
                guard cells[result.id] == nil else {
                    notes.append("\(names[index]) lists case '\(result.id)' more than once; the first result is shown")
                    continue
                }
                cells[result.id] = result
                if first[result.id] == nil {
                    first[result.id] = result
                    order.append(result.id)
                }
            }
            cellsByRun.append(cells)
        }

        var groupOrder: [String] = []
        var grouped: [String: [Row]] = [:]
        for id in order {
            let description = first[id]!
            let row = Row(id: id, tags: description.tags, importance: description.importance,
                          expected: description.expected, cells: cellsByRun.map { $0[id] })
            let tag = description.tags.first ?? ResultsMatrix.untagged
            if grouped[tag] == nil { groupOrder.append(tag) }
            grouped[tag, default: []].append(row)
        }
        groups = groupOrder.map { Group(tag: $0, rows: grouped[$0]!) }
        validators = runs.indices.map { index in
            Validator(name: names[index], harness: runs[index].harness, startedAt: runs[index].startedAt,
                      summary: ResultsMatrix.summary(of: Array(cellsByRun[index].values), caseCount: order.count))
        }
        self.notes = notes
    }

    package static func summary(of results: [CheckResult], caseCount: Int) -> Summary {
        var outcomes: [CheckOutcome: Int] = [:]
        var failures: [String: Int] = Dictionary(uniqueKeysWithValues: importanceOrder.map { ($0, 0) })
        var known = 0
        for result in results {
            outcomes[result.outcome, default: 0] += 1
            guard result.outcome.isFailure else { continue }
            failures[result.importance, default: 0] += 1
            if result.knownFailure != nil { known += 1 }
        }
        let others = failures.keys.filter { !importanceOrder.contains($0) }.sorted()
        return Summary(counts: CheckOutcome.allCases.map { OutcomeCount(outcome: $0, count: outcomes[$0] ?? 0) },
                       total: results.count,
                       failuresByImportance: (importanceOrder + others).map { ImportanceCount(importance: $0, count: failures[$0]!) },
                       knownFailures: known, missing: caseCount - results.count)
    }

    /// The harness commands, with duplicates numbered in order (`./v (1)`, `./v (2)`)
    /// and an empty one called `(unnamed)`; a number is skipped when another run
    /// already bears that name.
    package static func uniqueNames(_ harnesses: [String]) -> [String] {
        let bases = harnesses.map { $0.isEmpty ? "(unnamed)" : $0 }
        var occurrences: [String: Int] = [:]
        for base in bases { occurrences[base, default: 0] += 1 }
        var taken = Set(bases.filter { occurrences[$0] == 1 })
        var next: [String: Int] = [:]
        return bases.map { base in
            guard occurrences[base]! > 1 else { return base }
            var number = next[base, default: 0]
            var name: String
            repeat {
                number += 1
                name = "\(base) (\(number))"
            } while taken.contains(name)
            next[base] = number
            taken.insert(name)
            return name
        }
    }
}
