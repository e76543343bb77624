import ForgeServer
import Foundation
import LocalAppStore
import StoreAPIAuthentication
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// `X-Forge-Fault` and `--faults` on App Store Server API requests: Apple's error bodies
/// with their HTTP status, the transport faults, and the faults that mean nothing there.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class ServerAPIFaultTests: XCTestCase {
    /// 2027-01-15T08:00:00.250Z: a wall clock the tests read Retry-After against.
    static let wallClock: Int64 = 1_800_000_000_250
    static let missing = "/inApps/v1/transactions/1"

    private func options(auth: ServerAPIAuthentication = .disabled) -> ServeOptions {
        var options = ServeOptions()
        options.clock = { Date(timeIntervalSince1970: Double(Self.wallClock) / 1_000) }
        options.serverAPIAuthentication = auth
        options.stores = LocalAppStores(.init(customers: 0))
        return options
    }

    func testAPIErrorFaultsAnswerApplesBodyWithTheCodesStatusWhateverTheToken() async throws {
        // The default authentication: the requests carry no token, and the fault answers all the same.
        try await ServerHarness.with(options(auth: ServeOptions().serverAPIAuthentication)) { server in
            for prefix in ["", "/sandbox"] {
                for (code, status, message) in [(4_290_000, 429, "Rate limit exceeded."), (5_000_001, 500, StoreAPIError.generalInternalRetryable.message),
                                                (4_040_002, 404, StoreAPIError.accountNotFoundRetryable.message)] {
                    let reply = try await server.send(prefix + Self.missing, method: "GET", headers: [("X-Forge-Fault", String(code))])
                    XCTAssertEqual(reply.http, status, "\(prefix) \(code)")
                    XCTAssertEqual(reply.header("Content-Type"), "application/json", "exactly, or Apple's Python client ignores the body")
                    XCTAssertEqual(reply.text, #"{"errorCode":\#(code),"errorMessage":"\#(message)"}"#)
                    XCTAssertEqual(reply.header("Retry-After"), code == 4_290_000 ? String(Self.wallClock + 1_000) : nil,
                                   "\(code): Retry-After is UNIX milliseconds, a second on")
                }
            }
            // Without the header, the same request is refused for its missing token as before.
            let unauthenticated = try await server.send(Self.missing, method: "GET")
            XCTAssertEqual(unauthenticated.http, 401)
            XCTAssertTrue(server.log.lines.contains { $0.contains("GET \(Self.missing) http=429") && $0.contains("fault=4290000") },
                          server.log.lines.joined(separator: "\n"))
        }
    }

    func testTransportFaultsOnTheServerAPI() async throws {
        try await ServerHarness.with(options()) { server in
            let internalError = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", "http-500")])
            XCTAssertEqual(internalError.http, 500)
            XCTAssertEqual(internalError.header("Content-Type"), "text/html; charset=utf-8")
            let unavailable = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", "http-503")])
            XCTAssertEqual(unavailable.http, 503)
            XCTAssertEqual(unavailable.header("Retry-After"), "1")
            let garbage = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", "garbage")])
            XCTAssertEqual(garbage.http, 200)
            XCTAssertThrowsError(try JSONValue(json: Data(garbage.body)), "the body is not JSON")

            let started = ContinuousClock.now
            let delayed = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", "delay-300")])
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
            XCTAssertEqual(delayed.http, 404, "the normal answer, late")
            XCTAssertEqual(try delayed.json()["errorCode"]?.intValue, 4_040_010)

            let connection = try RawConnection(port: server.port)
            connection.send("GET \(Self.missing) HTTP/1.1\r\nHost: x\r\nX-Forge-Fault: close\r\n\r\n")
            let (bytes, closed) = connection.readUntilClosed(timeout: 5)
            XCTAssertTrue(closed)
            XCTAssertEqual(bytes, [], "not a byte of an answer")
            let after = try await server.send(Self.missing, method: "GET")
            XCTAssertEqual(after.http, 404, "the server goes on")
        }
    }

    func testAFaultOfTheOtherSurfaceOrNoFaultIsA400NamingIt() async throws {
        try await ServerHarness.with(options()) { server in
            for value in ["21005", "21100-final", "4999999", "429", "42900000", "nope"] {
                let reply = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", value)])
                XCTAssertEqual(reply.http, 400, value)
                XCTAssertTrue(reply.text.hasPrefix("X-Forge-Fault '\(value)' "), reply.text)
                XCTAssertTrue(reply.text.contains("4290000"), "lists the Server API's faults: \(reply.text)")
            }
            let status = try await server.send(Self.missing, method: "GET", headers: [("X-Forge-Fault", "21005")])
            XCTAssertTrue(status.text.contains("is a fault of verifyReceipt, not of the App Store Server API"), status.text)
            // And the other way round.
            let apiError = try await server.verify(Minted.receipt("valid"), headers: [("X-Forge-Fault", "4290000")])
            XCTAssertEqual(apiError.http, 400)
            XCTAssertTrue(apiError.text.contains("X-Forge-Fault '4290000' is a fault of the App Store Server API, not of verifyReceipt"),
                          apiError.text)
            // A path that is no endpoint fails no server: 404 whatever the header.
            let nowhere = try await server.send("/inApps/v1/nowhere", method: "GET", headers: [("X-Forge-Fault", "4290000")])
            XCTAssertEqual(nowhere.http, 404)
        }
    }

    /// `--faults` over Server API requests: the same seed, the same faults; a verifyReceipt
    /// status in the spec never reaches the Server API.
    func testRandomFaultsOnTheServerAPIAreReproducibleWithTheSeed() async throws {
        func codes(seed: UInt64) async throws -> [Int] {
            var options = options()
            options.faults = try FaultPlan(spec: "4290000=25%,5000001=15%,21005=50%", seed: seed)
            return try await ServerHarness.with(options) { server in
                var codes: [Int] = []
                for _ in 0..<40 {
                    let reply = try await server.send(Self.missing, method: "GET")
                    XCTAssertEqual(reply.header("Content-Type"), "application/json")
                    codes.append(try XCTUnwrap(try reply.json()["errorCode"]?.intValue, reply.text))
                }
                return codes
            }
        }
        let first = try await codes(seed: 7)
        let again = try await codes(seed: 7)
        XCTAssertEqual(again, first)
        let other = try await codes(seed: 8)
        XCTAssertNotEqual(other, first)
        XCTAssertEqual(Set(first), [4_040_010, 4_290_000, 5_000_001])
        let faulted = first.filter { $0 != 4_040_010 }.count
        XCTAssertTrue((8...28).contains(faulted), "about 40 % of 40 faulted: \(faulted)")
    }

    func testFaultPlansDrawOnlyTheFaultsOfTheSurface() throws {
        XCTAssertEqual(try FaultPlan(spec: "4290000=1", seed: 1).next(for: .serverAPI), .apiError(.rateLimitExceeded))
        XCTAssertNil(try FaultPlan(spec: "4290000=1", seed: 1).next(for: .verifyReceipt))
        XCTAssertNil(try FaultPlan(spec: "21005=1", seed: 1).next(for: .serverAPI))
        XCTAssertEqual(try FaultPlan(spec: "21005=0.6,4290000=0.6", seed: 1).rates.count, 2, "each surface's rates add up to 0.6")
        XCTAssertThrowsError(try FaultPlan(spec: "4290000=0.6,close=0.5", seed: 1)) { error in
            XCTAssertTrue("\(error)".contains("the faults for the App Store Server API add up to 1.1"), "\(error)")
        }
        XCTAssertThrowsError(try FaultPlan(spec: "4999999=0.1", seed: 1)) { error in
            XCTAssertTrue("\(error)".contains("'4999999' is not a fault"), "\(error)")
        }
        for error in StoreAPIError.allCases {
            XCTAssertEqual(Fault(String(error.rawValue)), .apiError(error))
        }
    }

    /// `--rate-limits apple`: 50 per second at production, 5 at sandbox, then 429 with the
    /// next window's start as Retry-After.
    func testRateLimitsRefuseTheRequestOverTheLimitUntilTheNextWindow() async throws {
        var options = options()
        options.rateLimits = .apple
        try await ServerHarness.with(options) { server in
            for (prefix, limit) in [("", 50), ("/sandbox", 5)] {
                for number in 1...limit {
                    let reply = try await server.send(prefix + Self.missing, method: "GET")
                    XCTAssertEqual(reply.http, 404, "\(prefix) request \(number) of \(limit)")
                }
                let refused = try await server.send(prefix + Self.missing, method: "GET")
                XCTAssertEqual(refused.http, 429, prefix)
                XCTAssertEqual(refused.header("Content-Type"), "application/json")
                XCTAssertEqual(refused.text, #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)
                XCTAssertEqual(refused.header("Retry-After"), "1800000001000", "the next second, in UNIX milliseconds")
            }
            // Another endpoint has its own count.
            let history = try await server.send("/inApps/v2/history/1", method: "GET")
            XCTAssertEqual(history.http, 404)
        }
    }
}
