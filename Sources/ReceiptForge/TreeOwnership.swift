import Foundation
import ReceiptVerifier

/// How the forge recognises a directory it wrote, and which files in it are its own.
///
/// Every tree the forge writes holds `.forge-owned`: a header line, then the relative
/// path of each file the forge wrote, one per line. Only those files (and the record
/// itself) are ever replaced or removed; anything else in the tree (a `NOTES.md`, a
/// `.gitkeep`) is the user's and is kept. Trees written before the record existed are
/// recognised by their own signature: a fixture tree by `manifest.json` naming the
/// generator `receipt-forge`, a CA directory by the heading of its `README.md`.
public enum TreeOwnership: Sendable {
    /// A fixture tree (`forge --all`, `forge --case`).
    case fixtures
    /// A certificate-authority directory (`forge ca`).
    case certificateAuthority

    /// The name of the ownership record in every tree the forge writes.
    public static let recordName = ".forge-owned"
    static let recordHeader = "# receipt-forge: the files below were written by the forge; it replaces or removes only these"

    /// The record's bytes for `paths`.
    static func record(_ paths: some Sequence<String>) -> [UInt8] {
        Array(([recordHeader] + paths.sorted()).joined(separator: "\n").utf8) + [0x0A]
    }

    /// The files the forge owns in `directory` (relative paths), or nil when the
    /// directory is not one the forge wrote. A record that names a path outside the
    /// tree is refused, not trusted.
    func ownedFiles(in directory: String, entries: [String]) throws(OutputError) -> Set<String>? {
        if entries.contains(Self.recordName) {
            return try Self.readRecord(directory + "/" + Self.recordName)
        }
        switch self {
        case .fixtures: return try Self.legacyFixtureFiles(in: directory, entries: entries)
        case .certificateAuthority: return Self.legacyAuthorityFiles(in: directory, entries: entries)
        }
    }

    static func readRecord(_ path: String) throws(OutputError) -> Set<String> {
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

    /// A tree from before `.forge-owned`: `manifest.json` with generator `receipt-forge`;
    /// owned are the manifest, the anchors under `Certs/` and each case's three files.
    static func legacyFixtureFiles(in directory: String, entries: [String]) throws(OutputError) -> Set<String>? {
        let path = directory + "/manifest.json"
        guard entries.contains("manifest.json"), let data = FileManager.default.contents(atPath: path),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              manifest["generator"] as? String == "receipt-forge" else { return nil }
        var owned: Set<String> = ["manifest.json", "Certs/root.cer", "Certs/root.pem", "Certs/storekit.cer", "Certs/storekit.pem"]
        for entry in manifest["cases"] as? [[String: Any]] ?? [] {
            guard let id = entry["id"] as? String, isSafeRelativePath(id), !id.contains("/") else {
                throw .badOwnershipRecord(path: path, reason: "a case id is not a plain folder name")
            }
            owned.formUnion(["\(id)/receipt", "\(id)/receipt.b64", "\(id)/case.json"])
        }
        return owned
    }

    /// A CA directory from before `.forge-owned`: its `README.md` starts with the
    /// forge's heading; owned are that README and the CA's certificate and key files.
    static func legacyAuthorityFiles(in directory: String, entries: [String]) -> Set<String>? {
        let heading = CertificateAuthority.readme.split(separator: "\n").first.map(String.init) ?? ""
        guard entries.contains("README.md"), let data = FileManager.default.contents(atPath: directory + "/README.md"),
              String(decoding: data.prefix(heading.utf8.count), as: UTF8.self) == heading else { return nil }
        var owned: Set<String> = ["README.md"]
        for stem in CertificateAuthority.fileStems + JWSAuthority.fileStems {
            owned.formUnion(["\(stem).cer", "\(stem).pem", "\(stem).key.pem"])
        }
        return owned
    }
}
