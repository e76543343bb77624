import ForgeServer
import Foundation
import TestSupport
import XCTest

/// `forge serve`'s refusals: each names what is wrong, with the documented exit code.
final class ServeCommandTests: XCTestCase {
    private func forge(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.product("forge"), ["serve"] + arguments)
    }

    func testUsageErrorsExit64() throws {
        for (arguments, message) in [(["--faults", "nope=1"], "'nope' is not a fault"),
                                     (["--faults", "21005=0.9,close=0.2"], "more than 1"),
                                     (["--shared-secret", "not-hex"], "is not hexadecimal"),
                                     (["--port", "70000"], "is not between 0 and 65535"),
                                     (["--api-key", "KEY=key.p8"], "--api-key needs --issuer"),
                                     (["--issuer", "x"], "give at least one"),
                                     (["--api-key", "nofile", "--issuer", "x"], "is not KEYID=FILE"),
                                     (["--api-key", "K=a.p8", "--api-key", "K=b.p8", "--issuer", "x"], "'K' is given twice"),
                                     (["--api-key", "K=a.p8", "--issuer", "x", "--no-auth"], "--no-auth checks no key"),
                                     (["--customers=-1"], "is negative"),
                                     (["--faults", "4999999=0.1"], "'4999999' is not a fault"),
                                     (["--faults", "4290000=0.6,http-503=0.5"], "the faults for the App Store Server API add up to 1.1"),
                                     (["--rate-limits", "google"], "--rate-limits 'google' is not one of: apple"),
                                     (["--time-rate", "fast"], "--time-rate 'fast' is not one of: realTime"),
                                     (["--time-rate", "0"], "oneRenewalEveryTwoSeconds, or a factor above 0"),
                                     (["--time-rate=-5"], "--time-rate '-5' is not one of"),
                                     (["--now", "yesterday"], "is not an RFC 3339 date")] {
            let output = try forge(arguments)
            XCTAssertEqual(output.status, 64, "\(arguments)")
            XCTAssertTrue(output.standardError.contains(message), "\(arguments): \(output.standardError)")
        }
    }

    func testHelpExplainsServerAPIFaultsRateLimitsAndTimeRates() throws {
        let help = try forge(["--help"])
        XCTAssertEqual(help.status, 0)
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in ["--rate-limits", "--time-rate", "4290000 adds Retry-After", "Get Transaction Info: 50 per 1000 ms (sandbox 5 per 1000 ms)",
                       "developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits", "docs/local-app-store.md",
                       "oneSecondIsOneDay", "oneRenewalEveryTwoSeconds", "whatever its token"] {
            XCTAssertTrue(text.contains(phrase), "no '\(phrase)' in forge serve --help")
        }
        // The help is all a release tarball's user has: it names no file of this project's machines.
        XCTAssertFalse(text.contains("../shared"), "forge serve --help points at ../shared")
    }

    func testUnusableRootsAndAddressesAreNamed() async throws {
        let missing = try forge(["--root", "/nonexistent/root.cer"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.standardError.contains("/nonexistent/root.cer"), missing.standardError)

        let notCertificate = FileManager.default.temporaryDirectory.appendingPathComponent("serve-not-a-cert-\(UUID().uuidString)")
        try Data("not a certificate".utf8).write(to: notCertificate)
        defer { try? FileManager.default.removeItem(at: notCertificate) }
        let missingKey = try forge(["--api-key", "K=/nonexistent/SubscriptionKey_K.p8", "--issuer", "x"])
        XCTAssertEqual(missingKey.status, 74)
        XCTAssertTrue(missingKey.standardError.contains("/nonexistent/SubscriptionKey_K.p8"), missingKey.standardError)
        let notKey = try forge(["--api-key", "K=\(notCertificate.path)", "--issuer", "x"])
        XCTAssertEqual(notKey.status, 65)
        XCTAssertTrue(notKey.standardError.contains(notCertificate.path), notKey.standardError)

        let malformed = try forge(["--xcode-root", notCertificate.path])
        XCTAssertEqual(malformed.status, 65)
        XCTAssertTrue(malformed.standardError.contains("--xcode-root \(notCertificate.path) is not a usable certificate"),
                      malformed.standardError)

        try await ServerHarness.with { server in
            let taken = try forge(["--port", String(server.port), "--quiet"])
            XCTAssertEqual(taken.status, 74)
            XCTAssertTrue(taken.standardError.contains("cannot serve on 127.0.0.1:\(server.port)"), taken.standardError)
        }
    }
}
