import FileAccess
import ForgeSupport
import Foundation
import ReceiptVerifier

/// Reads the bytes a subcommand operates on: a path, or `-` for standard input.
/// Binary DER/BER is taken as is; text that is base64 (with or without line breaks)
/// or PEM (`-----BEGIN …-----`) is decoded first, as receipts travel as base64. PEM
/// must be one block, with a label the subcommand takes (`Content`).
package struct InputFile {
    package let name: String
    package let bytes: [UInt8]

    /// What a subcommand reads, and so the PEM labels it takes.
    package enum Content: Sendable {
        /// Anything (`forge asn1`, `forge dump`): every label.
        case any
        /// A PKCS#7 receipt: `PKCS7` (`openssl pkcs7`) or `CMS` (`openssl cms`).
        case receipt
        case certificate

        package var pemLabels: Set<String>? {
            switch self {
            case .any: return nil
            case .receipt: return ["PKCS7", "CMS"]
            case .certificate: return ["CERTIFICATE"]
            }
        }
    }

    /// Reads `path` (not `-`), or returns nil when no file exists there; a file that
    /// exists but cannot be read throws.
    package static func ifPresent(_ path: String, content: Content) throws(InputFileError) -> InputFile? {
        let raw: [UInt8]?
        do throws(FileReadError) {
            raw = try FileReading.contents(atPath: path)
        } catch {
            throw .unreadable(path, error.reason)
        }
        guard let raw else { return nil }
        return try InputFile(name: path, raw: raw, content: content)
    }

    /// Reads `path` for a subcommand, or prints why it cannot (prefixed with
    /// `context`, e.g. `forge dump` or `forge verify: --root`) and exits with
    /// `ForgeExit.ioError` (`ForgeExit.malformedInput` for bad PEM).
    package static func load(_ path: String, content: Content, context: String) throws -> InputFile {
        do {
            return try InputFile(path: path, content: content)
        } catch {
            printError("\(context): \(error)")
            throw error.exit.code
        }
    }

    package init(path: String, content: Content) throws(InputFileError) {
        if path == "-" {
            try self.init(name: "standard input", raw: Array(FileHandle.standardInput.readDataToEndOfFile()), content: content)
        } else {
            guard let file = try InputFile.ifPresent(path, content: content) else { throw .unreadable(path, "no such file") }
            self = file
        }
    }

    package init(name: String, raw: [UInt8], content: Content) throws(InputFileError) {
        guard !raw.isEmpty else { throw .empty(name) }
        self.name = name
        do throws(PEMError) {
            bytes = try InputFile.decodeTextForms(raw, content: content) ?? raw
        } catch {
            throw .badPEM(name, error)
        }
    }

    /// The decoded bytes if `raw` is PEM or base64 text, else nil.
    package static func decodeTextForms(_ raw: [UInt8], content: Content) throws(PEMError) -> [UInt8]? {
        guard raw.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }),
              let text = String(bytes: raw, encoding: .ascii) else { return nil }
        if PEM.hasBlock(text) {
            guard let labels = content.pemLabels else { return try PEM.decode(text).der }
            return try PEM.decode(text, labels: labels).der
        }
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, let data = Data(base64Encoded: compact) else { return nil }
        return Array(data)
    }
}

package enum InputFileError: Error, CustomStringConvertible {
    case unreadable(String, String)
    case empty(String)
    /// PEM text that is not one block of a label the subcommand takes.
    case badPEM(String, PEMError)

    package var description: String {
        switch self {
        case .unreadable(let name, let reason): return "cannot read \(name): \(reason)"
        case .empty(let name): return "\(name) is empty"
        case .badPEM(let name, let error): return "\(name): \(error)"
        }
    }

    /// The exit status: malformed input for bad PEM, else a read error.
    package var exit: ForgeExit {
        if case .badPEM = self { return .malformedInput }
        return .ioError
    }
}
