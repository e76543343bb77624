import Foundation
import ReceiptVerifier

/// Reads the bytes a subcommand operates on: a path, or `-` for standard input.
/// Binary DER/BER is taken as is; text that is base64 (with or without line breaks)
/// or PEM (`-----BEGIN …-----`) is decoded first, as receipts travel as base64.
struct InputFile {
    let name: String
    let bytes: [UInt8]

    enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case empty(String)

        var description: String {
            switch self {
            case .unreadable(let name, let reason): return "cannot read \(name): \(reason)"
            case .empty(let name): return "\(name) is empty"
            }
        }
    }

    /// Reads `path` (not `-`), or returns nil when no file exists there; a file that
    /// exists but cannot be read throws.
    static func ifPresent(_ path: String) throws(Failure) -> InputFile? {
        let raw: [UInt8]?
        do throws(FileReadError) {
            raw = try FileReading.contents(atPath: path)
        } catch {
            throw .unreadable(path, error.reason)
        }
        guard let raw else { return nil }
        return try InputFile(name: path, raw: raw)
    }

    /// Reads `path` for a subcommand, or prints why it cannot (prefixed with
    /// `context`, e.g. `forge dump` or `forge verify: --root`) and exits with
    /// `ForgeExit.ioError`.
    static func load(_ path: String, context: String) throws -> InputFile {
        do {
            return try InputFile(path: path)
        } catch {
            printError("\(context): \(error)")
            throw ForgeExit.ioError.code
        }
    }

    init(path: String) throws(Failure) {
        if path == "-" {
            try self.init(name: "standard input", raw: Array(FileHandle.standardInput.readDataToEndOfFile()))
        } else {
            guard let file = try InputFile.ifPresent(path) else { throw .unreadable(path, "no such file") }
            self = file
        }
    }

    init(name: String, raw: [UInt8]) throws(Failure) {
        guard !raw.isEmpty else { throw .empty(name) }
        self.name = name
        bytes = InputFile.decodeTextForms(raw) ?? raw
    }

    /// The decoded bytes if `raw` is PEM or base64 text, else nil.
    static func decodeTextForms(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }),
              var text = String(bytes: raw, encoding: .ascii) else { return nil }
        if text.hasPrefix("-----BEGIN") {
            text = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        }
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, let data = Data(base64Encoded: compact) else { return nil }
        return Array(data)
    }
}
