import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that is there but cannot be read: a directory, a permission failure, a
/// dangling symbolic link, a read error. Not the same as no file at all, which for a
/// receipt is the verdict `missing`.
public struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The system refused or failed the read (`open`, `fstat`, `read`); `reason` is `strerror`.
        case system
        /// A directory is at the path.
        case directory
        /// A symbolic link to a file that does not exist.
        case danglingLink
        /// Longer than the caller's limit.
        case tooLarge
    }

    public let path: String
    public let code: Code
    /// The system's reason (`strerror`), or what is at the path instead of a file.
    public let reason: String

    public init(path: String, code: Code, reason: String) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// Reads whole files, telling "nothing there" (nil) from "cannot read it" (an error).
public enum FileReading {
    /// The bytes of the file at `path`; nil only when no file exists there (`ENOENT`
    /// and no dangling link). Everything else that stops the read throws, and so does
    /// a file longer than `limit` bytes (checked while reading too: pipes and devices
    /// report no size).
    public static func contents(atPath path: String, limit: Int = .max) throws(FileReadError) -> [UInt8]? {
        func failure(_ code: Int32 = errno) -> FileReadError {
            FileReadError(path: path, code: .system, reason: String(cString: strerror(code)))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if code == ENOENT {
                guard lstat(path, &info) == 0 else { return nil }
                throw FileReadError(path: path, code: .danglingLink, reason: "a symbolic link to a file that does not exist")
            }
            throw failure(code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure() }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileReadError(path: path, code: .directory, reason: "is a directory, not a file") }
        let tooLarge = FileReadError(path: path, code: .tooLarge, reason: "larger than \(limit) bytes, the most read from such a file")
        if info.st_mode & S_IFMT == S_IFREG && info.st_size > limit { throw tooLarge }
        var bytes: [UInt8] = []
        if info.st_mode & S_IFMT == S_IFREG { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure() }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw tooLarge }
        }
    }
}
