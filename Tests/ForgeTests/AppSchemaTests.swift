import Foundation
import ReceiptForge
import TestSupport
import XCTest
import AppInput
import StrictJSON

/// `Schemas/app.schema.json` and `AppFile` describe the same format: the same fields,
/// the same values, and (checked by Python's `jsonschema` where it is installed) the
/// same verdict on the example files and on documents that break each rule.
final class AppSchemaTests: XCTestCase {
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/app.schema.json")

    private func schema() throws -> JSONValue {
        try JSONValue(contentsOf: AppSchemaTests.schemaURL)
    }

    /// The members of `value`, which must be an object.
    private func members(_ value: JSONValue?, _ path: String) throws -> [JSONMember] {
        try XCTUnwrap(value?.objectValue, "\(path) is not an object")
    }

    /// `value`, which must be an object.
    private func object(_ value: JSONValue?, _ path: String) throws -> JSONValue {
        .object(try members(value, path))
    }

    func testFieldsAreTheParsersFields() throws {
        let schema = try schema()
        XCTAssertEqual(schema["$schema"]?.stringValue, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(schema["additionalProperties"]?.boolValue, false)
        let properties = try members(schema["properties"], "properties")
        XCTAssertEqual(Set(properties.map(\.key)), AppFile.fields)

        let purchase = try object(object(schema["$defs"], "$defs")["purchase"], "$defs.purchase")
        XCTAssertEqual(purchase["additionalProperties"]?.boolValue, false)
        let purchaseProperties = try members(purchase["properties"], "$defs.purchase.properties")
        XCTAssertEqual(Set(purchaseProperties.map(\.key)), AppFile.purchaseFields)
        XCTAssertEqual(Set(try XCTUnwrap(purchase["required"]?.strings)), ["productId", "type", "purchaseDate"])

        for (name, value) in properties.map({ ("properties.\($0.key)", $0.value) }) + purchaseProperties.map({ ("purchase.\($0.key)", $0.value) }) {
            let description = try object(value, name)["description"]?.stringValue
            XCTAssertFalse(description?.isEmpty ?? true, "\(name) has no description")
        }
    }

    /// Each value the schema lists is one the parser accepts; the product types are
    /// exactly `Product.Kind`'s.
    func testEnumeratedValuesAreTheParsersValues() throws {
        let schema = try schema()
        let properties = try object(schema["properties"], "properties")
        let platforms = try XCTUnwrap(object(properties["platform"], "platform")["enum"]?.strings)
        XCTAssertEqual(platforms, ["ios", "macos"])
        for platform in platforms {
            XCTAssertEqual(try AppFile(json: Array(#"{"platform": "\#(platform)"}"#.utf8), file: "app.json").platform?.rawValue, platform)
        }
        let environments = try XCTUnwrap(object(properties["environment"], "environment")["enum"]?.strings)
        XCTAssertEqual(environments, AppEnvironment.allCases.map(\.rawValue))

        let purchase = try object(object(schema["$defs"], "$defs")["purchase"], "purchase")
        let types = try XCTUnwrap(object(object(purchase["properties"], "properties")["type"], "type")["enum"]?.strings)
        XCTAssertEqual(types, Product.Kind.allCases.map(\.rawValue))
    }

    // MARK: Python jsonschema

    /// Documents with the parser's verdict (true: accepted). The schema must agree.
    /// Rules a schema cannot state are left out: a date after another, and a repeated
    /// member name (JSON Schema sees only the last value; the parser refuses it).
    private let verdicts: [(json: String, accepted: Bool)] = {
        func with(_ fields: String, type: String = "autoRenewableSubscription") -> String {
            #"{"purchases": [{"productId": "p", "type": "\#(type)", "purchaseDate": "2025-03-01T10:00:00Z"\#(fields)}]}"#
        }
        return [
            ("{}", true),
            (#"{"bundleId": "com.acme.shop", "appVersion": "7.1", "originalAppVersion": "1.0", "environment": "Production"}"#, true),
            (#"{"platform": "macos", "deviceId": "6c-40-08-b5-94-5e"}"#, true),
            (#"{"deviceId": "956328d9cc6a47f4be406953fb0ab6c7"}"#, true),
            (#"{"deviceId": "6c4008b5945e"}"#, true),
            (#"{"deviceId": "956328D9CC6A47F4BE406953FB0AB6C"}"#, false),
            (#"{"deviceId": "956328D9-CC6A-47F4-BE40-6953FB0AB6CZ"}"#, false),
            (#"{"deviceId": "6c:40:08:b5:94"}"#, false),
            (#"{"bundleID": "com.acme.shop"}"#, false),
            (#"{"bundleId": ""}"#, false),
            (#"{"bundleId": "a\u0000b"}"#, false),
            (#"{"bundleId": 7}"#, false),
            (#"{"platform": "android"}"#, false),
            (#"{"environment": "sandbox"}"#, false),
            (#"{"storekit": "Shop.storekit", "purchases": []}"#, false),
            (#"{"purchases": []}"#, true),
            (with(""), true),
            (with(#", "quantity": 2.0, "webOrderLineItemId": 9223372036854775807"#), true),
            (with(#", "expiresDate": "2025-04-01T12:00:00+0200", "isTrialPeriod": true, "promotionalOfferId": "x""#), true),
            (with(#", "cancellationDate": "2025-03-02T10:00:00.000Z", "cancellationReason": 0"#), true),
            (with(#", "isTrialPeriod": false, "isInIntroOfferPeriod": false"#, type: "consumable"), true),
            (with(#", "unknown": 1"#), false),
            (with(#", "quantity": 0"#), false),
            (with(#", "quantity": 1.5"#), false),
            (with(#", "webOrderLineItemId": 9223372036854775808"#), false),
            (with(#", "webOrderLineItemId": -1"#), false),
            (with(#", "cancellationReason": 1"#), false),
            (with(#", "cancellationDate": "2025-03-02T10:00:00Z", "cancellationReason": 2"#), false),
            (with(#", "expiresDate": "2025-04-01T10:00:00Z""#, type: "consumable"), false),
            (with(#", "promotionalOfferId": "x""#, type: "nonConsumable"), false),
            (with(#", "isTrialPeriod": true"#, type: "nonRenewingSubscription"), false),
            (with(#", "isInIntroOfferPeriod": true"#, type: "consumable"), false),
            (with(#", "isTrialPeriod": true, "isInIntroOfferPeriod": true"#), false),
            (with(#", "originalPurchaseDate": "2025-03-01T10:00:00.5Z""#), false),
            (with(#", "originalPurchaseDate": "2025-03-01 10:00:00Z""#), false),
            (with(#", "transactionId": """#), false),
            (with("", type: "subscription"), false),
            (#"{"purchases": [{"type": "consumable", "purchaseDate": "2025-03-01T10:00:00Z"}]}"#, false),
            (#"{"purchases": [{"productId": "p", "type": "consumable"}]}"#, false),
        ]
    }()

    func testParserVerdicts() {
        for (json, accepted) in verdicts {
            let result = Result { () throws(JSONInputError) in try AppFile(json: Array(json.utf8), file: "app.json") }
            switch result {
            case .success: XCTAssertTrue(accepted, "the parser accepts \(json)")
            case .failure(let error): XCTAssertFalse(accepted, "the parser refuses \(json): \(error)")
            }
        }
    }

    func testPythonJSONSchemaAgrees() throws {
        try requirePythonJSONSchema()
        let examples = ["shop.app.json", "shop-storekit.app.json", "minimal.app.json"]
        // The documents travel as written: no round trip through a parser and writer
        // changes how a number such as 9223372036854775807 is written.
        let documents = try examples.map { String(decoding: try InputFiles.bytes($0), as: UTF8.self) } + verdicts.map(\.json)
        let expected = examples.map { _ in true } + verdicts.map(\.accepted)
        let input = Data(("[" + documents.joined(separator: ",\n") + "]").utf8)
        let output = try runPython(Self.validatorScript, arguments: [AppSchemaTests.schemaURL.path], input: input)
        // One character per document: 1 valid, 0 not.
        let valid = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).map { $0 == "1" }
        XCTAssertEqual(valid.count, expected.count, String(decoding: output, as: UTF8.self))
        let labels = examples + verdicts.map(\.json)
        for (label, (schemaSays, parserSays)) in zip(labels, zip(valid, expected)) {
            XCTAssertEqual(schemaSays, parserSays, "schema and parser disagree on \(label)")
        }
    }

    private static let validatorScript = """
        import json, sys
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        print("".join("1" if validator.is_valid(document) else "0" for document in json.load(sys.stdin)))
        """

    private func requirePythonJSONSchema() throws {
        try PythonOracle.require(module: "jsonschema")
    }

    private struct PythonFailed: Error, CustomStringConvertible {
        let status: Int32
        let standardError: String
        var description: String { "python3 exited with \(status): \(standardError)" }
    }

    private func runPython(_ script: String, arguments: [String], input: Data) throws -> Data {
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script] + arguments), input: input)
        guard run.status == 0 else { throw PythonFailed(status: run.status, standardError: run.standardError) }
        return Data(run.standardOutput.utf8)
    }
}
