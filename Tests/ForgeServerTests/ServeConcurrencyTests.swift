import ForgeServer
import Foundation
import StoreKit2
import StrictJSON
import XCTest

/// Many HTTP clients at once against one `forge serve`: writers buy and renew for their
/// own customers through the control API while readers read the same customers through
/// the Server API. No update is lost (each customer's history is exactly what its
/// writer's answers created, in order) and no read is torn (each history page is the
/// newest part of one state of the customer's history, a next page continues it
/// exactly, a status's transaction and renewal info agree, and what a reader sees never
/// goes back). No sleeps: the tasks run as fast as the server answers them.
final class ServeConcurrencyTests: XCTestCase {
    static let monthly = "com.example.receiptforge.subscription.monthly"
    static let coins = "com.example.receiptforge.coins100"

    /// A history page a reader saw: the customer, its transaction ids newest first, and
    /// the next page (read with the first page's revision) when there was more.
    struct SeenPage: Sendable {
        let customer: Int
        let ids: [String]
        let hasMore: Bool
        let next: [String]?
    }

    enum Outcome: Sendable {
        case writer(customer: Int, created: [String])
        case reader(pages: [SeenPage])
    }

    func testWritersLoseNoUpdateAndReadersSeeNoTornState() async throws {
        var options = ServeOptions()
        options.serverAPIAuthentication = .disabled
        let customers = 4, rounds = 12, readers = 4, readsEach = 24
        try await ServerHarness.with(options) { server in
            var subscribed: [String] = []
            for customer in 0..<customers {
                let bought = try await Self.control(server, "buyProduct", #"{"customer":"concurrent-\#(customer)","productId":"\#(Self.monthly)"}"#)
                subscribed.append(try XCTUnwrap(bought["originalTransactionId"]?.stringValue))
            }
            let originals = subscribed
            let before = try await Self.transactionCount(server)
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for customer in 0..<customers {
                    let original = originals[customer]
                    group.addTask {
                        var created = [original]
                        for round in 0..<rounds {
                            let quantity = 1 + round % 3
                            let bought = try await Self.control(server, "buyProduct",
                                                                #"{"customer":"concurrent-\#(customer)","productId":"\#(Self.coins)","quantity":\#(quantity)}"#)
                            let id = try XCTUnwrap(bought["transactionIds"]?.arrayValue?.first?.stringValue)
                            created.append(id)
                            // The writer reads its own write back at once.
                            let info = try await server.send("/sandbox/inApps/v1/transactions/\(id)", method: "GET")
                            XCTAssertEqual(info.http, 200, info.text)
                            let payload = try Self.payload(try info.json()["signedTransactionInfo"])
                            XCTAssertEqual(payload["transactionId"]?.stringValue, id)
                            XCTAssertEqual(payload["quantity"]?.intValue, quantity)
                            let renewed = try await Self.control(server, "forceRenewalOfSubscription", #"{"originalTransactionId":"\#(original)"}"#)
                            created.append(try XCTUnwrap(renewed["transactionIds"]?.arrayValue?.first?.stringValue))
                        }
                        return .writer(customer: customer, created: created)
                    }
                }
                for reader in 0..<readers {
                    group.addTask {
                        var pages: [SeenPage] = []
                        var latest = [UInt64](repeating: 0, count: customers)
                        for read in 0..<readsEach {
                            let customer = (reader + read) % customers
                            let original = originals[customer]
                            let status = try await Self.latestRenewal(server, original: original)
                            XCTAssertGreaterThanOrEqual(status, latest[customer], "a status never goes back")
                            latest[customer] = status

                            let first = try await server.send("/sandbox/inApps/v2/history/\(original)?sort=DESCENDING", method: "GET")
                            XCTAssertEqual(first.http, 200, first.text)
                            let body = try first.json()
                            let (ids, renewals) = try Self.ids(body, original: original)
                            let hasMore = try XCTUnwrap(body["hasMore"]?.boolValue)
                            let newestRenewal = try XCTUnwrap(renewals.max(), "each round renews: the newest 20 hold a renewal")
                            XCTAssertGreaterThanOrEqual(newestRenewal, status, "the history read after a status holds its transaction")
                            var next: [String]?
                            if hasMore {
                                let revision = try XCTUnwrap(body["revision"]?.stringValue)
                                let second = try await server.send("/sandbox/inApps/v2/history/\(original)?sort=DESCENDING&revision=\(revision)",
                                                                   method: "GET")
                                XCTAssertEqual(second.http, 200, second.text)
                                next = try Self.ids(try second.json(), original: original).ids
                            }
                            pages.append(SeenPage(customer: customer, ids: ids, hasMore: hasMore, next: next))

                            let after = try await Self.latestRenewal(server, original: original)
                            XCTAssertGreaterThanOrEqual(after, newestRenewal, "a status read after a history page holds its newest renewal")
                            latest[customer] = after
                        }
                        return .reader(pages: pages)
                    }
                }
                return try await group.reduce(into: [Outcome]()) { $0.append($1) }
            }

            // No lost update: each customer's whole history is what its writer created, in order.
            var histories: [Int: [String]] = [:]
            for case .writer(let customer, let created) in outcomes {
                let history = try await Self.wholeHistory(server, original: originals[customer])
                XCTAssertEqual(history, created, "concurrent-\(customer)'s history is exactly its writer's transactions")
                XCTAssertEqual(history.count, 1 + 2 * rounds)
                histories[customer] = history
            }
            XCTAssertEqual(histories.count, customers)
            let after = try await Self.transactionCount(server)
            XCTAssertEqual(after, before + customers * 2 * rounds, "the store holds every transaction once")

            // No torn read: a page is the newest part of one prefix of the final history.
            var checked = 0
            for case .reader(let pages) in outcomes {
                var seen = [Int](repeating: 0, count: customers)
                for page in pages {
                    let history = try XCTUnwrap(histories[page.customer])
                    guard let newest = page.ids.first, let length = history.firstIndex(of: newest).map({ $0 + 1 }) else {
                        XCTFail("a page of concurrent-\(page.customer) holds no transaction the writer made: \(page.ids)")
                        continue
                    }
                    XCTAssertEqual(page.ids, Array(history[..<length].reversed().prefix(20)),
                                   "a page of concurrent-\(page.customer) is the newest 20 of its first \(length) transactions")
                    XCTAssertEqual(page.hasMore, length > 20)
                    XCTAssertGreaterThanOrEqual(length, seen[page.customer], "a reader never sees fewer transactions than before")
                    seen[page.customer] = length
                    if let next = page.next {
                        XCTAssertEqual(next, Array(history[..<(length - 20)].reversed().prefix(20)),
                                       "the next page continues the first exactly, whatever was added since")
                    }
                    checked += 1
                }
            }
            XCTAssertEqual(checked, readers * readsEach)
        }
    }

    // MARK: Requests

    private static func control(_ server: ServerHarness, _ verb: String, _ body: String) async throws -> JSONValue {
        let reply = try await server.send("/sandbox/forge/v1/\(verb)", body: Array(body.utf8))
        XCTAssertEqual(reply.http, 200, "\(verb): \(reply.text)")
        return try reply.json()
    }

    private static func transactionCount(_ server: ServerHarness) async throws -> Int {
        let state = try await server.send("/sandbox/forge/v1/state", method: "GET")
        XCTAssertEqual(state.http, 200)
        return try XCTUnwrap(try state.json()["transactions"]?.arrayValue?.count)
    }

    /// The payload of a JWS in a Server API answer.
    private static func payload(_ jws: JSONValue?) throws -> JSONValue {
        try JSONValue(json: Data(try CompactJWS(try XCTUnwrap(jws?.stringValue, "no JWS")).payload))
    }

    /// A history page's transaction ids in its order, and the subscription's ones as numbers.
    private static func ids(_ body: JSONValue, original: String) throws -> (ids: [String], renewals: [UInt64]) {
        var ids: [String] = [], renewals: [UInt64] = []
        for signed in body["signedTransactions"]?.arrayValue ?? [] {
            let decoded = try payload(signed)
            let id = try XCTUnwrap(decoded["transactionId"]?.stringValue)
            ids.append(id)
            if decoded["originalTransactionId"]?.stringValue == original { renewals.append(try XCTUnwrap(UInt64(id))) }
        }
        return (ids, renewals)
    }

    /// Get All Subscription Statuses for the customer's one subscription: its latest
    /// transaction id, after checking that the transaction and the renewal info in the
    /// one answer belong together.
    private static func latestRenewal(_ server: ServerHarness, original: String) async throws -> UInt64 {
        let reply = try await server.send("/sandbox/inApps/v1/subscriptions/\(original)", method: "GET")
        XCTAssertEqual(reply.http, 200, reply.text)
        let groups = try XCTUnwrap(try reply.json()["data"]?.arrayValue)
        XCTAssertEqual(groups.count, 1)
        let last = try XCTUnwrap(groups.first?["lastTransactions"]?.arrayValue)
        XCTAssertEqual(last.count, 1)
        let item = try XCTUnwrap(last.first)
        XCTAssertEqual(item["status"]?.intValue, 1, "active")
        let transaction = try payload(item["signedTransactionInfo"])
        let renewal = try payload(item["signedRenewalInfo"])
        XCTAssertEqual(item["originalTransactionId"]?.stringValue, original)
        XCTAssertEqual(transaction["originalTransactionId"]?.stringValue, original)
        XCTAssertEqual(renewal["originalTransactionId"]?.stringValue, original)
        XCTAssertEqual(renewal["renewalDate"]?.intValue, transaction["expiresDate"]?.intValue, "renewal info and transaction of one state")
        XCTAssertEqual(renewal["signedDate"]?.intValue, transaction["signedDate"]?.intValue)
        return try XCTUnwrap(UInt64(try XCTUnwrap(transaction["transactionId"]?.stringValue)))
    }

    /// Every page of the customer's history, oldest first, following `revision`.
    private static func wholeHistory(_ server: ServerHarness, original: String) async throws -> [String] {
        var ids: [String] = []
        var revision: String?
        repeat {
            let query = revision.map { "?revision=\($0)" } ?? ""
            let page = try await server.send("/sandbox/inApps/v2/history/\(original)\(query)", method: "GET")
            XCTAssertEqual(page.http, 200, page.text)
            let body = try page.json()
            ids += try Self.ids(body, original: original).ids
            revision = body["hasMore"]?.boolValue == true ? body["revision"]?.stringValue : nil
        } while revision != nil
        return ids
    }
}
