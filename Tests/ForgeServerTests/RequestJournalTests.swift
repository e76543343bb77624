import ForgeServer
import Foundation
import LocalAppStore
import StrictJSON
import TestSupport
import XCTest

/// `GET /forge/v1/requests` (issue 36, "a journal that explains"): each request a client
/// sent, newest first, with what answered, the action, Apple's error code, the token check
/// that failed and why; never the token; a ring of `--journal-size` entries.
@available(macOS 14, iOS 17, tvOS 17, *)
final class RequestJournalTests: XCTestCase {
    private func journal(_ server: ServerHarness, _ path: String = "/forge/v1/requests") async throws -> JSONValue {
        let reply = try await server.send(path, method: "GET")
        XCTAssertEqual(reply.http, 200)
        XCTAssertEqual(reply.header("Content-Type"), "application/json")
        return try JSONValue(json: String(decoding: reply.body, as: UTF8.self))
    }

    func testEachRequestIsExplainedAndTheTokenNeverKept() async throws {
        let bearer = try OpenAPIDocumentTests.bearer(bundleId: LocalAppStores.defaultBundleIdentifier)
        try await ServerHarness.with { server in
            _ = try await server.send("/health", method: "GET")
            _ = try await server.send("/sandbox/inApps/v1/transactions/1", method: "GET", headers: [("Authorization", "Bearer a.b.c")])
            _ = try await server.send("/inApps/v1/transactions/1", method: "GET", headers: [("Authorization", bearer)])
            _ = try await server.send("/forge/v1/buyProduct", body: Array(#"{"customer": "a", "productId": "com.nope"}"#.utf8))
            _ = try await server.send("/sandbox/verifyReceipt", body: Array("{}".utf8))
            let page = try await journal(server)
            XCTAssertEqual(page["capacity"]?.intValue, 1_000)
            XCTAssertEqual(page["recorded"]?.intValue, 5, "the journal's own requests are not recorded")
            let entries = try XCTUnwrap(page["requests"]?.arrayValue)
            XCTAssertEqual(entries.compactMap { $0["sequence"]?.intValue }, [5, 4, 3, 2, 1], "newest first")
            XCTAssertEqual(entries.compactMap { $0["surface"]?.stringValue }, ["verifyReceipt", "control", "serverAPI", "serverAPI", "health"])

            XCTAssertEqual(entries[0]["environment"]?.stringValue, "sandbox")
            XCTAssertEqual(entries[0]["verifyReceiptStatus"]?.intValue, 21002)
            XCTAssertEqual(entries[1]["action"]?.stringValue, "buyProduct")
            XCTAssertEqual(entries[1]["http"]?.intValue, 400)
            XCTAssertTrue(entries[1]["detail"]?.stringValue?.contains("productId") == true, "\(entries[1])")
            XCTAssertEqual(entries[2]["action"]?.stringValue, "Get Transaction Info")
            XCTAssertEqual(entries[2]["environment"]?.stringValue, "production")
            XCTAssertEqual(entries[2]["appleErrorCode"]?.intValue, 4040010)
            XCTAssertNil(entries[2]["authFailure"])
            XCTAssertEqual(entries[3]["environment"]?.stringValue, "sandbox")
            XCTAssertEqual(entries[3]["http"]?.intValue, 401)
            XCTAssertEqual(entries[3]["authFailure"]?.stringValue, "malformed-token")
            XCTAssertNil(entries[4]["environment"])
            for entry in entries {
                XCTAssertNotNil(entry["durationMicroseconds"]?.intValue)
                XCTAssertNotNil(entry["date"]?.intValue)
            }
            let text = try await server.send("/forge/v1/requests", method: "GET").body
            let token = String(bearer.dropFirst("Bearer ".count))
            XCTAssertNil(String(decoding: text, as: UTF8.self).range(of: token.split(separator: ".")[2]), "the token's signature is not kept")
            XCTAssertNil(String(decoding: text, as: UTF8.self).range(of: token.split(separator: ".")[1]), "nor its claims as sent")

            // The sandbox path: the sandbox's requests only; limit.
            let sandbox = try await journal(server, "/sandbox/forge/v1/requests?limit=1")
            let only = try XCTUnwrap(sandbox["requests"]?.arrayValue)
            XCTAssertEqual(only.compactMap { $0["sequence"]?.intValue }, [5])
            // A query it does not take, another method.
            let bad = try await server.send("/forge/v1/requests?limit=0", method: "GET")
            XCTAssertEqual(bad.http, 400)
            XCTAssertTrue(String(decoding: bad.body, as: UTF8.self).contains("limit=N"))
            let post = try await server.send("/forge/v1/requests")
            XCTAssertEqual(post.http, 405)
            XCTAssertEqual(post.header("Allow"), "GET, HEAD")
        }
    }

    /// Memory stays bounded: the newest `journalCapacity` requests are kept, and the count of
    /// all of them; requests from many tasks at once are each recorded once.
    func testTheJournalIsARingAndCountsConcurrentRequests() async throws {
        var options = ServeOptions()
        options.journalCapacity = 8
        try await ServerHarness.with(options) { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask { _ = try await server.send("/health", method: "GET") }
                }
                try await group.waitForAll()
            }
            let page = try await journal(server)
            XCTAssertEqual(page["recorded"]?.intValue, 40)
            let sequences = try XCTUnwrap(page["requests"]?.arrayValue).compactMap { $0["sequence"]?.intValue }
            XCTAssertEqual(sequences, Array((33...40).reversed()))
        }
    }
}
