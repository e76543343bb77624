import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StrictJSON
import TestSupport
import XCTest

/// `forge check -- COMMAND`: every outcome of the contract, the report files, the
/// exit statuses, and the cleanup of what a validator leaves running.
final class CheckCommandTests: XCTestCase {
    static let repository = ChildProcess.packageRoot

    func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// A shell-script validator in `directory`.
    func harness(_ body: String, in directory: URL, name: String = "harness.sh") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// A fixture tree minted once for these tests.
    static let tree: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-check-tree-\(UUID().uuidString)")
        let run = try! ForgeProcess.run(["--all", "--out", directory.path, "--quiet"])
        precondition(run.status == 0, run.standardError)
        return directory
    }()

    static func expectedVerdicts() throws -> [String: String] {
        let manifest = try JSONValue(contentsOf: tree.appendingPathComponent("manifest.json"))
        var verdicts: [String: String] = [:]
        for entry in try XCTUnwrap(manifest["cases"]?.arrayValue) {
            verdicts[try XCTUnwrap(entry["id"]?.stringValue)] = entry["expected"]?["verdict"]?.stringValue
        }
        return verdicts
    }

    func results(_ url: URL) throws -> [JSONValue] {
        let json = try JSONValue(contentsOf: url)
        XCTAssertEqual(json["version"]?.intValue, 1)
        return try XCTUnwrap(json["results"]?.arrayValue)
    }

    func check(_ arguments: [String], harness: [String]) throws -> ForgeProcess.Output {
        try ForgeProcess.run(["check", "--fixtures", Self.tree.path, "--quiet"] + arguments + ["--"] + harness)
    }

    /// The first "done when": a validator that says `valid` to everything
    /// fails exactly the invalid cases.
    func testAValidatorThatAcceptsEverythingFailsExactlyTheInvalidCases() throws {
        let directory = try scratchDirectory()
        let json = directory.appendingPathComponent("results.json")
        let run = try check(["--json", json.path], harness: [try harness("echo valid", in: directory)])
        XCTAssertEqual(run.status, 1, run.standardError)
        let expected = try Self.expectedVerdicts()
        let rows = try results(json)
        XCTAssertEqual(rows.count, expected.count)
        for row in rows {
            let id = row["id"]!.stringValue!
            XCTAssertEqual(row["outcome"]?.stringValue, expected[id] == "valid" ? "pass" : "fail", id)
            XCTAssertEqual(row["actual"]?["verdict"]?.stringValue, "valid", id)
        }
        let invalid = expected.values.filter { $0 == "invalid" }.count
        XCTAssertTrue(run.standardError.contains("\(invalid) fail"), run.standardError)
    }

    /// The project's own verifier through the contract passes every case.
    func testTheProjectsOwnVerifierPassesEveryCase() throws {
        let directory = try scratchDirectory()
        let junit = directory.appendingPathComponent("junit.xml")
        let html = directory.appendingPathComponent("results.html")
        var environment = ProcessInfo.processInfo.environment
        environment["FORGE"] = ChildProcess.product("forge").path
        let run = try ChildProcess.run(ChildProcess.product("forge"),
                                       ["check", "--fixtures", Self.tree.path, "--junit", junit.path, "--html", html.path, "--",
                                        Self.repository.appendingPathComponent("Harnesses/forge-verify.sh").path],
                                       environment: environment)
        XCTAssertEqual(run.status, 0, run.standardOutput + run.standardError)
        XCTAssertTrue(run.standardError.contains("; OK"), run.standardError)
        XCTAssertFalse(run.standardOutput.contains("reason-differs"), run.standardOutput)
        XCTAssertFalse(run.standardOutput.contains(" fail"), run.standardOutput)

        // The JUnit XML parses and holds one testcase per case, none failing.
        let document = try XMLDocument(contentsOf: junit)
        let cases = try document.nodes(forXPath: "//testcase")
        XCTAssertEqual(cases.count, try Self.expectedVerdicts().count)
        XCTAssertEqual(try document.nodes(forXPath: "//failure").count + (try document.nodes(forXPath: "//error").count), 0)
        XCTAssertEqual(try document.nodes(forXPath: "/testsuites/@tests").first?.stringValue, "\(cases.count)")

        // The HTML page: one self-contained file naming every case.
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"), String(page.prefix(40)))
        XCTAssertFalse(page.contains("<script"), "no script")
        for id in try Self.expectedVerdicts().keys { XCTAssertTrue(page.contains(">\(id)<"), id) }
    }

    /// `forge verify --json` as the harness: its answer carries the decoded receipt (over
    /// 64 KiB for `many-iaps`), and every case still passes with the reason compared.
    func testTheProjectsOwnVerifierPassesEveryCaseAnsweringInJSON() throws {
        let directory = try scratchDirectory()
        let json = directory.appendingPathComponent("results.json")
        let run = try check(["--strict-reasons", "--json", json.path],
                            harness: [ChildProcess.product("forge").path, "verify", "{receipt}", "--root", "{root}",
                                      "--bundle-id", "{bundle_id}", "--app-version", "{app_version}",
                                      "--device-id", "{device_id}", "--now", "{now}", "--json"])
        XCTAssertEqual(run.status, 0, run.standardOutput + run.standardError)
        let expected = try Self.expectedVerdicts()
        let rows = try results(json)
        XCTAssertEqual(Set(rows.compactMap { $0["id"]?.stringValue }), Set(expected.keys))
        for row in rows {
            XCTAssertEqual(row["outcome"]?.stringValue, "pass", "\(row)")
        }
        // The large answer was read, not refused: many-iaps answered with its receipt.
        let manyIAPs = try XCTUnwrap(rows.first { $0["id"]?.stringValue == "many-iaps" })
        XCTAssertEqual(manyIAPs["actual"]?["verdict"]?.stringValue, "valid")
    }

    /// Real `--json` output of every outcome validates against Schemas/check-results.schema.json.
    func testTheResultsFileMatchesItsSchema() throws {
        try PythonOracle.require(module: "jsonschema")
        let directory = try scratchDirectory()
        let script = try harness("""
            case "$FORGE_CASE" in
              valid) echo valid ;; copied-device) echo 'invalid other' ;; missing) exit 2 ;;
              vpp) kill -SEGV $$ ;; sandbox) sleep 5 ;; wrong-bundle) exit 9 ;; *) echo valid ;;
            esac
            """, in: directory)
        let json = directory.appendingPathComponent("results.json")
        _ = try check(["--timeout", "1", "--json", json.path], harness: [script])
        let outcomes = Set(try results(json).compactMap { $0["outcome"]?.stringValue })
        XCTAssertEqual(outcomes, ["pass", "fail", "reason-differs", "skipped", "crash", "hang", "error"])
        let errors = try JSONSchemaOracle.errors(in: [try String(contentsOf: json, encoding: .utf8)],
                                                 schema: JSONSchemaOracle.schemaURL("check-results"))
        XCTAssertEqual(errors, [[]])
    }

    func testEveryOutcome() throws {
        let directory = try scratchDirectory()
        let table: [(String, String, String)] = [
            // (harness body, outcome of `valid`, detail that must appear)
            ("echo valid", "pass", ""),
            ("echo '{\"verdict\": \"valid\"}'", "pass", ""),
            ("exit 0", "pass", ""),
            ("exit 1", "fail", ""),
            ("echo invalid", "fail", ""),
            ("exit 2", "skipped", ""),
            ("kill -SEGV $$", "crash", "SIGSEGV"),
            ("exit 3", "error", "exit status 3"),
            ("echo maybe", "error", "unrecognised answer"),
            ("printf 'valid\\000\\001'", "error", "binary output"),
            ("head -c 100000 /dev/zero | tr '\\0' 'v'", "error", "100000 bytes of output"),
            ("echo '{\"verdict\": \"perhaps\"}'", "error", "must be \"valid\" or \"invalid\""),
        ]
        for (body, outcome, detail) in table {
            let json = directory.appendingPathComponent("results.json")
            let run = try check(["--case", "valid", "--json", json.path], harness: [try harness(body, in: directory)])
            let row = try XCTUnwrap(try results(json).first, body)
            XCTAssertEqual(row["outcome"]?.stringValue, outcome, "\(body): \(row)")
            if !detail.isEmpty { XCTAssertTrue((row["detail"]?.stringValue ?? "").contains(detail), "\(body): \(row)") }
            XCTAssertEqual(run.status, ["pass", "skipped"].contains(outcome) ? 0 : 1, "\(body): \(run.standardError)")
        }
    }

    func testReasonsDifferUnlessStrict() throws {
        let directory = try scratchDirectory()
        let script = try harness("echo 'invalid (some-other-reason): detail'", in: directory)
        let json = directory.appendingPathComponent("results.json")
        let lenient = try check(["--case", "copied-device", "--json", json.path], harness: [script])
        XCTAssertEqual(lenient.status, 0, lenient.standardError)
        let row = try XCTUnwrap(try results(json).first)
        XCTAssertEqual(row["outcome"]?.stringValue, "reason-differs")
        XCTAssertEqual(row["actual"]?["reason"]?.stringValue, "some-other-reason")
        XCTAssertEqual(try check(["--case", "copied-device", "--strict-reasons"], harness: [script]).status, 1)
        let right = try harness("echo 'invalid device-hash-mismatch'", in: directory, name: "right.sh")
        XCTAssertEqual(try check(["--case", "copied-device", "--strict-reasons"], harness: [right]).status, 0)
    }

    /// A hang is killed with its whole process group, and so is what a validator
    /// leaves running after it exits.
    func testHangsAndLeftoversAreKilled() throws {
        let directory = try scratchDirectory()
        let pids = directory.appendingPathComponent("pids")
        let hang = try harness("sleep 30 & echo $! >> \(pids.path); sleep 30", in: directory)
        let json = directory.appendingPathComponent("results.json")
        let started = Date()
        let run = try check(["--case", "valid", "--timeout", "0.5", "--json", json.path], harness: [hang])
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the hang was cut at the timeout")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(try results(json).first?["outcome"]?.stringValue, "hang")

        let leaver = try harness("sleep 30 & echo $! >> \(pids.path); echo valid", in: directory, name: "leaver.sh")
        XCTAssertEqual(try check(["--case", "valid"], harness: [leaver]).status, 0)
        let children = try String(contentsOf: pids, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertEqual(children.count, 2)
        for pid in children {
            XCTAssertFalse(Self.isRunning(pid), "child \(pid) of the validator still runs")
        }
    }

    /// SIGTERM (a CI runner giving up) stops the check at once: the validators' own
    /// process groups, which the signal does not reach, are killed, and the tree the
    /// check minted is removed.
    func testSIGTERMStopsTheValidatorsAndRemovesTheMintedTree() throws {
        let directory = try scratchDirectory()
        let log = directory.appendingPathComponent("log")
        let script = try harness("echo \"$$ $FORGE_RECEIPT\" >> \(log.path); sleep 30", in: directory)
        let check = try ChildProcess.start(ChildProcess.product("forge"), ["check", "--case", "valid", "--quiet", "--", script])
        let started = Date()
        while (try? String(contentsOf: log, encoding: .utf8))?.contains("\n") != true {
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the validator never started")
            guard Date().timeIntervalSince(started) < 20 else { return }  // `check` is killed when it goes
            usleep(20_000)  // the validator writes the log: look again shortly
        }
        check.send(SIGTERM)
        let exit = try check.waitForExit(within: .seconds(60))
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "stopped long before the validator's 30 s")
        XCTAssertEqual(exit.status, 128 + SIGTERM)
        let fields = try String(contentsOf: log, encoding: .utf8).split(separator: " ")
        let pid = try XCTUnwrap(Int32(fields[0]))
        XCTAssertFalse(Self.isRunning(pid), "the validator \(pid) still runs")
        let tree = URL(fileURLWithPath: String(fields[1]).trimmingCharacters(in: .newlines))
            .deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertFalse(FileManager.default.fileExists(atPath: tree.path), "the minted tree \(tree.path) is removed")
    }

    /// Running and not a zombie (a killed orphan waits for init to reap it), within a second.
    static func isRunning(_ pid: Int32) -> Bool {
        for _ in 0..<100 {
            guard kill(pid, 0) == 0 else { return false }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return false }
            usleep(10_000)
        }
        return true
    }

    func testEnvironmentAndPlaceholders() throws {
        let directory = try scratchDirectory()
        let log = directory.appendingPathComponent("log")
        let script = try harness("""
            echo "$FORGE_CASE|$FORGE_BUNDLE_ID|$FORGE_APP_VERSION|$FORGE_DEVICE_ID|$FORGE_DEVICE_ID_TEXT|$FORGE_PLATFORM|$FORGE_NOW|$FORGE_CREATION_DATE|$1|$2" >> \(log.path)
            test -f "$FORGE_RECEIPT" && test -f "$FORGE_RECEIPT_B64" && test -f "$FORGE_ROOT" && test -f "$FORGE_ROOT_PEM" && test -f "$FORGE_CASE_JSON" || { echo invalid missing; exit 1; }
            echo valid
            """, in: directory)
        let run = try check(["--case", "valid", "--case", "missing"], harness: [script, "{receipt}", "{bundle_id}-{case}"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init).sorted()
        XCTAssertEqual(lines.count, 2)
        let caseJSON = try JSONValue(contentsOf: Self.tree.appendingPathComponent("valid/case.json"))
        let device = try XCTUnwrap(caseJSON["device"])
        let validation = try XCTUnwrap(caseJSON["validation"])
        let valid = try XCTUnwrap(lines.first { $0.hasPrefix("valid|") }).split(separator: "|", omittingEmptySubsequences: false)
        XCTAssertEqual(valid[1], "com.example.receiptforge")
        XCTAssertEqual(valid[2], "42")
        XCTAssertEqual(String(valid[3]), device["hex"]?.stringValue)
        XCTAssertEqual(String(valid[4]), device["uuid"]?.stringValue)
        XCTAssertEqual(valid[5], "ios")
        XCTAssertEqual(String(valid[6]), validation["now"]?.stringValue)
        XCTAssertEqual(String(valid[7]), validation["creationDate"]?.stringValue)
        XCTAssertEqual(String(valid[8]), Self.tree.appendingPathComponent("valid/receipt").path)
        XCTAssertEqual(valid[9], "com.example.receiptforge-valid")
        XCTAssertTrue(lines.contains { $0.hasPrefix("missing|") }, "\(lines)")
    }

    func testKnownFailuresAndExitStatuses() throws {
        let directory = try scratchDirectory()
        let script = try harness("echo valid", in: directory)
        let known = directory.appendingPathComponent("known")
        try Data("# accepted\ncopied-device  we check devices elsewhere\n".utf8).write(to: known)
        let accepted = try check(["--case", "copied-device", "--case", "valid", "--known-failures", known.path], harness: [script])
        XCTAssertEqual(accepted.status, 0, accepted.standardError)
        XCTAssertTrue(accepted.standardError.contains("(1 known)"), accepted.standardError)

        try Data("no-such-case  typo\n".utf8).write(to: known)
        let typo = try check(["--known-failures", known.path], harness: [script])
        XCTAssertEqual(typo.status, 65, typo.standardError)
        XCTAssertTrue(typo.standardError.contains("known:1: 'no-such-case' is not a case"), typo.standardError)
        try Data("copied-device\n".utf8).write(to: known)
        XCTAssertEqual(try check(["--known-failures", known.path], harness: [script]).status, 65, "a reason is required")

        let missing = try check([], harness: [directory.appendingPathComponent("no-such-validator").path])
        XCTAssertEqual(missing.status, 127, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("cannot start"), missing.standardError)
        XCTAssertEqual(try ForgeProcess.run(["check"]).status, 64, "no command")
        XCTAssertEqual(try check([], harness: [script, "{recipt}"]).status, 64, "unknown placeholder")
        XCTAssertEqual(try check(["--case", "nope"], harness: [script]).status, 64)
        XCTAssertEqual(try check(["--tag", "nope"], harness: [script]).status, 64)
        let folder = try check(["--json", directory.path], harness: [script])
        XCTAssertEqual(folder.status, 73, "an output path that is a directory, refused before running")
    }

    func testTagsSelectCases() throws {
        let directory = try scratchDirectory()
        let json = directory.appendingPathComponent("results.json")
        let run = try check(["--tag", "vpp", "--json", json.path], harness: [try harness("echo valid", in: directory)])
        let rows = try results(json)
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { ($0["tags"]?.strings)?.contains("vpp") == true }, "\(rows)")
        XCTAssertEqual(Set(rows.map { $0["id"]!.stringValue! }), ["vpp", "vpp-expired"])
        XCTAssertEqual(run.status, 1)
        let excluded = try check(["--exclude-tag", "vpp", "--json", json.path], harness: [try harness("echo valid", in: directory)])
        XCTAssertEqual(excluded.status, 1)
        XCTAssertFalse(try results(json).contains { ($0["tags"]?.strings)?.contains("vpp") == true })
    }

    /// Without --fixtures the catalogue is minted into a temporary folder (with the
    /// app options), and that folder is gone afterwards.
    func testMintsWhenNoFixturesAreGiven() throws {
        let directory = try scratchDirectory()
        let log = directory.appendingPathComponent("log")
        let script = try harness("echo \"$FORGE_BUNDLE_ID $FORGE_RECEIPT\" >> \(log.path); echo valid", in: directory)
        let run = try ForgeProcess.run(["check", "--case", "valid", "--bundle-id", "com.acme.shop", "--quiet", "--", script])
        XCTAssertEqual(run.status, 0, run.standardError)
        let line = try String(contentsOf: log, encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertTrue(line.hasPrefix("com.acme.shop /"), line)
        let receipt = String(line.split(separator: " ")[1])
        XCTAssertFalse(FileManager.default.fileExists(atPath: receipt), "the temporary tree is removed")
        XCTAssertEqual(try ForgeProcess.run(["check", "--fixtures", Self.tree.path, "--bundle-id", "x", "--", script]).status, 64)
    }
}
