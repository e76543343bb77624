import Foundation
import StoreAPIAuthentication
import ReceiptForge
import TestSupport

/// Running a script of Apple's Python client (`app-store-server-library`) against a
/// `ServerHarness`: the forge's test key written where the script can read it, and the
/// script run off the cooperative pool, which the server answers on while it runs.
enum ApplePythonClient {
    /// The forge's test API key of the default seed, written as its `.p8` into a scratch
    /// directory that is removed when `body` returns.
    static func withTestKey<T>(_ body: (_ key: TestAPIKey, _ keyFile: URL, _ scratch: URL) async throws -> T) async throws -> T {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apple-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let key = TestAPIKey(seed: ForgeSettings.defaultSeed)
        let keyFile = scratch.appendingPathComponent(key.fileName)
        try Data(key.p8.utf8).write(to: keyFile)
        return try await body(key, keyFile, scratch)
    }

    /// Runs `python -c script arguments…` with `input` on its standard input.
    static func run(_ script: String, arguments: [String] = [], input: Data? = nil,
                    deadline: Duration) async throws -> ChildProcess.Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script] + arguments),
                                         input: input, deadline: deadline)
                })
            }
        }
    }
}
