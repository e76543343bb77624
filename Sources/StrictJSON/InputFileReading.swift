import FileAccess

/// Reads the input files the forge is given (`.storekit`, `--app`): whole, and at
/// most `maximumSize` bytes, so a wrong path (a disk image, `/dev/zero`) fails with a
/// clear message instead of exhausting memory.
package enum InputFileReading {
    /// 16 MiB: a `.storekit` file with a thousand products is about 1 MiB.
    package static let maximumSize = 16 << 20

    /// The bytes of the file at `path`. A missing file, a directory, a refused read
    /// or a file above the limit throw an `.unreadable` error naming the path.
    package static func contents(of path: String) throws(JSONInputError) -> [UInt8] {
        func unreadable(_ reason: String) -> JSONInputError {
            JSONInputError(.unreadable, file: path, "cannot read: \(reason)")
        }
        let bytes: [UInt8]?
        do throws(FileReadError) {
            bytes = try FileReading.contents(atPath: path, limit: maximumSize)
        } catch where error.code == .tooLarge {
            throw unreadable("larger than \(maximumSize >> 20) MiB, the most the forge reads from an input file")
        } catch {
            throw unreadable(error.reason)
        }
        guard let bytes else { throw unreadable("no such file") }
        return bytes
    }
}
