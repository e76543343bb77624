import ArgumentParser
import Foundation
import ReceiptForge
import CheckReport
import ForgeCommandLine
import OwnedFileTree

/// `forge report RESULTS.json … [--html FILE]`: several validators' results in one matrix.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Merge the results of several validators (`forge check --json`) into one matrix: cases × validators.",
        discussion: """
            Each RESULTS.json is the --json file of one `forge check` run. The matrix has a row per case (the \
            union of the cases of every file, in the order they first appear), grouped by the case's first \
            tag, with its importance (critical: a validator that gets it wrong accepts a forged or stolen \
            receipt; high: it rejects a paying user's valid receipt; low: strictness), and a column per \
            validator, named by the file's harness command (the same command twice is numbered: CMD (1), \
            CMD (2)). Each column is summarised: passes / total, and the failures (fail, crash, hang, error) \
            per importance.

            Without --html the matrix is printed on standard output as text. With --html FILE it is written \
            to FILE as one self-contained HTML page (no external assets, no script), each cell coloured by \
            outcome and labelled in words, with the validator's verdict and, as a tooltip, its details. FILE \
            is replaced atomically, and only if it is a regular file or absent. Everything taken from the \
            results files is treated as untrusted: cut, control characters made visible, escaped.

            Exit codes: 0 the matrix was written (whatever the validators' outcomes: the gate is \
            `forge check`); 64 usage error; \(ForgeExit.malformedInput.rawValue) a results file is not JSON, \
            not a results file or another format version (the error names the file and the JSON location); \
            \(ForgeExit.cannotCreate.rawValue) FILE cannot be created (a directory or link is in the way); \
            \(ForgeExit.ioError.rawValue) a results file or FILE cannot be read or written.

            Examples:
              forge check --json ours.json -- Harnesses/forge-verify.sh
              forge check --json openssl.json -- Harnesses/openssl.sh
              forge report ours.json openssl.json --html results.html
              forge report ours.json openssl.json          # the matrix as text
            """
    )

    @Argument(help: ArgumentHelp("Results files written by `forge check --json`, one per validator.",
                                 valueName: "RESULTS.json"))
    var results: [String] = []

    @Option(help: ArgumentHelp("Write the matrix as one self-contained HTML page to FILE instead of printing it.",
                               valueName: "FILE"))
    var html: String?

    func validate() throws {
        guard !results.isEmpty else {
            throw ValidationError("give at least one RESULTS.json (written by `forge check --json FILE`)")
        }
    }

    func run() throws {
        var runs: [CheckResults] = []
        for path in results {
            do throws(ResultsFile.Failure) {
                runs.append(try ResultsFile.load(path))
            } catch {
                printError("forge report: \(error)")
                throw (error.isIOError ? ForgeExit.ioError : ForgeExit.malformedInput).code
            }
        }
        guard let html else {
            print(TextMatrix.render(runs), terminator: "")
            return
        }
        let output = OutputFile(path: URL(fileURLWithPath: html))
        do throws(OutputError) {
            try output.write(Array(HTMLReport.matrix(runs).utf8))
        } catch {
            printError("forge report: \(error)")
            throw error.exit.code
        }
        let cases = Set(runs.flatMap { $0.results.map(\.id) }).count
        printError("forge report: wrote \(output.path): \(cases) case\(cases == 1 ? "" : "s") × \(runs.count) "
                   + "validator\(runs.count == 1 ? "" : "s")")
    }
}
