import LocalAppStore
import XCTest

/// Many tasks buying for different customers and reading the same ones through one
/// `LocalAppStore`: no purchase is lost, and every read sees a whole state.
final class StoreConcurrencyTests: XCTestCase {
    func testConcurrentWritersLoseNothingAndReadersSeeWholeStates() async throws {
        let store = LocalAppStore(StoreConfiguration(customers: 0))
        let writers = 8
        let purchasesEach = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<purchasesEach {
                        let bought = try store.write { state throws(StoreError) in
                            try state.buyProduct(customer: "writer-\(writer)", productId: coins, quantity: 1 + index % 3)
                        }
                        // Read back what this task wrote.
                        let payload = try store.read { state throws(StoreError) in try state.transactionInfo(transactionId: bought.transactionIds[0]) }
                        XCTAssertEqual(payload.quantity, 1 + index % 3)
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        // Every customer's own transaction list and the global list agree in one read.
                        let consistent = store.read { state in
                            state.customers.reduce(0) { $0 + $1.transactions.count } == state.transactions.count
                                && state.events.count == state.transactions.count
                        }
                        XCTAssertTrue(consistent)
                        let snapshot = store.snapshot()
                        XCTAssertEqual(snapshot.customers.reduce(0) { $0 + $1.transactions.count }, snapshot.transactions.count)
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = store.snapshot()
        XCTAssertEqual(final.transactions.count, writers * purchasesEach)
        for writer in 0..<writers {
            XCTAssertEqual(final.customers.first { $0.id == "writer-\(writer)" }?.transactions.count, purchasesEach)
        }
        XCTAssertEqual(Set(final.transactions.map(\.transactionId)).count, writers * purchasesEach)
    }

    func testResetReturnsTheDefaultState() throws {
        let store = LocalAppStore()
        let before = store.snapshot().stateJSON()
        try store.write { state throws(StoreError) in _ = try state.buyProduct(customer: "new", productId: coins) }
        XCTAssertNotEqual(store.snapshot().stateJSON(), before)
        store.resetToDefaultState()
        XCTAssertEqual(store.snapshot().stateJSON(), before)
        var rebuilt = store.snapshot()
        rebuilt.resetToDefaultState()
        XCTAssertEqual(rebuilt.stateJSON(), before)
    }
}
