import Foundation
import FuzzTargets
import TestSupport
import XCTest

/// The replay both `swift run fuzz-TARGET PATH` and `CorpusReplayTests` use: it names
/// each input before running it and never passes on nothing.
final class ReplayerTests: XCTestCase {
    /// A temporary folder holding `files` (name → contents), removed when the test ends.
    func folder(_ files: [String: [UInt8]]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replayer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        for (name, bytes) in files {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    func fuzzBER(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.product("fuzz-ber"), arguments)
    }

    func testReplayNamesEachInputBeforeRunningIt() throws {
        let directory = try folder(["a": [0x05, 0x00], "b": [0x01, 0x01, 0xFF], "c": []])
        var events: [String] = []
        let files = try inputFiles(at: directory.path)
        try replay(files, through: { events.append("run \(hexString($0))") },
                   announce: { events.append("announce \(URL(fileURLWithPath: $0).lastPathComponent)") })
        XCTAssertEqual(events, ["announce a", "run 0500", "announce b", "run 0101ff", "announce c", "run "])
    }

    func testReplayerNamesEachInputOnStandardError() throws {
        let directory = try folder(["first": [0x05, 0x00], "second": [0x30, 0x00]])
        let output = try fuzzBER([directory.path])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertEqual(output.standardError, "replaying \(directory.path)/first\nreplaying \(directory.path)/second\n")
        XCTAssertEqual(output.standardOutput, "replayed 2 input(s) through ber: no finding\n")
    }

    func testReplayerRefusesAPathThatDoesNotExist() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("replayer-missing-\(UUID().uuidString)").path
        let output = try fuzzBER([missing])
        XCTAssertEqual(output.status, 66, output.standardOutput)
        XCTAssertTrue(output.standardError.contains("\(missing): no such file or folder"), output.standardError)
        XCTAssertFalse(output.standardOutput.contains("no finding"), output.standardOutput)
        // Nothing runs when one of several paths is missing.
        let good = try folder(["a": [0x05, 0x00]])
        let mixed = try fuzzBER([good.path, missing])
        XCTAssertEqual(mixed.status, 66, mixed.standardOutput)
        XCTAssertFalse(mixed.standardError.contains("replaying"), mixed.standardError)
    }

    func testReplayerRefusesAFolderWithNoInputs() throws {
        let empty = try folder([:])
        let output = try fuzzBER([empty.path])
        XCTAssertEqual(output.status, 66, output.standardOutput)
        XCTAssertTrue(output.standardError.contains("\(empty.path): the folder holds no inputs"), output.standardError)
        // Folders are no inputs.
        try FileManager.default.createDirectory(at: empty.appendingPathComponent("findings"), withIntermediateDirectories: true)
        let nested = try fuzzBER([empty.path])
        XCTAssertEqual(nested.status, 66, nested.standardOutput)
    }

    /// An input that cannot be read (tested with a dangling link: CI runs as root, for
    /// which permissions do not stop a read) stops the replay with its name.
    func testReplayerReportsAnInputItCannotRead() throws {
        let directory = try folder(["a": [0x05, 0x00]])
        let link = directory.appendingPathComponent("b")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: directory.path + "/gone")
        let output = try fuzzBER([directory.path])
        XCTAssertEqual(output.status, 74, output.standardOutput + output.standardError)
        XCTAssertTrue(output.standardError.contains("\(link.path): cannot read"), output.standardError)
        XCTAssertFalse(output.standardOutput.contains("no finding"), output.standardOutput)
    }
}
