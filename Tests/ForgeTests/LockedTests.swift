import ForgeSupport
import XCTest

/// The project's one lock-plus-variable box.
final class LockedTests: XCTestCase {
    func testWithLockReadsAndWritesTheValue() {
        let box = Locked([1, 2])
        box.withLock { $0.append(3) }
        XCTAssertEqual(box.withLock { $0 }, [1, 2, 3])
        XCTAssertEqual(box.withLock { value -> Int in
            value.removeFirst()
            return value.count
        }, 2)
        XCTAssertEqual(box.withLock { $0 }, [2, 3])
    }

    /// A typed error thrown inside leaves the lock released and the changes made before it.
    func testAThrowingBodyReleasesTheLock() {
        struct Refused: Error, Equatable {}
        let box = Locked(0)
        XCTAssertThrowsError(try box.withLock { (value: inout Int) throws(Refused) in
            value = 7
            throw Refused()
        }) { XCTAssertEqual($0 as? Refused, Refused()) }
        XCTAssertEqual(box.withLock { $0 }, 7, "the lock is free again and the change kept")
    }

    /// Increments from many threads at once: none lost.
    func testConcurrentIncrementsAreNotLost() {
        let box = Locked(0)
        let threads = 8, increments = 10_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments { box.withLock { $0 += 1 } }
        }
        XCTAssertEqual(box.withLock { $0 }, threads * increments)
    }
}
