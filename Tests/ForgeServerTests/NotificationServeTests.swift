import ForgeCA
import ForgeServer
import Foundation
import LocalAppStore
import ReceiptForge
import StoreKit2
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// `forge serve --notify-url` end to end: a server on 127.0.0.1 sends its stores'
/// notifications to a webhook on 127.0.0.1 with Apple's retries in store time, records
/// every attempt, and lists them through Get Notification History. Tests wait on the
/// webhook receiving and poll the history with a deadline; nothing sleeps.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class NotificationServeTests: XCTestCase {
    static let monthly = "com.example.receiptforge.subscription.monthly"

    /// Empty stores (no population whose renewals would send notifications too), no token needed.
    static func options(urls: [AppEnvironment: String], timeout: Duration = .seconds(5)) -> ServeOptions {
        var options = ServeOptions()
        options.stores = LocalAppStores(StoreConfiguration(customers: 0))
        options.serverAPIAuthentication = .disabled
        options.notifyURLs = urls
        options.notifyTimeout = timeout
        return options
    }

    func testProductionRetriesAtOneTwelveAndTwentyFourStoreHoursWithOneUUID() async throws {
        try await NotificationWebhook.with(script: [500, 500, 500]) { webhook, base in
            try await ServerHarness.with(Self.options(urls: [.production: base + "/hook"])) { server in
                let start = try await Self.storeNow(server, prefix: "")
                try await server.control("/forge/v1/buyProduct", #"{"customer":"alice","productId":"\#(Self.monthly)"}"#)
                try await webhook.received(1)
                var history = try await Self.history(server, prefix: "", start: start) { $0.first?.attempts.count == 1 }
                XCTAssertEqual(history.first?.attempts.map(\.result), ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
                for (hours, count) in [(1, 2), (12, 3), (24, 4)] {
                    try await server.control("/forge/v1/advanceClock", #"{"seconds":\#(hours * 3_600)}"#)
                    try await webhook.received(count)
                    history = try await Self.history(server, prefix: "", start: start) { $0.first?.attempts.count == count }
                }
                let attempts = try XCTUnwrap(history.first).attempts
                XCTAssertEqual(attempts.map(\.result), ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE",
                                                        "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
                let first = attempts[0].date
                XCTAssertEqual(attempts.map { $0.date - first }, [0, 1, 13, 37].map { $0 * StoreDuration.hour },
                               "each retry 1, 12 and 24 store hours after the attempt before it")
                XCTAssertEqual(first, start, "the first attempt is made at the purchase's instant")
                let uuids = Set(try webhook.signedPayloads.map { try Self.payload($0)["notificationUUID"]?.stringValue })
                XCTAssertEqual(uuids.count, 1, "every retry keeps the notificationUUID")
                XCTAssertEqual(webhook.requests.count, 4)
                XCTAssertEqual(try Self.payload(XCTUnwrap(webhook.signedPayloads.first))["notificationType"]?.stringValue, "SUBSCRIBED")
            }
        }
    }

    func testSandboxSendsOnceAndTheAPIDoesNotWaitForAHangingWebhook() async throws {
        try await NotificationWebhook.with(script: [500]) { webhook, base in
            let refused = try Self.closedPort()
            let urls: [AppEnvironment: String] = [.sandbox: base + "/hook", .production: base + "/hang"]
            try await ServerHarness.with(Self.options(urls: urls, timeout: .milliseconds(500))) { server in
                let start = try await Self.storeNow(server, prefix: "/sandbox")
                try await server.control("/sandbox/forge/v1/buyProduct", #"{"customer":"bob","productId":"\#(Self.monthly)"}"#)
                try await server.control("/forge/v1/buyProduct", #"{"customer":"carol","productId":"\#(Self.monthly)"}"#)
                // The production webhook holds its request; the API answers meanwhile.
                try await webhook.received(2)
                let health = try await server.send("/health", method: "GET", timeout: 2)
                XCTAssertEqual(health.http, 200)
                let hung = try await Self.history(server, prefix: "", start: start) { $0.first?.attempts.count == 1 }
                XCTAssertEqual(hung.first?.attempts.map(\.result), ["TIMED_OUT"])

                // Sandbox: one attempt however far the clock moves. A test notification
                // requested after the move is sent after any due retry would have been.
                try await server.control("/sandbox/forge/v1/advanceClock", #"{"seconds":\#(200 * 3_600)}"#)
                let token = try await server.send("/sandbox/inApps/v1/notifications/test", method: "POST")
                XCTAssertEqual(token.http, 200, token.text)
                try await webhook.received(3)
                let sandbox = try await Self.history(server, prefix: "/sandbox", start: start) { $0.count == 2 && $0[1].attempts.count == 1 }
                XCTAssertEqual(sandbox[0].attempts.map(\.result), ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"], "the sandbox does not retry")
                XCTAssertEqual(sandbox[1].attempts.map(\.result), ["SUCCESS"])
            }
            // A webhook nobody listens at: NO_RESPONSE.
            try await ServerHarness.with(Self.options(urls: [.production: "http://127.0.0.1:\(refused)/hook"])) { server in
                let start = try await Self.storeNow(server, prefix: "")
                try await server.control("/forge/v1/buyProduct", #"{"customer":"dave","productId":"\#(Self.monthly)"}"#)
                let history = try await Self.history(server, prefix: "", start: start) { $0.first?.attempts.count == 1 }
                XCTAssertEqual(history.first?.attempts.map(\.result), ["NO_RESPONSE"])
            }
        }
    }

    func testANotificationsNestedJWSAreTheServerAPIsAnswersAtThatInstant() async throws {
        try await NotificationWebhook.with { webhook, base in
            try await ServerHarness.with(Self.options(urls: [.production: base + "/hook"])) { server in
                let bought = try await server.control("/forge/v1/buyProduct", #"{"customer":"erin","productId":"\#(Self.monthly)"}"#)
                let id = try XCTUnwrap(try bought.json()["transactionIds"]?[0]?.stringValue)
                let info = try await server.send("/inApps/v1/transactions/\(id)", method: "GET")
                let statuses = try await server.send("/inApps/v1/subscriptions/\(id)", method: "GET")
                try await webhook.received(1)
                let data = try XCTUnwrap(try Self.payload(XCTUnwrap(webhook.signedPayloads.first))["data"])
                XCTAssertEqual(data["signedTransactionInfo"]?.stringValue, try info.json()["signedTransactionInfo"]?.stringValue)
                let last = try statuses.json()["data"]?[0]?["lastTransactions"]?[0]
                XCTAssertEqual(data["signedRenewalInfo"]?.stringValue, last?["signedRenewalInfo"]?.stringValue)
                XCTAssertEqual(data["status"]?.intValue, last?["status"]?.intValue)
                XCTAssertNotNil(data["signedRenewalInfo"]?.stringValue)
            }
        }
    }

    /// resetToDefaultState numbers events from 1 again: the notifications after it get
    /// UUIDs of their own, and two servers doing the same get the same bytes.
    func testNotificationUUIDsStayUniqueAcrossResetsAndRunsAreByteIdentical() async throws {
        func run() async throws -> [String] {
            try await ServerHarness.with(Self.options(urls: [:])) { server in
                let start = try await Self.storeNow(server, prefix: "")
                for _ in 0..<2 {
                    try await server.control("/forge/v1/buyProduct", #"{"customer":"frank","productId":"\#(Self.monthly)"}"#)
                    try await server.control("/forge/v1/resetToDefaultState", "")
                }
                let history = try await Self.history(server, prefix: "", start: start) { $0.count == 2 }
                XCTAssertEqual(history.map(\.attempts.count), [0, 0], "no URL: recorded, not sent")
                return history.map(\.signedPayload)
            }
        }
        let first = try await run()
        let uuids = try first.map { try Self.payload($0)["notificationUUID"]?.stringValue }
        XCTAssertEqual(Set(uuids).count, 2, "\(uuids)")
        let second = try await run()
        XCTAssertEqual(first, second)
    }

    func testNotifyURLsAreOnePerEnvironment() throws {
        XCTAssertEqual(try NotifyURLs.parse(["http://a/1", "sandbox=https://b/2"]), [.production: "http://a/1", .sandbox: "https://b/2"])
        XCTAssertEqual(try NotifyURLs.parse(["production=http://a/1"]), [.production: "http://a/1"])
        for specs in [["http://a/1", "production=http://a/2"], ["sandbox=http://a", "sandbox=http://b"], ["ftp://a/1"], ["sandbox="],
                      ["staging=http://a"]] {
            XCTAssertThrowsError(try NotifyURLs.parse(specs), "\(specs)") { error in
                XCTAssertTrue("\(error)".contains("--notify-url"), "\(error)")
            }
        }
    }

    // MARK: Helpers

    struct Attempt: Equatable {
        let date: Int64
        let result: String
    }

    struct Entry {
        let signedPayload: String
        let attempts: [Attempt]
    }

    /// The store's clock (`now` of the control API's state).
    static func storeNow(_ server: ServerHarness, prefix: String) async throws -> Int64 {
        let state = try await server.send(prefix + "/forge/v1/state", method: "GET")
        return Int64(try XCTUnwrap(try state.json()["now"]?.intValue, state.text))
    }

    /// Every page of Get Notification History from `start` on, asked again until
    /// `isReady` holds (the courier records an attempt after the webhook answers), for
    /// at most 30 s.
    static func history(_ server: ServerHarness, prefix: String, start: Int64,
                        until isReady: ([Entry]) -> Bool) async throws -> [Entry] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            var entries: [Entry] = []
            var token: String?
            repeat {
                let query = token.map { "?paginationToken=\($0)" } ?? ""
                let body = #"{"startDate":\#(start),"endDate":\#(start + 400 * StoreDuration.day)}"#
                let reply = try await server.send(prefix + "/inApps/v1/notifications/history" + query, body: Array(body.utf8))
                XCTAssertEqual(reply.http, 200, reply.text)
                let page = try reply.json()
                for item in page["notificationHistory"]?.arrayValue ?? [] {
                    entries.append(Entry(signedPayload: item["signedPayload"]?.stringValue ?? "",
                                         attempts: (item["sendAttempts"]?.arrayValue ?? []).map {
                                             Attempt(date: Int64($0["attemptDate"]?.intValue ?? -1), result: $0["sendAttemptResult"]?.stringValue ?? "")
                                         }))
                }
                token = page["hasMore"]?.boolValue == true ? page["paginationToken"]?.stringValue : nil
            } while token != nil
            if isReady(entries) { return entries }
            guard ContinuousClock.now < deadline else { throw HarnessError("notification history never got ready: \(entries.map(\.attempts))") }
            await Task.yield()
        }
    }

    /// The decoded payload of a compact JWS.
    static func payload(_ jws: String) throws -> JSONValue {
        try JSONValue(json: Data(try CompactJWS(jws).payload))
    }

    /// A port on 127.0.0.1 nothing listens at (bound, then closed).
    static func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw HarnessError("cannot bind a port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
extension ServerHarness {
    /// A control API request that must succeed.
    @discardableResult
    func control(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) async throws -> Reply {
        let reply = try await send(path, body: Array(body.utf8))
        XCTAssertEqual(reply.http, 200, "\(path): \(reply.text)", file: file, line: line)
        return reply
    }
}
