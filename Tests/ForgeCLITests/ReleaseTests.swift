import Foundation
import TestSupport
import XCTest

/// The release tarball (scripts/release) and the GitHub Action's script (scripts/action-run),
/// run here as on a runner.
final class ReleaseTests: XCTestCase {
    private static let scripts = ChildProcess.packageRoot.appendingPathComponent("scripts")

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("release-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// scripts/release-check: builds the static release (10-20 minutes from an empty
    /// .build-release on two cores), so only with FORGE_RELEASE_TEST=1, as .ci/run sets.
    func testTheStaticTarballMintsTheDebugBuildsTreesWithoutAToolchain() throws {
        guard ProcessInfo.processInfo.environment["FORGE_RELEASE_TEST"] == "1" else {
            throw XCTSkip("builds a static release: FORGE_RELEASE_TEST=1 runs it (.ci/run does)")
        }
        let check = try ChildProcess.run(Self.scripts.appendingPathComponent("release-check"), [ChildProcess.product("forge").path],
                                         deadline: .seconds(3600))
        XCTAssertEqual(check.status, 0, String((check.standardOutput + check.standardError).suffix(4_000)))
        for line in ["sha256 matches", "forge and forge-serve link no Swift library",
                     "forge --all and forge jws --all identical", "forge serve --help and forge notify --help from the tarball run forge-serve"] {
            XCTAssertTrue(check.standardOutput.contains(line), check.standardOutput)
        }
    }

    /// The action's script from a tarball of this build (packed by scripts/release, as a
    /// release is): the checksum is checked, the app options reach forge, and `--` keeps
    /// them out of what forge check passes to the harness.
    func testTheActionScriptRunsForgeFromATarballWithTheAppOptions() throws {
        let directory = try temporaryDirectory()
        let pack = try ChildProcess.run(Self.scripts.appendingPathComponent("release"),
                                        ["0.0.0-test", "--binaries", ChildProcess.productsDirectory.path,
                                         "--dist", directory.appendingPathComponent("dist").path])
        XCTAssertEqual(pack.status, 0, pack.standardError)
        let tarball = pack.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(tarball.hasSuffix("/receipt-forge-0.0.0-test-linux-x86_64.tar.gz") || !tarball.contains("linux"), tarball)

        var environment = ProcessInfo.processInfo.environment
        environment["FORGE_TARBALL"] = "file://" + tarball
        environment["FORGE_INSTALL"] = directory.appendingPathComponent("install").path
        environment["FORGE_ARGUMENTS"] = "--all\n--out\n\(directory.appendingPathComponent("out").path)"
        environment["FORGE_BUNDLE_ID"] = "com.example.action"
        environment["GITHUB_OUTPUT"] = directory.appendingPathComponent("github-output").path
        let run = try ChildProcess.run(Self.scripts.appendingPathComponent("action-run"), [], environment: environment)
        XCTAssertEqual(run.status, 0, run.standardError)
        let receipt = try Data(contentsOf: directory.appendingPathComponent("out/valid/receipt"))
        XCTAssertNotNil(receipt.range(of: Data("com.example.action".utf8)))
        let output = try String(contentsOf: directory.appendingPathComponent("github-output"), encoding: .utf8)
        XCTAssertTrue(output.hasPrefix("forge=" + directory.appendingPathComponent("install/receipt-forge/").path), output)

        // The options go before `--`: forge check takes them, and hands the harness only its own arguments.
        let harnessSaw = directory.appendingPathComponent("harness-saw")
        environment["FORGE_ARGUMENTS"] = "check\n--case\nvalid\n--\n/bin/sh\n-c\necho \"$*\" >> \(harnessSaw.path)\nsh\n{bundle_id}"
        environment["FORGE_INSTALL"] = directory.appendingPathComponent("install-check").path
        let check = try ChildProcess.run(Self.scripts.appendingPathComponent("action-run"), [], environment: environment,
                                         workingDirectory: directory)
        XCTAssertEqual(try String(contentsOf: harnessSaw, encoding: .utf8), "com.example.action\n", check.standardError)

        // A tarball that does not match its .sha256 is refused before it is unpacked.
        try Data("not the tarball".utf8).write(to: URL(fileURLWithPath: tarball))
        environment["FORGE_INSTALL"] = directory.appendingPathComponent("install-tampered").path
        let tampered = try ChildProcess.run(Self.scripts.appendingPathComponent("action-run"), [], environment: environment)
        XCTAssertEqual(tampered.status, 65)
        XCTAssertTrue(tampered.standardError.contains("does not match its SHA-256"), tampered.standardError)
    }
}
