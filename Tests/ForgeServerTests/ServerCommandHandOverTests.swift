import Foundation
import TestSupport
import XCTest

/// `forge serve …` runs forge-serve with the same arguments: the help is the real one,
/// whichever way it is asked for, and a forge without forge-serve beside it (outside a
/// SwiftPM build folder) says how to get it.
final class ServerCommandHandOverTests: XCTestCase {
    func testForgeListsServeAndShowsForgeServesOwnHelp() throws {
        let overview = try ChildProcess.run(ChildProcess.product("forge"), ["--help"])
        XCTAssertEqual(overview.status, 0)
        XCTAssertTrue(overview.standardOutput.contains("serve "), overview.standardOutput)
        XCTAssertTrue(overview.standardOutput.contains("Answer like Apple's verifyReceipt"), overview.standardOutput)

        let direct = try ChildProcess.run(ChildProcess.product("forge-serve"), ["serve", "--help"])
        XCTAssertEqual(direct.status, 0)
        XCTAssertTrue(direct.standardOutput.contains("USAGE: forge serve"), direct.standardOutput)
        XCTAssertTrue(direct.standardOutput.contains("--rate-limits"), direct.standardOutput)
        for arguments in [["serve", "--help"], ["serve", "-h"], ["help", "serve"]] {
            let handedOver = try ChildProcess.run(ChildProcess.product("forge"), arguments)
            XCTAssertEqual(handedOver.status, 0, "\(arguments)")
            XCTAssertEqual(handedOver.standardOutput, direct.standardOutput, "\(arguments)")
        }
    }

    func testForgeServeHoldsEachServerCommand() throws {
        let overview = try ChildProcess.run(ChildProcess.product("forge-serve"), ["--help"])
        XCTAssertEqual(overview.status, 0)
        let listed = overview.standardOutput.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        XCTAssertTrue(listed.contains("serve "), overview.standardOutput)
    }

    func testAForgeWithoutForgeServeSaysHowToGetIt() throws {
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("forge-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let forge = alone.appendingPathComponent("forge")
        try FileManager.default.copyItem(at: ChildProcess.product("forge"), to: forge)

        let serve = try ChildProcess.run(forge, ["serve", "--port", "0"], workingDirectory: alone)
        XCTAssertEqual(serve.status, 69)
        XCTAssertEqual(serve.standardOutput, "")
        for phrase in ["forge serve: the server commands live in the executable forge-serve, which is not beside this forge (\(alone.resolvingSymlinksInPath().path))",
                       "swift build --product forge-serve"] {
            XCTAssertTrue(serve.standardError.contains(phrase), serve.standardError)
        }
        // Everything else stays in forge.
        let list = try ChildProcess.run(forge, ["list"], workingDirectory: alone)
        XCTAssertEqual(list.status, 0, list.standardError)
    }
}
