import Foundation

/// Prints `message` and a newline on standard error: where every subcommand of `forge`
/// and `forge-serve` says what went wrong, so standard output stays the result.
public func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}

/// Standard error as a `TextOutputStream`, unbuffered.
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
