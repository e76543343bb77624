import LocalAppStore
import StoreControlAPI
import StrictJSON
import TestSupport
import XCTest

/// `Schemas/store-control.schema.json` against real exchanges, judged by Python's
/// `jsonschema`: every request body the handler accepted matches its verb's
/// definition, every answer matches the response schema, bodies the handler refuses
/// for their shape the schema refuses too, and its lists are the code's.
final class ControlSchemaTests: XCTestCase {
    private let schema = JSONSchemaOracle.schemaURL("store-control")
    private let stateSchema = JSONSchemaOracle.schemaURL("store-state")

    /// Every exchange of the verb and refusal scenarios.
    private func exchanges() throws -> [Exchange] {
        let recorder = ExchangeRecorder()
        for scenario in ControlVerbTests.scenarios + ControlRefusalTests.scenarios {
            try scenario(ControlHarness(recorder: recorder))
        }
        return recorder.exchanges
    }

    func testAcceptedRequestsMatchTheirVerbsDefinition() throws {
        let accepted = try exchanges().filter { $0.response.status == 200 && $0.verb != "state" }
        let verbs = Set(accepted.map(\.verb))
        XCTAssertEqual(verbs, Set(ControlVerb.allCases.map(\.rawValue)).subtracting(["state"]), "every action verb is exercised")
        for verb in verbs.sorted() {
            let bodies = accepted.filter { $0.verb == verb }.map { $0.requestBody.isEmpty ? "{}" : $0.requestBody }
            let errors = try JSONSchemaOracle.errors(in: bodies, schema: schema, definition: "/$defs/request/$defs/\(verb)",
                                                     resources: [stateSchema])
            for (body, problems) in zip(bodies, errors) {
                XCTAssertEqual(problems, [], "\(verb) \(body)")
            }
        }
    }

    func testShapeRefusalsAreRefusedByTheSchemaToo() throws {
        let shapeRefusals = try exchanges().filter { exchange in
            guard exchange.response.status == 400, !exchange.requestBody.isEmpty,
                  let answer = try? decodeJSON(ErrorAnswer.self, from: exchange.response.body) else { return false }
            // Duplicate members are not JSON Schema's business (Python keeps the last); malformed JSON is not a document.
            return answer.error.code == "invalidRequest" && !answer.error.message.contains("appears twice")
        }
        XCTAssertGreaterThan(shapeRefusals.count, 20)
        for verb in Set(shapeRefusals.map(\.verb)).sorted() {
            let bodies = shapeRefusals.filter { $0.verb == verb }.map(\.requestBody)
            let errors = try JSONSchemaOracle.errors(in: bodies, schema: schema, definition: "/$defs/request/$defs/\(verb)",
                                                     resources: [stateSchema])
            for (body, problems) in zip(bodies, errors) {
                XCTAssertNotEqual(problems, [], "the schema accepts \(verb) \(body), which the handler refuses")
            }
        }
    }

    func testEveryAnswerMatchesTheResponseSchema() throws {
        let all = try exchanges()
        let answers = all.filter { $0.verb != "state" || $0.response.status != 200 }.map { String(decoding: $0.response.body, as: UTF8.self) }
        XCTAssertTrue(Set(all.map(\.response.status)).isSuperset(of: [200, 400, 404, 405]))
        let errors = try JSONSchemaOracle.errors(in: answers, schema: schema, resources: [stateSchema])
        for (answer, problems) in zip(answers, errors) {
            XCTAssertEqual(problems, [], answer)
        }
        let states = all.filter { $0.verb == "state" && $0.response.status == 200 }.map { String(decoding: $0.response.body, as: UTF8.self) }
        XCTAssertFalse(states.isEmpty)
        for problems in try JSONSchemaOracle.errors(in: states, schema: stateSchema) {
            XCTAssertEqual(problems, [])
        }
    }

    func testTheSchemaIsNotVacuous() throws {
        let breaks = [
            #"{"transactionIds": [1], "events": []}"#,
            #"{"transactionIds": [], "events": [], "extra": 1}"#,
            #"{"transactionIds": [], "events": [{"type": "purchased"}]}"#,
            #"{"error": {"code": "oops", "field": "$", "message": "m"}}"#,
            #"{"error": {"code": "invalidRequest", "message": "m"}}"#,
        ]
        for problems in try JSONSchemaOracle.errors(in: breaks, schema: schema, resources: [stateSchema]) {
            XCTAssertNotEqual(problems, [])
        }
    }

    func testTheSchemasListsAreTheCodes() throws {
        let document = try JSONValue(contentsOf: schema)
        let requests = try XCTUnwrap(document["$defs"]?["request"]?["$defs"]?.objectValue)
        XCTAssertEqual(requests.map(\.key), ControlVerb.allCases.map(\.rawValue))
        let error = document["$defs"]?["error"]?["properties"]?["error"]?["properties"]
        XCTAssertEqual(error?["code"]?["enum"]?.arrayValue?.compactMap(\.stringValue), ControlError.Code.allNames)
        XCTAssertEqual(error?["verbs"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue), ControlVerb.allCases.map(\.rawValue))
    }
}
