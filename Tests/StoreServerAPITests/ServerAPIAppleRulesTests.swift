import APIMessage
import LocalAppStore
import StoreAPIAuthentication
import StoreKit2
import StoreNotifications
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Rules of Apple's endpoint pages the Server API follows, each test citing its page
/// (issue 35: where the local App Store differed from Apple's documentation).
final class ServerAPIAppleRulesTests: XCTestCase {
    private let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    /// The app transaction id of `customer` in `store`.
    private func appTransactionId(_ store: LocalAppStore, _ customer: String) -> String {
        store.read { state in String(state.customers.first { $0.id == customer }!.appTransactionId) }
    }

    /// The `transactionId`s of a response's signed transactions, verified.
    private func transactionIds(_ page: JSONValue, _ member: String = "signedTransactions") throws -> [String] {
        try XCTUnwrap(page[member]?.arrayValue).map { jws in
            try XCTUnwrap(Fixture.verified(jws, kind: .transaction, environment: .production)["transactionId"]?.stringValue)
        }
    }

    /// Apple's `anyTransactionId`: "any originalTransactionId, transactionId or appTransactionId
    /// that belongs to the customer for your app"
    /// (https://developer.apple.com/documentation/appstoreserverapi/anytransactionid), the path
    /// parameter of Get Transaction History (v1 and v2), Get All Subscription Statuses and Get
    /// Refund History: the app transaction id names the same customer as their transaction ids.
    func testAnyTransactionIdTakesTheAppTransactionId() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let subscription = try store.write { try $0.buyProduct(customer: "amy", productId: monthly) }.transactionIds[0]
        let consumable = try store.write { try $0.buyProduct(customer: "amy", productId: coins) }.transactionIds[0]
        try store.write { _ = try $0.buyProduct(customer: "ben", productId: pro) }
        try store.write { _ = try $0.refundTransaction(transactionId: consumable, reason: .refundedDueToIssue) }
        let app = appTransactionId(store, "amy")
        XCTAssertFalse([subscription, consumable].contains(app))

        for version in ["v1", "v2"] {
            let byApp = try fixture.json("GET", "/inApps/\(version)/history/\(app)")
            let byTransaction = try fixture.json("GET", "/inApps/\(version)/history/\(subscription)")
            XCTAssertEqual(try transactionIds(byApp), try transactionIds(byTransaction), version)
            XCTAssertEqual(Set(try transactionIds(byApp)), [subscription, consumable], "amy's, not ben's (\(version))")
        }
        let statuses = try fixture.json("GET", "/inApps/v1/subscriptions/\(app)")
        XCTAssertEqual(statuses["data"]?[0]?["lastTransactions"]?[0]?["originalTransactionId"]?.stringValue, subscription)
        XCTAssertEqual(try transactionIds(try fixture.json("GET", "/inApps/v2/refund/lookup/\(app)")), [consumable])
        // An id that is neither stays 4040010.
        Fixture.assertError(try fixture.send("GET", "/inApps/v2/history/704999999999999999"), .transactionIdNotFound)
    }

    /// Get Transaction Info, Set App Account Token and Send Consumption Information take a
    /// transaction id, not an app transaction id: 400 AppTransactionIdNotSupportedError,
    /// "An error that indicates the endpoint doesn't support an app transaction ID"
    /// (https://developer.apple.com/documentation/appstoreserverapi/apptransactionidnotsupportederror;
    /// the endpoints' pages list it).
    func testEndpointsOfATransactionIdRefuseAnAppTransactionId() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        try store.write { _ = try $0.buyProduct(customer: "cleo", productId: monthly) }
        let app = appTransactionId(store, "cleo")
        Fixture.assertError(try fixture.send("GET", "/inApps/v1/transactions/\(app)"), .appTransactionIdNotSupportedError)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/\(app)/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#),
                            .appTransactionIdNotSupportedError)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(app)",
                                             body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#),
                            .appTransactionIdNotSupportedError)
        // Get App Transaction Info takes it.
        let info = try fixture.json("GET", "/inApps/v1/transactions/appTransactions/\(app)")
        XCTAssertEqual(try Fixture.verified(info["signedAppTransactionInfo"], kind: .appTransaction, environment: .production)["appTransactionId"]?.stringValue,
                       app)
    }

    /// An id is decimal digits a 64-bit number holds: twenty digits above 2^64 − 1 are refused
    /// (4000006, InvalidTransactionIdError) with a message that says so, not "not digits".
    func testATwentyDigitIdAbove2To64IsRefusedSayingSo() throws {
        let fixture = Fixture()
        let largest = try fixture.send("GET", "/inApps/v1/transactions/18446744073709551615")
        Fixture.assertError(largest, .transactionIdNotFound)
        let above = try fixture.send("GET", "/inApps/v1/transactions/18446744073709551616")
        Fixture.assertError(above, .invalidTransactionId)
        XCTAssertTrue(above.logDetail?.contains("above 18446744073709551615 (2^64 − 1)") == true, above.logDetail ?? "")
        let letters = try fixture.send("GET", "/inApps/v1/transactions/12ab")
        Fixture.assertError(letters, .invalidTransactionId)
        XCTAssertTrue(letters.logDetail?.contains("1 to 20 digits") == true, letters.logDetail ?? "")
    }

    /// Send Consumption Information's `consumptionPercentage`
    /// (https://developer.apple.com/documentation/appstoreserverapi/consumptionpercentage): "If the
    /// deliveryStatus value isn't DELIVERED, set the consumptionPercentage to 0; otherwise, the
    /// request fails with an HTTP 400 error UndeliveredConsumptionPercentageNonZeroError", and
    /// "Don't provide a consumption percentage for auto-renewable subscriptions, otherwise the
    /// request fails with an HTTP 400 error ConsumptionPercentageAutoRenewableSubscriptionError".
    /// Apple gives neither error a number (nor do its libraries): 400 4000000, the log naming it.
    func testConsumptionPercentageRulesOfVersion2() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let consumable = try store.write { try $0.buyProduct(customer: "dan", productId: coins) }.transactionIds[0]
        let subscription = try store.write { try $0.buyProduct(customer: "dan", productId: monthly) }.transactionIds[0]
        func send(_ id: String, _ members: String) throws -> APIResponse {
            try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(id)",
                             body: #"{"customerConsented":true,"sampleContentProvided":false,\#(members)}"#)
        }
        let undelivered = try send(consumable, #""deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","consumptionPercentage":40000"#)
        Fixture.assertError(undelivered, .generalBadRequest)
        XCTAssertTrue(undelivered.logDetail?.contains("undeliveredConsumptionPercentageNonZero") == true, undelivered.logDetail ?? "")
        XCTAssertEqual(try send(consumable, #""deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","consumptionPercentage":0"#).status, 202)
        XCTAssertEqual(try send(consumable, #""deliveryStatus":"DELIVERED","consumptionPercentage":40000"#).status, 202)

        // "If you select GRANT_PRORATED for the refundPreference field, you need to provide a
        // consumptionPercentage greater than 0 and less than 100000" (same page).
        for members in [#""deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED""#,
                        #""deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","consumptionPercentage":100000"#] {
            Fixture.assertError(try send(consumable, members), .generalBadRequest)
        }
        XCTAssertEqual(try send(consumable, #""deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","consumptionPercentage":99999"#).status, 202)

        let onSubscription = try send(subscription, #""deliveryStatus":"DELIVERED","consumptionPercentage":0"#)
        Fixture.assertError(onSubscription, .generalBadRequest)
        XCTAssertTrue(onSubscription.logDetail?.contains("consumptionPercentageAutoRenewableSubscription") == true, onSubscription.logDetail ?? "")
        XCTAssertEqual(try send(subscription, #""deliveryStatus":"DELIVERED""#).status, 202, "without a percentage it is taken")
        XCTAssertNil(store.read { $0.transactions.first { String($0.transactionId) == subscription }!.consumption?.consumptionPercentage })
        // Version 1 derives its percentage from consumptionStatus: neither rule is its.
        let v1 = try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(subscription)",
                                  body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":1,"consumptionStatus":2}"#)
        XCTAssertEqual(v1.status, 202, v1.logDetail ?? "")
    }

    /// `refundPreference` is one of Apple's values (v2: DECLINE, GRANT_FULL, GRANT_PRORATED,
    /// https://developer.apple.com/documentation/appstoreserverapi/refundpreference; v1: 0 to 3,
    /// https://developer.apple.com/documentation/appstoreserverapi/refundpreferencev1) or left
    /// out; `null` is neither. Nor is null any other member's value: Apple's ConsumptionRequest
    /// page, "To create a valid request and avoid an HTTP 400 Bad Request error,
    /// ConsumptionRequest must contain all the required fields with proper data types and
    /// valid values" (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest).
    func testRefundPreferenceNullOrUnknownIsRefusedInBothVersions() throws {
        let fixture = Fixture()
        let consumable = try fixture.stores.production.write { try $0.buyProduct(customer: "eve", productId: coins) }.transactionIds[0]
        let v2 = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"#
        let v1 = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":0,"refundPreference":"#
        for (version, prefix, values) in [("v2", v2, [#"null"#, #""GRANT_SOME""#, #"1"#]), ("v1", v1, [#"null"#, #"4"#, #"-1"#, #""1""#])] {
            for value in values {
                let response = try fixture.send("PUT", "/inApps/\(version)/transactions/consumption/\(consumable)", body: prefix + value + "}")
                Fixture.assertError(response, .generalBadRequest)
                XCTAssertTrue(response.logDetail?.contains("refundPreference") == true, "\(version) \(value): \(response.logDetail ?? "")")
            }
        }
        XCTAssertEqual(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable)", body: v2 + #""GRANT_FULL"}"#).status, 202)
        XCTAssertEqual(try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(consumable)", body: v1 + "3}").status, 202)
        // A null required member keeps that member's own error.
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable)",
                                             body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":null}"#),
                            .invalidDeliveryStatus)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/\(consumable)/appAccountToken", body: #"{"appAccountToken":null}"#),
                            .invalidAppAccountTokenUuidError)
    }

    /// Apple's requestIdentifier page: "To resend the same request due to a timeout or other
    /// error, use the same request identifier"
    /// (https://developer.apple.com/documentation/appstoreserverapi/requestidentifier). Extend a
    /// Subscription Renewal Date sent again extends once and answers as the first time; Extend
    /// Subscription Renewal Dates for All Active Subscribers sent again answers 200 with the
    /// same requestIdentifier and extends no one twice.
    func testARequestSentAgainWithItsIdentifierIsDoneOnce() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let original = try store.write { try $0.buyProduct(customer: "finn", productId: monthly) }.transactionIds[0]
        let expiry = store.read { $0.subscriptions.first { String($0.originalTransactionId) == original }!.expiresDate }
        let body = #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"retry-1"}"#
        let first = try fixture.json("PUT", "/inApps/v1/subscriptions/extend/\(original)", body: body)
        let again = try fixture.json("PUT", "/inApps/v1/subscriptions/extend/\(original)", body: body)
        XCTAssertEqual(first, again, "answered as the first time")
        XCTAssertEqual(again["effectiveDate"]?.integer(Int64.self), expiry + StoreDuration.days(3), "extended by 3 days, not 6")
        XCTAssertEqual(store.read { $0.subscriptions.first { String($0.originalTransactionId) == original }!.expiresDate },
                       expiry + StoreDuration.days(3))
        XCTAssertEqual(store.read { $0.events.filter { $0.kind.name == "renewalExtended" }.count }, 1, "one RENEWAL_EXTENDED")
        // Another identifier is another request.
        let second = try fixture.json("PUT", "/inApps/v1/subscriptions/extend/\(original)",
                                      body: #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"retry-2"}"#)
        XCTAssertEqual(second["effectiveDate"]?.integer(Int64.self), expiry + StoreDuration.days(6))

        let mass = #"{"extendByDays":2,"extendReasonCode":3,"requestIdentifier":"0b9f5b1c-2f5e-4a57-9a53-3c1f8e6d2a10","productId":"\#(monthly)"}"#
        let other = try store.write { try $0.buyProduct(customer: "gail", productId: monthly) }.transactionIds[0]
        let otherExpiry = store.read { $0.subscriptions.first { String($0.originalTransactionId) == other }!.expiresDate }
        let massFirst = try fixture.json("POST", "/inApps/v1/subscriptions/extend/mass", body: mass)
        let massAgain = try fixture.json("POST", "/inApps/v1/subscriptions/extend/mass", body: mass)
        XCTAssertEqual(massFirst, massAgain)
        XCTAssertEqual(massAgain["requestIdentifier"]?.stringValue, "0b9f5b1c-2f5e-4a57-9a53-3c1f8e6d2a10")
        XCTAssertEqual(store.read { $0.subscriptions.first { String($0.originalTransactionId) == other }!.expiresDate },
                       otherExpiry + StoreDuration.days(2), "extended once")
        XCTAssertEqual(store.read { $0.massExtensions.count }, 1)
        XCTAssertEqual(store.read { $0.events.filter { $0.kind.name == "renewalExtensionSummary" }.count }, 1, "one SUMMARY")
    }

    /// An empty `storefrontCountryCodes` is InvalidEmptyStorefrontCountryCodeListError, 4000027:
    /// "An error that indicates the list of storefront country codes is empty"
    /// (https://developer.apple.com/documentation/appstoreserverapi/invalidemptystorefrontcountrycodelisterror);
    /// an unknown code stays InvalidStorefrontCountryCodeError, 4000028.
    func testAnEmptyStorefrontListIs4000027() throws {
        let fixture = Fixture()
        try fixture.stores.production.write { _ = try $0.buyProduct(customer: "hal", productId: monthly) }
        let prefix = #"{"extendByDays":2,"extendReasonCode":3,"requestIdentifier":"2d3c8f36-9a3e-4c1b-8f77-52c0a3f1b6e4","productId":"\#(monthly)","storefrontCountryCodes":"#
        Fixture.assertError(try fixture.send("POST", "/inApps/v1/subscriptions/extend/mass", body: prefix + "[]}"), .invalidEmptyStorefrontCountryCodeList)
        Fixture.assertError(try fixture.send("POST", "/inApps/v1/subscriptions/extend/mass", body: prefix + #"["XXX"]}"#), .invalidStorefrontCountryCode)
        XCTAssertEqual(fixture.stores.production.read { $0.massExtensions.count }, 0, "nothing done")
    }

    /// REFUND and REVOKE transactions carry `revocationType` and `revocationPercentage` (App Store
    /// Server API 1.19; https://developer.apple.com/documentation/appstoreservernotifications/revocationtype,
    /// .../revocationpercentage: "The percentage, in milliunits, of the transaction that the App
    /// Store has refunded or revoked"; "This field doesn't appear if the refund is reversed"). REVOKE is Family
    /// Sharing's (notificationType page: "A family member loses access to the subscription
    /// through Family Sharing", https://developer.apple.com/documentation/appstoreservernotifications/notificationtype):
    /// a purchaser's own purchase taken back by `revokeTransaction` is refunded (REFUND,
    /// REFUND_FULL); the family member's copy is revoked (REVOKE, FAMILY_REVOKE).
    func testRevocationTypeAndPercentageAndWhoGetsRevoke() throws {
        let fixture = Fixture()
        let store = fixture.stores.production
        let bought = try store.write { try $0.buyProduct(customer: "ida", productId: pro, familyShared: ["jon"]) }
        let (purchase, copy) = (bought.transactionIds[0], bought.transactionIds[1])
        let other = try store.write { try $0.buyProduct(customer: "kim", productId: pro, familyShared: ["lou"]) }

        let revoked = try store.write { try $0.revokeTransaction(transactionId: purchase) }
        XCTAssertEqual(revoked.events.map { NotificationKind.of($0).description }, ["REFUND", "REVOKE"],
                       "the purchaser's REFUND, the family member's REVOKE")
        XCTAssertEqual(revoked.events.map(\.customerId), ["ida", "jon"])
        let refunded = try Fixture.verified(try fixture.json("GET", "/inApps/v1/transactions/\(purchase)")["signedTransactionInfo"],
                                            kind: .transaction, environment: .production)
        XCTAssertEqual(refunded["revocationType"]?.stringValue, "REFUND_FULL")
        XCTAssertEqual(refunded["revocationPercentage"]?.intValue, 100_000)
        XCTAssertEqual(refunded["revocationReason"]?.intValue, 0)
        let lost = try Fixture.verified(try fixture.json("GET", "/inApps/v1/transactions/\(copy)")["signedTransactionInfo"],
                                        kind: .transaction, environment: .production)
        XCTAssertEqual(lost["revocationType"]?.stringValue, "FAMILY_REVOKE")
        XCTAssertEqual(lost["revocationPercentage"]?.intValue, 100_000, "all of it revoked")

        // The family member's copy alone: REVOKE for that member only.
        let alone = try store.write { try $0.revokeTransaction(transactionId: other.transactionIds[1]) }
        XCTAssertEqual(alone.events.map { NotificationKind.of($0).description }, ["REVOKE"])
        XCTAssertEqual(alone.events.map(\.customerId), ["lou"])

        // A reversed refund carries neither field.
        try store.write { _ = try $0.reverseRefund(transactionId: purchase) }
        let reversed = try Fixture.verified(try fixture.json("GET", "/inApps/v1/transactions/\(purchase)")["signedTransactionInfo"],
                                            kind: .transaction, environment: .production)
        XCTAssertNil(reversed["revocationType"])
        XCTAssertNil(reversed["revocationPercentage"])
        // A prorated refund: REFUND_PRORATED with its share; a share of 100% or none is no proration.
        let coinsId = try store.write { try $0.buyProduct(customer: "ida", productId: coins) }.transactionIds[0]
        for share in [0, 100_000] {
            XCTAssertThrowsError(try store.write { try $0.refundTransaction(transactionId: coinsId, reason: .refundedDueToIssue, percentage: share) })
        }
        let prorated = try store.write { try $0.refundTransaction(transactionId: coinsId, reason: .refundedDueToIssue, percentage: 40_000) }
        XCTAssertEqual(prorated.events.map { NotificationKind.of($0).description }, ["REFUND"])
        let part = try Fixture.verified(try fixture.json("GET", "/inApps/v1/transactions/\(coinsId)")["signedTransactionInfo"],
                                        kind: .transaction, environment: .production)
        XCTAssertEqual(part["revocationType"]?.stringValue, "REFUND_PRORATED")
        XCTAssertEqual(part["revocationPercentage"]?.intValue, 40_000)
        try store.write { _ = try $0.reverseRefund(transactionId: coinsId) }
        try store.write { _ = try $0.refundTransaction(transactionId: coinsId, reason: .refundedDueToIssue) }
        XCTAssertEqual(store.read { $0.transactions.first { String($0.transactionId) == coinsId }!.revocationType }, .refundFull,
                       "a reversed prorated refund leaves no share behind")
        // Apple's Python model reads them (app-store-server-library 3.1.2, RevocationType).
        XCTAssertTrue(RevocationType.allCases.map(\.rawValue) == ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"])
    }

    /// Every member of ConsumptionRequestV1 with a value outside its page's values gets that
    /// member's error (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequestv1
    /// and each member's page: consumptionStatus 0–3, platform 0–2, deliveryStatusV1 0–5,
    /// accountTenure, playTime, lifetimeDollarsRefunded and lifetimeDollarsPurchased 0–7,
    /// userStatus 0–4, appAccountToken a UUID or empty); v2's required members missing get theirs
    /// (https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest).
    func testEachConsumptionMemberOutsideItsValuesGetsItsError() throws {
        let fixture = Fixture()
        let consumable = try fixture.stores.production.write { try $0.buyProduct(customer: "max", productId: coins) }.transactionIds[0]
        let base = #""customerConsented":true,"sampleContentProvided":false,"deliveryStatus":0"#
        let v1: [(String, StoreAPIError)] = [
            (#""consumptionStatus":4"#, .invalidConsumptionStatus), (#""platform":3"#, .invalidPlatform),
            (#""accountTenure":8"#, .invalidAccountTenure), (#""playTime":8"#, .invalidPlayTime),
            (#""lifetimeDollarsRefunded":8"#, .invalidLifetimeDollarsRefunded), (#""lifetimeDollarsPurchased":-1"#, .invalidLifetimeDollarsPurchased),
            (#""userStatus":5"#, .invalidUserStatus), (#""appAccountToken":"not-a-uuid""#, .invalidAppAccountToken),
        ]
        for (member, error) in v1 {
            Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(consumable)", body: "{\(base),\(member)}"), error)
        }
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(consumable)",
                                             body: #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":6}"#), .invalidDeliveryStatus)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v1/transactions/consumption/\(consumable)",
                                             body: #"{"customerConsented":true,"deliveryStatus":0}"#), .invalidSampleContentProvided)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable)",
                                             body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#), .invalidSampleContentProvided)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable)",
                                             body: #"{"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#), .invalidCustomerConsented)
        Fixture.assertError(try fixture.send("PUT", "/inApps/v2/transactions/consumption/\(consumable)",
                                             body: #"{"customerConsented":true,"sampleContentProvided":false}"#), .invalidDeliveryStatus)
        XCTAssertNil(fixture.stores.production.read { $0.transactions.first { String($0.transactionId) == consumable }!.consumption },
                     "nothing refused was kept")
    }

    /// Get Notification History's and the test notification's errors
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history,
    /// .../get-test-notification-status): an endDate missing is InvalidEndDateError (4000016),
    /// a notificationType the App Store does not send InvalidNotificationTypeError (4000018),
    /// transactionId with notificationType MultipleFiltersSuppliedError (4000019), a
    /// paginationToken no page gave InvalidPaginationTokenError (4000014), a test notification
    /// token that is not one InvalidTestNotificationTokenError (4000020), and Request a Test
    /// Notification without a notification URL ServerNotificationUrlNotFoundError (4040007).
    func testNotificationHistoryAndTestNotificationErrors() throws {
        let stores = LocalAppStores(StoreConfiguration(seed: Fixture.seed, customers: 0))
        let handler = ServerAPIHandler(stores: stores, authentication: .testKey(seed: Fixture.seed, bundleIdentifier: bundleId),
                                       wallClock: { Fixture.wallNow }, notifications: try ServerNotifications(stores: stores))
        let id = try stores.production.write { try $0.buyProduct(customer: "nia", productId: coins) }.transactionIds[0]
        let now = stores.production.read { $0.now }
        func send(_ method: String, _ path: String, query: [(String, String)] = [], body: String = "") throws -> APIResponse {
            handler.respond(to: ServerAPIRequest(method: method, path: path, query: query.map { .init($0.0, $0.1) },
                                                 authorization: try Fixture.authorization(), body: Array(body.utf8)))
        }
        let span = #""startDate":\#(now - 1_000),"endDate":\#(now + 1_000)"#
        XCTAssertEqual(try send("POST", "/inApps/v1/notifications/history", body: "{\(span)}").status, 200)
        Fixture.assertError(try send("POST", "/inApps/v1/notifications/history", body: #"{"startDate":\#(now)}"#), .invalidEndDate)
        Fixture.assertError(try send("POST", "/inApps/v1/notifications/history", body: #"{\#(span),"notificationType":"BOUGHT"}"#),
                            .invalidNotificationType)
        Fixture.assertError(try send("POST", "/inApps/v1/notifications/history",
                                     body: #"{\#(span),"notificationType":"REFUND","transactionId":"\#(id)"}"#), .multipleFiltersSupplied)
        Fixture.assertError(try send("POST", "/inApps/v1/notifications/history", query: [("paginationToken", "7e3fb20b-4cdb-47cc-936d-99d65f608138")],
                                     body: "{\(span)}"), .invalidPaginationToken)
        Fixture.assertError(try send("GET", "/inApps/v1/notifications/test/not-a-token"), .invalidTestNotificationToken)
        Fixture.assertError(try send("GET", "/inApps/v1/notifications/test/7e3fb20b-4cdb-47cc-936d-99d65f608138"), .testNotificationNotFound)
        Fixture.assertError(try send("POST", "/inApps/v1/notifications/test"), .serverNotificationUrlNotFound)
    }
}
