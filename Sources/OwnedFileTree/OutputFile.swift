import Foundation

/// One file the user names for output (`forge ca --swift FILE`): replaced atomically
/// (temporary name, synced, renamed), and only if it is a regular file or absent.
public struct OutputFile: Sendable {
    public let path: String

    public init(path: URL) {
        self.path = path.standardizedFileURL.path
    }

    /// Throws when the file cannot be replaced: a directory, link or special file is
    /// there, or its folder is missing or not a directory.
    public func checkWritable() throws(OutputError) {
        switch try FileSystem.kind(path) {
        case .missing, .regularFile: break
        case .symbolicLink: throw .symbolicLink(path: path, destination: FileSystem.linkDestination(path))
        case let other: throw .notARegularFile(path: path, kind: other.article)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let kind = try FileSystem.kind(folder)
        guard kind == .directory else {
            throw .cannotCreate(path: path, reason: kind == .missing ? "its folder \(folder) does not exist"
                                                                     : "\(folder) is \(kind.article), not a folder")
        }
    }

    public func write(_ bytes: [UInt8]) throws(OutputError) {
        try checkWritable()
        try FileSystem.replaceFile(path, bytes)
        try FileSystem.syncDirectory((path as NSString).deletingLastPathComponent)
    }
}
