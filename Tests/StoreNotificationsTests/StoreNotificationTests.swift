import AppInput
import ForgeCA
import Foundation
import LocalAppStore
import StoreKit2
import StoreNotifications
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

private let monthly = "com.example.receiptforge.subscription.monthly"
private let yearly = "com.example.receiptforge.subscription.yearly"
private let weekly = "com.example.receiptforge.subscription.weekly"
private let coins = "com.example.receiptforge.coins100"
private let pro = "com.example.receiptforge.pro"

/// Drives a production store through actions, signs the notifications of each action's
/// events, and checks each against the Server API's answers right after the action (the
/// store has not moved: every event of a step is at the store's instant).
private final class NotificationRun {
    let stores: LocalAppStores
    let handler: ServerAPIHandler
    let signer: NotificationSigner
    private(set) var notifications: [SignedNotification] = []
    /// (event, its notification) of every step, for the nested-JWS checks.
    private(set) var checked = 0

    init(seed: UInt64) {
        stores = LocalAppStores(StoreConfiguration(seed: seed, customers: 0))
        handler = ServerAPIHandler(stores: stores, authentication: .disabled)
        signer = NotificationSigner(configuration: stores.production.configuration)
    }

    var store: LocalAppStore { stores.production }

    /// Runs `action`, checks its notifications' kinds are `expected` (in order) when given, and returns the result.
    @discardableResult
    func step(_ expected: [String]?, file: StaticString = #filePath, line: UInt = #line,
              _ action: (inout StoreState) throws -> StoreActionResult) throws -> StoreActionResult {
        let result = try store.write { state in try action(&state) }
        let signed = try signer.notifications(for: result.events)
        if let expected {
            XCTAssertEqual(signed.map(\.kind.description), expected, file: file, line: line)
        }
        for (event, notification) in zip(result.events, signed) {
            try check(notification, of: event, file: file, line: line)
        }
        notifications += signed
        return result
    }

    /// Moves the clock to `target` one due date at a time (so each step's events share
    /// the store's instant) and returns the kinds of the notifications on the way.
    func advance(to target: StoreInstant, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        var kinds: [String] = []
        for _ in 0..<1_000 {
            let next = min(store.read { Self.nextDue($0) } ?? target, target)
            let before = notifications.count
            try step(nil, file: file, line: line) { try $0.advance(to: next) }
            kinds += notifications[before...].map(\.kind.description)
            if next == target { return kinds }
        }
        XCTFail("the clock did not reach \(target)", file: file, line: line)
        return kinds
    }

    /// When the clock next changes a purchased subscription by itself.
    static func nextDue(_ state: StoreState) -> StoreInstant? {
        state.subscriptions.filter { $0.ownership == .purchased }.compactMap { subscription -> StoreInstant? in
            switch subscription.status {
            case .active: return subscription.expiresDate
            case .billingGracePeriod: return subscription.gracePeriodExpiresDate
            case .billingRetry: return subscription.billingRetryEndDate
            case .expired, .revoked: return nil
            }
        }.min()
    }

    /// The notification says what the event is, when, and holds what the Server API
    /// answers now for the event's transaction and subscription, byte for byte.
    private func check(_ notification: SignedNotification, of event: StoreEvent, file: StaticString, line: UInt) throws {
        checked += 1
        let now = store.read { $0.now }
        XCTAssertEqual(event.date, now, "a step's events are at the store's instant", file: file, line: line)
        let jws = try CompactJWS(notification.signedPayload)
        let decoded = try StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: jws.payload, at: "notification")
        XCTAssertEqual(decoded, notification.decodedPayload, file: file, line: line)
        XCTAssertEqual(decoded.notificationType, notification.notificationType.rawValue, file: file, line: line)
        XCTAssertEqual(decoded.subtype, notification.subtype?.rawValue, file: file, line: line)
        XCTAssertEqual(decoded.version, "2.0", file: file, line: line)
        XCTAssertEqual(decoded.signedDate, JWSDate(milliseconds: event.date), file: file, line: line)
        XCTAssertEqual(decoded.notificationUUID, notification.notificationUUID, file: file, line: line)

        if case .renewalExtensionSummary(let request, let succeeded, let failed) = event.kind {
            XCTAssertNil(decoded.data, file: file, line: line)
            let summary = try XCTUnwrap(decoded.summary, file: file, line: line)
            let status = try get("/inApps/v1/subscriptions/extend/mass/\(event.productId ?? "")/\(request)")
            XCTAssertEqual(summary.requestIdentifier, request, file: file, line: line)
            XCTAssertEqual(summary.productId, event.productId, file: file, line: line)
            XCTAssertEqual(summary.succeededCount, Int64(succeeded), file: file, line: line)
            XCTAssertEqual(summary.failedCount, Int64(failed), file: file, line: line)
            XCTAssertEqual(status["succeededCount"]?.intValue, succeeded, file: file, line: line)
            XCTAssertEqual(status["failedCount"]?.intValue, failed, file: file, line: line)
            XCTAssertEqual(summary.appAppleId, store.configuration.appAppleId, file: file, line: line)
            return
        }
        let data = try XCTUnwrap(decoded.data, "\(notification.kind) has no data", file: file, line: line)
        XCTAssertNil(decoded.summary, file: file, line: line)
        XCTAssertEqual(data.environment, "Production", file: file, line: line)
        XCTAssertEqual(data.bundleId, store.configuration.app.bundleIdentifier, file: file, line: line)
        XCTAssertEqual(data.bundleVersion, store.configuration.app.version, file: file, line: line)
        XCTAssertEqual(data.appAppleId, store.configuration.appAppleId, file: file, line: line)
        if case .consumptionRequested(let reason) = event.kind {
            XCTAssertEqual(data.consumptionRequestReason, reason.rawValue, file: file, line: line)
        } else {
            XCTAssertNil(data.consumptionRequestReason, file: file, line: line)
        }

        let transactionId = try XCTUnwrap(event.transactionId, file: file, line: line)
        let info = try get("/inApps/v1/transactions/\(transactionId)")
        XCTAssertEqual(data.signedTransactionInfo, info["signedTransactionInfo"]?.stringValue,
                       "\(notification.kind): signedTransactionInfo is not Get Transaction Info's", file: file, line: line)
        let transaction = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self,
                                                   from: try CompactJWS(XCTUnwrap(data.signedTransactionInfo)).payload, at: "transaction")
        XCTAssertEqual(transaction.transactionId, event.transactionId, file: file, line: line)
        XCTAssertEqual(transaction.originalTransactionId, event.originalTransactionId, file: file, line: line)
        XCTAssertEqual(transaction.signedDate, JWSDate(milliseconds: event.date), file: file, line: line)

        guard transaction.type == Product.Kind.autoRenewableSubscription.appleType else {
            XCTAssertNil(data.signedRenewalInfo, file: file, line: line)
            XCTAssertNil(data.status, file: file, line: line)
            return
        }
        let statuses = try get("/inApps/v1/subscriptions/\(transactionId)")
        let items = (statuses["data"]?.arrayValue ?? []).flatMap { $0["lastTransactions"]?.arrayValue ?? [] }
        let item = try XCTUnwrap(items.first { $0["originalTransactionId"]?.stringValue == event.originalTransactionId },
                                 "no status for \(event.originalTransactionId ?? "-")", file: file, line: line)
        XCTAssertEqual(data.signedRenewalInfo, item["signedRenewalInfo"]?.stringValue,
                       "\(notification.kind): signedRenewalInfo is not Get All Subscription Statuses'", file: file, line: line)
        XCTAssertEqual(data.status, item["status"]?.intValue, file: file, line: line)
        if transactionId == (try? StoreKit2JSON.decode(JWSTransactionDecodedPayload.self,
                                                       from: try CompactJWS(item["signedTransactionInfo"]?.stringValue ?? "").payload,
                                                       at: "status"))?.transactionId {
            XCTAssertEqual(data.signedTransactionInfo, item["signedTransactionInfo"]?.stringValue, file: file, line: line)
        }
    }

    private func get(_ path: String) throws -> JSONValue {
        let response = handler.respond(to: ServerAPIRequest(method: "GET", path: path))
        guard response.status == 200 else {
            throw NSError(domain: "GET \(path)", code: response.status,
                          userInfo: [NSLocalizedDescriptionKey: String(decoding: response.body, as: UTF8.self)])
        }
        return try JSONValue(json: Data(response.body))
    }

    func subscription(_ originalTransactionId: String?) -> StoreSubscription? {
        store.read { state in state.subscriptions.first { String($0.originalTransactionId) == originalTransactionId } }
    }
}

final class StoreNotificationTests: XCTestCase {
    /// Every event kind the store has, each checked against the Server API at its instant;
    /// the run covers every notification type and every subtype the store can cause.
    private func everyEvent(seed: UInt64 = 11, file: StaticString = #filePath, line: UInt = #line) throws -> NotificationRun {
        let run = NotificationRun(seed: seed)
        let alice = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "alice", productId: monthly) }
        let aliceId = try XCTUnwrap(alice.originalTransactionId)
        let bob = try run.step(["OFFER_REDEEMED/INITIAL_BUY"]) {
            try $0.buyProduct(customer: "bob", productId: monthly, offer: .promotional(id: "comeback", discount: .payAsYouGo))
        }
        let carol = try run.step(["ONE_TIME_CHARGE"]) { try $0.buyProduct(customer: "carol", productId: coins, quantity: 2) }
        let dave = try run.step(["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"]) {
            try $0.buyProduct(customer: "dave", productId: pro, familyShared: ["erin"])
        }
        try run.step(["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]) { try $0.disableAutoRenew(originalTransactionId: aliceId) }
        try run.step(["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"]) { try $0.enableAutoRenew(originalTransactionId: aliceId) }
        try run.step(["DID_RENEW"]) { try $0.forceRenewalOfSubscription(originalTransactionId: aliceId) }
        try run.step(["DID_FAIL_TO_RENEW/GRACE_PERIOD"]) { try $0.failRenewal(originalTransactionId: aliceId, gracePeriod: true) }
        try run.step(["DID_RENEW/BILLING_RECOVERY"]) { try $0.recoverBilling(originalTransactionId: aliceId) }
        try run.step(["DID_CHANGE_RENEWAL_PREF/UPGRADE"]) { try $0.changeRenewalProduct(originalTransactionId: aliceId, productId: yearly) }
        try run.step(["DID_CHANGE_RENEWAL_PREF/DOWNGRADE"]) { try $0.changeRenewalProduct(originalTransactionId: aliceId, productId: weekly) }
        try run.step(["DID_CHANGE_RENEWAL_PREF"]) { try $0.changeRenewalProduct(originalTransactionId: aliceId, productId: yearly) }
        let alicePrice = try XCTUnwrap(run.subscription(aliceId)).renewalPrice
        try run.step(["PRICE_INCREASE/PENDING"]) {
            try $0.priceIncrease(originalTransactionId: aliceId, renewalPrice: alicePrice + 1_000, requiresConsent: true)
        }
        try run.step(["PRICE_INCREASE/ACCEPTED"]) { try $0.acceptPriceIncrease(originalTransactionId: aliceId) }
        try run.step(["RENEWAL_EXTENDED"]) {
            try $0.extendRenewalDate(originalTransactionId: aliceId, days: 3, reason: .customerSatisfaction, requestIdentifier: "one")
        }
        let frank = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "frank", productId: monthly) }
        try run.step(["DID_FAIL_TO_RENEW"]) { try $0.failRenewal(originalTransactionId: XCTUnwrap(frank.originalTransactionId), gracePeriod: false) }
        let gina = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "gina", productId: monthly) }
        let ginaPrice = try XCTUnwrap(run.subscription(gina.originalTransactionId)).renewalPrice
        try run.step(["PRICE_INCREASE/PENDING"]) {
            try $0.priceIncrease(originalTransactionId: XCTUnwrap(gina.originalTransactionId), renewalPrice: ginaPrice + 500, requiresConsent: true)
        }
        let henry = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "henry", productId: monthly) }
        try run.step(["DID_FAIL_TO_RENEW/GRACE_PERIOD"]) {
            try $0.failRenewal(originalTransactionId: XCTUnwrap(henry.originalTransactionId), gracePeriod: true)
        }
        // bob and gina are extended; frank (billing retry) and henry (grace period) are not eligible.
        try run.step(["RENEWAL_EXTENDED", "RENEWAL_EXTENSION/FAILURE", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/FAILURE",
                      "RENEWAL_EXTENSION/SUMMARY"]) {
            try $0.extendRenewalDatesForAllActiveSubscribers(productId: monthly, days: 2, reason: .serviceIssueOrOutage, requestIdentifier: "mass")
        }
        let coinsId = carol.transactionIds[0]
        try run.step(["CONSUMPTION_REQUEST"]) { try $0.requestConsumptionInformation(transactionId: coinsId, reason: .unintendedPurchase) }
        try run.step(["REFUND_DECLINED"]) { try $0.declineRefund(transactionId: coinsId) }
        try run.step(["REFUND"]) { try $0.refundTransaction(transactionId: coinsId, reason: .refundedDueToIssue) }
        try run.step(["REFUND_REVERSED"]) { try $0.reverseRefund(transactionId: coinsId) }
        try run.step(["REVOKE"]) { try $0.revokeTransaction(transactionId: dave.transactionIds[1]) }
        // A refunded subscription is revoked in the same write: the notification says so (status 5).
        let ivan = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "ivan", productId: monthly) }
        try run.step(["REFUND"]) { try $0.refundTransaction(transactionId: ivan.transactionIds[0], reason: .refundedForOtherReason) }
        XCTAssertEqual(run.notifications.last?.decodedPayload.data?.status, SubscriptionStatus.revoked.rawValue, file: file, line: line)
        try run.step(["REFUND_REVERSED"]) { try $0.reverseRefund(transactionId: ivan.transactionIds[0]) }
        XCTAssertEqual(run.notifications.last?.decodedPayload.data?.status, SubscriptionStatus.active.rawValue, file: file, line: line)
        try run.step(["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]) {
            try $0.disableAutoRenew(originalTransactionId: XCTUnwrap(bob.originalTransactionId))
        }
        try run.step(["EXPIRED/VOLUNTARY"]) { try $0.expireSubscription(originalTransactionId: XCTUnwrap(ivan.originalTransactionId)) }
        try run.step(["OFFER_REDEEMED/RESUBSCRIBE"]) {
            try $0.buyProduct(customer: "ivan", productId: monthly, offer: .offerCode(id: "SPRING", discount: .payUpFront))
        }
        let jack = try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "jack", productId: weekly) }
        try run.step(["EXPIRED/PRODUCT_NOT_FOR_SALE"]) {
            try $0.expireSubscription(originalTransactionId: XCTUnwrap(jack.originalTransactionId), reason: .productNotForSale)
        }
        try run.step(["SUBSCRIBED/RESUBSCRIBE"]) { try $0.buyProduct(customer: "jack", productId: monthly) }
        return run
    }

    func testEveryEventGivesApplesNotificationWithTheServerAPIsPayloadsAtItsInstant() throws {
        let run = try everyEvent()
        let start = run.store.read { $0.now }
        let kinds = try run.advance(to: start + StoreDuration.days(70))
        XCTAssertEqual(kinds.filter { $0 != "DID_RENEW" }.sorted(), [
            "EXPIRED/BILLING_RETRY", "EXPIRED/BILLING_RETRY", "EXPIRED/PRICE_INCREASE", "EXPIRED/VOLUNTARY", "GRACE_PERIOD_EXPIRED",
        ], "frank and henry run out of billing retry, gina never consented, bob turned renewal off, henry's grace period ends")
        XCTAssertGreaterThan(kinds.filter { $0 == "DID_RENEW" }.count, 2, "ivan's and jack's subscriptions renew on the way")
        XCTAssertEqual(run.checked, run.notifications.count)

        let types = Set(run.notifications.map(\.notificationType)).union([.test])
        XCTAssertEqual(types, Set(NotificationType.allCases), "every type but TEST comes from a store event")
        XCTAssertEqual(Set(run.notifications.compactMap(\.subtype)), Set(NotificationSubtype.allCases), "every subtype too")
        XCTAssertEqual(Set(run.notifications.map(\.notificationUUID)).count, run.notifications.count, "one UUID per notification")
    }

    func testTheSameSeedGivesTheSameNotificationsByteForByte() throws {
        let first = try everyEvent(seed: 5).notifications
        let second = try everyEvent(seed: 5).notifications
        XCTAssertEqual(first.map(\.signedPayload), second.map(\.signedPayload))
        let other = try everyEvent(seed: 6).notifications
        XCTAssertEqual(other.map(\.kind), first.map(\.kind))
        XCTAssertTrue(Set(other.map(\.notificationUUID)).isDisjoint(with: first.map(\.notificationUUID)), "the UUIDs follow the seed")
    }

    func testTestNotificationNamesTheAppOnly() throws {
        let configuration = StoreConfiguration(environment: .sandbox, seed: 3, customers: 0)
        let signer = NotificationSigner(configuration: configuration)
        let test = try signer.testNotification(number: 1, at: configuration.start)
        XCTAssertEqual(test.kind, .test)
        let payload = try StoreKit2JSON.decode(ResponseBodyV2DecodedPayload.self, from: try CompactJWS(test.signedPayload).payload, at: "test")
        XCTAssertEqual(payload.notificationType, "TEST")
        XCTAssertNil(payload.subtype)
        XCTAssertEqual(payload.signedDate, JWSDate(milliseconds: configuration.start))
        var expected = NotificationData()
        expected.appAppleId = configuration.appAppleId
        expected.bundleId = configuration.app.bundleIdentifier
        expected.environment = "Sandbox"
        XCTAssertEqual(payload.data, expected)
        XCTAssertNotEqual(try signer.testNotification(number: 2, at: configuration.start).notificationUUID, test.notificationUUID)
    }

    func testTheRecordHoldsTheSignedPayloadAndTheDecodedJSON() throws {
        let run = NotificationRun(seed: 2)
        try run.step(["SUBSCRIBED/INITIAL_BUY"]) { try $0.buyProduct(customer: "zoe", productId: monthly) }
        let record = try XCTUnwrap(run.notifications.first)
        let json = try JSONValue(json: JSONEncoder().encode(record))
        XCTAssertEqual(json["signedPayload"]?.stringValue, record.signedPayload)
        XCTAssertEqual(json["notificationUUID"]?.stringValue, record.notificationUUID)
        XCTAssertEqual(json["decodedPayload"]?["notificationType"]?.stringValue, "SUBSCRIBED")
        XCTAssertEqual(json["decodedPayload"]?["subtype"]?.stringValue, "INITIAL_BUY")
        XCTAssertEqual(json["decodedPayload"]?["data"]?["signedTransactionInfo"]?.stringValue,
                       record.decodedPayload.data?.signedTransactionInfo)
        XCTAssertEqual(json["eventSequence"]?.intValue, 1)
        XCTAssertEqual(record.body.signedPayload, record.signedPayload)
    }

    /// Apple's `SignedDataVerifier` (the forge's JWS root, online checks off) accepts
    /// every notification of the run and every JWS nested in them, and reads the same
    /// type and subtype.
    func testApplesVerifierAcceptsEveryNotification() throws {
        let run = try everyEvent()
        _ = try run.advance(to: run.store.read { $0.now } + StoreDuration.days(70))
        let test = try run.signer.testNotification(number: 1, at: run.store.read { $0.now })
        let notifications = run.notifications + [test]
        let configuration = run.store.configuration
        let decoded = try AppleNotificationVerifier.verify(notifications.map(\.signedPayload), root: JWSAuthority.committed.root.certificate,
                                                           bundleId: configuration.app.bundleIdentifier, appAppleId: configuration.appAppleId)
        XCTAssertEqual(decoded.count, notifications.count)
        for (answer, notification) in zip(decoded, notifications) {
            XCTAssertEqual(answer.notificationType, notification.notificationType.rawValue)
            XCTAssertEqual(answer.subtype, notification.subtype?.rawValue)
            XCTAssertEqual(answer.notificationUUID, notification.notificationUUID)
            let data = notification.decodedPayload.data
            XCTAssertEqual(answer.transactionId, data?.signedTransactionInfo.flatMap {
                try? StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: CompactJWS($0).payload, at: "t").transactionId
            })
            XCTAssertEqual(answer.renewalOriginalTransactionId, data?.signedRenewalInfo.flatMap {
                try? StoreKit2JSON.decode(JWSRenewalInfoDecodedPayload.self, from: CompactJWS($0).payload, at: "r").originalTransactionId
            })
            XCTAssertEqual(answer.succeededCount, notification.decodedPayload.summary?.succeededCount.map(Int.init))
        }
    }
}
