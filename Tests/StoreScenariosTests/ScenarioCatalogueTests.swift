import ForgeCA
import Foundation
import LocalAppStore
import Receipt
import StoreKit2
import StoreNotifications
import StoreScenarios
import StrictJSON
import TestSupport
import XCTest

final class ScenarioCatalogueTests: XCTestCase {
    func testTheCatalogueCoversTheIssuesLifecycles() {
        let names = Scenario.catalogue.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "names are unique")
        let kinds = Set(Scenario.catalogue.flatMap { $0.expectedNotifications ?? [] }.map(\.description))
        for required in ["SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW", "DID_RENEW/BILLING_RECOVERY",
                         "DID_FAIL_TO_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "EXPIRED/VOLUNTARY",
                         "EXPIRED/BILLING_RETRY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_PREF/UPGRADE",
                         "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "CONSUMPTION_REQUEST",
                         "REVOKE", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "OFFER_REDEEMED/INITIAL_BUY",
                         "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY", "TEST", "ONE_TIME_CHARGE"] {
            XCTAssertTrue(kinds.contains(required), "no scenario expects \(required)")
        }
    }

    /// Each scenario emits exactly the notifications it expects, in order, and the
    /// transcript is the same bytes on a second run.
    func testEachScenarioEmitsItsExpectedNotificationsTheSameEveryRun() async throws {
        for scenario in Scenario.catalogue {
            let first = try await ScenarioRunner().run(scenario)
            XCTAssertEqual(first.notificationSequence, scenario.expectedNotifications?.map(\.description), scenario.name)
            let second = try await ScenarioRunner().run(scenario)
            XCTAssertEqual(ScenarioRunner.encode(first), ScenarioRunner.encode(second), scenario.name)
        }
    }

    /// The receipt of each step agrees with the step's notifications: every transaction a
    /// notification reports that the scenario's customer bought (not a consumable, which
    /// leaves the receipt when finished) is in that step's receipt with the same product,
    /// original transaction, expiry (to the second: receipts have no milliseconds), and a
    /// cancellation date exactly when the transaction is revoked.
    func testReceiptsAgreeWithTheNotificationsAtEveryStep() async throws {
        var compared = 0
        var revoked = 0
        for scenario in Scenario.catalogue {
            let transcript = try await ScenarioRunner().run(scenario)
            for step in transcript.steps {
                guard let receiptText = step.receipt else { continue }
                let receiptBytes = try XCTUnwrap(Data(base64Encoded: receiptText), "\(scenario.name) step \(step.index)")
                let purchases = try PKCS7SignedData(bytes: Array(receiptBytes)).decodeReceipt().inAppPurchases
                let customerTransactions = Set(try step.serverAPI.map { answers in
                    try answers.transactionHistory.flatMap { $0["signedTransactions"]?.arrayValue ?? [] }.map { signed in
                        try XCTUnwrap(try JSONValue(json: Data(CompactJWS(XCTUnwrap(signed.stringValue)).payload))["transactionId"]?.stringValue)
                    }
                } ?? [])
                for notification in step.notifications {
                    guard let transaction = notification.transactionInfo, transaction["type"]?.stringValue != "Consumable",
                          let id = transaction["transactionId"]?.stringValue, customerTransactions.contains(id) else { continue }
                    let context = "\(scenario.name) step \(step.index) \(notification.kind) transaction \(id)"
                    let purchase = try XCTUnwrap(purchases.first { $0.transactionIdentifier == id }, "not in the receipt: \(context)")
                    XCTAssertEqual(purchase.productIdentifier, transaction["productId"]?.stringValue, context)
                    XCTAssertEqual(purchase.originalTransactionIdentifier, transaction["originalTransactionId"]?.stringValue, context)
                    XCTAssertEqual(purchase.subscriptionExpirationDate.map { $0.secondsSince1970 * 1_000 },
                                   transaction["expiresDate"]?.integer(Int64.self).map { $0 / 1_000 * 1_000 }, context)
                    XCTAssertEqual(purchase.cancellationDate != nil, transaction["revocationDate"] != nil, context)
                    compared += 1
                    if purchase.cancellationDate != nil { revoked += 1 }
                }
            }
        }
        XCTAssertGreaterThan(compared, 20, "the catalogue's notifications were compared with receipts")
        XCTAssertGreaterThan(revoked, 0, "a refund's cancellation date was among them")
    }

    /// A notification's nested JWS are the Server API's answers at its step: its
    /// transaction is byte for byte the history's entry of that id, and the last
    /// notification of a subscription in a step carries the statuses' renewal info and
    /// status (when the event happened at the step's final instant, as the API's
    /// answers are signed then).
    func testNestedJWSAreTheServerAPIsAnswersAtTheStep() async throws {
        var transactionsCompared = 0
        var renewalsCompared = 0
        for scenario in Scenario.catalogue {
            let transcript = try await ScenarioRunner().run(scenario)
            let json = try JSONValue(json: Data(ScenarioRunner.encode(transcript)))
            for step in json["steps"]?.arrayValue ?? [] {
                guard let answers = step["serverAPI"], step["storeInstant"] != nil else { continue }
                let instant = step["storeInstant"]?.integer(Int64.self)
                var history: [String: String] = [:]
                for page in answers["transactionHistory"]?.arrayValue ?? [] {
                    for signed in page["signedTransactions"]?.arrayValue ?? [] {
                        let text = try XCTUnwrap(signed.stringValue)
                        let id = try XCTUnwrap(try JSONValue(json: Data(CompactJWS(text).payload))["transactionId"]?.stringValue)
                        history[id] = text
                    }
                }
                var statuses: [String: (status: Int?, renewal: String?)] = [:]
                for group in answers["subscriptionStatuses"]?["data"]?.arrayValue ?? [] {
                    for last in group["lastTransactions"]?.arrayValue ?? [] {
                        statuses[last["originalTransactionId"]?.stringValue ?? ""] = (last["status"]?.intValue, last["signedRenewalInfo"]?.stringValue)
                    }
                }
                let notifications = (step["notifications"]?.arrayValue ?? []).filter { $0["signedDate"]?.integer(Int64.self) == instant }
                for (offset, notification) in notifications.enumerated() {
                    let data = notification["payload"]?["data"]
                    guard let signedTransaction = data?["signedTransactionInfo"]?.stringValue,
                          let transaction = notification["transactionInfo"] else { continue }
                    let id = try XCTUnwrap(transaction["transactionId"]?.stringValue)
                    // Another customer's transaction (a family purchaser's) is not in this customer's history.
                    if let answered = history[id] {
                        XCTAssertEqual(signedTransaction, answered, "\(scenario.name) \(notification["kind"]?.stringValue ?? "")")
                        transactionsCompared += 1
                    }
                    let original = transaction["originalTransactionId"]?.stringValue ?? ""
                    let isLastOfItsSubscription = !notifications[(offset + 1)...].contains {
                        $0["transactionInfo"]?["originalTransactionId"]?.stringValue == original
                    }
                    if isLastOfItsSubscription, let status = statuses[original] {
                        XCTAssertEqual(data?["signedRenewalInfo"]?.stringValue, status.renewal, "\(scenario.name) \(id)")
                        XCTAssertEqual(data?["status"]?.intValue, status.status, "\(scenario.name) \(id)")
                        renewalsCompared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(transactionsCompared, 15)
        XCTAssertGreaterThan(renewalsCompared, 10)
    }

    /// Apple's `SignedDataVerifier` (the forge's JWS root, online checks off) accepts
    /// every notification of every scenario and every JWS nested in them, and reads the
    /// type and subtype each scenario expects.
    func testApplesVerifierAcceptsEveryNotificationOfEveryScenario() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        var signedPayloads: [String] = []
        var expected: [String] = []
        for scenario in Scenario.catalogue {
            let transcript = try await ScenarioRunner().run(scenario)
            for notification in transcript.steps.flatMap(\.notifications) {
                signedPayloads.append(notification.signedPayload)
                expected.append(notification.kind)
            }
            XCTAssertEqual(transcript.notificationSequence, scenario.expectedNotifications?.map(\.description))
        }
        let configuration = ScenarioRunner().configuration
        let decoded = try AppleNotificationVerifier.verify(signedPayloads, root: JWSAuthority.committed.root.certificate,
                                                           bundleId: configuration.app.bundleIdentifier, appAppleId: configuration.appAppleId)
        XCTAssertEqual(decoded.map(\.kind), expected)
        XCTAssertEqual(decoded.filter { $0.transactionId != nil }.count, expected.filter { $0 != "TEST" && $0 != "RENEWAL_EXTENSION/SUMMARY" }.count,
                       "every notification but TEST and SUMMARY nests a verified transaction")
    }
}
