import LocalAppStore
import XCTest

/// Same seed and same actions: the same state, byte for byte.
final class StoreDeterminismTests: XCTestCase {
    private func drive(_ store: inout StoreState) throws {
        let original = try XCTUnwrap(try store.buyProduct(customer: "zoe", productId: monthly, familyShared: ["yann"]).originalTransactionId)
        try store.buyProduct(customer: "zoe", productId: coins, quantity: 2)
        try store.advance(by: 40 * StoreDuration.day)
        try store.failRenewal(originalTransactionId: original, gracePeriod: true, when: .atNextRenewal)
        try store.advance(by: 30 * StoreDuration.day)
        try store.recoverBilling(originalTransactionId: original)
        try store.extendRenewalDate(originalTransactionId: original, days: 7, reason: .serviceIssueOrOutage, requestIdentifier: "outage-1")
    }

    func testSameSeedSameActionsSameBytes() throws {
        var first = StoreState()
        var second = StoreState()
        XCTAssertEqual(first.stateJSON(), second.stateJSON())
        try drive(&first)
        try drive(&second)
        XCTAssertEqual(first.stateJSON(), second.stateJSON())
        XCTAssertGreaterThan(first.events.count, 5)
    }

    func testAnotherSeedGivesOtherIds() {
        let one = StoreState(StoreConfiguration(seed: 1))
        let two = StoreState(StoreConfiguration(seed: 2))
        XCTAssertNotEqual(one.stateJSON(), two.stateJSON())
        XCTAssertEqual(one.transactions.count, two.transactions.count, "the seed changes ids, not the history")
    }

    func testProductionAndSandboxAreSeparateStores() throws {
        let production = StoreState(StoreConfiguration(environment: .production))
        let sandbox = StoreState(StoreConfiguration(environment: .sandbox))
        let productionIds = Set(production.transactions.map(\.transactionId))
        XCTAssertTrue(sandbox.transactions.allSatisfy { !productionIds.contains($0.transactionId) })
        let id = String(try XCTUnwrap(sandbox.transactions.first).transactionId)
        XCTAssertEqual(try sandbox.transactionInfo(transactionId: id).environment, "Sandbox")
        XCTAssertThrowsError(try production.transactionInfo(transactionId: id))
    }
}
