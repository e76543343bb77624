import ArgumentParser
import Foundation
import Receipt
import ReceiptForge
import CheckReport
import OwnedFileTree
import ForgeCommandLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `forge check [options] -- COMMAND [ARG...]`: runs any receipt validator on every
/// case and reports like a test suite.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run your receipt validator on every case and report like a test suite.",
        discussion: """
            COMMAND runs once per case (in its own process group, standard input /dev/null) with these \
            environment variables, also available as {placeholders} in ARGs ({case}, {receipt}, {root}, \
            {bundle_id} …, lower case without FORGE_):
              FORGE_CASE            the case id
              FORGE_CASE_JSON       path of its case.json (every input and the expected verdict)
              FORGE_RECEIPT         path of the binary receipt (for `missing`: a path where nothing is)
              FORGE_RECEIPT_B64     path of the same, base64
              FORGE_ROOT            the DER trust anchor; FORGE_ROOT_PEM the same in PEM
              FORGE_BUNDLE_ID, FORGE_APP_VERSION, FORGE_PLATFORM (ios|macos)
              FORGE_DEVICE_ID       the device identifier in hex; FORGE_DEVICE_ID_TEXT as UUID or MAC
              FORGE_CREATION_DATE   the receipt creation date (RFC 3339; empty without a receipt)
              FORGE_NOW             the reference now, for VPP expiry (RFC 3339)

            The validator answers on standard output:
              {"verdict": "valid"|"invalid", "reason": "..."}     (reason optional)
              or a first line `valid` / `invalid [REASON]`         (`invalid (REASON): …` too)
              or nothing: exit 0 means valid, 1 invalid.
            Exit 2: it does not support the case (skipped). Anything else is an error, and so is an answer \
            over 64 KiB (a JSON object may take 16 MiB: beside its verdict it may carry what was decoded, as \
            `forge verify --json` does).

            Outcomes: pass; reason-differs (right verdict, another reason: a failure only with \
            --strict-reasons); fail; skipped; crash (killed by a signal); hang (past --timeout, its whole \
            process group killed); error (bad output or exit status, quoted in the report).

            Without --fixtures the catalogue is minted into a temporary folder first (with the app options \
            below), so `forge check -- ./my-validator` is the whole story.

            Exit status: 0 when no case is fail, crash, hang or error outside --known-failures; 1 otherwise; \
            64 usage; 128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP: every running validator's process \
            group is killed and a minted temporary tree removed first); 65 a fixture tree or known-failures file that does not parse; 73/74 an output file \
            that cannot be written; 127 COMMAND cannot be started.

            Examples:
              forge check -- ./validate-receipt.sh
              forge check --case copied-device --case valid -- python3 harness.py {receipt}
              forge check --fixtures Fixtures --junit results.xml --json results.json -- ./my-validator
              forge check -- swift run forge verify {receipt} --root {root} --bundle-id {bundle_id} \\
                  --app-version {app_version} --device-id {device_id} --now {now}
            """
    )

    @Option(help: ArgumentHelp("A fixture tree (`forge --all --out DIR`) or its manifest.json; default: mint one into a temporary folder.",
                               valueName: "DIR"))
    var fixtures: String?

    @Option(name: .customLong("case"), help: ArgumentHelp("Only this case (repeatable).", valueName: "ID"))
    var cases: [String] = []

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only cases with this tag (repeatable: any of them).", valueName: "T"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tag"), help: ArgumentHelp("Not the cases with this tag (repeatable).", valueName: "T"))
    var excludedTags: [String] = []

    @Option(help: ArgumentHelp("Seconds one case may take before it is a hang.", valueName: "S"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Cases run at once (default: the number of cores).", valueName: "N"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Write the results as JSON (Schemas/check-results.schema.json).", valueName: "FILE"))
    var json: String?

    @Option(help: ArgumentHelp("Write JUnit XML, one testcase per case, for CI systems.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Write one self-contained HTML page: the case table coloured by outcome (`forge report` merges several runs).",
                               valueName: "FILE"))
    var html: String?

    @Option(name: .customLong("known-failures"), help: ArgumentHelp(
        "Differences your project accepts: one `CASE-ID  REASON` a line (# comments); they do not fail the run.",
        valueName: "FILE"))
    var knownFailures: String?

    @Flag(name: .customLong("strict-reasons"), help: "A right verdict with another reason fails the run.")
    var strictReasons = false

    @Flag(help: "No progress line and no table; the summary line only.")
    var quiet = false

    @OptionGroup(title: "When minting (not with --fixtures)")
    var reference: ReferenceOptions

    @OptionGroup(title: "Your app, when minting (not with --fixtures)")
    var appOptions: AppOptions

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The validator and its arguments, after `--`.", valueName: "COMMAND"))
    var command: [String] = []

    static let placeholders = ["case", "case_json", "receipt", "receipt_b64", "root", "root_pem", "bundle_id",
                               "app_version", "device_id", "device_id_text", "platform", "creation_date", "now"]

    func validate() throws {
        guard !command.isEmpty else {
            throw ValidationError("give the validator to run after `--`, e.g. `forge check -- ./my-validator`")
        }
        guard timeout > 0, timeout <= 3_600 else { throw ValidationError("--timeout must lie between 0 and 3600 seconds") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must lie between 1 and 256") }
        if fixtures != nil && (appOptions.isGiven || reference.isGiven) {
            throw ValidationError("--fixtures uses the tree as minted; the app options, --now and --seed apply only when minting")
        }
        let vocabulary = ForgeCase.Tag.allCases.map(\.rawValue)
        for tag in tags + excludedTags where !vocabulary.contains(tag) {
            throw ValidationError("unknown tag '\(tag)'; tags: \(vocabulary.joined(separator: ", "))")
        }
        for argument in command {
            for name in Self.placeholderNames(in: argument) where !Self.placeholders.contains(name) {
                throw ValidationError("unknown placeholder {\(name)} in '\(argument)'; known: "
                                      + Self.placeholders.map { "{\($0)}" }.joined(separator: " "))
            }
        }
    }

    /// The `{name}` placeholders (lower-case letters and `_`) in an argument.
    static func placeholderNames(in argument: String) -> [String] {
        var names: [String] = []
        var rest = Substring(argument)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty && name.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) }) { names.append(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    func run() throws {
        let outputs = [json, junit, html].compactMap { $0 }.map { OutputFile(path: URL(fileURLWithPath: $0)) }
        do {
            for output in outputs { try output.checkWritable() }
        } catch {
            printError("forge check: \(error)")
            throw error.exit.code
        }
        let tree = try fixtureTree()
        defer { if let temporary = tree.temporary { try? FileManager.default.removeItem(at: temporary) } }
        HarnessGroups.stopOnSignals {
            if let temporary = tree.temporary { try? FileManager.default.removeItem(at: temporary) }
        }
        let allCases: [ManifestVerifier.TreeCase]
        do {
            allCases = try ManifestVerifier.cases(inManifestAt: tree.manifest)
        } catch {
            printError("forge check: \(error)")
            throw error.isIOError ? ForgeExit.ioError.code : ForgeExit.malformedInput.code
        }
        let ids = Set(allCases.map(\.id))
        for id in cases where !ids.contains(id) {
            printError("forge check: no case '\(id)' in the fixture tree; cases: \(allCases.map(\.id).joined(separator: ", "))")
            throw ExitCode.validationFailure
        }
        let selected = allCases.filter { treeCase in
            let caseTags = Set(treeCase.description.tags?.map(\.rawValue) ?? [])
            return (cases.isEmpty || cases.contains(treeCase.id))
                && (tags.isEmpty || !caseTags.isDisjoint(with: tags)) && caseTags.isDisjoint(with: excludedTags)
        }
        guard !selected.isEmpty else {
            printError("forge check: no case is selected by --case/--tag/--exclude-tag")
            throw ExitCode.validationFailure
        }
        let known = try loadKnownFailures(ids: ids)

        let startedAt = ReceiptDate(secondsSince1970: Int64(Date().timeIntervalSince1970)).text
        let runner = CheckRunner(command: command, cases: selected, timeout: timeout, jobs: jobs,
                                 progress: !quiet && isatty(2) != 0)
        let results: [CheckResult]
        do {
            results = try runner.run().map { result in
                var result = result
                result.knownFailure = known.reasons[result.id]
                return result
            }
        } catch {
            printError("forge check: \(error)")
            throw ExitCode(127)
        }
        let report = CheckResults(harness: command.map(Self.shellQuoted).joined(separator: " "), startedAt: startedAt,
                                  results: results)
        if !quiet { printTable(report) }
        do {
            if let json { try OutputFile(path: URL(fileURLWithPath: json)).write(try forgeJSON(report)) }
            if let html { try OutputFile(path: URL(fileURLWithPath: html)).write(Array(HTMLReport.single(report).utf8)) }
            if let junit {
                try OutputFile(path: URL(fileURLWithPath: junit))
                    .write(Array(JUnitReport.render(report, strictReasons: strictReasons).utf8))
            }
        } catch let error as OutputError {
            printError("forge check: \(error)")
            throw error.exit.code
        }
        let failing = results.filter { $0.fails(strictReasons: strictReasons) }
        printError(summary(report, failing: failing.count))
        for result in results where result.knownFailure != nil && result.outcome == .pass {
            printError("note: \(result.id) is listed in \(knownFailures ?? "--known-failures") but passes now: remove it")
        }
        if !failing.isEmpty { throw ForgeExit.invalid.code }
    }

    /// The tree to check, minted into a temporary folder when none is given.
    func fixtureTree() throws -> (manifest: URL, temporary: URL?) {
        if let fixtures {
            let url = URL(fileURLWithPath: fixtures)
            return (url.pathExtension == "json" ? url : url.appendingPathComponent("manifest.json"), nil)
        }
        let forge = Forge(app: try appOptions.description(context: "forge check"), settings: try reference.settings())
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("forge-check-\(UUID().uuidString)")
        try forge.writeFixtures(to: temporary, context: "forge check")
        return (temporary.appendingPathComponent("manifest.json"), temporary)
    }

    func loadKnownFailures(ids: Set<String>) throws -> KnownFailures {
        guard let knownFailures else { return KnownFailures() }
        let input = try InputFile.load(knownFailures, content: .any, context: "forge check: --known-failures")
        do {
            return try KnownFailures(text: String(decoding: input.bytes, as: UTF8.self), file: knownFailures, knownIDs: ids)
        } catch {
            printError("forge check: \(error)")
            throw ForgeExit.malformedInput.code
        }
    }

    func printTable(_ report: CheckResults) {
        func describe(_ verdict: CheckResult.Verdict?) -> String {
            guard let verdict else { return "-" }
            return verdict.reason.map { "\(verdict.verdict.rawValue) \($0)" } ?? verdict.verdict.rawValue
        }
        let width = max(4, report.results.map(\.id.count).max() ?? 0) + 2
        print(pad("case", width) + pad("expected", 31) + pad("actual", 31) + "outcome")
        for result in report.results {
            var outcome = result.outcome.rawValue
            if result.knownFailure != nil && result.outcome != .pass { outcome += " (known)" }
            if let detail = result.detail, result.outcome != .pass { outcome += ": " + detail }
            print(pad(result.id, width) + pad(describe(result.expected), 31) + pad(describe(result.actual), 31) + outcome)
        }
    }

    func summary(_ report: CheckResults, failing: Int) -> String {
        let counts = report.counts
        let parts = CheckOutcome.allCases.compactMap { outcome in counts[outcome].map { "\($0) \(outcome.rawValue)" } }
        let known = report.results.filter { $0.knownFailure != nil && $0.outcome != .pass }.count
        return "forge check: \(report.results.count) case\(report.results.count == 1 ? "" : "s"): "
            + parts.joined(separator: ", ") + (known > 0 ? " (\(known) known)" : "")
            + (failing == 0 ? "; OK" : "; \(failing) failing")
    }

    /// An argument as a shell would need it.
    static func shellQuoted(_ argument: String) -> String {
        let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@%+,{}".contains($0) }
        return safe && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
