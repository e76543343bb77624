import Foundation
import TestSupport
import XCTest

/// `.ci/run` sets `CI=true` itself, so the real-receipt tests fail rather than skip in
/// CI (`RealReceipts.requireDirectory`) even where the runner does not set `CI`; it
/// times every step, and builds ThreadSanitizer's and the release's trees in the
/// background before the steps that need them.
final class CIEntryPointTests: XCTestCase {
    private struct StubRun {
        let output: ChildProcess.Output
        /// Every `swift` command the stubs saw, foreground and background, in order.
        let calls: [String]
    }

    /// Runs `.ci/run` with no `CI` in its environment and stand-ins for `swift`, `dpkg`,
    /// `pkg-config`, `podman`, `chromium` and `chromedriver` first on `PATH`: the stand-in `swift` reports the environment the
    /// real one would have run in, records each call, and fails for `swift ARGUMENTS`
    /// equal to `failing`.
    private func runCI(failing: String? = nil) throws -> StubRun {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("ci-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: bin) }
        let calls = bin.appendingPathComponent("calls")
        let fail = failing.map { "[ \"$*\" = '\($0)' ] && exit 3\n" } ?? ""
        let stubs = [
            "swift": "#!/bin/sh\necho \"swift $*\" >> '\(calls.path)'\necho \"swift $* with CI=${CI-unset}\"\n\(fail)exit 0\n",
            "dpkg": "#!/bin/sh\nexit 0\n",
            "pkg-config": "#!/bin/sh\nexit 0\n",
            "podman": "#!/bin/sh\nexit 0\n",
            "chromium": "#!/bin/sh\nexit 0\n",
            "chromedriver": "#!/bin/sh\nexit 0\n",
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
        let recorded = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
        return StubRun(output: run, calls: recorded.split(separator: "\n").map(String.init))
    }

    /// The output with every step's seconds replaced by N.
    private func normalized(_ output: String) -> [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: #" [0-9]+ s\b"#, with: " N s", options: .regularExpression)
        }
    }

    static let tsanFilter = "^(LocalAppStoreTests|StoreAPIAuthenticationTests|StoreServerAPITests|StoreControlAPITests|StoreNotificationsTests|NotificationDeliveryTests|ForgeServerTests)\\."
    static let tsanBuild = "swift build --build-tests --sanitize=thread --scratch-path .build-tsan"
    static let tsanTest = "swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter \(tsanFilter)"
    static let releaseBuilds = ["swift build -c release --static-swift-stdlib --scratch-path .build-release --product forge",
                                "swift build -c release --static-swift-stdlib --scratch-path .build-release --product forge-serve"]
    static let releaseTest = "swift test --skip-build --filter ReleaseTests.testTheStaticTarball|ImageTests"

    /// The README's test command runs exactly as written there, after the build on its
    /// own; then scripts/docs, scripts/tsan and the release test; every step timed, and
    /// all of them again with the total at the end.
    func testCIRunExportsCIBeforeRunningTheTestsAndTimesEveryStep() throws {
        let run = try runCI()
        XCTAssertEqual(run.output.status, 0, run.output.standardError)
        let steps = ["install", "python oracles", "resolve", "build", "swift test", "docs",
                     "tsan build (waited)", "tsan", "release build (waited)", "release check"]
        XCTAssertEqual(normalized(run.output.standardOutput), [
            "ci: install N s",
            "ci: python oracles N s",
            "swift package resolve with CI=true",
            "ci: resolve N s",
            "swift build --build-tests --explicit-target-dependency-import-check error with CI=true",
            "ci: build N s",
            "swift test with CI=true",
            "ci: swift test N s",
            "swift package --allow-writing-to-directory .build/documentation generate-documentation "
                + "--target BER --target Receipt --target ReceiptVerifier --target ReceiptForge --target StoreKit2 "
                + "--target StoreKit2Forge --target StoreKit2Verifier --target LocalAppStore "
                + "--output-path .build/documentation with CI=true",
            "scripts/docs: 8 archives in .build/documentation, no warnings",
            "ci: docs N s",
            "ci: tsan build (waited) N s",
            "\(Self.tsanBuild) with CI=true",
            "\(Self.tsanTest) with CI=true",
            "ci: tsan N s",
            "ci: release build (waited) N s",
            "\(Self.releaseTest) with CI=true",
            "ci: release check N s",
            "ci: steps",
        ] + steps.map { "ci:   \($0) N s" } + ["ci: total N s", ""], run.output.standardError)

        // The background builds ran, each before the step that needs it.
        let calls = run.calls
        let tsanBuilds = calls.indices.filter { calls[$0] == Self.tsanBuild }
        XCTAssertEqual(tsanBuilds.count, 2, "\(calls)")  // the background's, then scripts/tsan's (nothing left to build)
        let tsanTest = try XCTUnwrap(calls.firstIndex(of: Self.tsanTest), "\(calls)")
        XCTAssertLessThan(try XCTUnwrap(tsanBuilds.first), tsanTest, "\(calls)")
        let releaseTest = try XCTUnwrap(calls.firstIndex(of: Self.releaseTest), "\(calls)")
        for build in Self.releaseBuilds {
            let index = try XCTUnwrap(calls.firstIndex(of: build), "\(build) not in \(calls)")
            XCTAssertLessThan(index, releaseTest, "\(calls)")
        }
        XCTAssertEqual(calls.first, "swift package resolve", "the background builds started before the packages were resolved")
    }

    /// A failing step ends the run with its status, its line marked failed, and the steps so far.
    func testAFailingStepEndsTheRunWithItsStatusAndTheStepsSoFar() throws {
        let run = try runCI(failing: "test")
        XCTAssertEqual(run.output.status, 3, run.output.standardError)
        let lines = normalized(run.output.standardOutput)
        XCTAssertTrue(lines.contains("ci: swift test N s (failed: exit 3)"), "\(lines)")
        XCTAssertEqual(Array(lines.suffix(8)), [
            "ci: steps", "ci:   install N s", "ci:   python oracles N s", "ci:   resolve N s", "ci:   build N s",
            "ci:   swift test N s (failed: exit 3)", "ci: total N s", "",
        ])
        XCTAssertFalse(run.calls.contains { $0.hasPrefix("swift package --allow-writing-to-directory") }, "docs ran after a failure")
    }

    /// `producer | grep -q …` (or `| head`) under `set -o pipefail` fails with 141 whenever
    /// the reader exits first and the producer is still writing (SIGPIPE): scripts/release-check
    /// failed that way on about every other run. No script CI or the tests run may do it.
    func testNoScriptPipesIntoAReaderThatExitsEarly() throws {
        let root = ChildProcess.packageRoot
        let scripts = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scripts").path)
            .map { "scripts/\($0)" } + [".ci/run", ".clusterfuzzlite/build.sh", "action.yml"]
        let early = try NSRegularExpression(pattern: #"\|\s*(grep\s+(-[a-zA-Z]*[qlm]|--quiet|--max-count)|head\b)"#)
        var offenders: [String] = []
        for path in scripts {
            guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                let line = String(line)
                if early.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    offenders.append("\(path):\(number + 1): \(line)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "capture the output first, then match it (see scripts/release-check)")
    }
}
