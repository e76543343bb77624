import Foundation

/// A value reachable only with its lock held: the one lock-plus-variable of the project,
/// like swift-nio's `NIOLockedValueBox` (the standard library's `Mutex` needs macOS 15,
/// below the package's floor). The box is `Sendable` when its value is, checked by the
/// compiler; no class around it needs `@unchecked` for the state it keeps here.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// let seen = hits.withLock { $0 }
/// ```
///
/// `body` runs with the lock held: it must be short and must not suspend (it cannot
/// `await`), and must not reach the same box again (the lock is not recursive).
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held and answers what it answers.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// The value is only touched inside `withLock`, with `lock` held.
extension Locked: @unchecked Sendable where Value: Sendable {}
