import Foundation
import Receipt
import ReceiptForge
import StrictJSON
import TestSupport
import XCTest
import CheckReport

/// `Schemas/check-results.schema.json` against the `CheckResults` the code encodes (the
/// file `forge check --json` writes): a value with every outcome passes Python's
/// `jsonschema`, documents that break the format do not, and the schema lists exactly
/// the fields and values of the code.
final class CheckResultsSchemaTests: XCTestCase {
    /// One result per outcome, each on a real case with its real tags and importance.
    private func everyOutcome() throws -> CheckResults {
        let results = CheckOutcome.allCases.enumerated().map { index, outcome -> CheckResult in
            let forgeCase = ForgeCase.catalogue[(index * 5) % ForgeCase.catalogue.count]
            let expected = CheckResult.Verdict(verdict: forgeCase.expected.verdict, reason: forgeCase.expected.rawValue)
            let other: VerdictKind = forgeCase.expected == .valid ? .invalid : .valid
            let actual: CheckResult.Verdict?
            switch outcome {
            case .pass: actual = CheckResult.Verdict(verdict: expected.verdict, reason: nil)
            case .reasonDiffers: actual = CheckResult.Verdict(verdict: expected.verdict, reason: "BAD_SIGNATURE \"quoted\"")
            case .fail: actual = CheckResult.Verdict(verdict: other, reason: other == .valid ? "valid" : "malformed")
            case .skipped, .crash, .hang, .error: actual = nil
            }
            let detail: String? = switch outcome {
            case .crash: "killed by signal 11 (SIGSEGV)"
            case .hang: "still running after 10 s: process group killed"
            case .error: "exit status 3; stdout: \"what?\""
            default: nil
            }
            return CheckResult(id: forgeCase.id, tags: forgeCase.tags.map(\.rawValue),
                               importance: forgeCase.importance.rawValue, expected: expected, actual: actual,
                               outcome: outcome, knownFailure: outcome == .fail ? "our parser refuses this, issue 7" : nil,
                               seconds: Double(index) * 0.125, detail: detail,
                               stderrTail: outcome == .crash ? "Fatal error: Index out of range\n" : "")
        }
        XCTAssertEqual(Set(results.map(\.outcome)), Set(CheckOutcome.allCases))
        return CheckResults(harness: "./validator --root {root}", startedAt: "2026-06-01T12:00:00Z", results: results)
    }

    private var schemaURL: URL { JSONSchemaOracle.schemaURL("check-results") }

    func testEncodedResultsWithEveryOutcomeMatchTheSchema() throws {
        let json = String(decoding: try forgeJSON(try everyOutcome()), as: UTF8.self)
        XCTAssertEqual(try JSONSchemaOracle.errors(in: [json], schema: schemaURL), [[]])
        // What the schema accepts decodes to the same value.
        XCTAssertEqual(try decodeJSON(CheckResults.self, from: json.utf8), try everyOutcome())
    }

    func testSchemaRefusesBrokenResults() throws {
        let json = String(decoding: try forgeJSON(try everyOutcome()), as: UTF8.self)
        func result(_ outcome: CheckOutcome, _ change: (inout JSONValue) -> Void) throws -> String {
            try edit(json) { document in
                let results = try XCTUnwrap(document["results"]?.arrayValue)
                let index = try XCTUnwrap(results.firstIndex { $0["outcome"]?.stringValue == outcome.rawValue })
                change(&document["results"]![index]!)
            }
        }
        let breaks: [(String, String)] = try [
            ("an unknown top-level field", edit(json) { $0["host"] = "ci" }),
            ("version 2", edit(json) { $0["version"] = 2 }),
            ("another generator", edit(json) { $0["generator"] = "limbo" }),
            ("a date that is not RFC 3339", edit(json) { $0["startedAt"] = "yesterday" }),
            ("no harness", edit(json) { $0["harness"] = nil }),
            ("outcome passed", result(.pass) { $0["outcome"] = "passed" }),
            ("a verdict on a hang", result(.hang) { $0["actual"] = ["verdict": "valid", "reason": .null] }),
            ("no verdict on a fail", result(.fail) { $0["actual"] = .null }),
            ("an actual verdict maybe", result(.pass) { $0["actual"] = ["verdict": "maybe", "reason": .null] }),
            ("an actual verdict without reason", result(.pass) { $0["actual"] = ["verdict": "valid"] }),
            ("an expected reason outside the codes", result(.pass) { $0["expected"] = ["verdict": "invalid", "reason": "nope"] }),
            ("importance medium", result(.skipped) { $0["importance"] = "medium" }),
            ("a tag outside the vocabulary", result(.crash) { $0["tags"] = ["chain", "x509"] }),
            ("negative seconds", result(.error) { $0["seconds"] = -1 }),
            ("no stderrTail", result(.reasonDiffers) { $0["stderrTail"] = nil }),
            ("a missing detail key", result(.crash) { $0["detail"] = nil }),
            ("an unknown result field", result(.pass) { $0["exitStatus"] = 0 }),
        ]
        let errors = try JSONSchemaOracle.errors(in: breaks.map(\.1), schema: schemaURL)
        for ((label, _), problems) in zip(breaks, errors) {
            XCTAssertFalse(problems.isEmpty, "check-results.schema.json accepts \(label)")
        }
    }

    /// The fields the schema declares are the ones the code writes, and its
    /// enumerations are the code's.
    func testSchemaIsTheCodes() throws {
        let schema = try SchemaDocument("check-results")
        var fields: [String: (declared: Set<String>, written: Set<String>)] = [:]
        let document = try JSONValue(json: Data(try forgeJSON(try everyOutcome())))
        schema.collectFields(of: document, into: &fields)
        for path in ["", "/results/[]", "/results/[]/expected", "/results/[]/actual"] {
            let field = try XCTUnwrap(fields[path], "no object at \(path)")
            XCTAssertEqual(field.declared, field.written, path)
        }
        XCTAssertEqual(try schema.enumeration("properties", "results", "items", "properties", "outcome"),
                       CheckOutcome.allCases.map(\.rawValue))
        XCTAssertEqual(try schema.enumeration("$defs", "tag"), ForgeCase.Tag.allCases.map(\.rawValue))
        XCTAssertEqual(try schema.enumeration("$defs", "importance"), ForgeCase.Importance.allCases.map(\.rawValue))
        XCTAssertEqual(try schema.enumeration("$defs", "reason"), VerdictReason.allCases.map(\.rawValue))
        XCTAssertEqual(try schema.value("properties", "version", "const")?.intValue, CheckResults.currentVersion)
        // The definitions shared with case.json and manifest.json are the same.
        for other in ["case", "manifest"] {
            for name in ["tag", "tags", "importance", "reason", "expected", "caseId", "date"] {
                let mine = try XCTUnwrap(try schema.value("$defs", name), name)
                let theirs = try XCTUnwrap(try SchemaDocument(other).value("$defs", name), "\(other) \(name)")
                // Compared with keys sorted: member order does not matter in a schema.
                XCTAssertEqual(mine.jsonText, theirs.jsonText, "$defs/\(name) differs from \(other).schema.json")
            }
        }
    }

    /// `json` with `change` made to it, written back.
    private func edit(_ json: String, _ change: (inout JSONValue) throws -> Void) throws -> String {
        var value = try JSONValue(json: json)
        try change(&value)
        return value.jsonText
    }
}
