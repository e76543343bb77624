import Foundation
import XCTest

/// The Python that runs the oracles: `.venv-oracles/bin/python3` (made by
/// `scripts/python-oracles`, which `.ci/run` runs) when it exists, else `python3` on
/// `PATH`. `require(module:)` skips a test when the module is missing, and fails it
/// when `CI` is set: a CI run must not pass by checking nothing.
public enum PythonOracle {
    public static var executable: URL {
        let venv = ChildProcess.packageRoot.appendingPathComponent(".venv-oracles/bin/python3")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        return URL(fileURLWithPath: "/usr/bin/env")
    }

    /// The arguments that run `python3` with `arguments` through `executable`.
    public static func arguments(_ arguments: [String]) -> [String] {
        executable.path == "/usr/bin/env" ? ["python3"] + arguments : arguments
    }

    public static func require(module: String) throws {
        if let run = try? ChildProcess.run(executable, Self.arguments(["-c", "import \(module)"]), deadline: .seconds(120)),
           run.status == 0 {
            return
        }
        let message = "python3 with the \(module) package is not available (run scripts/python-oracles)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail(message + "; CI is set, so this is a failure")
            throw XCTSkip(message)
        }
        throw XCTSkip(message)
    }
}
