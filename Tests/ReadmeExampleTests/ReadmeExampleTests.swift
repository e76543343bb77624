import Foundation
import TestSupport
import XCTest

/// README's `## Use from Swift` example, built as a package that depends on this one
/// (by path: the way a user's package depends on it by URL) and run. The README
/// cannot drift from the API, and the library products must build without
/// `unsafeFlags` (SwiftPM refuses them in dependencies) or a system library.
final class ReadmeExampleTests: XCTestCase {
    static let repository = ChildProcess.packageRoot

    /// The first ```swift block after the `## Use from Swift` heading.
    static func exampleSource() throws -> String {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "\n## Use from Swift\n"), "README has no '## Use from Swift' section")
        let rest = readme[section.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```swift\n"), "no ```swift block in the section")
        let close = try XCTUnwrap(rest[open.upperBound...].range(of: "\n```\n"))
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    func testTheSwiftExampleBuildsAsADependentPackageAndRuns() throws {
        let source = try Self.exampleSource()
        XCTAssertTrue(source.contains("import ReceiptForge") && source.contains("import ReceiptVerifier"))
        let package = try ConsumerPackage(name: "example", targets: """
                    .executableTarget(name: "Example", dependencies: [
                        .product(name: "ReceiptForge", package: "\(ConsumerPackage.dependencyName)"),
                        .product(name: "ReceiptVerifier", package: "\(ConsumerPackage.dependencyName)"),
                    ]),
            """, files: ["Sources/Example/main.swift": source])
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
