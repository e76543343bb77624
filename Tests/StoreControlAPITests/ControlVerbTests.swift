import Foundation
import LocalAppStore
import Receipt
import StoreControlAPI
import StrictJSON
import TestSupport
import XCTest

/// Every verb's happy path through the handler, and its effect seen in the store.
final class ControlVerbTests: XCTestCase {
    func testBuyProductWithEveryMember() throws { try Self.buyProductWithEveryMember(ControlHarness()) }
    func testTheSandboxPathActsOnTheSandboxStoreOnly() throws { try Self.theSandboxPathActsOnTheSandboxStoreOnly(ControlHarness()) }
    func testSubscriptionLifecycleVerbs() throws { try Self.subscriptionLifecycleVerbs(ControlHarness()) }
    func testChangeRenewalProductUpgradesAtOnceAndDowngradesAtRenewal() throws { try Self.changeRenewalProductUpgradesAtOnceAndDowngradesAtRenewal(ControlHarness()) }
    func testRefundVerbs() throws { try Self.refundVerbs(ControlHarness()) }
    func testAdvanceClockBySecondsMillisecondsAndToAnInstant() throws { try Self.advanceClockBySecondsMillisecondsAndToAnInstant(ControlHarness()) }
    func testClearTransactionsAndResetToDefaultState() throws { try Self.clearTransactionsAndResetToDefaultState(ControlHarness()) }
    func testStateIsTheStoresJSONWithAPointerToItsSchema() throws { try Self.stateIsTheStoresJSONWithAPointerToItsSchema(ControlHarness()) }
    func testStateNarrowsToACustomerAndPagesTheEvents() throws { try Self.stateNarrowsToACustomerAndPagesTheEvents(ControlHarness()) }
    func testReceiptHoldsTheCustomersTransactionsAtTheStoresInstant() throws {
        try Self.receiptHoldsTheCustomersTransactionsAtTheStoresInstant(ControlHarness())
    }

    /// The scenarios above, each on a harness of its own (`ControlSchemaTests` records them).
    static var scenarios: [(ControlHarness) throws -> Void] {
        [
            buyProductWithEveryMember,
            theSandboxPathActsOnTheSandboxStoreOnly,
            subscriptionLifecycleVerbs,
            changeRenewalProductUpgradesAtOnceAndDowngradesAtRenewal,
            refundVerbs,
            advanceClockBySecondsMillisecondsAndToAnInstant,
            clearTransactionsAndResetToDefaultState,
            stateIsTheStoresJSONWithAPointerToItsSchema,
            stateNarrowsToACustomerAndPagesTheEvents,
            receiptHoldsTheCustomersTransactionsAtTheStoresInstant,
        ]
    }

    static func buyProductWithEveryMember(_ harness: ControlHarness) throws {
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let bought = try harness.ok("buyProduct", #"""
            {"customer": "alice", "productId": "\#(coins)", "quantity": 3, "appAccountToken": "\#(token)", "storefront": "GBR"}
            """#)
        XCTAssertEqual(bought.transactionIds.count, 1)
        XCTAssertEqual(bought.orderId?.count, 10)
        XCTAssertEqual(bought.events.map(\.type), ["purchased"])
        let transaction = try XCTUnwrap(harness.transaction(bought.transactionIds[0]))
        XCTAssertEqual(transaction.quantity, 3)
        XCTAssertEqual(transaction.appAccountToken?.description, token.lowercased())
        XCTAssertEqual(harness.production.read { $0.customers.first?.storefront }, .gbr)

        let shared = try harness.ok("buyProduct", #"{"customer": "bob", "productId": "\#(weekly)", "offer": {"type": "introductory"}, "familyShared": ["carol", "dan"]}"#)
        XCTAssertEqual(shared.transactionIds.count, 3, "the buyer's transaction and one copy per family member")
        XCTAssertEqual(Set(shared.events.map(\.customerId)), ["bob", "carol", "dan"])
        XCTAssertEqual(harness.transaction(shared.transactionIds[0])?.offer?.type, .introductoryOffer)
        XCTAssertEqual(harness.transaction(shared.transactionIds[1])?.ownership, .familyShared)

        let promoted = try harness.ok("buyProduct", #"{"customer": "erin", "productId": "\#(monthly)", "offer": {"type": "promotional", "id": "spring", "discountType": "PAY_UP_FRONT"}}"#)
        XCTAssertEqual(harness.transaction(promoted.transactionIds[0])?.offer,
                       TransactionOffer(type: .promotionalOffer, identifier: "spring", discountType: .payUpFront))
    }

    static func theSandboxPathActsOnTheSandboxStoreOnly(_ harness: ControlHarness) throws {
        let production = harness.production.read { $0.stateJSON() }
        let bought = try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(pro)"}"#, environment: .sandbox)
        XCTAssertTrue(bought.transactionIds[0].hasPrefix("2"), "sandbox ids start at 2000…")
        XCTAssertNotNil(harness.transaction(bought.transactionIds[0], in: harness.sandbox))
        XCTAssertEqual(harness.production.read { $0.stateJSON() }, production)
        let state = harness.send("GET", "/sandbox/forge/v1/state")
        XCTAssertEqual(state.body, harness.sandbox.read { $0.stateJSON() })
    }

    static func subscriptionLifecycleVerbs(_ harness: ControlHarness) throws {
        let original = try harness.subscribe("alice")
        let body = #"{"originalTransactionId": "\#(original)"}"#

        try harness.ok("advanceClock", #"{"seconds": 86400}"#)
        let renewed = try harness.ok("forceRenewalOfSubscription", body)
        XCTAssertEqual(renewed.transactionIds.count, 1)
        XCTAssertEqual(harness.transaction(renewed.transactionIds[0])?.reason, .renewal)
        XCTAssertEqual(harness.subscription(original)?.latestTransaction,
                       harness.production.read { state in Int32(state.transactions.firstIndex { String($0.transactionId) == renewed.transactionIds[0] }!) })

        let disabled = try harness.ok("disableAutoRenewForTransaction", body)
        XCTAssertEqual(disabled.events.map(\.type), ["autoRenewChanged"])
        XCTAssertEqual(harness.subscription(original)?.autoRenewStatus, false)
        try harness.ok("enableAutoRenewForTransaction", body)
        XCTAssertEqual(harness.subscription(original)?.autoRenewStatus, true)

        let failed = try harness.ok("failRenewal", #"{"originalTransactionId": "\#(original)", "gracePeriod": true}"#)
        XCTAssertEqual(failed.events.map(\.type), ["failedToRenew"])
        XCTAssertEqual(harness.subscription(original)?.status, .billingGracePeriod)
        let recovered = try harness.ok("recoverBilling", body)
        XCTAssertEqual(recovered.transactionIds.count, 1)
        XCTAssertEqual(harness.subscription(original)?.status, .active)

        try harness.ok("failRenewal", #"{"originalTransactionId": "\#(original)", "gracePeriod": false, "when": "atNextRenewal"}"#)
        XCTAssertEqual(harness.subscription(original)?.pendingBillingFailure, .billingRetry)
        XCTAssertEqual(harness.subscription(original)?.status, .active)
        try harness.ok("recoverBilling", body)
        XCTAssertNil(harness.subscription(original)?.pendingBillingFailure)

        let raised = try harness.ok("priceIncrease", #"{"originalTransactionId": "\#(original)", "renewalPrice": 99990}"#)
        XCTAssertEqual(raised.events.map(\.type), ["priceIncrease"])
        XCTAssertEqual(harness.subscription(original)?.priceIncreaseStatus, .customerHasNotResponded)
        XCTAssertEqual(harness.subscription(original)?.renewalPrice, 99_990)
        try harness.ok("acceptPriceIncrease", body)
        XCTAssertEqual(harness.subscription(original)?.priceIncreaseStatus, .customerConsentedOrWasNotifiedWithoutNeedingConsent)
        try harness.ok("priceIncrease", #"{"originalTransactionId": "\#(original)", "renewalPrice": 199990, "requiresConsent": false}"#)
        XCTAssertEqual(harness.subscription(original)?.priceIncreaseStatus, .customerConsentedOrWasNotifiedWithoutNeedingConsent)

        let expired = try harness.ok("expireSubscription", body)
        XCTAssertEqual(expired.events.map(\.type), ["expired"])
        XCTAssertEqual(harness.subscription(original)?.status, .expired)
        XCTAssertEqual(harness.subscription(original)?.expirationIntent, .customerCancelled)

        for (reason, intent) in [("productNotForSale", ExpirationIntent.productNotAvailable), ("other", .other)] {
            let another = try harness.subscribe("\(reason)-customer")
            let ended = try harness.ok("expireSubscription", #"{"originalTransactionId": "\#(another)", "reason": "\#(reason)"}"#)
            XCTAssertEqual(ended.events.map(\.type), ["expired"])
            XCTAssertEqual(harness.subscription(another)?.expirationIntent, intent, reason)
        }
    }

    static func changeRenewalProductUpgradesAtOnceAndDowngradesAtRenewal(_ harness: ControlHarness) throws {
        let original = try harness.subscribe("alice")
        let upgraded = try harness.ok("changeRenewalProduct", #"{"originalTransactionId": "\#(original)", "productId": "\#(yearly)"}"#)
        XCTAssertEqual(upgraded.transactionIds.count, 1, "an upgrade starts a new period now")
        XCTAssertEqual(upgraded.events.map(\.type), ["renewalPreferenceChanged"])
        let yearlyIndex = harness.production.read { state in state.products.firstIndex { $0.id == yearly }.map(Int32.init) }
        XCTAssertEqual(harness.subscription(original)?.product, yearlyIndex)
        let downgraded = try harness.ok("changeRenewalProduct", #"{"originalTransactionId": "\#(original)", "productId": "\#(weekly)"}"#)
        XCTAssertEqual(downgraded.transactionIds, [], "a downgrade waits for the renewal")
        XCTAssertEqual(harness.subscription(original)?.product, yearlyIndex)
        XCTAssertNotEqual(harness.subscription(original)?.autoRenewProduct, yearlyIndex)
    }

    static func refundVerbs(_ harness: ControlHarness) throws {
        let consumable = try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(coins)"}"#).transactionIds[0]
        let body = #"{"transactionId": "\#(consumable)"}"#

        let requested = try harness.ok("requestConsumptionInformation", #"{"transactionId": "\#(consumable)", "reason": "FULFILLMENT_ISSUE"}"#)
        XCTAssertEqual(requested.events.map(\.type), ["consumptionRequested"])
        XCTAssertEqual(harness.transaction(consumable)?.refundRequest?.reason, .fulfillmentIssue)
        try harness.ok("declineRefund", body)
        XCTAssertNil(harness.transaction(consumable)?.refundRequest)

        let refunded = try harness.ok("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 1}"#)
        XCTAssertEqual(refunded.events.map(\.type), ["refunded"])
        XCTAssertEqual(harness.transaction(consumable)?.revocationReason, .refundedDueToIssue)
        XCTAssertNotNil(harness.transaction(consumable)?.revocationDate)
        try harness.ok("reverseRefund", body)
        XCTAssertNil(harness.transaction(consumable)?.revocationDate)

        let prorated = try harness.ok("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 0, "percentage": 25000}"#)
        XCTAssertEqual(prorated.events.map(\.type), ["refunded"])
        XCTAssertEqual(harness.transaction(consumable)?.revocationType, .refundProrated)
        XCTAssertEqual(harness.transaction(consumable)?.revocationPercentage, 25_000)
        try harness.ok("reverseRefund", body)
        // A purchaser's own purchase taken back is a refund: REVOKE is Family Sharing's.
        let revoked = try harness.ok("revokeTransaction", body)
        XCTAssertEqual(revoked.events.map(\.type), ["refunded"])
        XCTAssertEqual(harness.transaction(consumable)?.revocationReason, .refundedForOtherReason)
    }

    static func advanceClockBySecondsMillisecondsAndToAnInstant(_ harness: ControlHarness) throws {
        let original = try harness.subscribe("alice", to: weekly)
        let start = harness.production.read { $0.now }
        try harness.ok("advanceClock", #"{"milliseconds": 1500}"#)
        XCTAssertEqual(harness.production.read { $0.now }, start + 1_500)
        try harness.ok("advanceClock", #"{"seconds": 60}"#)
        XCTAssertEqual(harness.production.read { $0.now }, start + 61_500)
        let target = start + 8 * StoreDuration.day
        let advanced = try harness.ok("advanceClock", #"{"to": \#(target)}"#)
        XCTAssertEqual(harness.production.read { $0.now }, target)
        XCTAssertEqual(advanced.events.map(\.type), ["renewed"], "the weekly subscription renewed on the way")
        XCTAssertEqual(advanced.transactionIds.count, 1)
        XCTAssertEqual(harness.subscription(original)?.status, .active)
    }

    static func clearTransactionsAndResetToDefaultState(_ harness: ControlHarness) throws {
        try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(pro)"}"#)
        let bob = try harness.ok("buyProduct", #"{"customer": "bob", "productId": "\#(pro)"}"#).transactionIds[0]
        let cleared = try harness.ok("clearTransactions", #"{"customer": "alice"}"#)
        XCTAssertEqual(cleared.transactionIds, [])
        XCTAssertEqual(harness.production.read { state in state.transactions.map { String($0.transactionId) } }, [bob])
        XCTAssertEqual(harness.production.read { $0.customers.count }, 2, "the customer stays")

        let fresh = LocalAppStore(StoreConfiguration(environment: .production, customers: 0)).read { $0.stateJSON() }
        try harness.ok("resetToDefaultState", "")
        XCTAssertEqual(harness.production.read { $0.stateJSON() }, fresh)
        try harness.ok("buyProduct", #"{"customer": "carol", "productId": "\#(pro)"}"#)
        try harness.ok("resetToDefaultState", "{}")
        XCTAssertEqual(harness.production.read { $0.stateJSON() }, fresh)
    }

    static func stateIsTheStoresJSONWithAPointerToItsSchema(_ harness: ControlHarness) throws {
        try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(pro)"}"#)
        let response = harness.send("GET", "/forge/v1/state")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, harness.production.read { $0.stateJSON() })
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.header("Link"), "<urn:receipt-forge:schema:store-state>; rel=\"describedby\"")
        let schema = try JSONValue(contentsOf: JSONSchemaOracle.schemaURL("store-state"))
        XCTAssertEqual(schema["$id"]?.stringValue, StoreControlHandler.stateSchemaIdentifier)
        // A parameter the state verb does not have is refused, not ignored: a misspelt filter must not answer the whole store.
        let unknown = harness.send("GET", "/forge/v1/state?pretty=1")
        XCTAssertEqual(unknown.status, 400)
        XCTAssertTrue(String(decoding: unknown.body, as: UTF8.self).contains("'pretty' is not a parameter of state"))
    }

    /// `?customer=` narrows the document to one customer; `eventsFrom` and `eventsLimit`
    /// page the events (review finding 2: no request has to take the whole store).
    static func stateNarrowsToACustomerAndPagesTheEvents(_ harness: ControlHarness) throws {
        let alice = try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(monthly)"}"#)
        try harness.ok("buyProduct", #"{"customer": "bob", "productId": "\#(pro)"}"#)
        try harness.ok("advanceClock", #"{"seconds": 8000000}"#)
        let whole = try JSONParser.parse(harness.send("GET", "/forge/v1/state").body)
        let narrowed = harness.send("GET", "/forge/v1/state?customer=alice")
        XCTAssertEqual(narrowed.status, 200)
        let document = try JSONParser.parse(narrowed.body)
        XCTAssertEqual(document["customers"]?.arrayValue?.compactMap { $0["customerId"]?.stringValue }, ["alice"])
        let transactions = document["transactions"]?.arrayValue ?? []
        XCTAssertEqual(transactions.count, 4, "the purchase and three renewals")
        XCTAssertTrue(transactions.allSatisfy { $0["customerId"]?.stringValue == "alice" })
        XCTAssertEqual(document["subscriptions"]?.arrayValue?.compactMap { $0["originalTransactionId"]?.stringValue }, [alice.transactionIds[0]])
        let events = document["events"]?.arrayValue ?? []
        XCTAssertEqual(events.count, 4)
        XCTAssertTrue(events.allSatisfy { $0["customerId"]?.stringValue == "alice" })
        XCTAssertEqual(whole["events"]?.arrayValue?.count, 5, "bob's purchase too")
        XCTAssertEqual(document["products"], whole["products"])

        // Pages of two events: 1–2, 3–4, 5.
        var pages: [[JSONValue]] = []
        var from = 1
        while true {
            let page = try JSONParser.parse(harness.send("GET", "/forge/v1/state?eventsFrom=\(from)&eventsLimit=2").body)
            pages.append(page["events"]?.arrayValue ?? [])
            guard let next = page["nextEventsFrom"]?.intValue else { break }
            from = next
        }
        XCTAssertEqual(pages.map(\.count), [2, 2, 1])
        XCTAssertEqual(pages.flatMap { $0 }, whole["events"]?.arrayValue)
        XCTAssertNil(whole["nextEventsFrom"], "no page, no next")

        for (query, field) in [("customer=nobody", "customer"), ("eventsFrom=0", "eventsFrom"), ("eventsLimit=x", "eventsLimit"),
                               ("eventsLimit=100001", "eventsLimit"), ("customer=alice&customer=bob", "customer"), ("custom=alice", "query")] {
            let refused = harness.send("GET", "/forge/v1/state?\(query)")
            XCTAssertEqual(refused.status, 400, query)
            XCTAssertEqual(try JSONParser.parse(refused.body)["error"]?["field"]?.stringValue, field, query)
        }
    }

    /// The receipt verb's answer.
    struct ReceiptAnswer: Decodable {
        var customer: String
        var creationDate: Int64
        var receiptData: String
    }

    /// The receipt verb mints, at the store's instant, a receipt whose in-app records are
    /// the customer's transactions (a refund shows as a cancellation), changes nothing,
    /// and follows the clock; an unknown customer is refused by name.
    static func receiptHoldsTheCustomersTransactionsAtTheStoresInstant(_ harness: ControlHarness) throws {
        let subscription = try harness.subscribe("alice")
        let bought = try harness.ok("buyProduct", #"{"customer": "alice", "productId": "\#(pro)"}"#)
        try harness.ok("buyProduct", #"{"customer": "bob", "productId": "\#(pro)"}"#)
        try harness.ok("advanceClock", #"{"seconds": 3600}"#)
        try harness.ok("refundTransaction", #"{"transactionId": "\#(bought.transactionIds[0])", "reason": 1}"#)
        let before = harness.production.read { $0.stateJSON() }

        func receipt(_ customer: String) throws -> (answer: ReceiptAnswer, receipt: AppReceipt) {
            let response = harness.send("POST", "/forge/v1/receipt", #"{"customer": "\#(customer)"}"#)
            XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
            XCTAssertEqual(response.header("Content-Type"), "application/json")
            let answer = try decodeJSON(ReceiptAnswer.self, from: response.body)
            let bytes = try XCTUnwrap(Data(base64Encoded: answer.receiptData), "receiptData is base64")
            return (answer, try PKCS7SignedData(bytes: Array(bytes)).decodeReceipt())
        }
        let (answer, minted) = try receipt("alice")
        XCTAssertEqual(harness.production.read { $0.stateJSON() }, before, "minting a receipt changes nothing")
        let now = harness.production.read { $0.now }
        XCTAssertEqual(answer.customer, "alice")
        XCTAssertEqual(answer.creationDate, now / 1_000 * 1_000)
        XCTAssertEqual(minted.creationDate?.secondsSince1970, now / 1_000)
        let records = Dictionary(uniqueKeysWithValues: minted.inAppPurchases.map { ($0.transactionIdentifier ?? "", $0) })
        XCTAssertEqual(Set(records.keys), [subscription, bought.transactionIds[0]], "alice's transactions, not bob's")
        let refunded = try XCTUnwrap(harness.transaction(bought.transactionIds[0]))
        XCTAssertEqual(records[bought.transactionIds[0]]?.productIdentifier, pro)
        XCTAssertEqual(records[bought.transactionIds[0]]?.cancellationDate?.secondsSince1970,
                       refunded.revocationDate.map { $0 / 1_000 })
        XCTAssertNotNil(refunded.revocationDate)
        XCTAssertEqual(records[subscription]?.subscriptionExpirationDate?.secondsSince1970,
                       harness.transaction(subscription)?.expiresDate.map { $0 / 1_000 })

        try harness.ok("advanceClock", #"{"seconds": 86400}"#)
        XCTAssertEqual(try receipt("alice").receipt.creationDate?.secondsSince1970, now / 1_000 + 86_400, "the receipt follows the clock")
        try harness.refused("receipt", #"{"customer": "nobody"}"#, code: "customerNotFound", field: "customer")
        try harness.refused("receipt", #"{"customerId": "alice"}"#, code: "invalidRequest", field: "$.customerId")
    }

    func testAStoreLookupClosureChoosesTheStore() throws {
        let sandbox = LocalAppStore(StoreConfiguration(environment: .sandbox, customers: 0))
        let handler = StoreControlHandler { $0 == .sandbox ? sandbox : nil }
        let bought = handler.respond(method: "POST", path: "/sandbox/forge/v1/buyProduct",
                                     body: Array(#"{"customer": "alice", "productId": "\#(pro)"}"#.utf8))
        XCTAssertEqual(bought.status, 200)
        XCTAssertEqual(sandbox.read { $0.transactions.count }, 1)
        let production = handler.respond(method: "GET", path: "/forge/v1/state", body: [])
        XCTAssertEqual(production.status, 404)
        XCTAssertEqual(try decodeJSON(ErrorAnswer.self, from: production.body).error.code, "environmentNotServed")
    }
}
