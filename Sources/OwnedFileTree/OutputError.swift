/// Why the forge did not write its output. Every case names the path and, where the
/// system refused, the system's own reason (the `strerror` text of `errno`).
///
/// Two kinds, told apart by `isIOError`: the output cannot be created (something is
/// in the way, or the place cannot be written: `EX_CANTCREAT`, exit 73), or reading
/// and writing failed part-way (`EX_IOERR`, exit 74). Whenever one of these is thrown,
/// what was at the output path before is still there, unchanged.
public enum OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory holds files and is not a tree the forge wrote (no `.forge-owned`
    /// list and no forge `manifest.json`): the forge refuses to replace it.
    case notOwned(path: String, found: [String])
    /// The output path exists and is not a directory (a regular file, a device …).
    case notADirectory(path: String, kind: String)
    /// A single output file's path holds a directory or a special file.
    case notARegularFile(path: String, kind: String)
    /// The output path is a symbolic link; the forge does not write through links.
    case symbolicLink(path: String, destination: String)
    /// A file the forge did not write stands where the forge must write (or where it
    /// needs a directory).
    case inTheWay(path: String, reason: String)
    /// The tree claims to be the forge's, but its ownership record cannot be trusted
    /// (a path outside the tree, a line that does not parse).
    case badOwnershipRecord(path: String, reason: String)
    /// A directory or file could not be created (`mkdir`, `open`, `link` refused).
    case cannotCreate(path: String, reason: String)
    /// Reading, writing, syncing, closing or renaming failed.
    case io(path: String, operation: String, reason: String)

    /// True for failures of reading or writing (exit 74), false when the output cannot
    /// be created at all (exit 73).
    public var isIOError: Bool {
        if case .io = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .notOwned(let path, let found):
            let shown = found.prefix(5).joined(separator: ", ") + (found.count > 5 ? ", … (\(found.count) entries)" : "")
            return "\(path) is not empty and was not written by the forge (it holds \(shown)); "
                + "give an empty or new directory with --out, or remove its contents yourself"
        case .notADirectory(let path, let kind):
            return "\(path) is \(kind), not a directory; give a directory with --out"
        case .notARegularFile(let path, let kind):
            return "\(path) is \(kind), not a regular file; the forge replaces only files"
        case .symbolicLink(let path, let destination):
            return "\(path) is a symbolic link (to \(destination)); the forge does not write through links: "
                + "give the real path"
        case .inTheWay(let path, let reason):
            return "\(path): \(reason); nothing was written"
        case .badOwnershipRecord(let path, let reason):
            return "\(path): \(reason); nothing was written"
        case .cannotCreate(let path, let reason):
            return "cannot create \(path): \(reason)"
        case .io(let path, let operation, let reason):
            return "cannot \(operation) \(path): \(reason)"
        }
    }
}
