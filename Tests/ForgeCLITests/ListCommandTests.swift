import Foundation
import StrictJSON
import TestSupport
import XCTest

/// `forge list`: the importance and tags of every case, in the text table and in
/// `--json`, the same as the manifest and case files of a minted tree.
final class ListCommandTests: XCTestCase {
    private struct Row: Equatable, CustomStringConvertible {
        let id: String
        let importance: String
        let tags: [String]
        var description: String { "\(id) \(importance) \(tags)" }
    }

    private func rows(_ objects: JSONValue?) throws -> [Row] {
        let list = try XCTUnwrap(objects?.arrayValue)
        return try list.map {
            Row(id: try XCTUnwrap($0["id"]?.stringValue), importance: try XCTUnwrap($0["importance"]?.stringValue),
                tags: try XCTUnwrap($0["tags"]?.strings))
        }
    }

    func testTextJSONAndTheMintedTreeAgree() throws {
        let json = try ForgeProcess.run(["list", "--json"])
        XCTAssertEqual(json.status, 0, json.standardError)
        let listed = try rows(try JSONValue(json: json.standardOutput))
        XCTAssertGreaterThanOrEqual(listed.count, 33)

        // Text: id, verdict (`valid` or `invalid REASON`), importance, comma-separated tags, summary.
        let text = try ForgeProcess.run(["list"])
        XCTAssertEqual(text.status, 0, text.standardError)
        let lines = text.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, listed.count)
        var tagsColumns: Set<Int> = []
        for (line, row) in zip(lines, listed) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            XCTAssertEqual(words.first, row.id)
            let next = words[1] == "valid" ? 2 : 3
            XCTAssertEqual(words[next], row.importance, String(line))
            XCTAssertEqual(words[next + 1], row.tags.joined(separator: ","), String(line))
            if let tags = line.range(of: " " + words[next + 1] + " ") {
                tagsColumns.insert(line.distance(from: line.startIndex, to: tags.lowerBound))
            }
        }
        XCTAssertEqual(tagsColumns.count, 1, "the tags start in one column on every line")

        // A minted tree says the same in manifest.json and in each case.json.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-list-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let mint = try ForgeProcess.run(["--all", "--quiet", "--out", directory.path])
        XCTAssertEqual(mint.status, 0, mint.standardError)
        let manifest = try JSONValue(contentsOf: directory.appendingPathComponent("manifest.json"))
        XCTAssertEqual(try rows(manifest["cases"]), listed)
        for row in listed {
            let caseFile = directory.appendingPathComponent("\(row.id)/case.json")
            let description = try JSONValue(contentsOf: caseFile)
            XCTAssertEqual(try rows(.array([description])), [row])
        }
    }

    func testHelpNamesTheVocabulary() throws {
        let help = try ForgeProcess.run(["list", "--help"])
        XCTAssertEqual(help.status, 0)
        for word in ["critical", "high", "low", "strict-policy", "creation-date-rule", "device-hash"] {
            XCTAssertTrue(help.standardOutput.contains(word), "list --help lacks \(word)")
        }
    }
}
