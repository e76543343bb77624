import Foundation
import ReceiptVerifier

/// Reading a `--json` results file of `forge check` back (`forge report`).
public enum ResultsFile {
    /// 64 MiB: the results of the whole catalogue are about 100 KiB.
    public static let maximumSize = 64 << 20

    /// Why a results file cannot be used.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Missing, a directory, unreadable, or above `maximumSize` (exit 74).
        case unreadable(path: String, reason: String)
        /// Not JSON, not a results file, or another format version (exit 65); the
        /// reason names the JSON location (`$.results[3].outcome: …`).
        case malformed(path: String, reason: String)

        public var isIOError: Bool {
            if case .unreadable = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
            case .malformed(let path, let reason): return "\(path): \(reason)"
            }
        }
    }

    /// The results in the file at `path`.
    public static func load(_ path: String) throws(Failure) -> CheckResults {
        let bytes: [UInt8]
        do {
            guard let read = try FileReading.contents(atPath: path, limit: maximumSize) else {
                throw Failure.unreadable(path: path, reason: "no such file")
            }
            bytes = read
        } catch let error as FileReadError {
            throw .unreadable(path: path, reason: error.reason)
        } catch let error as Failure {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        return try decode(bytes, path: path)
    }

    /// The results in `bytes`, read from `path` (named in errors).
    public static func decode(_ bytes: [UInt8], path: String) throws(Failure) -> CheckResults {
        // The version first, so a future format is named as such rather than as a missing field.
        struct Versioned: Decodable { let version: Int }
        let results: CheckResults
        do {
            let version = try JSONDecoder().decode(Versioned.self, from: Data(bytes)).version
            guard version == CheckResults.currentVersion else {
                throw Failure.malformed(path: path, reason: "$.version: results format \(version); this forge reads "
                                            + "format \(CheckResults.currentVersion)")
            }
            results = try JSONDecoder().decode(CheckResults.self, from: Data(bytes))
        } catch let error as Failure {
            throw error
        } catch let error as DecodingError {
            throw .malformed(path: path, reason: "not a results file of `forge check --json`: "
                                 + ManifestVerifier.jsonLocation(of: error))
        } catch {
            throw .malformed(path: path, reason: "not a results file of `forge check --json`: \(error)")
        }
        return results
    }
}
