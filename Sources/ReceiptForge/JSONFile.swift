import FileAccess
import ReceiptVerifier
import StrictJSON

/// Why a JSON file the forge reads back (a fixture tree's manifest and case files, a
/// results file of `forge check`) cannot be used.
public enum JSONFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Missing, a directory, unreadable, or too large (exit 74).
    case unreadable(path: String, reason: String)
    /// Not JSON, not of the expected shape, or naming something it may not (exit 65);
    /// the reason names the JSON location (`$.cases[3].expected: …`).
    case malformed(path: String, reason: String)

    /// True for `unreadable`: the command exits 74 rather than 65.
    public var isIOError: Bool {
        if case .unreadable = self { return true }
        return false
    }

    /// The path and what is wrong with it.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .malformed(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// Reads and decodes those files, every error with the path and the JSON location.
public enum JSONFile {
    /// The whole file, at most `limit` bytes.
    public static func read(_ path: String, limit: Int = .max) throws(JSONFileError) -> [UInt8] {
        let bytes: [UInt8]?
        do throws(FileReadError) {
            bytes = try FileReading.contents(atPath: path, limit: limit)
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
        guard let bytes else { throw .unreadable(path: path, reason: "no such file") }
        return bytes
    }

    /// `bytes` decoded as `T` through the strict parser (`StrictJSON`); `what` starts the
    /// message of a malformed file ("does not decode", "not a results file of `forge
    /// check --json`"), the JSON location follows (`$.cases[3].expected: …`, or `$:
    /// invalid JSON at line 2, column 5 (byte offset 17): …`).
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], path: String,
                                            what: String = "does not decode") throws(JSONFileError) -> T {
        do throws(JSONInputError) {
            return try JSONInput.parse(bytes, file: path).decode(T.self)
        } catch {
            throw .malformed(path: path, reason: "\(what): \(error.location): \(error.reason)")
        }
    }
}
