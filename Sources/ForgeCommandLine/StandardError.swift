import Foundation

/// Prints `message` and a newline on standard error: where every subcommand of `forge`
/// and `forge-serve` says what went wrong, so standard output stays the result.
package func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}

/// Standard error as a `TextOutputStream`, unbuffered.
package struct StandardError: TextOutputStream {
    package init() {}

    package mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
