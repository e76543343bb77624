import Foundation
import FileAccess

/// How the forge recognises a directory it wrote, and which files in it are its own.
///
/// Every tree the forge writes holds `.forge-owned`: a header line, then the relative
/// path of each file the forge wrote, one per line. Only those files (and the record
/// itself) are ever replaced or removed; anything else in the tree (a `NOTES.md`, a
/// `.gitkeep`) is the user's and is kept. Trees written before the record existed are
/// recognised by their own signature: a fixture tree by `manifest.json` naming the
/// generator `receipt-forge`, a CA directory by the heading of its `README.md`.
public struct TreeOwnership: Sendable {
    /// Recognises a tree written before `.forge-owned` existed: the files the forge owns
    /// in `directory` (whose names are `entries`), or nil when it is not such a tree.
    public typealias LegacyRecognizer = @Sendable (_ directory: String, _ entries: [String]) throws(OutputError) -> Set<String>?

    package let legacyFiles: LegacyRecognizer

    public init(legacyFiles: @escaping LegacyRecognizer) {
        self.legacyFiles = legacyFiles
    }

    /// A tree is the forge's only when it holds `.forge-owned`.
    public static let recordOnly = TreeOwnership { _, _ in nil }

    /// The name of the ownership record in every tree the forge writes.
    public static let recordName = ".forge-owned"
    package static let recordHeader = "# receipt-forge: the files below were written by the forge; it replaces or removes only these"

    /// The record's bytes for `paths`.
    package static func record(_ paths: some Sequence<String>) -> [UInt8] {
        Array(([recordHeader] + paths.sorted()).joined(separator: "\n").utf8) + [0x0A]
    }

    /// The files the forge owns in `directory` (relative paths), or nil when the
    /// directory is not one the forge wrote. A record that names a path outside the
    /// tree is refused, not trusted.
    package func ownedFiles(in directory: String, entries: [String]) throws(OutputError) -> Set<String>? {
        if entries.contains(Self.recordName) {
            return try Self.readRecord(directory + "/" + Self.recordName)
        }
        return try legacyFiles(directory, entries)
    }

    package static func readRecord(_ path: String) throws(OutputError) -> Set<String> {
        let bytes: [UInt8]?
        do throws(FileReadError) {
            bytes = try FileReading.contents(atPath: path)
        } catch {
            throw .io(path: path, operation: "read", reason: error.reason)
        }
        guard let bytes else { throw .io(path: path, operation: "read", reason: "it is gone") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .badOwnershipRecord(path: path, reason: "is not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == recordHeader else {
            throw .badOwnershipRecord(path: path, reason: "does not start with the forge's header line")
        }
        lines.removeFirst()
        if lines.last == "" { lines.removeLast() }
        var owned: Set<String> = []
        for (index, line) in lines.enumerated() {
            guard isSafeRelativePath(line) else {
                throw .badOwnershipRecord(path: path, reason: "line \(index + 2) ('\(line)') is not a path inside the tree")
            }
            owned.insert(line)
        }
        return owned
    }

    /// A relative path of plain components: not absolute, no `.` or `..`, no empty
    /// component, no NUL or newline.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\n") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }
}
