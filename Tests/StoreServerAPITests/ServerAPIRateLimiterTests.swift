import APIMessage
import AppInput
import ForgeSupport
import Foundation
import LocalAppStore
import StoreAPIAuthentication
import StoreServerAPI
import XCTest

/// `--rate-limits`: per endpoint and environment, in windows of the caller's clock; the
/// sandbox a tenth; safe from many threads; only authenticated requests count.
final class ServerAPIRateLimiterTests: XCTestCase {
    func testTheLimitThenARefusalUntilTheNextWindow() {
        let limiter = ServerAPIRateLimiter(limits: .apple)
        let now: Int64 = 1_800_000_000_250
        for number in 1...50 {
            XCTAssertEqual(limiter.admit(.getTransactionInfo, in: .production, at: now + Int64(number)), .admitted, "request \(number)")
        }
        XCTAssertEqual(limiter.admit(.getTransactionInfo, in: .production, at: now + 100),
                       .refused(retryAt: 1_800_000_001_000, limit: .perSecond(50)))
        XCTAssertEqual(limiter.admit(.getTransactionInfo, in: .production, at: 1_800_000_000_999),
                       .refused(retryAt: 1_800_000_001_000, limit: .perSecond(50)))
        XCTAssertEqual(limiter.admit(.getTransactionInfo, in: .production, at: 1_800_000_001_000), .admitted, "a new second")
        // Other endpoints and the other environment count on their own; unlimited endpoints are never refused.
        XCTAssertEqual(limiter.admit(.getTransactionHistory, in: .production, at: now), .admitted)
        XCTAssertEqual(limiter.admit(.getTransactionInfo, in: .sandbox, at: now), .admitted)
        for _ in 0..<1_000 {
            XCTAssertEqual(limiter.admit(.finishTransaction, in: .production, at: now), .admitted)
        }
    }

    func testTheSandboxHasATenth() {
        XCTAssertEqual(ServerAPIRateLimits.apple.limit(.getTransactionInfo, in: .sandbox), .perSecond(5))
        XCTAssertEqual(ServerAPIRateLimit.perSecond(1).tenth, ServerAPIRateLimit(requests: 1, windowMilliseconds: 10_000))
        XCTAssertEqual(ServerAPIRateLimit.perSecond(25).tenth, ServerAPIRateLimit(requests: 25, windowMilliseconds: 10_000))
        let limiter = ServerAPIRateLimiter(limits: .apple)
        for _ in 1...5 {
            XCTAssertEqual(limiter.admit(.getTransactionHistoryV1, in: .sandbox, at: 5_000), .admitted)
        }
        XCTAssertEqual(limiter.admit(.getTransactionHistoryV1, in: .sandbox, at: 5_500), .refused(retryAt: 6_000, limit: .perSecond(5)))

        let slow = ServerAPIRateLimiter(limits: ServerAPIRateLimits(production: [.lookUpOrderId: .perSecond(1)]))
        XCTAssertEqual(slow.admit(.lookUpOrderId, in: .sandbox, at: 12_000), .admitted)
        XCTAssertEqual(slow.admit(.lookUpOrderId, in: .sandbox, at: 15_000),
                       .refused(retryAt: 20_000, limit: ServerAPIRateLimit(requests: 1, windowMilliseconds: 10_000)))
        XCTAssertEqual(slow.admit(.lookUpOrderId, in: .production, at: 15_000), .admitted)
    }

    func testConcurrentRequestsAdmitExactlyTheLimit() {
        let limiter = ServerAPIRateLimiter(limits: .apple)
        let admitted = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 400) { _ in
            if limiter.admit(.getTransactionInfo, in: .production, at: 7_000) == .admitted { admitted.withLock { $0 += 1 } }
        }
        XCTAssertEqual(admitted.withLock { $0 }, 50)
    }

    /// Through the handler: Apple's body, `Retry-After` from the handler's wall clock,
    /// and a refused token does not use up the app's requests.
    func testTheHandlerAnswers429AfterTheLimitAndCountsOnlyAuthenticatedRequests() throws {
        let stores = LocalAppStores(StoreConfiguration(seed: Fixture.seed, customers: 0))
        let handler = ServerAPIHandler(stores: stores, authentication: .testKey(seed: Fixture.seed, bundleIdentifier: bundleId),
                                       wallClock: { Fixture.wallNow }, rateLimits: .apple)
        func get(_ authorization: String?) -> APIResponse {
            handler.respond(to: ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/1", authorization: authorization))
        }
        for _ in 0..<60 { XCTAssertEqual(get(nil).status, 401) }
        let token = try Fixture.authorization()
        for _ in 0..<50 { XCTAssertEqual(get(token).status, 404) }
        let refused = get(token)
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.header("Content-Type"), "application/json")
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)
        XCTAssertEqual(refused.header("Retry-After"), String(Int64(Fixture.wallNow.timeIntervalSince1970) * 1_000 + 1_000))
    }
}
