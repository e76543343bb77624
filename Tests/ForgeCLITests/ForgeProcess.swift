import Foundation
import TestSupport
import XCTest

/// Runs the built `forge` executable the way a user or another project's CI does.
struct ForgeProcess {
    typealias Output = ChildProcess.Output

    /// Runs the built `forge` with `arguments`.
    static func run(_ arguments: [String], input: Data? = nil, workingDirectory: URL? = nil) throws -> Output {
        try ChildProcess.run(ChildProcess.product("forge"), arguments, input: input, workingDirectory: workingDirectory)
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
