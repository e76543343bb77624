import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes minted cases to disk, and never touches a file it did not write.
///
/// **Ownership.** The output directory must not exist, be empty, or be a tree the
/// forge wrote (see `TreeOwnership`). Anything else is refused before a byte is
/// written. Inside a forge tree, files the forge did not write are kept.
///
/// **Atomicity.** `replaceTree` (`--all`, `forge ca`) builds the whole new tree in a
/// hidden sibling directory, syncs every file and directory of it to disk, gives the
/// user's own files a second name in it (a hard link: same file, nothing copied), and
/// then swaps it with the old tree in one step (`renameat2(RENAME_EXCHANGE)` on Linux,
/// two renames elsewhere). A crash or power cut leaves the old tree or the new one,
/// never a mix. `update` (`--case`) writes each file to a temporary name, syncs it and
/// renames it into place.
public struct OutputTree {
    public let directory: URL
    public let ownership: TreeOwnership

    /// What a write did besides writing the forge's files.
    public struct Report: Sendable, Hashable {
        /// Files in the tree the forge did not write, kept where they were.
        public var kept: [String] = []
        /// The old tree, when it could not be removed whole after the swap (it then
        /// still holds something the forge did not write; nothing was deleted from it
        /// but the forge's own files).
        public var leftBehind: String?
    }

    public init(directory: URL, ownership: TreeOwnership) {
        self.directory = directory.standardizedFileURL
        self.ownership = ownership
    }

    package var path: String { directory.path }

    // MARK: What is there now

    /// The directory as found: the forge's files, the user's, and every folder.
    package struct Existing {
        var owned: Set<String> = []
        /// Everything that is not a directory and not the forge's, relative, sorted.
        var userFiles: [String] = []
        /// Every directory below the root, relative, parents before children.
        var directories: [String] = []
        /// Directories that held nothing at all.
        var emptyDirectories: Set<String> = []
    }

    /// Nil when nothing is at the path; throws when something is there that the forge
    /// may not replace.
    package func inspect() throws(OutputError) -> Existing? {
        switch try FileSystem.kind(path) {
        case .missing: return nil
        case .directory: break
        case .symbolicLink: throw .symbolicLink(path: path, destination: FileSystem.linkDestination(path))
        case let other: throw .notADirectory(path: path, kind: other.article)
        }
        let entries = try FileSystem.entries(path)
        var existing = Existing()
        if entries.isEmpty { return existing }
        guard let owned = try ownership.ownedFiles(in: path, entries: entries) else {
            throw .notOwned(path: path, found: entries)
        }
        try walk("", into: &existing, owned: owned)
        return existing
    }

    private func walk(_ relative: String, into existing: inout Existing, owned: Set<String>) throws(OutputError) {
        let absolute = relative.isEmpty ? path : path + "/" + relative
        let names = try FileSystem.entries(absolute)
        if names.isEmpty && !relative.isEmpty { existing.emptyDirectories.insert(relative) }
        for name in names {
            let child = relative.isEmpty ? name : relative + "/" + name
            if try FileSystem.kind(path + "/" + child) == .directory {
                existing.directories.append(child)
                try walk(child, into: &existing, owned: owned)
            } else if owned.contains(child) || child == TreeOwnership.recordName {
                existing.owned.insert(child)
            } else {
                existing.userFiles.append(child)
            }
        }
    }

    /// Refuses new files that would land on, or under, something of the user's.
    package func checkNothingInTheWay(_ newPaths: [String], _ existing: Existing) throws(OutputError) {
        let userFiles = Set(existing.userFiles)
        let directories = Set(existing.directories)
        for newPath in newPaths {
            guard TreeOwnership.isSafeRelativePath(newPath) else {
                throw .inTheWay(path: newPath, reason: "is not a path inside the tree")
            }
            if userFiles.contains(newPath) {
                throw .inTheWay(path: path + "/" + newPath, reason: "exists and was not written by the forge")
            }
            if directories.contains(newPath) {
                throw .inTheWay(path: path + "/" + newPath, reason: "is a directory where the forge writes a file")
            }
            var parent = (newPath as NSString).deletingLastPathComponent
            while !parent.isEmpty {
                if userFiles.contains(parent) {
                    throw .inTheWay(path: path + "/" + parent, reason: "is a file the forge did not write, where it needs a directory")
                }
                parent = (parent as NSString).deletingLastPathComponent
            }
        }
    }

    // MARK: Replacing the whole tree

    /// Replaces the forge's files in the tree with `files` (the user's files are kept):
    /// built beside it, synced, then swapped in. On any error the old tree is as it was.
    @discardableResult
    public func replaceTree(with files: [(String, [UInt8])]) throws(OutputError) -> Report {
        let existing = try inspect()
        let parent = (path as NSString).deletingLastPathComponent
        try FileSystem.makeDirectories(parent)
        if let existing { try checkNothingInTheWay(files.map(\.0), existing) }

        let staging = parent + "/.\(directory.lastPathComponent).forge-staging-\(UUID().uuidString)"
        guard mkdir(staging, 0o755) == 0 else {
            throw .cannotCreate(path: path, reason: "\(FileSystem.reason()) (making the staging folder \(staging))")
        }
        var stagedDirectories: [String] = [""]
        var stagedFiles: [String] = []
        func makeStagedDirectory(_ relative: String) throws(OutputError) {
            guard !relative.isEmpty, !stagedDirectories.contains(relative) else { return }
            try makeStagedDirectory((relative as NSString).deletingLastPathComponent)
            guard mkdir(staging + "/" + relative, 0o755) == 0 else {
                throw .cannotCreate(path: staging + "/" + relative, reason: FileSystem.reason())
            }
            stagedDirectories.append(relative)
        }
        var swapped = false
        do throws(OutputError) {
            for (relative, bytes) in files {
                try makeStagedDirectory((relative as NSString).deletingLastPathComponent)
                try FileSystem.createFile(staging + "/" + relative, bytes, durable: true)
                stagedFiles.append(relative)
            }
            if let existing {
                for relative in existing.emptyDirectories.sorted() { try makeStagedDirectory(relative) }
                for relative in existing.userFiles {
                    try makeStagedDirectory((relative as NSString).deletingLastPathComponent)
                    try FileSystem.hardLink(path + "/" + relative, staging + "/" + relative)
                    stagedFiles.append(relative)
                }
            }
            try FileSystem.createFile(staging + "/" + TreeOwnership.recordName,
                                      TreeOwnership.record(files.map(\.0)), durable: true)
            stagedFiles.append(TreeOwnership.recordName)
            for relative in stagedDirectories.reversed() {
                try FileSystem.syncDirectory(relative.isEmpty ? staging : staging + "/" + relative)
            }
            if existing == nil {
                try FileSystem.move(staging, path)
            } else if try FileSystem.exchange(staging, path) {
                // `staging` now holds the old tree.
            } else {
                let old = parent + "/.\(directory.lastPathComponent).forge-old-\(UUID().uuidString)"
                try FileSystem.move(path, old)
                do throws(OutputError) {
                    try FileSystem.move(staging, path)
                } catch {
                    try? FileSystem.move(old, path)
                    throw error
                }
                try FileSystem.move(old, staging)
            }
            swapped = true
            try FileSystem.syncDirectory(parent)
        } catch {
            if !swapped { Self.removeStaged(staging, files: stagedFiles, directories: stagedDirectories) }
            throw error
        }
        var report = Report(kept: existing?.userFiles ?? [])
        if let existing { report.leftBehind = removeOldTree(at: staging, existing) }
        return report
    }

    /// Removes what the forge itself put into a staging directory, and the directory.
    package static func removeStaged(_ staging: String, files: [String], directories: [String]) {
        for relative in files { FileSystem.removeFile(staging + "/" + relative) }
        for relative in directories.reversed() {
            FileSystem.removeEmptyDirectory(relative.isEmpty ? staging : staging + "/" + relative)
        }
    }

    /// After the swap: removes the old tree's own files, and the old names of the
    /// user's files (only where the new tree holds the very same file). Returns the
    /// old tree's path when anything is left in it.
    package func removeOldTree(at old: String, _ existing: Existing) -> String? {
        for relative in existing.owned { FileSystem.removeFile(old + "/" + relative) }
        for relative in existing.userFiles {
            if let kept = FileSystem.identity(path + "/" + relative), let before = FileSystem.identity(old + "/" + relative),
               kept == before {
                FileSystem.removeFile(old + "/" + relative)
            }
        }
        for relative in existing.directories.reversed() { FileSystem.removeEmptyDirectory(old + "/" + relative) }
        return FileSystem.removeEmptyDirectory(old) ? nil : old
    }

    // MARK: Updating some cases

    /// Writes `files` into the tree (creating it), each atomically; the forge's stale
    /// files in the case folders of `caseIDs` are removed, nothing else is.
    @discardableResult
    public func update(with files: [(String, [UInt8])], replacing caseIDs: [String]) throws(OutputError) -> Report {
        let existing: Existing
        if let found = try inspect() {
            existing = found
        } else {
            try FileSystem.makeDirectories(path)
            existing = Existing()
        }
        let newPaths = Set(files.map(\.0))
        try checkNothingInTheWay(Array(newPaths), existing)
        let stale = existing.owned.filter { owned in
            !newPaths.contains(owned) && caseIDs.contains { owned.hasPrefix($0 + "/") }
        }
        for relative in stale.sorted() {
            guard FileSystem.removeFile(path + "/" + relative) else {
                throw .io(path: path + "/" + relative, operation: "remove", reason: FileSystem.reason())
            }
        }
        var touched: Set<String> = [path]
        for (relative, bytes) in files {
            let folder = (relative as NSString).deletingLastPathComponent
            try FileSystem.makeDirectories(folder.isEmpty ? path : path + "/" + folder)
            try writeAtomically(relative, bytes)
            touched.insert(folder.isEmpty ? path : path + "/" + folder)
        }
        let owned = existing.owned.subtracting(stale).subtracting([TreeOwnership.recordName]).union(newPaths)
        try writeAtomically(TreeOwnership.recordName, TreeOwnership.record(owned))
        for folder in touched.sorted(by: >) { try FileSystem.syncDirectory(folder) }
        return Report(kept: existing.userFiles)
    }

    /// Writes one file of the tree under a temporary name, syncs it, renames it into place.
    package func writeAtomically(_ relative: String, _ bytes: [UInt8]) throws(OutputError) {
        try FileSystem.replaceFile(path + "/" + relative, bytes)
    }
}
