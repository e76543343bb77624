import Foundation
import TestSupport
import XCTest

/// `forge mutate`: the tree it writes, its determinism, that `forge check` runs a
/// validator on it, and that it never writes where it does not own the folder.
final class MutateCommandTests: XCTestCase {
    func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-mutate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func files(under directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted() {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    func testWritesAFixtureTreeThatForgeCheckRuns() throws {
        let out = try scratchDirectory().appendingPathComponent("mutants")
        let run = try ForgeProcess.run(["mutate", "--case", "valid", "--count", "8", "--seed", "4", "--out", out.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("8 mutants of valid"), run.standardError)
        let written = try files(under: out)
        for index in 1...8 {
            let id = String(format: "valid-mutant-%03d", index)
            for name in ["receipt", "receipt.b64", "case.json", "mutation.json"] {
                XCTAssertNotNil(written["\(id)/\(name)"], "\(id)/\(name)")
            }
        }
        XCTAssertNotNil(written["manifest.json"])
        XCTAssertNotNil(written["Certs/root.cer"])
        XCTAssertNotNil(written[".forge-owned"])

        // Same seed, same bytes.
        let again = try scratchDirectory().appendingPathComponent("mutants")
        XCTAssertEqual(try ForgeProcess.run(["mutate", "--case", "valid", "--count", "8", "--seed", "4", "--out", again.path,
                                             "--quiet"]).status, 0)
        XCTAssertEqual(try files(under: again), written)

        // forge check reads the tree; the project's own verifier agrees with every
        // expected verdict (which is its own), so the run passes.
        var environment = ProcessInfo.processInfo.environment
        environment["FORGE"] = ChildProcess.product("forge").path
        let check = try ChildProcess.run(ChildProcess.product("forge"),
                                         ["check", "--fixtures", out.path, "--quiet", "--strict-reasons", "--",
                                          ChildProcess.packageRoot.appendingPathComponent("Harnesses/forge-verify.sh").path],
                                         environment: environment)
        XCTAssertEqual(check.status, 0, check.standardOutput + check.standardError)
        XCTAssertTrue(check.standardError.contains("8 cases"), check.standardError)
    }

    func testRefusesAFolderItDidNotWriteAndBadArguments() throws {
        let directory = try scratchDirectory()
        let notes = directory.appendingPathComponent("NOTES.md")
        try Data("mine".utf8).write(to: notes)
        let refused = try ForgeProcess.run(["mutate", "--case", "valid", "--count", "2", "--out", directory.path])
        XCTAssertEqual(refused.status, 73, refused.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["NOTES.md"])
        XCTAssertEqual(try Data(contentsOf: notes), Data("mine".utf8))

        XCTAssertEqual(try ForgeProcess.run(["mutate", "--count", "2"]).status, 64, "no source")
        XCTAssertEqual(try ForgeProcess.run(["mutate", "--case", "valid", notes.path, "--count", "2"]).status, 64, "two sources")
        XCTAssertEqual(try ForgeProcess.run(["mutate", "--case", "nope", "--count", "2"]).status, 64)
        XCTAssertEqual(try ForgeProcess.run(["mutate", "--case", "valid", "--count", "0"]).status, 64)
        let notAReceipt = try ForgeProcess.run(["mutate", notes.path, "--count", "2", "--out", directory.appendingPathComponent("m").path])
        XCTAssertEqual(notAReceipt.status, 65, notAReceipt.standardError)
        XCTAssertTrue(notAReceipt.standardError.contains("NOTES.md"), notAReceipt.standardError)
    }
}
