import LocalAppStore
import StoreServerAPI
import XCTest

/// Every endpoint's path and method, in both environments; what is no endpoint.
final class ServerAPIRoutingTests: XCTestCase {
    func testEveryEndpointIsRoutedInBothEnvironments() {
        let table: [(String, String, ServerAPIEndpoint)] = [
            ("GET", "v1/transactions/123", .transactionInfo(transactionId: "123")),
            ("GET", "v1/history/123", .transactionHistory(transactionId: "123", version: .v1)),
            ("GET", "v2/history/123", .transactionHistory(transactionId: "123", version: .v2)),
            ("GET", "v1/subscriptions/123", .subscriptionStatuses(transactionId: "123")),
            ("GET", "v1/lookup/MK5TTVWJHT", .lookUpOrder(orderId: "MK5TTVWJHT")),
            ("GET", "v2/refund/lookup/123", .refundHistory(transactionId: "123")),
            ("PUT", "v1/transactions/consumption/123", .sendConsumptionInformation(transactionId: "123", version: 1)),
            ("PUT", "v2/transactions/consumption/123", .sendConsumptionInformation(transactionId: "123", version: 2)),
            ("PUT", "v1/subscriptions/extend/123", .extendRenewalDate(originalTransactionId: "123")),
            ("POST", "v1/subscriptions/extend/mass", .extendRenewalDatesForAllActiveSubscribers),
            ("GET", "v1/subscriptions/extend/mass/com.example.p/req%201", .massExtensionStatus(productId: "com.example.p", requestIdentifier: "req 1")),
            ("GET", "v1/transactions/appTransactions/123", .appTransactionInfo(transactionId: "123")),
            ("PUT", "v1/transactions/123/appAccountToken", .setAppAccountToken(originalTransactionId: "123")),
            ("POST", "v1/transactions/123/finish", .finishTransaction(transactionId: "123")),
            ("POST", "v1/notifications/test", .requestTestNotification),
            ("GET", "v1/notifications/test/7e3fb20b-4cdb-47cc-936d-99d65f608138",
             .testNotificationStatus(testNotificationToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")),
            ("POST", "v1/notifications/history", .notificationHistory),
        ]
        for (method, path, endpoint) in table {
            XCTAssertEqual(ServerAPIEndpoint.route(method: method, path: "/inApps/" + path), .endpoint(endpoint, .production), path)
            XCTAssertEqual(ServerAPIEndpoint.route(method: method, path: "/sandbox/inApps/" + path), .endpoint(endpoint, .sandbox), path)
            let other = method == "GET" ? "POST" : "GET"
            XCTAssertEqual(ServerAPIEndpoint.route(method: other, path: "/inApps/" + path), .methodNotAllowed(allowed: method), path)
        }
    }

    func testWhatIsNoEndpoint() {
        for path in ["/inApps/v3/transactions/1", "/inApps/v1/transactions", "/inApps/v1/transactions/1/2/3",
                     "/inApps/v1/transactions//finish", "/inApps/v1/notifications/other", "/inApps/v1/notifications/test/a/b", "/sandbox/inApps/", "/verifyReceipt",
                     "/sandbox/verifyReceipt", "/inapps/v1/transactions/1", "/inApps/v1/subscriptions/extend/mass/p"] {
            XCTAssertEqual(ServerAPIEndpoint.route(method: "GET", path: path), .notFound, path)
        }
        XCTAssertTrue(ServerAPIEndpoint.isServerAPIPath("/sandbox/inApps/v1/x"))
        XCTAssertFalse(ServerAPIEndpoint.isServerAPIPath("/sandbox/verifyReceipt"))
    }

    func testQueryItemsKeepRepeatsAndDecode() {
        XCTAssertEqual(ServerAPIRequest.queryItems("productId=a&productId=b%2Ec&revoked=True&x&sort=ASC+X"), [
            .init("productId", "a"), .init("productId", "b.c"), .init("revoked", "True"), .init("x", ""), .init("sort", "ASC X"),
        ])
        XCTAssertEqual(ServerAPIRequest.queryItems(""), [])
    }
}
