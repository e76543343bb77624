import Foundation
import ReceiptForge
import TestSupport
import XCTest

/// The "The cases" table of docs/fixtures.md lists the catalogue as it is: every case in
/// order, with its expected reason, importance and tags.
final class CaseTableTests: XCTestCase {
    func testTheCaseTableIsTheCatalogue() throws {
        let guide = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/fixtures.md"), encoding: .utf8)
        let start = try XCTUnwrap(guide.range(of: "\n## The cases\n"), "docs/fixtures.md has no case table")
        let section = guide[start.upperBound...]
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("| case ") })
        XCTAssertEqual(cells(header), ["case", "expected", "importance", "tags", "what it tests"])
        let rows = lines.drop { !$0.hasPrefix("| `") }.prefix { $0.hasPrefix("| `") }.map(cells)
        XCTAssertEqual(rows.map { $0[0] }, ForgeCase.catalogue.map { "`\($0.id)`" })
        for (row, forgeCase) in zip(rows, ForgeCase.catalogue) {
            XCTAssertEqual(row.count, 5, forgeCase.id)
            XCTAssertEqual(row[1], forgeCase.expected.rawValue, forgeCase.id)
            XCTAssertEqual(row[2], forgeCase.importance.rawValue, forgeCase.id)
            XCTAssertEqual(row[3], forgeCase.tags.map { "`\($0.rawValue)`" }.joined(separator: ", "), forgeCase.id)
        }
    }

    private func cells(_ line: Substring) -> [String] {
        line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
