import LocalAppStore
import StoreKit2
import XCTest

/// Each action's effect on the model and on the payloads derived from it, and each
/// refusal: its code, the field it names, and a state left as it was.
final class StoreActionTests: XCTestCase {
    func testBuyingAConsumableRecordsQuantityTokenAndOrder() throws {
        var store = emptyStore()
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let bought = try store.buyProduct(customer: "alice", productId: coins, quantity: 3, appAccountToken: token)
        XCTAssertEqual(bought.transactionIds.count, 1)
        let payload = try store.transactionInfo(transactionId: bought.transactionIds[0])
        XCTAssertEqual(payload.quantity, 3)
        XCTAssertEqual(payload.type, "Consumable")
        XCTAssertEqual(payload.appAccountToken, token.lowercased())
        XCTAssertEqual(payload.inAppOwnershipType, "PURCHASED")
        XCTAssertEqual(payload.transactionReason, "PURCHASE")
        XCTAssertEqual(payload.purchaseDate?.milliseconds, Double(store.now))
        XCTAssertNil(payload.webOrderLineItemId)
        XCTAssertEqual(payload.environment, "Production")
        let order = try XCTUnwrap(bought.orderId)
        XCTAssertEqual(order.count, 10)
        XCTAssertEqual(store.lookUpOrder(orderId: order).transactions.map(\.transactionId), [bought.transactionIds[0]])
        XCTAssertEqual(store.lookUpOrder(orderId: "AAAAAAAAAA").status, 1)
        XCTAssertEqual(store.events.map(\.kind), [.purchased(resubscribe: false)])
        XCTAssertEqual(store.events.first?.transactionId, bought.transactionIds[0])
    }

    func testBuyRefusals() throws {
        var store = emptyStore()
        try store.buyProduct(customer: "alice", productId: pro)
        assertRefused(&store, .productNotFound, field: "productId") { try $0.buyProduct(customer: "alice", productId: "nope") }
        assertRefused(&store, .invalidValue, field: "quantity") { try $0.buyProduct(customer: "alice", productId: coins, quantity: 11) }
        assertRefused(&store, .invalidValue, field: "quantity") { try $0.buyProduct(customer: "alice", productId: monthly, quantity: 2) }
        assertRefused(&store, .invalidAppAccountToken, field: "appAccountToken") {
            try $0.buyProduct(customer: "alice", productId: coins, appAccountToken: "not-a-uuid")
        }
        assertRefused(&store, .invalidValue, field: "customer") { try $0.buyProduct(customer: "", productId: coins) }
        assertRefused(&store, .invalidState, field: "productId") { try $0.buyProduct(customer: "alice", productId: pro) }
        assertRefused(&store, .familyTransactionNotSupported, field: "familyShared") {
            try $0.buyProduct(customer: "bob", productId: coins, familyShared: ["carol"])
        }
        assertRefused(&store, .invalidValue, field: "familyShared") {
            try $0.buyProduct(customer: "bob", productId: pro, familyShared: ["bob"])
        }
        assertRefused(&store, .invalidValue, field: "offer") { try $0.buyProduct(customer: "bob", productId: monthly, offer: .introductory) }
        let original = try XCTUnwrap(try store.buyProduct(customer: "bob", productId: monthly).originalTransactionId)
        assertRefused(&store, .invalidState, field: "productId") { try $0.buyProduct(customer: "bob", productId: yearly) }
        try store.expireSubscription(originalTransactionId: original)
        assertRefused(&store, .invalidState, field: "offer") { try $0.buyProduct(customer: "bob", productId: weekly, offer: .introductory) }
    }

    func testSubscriptionPurchaseAndIntroductoryOffer() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: weekly, offer: .introductory)
        let payload = try store.transactionInfo(transactionId: bought.transactionIds[0])
        XCTAssertEqual(payload.offerType, 1)
        XCTAssertEqual(payload.offerDiscountType, "FREE_TRIAL")
        XCTAssertEqual(payload.price, 0)
        XCTAssertEqual(payload.subscriptionGroupIdentifier, "21000001")
        XCTAssertEqual(payload.expiresDate?.milliseconds, Double(store.now + 7 * StoreDuration.day))
        XCTAssertNotNil(payload.webOrderLineItemId)
        let renewal = try store.renewalInfo(transactionId: bought.transactionIds[0])
        XCTAssertEqual(renewal.autoRenewStatus, 1)
        XCTAssertEqual(renewal.renewalDate, payload.expiresDate)
        XCTAssertEqual(renewal.isInBillingRetryPeriod, false)
        let statuses = try store.subscriptionStatuses(transactionId: bought.transactionIds[0])
        XCTAssertEqual(statuses.map(\.subscriptionGroupIdentifier), ["21000001"])
        XCTAssertEqual(statuses[0].lastTransactions.map(\.status), [.active])
    }

    func testForceRenewalMakesANewTransactionAndWebOrderLineItem() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: monthly)
        let original = try XCTUnwrap(bought.originalTransactionId)
        try store.advance(by: StoreDuration.day)
        let renewed = try store.forceRenewalOfSubscription(originalTransactionId: original)
        let first = try store.transactionInfo(transactionId: bought.transactionIds[0])
        let second = try store.transactionInfo(transactionId: renewed.transactionIds[0])
        XCTAssertNotEqual(first.transactionId, second.transactionId)
        XCTAssertNotEqual(first.webOrderLineItemId, second.webOrderLineItemId)
        XCTAssertEqual(second.originalTransactionId, original)
        XCTAssertEqual(second.transactionReason, "RENEWAL")
        XCTAssertEqual(second.purchaseDate?.milliseconds, Double(store.now))
        XCTAssertEqual(store.events.last?.kind, .renewed(billingRecovery: false))
        assertRefused(&store, .invalidOriginalTransactionId, field: "originalTransactionId") {
            try $0.forceRenewalOfSubscription(originalTransactionId: "12ab")
        }
        assertRefused(&store, .originalTransactionNotFound, field: "originalTransactionId") {
            try $0.forceRenewalOfSubscription(originalTransactionId: "999")
        }
        assertRefused(&store, .invalidOriginalTransactionId, field: "originalTransactionId") {
            try $0.forceRenewalOfSubscription(originalTransactionId: renewed.transactionIds[0])
        }
    }

    func testExpireAndResubscribeKeepTheOriginalTransactionId() throws {
        var store = emptyStore()
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.expireSubscription(originalTransactionId: original)
        let renewal = try store.renewalInfo(transactionId: original)
        XCTAssertEqual(renewal.expirationIntent, 1)
        XCTAssertEqual(renewal.autoRenewStatus, 0)
        XCTAssertNil(renewal.renewalDate)
        XCTAssertEqual(store.subscription(original)?.status, .expired)
        assertRefused(&store, .invalidState, field: "originalTransactionId") { try $0.expireSubscription(originalTransactionId: original) }
        try store.advance(by: StoreDuration.day)
        let again = try store.buyProduct(customer: "alice", productId: yearly)
        XCTAssertEqual(again.originalTransactionId, original)
        XCTAssertEqual(store.events.last?.kind, .purchased(resubscribe: true))
        let payload = try store.transactionInfo(transactionId: again.transactionIds[0])
        XCTAssertEqual(payload.originalPurchaseDate, try store.transactionInfo(transactionId: original).purchaseDate)
    }

    func testAutoRenewOffAndOn() throws {
        var store = emptyStore()
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        try store.disableAutoRenew(originalTransactionId: original)
        XCTAssertEqual(try store.renewalInfo(transactionId: original).autoRenewStatus, 0)
        assertRefused(&store, .invalidState, field: "originalTransactionId") { try $0.disableAutoRenew(originalTransactionId: original) }
        try store.enableAutoRenew(originalTransactionId: original)
        XCTAssertEqual(store.events.suffix(2).map(\.kind), [.autoRenewChanged(enabled: false), .autoRenewChanged(enabled: true)])
    }

    func testUpgradeIsImmediateDowngradeWaitsForRenewal() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: monthly)
        let original = try XCTUnwrap(bought.originalTransactionId)
        try store.advance(by: 3 * StoreDuration.day)
        let upgraded = try store.changeRenewalProduct(originalTransactionId: original, productId: yearly)
        XCTAssertEqual(upgraded.transactionIds.count, 1)
        XCTAssertEqual(try store.transactionInfo(transactionId: bought.transactionIds[0]).isUpgraded, true)
        let new = try store.transactionInfo(transactionId: upgraded.transactionIds[0])
        XCTAssertEqual(new.productId, yearly)
        XCTAssertEqual(new.originalTransactionId, original)
        XCTAssertEqual(new.purchaseDate?.milliseconds, Double(store.now))
        XCTAssertNil(new.isUpgraded)
        XCTAssertEqual(store.events.last?.kind, .renewalPreferenceChanged(.upgrade))

        let downgraded = try store.changeRenewalProduct(originalTransactionId: original, productId: weekly)
        XCTAssertEqual(downgraded.transactionIds, [])
        let renewal = try store.renewalInfo(transactionId: original)
        XCTAssertEqual(renewal.productId, yearly)
        XCTAssertEqual(renewal.autoRenewProductId, weekly)
        XCTAssertEqual(store.events.last?.kind, .renewalPreferenceChanged(.downgrade))
        try store.advance(by: 366 * StoreDuration.day)
        let latest = try XCTUnwrap(store.subscription(original)).latestTransaction
        XCTAssertEqual(store.transactionPayload(store.transactions[Int(latest)]).productId, weekly)
        assertRefused(&store, .invalidValue, field: "productId") {
            try $0.changeRenewalProduct(originalTransactionId: original, productId: "com.example.receiptforge.monthly")
        }
        assertRefused(&store, .invalidState, field: "productId") { try $0.changeRenewalProduct(originalTransactionId: original, productId: weekly) }
    }

    func testRefundDeclineReverseAndRevoke() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: pro, familyShared: ["bob"])
        XCTAssertEqual(bought.transactionIds.count, 2)
        let (purchase, copy) = (bought.transactionIds[0], bought.transactionIds[1])
        XCTAssertEqual(try store.transactionInfo(transactionId: copy).inAppOwnershipType, "FAMILY_SHARED")
        try store.requestConsumptionInformation(transactionId: purchase, reason: .unsatisfiedWithPurchase)
        assertRefused(&store, .invalidState, field: "transactionId") {
            try $0.requestConsumptionInformation(transactionId: purchase, reason: .other)
        }
        try store.declineRefund(transactionId: purchase)
        XCTAssertEqual(store.events.suffix(2).map(\.kind), [.consumptionRequested(.unsatisfiedWithPurchase), .refundDeclined])
        assertRefused(&store, .familyTransactionNotSupported, field: "transactionId") {
            try $0.refundTransaction(transactionId: copy, reason: .refundedDueToIssue)
        }
        try store.advance(by: StoreDuration.hour)
        try store.refundTransaction(transactionId: purchase, reason: .refundedDueToIssue)
        let refunded = try store.transactionInfo(transactionId: purchase)
        XCTAssertEqual(refunded.revocationReason, 1)
        XCTAssertEqual(refunded.revocationDate?.milliseconds, Double(store.now))
        XCTAssertNotNil(try store.transactionInfo(transactionId: copy).revocationDate, "the family copy goes with the refund")
        XCTAssertEqual(store.events.suffix(2).map(\.kind), [.refunded(.refundedDueToIssue), .revoked])
        XCTAssertEqual(try store.refundHistory(transactionId: purchase).transactions.map(\.transactionId), [purchase])
        assertRefused(&store, .invalidState, field: "transactionId") {
            try $0.refundTransaction(transactionId: purchase, reason: .refundedDueToIssue)
        }
        try store.reverseRefund(transactionId: purchase)
        XCTAssertNil(try store.transactionInfo(transactionId: purchase).revocationDate)
        XCTAssertNil(try store.transactionInfo(transactionId: copy).revocationDate)
        XCTAssertEqual(try store.refundHistory(transactionId: purchase).transactions, [])
        try store.revokeTransaction(transactionId: copy)
        XCTAssertNotNil(try store.transactionInfo(transactionId: copy).revocationDate)
        XCTAssertNil(try store.transactionInfo(transactionId: purchase).revocationDate, "stopping sharing leaves the purchaser's")
        assertRefused(&store, .transactionNotFound, field: "transactionId") { try $0.revokeTransaction(transactionId: "1") }
        assertRefused(&store, .invalidTransactionId, field: "transactionId") { try $0.revokeTransaction(transactionId: "-1") }
    }

    func testRefundingTheCurrentPeriodRevokesTheSubscriptionAndFamilyCopies() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: monthly, familyShared: ["bob"])
        let original = try XCTUnwrap(bought.originalTransactionId)
        let copy = bought.transactionIds[1]
        XCTAssertEqual(try store.subscriptionStatuses(transactionId: copy)[0].lastTransactions.map(\.status), [.active])
        try store.refundTransaction(transactionId: bought.transactionIds[0], reason: .refundedForOtherReason)
        XCTAssertEqual(store.subscription(original)?.status, .revoked)
        XCTAssertEqual(try store.subscriptionStatuses(transactionId: copy)[0].lastTransactions.map(\.status), [.revoked])
        XCTAssertEqual(try store.subscriptionStatuses(transactionId: original, statuses: [.active]), [])
    }

    func testPriceIncreasePendingAcceptedAndUnanswered() throws {
        var store = emptyStore()
        let accepted = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly).originalTransactionId)
        let ignored = try XCTUnwrap(try store.buyProduct(customer: "bob", productId: monthly).originalTransactionId)
        for original in [accepted, ignored] {
            try store.priceIncrease(originalTransactionId: original, renewalPrice: 5_990, requiresConsent: true)
            XCTAssertEqual(try store.renewalInfo(transactionId: original).priceIncreaseStatus, 0)
        }
        assertRefused(&store, .invalidValue, field: "renewalPrice") {
            try $0.priceIncrease(originalTransactionId: accepted, renewalPrice: 100, requiresConsent: false)
        }
        try store.acceptPriceIncrease(originalTransactionId: accepted)
        XCTAssertEqual(try store.renewalInfo(transactionId: accepted).priceIncreaseStatus, 1)
        assertRefused(&store, .invalidState, field: "originalTransactionId") { try $0.acceptPriceIncrease(originalTransactionId: accepted) }
        try store.advance(by: 31 * StoreDuration.day)
        XCTAssertEqual(store.subscription(accepted)?.status, .active)
        let latest = try XCTUnwrap(store.subscription(accepted)).latestTransaction
        XCTAssertEqual(store.transactions[Int(latest)].price, 5_990)
        XCTAssertEqual(store.subscription(ignored)?.status, .expired)
        XCTAssertEqual(try store.renewalInfo(transactionId: ignored).expirationIntent, 3)
    }

    func testServerWrites() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: monthly)
        let original = try XCTUnwrap(bought.originalTransactionId)
        let renewed = try store.forceRenewalOfSubscription(originalTransactionId: original)
        let token = "2b1f7c3e-9a4d-4e55-8f6a-0123456789ab"
        try store.setAppAccountToken(originalTransactionId: original, token: token)
        XCTAssertEqual(try store.transactionInfo(transactionId: renewed.transactionIds[0]).appAccountToken, token)
        XCTAssertEqual(try store.renewalInfo(transactionId: original).appAccountToken, token)
        assertRefused(&store, .invalidAppAccountToken, field: "appAccountToken") {
            try $0.setAppAccountToken(originalTransactionId: original, token: "x")
        }
        assertRefused(&store, .transactionIdIsNotOriginalTransactionId, field: "originalTransactionId") {
            try $0.setAppAccountToken(originalTransactionId: renewed.transactionIds[0], token: token)
        }
        // Apple's Set App Account Token page: a malformed id is InvalidTransactionIdError, an
        // unknown one OriginalTransactionIdNotFoundError.
        assertRefused(&store, .invalidTransactionId, field: "originalTransactionId") {
            try $0.setAppAccountToken(originalTransactionId: "12x", token: token)
        }
        assertRefused(&store, .originalTransactionNotFound, field: "originalTransactionId") {
            try $0.setAppAccountToken(originalTransactionId: "999999999999", token: token)
        }

        let consumable = try store.buyProduct(customer: "alice", productId: coins).transactionIds[0]
        try store.finishTransaction(transactionId: consumable)
        XCTAssertTrue(try XCTUnwrap(store.transaction(consumable)).finished)
        assertRefused(&store, .transactionNotFound, field: "transactionId") { try $0.finishTransaction(transactionId: "42") }
        let information = ConsumptionInformation(customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
                                                 consumptionPercentage: 25_000, refundPreference: .decline)
        try store.sendConsumptionInformation(transactionId: consumable, information)
        XCTAssertEqual(store.transaction(consumable)?.consumption?.refundPreference, .decline)
        XCTAssertEqual(store.transaction(consumable)?.consumption?.receivedDate, store.now)
        var bad = information
        bad.consumptionPercentage = 100_001
        assertRefused(&store, .invalidValue, field: "consumptionPercentage") { try $0.sendConsumptionInformation(transactionId: consumable, bad) }
        // Version 2 takes every product type, version 1 consumables and auto-renewables only.
        let lifetime = try store.buyProduct(customer: "alice", productId: "com.example.receiptforge.pro").transactionIds[0]
        try store.sendConsumptionInformation(transactionId: lifetime, information)
        try store.sendConsumptionInformation(transactionId: original, information, request: .v1)
        assertRefused(&store, .transactionTypeNotSupported, field: "transactionId") {
            try $0.sendConsumptionInformation(transactionId: lifetime, information, request: .v1)
        }
        let json = String(decoding: store.stateJSON(), as: UTF8.self)
        XCTAssertTrue(json.contains(#""finished":true"#))
        XCTAssertTrue(json.contains(#""refundPreference":"DECLINE""#))
    }

    func testRenewalDateExtensionsAndTheirLimits() throws {
        var store = emptyStore()
        let original = try XCTUnwrap(try store.buyProduct(customer: "alice", productId: monthly, familyShared: ["bob"]).originalTransactionId)
        let before = try XCTUnwrap(store.subscription(original)).expiresDate
        assertRefused(&store, .invalidExtendByDays, field: "extendByDays") {
            try $0.extendRenewalDate(originalTransactionId: original, days: 91, reason: .serviceIssueOrOutage, requestIdentifier: "r0")
        }
        assertRefused(&store, .invalidRequestIdentifier, field: "requestIdentifier") {
            try $0.extendRenewalDate(originalTransactionId: original, days: 5, reason: .serviceIssueOrOutage, requestIdentifier: "")
        }
        let extended = try store.extendRenewalDate(originalTransactionId: original, days: 10, reason: .serviceIssueOrOutage, requestIdentifier: "r1")
        XCTAssertEqual(extended.effectiveDate, before + 10 * StoreDuration.day)
        XCTAssertEqual(try store.renewalInfo(transactionId: original).renewalDate?.milliseconds, Double(before + 10 * StoreDuration.day))
        XCTAssertEqual(try store.transactionInfo(transactionId: original).expiresDate?.milliseconds, Double(before + 10 * StoreDuration.day))
        let copy = try XCTUnwrap(store.subscriptions.first { $0.ownership == .familyShared })
        XCTAssertEqual(copy.expiresDate, before + 10 * StoreDuration.day, "the family copy moves with the purchaser's")
        assertRefused(&store, .familySharedSubscriptionExtensionIneligible, field: "originalTransactionId") {
            try $0.extendRenewalDate(originalTransactionId: String(copy.originalTransactionId), days: 1, reason: .other, requestIdentifier: "r")
        }
        try store.extendRenewalDate(originalTransactionId: original, days: 90, reason: .customerSatisfaction, requestIdentifier: "r2")
        assertRefused(&store, .subscriptionMaxExtension, field: "originalTransactionId") {
            try $0.extendRenewalDate(originalTransactionId: original, days: 1, reason: .other, requestIdentifier: "r3")
        }
        XCTAssertEqual(store.events.filter { $0.kind.name == "renewalExtended" }.count, 4, "two extensions, each for purchaser and copy")

        let expired = try XCTUnwrap(try store.buyProduct(customer: "carol", productId: monthly).originalTransactionId)
        try store.expireSubscription(originalTransactionId: expired)
        assertRefused(&store, .subscriptionExtensionIneligible, field: "originalTransactionId") {
            try $0.extendRenewalDate(originalTransactionId: expired, days: 1, reason: .other, requestIdentifier: "r4")
        }
    }

    func testMassExtension() throws {
        var store = emptyStore()
        for name in ["a", "b", "c"] { try store.buyProduct(customer: name, productId: monthly) }
        let capped = try XCTUnwrap(store.subscriptions.last).originalTransactionId
        try store.extendRenewalDate(originalTransactionId: String(capped), days: 1, reason: .other, requestIdentifier: "x1")
        try store.extendRenewalDate(originalTransactionId: String(capped), days: 1, reason: .other, requestIdentifier: "x2")
        assertRefused(&store, .invalidStorefrontCountryCode, field: "storefrontCountryCodes") {
            try $0.extendRenewalDatesForAllActiveSubscribers(productId: monthly, days: 3, reason: .other, requestIdentifier: "m",
                                                             storefrontCountryCodes: ["XXX"])
        }
        assertRefused(&store, .invalidProductId, field: "productId") {
            try $0.extendRenewalDatesForAllActiveSubscribers(productId: coins, days: 3, reason: .other, requestIdentifier: "m")
        }
        try store.extendRenewalDatesForAllActiveSubscribers(productId: monthly, days: 3, reason: .other, requestIdentifier: "m")
        let status = try store.massExtensionStatus(productId: monthly, requestIdentifier: "m")
        XCTAssertEqual([status.succeededCount, status.failedCount], [2, 1])
        XCTAssertTrue(status.complete)
        XCTAssertEqual(store.events.suffix(4).map(\.kind), [
            .renewalExtended(days: 3, requestIdentifier: "m"), .renewalExtended(days: 3, requestIdentifier: "m"),
            .renewalExtensionFailed(requestIdentifier: "m"), .renewalExtensionSummary(requestIdentifier: "m", succeeded: 2, failed: 1),
        ], "the subscription extended twice this year fails, and says so")
        XCTAssertEqual(store.events.suffix(2).first?.originalTransactionId, String(capped))
        XCTAssertEqual(store.events.last?.subject?.massExtension, status)
        XCTAssertThrowsError(try store.massExtensionStatus(productId: monthly, requestIdentifier: "other"))
    }

    func testClearTransactionsAndReset() throws {
        var store = StoreState()
        let json = store.stateJSON()
        let alice = StoreState.customerId(2)
        let owned = try XCTUnwrap(store.customers.first { $0.id == alice }).transactions.count
        XCTAssertGreaterThan(owned, 1)
        let count = store.transactions.count
        try store.clearTransactions(customer: alice)
        XCTAssertEqual(store.transactions.count, count - owned)
        XCTAssertEqual(try store.receiptPurchases(customer: alice), [])
        for (position, transaction) in store.transactions.enumerated() {
            XCTAssertEqual(store.transaction(String(transaction.transactionId)).map { _ in position }, position)
        }
        assertRefused(&store, .customerNotFound, field: "customer") { try $0.clearTransactions(customer: "nobody") }
        store.resetToDefaultState()
        XCTAssertEqual(store.stateJSON(), json)
    }

    func testOrderIdsAreDistinctAndLeadBack() throws {
        var store = emptyStore()
        var orders = Set<String>()
        for index in 0..<50 {
            let bought = try store.buyProduct(customer: "c\(index)", productId: coins)
            orders.insert(try XCTUnwrap(bought.orderId))
            XCTAssertEqual(store.lookUpOrder(orderId: try XCTUnwrap(bought.orderId)).transactions.first?.transactionId, bought.transactionIds[0])
        }
        XCTAssertEqual(orders.count, 50)
    }

    func testAppTransaction() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: coins)
        let payload = try store.appTransactionInfo(transactionId: bought.transactionIds[0])
        XCTAssertEqual(payload.bundleId, "com.example.receiptforge")
        XCTAssertEqual(payload.appAppleId, 1_234_567_890)
        XCTAssertEqual(payload.receiptType, "Production")
        XCTAssertEqual(payload.appTransactionId, try store.transactionInfo(transactionId: bought.transactionIds[0]).appTransactionId)
        XCTAssertEqual(try store.appTransactionInfo(transactionId: try XCTUnwrap(payload.appTransactionId)), payload)
        XCTAssertThrowsError(try store.appTransactionInfo(transactionId: "5")) { error in
            XCTAssertEqual((error as? StoreError)?.code, .appTransactionDoesNotExist)
        }
    }
}
