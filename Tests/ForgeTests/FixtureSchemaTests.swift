import Foundation
import Receipt
import ReceiptForge
import StrictJSON
import TestSupport
import XCTest
import AppInput

/// `Schemas/manifest.schema.json` and `Schemas/case.schema.json` against real trees: the
/// forge writes one with the library, Python's `jsonschema` judges every file, and the
/// schemas must list exactly the fields and values the code writes.
final class FixtureSchemaTests: XCTestCase {
    struct Tree {
        let manifest: String
        /// Every `case.json`, by case id.
        let cases: [(id: String, json: String)]
    }

    /// Writes the whole catalogue for `forge` into a fresh directory and reads back
    /// manifest.json and the case.json of every case it lists.
    private func writtenTree(_ forge: Forge) throws -> Tree {
        let directory = try scratchDirectory(for: self).appendingPathComponent("Fixtures")
        try forge.write(to: directory)
        let manifest = try String(contentsOf: directory.appendingPathComponent("manifest.json"), encoding: .utf8)
        let entries = try XCTUnwrap(try JSONValue(json: manifest)["cases"]?.arrayValue)
        XCTAssertEqual(entries.compactMap { $0["id"]?.stringValue }, ForgeCase.catalogue.map(\.id))
        let cases = try entries.map { entry in
            let caseFile = try XCTUnwrap(entry["caseFile"]?.stringValue)
            return (id: try XCTUnwrap(entry["id"]?.stringValue),
                    json: try String(contentsOf: directory.appendingPathComponent(caseFile), encoding: .utf8))
        }
        return Tree(manifest: manifest, cases: cases)
    }

    /// The example app, a Mac app in sandbox with a `.storekit` catalogue, and an iOS
    /// app with an explicit purchase list: every shape of the manifest's `app` block and
    /// of `case.json`'s device.
    private func trees() throws -> [(label: String, tree: Tree)] {
        let catalogue = try StoreKitConfiguration(contentsOfFile: InputFiles.path("Shop-v4.storekit")).catalogue
        let mac = AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1", originalVersion: "1.0",
                                 device: DeviceIdentifier(text: "6c:40:08:b5:94:5e"), environment: .sandbox,
                                 purchases: .catalogue(catalogue))
        XCTAssertEqual(mac.platform, .macos)
        let explicit = AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1", originalVersion: "6.0", platform: .ios,
                                      device: DeviceIdentifier(text: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"),
                                      environment: .sandbox, purchases: .explicit(InputFiles.everyPurchaseField))
        return [("example", try writtenTree(Forge())), ("mac catalogue", try writtenTree(Forge(app: mac))),
                ("explicit", try writtenTree(Forge(app: explicit)))]
    }

    private func assertAccepted(_ documents: [(label: String, json: String)], by schema: String,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let errors = try JSONSchemaOracle.errors(in: documents.map(\.json), schema: JSONSchemaOracle.schemaURL(schema))
        for (document, problems) in zip(documents, errors) {
            XCTAssertEqual(problems, [], "\(schema).schema.json refuses \(document.label)", file: file, line: line)
        }
    }

    func testRealTreesMatchTheSchemas() throws {
        for (label, tree) in try trees() {
            try assertAccepted([("\(label) manifest.json", tree.manifest)], by: "manifest")
            try assertAccepted(tree.cases.map { ("\(label) \($0.id)/case.json", $0.json) }, by: "case")
        }
    }

    /// The schemas are not vacuous: each document breaks one rule and is refused.
    func testSchemasRefuseWhatTheForgeNeverWrites() throws {
        let tree = try writtenTree(Forge())
        let valid = try XCTUnwrap(tree.cases.first { $0.id == "valid" }?.json)
        let macos = try XCTUnwrap(tree.cases.first { $0.id == "macos-device" }?.json)
        let caseBreaks: [(String, String)] = try [
            ("an unknown field", edit(valid) { $0["extra"] = 1 }),
            ("no tags", edit(valid) { $0["tags"] = [] }),
            ("a tag outside the vocabulary", edit(valid) { $0["tags"] = ["baseline", "fuzzy"] }),
            ("a repeated tag", edit(valid) { $0["tags"] = ["chain", "chain"] }),
            ("no importance", edit(valid) { $0["importance"] = nil }),
            ("importance medium", edit(valid) { $0["importance"] = "medium" }),
            ("verdict and reason disagree", edit(valid) { $0["expected"] = ["verdict": "valid", "reason": "bundle-mismatch"] }),
            ("an unknown reason", edit(valid) { $0["expected"] = ["verdict": "invalid", "reason": "expired"] }),
            ("a null receipt", edit(valid) { $0["receipt"] = .null }),
            ("a receipt without its base64", edit(valid) { $0["receiptBase64"] = nil }),
            ("an iOS device with a MAC", edit(valid) { $0["device"] = ["platform": "ios", "hex": "6c4008b5945e", "mac": "6c:40:08:b5:94:5e"] }),
            ("a Mac device with a UUID", edit(macos) { $0["device"]?["uuid"] = "EA1AE4F9-A812-4449-9415-CCF37EB1E37A" }),
            ("the chain validated now", edit(valid) { $0["validation"]?["chainValidatedAt"] = "now" }),
            ("an unknown OpenSSL outcome", edit(valid) { $0["openssl"] = ["expected": "ok"] }),
        ]
        let manifest = tree.manifest
        let manifestBreaks: [(String, String)] = try [
            ("version 2", edit(manifest) { $0["version"] = 2 }),
            ("an unknown reason", edit(manifest) { $0["reasons"] = ["valid", "bogus"] }),
            ("an entry without tags", editFirstEntry(manifest) { $0["tags"] = nil }),
            ("an entry without importance", editFirstEntry(manifest) { $0["importance"] = nil }),
            ("an entry with importance none", editFirstEntry(manifest) { $0["importance"] = "none" }),
            ("an entry with an unknown field", editFirstEntry(manifest) { $0["weight"] = 3 }),
            ("a case file outside its folder", editFirstEntry(manifest) { $0["caseFile"] = "../valid/case.json" }),
            ("a seed beyond 64 bits", manifest.replacingOccurrences(of: #""seed" : 1,"#, with: #""seed" : 18446744073709551616,"#)),
        ]
        XCTAssertNotEqual(manifestBreaks.last?.1, manifest, "the seed edit found nothing to change")
        for (schema, breaks) in [("case", caseBreaks), ("manifest", manifestBreaks)] {
            let errors = try JSONSchemaOracle.errors(in: breaks.map(\.1), schema: JSONSchemaOracle.schemaURL(schema))
            for ((label, _), problems) in zip(breaks, errors) {
                XCTAssertFalse(problems.isEmpty, "\(schema).schema.json accepts \(label)")
            }
        }
    }

    /// Every field a schema declares is written somewhere in the trees, and (checked by
    /// `additionalProperties: false` above) nothing else is.
    func testEveryDeclaredFieldIsWritten() throws {
        let trees = try trees()
        try assertDeclaredFieldsAreWritten(schema: "manifest", documents: trees.map(\.tree.manifest))
        try assertDeclaredFieldsAreWritten(schema: "case", documents: trees.flatMap { $0.tree.cases.map(\.json) })
    }

    /// The values the schemas enumerate are the code's.
    func testEnumeratedValuesAreTheCodes() throws {
        for name in ["case", "manifest"] {
            let schema = try SchemaDocument(name)
            XCTAssertEqual(try schema.enumeration("$defs", "tag"), ForgeCase.Tag.allCases.map(\.rawValue), name)
            XCTAssertEqual(try schema.enumeration("$defs", "importance"), ForgeCase.Importance.allCases.map(\.rawValue), name)
            XCTAssertEqual(try schema.enumeration("$defs", "reason"), VerdictReason.allCases.map(\.rawValue), name)
            XCTAssertEqual(try schema.enumeration("$defs", "platform"), Platform.allCases.map(\.rawValue), name)
        }
        let caseSchema = try SchemaDocument("case")
        XCTAssertEqual(try caseSchema.enumeration("properties", "openssl", "properties", "expected"),
                       OpenSSLOutcome.allCases.map(\.rawValue))
        XCTAssertEqual(try caseSchema.enumeration("properties", "digest"), DigestAlgorithm.allCases.map(\.rawValue))
        let manifestSchema = try SchemaDocument("manifest")
        XCTAssertEqual(try manifestSchema.enumeration("properties", "app", "properties", "environment"),
                       AppEnvironment.allCases.map(\.rawValue))
        XCTAssertEqual(try manifestSchema.value("properties", "version", "const")?.intValue, ForgeManifest.currentVersion)
        // The manifest lists every reason; the schema allows exactly those.
        XCTAssertEqual(try manifestSchema.enumeration("$defs", "reason"),
                       ForgeManifest(cases: [], settings: ForgeSettings()).reasons.map(\.rawValue))
    }

    func testEveryFieldIsDescribedAndEveryObjectClosed() throws {
        for name in ["manifest", "case", "check-results", "api-key"] {
            try SchemaDocument(name).assertDescribedAndClosed()
        }
    }

    /// `api-key/api-key.json` as the forge writes it, for the example app and another
    /// bundle id and seed, against `Schemas/api-key.schema.json`; one broken rule each is refused.
    func testAPIKeyDescriptionMatchesTheSchema() throws {
        let other = AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1")
        var documents: [(label: String, json: String)] = []
        for (label, settings, app) in [("example", ForgeSettings(), AppDescription.example),
                                       ("seed 99, com.acme.shop", ForgeSettings(seed: 99), other)] {
            let directory = try scratchDirectory(for: self).appendingPathComponent(TestAPIKeyFolder.name)
            let folder = TestAPIKeyFolder(settings: settings, app: app)
            try folder.write(to: directory)
            let json = try String(contentsOf: directory.appendingPathComponent(TestAPIKeyFolder.descriptionFile), encoding: .utf8)
            let written = try JSONValue(json: json)
            XCTAssertEqual(written["bundleId"]?.stringValue, app.bundleIdentifier, label)
            let keyFile = try XCTUnwrap(written["privateKeyFile"]?.stringValue)
            XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent(keyFile).path), label)
            documents.append((label, json))
        }
        try assertAccepted(documents, by: "api-key")
        try assertDeclaredFieldsAreWritten(schema: "api-key", documents: documents.map(\.json))
        let valid = documents[0].json
        let breaks: [(String, String)] = try [
            ("an unknown field", edit(valid) { $0["teamId"] = "ABCDE12345" }),
            ("no issuer id", edit(valid) { $0["issuerId"] = nil }),
            ("a lower-case key id", edit(valid) { $0["keyId"] = "abcde12345" }),
            ("an upper-case issuer id", edit(valid) { $0["issuerId"] = "4B1A1E4C-5B4F-4A0E-9C7D-2B0E1F2A3C4D" }),
            ("an empty bundle id", edit(valid) { $0["bundleId"] = "" }),
            ("a key file of another name", edit(valid) { $0["privateKeyFile"] = "AuthKey_ABCDE12345.p8" }),
        ]
        let errors = try JSONSchemaOracle.errors(in: breaks.map(\.1), schema: JSONSchemaOracle.schemaURL("api-key"))
        for ((label, _), problems) in zip(breaks, errors) {
            XCTAssertFalse(problems.isEmpty, "api-key.schema.json accepts \(label)")
        }
    }

    // MARK: Helpers

    /// `json` with `change` made to it, written back.
    private func edit(_ json: String, _ change: (inout JSONValue) -> Void) throws -> String {
        var value = try JSONValue(json: json)
        change(&value)
        return value.jsonText
    }

    private func editFirstEntry(_ manifest: String, _ change: (inout JSONValue) -> Void) throws -> String {
        try edit(manifest) { change(&$0["cases"]![0]!) }
    }

    private func assertDeclaredFieldsAreWritten(schema name: String, documents: [String],
                                                file: StaticString = #filePath, line: UInt = #line) throws {
        let schema = try SchemaDocument(name)
        var fields: [String: (declared: Set<String>, written: Set<String>)] = [:]
        for document in documents {
            schema.collectFields(of: try JSONValue(json: document), into: &fields)
        }
        XCTAssertFalse(fields.isEmpty, file: file, line: line)
        for (path, field) in fields {
            XCTAssertEqual(field.declared.subtracting(field.written), [], "\(name).schema.json \(path): declared, never written",
                           file: file, line: line)
        }
    }
}
