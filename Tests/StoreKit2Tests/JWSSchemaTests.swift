import Foundation
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import StrictJSON
import TestSupport
import XCTest
import StoreKit2Forge
import StoreKit2Verifier

/// `Schemas/jws-case.schema.json` and `Schemas/jws-manifest.schema.json` against a real
/// tree, judged by Python's `jsonschema`; their enumerations are the code's.
final class JWSSchemaTests: XCTestCase {
    func testRealFilesMatchAndEditsAreRefused() throws {
        let tree = try Minted.scratch(self)
        _ = try Minted.forge.write(to: tree, minted: Minted.cases)
        let manifest = try String(contentsOf: tree.appendingPathComponent("manifest.json"), encoding: .utf8)
        let cases = try JWSCase.catalogue.map {
            try String(contentsOf: tree.appendingPathComponent("\($0.id)/case.json"), encoding: .utf8)
        }
        XCTAssertEqual(try JSONSchemaOracle.errors(in: cases, schema: JSONSchemaOracle.schemaURL("jws-case")),
                       Array(repeating: [], count: cases.count))
        XCTAssertEqual(try JSONSchemaOracle.errors(in: [manifest], schema: JSONSchemaOracle.schemaURL("jws-manifest")), [[]])

        let broken = [
            cases[0].replacingOccurrences(of: "\"status\" : \"OK\"", with: "\"status\" : \"FINE\""),
            cases[0].replacingOccurrences(of: "\"kind\" : \"transaction\"", with: "\"kind\" : \"receipt\""),
            cases[0].replacingOccurrences(of: "\"bundleId\"", with: "\"bundleID\""),
            cases[0].replacingOccurrences(of: "\"Certs/jws-root.cer\"", with: "\"/etc/passwd\""),
        ]
        XCTAssertEqual(broken.map { $0 == cases[0] }, [false, false, false, false], "every edit applies")
        for (index, errors) in try JSONSchemaOracle.errors(in: broken, schema: JSONSchemaOracle.schemaURL("jws-case")).enumerated() {
            XCTAssertFalse(errors.isEmpty, "edit \(index) is refused")
        }
    }

    func testEnumerationsAreTheCodes() throws {
        for name in ["jws-case", "jws-manifest"] {
            let schema = try JSONValue(contentsOf: JSONSchemaOracle.schemaURL(name))
            let defs = try XCTUnwrap(schema["$defs"])
            XCTAssertEqual(defs["status"]?["enum"]?.strings, JWSVerificationStatus.allCases.map(\.rawValue), name)
            XCTAssertEqual(defs["kind"]?["enum"]?.strings, JWSKind.allCases.map(\.rawValue), name)
            XCTAssertEqual(defs["environment"]?["enum"]?.strings, JWSEnvironment.allCases.map(\.rawValue), name)
        }
    }
}
