import Foundation
import TestSupport
import XCTest

/// `forge health` (the image's HEALTHCHECK): 0 when `/health` answers 200, 1 with the
/// reason when the server answers something else or is not there, usage errors 64.
final class HealthCommandTests: XCTestCase {
    func testARunningServerIsHealthyThroughForgeAndForgeServe() async throws {
        try await ServerHarness.with { server in
            for executable in ["forge", "forge-serve"] {
                let result = try ChildProcess.run(ChildProcess.product(executable), ["health", "--url", server.base + "/health"])
                XCTAssertEqual(result.status, 0, "\(executable): \(result.standardError)")
                XCTAssertEqual(result.standardOutput, "forge health: \(server.base)/health answered 200\n")
            }
            // Another path of the same server answers 404: not healthy, and the status is named.
            let missing = try ChildProcess.run(ChildProcess.product("forge"), ["health", "--url", server.base + "/no-such-path"])
            XCTAssertEqual(missing.status, 1)
            XCTAssertTrue(missing.standardError.contains("answered 404, not 200"), missing.standardError)
        }
    }

    func testNoServerIsAFailureThatSaysWhy() async throws {
        // The port of a server that has stopped: nothing listens there, the connection is refused.
        let port = try await ServerHarness.with { $0.port }
        let result = try ChildProcess.run(ChildProcess.product("forge"), ["health", "--url", "http://127.0.0.1:\(port)/health"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.standardError.contains("connect to 127.0.0.1:\(port)"), result.standardError)
    }

    func testABadURLOrTimeoutIsAUsageError() throws {
        for (arguments, phrase) in [(["--url", "https://127.0.0.1/health"], "is not an http:// URL"),
                                    (["--url", "http://127.0.0.1:99999/health"], "is not 1 to 65535"),
                                    (["--timeout", "0"], "give seconds above 0")] {
            let result = try ChildProcess.run(ChildProcess.product("forge-serve"), ["health"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.standardError.contains(phrase), "\(arguments): \(result.standardError)")
        }
    }
}
