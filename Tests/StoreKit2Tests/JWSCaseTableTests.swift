import Foundation
import ReceiptForge
import TestSupport
import XCTest
import StoreKit2Forge

/// The "The StoreKit 2 cases" table of docs/storekit2.md is the catalogue: every case in
/// order, with its kind, expected status, Apple's Swift library's answer (`same` where it
/// is the expected status), verifier environment and description.
final class JWSCaseTableTests: XCTestCase {
    func testTheTableIsTheCatalogue() throws {
        let guide = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("docs/storekit2.md"), encoding: .utf8)
        let start = try XCTUnwrap(guide.range(of: "\n## The StoreKit 2 cases\n"), "docs/storekit2.md has no StoreKit 2 case table")
        let lines = guide[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("| case ") })
        XCTAssertEqual(cells(header), ["case", "kind", "expected", "Apple's Swift library", "verifier environment", "what it tests"])
        let rows = lines.drop { !$0.hasPrefix("| `") }.prefix { $0.hasPrefix("| `") }.map(cells)
        XCTAssertEqual(rows.map { $0[0] }, JWSCase.catalogue.map { "`\($0.id)`" })
        for (row, jwsCase) in zip(rows, JWSCase.catalogue) {
            let swift = jwsCase.swiftLibraryWhereItDiffers?.rawValue ?? "same"
            XCTAssertEqual(row, ["`\(jwsCase.id)`", jwsCase.kind.rawValue, jwsCase.expected.rawValue, swift,
                                 jwsCase.environment.rawValue, jwsCase.summary], jwsCase.id)
        }
    }

    private func cells(_ line: Substring) -> [String] {
        line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
