import Foundation
import LocalAppStore
import TestSupport
import XCTest

/// A store left running: the clock catches up however far its source moved, moves in
/// parts that change nothing of the result, keeps only the history window of events,
/// and never passes the notAfter of the certificates it signs with.
final class StoreLongRunTests: XCTestCase {
    private let start: StoreInstant = 1_800_000_000_000
    private let year = 365 * StoreDuration.day

    /// Review finding 1: a catch-up longer than `StoreState.maximumClockMove` (ten years)
    /// was dropped with its renewals. Eleven store-years at once now make every renewal,
    /// the same ones a store without a clock makes when told to move as far.
    func testACatchUpOfElevenYearsAtOnceMakesEveryRenewal() throws {
        let wall = TestWallClock(0)
        let store = LocalAppStore(StoreConfiguration(environment: .sandbox, start: start, customers: 0),
                                  clock: ScaledClockSource(start: 0, rate: 1_296_000, wallClock: wall.read), partSize: 7)
        let taker = EventTaker()
        try store.attachEventConsumer(taker)
        var reference = StoreState(StoreConfiguration(environment: .sandbox, start: start, customers: 0))
        for (customer, product) in [("alice", monthly), ("bob", weekly)] {
            _ = try store.write { try $0.buyProduct(customer: customer, productId: product) }
            try reference.buyProduct(customer: customer, productId: product)
        }
        XCTAssertGreaterThan(11 * year, StoreState.maximumClockMove)

        wall.move(by: 11 * year / 1_296_000 + 1)  // 11 years of store time in one reading
        let now = store.snapshot().now
        XCTAssertGreaterThanOrEqual(now, start + 11 * year, "no store time is lost")
        try reference.advance(by: (now - start) / 2)
        try reference.advance(to: now)

        let fed = store.takeFedEvents(as: taker).map(\.event)
        XCTAssertEqual(fed, reference.events, "the same events, renewals included, in the same order")
        let renewals = fed.filter { $0.kind == .renewed(billingRecovery: false) }
        XCTAssertGreaterThanOrEqual(renewals.filter { $0.customerId == "alice" }.count, 11 * 365 / 31, "a monthly renewal each month")
        XCTAssertGreaterThanOrEqual(renewals.filter { $0.customerId == "bob" }.count, 11 * 52, "a weekly renewal each week")
        XCTAssertEqual(store.snapshot().transactions, reference.transactions)
    }

    /// Review finding 2: `advanceClock` moves in parts, the lock released between them;
    /// the result is the same as one `StoreState.advance`: the same renewals in the same
    /// order, the same transactions and ids.
    func testAMoveInPartsIsTheSameAsOneMove() throws {
        let configuration = StoreConfiguration(environment: .production, start: start, customers: 300)
        let store = LocalAppStore(configuration, partSize: 3)
        var reference = StoreState(configuration)
        let result = try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: year) }
        let expected = try reference.advance(by: year)
        XCTAssertGreaterThan(expected.events.count, 300, "a move of more than a hundred parts")
        XCTAssertEqual(result, expected)
        let state = store.snapshot()
        XCTAssertEqual(state.now, reference.now)
        XCTAssertEqual(state.transactions, reference.transactions)
        XCTAssertEqual(state.subscriptions, reference.subscriptions)
        XCTAssertEqual(Array(state.events), Array(reference.events.suffix(state.events.count)), "the events kept are the latest")
        XCTAssertEqual(state.eventCount, reference.events.count)
    }

    func testAMoveInPartsIsRefusedAsOneMoveIs() {
        let store = LocalAppStore(StoreConfiguration(start: start, customers: 0))
        XCTAssertThrowsError(try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: -1) }) { error in
            XCTAssertEqual((error as? StoreError)?.code, .clockMovesForward)
        }
        XCTAssertThrowsError(try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: StoreState.maximumClockMove + 1) }) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidValue)
        }
        XCTAssertEqual(store.snapshot().now, start, "a refused move moves nothing")
    }

    /// Review finding 3: at a time rate events are made with no request at all; those
    /// older than the history window (30 days in the sandbox) are dropped, the sequence
    /// numbers go on, and the feed still hands over every one.
    func testEventsOlderThanTheHistoryWindowAreDropped() throws {
        let store = LocalAppStore(StoreConfiguration(environment: .sandbox, start: start, customers: 0))
        let taker = EventTaker()
        try store.attachEventConsumer(taker)
        for customer in 0..<20 {
            _ = try store.write { try $0.buyProduct(customer: "c\(customer)", productId: weekly) }
        }
        let result = try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: 5 * year) }
        XCTAssertGreaterThan(result.events.count, 20 * 5 * 52 - 20)
        _ = try store.write { try $0.buyProduct(customer: "late", productId: weekly) }
        let state = store.snapshot()
        let window = StoreRetention.notificationHistory(in: .sandbox)
        XCTAssertEqual(window, 30 * StoreDuration.day)
        // 30 days hold about 20 × 30 / 7 ≈ 86 renewals; a third more, or 256, may wait to be dropped.
        XCTAssertLessThan(state.events.count, 86 + 256 + 30)
        XCTAssertGreaterThan(state.droppedEventCount, 5_000)
        XCTAssertEqual(state.eventCount, result.events.count + 21)
        XCTAssertEqual(state.events.first?.sequence, state.droppedEventCount + 1)
        XCTAssertEqual(state.events.last?.sequence, state.eventCount, "sequence numbers go on")
        XCTAssertLessThan(state.events.filter { $0.date < state.now - window }.count, 256, "fewer than 256 older ones wait to be dropped")
        XCTAssertEqual(store.takeFedEvents(as: taker).count, state.eventCount, "the feed took every event before any was dropped")
        XCTAssertEqual(Array(state.events(since: state.eventCount - 1)).map(\.customerId), ["late"])
    }

    /// A completed mass extension is kept as long as its RENEWAL_EXTENSION notifications
    /// are in the history (Apple documents no period for its status), then dropped.
    func testACompletedMassExtensionIsDroppedWithItsHistory() throws {
        let store = LocalAppStore(StoreConfiguration(environment: .sandbox, start: start, customers: 0))
        _ = try store.write { try $0.buyProduct(customer: "alice", productId: monthly) }
        _ = try store.write {
            try $0.extendRenewalDatesForAllActiveSubscribers(productId: monthly, days: 3, reason: .customerSatisfaction, requestIdentifier: "r1")
        }
        _ = try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: 29 * StoreDuration.day) }
        _ = try store.write { try $0.buyProduct(customer: "bob", productId: monthly) }
        XCTAssertNoThrow(try store.read { state throws(StoreError) in try state.massExtensionStatus(productId: monthly, requestIdentifier: "r1") },
                         "29 days on: still in the window")
        _ = try store.advanceClock { state throws(StoreError) in try state.clockTarget(by: 2 * StoreDuration.day) }
        _ = try store.write { try $0.buyProduct(customer: "carol", productId: monthly) }
        XCTAssertEqual(store.read { $0.massExtensions.count }, 0, "31 days on: dropped")
    }

    /// Signing past the CA's validity: a move past the certificates' notAfter is refused,
    /// naming both dates; a clock at a time rate stops there.
    func testTheClockDoesNotPassTheSigningCertificatesNotAfter() throws {
        let notAfter = StoreState.signingCertificateNotAfter
        XCTAssertEqual(notAfter, 4_102_444_799_000, "2099-12-31T23:59:59Z")
        let late: StoreInstant = 4_070_908_800_000  // 2099-01-01T00:00:00Z
        var state = StoreState(StoreConfiguration(start: late, customers: 0))
        try state.advance(to: notAfter)
        XCTAssertThrowsError(try state.advance(by: 1_000)) { error in
            let refusal = error as? StoreError
            XCTAssertEqual(refusal?.code, .pastSigningCertificate)
            XCTAssertTrue(refusal?.reason.contains("2100-01-01T00:00:00") == true, refusal?.reason ?? "")
            XCTAssertTrue(refusal?.reason.contains("2099-12-31T23:59:59") == true, refusal?.reason ?? "")
            XCTAssertTrue(refusal?.reason.contains("notAfter") == true, refusal?.reason ?? "")
        }

        let wall = TestWallClock(0)
        let store = LocalAppStore(StoreConfiguration(start: late, customers: 0),
                                  clock: ScaledClockSource(start: 0, rate: 13_000_000, wallClock: wall.read))
        wall.move(by: 10_000)  // 4.1 store-years
        XCTAssertEqual(store.snapshot().now, notAfter)
        wall.move(by: 10_000)
        XCTAssertEqual(store.read { $0.now }, notAfter, "it stays there")
    }
}

/// The events' owner in these tests: it takes them when the test asks, not when told.
private final class EventTaker: StoreEventConsumer {
    func storeChanged(_ store: LocalAppStore) {}
}
