import ArgumentParser
import OwnedFileTree

/// Exit statuses shared by every subcommand, so scripts can tell them apart.
package enum ForgeExit: Int32 {
    case invalid = 1
    case malformedInput = 65   // EX_DATAERR
    case internalFailure = 70  // EX_SOFTWARE: minting or key generation failed
    case cannotCreate = 73     // EX_CANTCREAT: the output cannot be created (something in the way)
    case ioError = 74          // EX_IOERR: reading or writing failed
    case unavailable = 69      // EX_UNAVAILABLE: forge-serve is missing and cannot be built

    package var code: ExitCode { ExitCode(rawValue) }
}

extension OutputError {
    /// 74 when reading or writing failed, 73 when the output cannot be created.
    package var exit: ForgeExit { isIOError ? .ioError : .cannotCreate }
}
