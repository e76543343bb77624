import ForgeServer
import Foundation
import TestSupport
import XCTest

/// Graceful shutdown: requests in flight finish; `forge serve` exits 0 on SIGTERM and SIGINT.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class ShutdownTests: XCTestCase {
    func testInFlightRequestsFinishDuringShutdown() async throws {
        try await ServerHarness.with { server in
            let slow = Task { try await server.verify(Minted.receipt("valid"), headers: [("X-Forge-Fault", "delay-500")]) }
            try await Task.sleep(for: .milliseconds(150))
            await server.group.triggerGracefulShutdown()
            let reply = try await slow.value
            XCTAssertEqual(reply.http, 200)
            XCTAssertEqual(try reply.status(), 0, "the request in flight got its whole answer")
        }
    }

    func testTheBinaryExitsZeroOnSIGTERMAndSIGINT() async throws {
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = ChildProcess.product("forge")
            process.arguments = ["serve", "--port", "0", "--quiet"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // "forge serve: listening on http://127.0.0.1:PORT (…)"
            var text = ""
            let handle = output.fileHandleForReading
            while !text.contains("\n") {
                let data = handle.availableData
                guard !data.isEmpty else { break }
                text += String(decoding: data, as: UTF8.self)
            }
            guard let match = text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                  let port = Int(text[match].split(separator: ":")[1]) else {
                process.terminate()
                return XCTFail("no address printed: \(text)")
            }
            let health = try await HTTP.send(to: "http://127.0.0.1:\(port)/health", method: "GET", timeout: 10)
            XCTAssertEqual(health.http, 200)
            let verify = try await ServerHarnessBinary.verify(port: port, Minted.receipt("valid"))
            XCTAssertEqual(verify, 0)

            let stopped = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            // Issue 13 asks for a second; a loaded CI machine gets some slack here.
            XCTAssertLessThan(Date().timeIntervalSince(stopped), 3, "stopped promptly after signal \(signal)")
            XCTAssertEqual(process.terminationReason, .exit, "exited, not killed by signal \(signal)")
            XCTAssertEqual(process.terminationStatus, 0)
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
