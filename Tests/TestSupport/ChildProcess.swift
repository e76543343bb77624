import Foundation

/// Runs a program the way a user or another project's CI does: one of this package's
/// built products (`forge`, `fuzz-ber`, …) or a script of the repository.
public enum ChildProcess {
    public struct Output: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// The folder holding the test bundle, which also holds the package's executables.
    public static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        fatalError("no .xctest bundle found")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    /// The built executable `name` (a product of Package.swift).
    public static func product(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// The package root, from this file's location.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments`; standard output and error go to temporary
    /// files (no pipe to fill up and block the child). `environment` replaces the
    /// inherited one when given.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil, workingDirectory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: input ?? Data())

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        let stdin = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        try stdin.close()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
