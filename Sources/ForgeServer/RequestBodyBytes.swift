import Hummingbird
import NIOCore

@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
extension RequestBody {
    /// The body's bytes, at most `limit` of them (more throws `NIOTooManyBytesError`), each
    /// fragment copied out as it arrives.
    ///
    /// Not `collect(upTo:)`: that keeps the first fragment's buffer and appends the rest to
    /// it, growing in place (realloc) a buffer the event loop allocated, as soon as the
    /// event loop has let go of it. The hand-over is ordered by the buffer's reference
    /// count, which ThreadSanitizer does not see (the Swift runtime is not instrumented),
    /// so a body that came in two or more reads was now and then reported as a race
    /// between the event loop and the handler. Here nothing the event loop made is written
    /// to, only read; and the bytes are copied once, where `collect` then `Array(buffer:)`
    /// copied a many-fragment body twice.
    package func bytes(upTo limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await fragment in self {
            guard fragment.readableBytes <= limit - bytes.count else { throw NIOTooManyBytesError(maxBytes: limit) }
            bytes.append(contentsOf: fragment.readableBytesView)
        }
        return bytes
    }
}
