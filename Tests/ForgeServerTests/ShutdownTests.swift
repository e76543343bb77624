import ForgeServer
import Foundation
import TestSupport
import WebhookTestSupport
import XCTest

/// Graceful shutdown: requests in flight finish; `forge serve` exits 0 on SIGTERM and SIGINT.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class ShutdownTests: XCTestCase {
    /// The request is held inside the server (its `requestReceived` hook) until the
    /// shutdown has begun (the listener refuses new connections); released, it still
    /// gets its whole answer. Every step waits for an event, none for a time.
    func testInFlightRequestsFinishDuringShutdown() async throws {
        let entered = Gate(), release = Gate()
        var options = ServeOptions()
        options.requestReceived = { _ in
            entered.open()
            await release.wait()
        }
        try await ServerHarness.with(options) { server in
            let held = Task { try await server.verify(Minted.receipt("valid")) }
            await entered.wait()
            await server.group.triggerGracefulShutdown()
            try await Self.waitUntilConnectionsAreRefused(port: server.port)
            release.open()
            let reply = try await held.value
            XCTAssertEqual(reply.http, 200)
            XCTAssertEqual(try reply.status(), 0, "the request in flight got its whole answer")
        }
    }

    /// Shutting down closes the listening socket first: a refused connection says the
    /// shutdown has begun.
    private static func waitUntilConnectionsAreRefused(port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? RawConnection(port: port)) != nil {
            guard ContinuousClock.now < deadline else { throw HarnessError("127.0.0.1:\(port) still accepts connections 30 s after the shutdown began") }
            try await Task.sleep(for: .milliseconds(10))  // look again: the listener closes on the server's event loop
        }
    }

    func testTheBinaryExitsZeroOnSIGTERMAndSIGINT() async throws {
        for signal in [SIGTERM, SIGINT] {
            let server = try ChildProcess.start(ChildProcess.product("forge"), ["serve", "--port", "0", "--quiet"])
            // "forge serve: listening on http://127.0.0.1:PORT (…)"
            let text = try server.waitForOutput(within: .seconds(60), "the address line") { $0.contains("\n") }
            guard let match = text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                  let port = Int(text[match].split(separator: ":")[1]) else {
                return XCTFail("no address printed: \(text)")
            }
            let health = try await HTTP.send(to: "http://127.0.0.1:\(port)/health", method: "GET", timeout: 10)
            XCTAssertEqual(health.http, 200)
            let verify = try await ServerHarnessBinary.verify(port: port, Minted.receipt("valid"))
            XCTAssertEqual(verify, 0)

            let stopped = ContinuousClock.now
            server.send(signal)
            let exit = try server.waitForExit(within: .seconds(60))
            // Issue 13 asks for a second; a loaded CI machine gets some slack here.
            XCTAssertLessThan(ContinuousClock.now - stopped, .seconds(3), "stopped promptly after signal \(signal)")
            XCTAssertEqual(server.terminationReason, .exit, "exited, not killed by signal \(signal)")
            XCTAssertEqual(exit.status, 0)
        }
    }
}

/// Requests to a `forge serve` started as a process.
enum ServerHarnessBinary {
    static func verify(port: Int, _ receipt: [UInt8]) async throws -> Int {
        let reply = try await HTTP.send(to: "http://127.0.0.1:\(port)/verifyReceipt",
                                        body: ServerHarness.requestBody(receipt), timeout: 10)
        return try reply.status()
    }
}
