import ForgeServer
import Foundation
import XCTest

/// Bodies over 1 MiB, slow and half-open clients, garbage on the wire, many clients at
/// once: none of it crashes the server or changes another request's answer.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class LimitTests: XCTestCase {
    /// A declared length over the limit is answered 413 at once: the server does not
    /// wait for (or read) the 4 MiB it was promised.
    func testDeclaredOversizedBodyIs413WithoutReadingIt() async throws {
        try await ServerHarness.with { server in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: \(4 << 20)\r\n\r\n")
            connection.send([UInt8](repeating: 0x41, count: 64 << 10))
            let (bytes, closed) = connection.readUntilClosed(timeout: 5)
            XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"), String(decoding: bytes, as: UTF8.self))
            XCTAssertTrue(closed, "the connection is closed after the 413")
            let answer19 = try await server.verify(Minted.receipt("valid")).status()
            XCTAssertEqual(answer19, 0)
        }
    }

    /// A chunked body (no length declared) is cut off once it passes 1 MiB.
    func testStreamedOversizedBodyIs413() async throws {
        try await ServerHarness.with { server in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x41, count: 0x10000) + Array("\r\n".utf8)
            for _ in 0..<17 { connection.send(chunk) }  // 17 × 64 KiB > 1 MiB
            let (bytes, _) = connection.readUntilClosed(timeout: 5)
            XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"), String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Exactly at the limit is still read and answered (a JSON answer, not 413).
    func testBodyAtTheLimitIsRead() async throws {
        try await ServerHarness.with { server in
            let prefix = Array(#"{"receipt-data":""#.utf8), suffix = Array(#""}"#.utf8)
            let body = prefix + [UInt8](repeating: UInt8(ascii: "A"), count: (1 << 20) - prefix.count - suffix.count) + suffix
            XCTAssertEqual(body.count, 1 << 20)
            let reply = try await server.send("/verifyReceipt", body: body)
            XCTAssertEqual(reply.http, 200)
            XCTAssertEqual(try reply.status(), 21002, "768 KiB of zero bytes is no receipt")
            let over = try await server.send("/verifyReceipt", body: body + [0x20])
            XCTAssertEqual(over.http, 413)
        }
    }

    /// A client that stops halfway through its body, or never finishes its head, is
    /// disconnected after the read timeout, and others are served meanwhile.
    func testSlowAndHalfOpenClientsTimeOut() async throws {
        var options = ServeOptions()
        options.readTimeout = .milliseconds(400)
        try await ServerHarness.with(options) { server in
            let halfBody = try RawConnection(port: server.port)
            halfBody.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"receipt-data\":")
            let halfHead = try RawConnection(port: server.port)
            halfHead.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\n")
            let answer59 = try await server.verify(Minted.receipt("valid")).status()
            XCTAssertEqual(answer59, 0)
            for connection in [halfBody, halfHead] {
                let started = Date()
                let (_, closed) = connection.readUntilClosed(timeout: 10)
                XCTAssertTrue(closed, "the stalled connection is closed")
                XCTAssertLessThan(Date().timeIntervalSince(started), 5)
            }
        }
    }

    /// Garbage on the wire gets 400 and a closed connection, nothing else.
    func testGarbageOnTheWireIsRefused() async throws {
        try await ServerHarness.with { server in
            for junk in ["\u{0}\u{1}\u{2}garbage\r\n\r\n", "POST /verifyReceipt HTTP/1.1\r\nContent-Length: abc\r\n\r\n", "POST /verifyReceipt HTTP/1.1\r\nContent-Length: -5\r\n\r\n"] {
                let connection = try RawConnection(port: server.port)
                connection.send(junk)
                let (bytes, closed) = connection.readUntilClosed(timeout: 5)
                let text = String(decoding: bytes, as: UTF8.self)
                XCTAssertTrue(text.isEmpty || text.hasPrefix("HTTP/1.1 400"), "\(junk.debugDescription): \(text)")
                XCTAssertTrue(closed, junk.debugDescription)
            }
            let answer80 = try await server.verify(Minted.receipt("valid")).status()
            XCTAssertEqual(answer80, 0)
        }
    }

    /// 96 requests at once, of 12 different cases at both URLs: each gets its own answer.
    func testConcurrentRequestsEachGetTheirOwnAnswer() async throws {
        let ids = ["valid", "sandbox", "tampered-payload", "truncated", "wrong-bundle", "untrusted-root", "subscriptions",
                   "vpp-expired", "xcode-storekit", "many-iaps", "sha1-legacy", "md5-digest"]
        try await ServerHarness.with { server in
            var expected: [String: (Int, String?)] = [:]
            for id in ids {
                let json = try await server.verify(Minted.receipt(id)).json()
                expected[id] = (try XCTUnwrap(json["status"]?.intValue), json["receipt"]?["bundle_id"]?.stringValue)
            }
            try await withThrowingTaskGroup(of: (String, Int, String?).self) { group in
                for index in 0..<96 {
                    let id = ids[index % ids.count]
                    group.addTask {
                        let json = try await server.verify(Minted.receipt(id)).json()
                        return (id, try XCTUnwrap(json["status"]?.intValue), json["receipt"]?["bundle_id"]?.stringValue)
                    }
                }
                var answered = 0
                for try await (id, status, bundle) in group {
                    answered += 1
                    XCTAssertEqual(status, expected[id]!.0, id)
                    XCTAssertEqual(bundle, expected[id]!.1, id)
                }
                XCTAssertEqual(answered, 96)
            }
            XCTAssertEqual(Set(expected.values.map(\.0)), [0, 21002, 21003, 21007])
        }
    }
}
