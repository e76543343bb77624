import Foundation
import ReceiptVerifier
import ReceiptForge

/// Reading a `--json` results file of `forge check` back (`forge report`).
public enum ResultsFile {
    /// 64 MiB: the results of the whole catalogue are about 100 KiB.
    public static let maximumSize = 64 << 20

    /// Why a results file cannot be used: unreadable or above `maximumSize` (74);
    /// not JSON, not a results file, or another format version (65).
    public typealias Failure = JSONFileError

    /// The results in the file at `path`.
    public static func load(_ path: String) throws(Failure) -> CheckResults {
        let bytes = try JSONFile.read(path, limit: maximumSize)
        return try decode(bytes, path: path)
    }

    /// The results in `bytes`, read from `path` (named in errors).
    public static func decode(_ bytes: [UInt8], path: String) throws(Failure) -> CheckResults {
        // The version first, so a future format is named as such rather than as a missing field.
        struct Versioned: Decodable { let version: Int }
        let what = "not a results file of `forge check --json`"
        let version = try JSONFile.decode(Versioned.self, from: bytes, path: path, what: what).version
        guard version == CheckResults.currentVersion else {
            throw .malformed(path: path, reason: "$.version: results format \(version); this forge reads "
                                 + "format \(CheckResults.currentVersion)")
        }
        return try JSONFile.decode(CheckResults.self, from: bytes, path: path, what: what)
    }
}
