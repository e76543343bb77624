import AppInput
import LocalAppStore
import XCTest

/// The default population has what a client needs with no setup.
final class StorePopulationTests: XCTestCase {
    func testTheDefaultStoreHasEveryKindOfHistory() throws {
        let store = StoreState()
        XCTAssertEqual(store.now, store.configuration.start)
        XCTAssertEqual(store.events, [], "the population's history is state, not events")
        XCTAssertGreaterThanOrEqual(store.customers.count, StoreConfiguration.defaultCustomers)
        let kinds = Dictionary(grouping: store.transactions) { store.product(of: $0).kind }
        for kind in [.consumable, .nonConsumable, .nonRenewingSubscription, .autoRenewableSubscription] as [Product.Kind] {
            XCTAssertGreaterThanOrEqual(Set(kinds[kind, default: []].map(\.customer)).count, 2, "\(kind)")
        }
        XCTAssertTrue(store.transactions.contains { $0.reason == .renewal })
        XCTAssertTrue(store.transactions.contains { $0.revocationReason == .refundedDueToIssue })
        XCTAssertTrue(store.transactions.contains { $0.ownership == .familyShared && store.product(of: $0).kind == .nonConsumable })
        XCTAssertTrue(store.subscriptions.contains { $0.ownership == .familyShared })
        XCTAssertTrue(store.transactions.contains { $0.isUpgraded })
        XCTAssertTrue(store.transactions.contains { $0.appAccountToken != nil })
        XCTAssertTrue(store.transactions.contains { $0.refundRequest != nil })
        let statuses = Set(store.subscriptions.map(\.status))
        XCTAssertEqual(statuses, [.active, .expired, .billingRetry, .billingGracePeriod])
        XCTAssertTrue(store.subscriptions.contains { $0.status == .expired && $0.expirationIntent == .customerCancelled })
        XCTAssertTrue(store.subscriptions.contains { $0.priceIncreaseStatus == .customerHasNotResponded })
        XCTAssertEqual(Set(store.customers.map(\.storefront)), [.usa, .can, .gbr])
    }

    func testCustomersScale() {
        XCTAssertEqual(StoreState(StoreConfiguration(customers: 0)).customers.count, 0)
        let store = StoreState(StoreConfiguration(customers: 1_000))
        XCTAssertEqual(store.customers.count, 1_000)
        XCTAssertEqual(Set(store.transactions.map(\.transactionId)).count, store.transactions.count, "ids are unique")
    }

    func testAStorekitCatalogueGivesItsOwnProducts() throws {
        let catalogue = ProductCatalogue(products: [
            Product(id: "com.acme.gems", kind: .consumable),
            Product(id: "com.acme.plus", kind: .autoRenewableSubscription, period: try SubscriptionPeriod(count: 1, unit: .month), groupID: "7"),
        ])
        let store = StoreState(StoreConfiguration(app: AppDescription(bundleIdentifier: "com.acme", purchases: .catalogue(catalogue))))
        XCTAssertEqual(store.products.map(\.id), ["com.acme.gems", "com.acme.plus"])
        XCTAssertEqual(store.groups, ["7"])
        XCTAssertTrue(store.transactions.contains { $0.product == 1 && $0.reason == .renewal })
        XCTAssertEqual(try store.transactionInfo(transactionId: String(store.transactions[0].transactionId)).bundleId, "com.acme")
    }
}
