import Foundation
import TestSupport
import XCTest

/// `scripts/differential --jws` at a small count: the same engine (the `differential`
/// product) over every StoreKit 2 case, each mutant judged by our verifier and by Apple's
/// library (`scripts/storekit2-oracle --jsonl`).
final class JWSDifferentialRunTests: XCTestCase {
    func testSmallRunFindsNoDifference() throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("jws-differential-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try ChildProcess.run(ChildProcess.product("differential"), [
            "--jws", "--count", "760", "--seed", "7", "--out", out.path, "--list-whitelisted",
            "--oracle", ChildProcess.packageRoot.appendingPathComponent("scripts/storekit2-oracle").path,
        ])
        XCTAssertEqual(run.status, 0, run.standardOutput + run.standardError
            + ((try? String(contentsOf: out.appendingPathComponent("differences.txt"), encoding: .utf8)) ?? ""))
        XCTAssertTrue(run.standardOutput.contains("760 mutants"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains(", 0 differences"), run.standardOutput)
        // The mutants reach every status Apple's verifier has for these cases, not only the first checks.
        for status in ["OK / OK", "VERIFICATION_FAILURE / VERIFICATION_FAILURE", "INVALID_CERTIFICATE / INVALID_CERTIFICATE",
                       "INVALID_CHAIN_LENGTH / INVALID_CHAIN_LENGTH", "INVALID_APP_IDENTIFIER / INVALID_APP_IDENTIFIER",
                       "INVALID_ENVIRONMENT / INVALID_ENVIRONMENT"] {
            XCTAssertTrue(run.standardOutput.contains("ours / Apple's: \(status)"), "no mutant got \(status)\n\(run.standardOutput)")
        }
    }
}
