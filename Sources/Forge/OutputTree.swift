import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes minted cases to disk. Every file is written to a temporary name and renamed
/// into place; a whole tree (`--all`) is built in a temporary sibling directory and
/// swapped in only once complete, so an existing tree is replaced only on success.
public struct OutputTree {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// The files of a case: `NAME/receipt`, `NAME/receipt.b64` (when there is a file)
    /// and `NAME/case.json`, keyed by path relative to the tree.
    public static func files(of minted: MintedCase) throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        if let receipt = minted.receipt {
            files.append(("\(minted.forgeCase.id)/receipt", receipt))
            files.append(("\(minted.forgeCase.id)/receipt.b64", Array((Data(receipt).base64EncodedString() + "\n").utf8)))
        }
        files.append(("\(minted.forgeCase.id)/case.json", try forgeJSON(minted.description)))
        return files
    }

    /// The shared files: `manifest.json` (the whole catalogue) and the trust anchors.
    public static func sharedFiles(forge: ReceiptForge, cases: [MintedCase]) throws -> [(String, [UInt8])] {
        var files = [("manifest.json", try forgeJSON(ForgeManifest(cases: cases, settings: forge.settings)))]
        for (name, certificate) in forge.anchors.sorted(by: { $0.key < $1.key }) {
            files.append(("Certs/\(name)", certificate))
        }
        return files
    }

    /// Replaces the whole tree with `files`: built beside it, then swapped in.
    public func replaceTree(with files: [(String, [UInt8])]) throws {
        let manager = FileManager.default
        let parent = directory.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).forge-\(UUID().uuidString)")
        do {
            for (path, bytes) in files {
                let url = staging.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try OutputTree.writeStagedFile(bytes, to: url)
            }
            if manager.fileExists(atPath: directory.path) {
                let old = parent.appendingPathComponent(".\(directory.lastPathComponent).old-\(UUID().uuidString)")
                try manager.moveItem(at: directory, to: old)
                do {
                    try manager.moveItem(at: staging, to: directory)
                } catch {
                    try? manager.moveItem(at: old, to: directory)
                    throw error
                }
                try? manager.removeItem(at: old)
            } else {
                try manager.moveItem(at: staging, to: directory)
            }
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
    }

    /// Writes a file of the staging tree with plain POSIX calls: Foundation's `Data.write`
    /// syncs every file to disk, which made `--all` 25 times slower; the staging tree
    /// only becomes visible through the final rename.
    static func writeStagedFile(_ bytes: [UInt8], to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            guard result > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            written += result
        }
    }

    /// Writes `files` into the existing tree (creating it), each atomically; a case
    /// directory listed in `replacing` is first emptied of stale files.
    public func update(with files: [(String, [UInt8])], replacing caseIDs: [String]) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        for id in caseIDs {
            let caseDirectory = directory.appendingPathComponent(id)
            let fresh = Set(files.map(\.0).filter { $0.hasPrefix(id + "/") }.map { String($0.dropFirst(id.count + 1)) })
            for name in (try? manager.contentsOfDirectory(atPath: caseDirectory.path)) ?? [] where !fresh.contains(name) {
                try manager.removeItem(at: caseDirectory.appendingPathComponent(name))
            }
        }
        for (path, bytes) in files {
            let url = directory.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url, options: .atomic)
        }
    }
}
