import ArgumentParser
import Foundation
import ReceiptForge
import OwnedFileTree

@main
struct ForgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forge",
        abstract: "Synthetic App Store receipts for testing receipt validators, and the tools to inspect them.",
        discussion: """
            Exit codes: 0 success; 1 verification said invalid; 64 usage error; \(ForgeExit.malformedInput.rawValue) \
            malformed input (the error names the path and byte offset); \(ForgeExit.internalFailure.rawValue) \
            internal failure (minting or key generation); \(ForgeExit.cannotCreate.rawValue) the output cannot \
            be created (a file or a directory the forge did not write is in the way; nothing was touched); \
            \(ForgeExit.ioError.rawValue) a file could not be read or written (the error gives the system's reason).
            """,
        subcommands: [MintCommand.self, ListCommand.self, DumpCommand.self, CACommand.self, ASN1Command.self, VerifyCommand.self,
                      CheckCommand.self, ReportCommand.self, JWSCommand.self, MutateCommand.self, ServeCommand.self,
                      ScenarioCommand.self, NotifyCommand.self],
        defaultSubcommand: MintCommand.self
    )
}

/// Exit statuses shared by every subcommand, so scripts can tell them apart.
enum ForgeExit: Int32 {
    case invalid = 1
    case malformedInput = 65   // EX_DATAERR
    case internalFailure = 70  // EX_SOFTWARE: minting or key generation failed
    case cannotCreate = 73     // EX_CANTCREAT: the output cannot be created (something in the way)
    case ioError = 74          // EX_IOERR: reading or writing failed

    var code: ExitCode { ExitCode(rawValue) }
}

extension OutputError {
    /// 74 when reading or writing failed, 73 when the output cannot be created.
    var exit: ForgeExit { isIOError ? .ioError : .cannotCreate }
}

/// Runs a tree write for a subcommand: a write error exits 73 or 74, a minting error
/// 70, each printed after `context` (`forge`, `forge check`, `forge jws`).
func writingFixtures(context: String, _ write: () throws -> OutputTree.Report) throws -> OutputTree.Report {
    do {
        return try write()
    } catch let error as OutputError {
        printError("\(context): \(error)")
        throw error.exit.code
    } catch {
        printError("\(context): minting failed: \(error)")
        throw ForgeExit.internalFailure.code
    }
}

extension FixtureForge {
    /// `write` for a subcommand (see `writingFixtures`).
    @discardableResult
    func writeFixtures(_ cases: [Case] = Case.catalogue, to directory: URL, context: String,
                       progress: (Minted) -> Void = { _ in }) throws -> OutputTree.Report {
        try writingFixtures(context: context) { try write(cases, to: directory, progress: progress) }
    }
}
