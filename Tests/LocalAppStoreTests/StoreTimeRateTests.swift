import Foundation
import LocalAppStore
import TestSupport
import XCTest

/// `--time-rate`: SKTestSession's names and plain factors, and a store whose clock runs
/// at a rate from an injected wall clock: what falls due happens at its own date, and
/// `advance` still adds an offset.
final class StoreTimeRateTests: XCTestCase {
    func testNamesAndFactors() throws {
        XCTAssertEqual(StoreTimeRate("realTime")?.factor, 1)
        XCTAssertEqual(StoreTimeRate("oneSecondIsOneDay")?.factor, 86_400)
        XCTAssertEqual(StoreTimeRate("oneSecondIsOneHour")?.factor, 3_600)
        XCTAssertEqual(StoreTimeRate("monthlyRenewalEveryThirtySeconds")?.factor, 86_400, "a 30-day month in 30 s")
        XCTAssertEqual(StoreTimeRate("oneRenewalEveryTwoSeconds")?.factor, 1_296_000, "a 30-day month in 2 s")
        XCTAssertEqual(StoreTimeRate("oneRenewalEveryTwoSeconds")?.description, "oneRenewalEveryTwoSeconds")
        XCTAssertEqual(StoreTimeRate("60")?.factor, 60)
        XCTAssertEqual(StoreTimeRate("0.5")?.factor, 0.5)
        for bad in ["", "0", "-1", "1e3", "fast", "RealTime", "nan", "inf", "13000001", " 60"] {
            XCTAssertNil(StoreTimeRate(bad), bad)
        }
        XCTAssertEqual(Set(StoreTimeRate.named.map(\.name)).count, StoreTimeRate.named.count, "no name twice")
    }

    func testRenewalsHappenAsTheScaledClockPassesTheirDates() throws {
        let wall = TestWallClock(1_000_000)
        let clock = ScaledClockSource(start: 0, rate: 86_400, wallClock: wall.read)  // oneSecondIsOneDay
        let store = LocalAppStore(StoreConfiguration(start: 1_800_000_000_000, customers: 0), clock: clock)
        let start = store.snapshot().now
        XCTAssertEqual(start, 1_800_000_000_000, "no wall time has passed")
        let original = try XCTUnwrap(try store.write { try $0.buyProduct(customer: "alice", productId: monthly) }.originalTransactionId)

        wall.move(by: 10_500)  // 10.5 days
        XCTAssertEqual(store.read { $0.now }, start + 10 * StoreDuration.day + StoreDuration.day / 2)
        XCTAssertEqual(store.read { $0.subscription(original)?.status }, .active)
        XCTAssertEqual(store.read { $0.events.count }, 1, "no renewal yet")

        wall.move(by: 50_000)  // day 60.5: renewals at days 30 and 60, each at its own date
        let renewals = store.read { $0.events.filter { $0.kind == .renewed(billingRecovery: false) } }
        XCTAssertEqual(renewals.map(\.date), [start + 30 * StoreDuration.day, start + 60 * StoreDuration.day])

        // advanceClock on top of the running clock: an offset, kept as the wall clock moves on.
        _ = try store.write { try $0.advance(by: 5 * StoreDuration.day) }
        XCTAssertEqual(store.read { $0.now }, start + 65 * StoreDuration.day + StoreDuration.day / 2)
        wall.move(by: 1_000)
        XCTAssertEqual(store.read { $0.now }, start + 66 * StoreDuration.day + StoreDuration.day / 2)

        // A wall clock that steps back moves nothing (the store clock never goes back).
        wall.move(by: -3_000)
        XCTAssertEqual(store.read { $0.now }, start + 66 * StoreDuration.day + StoreDuration.day / 2)
    }

    func testTheSameReadingsGiveTheSameStoreWhateverTheSteps() throws {
        func run(steps: [Int64]) throws -> (StoreInstant, [StoreEvent]) {
            let wall = TestWallClock(0)
            let store = LocalAppStore(StoreConfiguration(start: 1_800_000_000_000, customers: 0),
                                      clock: ScaledClockSource(start: 0, rate: 1_296_000, wallClock: wall.read))
            let original = try XCTUnwrap(try store.write { try $0.buyProduct(customer: "alice", productId: monthly) }.originalTransactionId)
            _ = try store.write { try $0.failRenewal(originalTransactionId: original, gracePeriod: true, when: .atNextRenewal) }
            for step in steps {
                wall.move(by: step)
                _ = store.snapshot()
            }
            let state = store.snapshot()
            return (state.now, state.events)
        }
        // 200 s at oneRenewalEveryTwoSeconds: 100 months, through the grace period, billing retry and expiry.
        let once = try run(steps: [200_000])
        let inSteps = try run(steps: Array(repeating: 1_000, count: 200))
        XCTAssertEqual(once.0, inSteps.0)
        XCTAssertEqual(once.1, inSteps.1)
        XCTAssertEqual(once.1.map(\.kind), [.purchased(resubscribe: false), .failedToRenew(gracePeriod: true),
                                            .gracePeriodExpired, .expired(.billingError)])
    }

    func testWithoutAClockSourceTheClockMovesOnlyWhenTold() throws {
        let store = LocalAppStore(StoreConfiguration(start: 1_800_000_000_000, customers: 0))
        XCTAssertNil(store.clock)
        XCTAssertEqual(store.read { $0.now }, 1_800_000_000_000)
        _ = try store.write { try $0.advance(by: 1_000) }
        XCTAssertEqual(store.snapshot().now, 1_800_000_001_000)
    }
}
