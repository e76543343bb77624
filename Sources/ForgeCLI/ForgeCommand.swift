import ArgumentParser

@main
struct ForgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forge",
        abstract: "Synthetic App Store receipts for testing receipt validators, and the tools to inspect them.",
        discussion: """
            Exit codes: 0 success; 1 verification said invalid; \(ForgeExit.malformedInput.rawValue) malformed \
            input (the error names the byte offset); \(ForgeExit.ioError.rawValue) a file could not be read or \
            written; 64 usage error.
            """,
        subcommands: [MintCommand.self, ListCommand.self, DumpCommand.self, CACommand.self, ASN1Command.self, VerifyCommand.self],
        defaultSubcommand: MintCommand.self
    )
}

/// Exit statuses shared by every subcommand, so scripts can tell them apart.
enum ForgeExit: Int32 {
    case invalid = 1
    case malformedInput = 65   // EX_DATAERR
    case ioError = 74          // EX_IOERR

    var code: ExitCode { ExitCode(rawValue) }
}
