import Foundation
import TestSupport
import XCTest

/// A small bounded `scripts/schemathesis` run against the built `forge serve`: generated
/// requests for every operation of Schemas/forge-serve.openapi.json find no 5xx and no
/// answer outside the document. Fails (not skips) when `CI` is set and the oracle venv
/// lacks schemathesis.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class SchemathesisTests: XCTestCase {
    func testABoundedRunFindsNothing() throws {
        try PythonOracle.require(module: "schemathesis")
        let script = ChildProcess.packageRoot.appendingPathComponent("scripts/schemathesis")
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [
            script.path, "--forge", ChildProcess.product("forge").path,
            "--max-examples", "3", "--max-time", "60", "--seed", "1", "--", "--phases", "examples,fuzzing",
        ], deadline: .seconds(150))
        XCTAssertEqual(run.status, 0, "scripts/schemathesis found something:\n\(run.standardOutput.suffix(6_000))\n\(run.standardError.suffix(3_000))")
        // It really sent requests: the server logged them.
        let logged = run.standardOutput.split(separator: "\n").last { $0.contains("requests logged") }
        let count = logged.flatMap { line in line.split(separator: " ").firstIndex(of: "requests").map { line.split(separator: " ")[$0 - 1] } }
        XCTAssertGreaterThan(count.flatMap { Int($0) } ?? 0, 100, "too few requests: \(logged ?? "no summary")")
    }
}
