import Foundation
import TestSupport
import XCTest

/// The command plugin from a package that depends on this one: `swift package forge …`
/// is refused without SwiftPM's write permission, writes only under `--out` with it, and
/// the consumer's own test reads what it minted. Slow the first time: the plugin builds
/// the `forge` product in the consumer's scratch folder (shared with ReadmeExampleTests).
final class ForgePluginTests: XCTestCase {
    func testTheForgeVerbMintsFixturesOnlyWithPermissionAndOnlyWhereAsked() throws {
        let package = try ConsumerPackage()
        let mint = ["forge", "--all", "--out", "Tests/Fixtures", "--bundle-id", ConsumerPackage.fixtureBundleIdentifier]

        let refused = try package.swift("package", mint)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue((refused.standardOutput + refused.standardError).contains("--allow-writing-to-package-directory"),
                      refused.standardOutput + refused.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: package.directory.appendingPathComponent("Tests/Fixtures").path))

        let before = try files(in: package.directory)
        let minted = try package.swift("package", ["--allow-writing-to-package-directory"] + mint)
        XCTAssertEqual(minted.status, 0, String((minted.standardOutput + minted.standardError).suffix(4_000)))
        let written = try files(in: package.directory).subtracting(before)
        XCTAssertTrue(written.contains("Tests/Fixtures/valid/receipt"), "\(written.sorted())")
        XCTAssertEqual(written.filter { !$0.hasPrefix("Tests/Fixtures/") }, [], "the plugin wrote outside --out")

        // A server command cannot build forge-serve under the plugin (SwiftPM holds the build
        // folder): it says what to run instead, at once, rather than waiting on the lock. (A
        // forge-serve built earlier, `swift run forge-serve`, would be run: it is removed from
        // this test's scratch folder first.)
        try? FileManager.default.removeItem(at: package.product("forge-serve"))
        let serve = try package.swift("package", ["--allow-writing-to-package-directory", "forge", "serve", "--port", "0"],
                                      deadline: .seconds(300))
        let said = serve.standardOutput + serve.standardError
        XCTAssertNotEqual(serve.status, 0, said)
        for phrase in ["forge serve: the commands that need HTTP live in the executable forge-serve",
                       "`swift run forge-serve serve …`", "exited with status 69"] {
            XCTAssertTrue(said.contains(phrase), "\(phrase) not in: \(said)")
        }

        let test = try package.swift("test", [])
        XCTAssertEqual(test.status, 0, String((test.standardOutput + test.standardError).suffix(4_000)))
        XCTAssertTrue((test.standardOutput + test.standardError).contains("Executed 1 test, with 0 failures"),
                      test.standardOutput + test.standardError)
    }

    /// Every file under `directory`, relative to it.
    private func files(in directory: URL) throws -> Set<String> {
        let root = directory.resolvingSymlinksInPath().path + "/"
        var paths: Set<String> = []
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            paths.insert(String(url.resolvingSymlinksInPath().path.dropFirst(root.count)))
        }
        return paths
    }
}
