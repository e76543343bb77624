import Foundation
import ReceiptVerifier

/// Why a JSON file the forge reads back (a fixture tree's manifest and case files, a
/// results file of `forge check`) cannot be used.
public enum JSONFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Missing, a directory, unreadable, or too large (exit 74).
    case unreadable(path: String, reason: String)
    /// Not JSON, not of the expected shape, or naming something it may not (exit 65);
    /// the reason names the JSON location (`$.cases[3].expected: …`).
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

    /// `bytes` decoded as `T`; `what` starts the message of a malformed file
    /// ("does not decode", "not a results file of `forge check --json`").
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], path: String,
                                            what: String = "does not decode") throws(JSONFileError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .malformed(path: path, reason: "\(what): " + jsonLocation(of: error))
        } catch {
            throw .malformed(path: path, reason: "\(what): \(error)")
        }
    }

    /// A decoding error as `$.cases[3].expected: …`.
    public static func jsonLocation(of error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("$") { text, key in
                key.intValue.map { "\(text)[\($0)]" } ?? "\(text).\(key.stringValue)"
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): the field '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?).flatMap { $0.userInfo[NSDebugDescriptionErrorKey] as? String }
            return "\(path(context.codingPath)): \(context.debugDescription)" + (underlying.map { " (\($0))" } ?? "")
        @unknown default:
            return "\(error)"
        }
    }
}
