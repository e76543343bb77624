import Foundation
import Receipt
import ReceiptForge
import XCTest

/// Trees written before cases had tags and an importance still decode and verify: the
/// fields are optional to readers, though the forge always writes them.
final class PreTagTreeTests: XCTestCase {
    func testATreeWithoutTagsOrImportanceStillVerifies() throws {
        let directory = try scratchDirectory(for: self).appendingPathComponent("Fixtures")
        try Forge().write(to: directory)
        let manifestURL = directory.appendingPathComponent("manifest.json")
        var stripped = 0
        try strip(manifestURL) { manifest in
            var entries = manifest["cases"] as? [[String: Any]] ?? []
            for index in entries.indices {
                stripped += entries[index].removeValue(forKey: "tags") == nil ? 0 : 1
                stripped += entries[index].removeValue(forKey: "importance") == nil ? 0 : 1
            }
            manifest["cases"] = entries
        }
        for forgeCase in ForgeCase.catalogue {
            try strip(directory.appendingPathComponent("\(forgeCase.id)/case.json")) { description in
                stripped += description.removeValue(forKey: "tags") == nil ? 0 : 1
                stripped += description.removeValue(forKey: "importance") == nil ? 0 : 1
            }
        }
        XCTAssertEqual(stripped, 4 * ForgeCase.catalogue.count, "the forge wrote tags and importance everywhere")

        let manifest = try JSONDecoder().decode(ForgeManifest.self, from: Data(contentsOf: manifestURL))
        XCTAssertTrue(manifest.cases.allSatisfy { $0.tags == nil && $0.importance == nil })
        let rows = try ManifestVerifier.verify(manifestAt: manifestURL)
        XCTAssertEqual(rows.map(\.id), ForgeCase.catalogue.map(\.id))
        for row in rows { XCTAssertTrue(row.agrees, "\(row.id): expected \(row.expected), got \(row.got)") }
    }

    private func strip(_ url: URL, _ change: (inout [String: Any]) -> Void) throws {
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        change(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: url)
    }
}
