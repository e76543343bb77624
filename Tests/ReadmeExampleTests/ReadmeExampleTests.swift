import Foundation
import TestSupport
import XCTest

/// README's `## Use from Swift` example, built as a package that depends on this one
/// (by path: the way a user's package depends on it by URL) and run. The README
/// cannot drift from the API, and the library products must build without
/// `unsafeFlags` (SwiftPM refuses them in dependencies) or a system library.
final class ReadmeExampleTests: XCTestCase {
    func testTheSwiftExampleBuildsAsADependentPackageAndRuns() throws {
        let source = try ConsumerPackage.readmeExample()
        XCTAssertTrue(source.contains("import ReceiptForge") && source.contains("import ReceiptVerifier"))
        let package = try ConsumerPackage()
        let build = try package.swift("build", ["--product", "Example"])
        XCTAssertEqual(build.status, 0,
                       "the README example does not build:\n\((build.standardOutput + build.standardError).suffix(4_000))")
        guard build.status == 0 else { return }
        let example = try ChildProcess.run(package.product("Example"), [], workingDirectory: package.directory)
        XCTAssertEqual(example.status, 0, example.standardError)
        XCTAssertEqual(example.standardError, "")
        XCTAssertEqual(example.standardOutput, "copied-device: device-hash-mismatch, expected device-hash-mismatch\n")
    }
}
