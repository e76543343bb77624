#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the input files the forge is given (`.storekit`, `--app`): whole, and at
/// most `maximumSize` bytes, so a wrong path (a disk image, `/dev/zero`) fails with a
/// clear message instead of exhausting memory.
enum InputFileReading {
    /// 16 MiB: a `.storekit` file with a thousand products is about 1 MiB.
    static let maximumSize = 16 << 20

    /// The bytes of the file at `path`. A missing file, a directory, a refused read
    /// or a file above the limit throw an `.unreadable` error naming the path.
    static func contents(of path: String) throws(AppInputError) -> [UInt8] {
        func unreadable(_ reason: String) -> AppInputError {
            AppInputError(.unreadable, file: path, "cannot read: \(reason)")
        }
        let tooLarge = unreadable("larger than \(maximumSize >> 20) MiB, the most the forge reads from an input file")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if code == ENOENT {
                throw unreadable(lstat(path, &info) == 0 ? "a symbolic link to a file that does not exist" : "no such file")
            }
            throw unreadable(FileSystem.reason(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw unreadable(FileSystem.reason()) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw unreadable("it is a directory, not a file")
        case S_IFREG where info.st_size > maximumSize: throw tooLarge
        default: break
        }
        // Pipes and devices report no size: the limit is checked while reading too.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw unreadable(FileSystem.reason()) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= maximumSize else { throw tooLarge }
        }
    }
}
