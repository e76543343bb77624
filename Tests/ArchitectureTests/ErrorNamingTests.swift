import Foundation
import TestSupport
import XCTest

/// One naming scheme for error types (docs/architecture.md, "Errors"): every type that
/// conforms to `Error` in Sources/, Plugins/, Fuzz/ and Benchmarks/ is named `…Error`,
/// never `…Failure` or `…Refusal`, so a reader finds every error type by its name.
final class ErrorNamingTests: XCTestCase {
    /// `struct|enum|class|actor NAME…: …Error…` where the conformance list names `Error`.
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:(?:public|package|internal|fileprivate|private|final)\s+)*(?:struct|enum|class|actor)\s+([A-Za-z_][A-Za-z0-9_]*)(?:<[^>]*>)?\s*:\s*([^{]*)\{"#,
        options: [.anchorsMatchLines])

    /// The names of the error types declared in `text`.
    static func errorTypes(in text: String) -> [String] {
        declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let name = Range(match.range(at: 1), in: text), let conformances = Range(match.range(at: 2), in: text) else { return nil }
            let list = text[conformances].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return list.contains("Error") || list.contains("Swift.Error") ? String(text[name]) : nil
        }
    }

    func testEveryErrorTypeIsNamedError() throws {
        var offenders: [String] = []
        var seen = 0
        for folder in ["Sources", "Plugins", "Fuzz", "Benchmarks"] {
            let root = ChildProcess.packageRoot.appendingPathComponent(folder)
            let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                for name in Self.errorTypes(in: text) {
                    seen += 1
                    if !name.hasSuffix("Error") {
                        offenders.append("\(folder)/\(url.path.dropFirst(root.path.count + 1)): \(name)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(seen, 30, "the scan found too few error types to be reading the sources")
        XCTAssertEqual(offenders, [], "name each error type …Error (docs/architecture.md, \"Errors\")")
    }

    func testTheScanFindsErrorTypesInEveryForm() {
        let text = """
            public struct ServerAPIFailure: Error, Sendable {
            package enum Refusal: Error, CustomStringConvertible {
                struct Failure: Swift.Error {}
            final class Broken: Sendable, Error {
            struct NotAnError: Sendable, Hashable {
            public struct GoodError: Error {
            """
        XCTAssertEqual(Self.errorTypes(in: text), ["ServerAPIFailure", "Refusal", "Failure", "Broken", "GoodError"])
    }
}
