import Foundation
import StoreScenarios
import TestSupport
import XCTest

/// `docs/scenarios/NAME.json` are the catalogue's transcripts, committed as examples:
/// regenerated here and compared byte for byte, so they never go stale. After a change
/// that moves them on purpose: `forge scenario run NAME --out docs/scenarios` for each.
final class ScenarioExampleTests: XCTestCase {
    static let directory = ChildProcess.packageRoot.appendingPathComponent("docs/scenarios")

    func testCommittedTranscriptsAreWhatTheCatalogueMakes() async throws {
        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(committed, Scenario.catalogue.map { "\($0.name).json" }.sorted(), "one example per scenario, no other")
        for scenario in Scenario.catalogue {
            let made = ScenarioRunner.encode(try await ScenarioRunner().run(scenario))
            let file = Self.directory.appendingPathComponent("\(scenario.name).json")
            let written = try Data(contentsOf: file)
            XCTAssertTrue(Array(written) == made, "\(file.path) is stale: run forge scenario run \(scenario.name) --out docs/scenarios")
        }
    }

    /// The schemas accept every transcript and every catalogue script (Python's jsonschema judges).
    func testTheSchemasAcceptTheCatalogueAndItsTranscripts() async throws {
        var transcripts: [String] = []
        for scenario in Scenario.catalogue {
            transcripts.append(String(decoding: ScenarioRunner.encode(try await ScenarioRunner().run(scenario)), as: UTF8.self))
        }
        XCTAssertEqual(try JSONSchemaOracle.errors(in: transcripts, schema: JSONSchemaOracle.schemaURL("scenario-transcript")),
                       Array(repeating: [], count: transcripts.count))
        let scripts = Scenario.catalogue.compactMap { Scenario.catalogueScript(named: $0.name) }
        XCTAssertEqual(scripts.count, Scenario.catalogue.count)
        XCTAssertEqual(try JSONSchemaOracle.errors(in: scripts, schema: JSONSchemaOracle.schemaURL("scenario")),
                       Array(repeating: [], count: scripts.count))
        // And it refuses what the reader refuses: an unknown member of a step.
        let wrong = #"{"name": "x", "summary": "s", "customer": "a", "steps": [{"control": "advanceClock", "body": {"seconds": 1}, "when": 1}]}"#
        XCTAssertNotEqual(try JSONSchemaOracle.errors(in: [wrong], schema: JSONSchemaOracle.schemaURL("scenario")), [[]])
    }
}
