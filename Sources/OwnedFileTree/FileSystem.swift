import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls the output tree makes. Each checks its result and fails with the
/// path and the system's reason; none follows a symbolic link it did not create.
package enum FileSystem {
    package enum Kind: Equatable {
        case missing, directory, regularFile, symbolicLink, other

        var article: String {
            switch self {
            case .missing: return "missing"
            case .directory: return "a directory"
            case .regularFile: return "a regular file"
            case .symbolicLink: return "a symbolic link"
            case .other: return "a special file (device, socket or pipe)"
            }
        }
    }

    package static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// What is at `path`, without following a final symbolic link (`lstat`).
    package static func kind(_ path: String) throws(OutputError) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            switch errno {
            case ENOENT: return .missing
            case ENOTDIR, ELOOP, EACCES, ENAMETOOLONG: throw .cannotCreate(path: path, reason: reason())
            default: throw .io(path: path, operation: "inspect", reason: reason())
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The (device, inode) of `path`, without following a final link; nil when absent.
    package static func identity(_ path: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    package static func linkDestination(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "an unreadable destination" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory, `.` and `..` left out, sorted.
    package static func entries(_ path: String) throws(OutputError) -> [String] {
        guard let stream = opendir(path) else { throw .io(path: path, operation: "list", reason: reason()) }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .io(path: path, operation: "list", reason: reason()) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `mkdir -p`: creates `path` and any missing parents. A non-directory in the way
    /// is refused.
    package static func makeDirectories(_ path: String) throws(OutputError) {
        switch try kind(path) {
        case .directory: return
        case .missing: break
        case .symbolicLink:
            // A parent given as a link to a directory is the user's choice; follow it.
            var info = stat()
            if stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { return }
            throw .inTheWay(path: path, reason: "is a symbolic link that does not lead to a directory")
        case let other:
            throw .inTheWay(path: path, reason: "is \(other.article) where a directory is needed")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw .cannotCreate(path: path, reason: reason())
        }
    }

    /// Creates a new file holding `bytes` (it must not exist yet), writes it whole and,
    /// when `durable`, syncs it to disk before closing. `close` is checked.
    package static func createFile(_ path: String, _ bytes: [UInt8], durable: Bool) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: reason()) }
        var failure: OutputError?
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                failure = .io(path: path, operation: "write", reason: result < 0 ? reason() : "no progress")
                break
            }
            written += result
        }
        if failure == nil && durable && fsync(descriptor) != 0 {
            failure = .io(path: path, operation: "sync", reason: reason())
        }
        if close(descriptor) != 0 && failure == nil {
            failure = .io(path: path, operation: "close", reason: reason())
        }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Replaces (or creates) the file at `path` in one step: written under a temporary
    /// name beside it, synced, then renamed over it. On failure the temporary is removed
    /// and the old file is untouched.
    package static func replaceFile(_ path: String, _ bytes: [UInt8]) throws(OutputError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/.\((path as NSString).lastPathComponent).forge-\(UUID().uuidString)"
        try createFile(temporary, bytes, durable: true)
        do throws(OutputError) {
            try move(temporary, path)
        } catch {
            removeFile(temporary)
            throw error
        }
    }

    /// Syncs a directory's entries (new names, renames) to disk.
    package static func syncDirectory(_ path: String) throws(OutputError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open", reason: reason()) }
        var failure: OutputError?
        if fsync(descriptor) != 0 && errno != EINVAL { failure = .io(path: path, operation: "sync", reason: reason()) }
        if close(descriptor) != 0 && failure == nil { failure = .io(path: path, operation: "close", reason: reason()) }
        if let failure { throw failure }
    }

    package static func move(_ from: String, _ to: String) throws(OutputError) {
        guard rename(from, to) == 0 else {
            throw .io(path: to, operation: "rename \(from) to", reason: reason())
        }
    }

    /// Swaps two paths in one step where the system can (Linux `renameat2`
    /// `RENAME_EXCHANGE`); false when it cannot, and nothing changed.
    package static func exchange(_ first: String, _ second: String) throws(OutputError) -> Bool {
        #if os(Linux)
        let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE, <stdio.h> with _GNU_SOURCE
        if linuxRenameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 { return true }
        if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP { return false }
        throw .io(path: second, operation: "exchange \(first) with", reason: reason())
        #else
        return false
        #endif
    }

    /// A second name for an existing file (no link is followed).
    package static func hardLink(_ existing: String, _ new: String) throws(OutputError) {
        guard linkat(AT_FDCWD, existing, AT_FDCWD, new, 0) == 0 else {
            throw .cannotCreate(path: new, reason: "cannot keep \(existing) (link: \(reason()))")
        }
    }

    /// Removes a file name the forge wrote (or a second name it made); false if it failed.
    @discardableResult
    package static func removeFile(_ path: String) -> Bool { unlink(path) == 0 }

    /// Removes an empty directory; false when it is not empty or cannot be removed.
    @discardableResult
    package static func removeEmptyDirectory(_ path: String) -> Bool { rmdir(path) == 0 }
}

#if os(Linux)
/// glibc's `renameat2` (2.28 and later), which Swift's Glibc module does not export
/// because `<stdio.h>` declares it only under `_GNU_SOURCE`.
@_silgen_name("renameat2")
private func linuxRenameat2(_ oldDirectory: Int32, _ old: UnsafePointer<CChar>, _ newDirectory: Int32,
                            _ new: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
#endif
