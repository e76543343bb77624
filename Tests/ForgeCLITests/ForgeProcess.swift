import Foundation
import XCTest

/// Runs the built `forge` executable the way a user or another project's CI does.
struct ForgeProcess {
    struct Output {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The folder holding the test bundle, which also holds the `forge` product.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        fatalError("no .xctest bundle found")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    /// Runs `forge` with `arguments`; standard output and error go to temporary
    /// files (no pipe to fill up and block the child).
    static func run(_ arguments: [String], input: Data? = nil, workingDirectory: URL? = nil) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("forge-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        FileManager.default.createFile(atPath: inURL.path, contents: input ?? Data())

        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("forge")
        process.arguments = arguments
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

    /// A temporary file holding `bytes`, removed when the test ends.
    static func temporaryFile(_ bytes: [UInt8], in testCase: XCTestCase, name: String = "input") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}
