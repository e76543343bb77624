import AppInput
import LocalAppStore
import XCTest

/// A subscription period has a length: one of no length (or of a negative or absurd count)
/// cannot be made, so no store renews a subscription for ever at one instant (issue 35,
/// "No trap on user input").
final class SubscriptionPeriodTests: XCTestCase {
    func testACountOutsideOneTo999IsRefusedWithItsValue() {
        for count in [0, -1, 1_000, Int.max, Int.min] {
            XCTAssertThrowsError(try SubscriptionPeriod(count: count, unit: .month)) { error in
                XCTAssertEqual(error as? SubscriptionPeriodError, .countOutOfRange(count: count, unit: .month))
                XCTAssertTrue("\(error)".contains("\(count)"), "\(error)")
            }
        }
    }

    func testTheCountsAppStoreConnectAllowsAreMade() throws {
        XCTAssertEqual(try SubscriptionPeriod(count: 1, unit: .week).seconds, 7 * 86_400)
        XCTAssertEqual(try SubscriptionPeriod(count: 999, unit: .year).seconds, 999 * 365 * 86_400)
        XCTAssertEqual(SubscriptionPeriod.oneMonth.description, "P1M")
    }

    func testTheISO8601FormAgreesWithTheThrowingInitializer() {
        for text in ["P0M", "P-1M", "P1000Y", "P", "PM", "P1X"] {
            XCTAssertNil(SubscriptionPeriod(iso8601: text), text)
        }
        XCTAssertEqual(SubscriptionPeriod(iso8601: "P6M"), try SubscriptionPeriod(count: 6, unit: .month))
    }

    /// The shortest period renews once per day: a year's move of the clock makes a bounded
    /// number of renewals, and returns.
    func testTheShortestPeriodRenewsABoundedNumberOfTimes() throws {
        let day = try SubscriptionPeriod(count: 1, unit: .day)
        let catalogue = ProductCatalogue(products: [
            Product(id: "com.acme.daily", kind: .autoRenewableSubscription, period: day, groupID: "1"),
        ])
        var store = StoreState(StoreConfiguration(app: AppDescription(bundleIdentifier: "com.acme", purchases: .catalogue(catalogue)),
                                                  customers: 0))
        _ = try store.buyProduct(customer: "alice", productId: "com.acme.daily")
        let before = store.transactions.count
        _ = try store.advance(by: StoreDuration.days(365))
        let renewals = store.transactions.count - before
        XCTAssertGreaterThan(renewals, 300)
        XCTAssertLessThanOrEqual(renewals, 366)
    }
}
