import Foundation
import ReceiptForge
import XCTest
import StrictJSON

/// The `.storekit` and app files in `Tests/Inputs` (outside the test target, so the
/// build does not take them for resources).
enum InputFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }
}

/// The error `body` throws; fails the test when it returns instead.
func inputError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> JSONInputError? {
    do {
        let value = try body()
        XCTFail("expected an JSONInputError, got \(value)", file: file, line: line)
    } catch let error as JSONInputError {
        return error
    } catch {
        XCTFail("expected an JSONInputError, got \(error)", file: file, line: line)
    }
    return nil
}

/// A fresh directory for files a test writes, removed when the test ends.
func scratchDirectory(for test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("forge-inputs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
