import LocalAppStore
import TestSupport
import XCTest

/// The clock moves only when told, and what falls due on the way happens at its own
/// date, earliest first: renewals, failed renewals, grace period ends and expiries.
final class StoreClockTests: XCTestCase {
    func testTheClockStartsAtTheReceiptForgesCreationDate() {
        XCTAssertEqual(emptyStore().now, 1_777_714_567_000)  // ForgeSettings().creationDate, 2026-05-02T09:36:07Z
        XCTAssertEqual(StoreState(StoreConfiguration(start: 1_800_000_000_000, customers: 0)).now, 1_800_000_000_000)
    }

    func testTheClockOnlyMovesForward() throws {
        var store = emptyStore()
        assertRefused(&store, .clockMovesForward, field: "instant") { try $0.advance(to: $0.now - 1) }
        assertRefused(&store, .clockMovesForward, field: "milliseconds") { try $0.advance(by: -5) }
        let start = store.now
        try store.advance(by: 1_500)
        XCTAssertEqual(store.now, start + 1_500)
    }

    func testRenewalsHappenAtTheirDatesInDateOrder() throws {
        var store = emptyStore()
        let start = store.now
        let month = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.advance(by: 5 * StoreDuration.day)
        let week = try XCTUnwrap(try store.buyProduct(customer: "bob", productId: weekly).originalTransactionId)
        let purchaseEvents = store.events.count
        let result = try store.advance(by: 60 * StoreDuration.day)
        // Weekly: bought at day 5, renews at 12, 19, … 61 (eight); monthly: at 30 and 60.
        let renewals = result.events.filter { $0.kind == .renewed(billingRecovery: false) }
        XCTAssertEqual(renewals.count, 10)
        XCTAssertEqual(renewals.map(\.date), renewals.map(\.date).sorted(), "in date order")
        XCTAssertEqual(renewals.filter { $0.originalTransactionId == month }.map(\.date),
                       [start + 30 * StoreDuration.day, start + 60 * StoreDuration.day])
        XCTAssertEqual(renewals.filter { $0.originalTransactionId == week }.first?.date, start + 12 * StoreDuration.day)
        XCTAssertEqual(store.events.count, purchaseEvents + 10)
        let ids = Set(renewals.compactMap(\.transactionId))
        XCTAssertEqual(ids.count, 10, "each renewal is a new transaction")
        let webOrders = Set(ids.compactMap { try? store.transactionInfo(transactionId: $0).webOrderLineItemId })
        XCTAssertEqual(webOrders.count, 10)
        XCTAssertEqual(store.now, start + 65 * StoreDuration.day)
    }

    func testGracePeriodThenBillingRetryThenExpiry() throws {
        var store = emptyStore()
        let start = store.now
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.failRenewal(originalTransactionId: original, gracePeriod: true, when: .atNextRenewal)
        XCTAssertEqual(store.subscription(original)?.status, .active)
        try store.advance(by: 30 * StoreDuration.day)
        XCTAssertEqual(store.subscription(original)?.status, .billingGracePeriod)
        let renewal = try store.renewalInfo(transactionId: original)
        XCTAssertEqual(renewal.isInBillingRetryPeriod, true)
        XCTAssertEqual(renewal.gracePeriodExpiresDate?.milliseconds, Double(start + 46 * StoreDuration.day))
        try store.advance(by: 16 * StoreDuration.day)
        XCTAssertEqual(store.subscription(original)?.status, .billingRetry)
        XCTAssertNil(try store.renewalInfo(transactionId: original).gracePeriodExpiresDate)
        try store.advance(by: 44 * StoreDuration.day)
        XCTAssertEqual(store.subscription(original)?.status, .expired)
        XCTAssertEqual(try store.renewalInfo(transactionId: original).expirationIntent, 2)
        XCTAssertEqual(store.events.map(\.kind), [.purchased(resubscribe: false), .failedToRenew(gracePeriod: true),
                                                   .gracePeriodExpired, .expired(.billingError)])
        XCTAssertEqual(store.events.map(\.date), [start, start + 30 * StoreDuration.day, start + 46 * StoreDuration.day,
                                                  start + 90 * StoreDuration.day])
    }

    func testFailingNowAndRecovering() throws {
        var store = emptyStore()
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.advance(by: 3 * StoreDuration.day)
        try store.failRenewal(originalTransactionId: original, gracePeriod: false)
        XCTAssertEqual(store.subscription(original)?.status, .billingRetry)
        XCTAssertEqual(try store.transactionInfo(transactionId: original).expiresDate?.milliseconds, Double(store.now))
        assertRefused(&store, .invalidState, field: "originalTransactionId") { try $0.forceRenewalOfSubscription(originalTransactionId: original) }
        try store.advance(by: StoreDuration.day)
        let recovered = try store.recoverBilling(originalTransactionId: original)
        XCTAssertEqual(store.subscription(original)?.status, .active)
        XCTAssertEqual(store.events.last?.kind, .renewed(billingRecovery: true))
        let payload = try store.transactionInfo(transactionId: recovered.transactionIds[0])
        XCTAssertEqual(payload.purchaseDate?.milliseconds, Double(store.now))
        assertRefused(&store, .invalidState, field: "originalTransactionId") { try $0.recoverBilling(originalTransactionId: original) }
    }

    func testAutoRenewOffExpiresVoluntarilyAtTheEndOfThePeriod() throws {
        var store = emptyStore()
        let start = store.now
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.disableAutoRenew(originalTransactionId: original)
        try store.advance(by: 29 * StoreDuration.day)
        XCTAssertEqual(store.subscription(original)?.status, .active)
        try store.advance(by: 2 * StoreDuration.day)
        XCTAssertEqual(store.subscription(original)?.status, .expired)
        XCTAssertEqual(store.events.last?.kind, .expired(.customerCancelled))
        XCTAssertEqual(store.events.last?.date, start + 30 * StoreDuration.day)
    }

    func testAFamilyCopyFollowsItsPurchaser() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: monthly, familyShared: ["bob"])
        try store.advance(by: 31 * StoreDuration.day)
        let bob = try XCTUnwrap(store.customers.first { $0.id == "bob" })
        XCTAssertEqual(bob.transactions.count, 2, "the copy renewed with the purchaser's")
        let renewedCopy = store.transactions[Int(bob.transactions[1])]
        XCTAssertEqual(renewedCopy.ownership, .familyShared)
        XCTAssertEqual(String(renewedCopy.originalTransactionId), bought.transactionIds[1])
        XCTAssertEqual(store.events.filter { $0.customerId == "bob" }.map(\.kind),
                       [.purchased(resubscribe: false), .renewed(billingRecovery: false)])
    }

    func testScaledClockSourceRunsAtItsRate() {
        let source = ScaledClockSource(start: 1_000, rate: 60, wallClock: { 5_000 })
        XCTAssertEqual(source.currentInstant(), 1_000)
    }

    /// The inverse, what `forge notify` sleeps by: the wall time until the source reads an instant.
    func testScaledClockSourceSaysHowLongUntilAnInstant() {
        let wall = TestWallClock(10_000)
        let source = ScaledClockSource(start: 1_000, rate: 60, wallClock: wall.read)
        XCTAssertEqual(source.wallMilliseconds(until: 1_000), 0)
        XCTAssertEqual(source.wallMilliseconds(until: 61_000), 1_000)
        XCTAssertEqual(source.wallMilliseconds(until: 61_001), 1_001, "rounded up: then the source reads at least the instant")
        wall.move(by: 400)
        XCTAssertEqual(source.wallMilliseconds(until: 61_000), 600)
        wall.move(by: 600)
        XCTAssertEqual(source.currentInstant(), 61_000)
        XCTAssertEqual(source.wallMilliseconds(until: 61_000), 0)
        XCTAssertEqual(source.wallMilliseconds(until: 500), 0, "an instant before the start is due at once")
    }
}
