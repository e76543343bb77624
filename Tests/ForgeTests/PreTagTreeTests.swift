import Foundation
import Receipt
import ReceiptForge
import StrictJSON
import TestSupport
import XCTest

/// Trees written before cases had tags and an importance still decode and verify: the
/// fields are optional to readers, though the forge always writes them.
final class PreTagTreeTests: XCTestCase {
    func testATreeWithoutTagsOrImportanceStillVerifies() throws {
        let directory = try scratchDirectory(for: self).appendingPathComponent("Fixtures")
        try Forge().write(to: directory)
        let manifestURL = directory.appendingPathComponent("manifest.json")
        var stripped = 0
        /// Removes `tags` and `importance` from `object`, counting what was there.
        func removeTagsAndImportance(_ object: inout JSONValue) {
            for key in ["tags", "importance"] where object[key] != nil {
                object[key] = nil
                stripped += 1
            }
        }
        try strip(manifestURL) { manifest in
            for index in try XCTUnwrap(manifest["cases"]?.arrayValue).indices {
                removeTagsAndImportance(&manifest["cases"]![index]!)
            }
        }
        for forgeCase in ForgeCase.catalogue {
            try strip(directory.appendingPathComponent("\(forgeCase.id)/case.json"), removeTagsAndImportance)
        }
        XCTAssertEqual(stripped, 4 * ForgeCase.catalogue.count, "the forge wrote tags and importance everywhere")

        let manifest = try decodeJSON(ForgeManifest.self, from: Data(contentsOf: manifestURL))
        XCTAssertTrue(manifest.cases.allSatisfy { $0.tags == nil && $0.importance == nil })
        let rows = try ManifestVerifier.verify(manifestAt: manifestURL)
        XCTAssertEqual(rows.map(\.id), ForgeCase.catalogue.map(\.id))
        for row in rows { XCTAssertTrue(row.agrees, "\(row.id): expected \(row.expected), got \(row.got)") }
    }

    private func strip(_ url: URL, _ change: (inout JSONValue) throws -> Void) throws {
        var json = try JSONValue(contentsOf: url)
        try change(&json)
        try Data(json.jsonText.utf8).write(to: url)
    }
}
