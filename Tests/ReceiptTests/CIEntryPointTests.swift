import Foundation
import TestSupport
import XCTest

/// `.ci/run` sets `CI=true` itself, so the real-receipt tests fail rather than skip in
/// CI (`RealReceipts.requireDirectory`) even where the runner does not set `CI`.
final class CIEntryPointTests: XCTestCase {
    /// Runs `.ci/run` with no `CI` in its environment and stand-ins for `swift`,
    /// `dpkg` and `pkg-config` first on `PATH`: the stand-in `swift` reports the
    /// environment the real one would have run the tests in. The README's test command
    /// runs first, exactly as written there; scripts/docs's documentation build, the
    /// release test, then scripts/tsan's build and test run follow.
    func testCIRunExportsCIBeforeRunningTheTests() throws {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("ci-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: bin) }
        let stubs = [
            "swift": "#!/bin/sh\necho \"swift $* with CI=${CI-unset}\"\n",
            "dpkg": "#!/bin/sh\nexit 0\n",
            "pkg-config": "#!/bin/sh\nexit 0\n",
        ]
        for (name, script) in stubs {
            let url = bin.appendingPathComponent(name)
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        environment["FORGE_CI_ORACLES"] = "true"  // no virtual environment built inside a test
        environment["PATH"] = bin.path + ":/usr/bin:/bin"

        let run = try ChildProcess.run(ChildProcess.packageRoot.appendingPathComponent(".ci/run"), [],
                                       environment: environment)
        XCTAssertEqual(run.status, 0, run.standardError)
        let filter = "^(LocalAppStoreTests|StoreAPIAuthenticationTests|StoreServerAPITests|StoreControlAPITests|StoreNotificationsTests|NotificationDeliveryTests|ForgeServerTests)\\."
        XCTAssertEqual(run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false), [
            "swift test with CI=true",
            "swift package --allow-writing-to-directory .build/documentation generate-documentation "
                + "--target BER --target Receipt --target ReceiptVerifier --target ReceiptForge --target StoreKit2 "
                + "--target StoreKit2Forge --target StoreKit2Verifier --target LocalAppStore "
                + "--output-path .build/documentation with CI=true",
            "scripts/docs: 8 archives in .build/documentation, no warnings",
            "swift test --skip-build --filter ReleaseTests.testTheStaticTarball with CI=true",
            "swift build --build-tests --sanitize=thread --scratch-path .build-tsan with CI=true",
            "swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter \(filter) with CI=true",
            "",
        ], run.standardError)
    }
}
