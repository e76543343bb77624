import ForgeServer
import Foundation
import StrictJSON
import TestSupport
import XCTest

/// The `X-Forge-Fault` header and `--faults`: every fault drives the client path it names.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class FaultTests: XCTestCase {
    func testStatusFaults() async throws {
        try await ServerHarness.with { server in
            let valid = Minted.receipt("valid")
            for (fault, expected) in [("21005", #"{"status":21005}"#), ("21009", #"{"status":21009}"#),
                                      ("21100", #"{"status":21100,"is_retryable":true}"#),
                                      ("21150", #"{"status":21150,"is_retryable":true}"#),
                                      ("21199-final", #"{"status":21199,"is_retryable":false}"#)] {
                let reply = try await server.verify(valid, headers: [("X-Forge-Fault", fault)])
                XCTAssertEqual(reply.http, 200, fault)
                XCTAssertEqual(reply.text, expected, fault)
            }
            // The next request, without the header, is answered normally.
            let answer19 = try await server.verify(valid).status()
            XCTAssertEqual(answer19, 0)
        }
    }

    func testHTTPGarbageDelayAndCloseFaults() async throws {
        try await ServerHarness.with { server in
            let valid = Minted.receipt("valid")
            let internalError = try await server.verify(valid, headers: [("X-Forge-Fault", "http-500")])
            XCTAssertEqual(internalError.http, 500)
            let unavailable = try await server.verify(valid, headers: [("X-Forge-Fault", "http-503")])
            XCTAssertEqual(unavailable.http, 503)
            XCTAssertEqual(unavailable.header("Retry-After"), "1")

            let garbage = try await server.verify(valid, headers: [("X-Forge-Fault", "garbage")])
            XCTAssertEqual(garbage.http, 200)
            XCTAssertThrowsError(try JSONValue(json: Data(garbage.body)), "the body is not JSON")

            let started = ContinuousClock.now
            let delayed = try await server.verify(valid, headers: [("X-Forge-Fault", "delay-300")])
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
            XCTAssertEqual(try delayed.status(), 0, "the normal answer, late")

            do {
                let reply = try await server.verify(valid, headers: [("X-Forge-Fault", "close")])
                XCTFail("an answer came: \(reply.http) \(reply.text)")
            } catch {
                // The connection was dropped: what the client sees is an error, not an answer.
            }
            let answer47 = try await server.verify(valid).status()
            XCTAssertEqual(answer47, 0, "the server goes on")
        }
    }

    func testCloseFaultDropsTheConnectionWithoutAnyAnswer() async throws {
        try await ServerHarness.with { server in
            let connection = try RawConnection(port: server.port)
            let body = ServerHarness.requestBody(Minted.receipt("valid"))
            connection.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nX-Forge-Fault: close\r\nContent-Length: \(body.count)\r\n\r\n")
            connection.send(body)
            let (bytes, closed) = connection.readUntilClosed(timeout: 5)
            XCTAssertTrue(closed)
            XCTAssertEqual(bytes, [], "not a byte of an answer")
        }
    }

    func testUnknownFaultIsRefusedWithTheList() async throws {
        try await ServerHarness.with { server in
            for fault in ["21006", "21200", "http-404", "delay-", "delay-60001", "delay--5", "2110"] {
                let reply = try await server.verify(Minted.receipt("valid"), headers: [("X-Forge-Fault", fault)])
                XCTAssertEqual(reply.http, 400, fault)
                XCTAssertTrue(reply.text.contains("http-503"), reply.text)
            }
        }
    }

    /// `--faults` at random rates; the same seed draws the same faults.
    func testRandomFaultsAreReproducibleWithTheSeed() async throws {
        func statuses(seed: UInt64) async throws -> [Int] {
            var options = ServeOptions()
            options.faults = try FaultPlan(spec: "21005=30%,21100=0.2", seed: seed)
            return try await ServerHarness.with(options) { server in
                var statuses: [Int] = []
                for _ in 0..<40 { statuses.append(try await server.verify(Minted.receipt("valid")).status()) }
                return statuses
            }
        }
        let first = try await statuses(seed: 7)
        let answer85 = try await statuses(seed: 7)
        XCTAssertEqual(answer85, first)
        let answer86 = try await statuses(seed: 8)
        XCTAssertNotEqual(answer86, first)
        XCTAssertEqual(Set(first), [0, 21005, 21100])
        let faulted = first.filter { $0 != 0 }.count
        XCTAssertTrue((8...32).contains(faulted), "about half of 40 faulted: \(faulted)")
    }

    func testFaultSpecErrorsNameWhatIsWrong() {
        let bad: [(String, String)] = [
            ("21005", "is not FAULT=RATE"),
            ("nope=0.1", "'nope' is not a fault"),
            ("21005=1.5", "is not a rate"),
            ("21005=150%", "is not a rate"),
            ("21005=0.7,21009=0.5", "add up to 1.2"),
            ("21005=-0.1", "is not a rate"),
        ]
        for (spec, message) in bad {
            XCTAssertThrowsError(try FaultPlan(spec: spec, seed: 1), spec) { error in
                XCTAssertTrue("\(error)".contains(message), "\(spec): \(error)")
            }
        }
        XCTAssertEqual(try FaultPlan(spec: "close=1", seed: 1).next(for: .verifyReceipt), .close)
        XCTAssertNil(try FaultPlan(spec: "close=0", seed: 1).next(for: .serverAPI))
    }
}
