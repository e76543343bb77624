import Foundation
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import TestSupport
import XCTest
import StoreKit2Forge

/// Apple's own `SignedDataVerifier` (app-store-server-library, pinned in
/// `.venv-oracles`, run by `scripts/storekit2-oracle`) agrees with every case's
/// `case.json`, and so does our verifier: three answers, one status per case (and per
/// nested JWS of the notifications). Skips without the library; fails under `CI`.
final class AppleOracleTests: XCTestCase {
    struct OracleLine: Decodable {
        let id: String
        let status: String
        let nested: [String: String]
        let cause: String?
    }

    func testAppleLibraryOurVerifierAndCaseFilesAgree() throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let tree = try Minted.scratch(self).appendingPathComponent("storekit2")
        _ = try Minted.forge.write(to: tree, minted: Minted.cases)
        let script = ChildProcess.packageRoot.appendingPathComponent("scripts/storekit2-oracle")
        let run = try ChildProcess.run(script, [tree.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        let lines = try run.standardOutput.split(separator: "\n").map {
            try decodeJSON(OracleLine.self, from: $0.utf8)
        }
        XCTAssertEqual(lines.map(\.id), JWSCase.catalogue.map(\.id), "Apple's library ran every case, in order")

        for (line, minted) in zip(lines, Minted.cases) {
            // case.json as written to the tree, read back.
            let written = try Data(contentsOf: tree.appendingPathComponent("\(line.id)/case.json"))
            let description = try decodeJSON(JWSCaseDescription.self, from: written)
            XCTAssertEqual(line.status, description.expected.status.rawValue,
                           "\(line.id): Apple says \(line.status) (\(line.cause ?? "")), case.json \(description.expected.status.rawValue)")
            let file = try Data(contentsOf: tree.appendingPathComponent("\(line.id)/\(description.file)"))
            XCTAssertEqual(Array(file), minted.file, "\(line.id): the file in the tree is the minted one")
            let anchors = try Dictionary(uniqueKeysWithValues: description.verifier.rootCertificates.map {
                ($0, Array(try Data(contentsOf: tree.appendingPathComponent($0))))
            })
            let ours = Minted.verifier(description.verifier, anchors: anchors)
                .verify(minted.jws, kind: description.kind, currentTime: Minted.currentTime)
            XCTAssertEqual(ours.status.rawValue, line.status, "\(line.id): ours \(ours.detail)")
            XCTAssertEqual(line.nested, (description.expected.nested ?? [:]).mapValues(\.rawValue), "\(line.id) nested")
        }
    }
}
