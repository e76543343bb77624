import LocalAppStore
import StoreAPIAuthentication
import StoreKit2
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Each endpoint's answer: its shape, its signed payloads (verified by the forge's
/// verifier against the committed JWS root), its environment, and that writes show in
/// later reads.
final class ServerAPIEndpointTests: XCTestCase {
    func testTransactionInfoIsSignedForItsEnvironmentAndSignedOnce() throws {
        let fixture = Fixture()
        for (environment, prefix, store) in [(JWSEnvironment.production, "/inApps", fixture.stores.production),
                                             (.sandbox, "/sandbox/inApps", fixture.stores.sandbox)] {
            let bought = try store.write { try $0.buyProduct(customer: "alice", productId: pro) }
            let id = bought.transactionIds[0]
            let before = fixture.handler.signaturesMade
            let first = try fixture.json("GET", "\(prefix)/v1/transactions/\(id)")
            let second = try fixture.json("GET", "\(prefix)/v1/transactions/\(id)")
            XCTAssertEqual(first, second, "the same store instant gives the same JWS")
            XCTAssertEqual(fixture.handler.signaturesMade, before + 1, "a repeated read signs once")
            let payload = try Fixture.verified(first["signedTransactionInfo"], kind: .transaction, environment: environment)
            XCTAssertEqual(payload["transactionId"]?.stringValue, id)
            XCTAssertEqual(payload["environment"]?.stringValue, environment.rawValue)
            XCTAssertEqual(payload["signedDate"]?.integer(Int64.self), store.read { $0.now }, "signedDate is the store clock")
            // The other environment has no such transaction.
            let otherPrefix = prefix == "/inApps" ? "/sandbox/inApps" : "/inApps"
            Fixture.assertError(try fixture.send("GET", "\(otherPrefix)/v1/transactions/\(id)"), .transactionIdNotFound)
        }
    }

    func testErrorsAreApplesWithExactlyApplicationJSON() throws {
        let fixture = Fixture()
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/transactions/abc"), .invalidTransactionId)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/transactions/42"), .transactionIdNotFound)
        Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/x1"), .invalidTransactionId)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/subscriptions/9"), .transactionIdNotFound)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/subscriptions/extend/abc", body: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r"}"#),
                            .invalidOriginalTransactionId)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/transactions/appTransactions/77"), .appTransactionDoesNotExistError)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/subscriptions/extend/mass/\(monthly)/nothing"), .statusRequestNotFound)
        let notFound = try fixture.send("GET", "/inApps/v1/nothing/here")
        XCTAssertEqual(notFound.status, 404)
        let wrongMethod = try fixture.send("DELETE", "/inApps/v1/transactions/1")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.header("Allow"), "GET")
    }

    func testHistoryQueryErrors() throws {
        let fixture = Fixture()
        let id = try fixture.stores.production.write { try $0.buyProduct(customer: "bob", productId: coins) }.transactionIds[0]
        let cases: [((String, String), StoreAPIError)] = [
            (("productType", "SUBSCRIPTION"), .invalidProductType),
            (("sort", "up"), .invalidSort),
            (("revoked", "yes"), .invalidRevoked),
            (("inAppOwnershipType", "STOLEN"), .invalidInAppOwnershipType),
            (("startDate", "yesterday"), .invalidStartDate),
            (("endDate", "1.5"), .invalidEndDate),
            (("revision", "not-a-revision"), .invalidRequestRevision),
        ]
        for (item, error) in cases {
            Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/\(id)", query: [item]), error)
        }
        Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/\(id)", query: [("startDate", "20"), ("endDate", "10")]),
                            .startDateAfterEndDate)
        // A parameter that takes one value, given twice, gets its own error (the OpenAPI
        // document declares it a single value; only productId, productType and
        // subscriptionGroupIdentifier repeat).
        let once: [(String, String, StoreAPIError)] = [("revoked", "false", .invalidRevoked), ("sort", "ASCENDING", .invalidSort),
                                                       ("inAppOwnershipType", "PURCHASED", .invalidInAppOwnershipType),
                                                       ("startDate", "1", .invalidStartDate), ("endDate", "1", .invalidEndDate)]
        for (name, value, error) in once {
            Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/\(id)", query: [(name, value), (name, value)]), error)
        }
        Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/\(id)", query: [("startDate", "+5")]), .invalidStartDate)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/subscriptions/\(id)", query: [("status", "+1")]), .invalidStatus)
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/subscriptions/\(id)", query: [("status", "9")]), .invalidStatus)
    }

    /// 45 transactions walked in three pages of 20, 20 and 5, with OR'd repeated filters
    /// and a boolean written as Python writes it; then narrower filters.
    func testHistoryOf45TransactionsInThreePages() throws {
        let fixture = Fixture()
        var bought: [String] = []
        let start = fixture.stores.sandbox.read { $0.now }
        try fixture.stores.sandbox.write { state in
            bought += try state.buyProduct(customer: "pager", productId: pro).transactionIds
            bought += try state.buyProduct(customer: "pager", productId: season).transactionIds
            for _ in 0..<43 {
                bought += try state.buyProduct(customer: "pager", productId: coins).transactionIds
                _ = try state.advance(by: StoreDuration.minute)
            }
        }
        XCTAssertEqual(bought.count, 45)
        let filters = [("productType", "CONSUMABLE"), ("productType", "NON_CONSUMABLE"), ("productType", "NON_RENEWABLE"),
                       ("revoked", "False")]
        var seen: [String] = []
        var revision: String?
        var pages: [(Int, Bool)] = []
        repeat {
            let page = try fixture.json("GET", "/sandbox/inApps/v2/history/\(bought[10])",
                                        query: filters + (revision.map { [("revision", $0)] } ?? []))
            XCTAssertEqual(page["environment"]?.stringValue, "Sandbox")
            XCTAssertEqual(page["bundleId"]?.stringValue, bundleId)
            XCTAssertEqual(page["appAppleId"]?.integer(Int64.self), 1_234_567_890)
            let signed = try XCTUnwrap(page["signedTransactions"]?.arrayValue)
            for jws in signed {
                seen.append(try XCTUnwrap(try Fixture.verified(jws, kind: .transaction, environment: .sandbox)["transactionId"]?.stringValue))
            }
            let hasMore = try XCTUnwrap(page["hasMore"]?.boolValue)
            pages.append((signed.count, hasMore))
            revision = try XCTUnwrap(page["revision"]?.stringValue)
            if !hasMore { break }
        } while pages.count < 5
        XCTAssertEqual(pages.map(\.0), [20, 20, 5])
        XCTAssertEqual(pages.map(\.1), [true, true, false])
        XCTAssertEqual(seen, bought, "every transaction once, in purchase order")

        // Repeated productId values OR'd, AND'd with productType; descending.
        let narrowed = try fixture.json("GET", "/sandbox/inApps/v2/history/\(bought[0])",
                                        query: [("productId", pro), ("productId", season), ("productType", "NON_CONSUMABLE"),
                                                ("sort", "DESCENDING")])
        XCTAssertEqual(narrowed["signedTransactions"]?.arrayValue?.count, 1)
        XCTAssertEqual(narrowed["hasMore"]?.boolValue, false)

        // revoked=true (Node's spelling) after a refund; v1 leaves out a finished consumable.
        try fixture.stores.sandbox.write { _ = try $0.refundTransaction(transactionId: bought[5], reason: .refundedDueToIssue) }
        let revoked = try fixture.json("GET", "/sandbox/inApps/v2/history/\(bought[0])", query: [("revoked", "true")])
        let revokedIds = try revoked["signedTransactions"]?.arrayValue?.map {
            try Fixture.verified($0, kind: .transaction, environment: .sandbox)["transactionId"]?.stringValue
        }
        XCTAssertEqual(revokedIds, [bought[5]])
        XCTAssertEqual(try fixture.send("POST", "/sandbox/inApps/v1/transactions/\(bought[6])/finish").status, 200)
        // The first eight coins: bought[2...9], one a minute from the start.
        let window = [("productType", "CONSUMABLE"), ("startDate", String(start)), ("endDate", String(start + 8 * StoreDuration.minute))]
        let v1 = try fixture.json("GET", "/sandbox/inApps/v1/history/\(bought[0])", query: window)
        let v2 = try fixture.json("GET", "/sandbox/inApps/v2/history/\(bought[0])", query: window)
        XCTAssertEqual(v1["signedTransactions"]?.arrayValue?.count, 7, "v1: the finished consumable is gone")
        XCTAssertEqual(v2["signedTransactions"]?.arrayValue?.count, 8)
    }

    func testSubscriptionStatusesRefundsOrdersAndAppTransactions() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let subscription = try store.write { try $0.buyProduct(customer: "carol", productId: monthly) }
        let consumable = try store.write { try $0.buyProduct(customer: "carol", productId: coins) }
        let subscriptionId = subscription.transactionIds[0]

        let statuses = try fixture.json("GET", "/inApps/v1/subscriptions/\(consumable.transactionIds[0])")
        XCTAssertEqual(statuses["environment"]?.stringValue, "Production")
        XCTAssertEqual(statuses["appAppleId"]?.integer(Int64.self), 1_234_567_890)
        let last = try XCTUnwrap(statuses["data"]?[0]?["lastTransactions"]?[0])
        XCTAssertEqual(last["status"]?.intValue, 1)
        XCTAssertEqual(last["originalTransactionId"]?.stringValue, subscriptionId)
        XCTAssertEqual(try Fixture.verified(last["signedTransactionInfo"], kind: .transaction, environment: .production)["productId"]?.stringValue, monthly)
        XCTAssertEqual(try Fixture.verified(last["signedRenewalInfo"], kind: .renewalInfo, environment: .production)["autoRenewProductId"]?.stringValue, monthly)
        let expiredOnly = try fixture.json("GET", "/inApps/v1/subscriptions/\(subscriptionId)", query: [("status", "2"), ("status", "5")])
        XCTAssertEqual(expiredOnly["data"]?.arrayValue?.count, 0)

        let order = try fixture.json("GET", "/inApps/v1/lookup/\(try XCTUnwrap(consumable.orderId))")
        XCTAssertEqual(order["status"]?.intValue, 0)
        XCTAssertEqual(try Fixture.verified(order["signedTransactions"]?[0], kind: .transaction, environment: .production)["transactionId"]?.stringValue,
                       consumable.transactionIds[0])
        let noOrder = try fixture.json("GET", "/inApps/v1/lookup/NOSUCHORDR")
        XCTAssertEqual(noOrder["status"]?.intValue, 1)
        // Apple's OrderLookupResponse: "If the orderId that you provide in the request is invalid,
        // the response doesn't include the signedTransactions array"
        // (https://developer.apple.com/documentation/appstoreserverapi/orderlookupresponse).
        XCTAssertNil(noOrder["signedTransactions"], "an invalid order id answers without signedTransactions")

        let empty = try fixture.json("GET", "/inApps/v2/refund/lookup/\(subscriptionId)")
        XCTAssertEqual(empty["signedTransactions"]?.arrayValue?.count, 0)
        XCTAssertEqual(empty["hasMore"]?.boolValue, false)
        try store.write { _ = try $0.refundTransaction(transactionId: consumable.transactionIds[0], reason: .refundedForOtherReason) }
        let refunds = try fixture.json("GET", "/inApps/v2/refund/lookup/\(subscriptionId)")
        let refunded = try Fixture.verified(refunds["signedTransactions"]?[0], kind: .transaction, environment: .production)
        XCTAssertEqual(refunded["transactionId"]?.stringValue, consumable.transactionIds[0])
        XCTAssertNotNil(refunded["revocationDate"]?.integer(Int64.self))

        let app = try fixture.json("GET", "/inApps/v1/transactions/appTransactions/\(subscriptionId)")
        XCTAssertEqual(try Fixture.verified(app["signedAppTransactionInfo"], kind: .appTransaction, environment: .production)["bundleId"]?.stringValue,
                       bundleId)
    }

    func testWritesShowInLaterReads() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let subscription = try store.write { try $0.buyProduct(customer: "dave", productId: monthly) }
        let consumable = try store.write { try $0.buyProduct(customer: "dave", productId: coins) }
        let original = subscription.transactionIds[0]
        let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

        let set = try fixture.send("PUT", "/inApps/v1/transactions/\(original)/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#)
        XCTAssertEqual(set.status, 200)
        XCTAssertEqual(set.body, [])
        let info = try fixture.json("GET", "/inApps/v1/transactions/\(original)")
        XCTAssertEqual(try Fixture.verified(info["signedTransactionInfo"], kind: .transaction, environment: .production)["appAccountToken"]?.stringValue, token)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/\(original)/appAccountToken", body: #"{"appAccountToken":"nope"}"#),
                            .invalidAppAccountTokenUuidError)
        // https://developer.apple.com/documentation/appstoreserverapi/set-app-account-token: 400
        // InvalidTransactionIdError for a malformed id, 404 OriginalTransactionIdNotFoundError for an unknown one.
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/12x/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#),
                            .invalidTransactionId)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/999999999999/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#),
                            .originalTransactionIdNotFound)

        let expiry = store.read { $0.subscriptions.first { String($0.originalTransactionId) == original }!.expiresDate }
        let extended = try fixture.json("PUT", "/inApps/v1/subscriptions/extend/\(original)",
                                        body: #"{"extendByDays":7,"extendReasonCode":1,"requestIdentifier":"one"}"#)
        XCTAssertEqual(extended["success"]?.boolValue, true)
        XCTAssertEqual(extended["originalTransactionId"]?.stringValue, original)
        XCTAssertEqual(extended["effectiveDate"]?.integer(Int64.self), expiry + StoreDuration.days(7))
        let renewal = try fixture.json("GET", "/inApps/v1/subscriptions/\(original)")["data"]?[0]?["lastTransactions"]?[0]?["signedRenewalInfo"]
        XCTAssertEqual(try Fixture.verified(renewal, kind: .renewalInfo, environment: .production)["renewalDate"]?.integer(Int64.self),
                       expiry + StoreDuration.days(7))
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/subscriptions/extend/\(original)",
                                             body: #"{"extendByDays":91,"extendReasonCode":1,"requestIdentifier":"two"}"#), .invalidExtendByDays)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/subscriptions/extend/\(original)",
                                             body: #"{"extendByDays":1,"extendReasonCode":9,"requestIdentifier":"two"}"#), .invalidExtendReasonCode)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/subscriptions/extend/\(original)", body: "not json"), .generalBadRequest)

        let mass = try fixture.json("POST", "/inApps/v1/subscriptions/extend/mass",
                                    body: #"{"extendByDays":3,"extendReasonCode":3,"requestIdentifier":"outage","productId":"\#(monthly)"}"#)
        XCTAssertEqual(mass["requestIdentifier"]?.stringValue, "outage")
        let status = try fixture.json("GET", "/inApps/v1/subscriptions/extend/mass/\(monthly)/outage")
        XCTAssertEqual(status["complete"]?.boolValue, true)
        XCTAssertEqual(status["succeededCount"]?.intValue, 1)
        XCTAssertEqual(status["failedCount"]?.intValue, 0)
        XCTAssertEqual(status["completeDate"]?.integer(Int64.self), store.read { $0.now })

        let consumption = try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable.transactionIds[0])",
                                           body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":25000,"refundPreference":"DECLINE"}"#)
        XCTAssertEqual(consumption.status, 202)
        XCTAssertEqual(consumption.body, [])
        let kept = store.read { $0.transactions.first { String($0.transactionId) == consumable.transactionIds[0] }!.consumption }
        XCTAssertEqual(kept?.consumptionPercentage, 25_000)
        XCTAssertEqual(kept?.refundPreference, .decline)
        let v1 = try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(consumable.transactionIds[0])",
                                  body: #"{"customerConsented":true,"consumptionStatus":3,"platform":1,"sampleContentProvided":true,"deliveryStatus":0,"appAccountToken":"","accountTenure":1,"playTime":2,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":3,"userStatus":1,"refundPreference":1}"#)
        XCTAssertEqual(v1.status, 202, v1.logDetail ?? "")
        XCTAssertEqual(store.read { $0.transactions.first { String($0.transactionId) == consumable.transactionIds[0] }!.consumption?.refundPreference },
                       .grantFull)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable.transactionIds[0])",
                                             body: #"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#),
                            .invalidCustomerConsented)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable.transactionIds[0])",
                                             body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"LOST"}"#),
                            .invalidDeliveryStatus)

        let finish = try fixture.send("POST", "/inApps/v1/transactions/\(consumable.transactionIds[0])/finish")
        XCTAssertEqual(finish.status, 200)
        XCTAssertEqual(finish.body, [])
        XCTAssertEqual(store.read { $0.transactions.first { String($0.transactionId) == consumable.transactionIds[0] }!.finished }, true)
    }
}
