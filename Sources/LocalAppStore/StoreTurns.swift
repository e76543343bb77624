import Foundation

/// Lets the requests waiting for the store's lock in between the parts of a long move.
/// The lock is not fair: a thread that releases it and takes it again at once (a move
/// going from one part to the next) usually gets it before a waiting thread has woken,
/// so without this, requests would wait for most of the move after all. Every single
/// access counts itself while it waits for and holds the lock (`access`); between two
/// parts a move waits until those counted when it stopped have been served (`yield`).
final class StoreTurns: @unchecked Sendable {
    // @unchecked: `waiting` and `served` are touched only with `condition` locked.
    private let condition = NSCondition()
    /// Accesses waiting for the store's lock or holding it.
    private var waiting = 0
    /// Accesses finished so far.
    private var served = 0

    /// Runs one access (`body` takes the store's lock), counted while it waits and runs.
    func access<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        condition.withLock { waiting += 1 }
        defer {
            condition.withLock {
                waiting -= 1
                served += 1
                condition.broadcast()
            }
        }
        return try body()
    }

    /// Called by a move between two parts, without the store's lock: returns once the
    /// accesses waiting now have had their turn (at once when none is waiting).
    func yield() {
        condition.withLock {
            let goal = served + waiting
            while waiting > 0, served < goal { condition.wait() }
        }
    }
}
