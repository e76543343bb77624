import Foundation

/// A package that depends on this one by path, the way a user's package depends on it
/// by URL, written into a temporary directory and removed with this value. Every
/// consumer builds in one scratch folder of the repository's, kept between runs (like
/// `.build`), so this package's dependencies are compiled once for all of them.
public final class ConsumerPackage {
    /// The consumer's root folder (Package.swift, Sources/, Tests/).
    public let directory: URL

    /// The shared scratch folder (`--scratch-path`).
    public static let scratch = ChildProcess.packageRoot.appendingPathComponent(".build-consumer")

    /// How the consumer names this package in `.product(name:package:)`: SwiftPM's
    /// identity of a path dependency is its folder name.
    public static let dependencyName = ChildProcess.packageRoot.lastPathComponent

    /// A first build compiles every dependency of the products used: far beyond a
    /// warm build, on a loaded machine.
    public static let buildDeadline: Duration = .seconds(3600)

    /// Writes `Package.swift` (tools 6.0, macOS 13, this package as its one dependency,
    /// then `targets`, the Swift source of the targets array's elements) and `files`
    /// (paths relative to the package).
    public init(name: String, targets: String, files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "\(name)",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: "\(ChildProcess.packageRoot.path)")],
                targets: [
            \(targets)
                ]
            )

            """
        for (path, contents) in files.merging(["Package.swift": manifest], uniquingKeysWith: { file, _ in file }) {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
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
