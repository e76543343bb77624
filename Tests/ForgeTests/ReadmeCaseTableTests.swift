import Foundation
import ReceiptForge
import TestSupport
import XCTest

/// README's "The cases" table lists the catalogue as it is: every case in order, with
/// its expected reason, importance and tags.
final class ReadmeCaseTableTests: XCTestCase {
    func testTheCaseTableIsTheCatalogue() throws {
        let readme = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "\n### The cases\n"), "README has no case table")
        let section = readme[start.upperBound...]
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
