import Foundation

/// A one-shot signal between tasks (a test webhook holding requests, a handler paused
/// mid-request): `wait()` suspends until `open()`, and once open every `wait()` returns
/// at once. `open()` is synchronous, so a server's shutdown hook can call it.
public final class Gate: @unchecked Sendable {
    // @unchecked: `isOpen` and `waiting` are only touched with `lock` held.
    private let lock = NSLock()
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if isOpen { return true }
                waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets every waiting request (and every later one) through.
    public func open() {
        let released = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiting = [] }
            return waiting
        }
        released.forEach { $0.resume() }
    }
}
