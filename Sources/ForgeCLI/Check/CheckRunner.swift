import Foundation
import ReceiptForge
import CheckReport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the validator on each case, `jobs` at a time, and classifies what it said.
struct CheckRunner {
    let command: [String]
    let cases: [ManifestVerifier.TreeCase]
    let timeout: Double
    let jobs: Int
    /// A progress line on standard error, rewritten in place (a terminal only).
    let progress: Bool

    /// What the workers share, behind one lock.
    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var done = 0
        var results: [CheckResult?]
        var startFailure: HarnessStartError?

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func withLock<T>(_ body: (Shared) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    /// Results in the cases' order. Throws when the command cannot be started.
    func run() throws -> [CheckResult] {
        let shared = Shared(count: cases.count)
        let group = DispatchGroup()
        let environment = ProcessInfo.processInfo.environment
        for _ in 0..<min(jobs, cases.count) {
            group.enter()
            let worker = Thread { [self] in
                defer { group.leave() }
                while true {
                    let claimed: Int? = shared.withLock { state in
                        guard state.startFailure == nil, state.next < cases.count else { return nil }
                        state.next += 1
                        return state.next - 1
                    }
                    guard let index = claimed else { return }
                    let treeCase = cases[index]
                    do throws(HarnessStartError) {
                        let result = try check(treeCase, environment: environment)
                        shared.withLock { state in
                            state.results[index] = result
                            state.done += 1
                            if progress {
                                FileHandle.standardError.write(Data("\r\u{1B}[K[\(state.done)/\(cases.count)] \(treeCase.id)".utf8))
                            }
                        }
                    } catch {
                        shared.withLock { state in
                            if state.startFailure == nil { state.startFailure = error }
                        }
                    }
                }
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        group.wait()
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if let startFailure = shared.startFailure { throw startFailure }
        return shared.results.map { $0! }
    }

    /// One case: the validator's run, its answer and the outcome.
    func check(_ treeCase: ManifestVerifier.TreeCase, environment base: [String: String]) throws(HarnessStartError) -> CheckResult {
        let values = Self.values(for: treeCase)
        var environment = base
        for (name, value) in values { environment["FORGE_" + name.uppercased()] = value }
        let arguments = command.map { Self.substitute($0, values) }
        let run = try HarnessProcess.run(arguments, environment: environment, timeout: timeout)
        let expected = CheckResult.Verdict(verdict: treeCase.expected.verdict, reason: treeCase.expected.reason.rawValue)
        let interpretation = HarnessAnswer.interpret(run.ending, output: run.output, totalOutput: run.totalOutput)
        var actual: CheckResult.Verdict?
        var outcome: CheckOutcome
        var detail: String?
        switch interpretation {
        case .verdict(let verdict):
            actual = verdict
            outcome = HarnessAnswer.outcome(expected: expected, actual: verdict)
        case .skipped(let note): (outcome, detail) = (.skipped, note)
        case .crash(let what): (outcome, detail) = (.crash, what)
        case .hang(let what): (outcome, detail) = (.hang, what)
        case .error(let what): (outcome, detail) = (.error, what)
        }
        let stderrTail = String(decoding: run.errorTail, as: UTF8.self)
        return CheckResult(id: treeCase.id, tags: treeCase.description.tags?.map(\.rawValue) ?? [],
                           importance: treeCase.description.importance?.rawValue ?? "unknown",
                           expected: expected, actual: actual, outcome: outcome, seconds: (run.seconds * 1e4).rounded() / 1e4,
                           detail: detail, stderrTail: stderrTail)
    }

    /// The case's inputs by placeholder name (`FORGE_` + upper case in the environment).
    static func values(for treeCase: ManifestVerifier.TreeCase) -> [String: String] {
        let description = treeCase.description
        return [
            "case": treeCase.id,
            "case_json": treeCase.caseFile.path,
            "receipt": treeCase.receipt.path,
            "receipt_b64": treeCase.receiptBase64.path,
            "root": treeCase.anchor.path,
            "root_pem": treeCase.anchorPEM.path,
            "bundle_id": description.app.bundleId,
            "app_version": description.app.version,
            "device_id": description.device.hex,
            "device_id_text": description.device.uuid ?? description.device.mac ?? description.device.hex,
            "platform": description.app.platform.rawValue,
            "creation_date": description.validation.creationDate ?? "",
            "now": description.validation.now,
        ]
    }

    /// `{name}` replaced by its value; other braces are left as they are.
    static func substitute(_ argument: String, _ values: [String: String]) -> String {
        guard argument.contains("{") else { return argument }
        var result = argument
        for (name, value) in values { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }
}
