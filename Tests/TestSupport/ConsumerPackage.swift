import Foundation

/// The package that depends on this one by path, the way a user's package depends on it
/// by URL: README's `## Use from Swift` example as the executable target `Example`, and a
/// test target `FixtureTests` that reads what `swift package forge` minted into it.
/// ReadmeExampleTests and ForgePluginTests both use it, so this package and its
/// dependencies are compiled once for both: the consumer always has the same folder
/// (`.build-consumer/package`) and the same manifest, because SwiftPM compiles every
/// module with the root package's folder in its flags (`-file-compilation-dir`), and a
/// consumer in another folder would recompile them all. Its scratch folder
/// (`.build-consumer/build`) is kept between runs, like `.build`.
public final class ConsumerPackage {
    /// The consumer's root folder (Package.swift, Sources/, Tests/).
    public let directory: URL

    /// The folder of the consumer and its build, beside `.build` (git-ignored).
    public static let folder = ChildProcess.packageRoot.appendingPathComponent(".build-consumer")

    /// The shared scratch folder (`--scratch-path`).
    public static let scratch = folder.appendingPathComponent("build")

    /// How the consumer names this package in `.product(name:package:)`: SwiftPM's
    /// identity of a path dependency is its folder name.
    public static let dependencyName = ChildProcess.packageRoot.lastPathComponent

    /// The bundle identifier FixtureTests expects in the minted receipt.
    public static let fixtureBundleIdentifier = "com.example.plugin-consumer"

    /// A first build compiles every dependency of the products used: far beyond a
    /// warm build, on a loaded machine.
    public static let buildDeadline: Duration = .seconds(3600)

    /// The first ```swift block after README's `## Use from Swift` heading.
    public static func readmeExample() throws -> String {
        let readme = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "\n## Use from Swift\n") else {
            throw ConsumerPackageError("README.md has no '## Use from Swift' section")
        }
        let rest = readme[section.upperBound...]
        guard let open = rest.range(of: "```swift\n"), let close = rest[open.upperBound...].range(of: "\n```\n") else {
            throw ConsumerPackageError("README.md's '## Use from Swift' section has no closed ```swift block")
        }
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    /// Writes the consumer afresh (anything a previous run left in its folder, minted
    /// fixtures among it, is removed; the scratch folder is kept).
    public init() throws {
        directory = Self.folder.appendingPathComponent("package")
        try? FileManager.default.removeItem(at: directory)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "consumer",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: "\(ChildProcess.packageRoot.path)")],
                targets: [
                    .executableTarget(name: "Example", dependencies: [
                        .product(name: "ReceiptForge", package: "\(Self.dependencyName)"),
                        .product(name: "ReceiptVerifier", package: "\(Self.dependencyName)"),
                    ]),
                    .testTarget(name: "FixtureTests"),
                ]
            )

            """
        let fixtureTest = """
            import Foundation
            import XCTest

            final class FixtureTests: XCTestCase {
                func testTheMintedReceiptIsForThisApp() throws {
                    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("Fixtures")
                    let receipt = try Data(contentsOf: fixtures.appendingPathComponent("valid/receipt"))
                    XCTAssertEqual(receipt.first, 0x30)  // a DER SEQUENCE: the PKCS#7 ContentInfo
                    XCTAssertNotNil(receipt.range(of: Data("\(Self.fixtureBundleIdentifier)".utf8)))
                }
            }

            """
        let files = ["Package.swift": manifest,
                     "Sources/Example/main.swift": try Self.readmeExample(),
                     "Tests/FixtureTests/FixtureTests.swift": fixtureTest]
        for (path, contents) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// `swift SUBCOMMAND --scratch-path SCRATCH ARGUMENTS` in the consumer's folder.
    public func swift(_ subcommand: String, _ arguments: [String], deadline: Duration = buildDeadline) throws -> ChildProcess.Output {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                             ["swift", subcommand, "--scratch-path", Self.scratch.path] + arguments,
                             workingDirectory: directory, deadline: deadline)
    }

    /// The built product `name` (debug).
    public func product(_ name: String) -> URL {
        Self.scratch.appendingPathComponent("debug").appendingPathComponent(name)
    }
}

/// The consumer could not be written: what is missing, and where.
public struct ConsumerPackageError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
