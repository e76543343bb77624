import ArgumentParser
import Foundation
import ReceiptForge
import OwnedFileTree
import ForgeCommandLine

/// `forge`: hands a server command over to `forge-serve` before any parsing (so
/// `forge serve --help` is the real help), and parses the rest itself.
@main
enum ForgeMain {
    static func main() async {
        if let arguments = ServerCommandHandOver.arguments(for: Array(CommandLine.arguments.dropFirst())) {
            ServerCommandHandOver.run(arguments)
        }
        await ForgeCommand.main()
    }
}

struct ForgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forge",
        abstract: "Synthetic App Store receipts for testing receipt validators, and the tools to inspect them.",
        discussion: """
            Exit codes: 0 success; 1 verification said invalid; 64 usage error; \(ForgeExit.malformedInput.rawValue) \
            malformed input (the error names the path and byte offset); \(ForgeExit.internalFailure.rawValue) \
            internal failure (minting or key generation); \(ForgeExit.cannotCreate.rawValue) the output cannot \
            be created (a file or a directory the forge did not write is in the way; nothing was touched); \
            \(ForgeExit.ioError.rawValue) a file could not be read or written (the error gives the system's reason); \
            \(ForgeExit.unavailable.rawValue) `forge serve`, `forge notify` or `forge scenario run --notify` finds no \
            forge-serve beside forge and cannot build it.
            """,
        subcommands: [MintCommand.self, ListCommand.self, DumpCommand.self, CACommand.self, ASN1Command.self, VerifyCommand.self,
                      CheckCommand.self, ReportCommand.self, JWSCommand.self, MutateCommand.self, ServeHandOverCommand.self,
                      ScenarioCommand.self, NotifyHandOverCommand.self, HealthHandOverCommand.self],
        defaultSubcommand: MintCommand.self
    )
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
